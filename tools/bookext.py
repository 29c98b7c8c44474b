"""Small Sphinx extension with the book's fixes to the default Jupyter Book 1.x pages.

- sphinx-thebe registers its configuration script once per environment read, so a page can
  carry two copies of ``const THEBE_JS_URL = ...``, which is a JavaScript error in the
  browser.  Each page keeps the first copy of every script.
- Sphinx writes the extensions' scripts in the head without ``defer``; they get it, so that
  none blocks the first paint (``documentation_options.js``, which inline scripts use at
  once, excepted).  sphinx-design's and sphinx-thebe's stylesheets and scripts, which
  Jupyter Book adds to every page, are left off the pages that use neither.
- Code is highlighted without a ``<span>`` around the tokens (names, punctuation) that the
  theme's light and dark highlighting styles both draw as the code's plain text.

Accessibility fixes to the theme's markup (checked by ``tests/test_a11y.py`` with axe-core):

- The search button named by its visible text ("Search Ctrl+K", for speech input) and the
  icons hidden from assistive technology come from the book's theme templates
  (``_templates/``), which draw the icons as inline SVG.
- docutils marks the bibliography ``role="list"`` with ``doc-biblioentry`` children, a
  deprecated role that a list may not hold; the entries become ``listitem``.
- pandas tables leave the corner above the row labels as an empty header cell; it
  becomes an ordinary cell.
- The proof index is a layout table with no header cells; it is marked as presentation.
- The sidebar logo sits outside every landmark; it is wrapped in the header landmark.
- Images from ``_images`` get their ``width`` and ``height``, so the page does not shift as
  they load (the stylesheet keeps them fluid); every image of a page but the first loads
  lazily.
- The ``index.html`` redirect page gets a language, a title and a visible link.
- TeX in a page title (``The factor $Q^{-j}$``) is written with Unicode in ``<title>`` and
  the print header, where no HTML can typeset it, and ``{doc}`` links, which Sphinx
  writes with the title's plain text (``The factor Q^{-j}``), carry the title's mathematics.

It also adds the role ``{assignment}`NAME```, which links a chapter to its graded assignment:
the student notebook ``exercises/NAME/NAME.ipynb`` opened on Binder, with the repository,
branch and notebook interface taken from ``_config.yml``, as the launch buttons are.  A name
with no such notebook fails the build.
"""

import html
import re
from pathlib import Path
from urllib.parse import quote

from docutils import nodes
from pygments.formatters import HtmlFormatter
from pygments.styles import get_style_by_name
from pygments.token import STANDARD_TYPES, Generic, Text
from pygments.util import ClassNotFound
from sphinx.util import logging

logger = logging.getLogger(__name__)


def _script_key(script):
    filename = getattr(script, "filename", script) or None  # inline scripts: None or ""
    return (filename, str(getattr(script, "attributes", {})))


def dedupe_scripts(app, pagename, templatename, context, doctree):
    seen, unique = set(), []
    for script in context.get("script_files", []):
        key = _script_key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


# A script every later inline script may use at once (``DOCUMENTATION_OPTIONS.pagename = ...``)
_NOT_DEFERRED = ("documentation_options.js",)


def defer_scripts(app, pagename, templatename, context, doctree):
    """Extensions' scripts load with ``defer``: they no longer hold up the first paint.

    Sphinx writes them in the head without ``async`` or ``defer``, so the browser stops
    parsing the page at each one.  They all wait for ``DOMContentLoaded`` (or run on
    elements that exist by then), which deferred scripts still precede, in their order.
    Inline scripts, which only set variables the deferred ones read later, stay as they are.
    The search page is left alone: its template loads searchtools.js, which needs
    doctools.js at once, after the others.
    """
    if pagename == "search":
        return
    deferred = []
    for script in context.get("script_files", []):
        filename = str(getattr(script, "filename", "") or "")
        attributes = dict(getattr(script, "attributes", {}))
        if (filename and not {"async", "defer"} & set(attributes)
                and not filename.endswith(_NOT_DEFERRED)):
            attributes["defer"] = "defer"
            script = type(script)(filename, priority=script.priority, **attributes)
        deferred.append(script)
    context["script_files"] = deferred


# (marker of use in a page's body, asset file names): extensions Jupyter Book loads on every
# page whose stylesheets and scripts a page that uses none of their markup does not need
_UNUSED_ASSETS = (
    ('class="sd-', ("sphinx-design.min.css", "design-tabs.js")),  # sphinx-design
    ('class="thebe', ("sphinx-thebe.css", "sphinx-thebe.js")),  # sphinx-thebe: a thebe button
)


