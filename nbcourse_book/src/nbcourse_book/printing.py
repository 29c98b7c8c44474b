"""The print edition (LaTeX and PDF) and the pages that gather from the whole book: the
``{solutions}`` directive, the book's LaTeX class, its front matter and appendices
(``docs/building.md``)."""

import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx_exercise.nodes import solution_node

from .launch import GATHERED

LATEX_CLASS = Path(__file__).resolve().parent / "latex" / "nbcoursebook.cls"
BOOK_LEVEL = (nodes.document, addnodes.start_of_file)
"""What a chapter hangs from in the one LaTeX doctree (sphinx-jupyterbook-latex flattens it)."""


def use_book_class(app, config):
    """The LaTeX class ``latex/nbcoursebook.cls`` in place of sphinx-jupyterbook-latex's,
    whose ``bbm.sty`` needs Debian's 1.4 GB ``texlive-fonts-extra``."""
    config.latex_theme = LATEX_CLASS.stem
    if str(LATEX_CLASS) not in config.latex_additional_files:
        config.latex_additional_files = [*config.latex_additional_files, str(LATEX_CLASS)]


def number_through_the_book(app):
    """LaTeX: figures, tables and equations numbered through the book, as in HTML and the
    student notebooks (sphinx-jupyterbook-latex numbers them by chapter)."""
    if app.builder.format == "latex":
        app.config.numfig_secnum_depth = 0


class placeholder(nodes.General, nodes.Element):
    """Where a gathering page's list goes (attribute ``kind``), filled when it is written."""


def visit_placeholder(self, node):
    raise nodes.SkipNode


class Gathering(SphinxDirective):
    """``{solutions}``, ``{selfcheck-answers}``: a :class:`placeholder` whose kind is its name."""

    def run(self):
        self.env.note_reread()  # it gathers from every other page: read it at every build
        return [placeholder(kind=self.name)]


def reading_order(env):
    """Docnames in the order a reader meets them: Sphinx's previous/next relations, which
    walk the toctree depth first."""
    return list(env.collect_relations())


def latex_label(kind, label):
    """A LaTeX label for a solution, question or answer, from its label."""
    return f"nbcourse-{kind}:" + re.sub(r"[^A-Za-z0-9-]", "-", label)


def latex(text):
    return nodes.raw("", text, format="latex")


def chapter_section(env, docname, prefix):
    """A section titled like the chapter ``docname``, its id ``prefix-<docname>``."""
    section = nodes.section(ids=[f"{prefix}-{re.sub(r'[^A-Za-z0-9]+', '-', docname)}"])
    section += nodes.title("", "", *(child.deepcopy() for child in env.titles[docname].children))
    return section


def placeholders(document, kind):
    return [node for node in document.findall(placeholder) if node["kind"] == kind]


class GatherSolutions(SphinxPostTransform):
    """Fill ``{solutions}`` with copies of every exercise solution, chapter by chapter; in
    LaTeX each solution in a chapter becomes a line giving its page in the appendix (the
    Solutions page starts the appendices with a raw ``\\appendix``).  The student notebooks
    leave them out: their writer says where the solutions are."""

    formats = ("html", "latex")

    def run(self, **kwargs):
        printed = self.app.builder.format == "latex"
        found = placeholders(self.document, "solutions")
        for node in found:
            sections = []
            for docname in reading_order(self.env):
                solutions = list(self.env.get_doctree(docname).findall(solution_node))
                if not solutions:
                    continue
                section = chapter_section(self.env, docname, "solutions")
                for index, solution in enumerate(solutions):
                    if printed:  # a title stays with its first lines, a heading with both
                        space = r"\needspace{6\baselineskip}" if index else ""
                        target = latex_label("solution", solution["label"])
                        section += latex(rf"{space}\phantomsection\label{{{target}}}")
                    section += solution.deepcopy()
                    section[-1][GATHERED] = True
                sections += [latex(r"\needspace{10\baselineskip}")] if printed else []
                sections.append(section)
            node.replace_self(sections)
        for solution in list(self.document.findall(solution_node)) if printed and found else ():
            if not solution.get(GATHERED):
                target = latex_label("solution", solution["label"])
                solution.replace_self(latex(rf"\par\noindent\hyperref[{target}]{{\emph{{"
                                            rf"Solution: appendix, page~\pageref*{{{target}}}."
                                            rf"}}}}\par"))


class DropEmptyChapters(SphinxPostTransform):
    """LaTeX: remove chapters left with nothing but a title: Sphinx moves the cited works of
    the references page (750) to the book's closing Bibliography."""

    formats = ("latex",)

    def run(self, **kwargs):
        for chapter in list(self.document.findall(nodes.section)):
            body = [child for child in chapter.children
                    if not isinstance(child, (nodes.title, nodes.target, nodes.comment))
                    and not (isinstance(child, nodes.container) and not child.children)]
            if isinstance(chapter.parent, BOOK_LEVEL) and not body:
                chapter.parent.remove(chapter)


class FrontMatterHeadings(SphinxPostTransform):
    """LaTeX: the headings of the front page's text (the class prints it after the contents
    as the chapter "Introduction") get the size of their depth (sphinx-jupyterbook-latex sizes
    them by counting siblings)."""

    formats = ("latex",)

    def run(self, **kwargs):
        def size(section, level):
            section["header_level"] = level
            for child in section.children:
                if isinstance(child, nodes.section):
                    size(child, level + 1)

        for top in list(self.document.findall(nodes.section)):
            if top.get("docname") == self.config.root_doc and top.get("header_level") == 1:
                size(top, 1)
