"""Small Sphinx extension with the book's fixes to the default Jupyter Book 1.x pages.

- sphinx-thebe registers its configuration script once per environment read, so a page can
  carry two copies of ``const THEBE_JS_URL = ...``, which is a JavaScript error in the
  browser.  Each page keeps the first copy of every script.
- Sphinx writes the extensions' scripts in the head without ``defer``; they get it, so that
  none blocks the first paint (``documentation_options.js``, which inline scripts use at
  once, excepted).  sphinx-design's and sphinx-thebe's stylesheets and scripts, which
  Jupyter Book adds to every page, are left off the pages that use neither.
- Code is highlighted without a ``<span>`` around the tokens (names, punctuation) that the
  theme's light and dark highlighting styles both draw as the code's plain text, and with
  one ``<span>`` around neighbouring tokens both draw alike (a string and an operator).

Accessibility fixes to the theme's markup (checked by ``tests/test_a11y.py`` with axe-core),
made where the markup is written, never by rewriting built pages:

- The search button named by its visible text ("Search Ctrl+K", for speech input) and the
  icons hidden from assistive technology come from the book's theme templates
  (``_templates/``), which draw the icons as inline SVG.  There too: the sidebar logo sits
  in a navigation landmark (``components/navbar-logo.html``), the proof index is marked as
  a layout table (``domainindex.html``), and ``index.html``, the redirect to the first page
  (``html_additional_pages`` in ``_config.yml``), has a language, a title and a visible link.
- docutils marks the bibliography ``role="list"`` with ``doc-biblioentry`` children, a
  deprecated role that a list may not hold; the HTML writer makes them ``listitem``.
- Images from the book's files get their ``width`` and ``height`` attributes, so the page
  does not shift as they load (the stylesheet keeps them fluid); every image loads lazily.
- Mathematics in a page title (``The factor $Q^{-v}$``) is written with Unicode in
  ``<title>``, ``og:title``, ``<link rel=prev/next>`` and the print header, where no HTML
  can typeset it, and ``{doc}`` links, which Sphinx writes with the title's plain text
  (``The factor Q^{-v}``), carry the title's mathematics.

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


def _uses_sphinx_design(doctree):
    return any(cls.startswith("sd-") for node in doctree.findall(nodes.Element)
               for cls in node.get("classes", ()))


def _uses_thebe(doctree):
    return any(type(node).__name__ == "ThebeButtonNode" for node in doctree.findall(nodes.Element))


# (whether a page's doctree uses the extension, asset file names): extensions Jupyter Book
# loads on every page whose stylesheets and scripts a page that uses none of them does not need
_UNUSED_ASSETS = (
    (_uses_sphinx_design, ("sphinx-design.min.css", "design-tabs.js")),
    (_uses_thebe, ("sphinx-thebe.css", "sphinx-thebe.js")),  # a thebe launch button
)


def _unused_assets(doctree):
    return tuple(name for uses, names in _UNUSED_ASSETS
                 if doctree is None or not uses(doctree) for name in names)


_UNUSED_ASSETS_OF_PAGE = {}


def note_unused_assets(app, doctree, docname):
    """Note which extensions' assets a page goes without while its doctree is as written:
    by ``html-page-context`` plain_text_for_description has rewritten its paragraphs."""
    if app.builder.format == "html":
        _UNUSED_ASSETS_OF_PAGE[docname] = _unused_assets(doctree)


def drop_unused_assets(app, pagename, templatename, context, doctree):
    """Leave off a page the stylesheets and scripts of extensions it does not use. It runs
    after the themes' handlers, which add scripts to the page's list."""
    unused = _unused_assets(None) if doctree is None else _UNUSED_ASSETS_OF_PAGE[pagename]
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
_SUP = dict(zip("0123456789+-=()ijknvT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱʲᵏⁿᵛᵀ", strict=True))
_SUB = dict(zip("0123456789+-=()ijknv", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ᵢⱼₖₙᵥ", strict=True))
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


def title_text(node):
    """A title's text with its mathematics in Unicode: ``The factor $Q^{-v}$`` -> ``The
    factor Q⁻ᵛ``."""
    if isinstance(node, nodes.math):
        return tex_to_text(f"${node.astext()}$")
    if isinstance(node, nodes.Text):
        return node.astext()
    return "".join(title_text(child) for child in node.children)


def _plain_title(app, docname):
    """The document's title in Unicode, HTML-escaped, if it holds mathematics; else None."""
    title = app.env.titles.get(docname)
    if title is not None and next(title.findall(nodes.math), None) is not None:
        return html.escape(title_text(title), quote=False)
    return None


def plain_title(app, pagename, templatename, context, doctree):
    """Titles with mathematics written in Unicode where HTML cannot typeset it: ``<title>``,
    sphinxext-opengraph's ``og:title`` (which reads the title next) and
    ``<link rel=prev/next>``.

    Sphinx gives the page the title as HTML, which for a title with mathematics holds the
    typeset MathML, so that its text would be the formula's symbols followed by its TeX.
    """
    text = _plain_title(app, pagename)
    if text:
        context["title"] = text
    parent_prev_next = getattr(app.builder, "relations", {}).get(pagename) or ()
    for key, docname in zip(("prev", "next"), parent_prev_next[1:], strict=False):
        text = docname and _plain_title(app, docname)
        if text and context.get(key):
            context[key]["title"] = text


