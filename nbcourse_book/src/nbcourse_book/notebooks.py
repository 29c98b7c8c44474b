"""Sphinx builder ``studentnb``: one notebook per document, from the doctree Sphinx resolved
for the HTML book and the PDF, so that numbers, citations, glossary links and glued values are
theirs.  Code cells are copied with their stored outputs by the cell index myst-nb keeps (every
code cell, those the book removes too); Markdown is written from the nodes; each exercise
solution becomes the line of :func:`solution_note`.
"""

from __future__ import annotations

import copy
import json
import posixpath
import re
from pathlib import Path

from docutils import nodes
from sphinx.builders import Builder
from sphinx.locale import admonitionlabels

from .launch import ASSIGNMENT

HIDDEN_INPUT = {"remove-input", "hide-input"}
"""Tags of cells whose code the book hides (a self-check's holds its answer): collapsed here."""
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


def solution_note(number) -> str:
    """The line that stands in a student chapter for the solution of exercise ``number``."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"number: expected the exercise's number (an int >= 1), got {number!r}")
    return (f"*Solution to Exercise {number}: not in this notebook; it is on the Solutions page "
            f"of the HTML book and in the Solutions appendix of the PDF edition.*")


SOLUTIONS_PAGE_NOTE = (
    "The worked solutions of the chapters' exercises are on this page in the HTML book and in "
    "the Solutions appendix of the PDF edition. The notebooks leave them out, so that each "
    "exercise can be tried first; under each exercise a line says where its solution is.")
SKIP = (nodes.comment, nodes.substitution_definition, nodes.system_message, nodes.compound)
MD_SPECIAL = re.compile(r"([\\`*_\[\]<$])")


def anchors(node) -> str:
    return "".join(f'<a id="{i}"></a>' for i in node.get("ids", []))


def quote(head: str, body: str) -> str:
    """A block quote as HTML around Markdown, so that display maths inside keeps no ``>``."""
    return f"<blockquote>\n\n{head}\n\n{body}\n\n</blockquote>"


def indent(text: str, prefix: str) -> str:
    """``text`` under a list marker ``prefix``: later lines indented to line up with the first."""
    pad = " " * len(prefix)
    lines = text.split("\n")
    return prefix + lines[0] + "".join(f"\n{pad}{line}" if line else "\n" for line in lines[1:])


def write_json(path: Path, nb: dict) -> None:
    """Write the notebook ``nb`` to ``path`` as Jupyter does (one-space indent, UTF-8)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