def drop_unused_assets(app, pagename, templatename, context, doctree):
    """Leave off a page the stylesheets and scripts of extensions it does not use."""
    body = context.get("body", "")
    unused = tuple(name for marker, names in _UNUSED_ASSETS if marker not in body
                   for name in names)
    if not unused:
        return
    for key in ("css_files", "script_files"):
        context[key] = [asset for asset in context.get(key, [])
                        if not str(getattr(asset, "filename", "") or "").endswith(unused)]


# ``launch_buttons.notebook_interface`` -> the start of Binder's ``urlpath``, as the launch
# buttons of sphinx-book-theme read it
INTERFACE_PATHS = {"jupyterlab": "lab/tree", "classic": "tree"}


def binder_url(config, path):
    """The Binder address that opens ``path`` (relative to the repository root).

    The repository is ``repository.url``, the branch ``repository.branch`` and the interface
    ``launch_buttons.notebook_interface`` of ``_config.yml`` (JupyterLab: ``urlpath=lab/tree/``,
    classic Notebook: ``urlpath=tree/``), so the address opens what the page's launch button
    opens.
    """
    options = config.html_theme_options
    repo = options["repository_url"].rstrip("/").removeprefix("https://github.com/")
    branch = options.get("repository_branch", "main")
    launch = options.get("launch_buttons", {})
    hub = launch.get("binderhub_url", "https://mybinder.org")
    interface = launch.get("notebook_interface", "classic")
    if interface not in INTERFACE_PATHS:
        raise ValueError(f"launch_buttons.notebook_interface: expected one of "
                         f"{sorted(INTERFACE_PATHS)}, got {interface!r}")
    return f"{hub.rstrip('/')}/v2/gh/{repo}/{branch}?urlpath={INTERFACE_PATHS[interface]}/{quote(path)}"