def plain_print_title(app, pagename, templatename, context, doctree):
    """The title of sphinx-book-theme's print header in Unicode (the theme sets it from the
    title's text, its TeX without delimiters, before this runs)."""
    text = _plain_title(app, pagename)
    if text:
        context["pagetitle"] = text


def plain_text_for_description(app, pagename, templatename, context, doctree):
    """The page's text as a reader sees it, for the description sphinxext-opengraph writes
    next.

    sphinxext-opengraph takes ``<meta name="description">`` from the first text of the
    page's doctree, piece by piece: an equation is its TeX (``Q^{-j}``), and the spaces at
    the edges of each piece are dropped and others put back by rule, so that a citation
    reads "Duda et al.[ 2001](§2.9)". By this event the page's HTML is written, so for the
    description alone the doctree's equations are replaced by their Unicode form (``Q⁻ʲ``)
    and each paragraph by its text in one piece.
    """
    if doctree is None:
        return
    for node in list(doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))):
        text = " ".join(tex_to_text(f"${line}$") for line in node.astext().split("\n")
                        if line.strip())
        node.replace_self(nodes.inline(text=text))
    for paragraph in doctree.findall(nodes.paragraph):
        paragraph.children = [nodes.Text(" ".join(paragraph.astext().split()))]


GENERATED_PAGE_DESCRIPTIONS = {
    "genindex": "Every term the book indexes, with links to the pages that define it and use it.",
    "search": "Search the whole text of the book: every chapter, exercise and appendix.",
    "prf-prf": "The book's theorems and its other numbered statements, by label, each with "
               "the page that states it.",
}


def generated_page_description(app, pagename, templatename, context, doctree):
    """A description for the pages Sphinx writes without a source (the index, the search
    page, the index of theorems), where sphinxext-opengraph writes none; and the head's
    viewport tag once, where the layout writes it and docutils adds its own."""
    metatags = context.get("metatags", "")
    context["metatags"] = re.sub(r'\s*<meta name="viewport"[^>]*>', "", metatags)
    if doctree is not None or 'name="description"' in metatags:
        return
    text = GENERATED_PAGE_DESCRIPTIONS.get(pagename)
    if text is None:
        text = f"{context.get('title', '')}: {app.config.html_title}"
    context["metatags"] += f'\n<meta name="description" content="{html.escape(text)}" />'


def lazy_images(app, doctree, docname):
    """Every image of a page loads lazily (``loading="lazy"``), when it nears the screen.

    An image on the first screen is then requested once the page is laid out, a moment
    later than it would be otherwise; an image requested at once, wherever it is on the page,
    shares the phone's bandwidth with the stylesheet and delays the first paint of the text.
    """
    if app.builder.format != "html":
        return
    for image in doctree.findall(nodes.image):
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


# ------------------------------------------------------------------ HTML writer

_PIXELS = re.compile(r"[0-9]+")


def _pixel_size(node):
    """True if the image node's width and height (one at least) are whole pixels, unscaled."""
    size = [node[key] for key in ("width", "height") if key in node]
    return bool(size) and "scale" not in node and all(_PIXELS.fullmatch(str(v)) for v in size)


class AccessibleHTMLMixin:
    """The book's changes to docutils' HTML writer (docutils 0.21, which Sphinx 7 requires).

    - A bibliography entry is a ``listitem`` of docutils' ``role="list"``, not the deprecated
      ``doc-biblioentry``, a role a list may not hold.
    - An image from a file of the book gets the file's width and height in pixels, which
      are the ``<img>``'s ``width`` and ``height`` attributes (as docutils 0.22 writes whole
      pixels), not a ``style``: the browser reserves the image's place before it loads, and
      the stylesheet keeps it fluid.  They are set as the page is written, after Sphinx has
      linked every image given a size to its file (``html_scaled_image_link``), so that these
      images do not become links.
    - Inline code of one word is written as it is, not in a ``<span class="pre">``, which
      Sphinx puts around each word of inline code to keep it from wrapping across lines: a
      reference page such as the notation carries hundreds.  Such a word still breaks only
      where it is wider than the line (the theme's ``overflow-wrap``).
    """

    def visit_Text(self, node):
        text = node.astext()
        if self.protect_literal_text and text.strip() and not any(c.isspace() for c in text):
            self.body.append(self.encode(text))  # one word of inline code: no <span class="pre">
            return
        super().visit_Text(node)

    def visit_citation(self, node):
        if not isinstance(node.previous_sibling(), type(node)):
            self.body.append('<div role="list" class="citation-list">\n')
        self.body.append(self.starttag(node, "div", classes=[node.tagname], role="listitem"))

    def visit_image(self, node):
        uri = node.get("uri", "")
        if not any(key in node for key in ("width", "height", "scale")) \
                and uri in self.builder.images:  # a file of the book, copied to _images
            from sphinx.util.images import get_image_size

            size = get_image_size(str(Path(self.builder.srcdir, uri)))
            if size and size[0] > 0 and size[1] > 0:
                node["width"], node["height"] = str(size[0]), str(size[1])
        super().visit_image(node)

    def image_size(self, node):
        return "" if _pixel_size(node) else super().image_size(node)

    def emptytag(self, node, tagname, suffix="\n", **attributes):
        if tagname == "img" and isinstance(node, nodes.image) and _pixel_size(node):
            attributes.update({key: str(node[key]) for key in ("width", "height") if key in node})
        return super().emptytag(node, tagname, suffix, **attributes)


