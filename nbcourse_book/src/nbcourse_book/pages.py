"""HTML pages: scripts once each and not blocking the first paint, descriptions in Unicode,
accessible and lighter markup (``docs/building.md``)."""

import re
from pathlib import Path

from docutils import nodes
from pygments.formatters import HtmlFormatter
from pygments.styles import get_style_by_name
from pygments.token import STANDARD_TYPES, Generic, Text
from pygments.util import ClassNotFound
from pylatexenc.latex2text import LatexNodes2Text
from sphinx.util.images import get_image_size

NOT_DEFERRED = ("documentation_options.js",)
"""Scripts that later inline scripts use at once (``DOCUMENTATION_OPTIONS.pagename = ...``)."""


def defer_scripts(app, pagename, templatename, context, doctree):
    """Extensions' scripts load once each and with ``defer``, in their order, so that none
    blocks the first paint; inline scripts stay.  Sphinx 7.4 lists twice an inline script
    that an extension adds once the builder has started (sphinx-togglebutton's selector, as
    from no file and from file ``''``).  The search page, whose template loads
    searchtools.js after them (it needs doctools.js at once), keeps its scripts undeferred."""
    scripts = {}  # (file, attributes) -> the script, deferred
    for script in context.get("script_files", []):
        filename = str(getattr(script, "filename", "") or "")
        attributes = dict(getattr(script, "attributes", {}))
        if (pagename != "search" and filename and not {"async", "defer"} & set(attributes)
                and not filename.endswith(NOT_DEFERRED)):
            script = type(script)(filename, priority=script.priority, **attributes, defer="defer")
        scripts.setdefault((filename, str(attributes)), script)
    context["script_files"] = list(scripts.values())


def tex_to_text(tex):
    """Plain Unicode for the TeX of a page's first lines, by pylatexenc's ``latex2text``
    (sub- and superscripts stay ``_`` and ``^``; ``\\tfrac`` and ``\\dfrac``, which it does
    not know, are fractions as ``\\frac`` is), on one line.

    >>> tex_to_text(r"Q^{-j} = \\theta_j \\pi_1 \\mid \\mathbf x")
    'Q^-j = θ_j π_1 |𝐱'
    >>> tex_to_text("\\\\tfrac{1}{2} = \\\\frac{a}\\n{b}")
    '1/2 = a/b'
    """
    tex = re.sub(r"\\[td]frac(?![A-Za-z])", r"\\frac", tex)
    return " ".join(LatexNodes2Text().latex_to_text(tex).split())


def plain_text_for_description(app, pagename, templatename, context, doctree):
    """The page's text as a reader sees it for sphinxext-opengraph's description, which it
    writes next: mathematics in Unicode, each paragraph in one piece (it joins pieces by rule:
    "Duda et al.[ 2001](§2.9)").  The page's HTML is already written."""
    if doctree is None:
        return
    for node in list(doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))):
        node.replace_self(nodes.inline(text=tex_to_text(node.astext())))
    for paragraph in doctree.findall(nodes.paragraph):
        paragraph.children = [nodes.Text(" ".join(paragraph.astext().split()))]


def _pixel_size(node):
    """True if the image's width and height (one at least) are whole pixels, unscaled (docutils
    takes a length's digits as ASCII)."""
    size = [node[key] for key in ("width", "height") if key in node]
    return bool(size) and "scale" not in node and all(str(v).isdecimal() for v in size)


class AccessibleHTMLMixin:
    """docutils 0.21's HTML writer with a bibliography entry as a ``listitem`` (not
    ``doc-biblioentry``, which a list may not hold), an image's file size in pixels as its
    ``width`` and ``height`` (set after Sphinx links sized images to their files)."""

    def visit_citation(self, node):
        if not isinstance(node.previous_sibling(), type(node)):
            self.body.append('<div role="list" class="citation-list">\n')
        self.body.append(self.starttag(node, "div", classes=[node.tagname], role="listitem"))

    def visit_image(self, node):
        uri = node.get("uri", "")
        if not any(key in node for key in ("width", "height", "scale")) \
                and uri in self.builder.images:  # a file of the book, copied to _images
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
    """The HTML builder's translator (the theme's, if it set one) with
    :class:`AccessibleHTMLMixin`."""
    if app.builder.format != "html":
        return
    base = (app.registry.translators.get(app.builder.name)
            or getattr(app.builder, "default_translator_class", None))
    if base is not None and not issubclass(base, AccessibleHTMLMixin):
        translator = type("AccessibleHTMLTranslator", (AccessibleHTMLMixin, base), {})
        app.set_translator(app.builder.name, translator, override=True)


class _DrawnAlikeFormatter(HtmlFormatter):
    """Pygments' HTML formatter writing each token with the class of ``drawn_as[type]``: no
    ``<span>`` for ``Text``, so that neighbouring tokens drawn alike share one."""

    drawn_as = {}

    def _get_css_classes(self, ttype):
        ttype = self.drawn_as.get(ttype, ttype)
        return "" if ttype is Text else super()._get_css_classes(ttype)


def drawn_alike(style_names):
    """Each of Pygments' standard token types mapped to the one written in its place: ``Text``
    for those every style draws as its plain text, else the type with the shortest class of
    those every style draws alike.  Generic tokens (prompts, output) keep their own class:
    sphinx-copybutton and the theme find prompts by it."""
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
    """Code is highlighted with one ``<span>`` for each run of tokens that the theme's light
    and dark styles both draw alike, and none for those both draw as plain text
    (``_static/nbcourse.css`` gives a code block the style's text colour)."""
    if app.builder.format != "html" or not hasattr(app.builder, "highlighter"):
        return
    options = dict(app.config.html_theme_options or {})
    theme = getattr(app.builder, "theme", None)
    defaults = theme.get_options() if theme is not None else {}
    names = [options.get(key) or defaults.get(key)
             for key in ("pygments_light_style", "pygments_dark_style")]
    try:
        drawn_as = drawn_alike(names) if all(names) else None
    except ClassNotFound:  # the theme falls back to other styles: every token keeps its span
        drawn_as = None
    if drawn_as is not None:
        app.builder.highlighter.formatter = type("DrawnAlikeFormatter", (_DrawnAlikeFormatter,),
                                                 {"drawn_as": drawn_as})
