"""How the book renders the project's JSON outputs (:mod:`nbcourse.mime`): a myst-nb MIME
render plugin and the Sphinx extension that goes with it.

:class:`MimeRenderer` is registered with myst-nb through the entry point group
``myst_nb.mime_renderers`` (``pyproject.toml``), which myst-nb reads when it parses a
notebook; it turns each output of the two types into doctree nodes, for every builder at
once (myst-nb then keeps, per builder, the representation its priority list prefers):

self-check question (:data:`~nbcourse.mime.SELFCHECK`)
    HTML: the question's form (:meth:`Question._repr_html_`), as a raw HTML node that also
    carries the question's JSON form in its attribute ``nbcourse_selfcheck``, where the
    answers appendix reads it (:func:`questions_in`).  LaTeX: the question as text, "Self-check:"
    and the prompt, with its options as a list (a node ``only`` for ``format_latex`` whose
    attribute ``nbcourse_selfcheck`` is the question's id); the book's print extension adds the
    page of its answer.  The plugin ranks the type first for every builder, above the
    ``text/html`` and ``text/plain`` of the same output.
explorable figure (:data:`~nbcourse.mime.EXPLORE`)
    HTML: a node :class:`explore_figure`, which the HTML writer turns into the static control
    (:func:`nbcourse.interact.static_html`), writing each frame as a file under ``_images``
    (named by a hash of its bytes) and linking it.  LaTeX and other builders: the type is
    ranked only for HTML builders, so print gets the output's ``image/png`` still.

:func:`setup` makes this module a Sphinx extension (``_config.yml``): it registers the node
and stops the build with an explanation when the plugin's entry point is not installed (an
installation of the project from before the entry point existed: reinstall it).
"""

from __future__ import annotations

import base64
import hashlib
import posixpath
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

from .interact.frames import check_static, static_html
from .mime import EXPLORE, SELFCHECK
from .selfcheck import Question

__all__ = ["HTML_BUILDERS", "MimeRenderer", "explore_figure", "questions_in", "setup"]

HTML_BUILDERS = ("html", "dirhtml", "singlehtml", "epub")
"""Builders that show an explorable figure's static control (others print its still)."""

ENTRY_POINT_GROUP = "myst_nb.mime_renderers"


class explore_figure(nodes.General, nodes.Element):
    """An explorable figure; attribute ``nbcourse_explore`` holds its JSON form."""


def question_nodes(question: Question) -> list[nodes.Element]:
    """The HTML form and the printed form of a self-check question."""
    form = nodes.raw("", question._repr_html_(), format="html",
                     classes=["output", "text_html"], nbcourse_selfcheck=question.to_json())
    para = nodes.paragraph()
    para += nodes.strong(text="Self-check: ")
    para += nodes.Text(" ".join(question.prompt.split()))
    printed = addnodes.only(expr="format_latex", nbcourse_selfcheck=question.ident)
    printed += para
    if question.options:
        items = nodes.enumerated_list(enumtype="loweralpha", prefix="(", suffix=")")
        for option in question.options:
            items += nodes.list_item("", nodes.paragraph(text=" ".join(option.split())))
        printed += items
    return [form, printed]


def questions_in(doctree: nodes.Node) -> list[Question]:
    """The self-check questions that the plugin rendered in ``doctree``, in order."""
    return [Question.from_json(node["nbcourse_selfcheck"])
            for node in doctree.findall(nodes.raw) if "nbcourse_selfcheck" in node.attributes]


class MimeRenderer:
    """myst-nb MIME render plugin for :data:`~nbcourse.mime.SELFCHECK` and
    :data:`~nbcourse.mime.EXPLORE` (see the module notes)."""

    mime_priority_overrides = ([("*", SELFCHECK, 1)]
                               + [(builder, EXPLORE, 1) for builder in HTML_BUILDERS])

    @staticmethod
    def handle_mime(renderer, data, inline: bool):
        """Nodes for an output of one of the project's types, or None for any other."""
        if inline or data.mime_type not in (SELFCHECK, EXPLORE):
            return None
        try:
            if data.mime_type == SELFCHECK:
                return question_nodes(Question.from_json(data.content))
            return [explore_figure(nbcourse_explore=check_static(data.content))]
        except (TypeError, ValueError) as exc:
            renderer.logger.warning(f"output {data.output_index} of cell {data.cell_index} "
                                    f"cannot be rendered: {exc}", line=data.line,
                                    subtype="nbcourse_mime")
            return []


def visit_explore_html(self, node: explore_figure) -> None:
    """Write the figure's frames to ``_images`` and the static control into the page."""
    data = node["nbcourse_explore"]
    images = Path(self.builder.outdir) / self.builder.imagedir
    images.mkdir(parents=True, exist_ok=True)
    uris = []
    for frame in data["frames"]:
        png = base64.b64decode(frame)
        name = f"nbcourse-frame-{hashlib.sha256(png).hexdigest()[:20]}.png"
        target = images / name
        if not target.exists():
            target.write_bytes(png)
        uris.append(posixpath.join(self.builder.imgpath, name))
    self.body.append(f'<div class="output text_html">{static_html(data, uris)}</div>')
    raise nodes.SkipNode


def skip(self, node) -> None:
    raise nodes.SkipNode


def check_registered(app) -> None:
    """Stop the build if myst-nb does not know the plugin (an outdated installation)."""
    from myst_nb.core.render import load_mime_renders

    if MimeRenderer not in load_mime_renders():
        from sphinx.errors import ExtensionError

        raise ExtensionError(
            f"nbcourse.mystnb.MimeRenderer must be registered in the entry point group "
            f"{ENTRY_POINT_GROUP!r}, got the renderers {load_mime_renders()!r}: the installed "
            f"nbcourse predates its entry point; reinstall it (pip install -e .)")


def setup(app):
    app.add_node(explore_figure, html=(visit_explore_html, None),
                 **{fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")})
    app.connect("builder-inited", check_registered)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