def accessible_translator(app):
    """The HTML builder's translator (the theme's, if it set one) with :class:`AccessibleHTMLMixin`."""
    if app.builder.format != "html":
        return
    base = app.registry.translators.get(app.builder.name)
    if base is None:
        base = getattr(app.builder, "default_translator_class", None)
    if base is None or issubclass(base, AccessibleHTMLMixin):
        return
    translator = type("AccessibleHTMLTranslator", (AccessibleHTMLMixin, base), {})
    app.set_translator(app.builder.name, translator, override=True)


# --- code highlighting: one span for tokens drawn alike ------------------------------------

class _DrawnAlikeFormatter(HtmlFormatter):
    """Pygments' HTML formatter that writes each token with the class of ``drawn_as[type]``:
    no ``<span>`` for ``Text``, so neighbouring tokens drawn alike share one ``<span>``."""

    drawn_as = {}

    def _get_css_classes(self, ttype):
        ttype = self.drawn_as.get(ttype, ttype)
        return "" if ttype is Text else super()._get_css_classes(ttype)


def drawn_alike(style_names):
    """Each of Pygments' standard token types mapped to the one written in its place: ``Text``
    for those every style draws as its plain text, else the type with the shortest class of
    those every style draws alike (strings and operators share one).

    Generic tokens (prompts, output, ...) keep their own class: sphinx-copybutton and the
    theme find prompts by it.
    """
    styles = [get_style_by_name(name) for name in style_names]

    def drawn(ttype):
        return tuple(tuple(sorted(style.style_for_token(ttype).items())) for style in styles)

    first = {drawn(Text): Text}
    for ttype in sorted(STANDARD_TYPES, key=lambda t: (len(STANDARD_TYPES[t]), STANDARD_TYPES[t])):
        if STANDARD_TYPES[ttype] and ttype not in Generic:
            first.setdefault(drawn(ttype), ttype)
    return {ttype: first[drawn(ttype)] if STANDARD_TYPES[ttype] else Text
            for ttype in STANDARD_TYPES if ttype not in Generic}


def merge_drawn_alike_tokens(app):
    """Code is highlighted with one ``<span>`` for each run of tokens drawn alike.

    Pygments wraps every token in a ``<span>`` of its type's class, even names and
    punctuation, which the theme's highlighting styles (light and dark) draw in the colour
    of the code's plain text, and the pieces of an f-string or a string and the operator
    beside it, which both draw in one colour: a long chapter carries thousands of such
    elements, which the browser styles and lays out before its first paint.  Token types
    that both styles draw as plain text are written as bare text, and those both draw alike
    with one class, so that Pygments joins neighbours into one ``<span>``;
    ``_static/nbcourse.css`` gives a code block's ``<pre>`` the style's text colour (the
    theme gives it that of the page's text), so they look as before.
    """
    if app.builder.format != "html" or not hasattr(app.builder, "highlighter"):
        return
    options = dict(app.config.html_theme_options or {})
    theme = getattr(app.builder, "theme", None)
    defaults = theme.get_options() if theme is not None else {}
    names = [options.get(key) or defaults.get(key)
             for key in ("pygments_light_style", "pygments_dark_style")]
    if not all(names):
        return
    try:
        drawn_as = drawn_alike(names)
    except ClassNotFound:
        return  # the theme falls back to other styles: leave every token its span
    formatter = type("DrawnAlikeFormatter", (_DrawnAlikeFormatter,), {"drawn_as": drawn_as})
    app.builder.highlighter.formatter = formatter


def setup(app):
    app.add_role("assignment", assignment_role)
    app.connect("html-page-context", dedupe_scripts, priority=900)
    app.connect("html-page-context", defer_scripts, priority=905)
    app.connect("html-page-context", drop_unused_assets, priority=990)
    app.connect("html-page-context", plain_title, priority=400)  # before opengraph
    app.connect("html-page-context", plain_print_title, priority=910)
    app.connect("doctree-resolved", math_in_doc_links)
    app.connect("doctree-resolved", lazy_images)
    app.connect("doctree-resolved", note_unused_assets)
    app.connect("html-page-context", plain_text_for_description, priority=400)
    app.connect("html-page-context", generated_page_description, priority=600)
    app.connect("config-inited", site_name_from_title)
    app.connect("builder-inited", merge_drawn_alike_tokens)
    app.connect("builder-inited", accessible_translator, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