def assignment_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{assignment}`02-binary-discriminant``` -> a Binder link to the student notebook."""
    app = inliner.document.settings.env.app
    path = f"exercises/{text}/{text}.ipynb"
    if not (Path(app.confdir) / path).is_file():
        msg = inliner.reporter.error(f"assignment {text!r}: no student notebook at {path}",
                                     line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    link = nodes.reference(rawtext, "", refuri=binder_url(app.config, path), **(options or {}))
    link += nodes.literal(text=f"exercises/{text}")
    return [link], []


# ------------------------------------------------------------------ accessibility fixes

_GREEK = {name: chr(code) for name, code in (
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("epsilon", 0x3B5),
    ("theta", 0x3B8), ("kappa", 0x3BA), ("lambda", 0x3BB), ("mu", 0x3BC), ("pi", 0x3C0),
    ("rho", 0x3C1), ("sigma", 0x3C3), ("tau", 0x3C4), ("phi", 0x3C6), ("omega", 0x3C9),
    ("Omega", 0x3A9), ("Sigma", 0x3A3), ("Pi", 0x3A0), ("Theta", 0x398),
    # operators and relations met in the first lines of chapters
    ("mid", 0x2223), ("cdot", 0xB7), ("times", 0xD7), ("le", 0x2264), ("ge", 0x2265),
    ("ne", 0x2260), ("neq", 0x2260), ("approx", 0x2248), ("sim", 0x223C), ("to", 0x2192),
    ("infty", 0x221E), ("propto", 0x221D), ("in", 0x2208), ("ell", 0x2113),
    ("dots", 0x2026), ("ldots", 0x2026))}
_SUP = dict(zip("0123456789+-=()ijknT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱʲᵏⁿᵀ", strict=True))
_SUB = dict(zip("0123456789+-=()ijkn", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ᵢⱼₖₙ", strict=True))
_MATH = re.compile(r"\\\((.+?)\\\)|\$(.+?)\$")


def _script(text, table, mark):
    """``text`` in Unicode super/subscripts, or ``mark`` + text when a character has none."""
    if all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    return f"{mark}{text}" if len(text) == 1 else f"{mark}({text})"


def tex_to_text(title):
    """Plain Unicode for the simple TeX found in titles: ``The factor \\(Q^{-j}\\)`` -> ``The factor Q⁻ʲ``.

    >>> tex_to_text(r"The factor \\(Q^{-j}\\)")
    'The factor Q⁻ʲ'
    >>> tex_to_text(r"Weights \\(\\theta_j\\) and \\(\\pi_1\\)")
    'Weights θⱼ and π₁'
    """
    def convert(match):
        tex = match.group(1) or match.group(2)
        tex = re.sub(r"\\(mathbf|boldsymbol|mathrm|text)\s*\{([^{}]*)\}", r"\2", tex)
        tex = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), m.group(1)), tex)
        tex = re.sub(r"\^\{([^{}]*)\}|\^(.)", lambda m: _script(m.group(1) or m.group(2), _SUP, "^"),
                     tex)
        tex = re.sub(r"_\{([^{}]*)\}|_(.)", lambda m: _script(m.group(1) or m.group(2), _SUB, "_"),
                     tex)
        return tex.replace("{", "").replace("}", "").strip()
    return _MATH.sub(convert, title)


def plain_title(app, pagename, templatename, context, doctree):
    """Page titles with Unicode instead of TeX where HTML cannot typeset it (``<title>``)."""
    title = context.get("title")
    if title and ("\\(" in title or "$" in title):
        context["title"] = tex_to_text(title)
        # sphinx-book-theme's print header: the title as text, TeX without delimiters
        context["pagetitle"] = re.sub(r"<[^>]+>", "", context["title"])
    for key in ("prev", "next"):  # the <link rel=prev/next title=...> attributes
        link = context.get(key)
        if link and "\\(" in (link.get("title") or ""):
            link["title"] = tex_to_text(link["title"])


def plain_math_for_description(app, pagename, templatename, context, doctree):
    """Mathematics as Unicode in the page description sphinxext-opengraph writes next.

    sphinxext-opengraph takes ``<meta name="description">`` from the first text of the
    page's doctree, where an equation is its TeX (``Q^{-j}``).  By this event the page's
    HTML is written, so the doctree's equations are replaced by their Unicode form
    (``Q⁻ʲ``) for the description alone.
    """
    if doctree is None:
        return
    for node in list(doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))):
        text = " ".join(tex_to_text(f"${line}$") for line in node.astext().split("\n")
                        if line.strip())
        node.replace_self(nodes.inline(text=text))


def lazy_images(app, doctree, docname):
    """Every image of a page but its first loads lazily (``loading="lazy"``), when it nears the
    screen; the first, which may be on the first screen, loads at once."""
    if app.builder.format != "html":
        return
    for image in list(doctree.findall(nodes.image))[1:]:
        image.setdefault("loading", "lazy")


def site_name_from_title(app, config):
    """sphinxext-opengraph's ``og:site_name`` is the book's title unless set."""
    if getattr(config, "ogp_site_name", False) is None:
        config.ogp_site_name = config.html_title


def math_in_doc_links(app, doctree, docname):
    """``{doc}`` links to a page whose title has mathematics show it typeset, not as TeX."""
    from sphinx.util.nodes import clean_astext

    with_math = {clean_astext(title): title for title in app.env.titles.values()
                 if any(isinstance(n, nodes.math) for n in title.findall(nodes.math))}
    if not with_math:
        return
    for inline in list(doctree.findall(nodes.inline)):
        title = with_math.get(inline.astext())
        if "doc" in inline["classes"] and title is not None:
            inline.children = []
            inline.extend(child.deepcopy() for child in title.children)


# (pattern, replacement) applied to every built HTML page; the build log says how many
# pages changed.
_MARKUP_FIXES = (
    # bibliography: docutils' role="list" holds entries with the deprecated doc-biblioentry
    (re.compile(r'<div class="citation" id="([^"]*)" role="doc-biblioentry">'),
     r'<div class="citation" id="\1" role="listitem">'),
    # the proof index is a layout table without header cells
    (re.compile(r'<table class="indextable modindextable">'),
     '<table class="indextable modindextable" role="presentation">'),
)


_DATAFRAME = re.compile(r'<table[^>]*class="dataframe[^"]*"[^>]*>.*?</table>', re.S)


def _fix_markup(text):
    for pattern, replacement in _MARKUP_FIXES:
        text = pattern.sub(replacement, text)
    # pandas tables: the blank corner above the row labels is a cell, not a header
    text = _DATAFRAME.sub(lambda t: re.sub(r"<th([^>]*)></th>", r"<td\1></td>", t.group(0)),
                          text)
    # the sidebar logo, a link outside every landmark, goes into a navigation landmark
    text = re.sub(r'(<div class="sidebar-primary-items__start sidebar-primary__section">)'
                  r'(\s*<div class="sidebar-primary-item">\s*<a class="navbar-brand logo".*?</a>'
                  r"\s*</div>)",
                  r'\1<nav aria-label="Book">\2</nav>', text, count=1, flags=re.S)
    return text


def _redirect_page(config, target):
    title = html.escape(config.html_title or config.project)
    target = html.escape(target)
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(config.language or "en")}">\n'
            f'<head><meta charset="utf-8"><title>{title}</title>\n'
            f'<meta http-equiv="Refresh" content="0; url={target}"></head>\n'
            f'<body><main><p><a href="{target}">{title}</a></p></main></body>\n</html>\n')


_IMG = re.compile(r'<img (?![^>]*\swidth=)([^>]*?)src="([^"]*_images/[^"]+\.png)"([^>]*?)\s*/?>')


def _png_size(path):
    """(width, height) from a PNG file's header, or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _image_sizes(text, page):
    """``width`` and ``height`` on every PNG from ``_images``, so the page does not shift."""
    def add(match):
        size = _png_size(page.parent / match.group(2))
        if size is None:
            return match.group(0)
        return (f'<img {match.group(1)}src="{match.group(2)}"{match.group(3)} '
                f'width="{size[0]}" height="{size[1]}" />')
    return _IMG.sub(add, text)