class Writer:
    """Markdown and code cells of one resolved document."""

    def __init__(self, builder: StudentNotebookBuilder, docname: str, source: dict | None):
        self.docname, self.env, self.source = docname, builder.env, source
        self.numbers = self.env.toc_fignumbers.get(docname, {})
        self.cells: list[dict] = []
        self.copied = 0  # source cells before this index are in self.cells

    def number(self, kind: str, node) -> str:
        ids = node.get("ids") or [""]
        found = self.numbers.get(kind, {}).get(ids[0])
        if not found:
            raise ValueError(f"{self.docname}: no {kind} number for {ids[0]!r}")
        return ".".join(map(str, found))

    def markdown(self, blocks: list[str]) -> None:
        text = "\n\n".join(b for b in blocks if b.strip()).strip("\n")
        if text:
            self.cells.append({"cell_type": "markdown", "metadata": {}, "source": text})

    def code_cells(self, upto: int) -> None:
        """Copy the source notebook's code cells before index ``upto``, outputs as stored."""
        for cell in self.source["cells"][self.copied:upto]:
            if cell["cell_type"] == "code":
                cell = copy.deepcopy(cell)
                if HIDDEN_INPUT & set(cell.get("metadata", {}).get("tags", [])):
                    cell["metadata"].setdefault("jupyter", {})["source_hidden"] = True
                self.cells.append(cell)
        self.copied = max(self.copied, upto)

    def document(self, doctree) -> list[dict]:
        pending: list[str] = []
        self.flow(doctree, pending, level=0)
        self.markdown(pending)
        if self.source is not None:
            self.code_cells(len(self.source["cells"]))
        return self.cells

    def flow(self, parent, out: list[str], level: int) -> None:
        """Append the Markdown blocks of ``parent``'s children to ``out``; code cells flush."""
        for node in parent.children:
            if isinstance(node, nodes.container) and node.get("nb_element") == "cell_code":
                self.markdown(out)
                out.clear()
                self.code_cells(int(node["cell_index"]) + 1)
                for figure in node.findall(nodes.figure):
                    out.append(self.caption(figure))
                continue
            if isinstance(node, nodes.section):
                self.flow(node, out, level + 1)
                continue
            if isinstance(node, nodes.title) and isinstance(parent, nodes.section):
                out.append(anchors(parent) + "\n\n" + "#" * max(level, 1) + " " + self.inline(node))
                continue
            if isinstance(node, nodes.container) or node.tagname == "glossary":
                self.flow(node, out, level)
                continue
            block = self.block(node)
            if block:
                out.append(block)

    def blocks(self, node) -> str:
        """The Markdown of ``node``'s children (no code cells expected inside)."""
        out: list[str] = []
        self.flow(node, out, level=6)
        return "\n\n".join(b for b in out if b.strip())

    def block(self, node) -> str:  # noqa: C901 - one branch per kind of node
        name = node.tagname
        if isinstance(node, SKIP) or name in ("index", "tabular_col_spec"):
            return ""
        if isinstance(node, nodes.paragraph):
            return anchors(node) + self.inline(node)
        if name == "placeholder" and node["kind"] == "solutions":  # GatherSolutions: not here
            return SOLUTIONS_PAGE_NOTE
        if isinstance(node, nodes.target):
            return "" if node.get("refid") or node.get("refuri") else anchors(node)
        if isinstance(node, nodes.math_block):
            body = node.astext().strip("\n")
            tag = f"\n\\tag{{{self.number('displaymath', node)}}}" if node.get("label") else ""
            return f"{anchors(node)}\n\n$$\n{body}{tag}\n$$" if tag else f"$$\n{body}\n$$"
        if isinstance(node, nodes.literal_block):
            return f"```{node.get('language', '')}\n{node.astext().rstrip()}\n```"
        if isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            ordered = isinstance(node, nodes.enumerated_list)
            return "\n".join(indent(self.blocks(item), f"{k}. " if ordered else "- ")
                             for k, item in enumerate(node.children, 1))
        if isinstance(node, nodes.definition_list):
            entries = []
            for item in node.children:
                terms = [anchors(t) + f"**{self.inline(t)}**" for t in item.findall(nodes.term)]
                definition = next(iter(item.findall(nodes.definition)), None)
                entries.append(", ".join(terms) + ": " + (self.blocks(definition) if definition else ""))
            return "\n\n".join(entries)
        if isinstance(node, nodes.block_quote):
            return "\n".join("> " + line for line in self.blocks(node).split("\n"))
        if isinstance(node, nodes.table):
            return self.table(node)
        if isinstance(node, nodes.raw):  # HTML kept, except the HTML book's own scripts
            html = node.get("format") == "html" and not node.astext().lstrip().startswith("<script")
            return node.astext() if html else ""
        if isinstance(node, nodes.citation):
            return "- " + anchors(node) + " ".join(self.inline(p) for p in node.findall(nodes.paragraph))
        if name == "exercise_enumerable_node":
            return f"{anchors(node)}\n{self.heading('Exercise', self.number('exercise', node), node)} " \
                   f"{self.blocks(self.content(node))}"
        if name == "solution_node":
            return self.solution(node)
        if name == "proof_node":  # an admonition whose text opens with "Proof."
            body = self.blocks(next(iter(node.findall(nodes.Admonition)), node))
            return "*Proof.* " + body.removeprefix("Proof. ") + " $\\blacksquare$"
        if name.endswith("_node") and node.get("realtype"):  # a theorem, definition, ...
            number = (self.number(node["countertype"], node)
                      if node.get("countertype") and node.get("ids") else "")
            return quote(f"{anchors(node)}\n{self.heading(node['realtype'].title(), number, node)}",
                         self.blocks(self.content(node)))
        if isinstance(node, nodes.Admonition):
            titles = [c for c in node.children if isinstance(c, nodes.title)]
            title = self.inline(titles[0]) if titles else admonitionlabels.get(name, name.title())
            body = self.blocks(self.content(node))
            if "dropdown" in node.get("classes", []):
                return f"<details>\n<summary>{title}</summary>\n\n{body}\n\n</details>"
            return quote(f"{anchors(node)}**{title}.**", body)
        raise ValueError(f"{self.docname}: no Markdown is written for a {name} node "
                         f"({node.astext()[:40]!r}); only the kinds of block the book uses are")

    def content(self, node):
        """The body of a sphinx-proof or sphinx-exercise node: its children after the title."""
        body = nodes.Element()
        body.children = [c for c in node.children if not isinstance(c, nodes.title)]
        return body

    def heading(self, kind, number, node) -> str:
        """``**Exercise 2 (Sum).**``, ``**Theorem 1 Sum.**``: the kind, its number, the title."""
        title = "".join(self.inline(c) for c in node.children if isinstance(c, nodes.title)).strip()
        title = f"({title})" if title and kind == "Exercise" else title
        return "**" + " ".join(filter(None, (kind, number, title))) + ".**"

    def solution(self, node) -> str:
        target = node.get("target_label")
        exercise = getattr(self.env, "sphinx_exercise_registry", {}).get(target, {})
        found = self.env.toc_fignumbers.get(exercise.get("docname"), {}).get("exercise", {})
        if len(found.get(target, ())) != 1:
            raise ValueError(f"{self.docname}: a solution names {target!r}, which is not the "
                             f"label of a numbered exercise of the book")
        return solution_note(int(found[target][0]))

    def caption(self, figure) -> str:
        caption = next(iter(figure.findall(nodes.caption)), None)
        text = self.inline(caption) if caption is not None else ""
        legend = "".join("\n\n" + self.blocks(lg) for lg in figure.findall(nodes.legend))
        number = f"*Fig. {self.number('figure', figure)}.* " if figure.get("ids") else ""
        return f"{anchors(figure)}{number}{text}{legend}"

    def table(self, node) -> str:
        rows = []
        for row in node.findall(nodes.row):
            cells = [" ".join(self.inline(p) for p in entry.findall(nodes.paragraph)) or
                     self.inline(entry) for entry in row.children]
            rows.append("| " + " | ".join(c.replace("\n", " ").replace("|", "\\|") for c in cells) + " |")
        width = rows[0].count(" | ") + 1
        return "\n".join([rows[0], "|" + "---|" * width, *rows[1:]])

    def inline(self, node) -> str:
        return "".join(self.span(child) for child in node.children)

    def span(self, node) -> str:  # noqa: C901 - one branch per kind of node
        if isinstance(node, nodes.Text):
            return MD_SPECIAL.sub(r"\\\1", node.astext().replace("\n", " "))
        if isinstance(node, nodes.math):
            return f"${node.astext()}$"
        if isinstance(node, nodes.literal):
            text = node.astext()
            fence = "``" if "`" in text else "`"
            return f"{fence}{text}{fence}"
        if isinstance(node, (nodes.emphasis, nodes.strong)):
            mark = "*" if isinstance(node, nodes.emphasis) else "**"
            lead, core, trail = re.fullmatch(r"(\s*)(.*?)(\s*)", self.inline(node), re.S).groups()
            return f"{lead}{mark}{core}{mark}{trail}"  # the spaces outside the marks
        if isinstance(node, nodes.reference):
            return f"[{self.inline(node)}]({self.href(node)})"
        if node.tagname == "index":
            return ""
        if isinstance(node, (nodes.inline, nodes.paragraph)):
            return self.inline(node)
        raise ValueError(f"{self.docname}: no Markdown is written for an inline {node.tagname} "
                         f"node ({node.astext()[:40]!r}); only the kinds of text the book uses are")

    def href(self, node) -> str:
        if "refid" in node:
            return f"#{node['refid']}"
        if ASSIGNMENT in node:  # the student notebook itself, in the same tree
            return posixpath.relpath(node[ASSIGNMENT], posixpath.dirname(self.docname) or ".")
        return node.get("refuri", "")


class StudentNotebookBuilder(Builder):
    """Writes ``<outdir>/<docname>.ipynb`` for every document, from its resolved doctree."""

    name = "studentnb"
    format = "studentnb"
    epilog = "student notebooks are in %(outdir)s"

    def get_outdated_docs(self):
        return self.env.found_docs

    def get_target_uri(self, docname: str, typ: str | None = None) -> str:
        return f"{docname}.ipynb"

    def prepare_writing(self, docnames) -> None:
        pass

    def write_doc(self, docname: str, doctree) -> None:
        path = Path(self.env.doc2path(docname))
        source = json.loads(path.read_text("utf-8")) if path.suffix == ".ipynb" else None
        cells = Writer(self, docname, source).document(doctree)
        for k, cell in enumerate(cells):
            cell["id"] = cell.get("id") or f"student-{k}"
        metadata = (source or {}).get("metadata") or {"kernelspec": KERNELSPEC}
        nb = {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
        write_json(Path(self.outdir) / f"{docname}.ipynb", nb)
