"""The myst-nb MIME render plugin (entry point group ``myst_nb.mime_renderers``) for the
project's JSON outputs (:mod:`nbcourse.mime`): each becomes the nodes of every medium, and
myst-nb keeps, per builder, what its priorities prefer."""

import base64
import hashlib
import html
import posixpath
import re
from pathlib import Path

from docutils import nodes
from myst_nb.core.render import base_render_priority
from sphinx import addnodes

from nbcourse.interact.frames import check_static, static_html
from nbcourse.mime import EXPLORE, SELFCHECK, TABLE, payload
from nbcourse.selfcheck import Question

from .notebooks import StudentNotebookBuilder
from .selfcheck import question_nodes

HTML_BUILDERS = ("html", "dirhtml", "singlehtml", "epub")
"""Builders that show an explorable figure's static control (others print its still)."""


class explore_figure(nodes.General, nodes.Element):
    """An explorable figure; attribute ``nbcourse_explore`` holds its JSON form."""


def table_rows(form) -> tuple[list, list, str]:
    """The head rows, body rows and dimensions line of a table's JSON form, checked."""
    form = payload(form, TABLE, {"head": list, "body": list, "dimensions": str})
    for part in ("head", "body"):
        for k, row in enumerate(form[part]):
            if not isinstance(row, list) or not all(
                    isinstance(c, dict) and isinstance(c.get("text"), str) for c in row):
                raise TypeError(f"{part} row {k} must be a list of cells {{'text': str, ...}}, "
                                f"got {row!r}")
    return form["head"], form["body"], form["dimensions"]


def _cell_html(cell: dict) -> str:
    tag = "th" if cell.get("th") and cell["text"] else "td"
    spans = "".join(f' {key}="{int(cell[key])}"' for key in ("colspan", "rowspan") if key in cell)
    return f"<{tag}{spans}>{html.escape(cell['text'])}</{tag}>"


def table_html(form) -> str:
    """A table's JSON form as an HTML table (``table.dataframe``, as pandas classes it): an
    empty label is a data cell, where pandas' own ``text/html`` has empty header cells."""
    head, body, dimensions = table_rows(form)

    def rows(part):
        return "".join("<tr>" + "".join(map(_cell_html, row)) + "</tr>" for row in part)

    shown = f"<p>{html.escape(dimensions)}</p>" if dimensions else ""
    return (f'<table class="dataframe"><thead>{rows(head)}</thead>'
            f"<tbody>{rows(body)}</tbody></table>{shown}")


NEGATIVE = re.compile(r"^-(?=[0-9.])")
"""A number's minus sign: U+2212 does not break from its digits at the end of a line as "-" can."""

LONGTABLE_ROWS = 30
"""Rows above which Sphinx's LaTeX writer sets a table as a ``longtable`` (``is_longtable``)."""


def table_node(form) -> nodes.table:
    """A table's JSON form as a docutils table, for print.  Sphinx's LaTeX writer sizes the
    columns of a table up to :data:`LONGTABLE_ROWS` rows (``tabulary``) and sets the spans
    (``morecols``, ``morerows``); a longer table, a ``longtable`` whose ``l`` columns would
    not break their texts, gets equal columns (``\\X{1}{n}``, Sphinx's own for such a table)."""
    head, body, _ = table_rows(form)
    ncols = max((sum(cell.get("colspan", 1) for cell in row) for row in head + body), default=0)
    long = len(head) + len(body) > LONGTABLE_ROWS
    table = nodes.table(classes=["nbcourse-dataframe"] + ["colwidths-given"] * long)
    group = nodes.tgroup(cols=ncols)
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in range(ncols))
    for part, rows in ((nodes.thead(), head), (nodes.tbody(), body)):
        for cells in rows:
            row = nodes.row()
            for cell in cells:
                entry = nodes.entry(**{f"more{name}s": cell[f"{name}span"] - 1
                                       for name in ("col", "row") if f"{name}span" in cell})
                entry += nodes.paragraph(text=NEGATIVE.sub("\u2212", cell["text"]))
                row += entry
            part += row
        if len(part):
            group += part
    return table


def table_nodes(form) -> list[nodes.Element]:
    """The HTML form and the printed form of a table.  In print, tabulary's columns are set
    ragged right (``L``, not Sphinx's justified ``T``), 5 pt apart on each side, and its least
    column width (``\\tymin``, which it caps at the line's share of one column) is the table's
    longest word, in widths of a digit and one more, so that no column is narrower than a
    number."""
    shown = nodes.raw("", table_html(form), format="html", classes=["output", "text_html"])
    head, body, _ = table_rows(form)
    longest = max((len(word) for row in head + body for cell in row
                   for word in cell["text"].split()), default=0)
    printed = addnodes.only(expr="format_latex")
    printed += nodes.raw("", r"\begingroup\small\newcolumntype{T}{L}\setlength{\tabcolsep}{5pt}"
                             rf"\setlength{{\tymin}}{{{longest + 1}\fontcharwd\font`0 }}",
                         format="latex")
    printed += table_node(form)
    printed += nodes.raw("", r"\endgroup", format="latex")
    return [shown, printed]


class MimeRenderer:
    """The plugin for :data:`~nbcourse.mime.SELFCHECK`, ``EXPLORE`` and ``TABLE``; the
    student notebooks' builder chooses outputs as HTML does (the self-check answers read the
    HTML)."""

    mime_priority_overrides = ([("*", SELFCHECK, 1), ("*", TABLE, 1)]
                               + [(builder, EXPLORE, 1) for builder in HTML_BUILDERS]
                               + [(StudentNotebookBuilder.name, mime, rank)
                                  for mime, rank in base_render_priority()["html"].items()])

    @staticmethod
    def handle_mime(renderer, data, inline: bool):
        """Nodes for an output of one of the project's types, or None for any other."""
        if inline or data.mime_type not in (SELFCHECK, EXPLORE, TABLE):
            return None
        try:
            if data.mime_type == SELFCHECK:
                return question_nodes(Question.from_json(data.content))
            if data.mime_type == TABLE:
                return table_nodes(data.content)
            return [explore_figure(nbcourse_explore=check_static(data.content))]
        except (TypeError, ValueError) as exc:
            renderer.logger.warning(f"output {data.output_index} of cell {data.cell_index} "
                                    f"cannot be rendered: {exc}", line=data.line,
                                    subtype="nbcourse_mime")
            return []


def visit_explore_html(self, node: explore_figure) -> None:
    """Write the figure's frames to ``_images`` and the static control into the page (its
    image loads when it nears the screen)."""
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
    self.body.append(f'<div class="output text_html">{static_html(data, uris, lazy=True)}</div>')
    raise nodes.SkipNode