def accessible_markup(app, exception):
    """Rewrite the built pages with :data:`_MARKUP_FIXES`; write an accessible index.html."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    changed = 0
    for page in out.rglob("*.html"):
        if {"_static", "_sources"} & set(page.relative_to(out).parts):
            continue
        text = page.read_text(encoding="utf-8")
        fixed = _image_sizes(_fix_markup(text), page)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")
            changed += 1
    index = out / "index.html"
    if app.config.root_doc != "index" and (not index.exists()
                                           or "Refresh" in index.read_text(encoding="utf-8")):
        index.write_text(_redirect_page(app.config, f"{app.config.root_doc}.html"),
                         encoding="utf-8")
    logger.info("accessibility fixes applied to %d pages", changed)


# --- code highlighting without spans that change nothing ----------------------------------

class _PlainTokenFormatter(HtmlFormatter):
    """Pygments' HTML formatter that writes no ``<span>`` for the token types in ``plain``."""

    plain = frozenset()

    def _get_css_classes(self, ttype):
        return "" if ttype in self.plain else super()._get_css_classes(ttype)


def plain_token_types(style_names):
    """The token types (of Pygments' standard ones) every style draws as its plain text.

    Generic tokens (prompts, output, ...) are never counted: sphinx-copybutton and the
    theme find prompts by their class.
    """
    plain = None
    for name in style_names:
        style = get_style_by_name(name)
        text = style.style_for_token(Text)
        same = {t for t in STANDARD_TYPES
                if t not in Generic and style.style_for_token(t) == text}
        plain = same if plain is None else plain & same
    return frozenset(plain or ())


def unwrap_plain_tokens(app):
    """Code is highlighted without a ``<span>`` around tokens drawn as plain text.

    Pygments wraps every token in a ``<span>``, even names and punctuation, which the
    theme's highlighting styles (light and dark) draw in the colour of the code's plain
    text: a long chapter carries thousands of such elements, which the browser styles and
    lays out before its first paint.  Token types that both styles draw as plain text are
    written as bare text; ``_static/nbcourse.css`` gives a code block's ``<pre>`` the
    style's text colour (the theme gives it that of the page's text), so they look as before.
    """
    if app.builder.format != "html" or not hasattr(app.builder, "highlighter"):
        return
    options = dict(app.config.html_theme_options or {})
    theme = getattr(app.builder, "theme", None)
    defaults = theme.get_options() if theme is not None else {}
    names = [options.get(key) or defaults.get(key)
             for key in ("pygments_light_style", "pygments_dark_style")]
    try:
        plain = plain_token_types([name for name in names if name])
    except ClassNotFound:
        return  # the theme falls back to other styles: leave every token its span
    if not all(names) or not plain:
        return
    formatter = type("PlainTokenFormatter", (_PlainTokenFormatter,), {"plain": plain})
    app.builder.highlighter.formatter = formatter


def setup(app):
    app.add_role("assignment", assignment_role)
    app.connect("html-page-context", dedupe_scripts, priority=900)
    app.connect("html-page-context", defer_scripts, priority=905)
    app.connect("html-page-context", drop_unused_assets, priority=990)
    app.connect("html-page-context", plain_title, priority=910)
    app.connect("doctree-resolved", math_in_doc_links)
    app.connect("doctree-resolved", lazy_images)
    app.connect("html-page-context", plain_math_for_description, priority=400)
    app.connect("config-inited", site_name_from_title)
    app.connect("builder-inited", unwrap_plain_tokens)
    app.connect("build-finished", accessible_markup, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
