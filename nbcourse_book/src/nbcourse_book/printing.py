"""Sphinx extension for the print edition (the LaTeX/PDF build) and the solutions page.

- LaTeX class: sphinx-jupyterbook-latex sets ``latex_theme = "jupyterBook"``, whose class loads
  ``bbm.sty`` (Debian's 1.4 GB ``texlive-fonts-extra``).  The book uses the class
  ``tools/latex/nbcoursebook.cls`` instead, which keeps the code-cell environments and needs
  only the TeX packages listed in the README.
- Solutions: the directive ``{solutions}`` (on ``book/solutions.md``) gathers every
  sphinx-exercise ``solution`` of the book, chapter by chapter in the order of ``_toc.yml``.
  In HTML the chapters keep their collapsed solutions and the page repeats them.  In LaTeX the
  page becomes an appendix and each solution in a chapter is replaced by a line giving the
  page of its solution in the appendix.
- Self-check answers: the directive ``{selfcheck-answers}`` (on ``book/answers.md``) lists every
  self-check question of the book (``nbcourse.selfcheck``, from the doctree nodes that the
  MIME render plugin ``nbcourse.mystnb`` makes of its stored JSON output) with its answer,
  chapter by chapter.  In HTML each answer links back to its question; in LaTeX each question,
  which the plugin prints as text, gets a line giving the page of its answer.
- LaTeX layout: the front page gets an "Introduction" heading; a chapter left empty in LaTeX
  (the references page, whose works Sphinx prints as the closing Bibliography) is dropped.
- PDF link: the role ``{pdf-edition}`text``` links the PDF from an HTML page.  The PDF is
  served beside the HTML book as ``nbcourse.pdf``: an HTML build copies
  ``_build/latex/nbcourse.pdf`` into its output when ``make pdf`` has made it, and ``make pdf``
  copies it into an existing HTML build.
- Live exercises: in HTML, a chapter notebook with solutions gets, after its last solution, a
  Binder link that opens the same notebook on the branch and in the interface of
  ``_config.yml`` (``bookext.binder_url``).  On the student branch (``make push-student``) that
  notebook is the chapter of the student tree, whose solutions are removed.
"""

import posixpath
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx_exercise.nodes import solution_node

from .renderer import questions_in

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
LATEX_CLASS = HERE / "latex" / "nbcoursebook.cls"


def use_book_class(app, config):
    """Run after sphinx-jupyterbook-latex's own ``config-inited`` handler."""
    config.latex_theme = LATEX_CLASS.stem
    files = list(config.latex_additional_files)
    if str(LATEX_CLASS) not in files:
        files.append(str(LATEX_CLASS))
    config.latex_additional_files = files


class solutions_list(nodes.General, nodes.Element):
    """Placeholder that :class:`GatherSolutions` replaces with the book's solutions."""


class SolutionsDirective(SphinxDirective):
    """``{solutions}``: every exercise solution of the book, grouped by chapter."""

    has_content = False

    def run(self):
        self.env.metadata[self.env.docname]["nbcourse_gathers"] = True
        return [solutions_list()]


def reread_gathering_pages(app, env, added, changed, removed):
    """The pages that gather from the whole book (``{solutions}``, ``{selfcheck-answers}``)
    are read, and so written, again whenever another document is."""
    if not (added or changed or removed):
        return []
    return sorted(doc for doc, meta in env.metadata.items()
                  if meta.get("nbcourse_gathers") and doc not in removed)


def reading_order(env):
    """Docnames in the order a reader meets them: the toctree walked depth first from the root."""
    order, seen = [], set()

    def walk(docname):
        if docname in seen:
            return
        seen.add(docname)
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            walk(child)

    walk(env.config.root_doc)
    return order


def latex_label(kind, label):
    """A LaTeX label for a solution, from its sphinx-exercise label."""
    return f"nbcourse-{kind}:" + re.sub(r"[^A-Za-z0-9-]", "-", label)


def chapter_section(env, docname, solutions, latex):
    """A section titled like the chapter ``docname`` that holds copies of its ``solutions``."""
    section = nodes.section(ids=[f"solutions-{re.sub(r'[^A-Za-z0-9]+', '-', docname)}"])
    title = nodes.title()
    title.extend(child.deepcopy() for child in env.titles[docname].children)
    section += title
    for index, solution in enumerate(solutions):
        if latex:
            target = latex_label("solution", solution["label"])
            # Keep a solution's title with the first lines of its text on one page (the
            # first one is kept with the chapter's heading by GatherSolutions).
            space = r"\needspace{6\baselineskip}" if index else ""
            section += nodes.raw("", rf"{space}\phantomsection\label{{{target}}}",
                                 format="latex")
        copy = solution.deepcopy()
        copy["nbcourse_gathered"] = True
        section += copy
    return section


class GatherSolutions(SphinxPostTransform):
    """Fill the ``{solutions}`` placeholder; in LaTeX, move the solutions out of the chapters.

    Runs before Sphinx turns LaTeX equation references into ``\\ref`` (priority 5) and
    resolves references (10), and before sphinx-exercise titles the solutions (20-22), so the
    copies get working links and their "Solution to Exercise n" titles.
    """

    default_priority = 4

    def run(self, **kwargs):
        latex = self.app.builder.format == "latex"
        placeholders = list(self.document.findall(solutions_list))
        for placeholder in placeholders:
            sections = []
            for docname in reading_order(self.env):
                solutions = list(self.env.get_doctree(docname).findall(solution_node))
                if solutions:
                    if latex:  # a chapter's heading stays with its first solution
                        sections.append(nodes.raw("", r"\needspace{10\baselineskip}",
                                                  format="latex"))
                    sections.append(chapter_section(self.env, docname, solutions, latex))
            if latex:
                start_appendix(placeholder)
            placeholder.replace_self(sections)
        if latex and placeholders:
            for solution in list(self.document.findall(solution_node)):
                if not solution.get("nbcourse_gathered"):
                    solution.replace_self(pointer_to(solution))


class answers_list(nodes.General, nodes.Element):
    """Placeholder that :class:`GatherAnswers` replaces with the self-check answers."""


class AnswersDirective(SphinxDirective):
    """``{selfcheck-answers}``: every self-check question of the book with its answer."""

    has_content = False

    def run(self):
        self.env.metadata[self.env.docname]["nbcourse_gathers"] = True
        return [answers_list()]


def answer_item(question, uri, latex):
    """One entry of the answers list: the question, then its answer."""
    item = nodes.list_item()
    asked = nodes.paragraph()
    if latex:
        label = latex_label("answer", question.ident)
        asked += nodes.raw("", rf"\phantomsection\label{{{label}}}", format="latex")
    asked += nodes.emphasis(text=" ".join(question.prompt.split()))
    if uri:
        asked += nodes.Text(" ")
        asked += nodes.reference("", "(the question)", refuri=uri)
    elif latex:
        back = latex_label("question", question.ident)
        asked += nodes.raw("", rf" \hyperref[{back}]{{(question on page~\pageref*{{{back}}})}}",
                           format="latex")
    item += asked
    answer = nodes.paragraph()
    answer += nodes.strong(text="Answer: ")
    answer += nodes.Text(" ".join(question.answer_text().split()))
    item += answer
    return item


class GatherAnswers(SphinxPostTransform):
    """Fill the ``{selfcheck-answers}`` placeholder, chapter by chapter in reading order.

    In LaTeX it also marks the document, so that :class:`AnswerPointers` gives each printed
    question the page of its answer.  The same question twice in the book would give
    two answers one label; that is reported as a warning (an error under ``-W``).
    """

    default_priority = 4

    def run(self, **kwargs):
        latex = self.app.builder.format == "latex"
        for placeholder in list(self.document.findall(answers_list)):
            sections, seen = [], set()
            for docname in reading_order(self.env):
                questions = questions_in(self.env.get_doctree(docname))
                if not questions:
                    continue
                for question in questions:
                    if question.ident in seen:
                        logger.warning("self-check question asked twice in the book: %s",
                                       question.prompt, location=placeholder)
                    seen.add(question.ident)
                base = "" if latex else self.app.builder.get_relative_uri(self.env.docname,
                                                                          docname)
                items = nodes.enumerated_list(enumtype="arabic", prefix="", suffix=".")
                items.extend(answer_item(q, base and f"{base}#{q.ident}", latex)
                             for q in questions)
                section = chapter_section(self.env, docname, [], latex)
                section["ids"] = [f"answers-{re.sub(r'[^A-Za-z0-9]+', '-', docname)}"]
                section += items
                if latex:
                    sections.append(nodes.raw("", r"\needspace{8\baselineskip}", format="latex"))
                sections.append(section)
            placeholder.replace_self(sections)
            if latex:
                self.document["nbcourse_answers"] = True


class AnswerPointers(SphinxPostTransform):
    """LaTeX: each printed self-check question (``nbcourse.mystnb``) gets the page of its
    answer in the appendix, when the book has one (:class:`GatherAnswers`).

    Runs after myst-nb has chosen each output's representation (priority 4) and before Sphinx
    keeps the LaTeX branch of the ``only`` nodes (50).
    """

    default_priority = 6
    formats = ("latex",)

    def run(self, **kwargs):
        if not self.document.get("nbcourse_answers"):
            return
        for printed in self.document.findall(addnodes.only):
            ident = printed.get("nbcourse_selfcheck")
            if not ident or not printed.children:
                continue
            back, answer = latex_label("question", ident), latex_label("answer", ident)
            printed[0].insert(0, nodes.raw("", rf"\phantomsection\label{{{back}}}",
                                           format="latex"))
            printed += nodes.raw("", rf"\par\noindent\hyperref[{answer}]{{\emph{{Answer: "
                                     rf"appendix, page~\pageref*{{{answer}}}.}}}}\par",
                                 format="latex")


# In the one LaTeX doctree a chapter is a section directly under the document (where
# sphinx-jupyterbook-latex flattens the tree) or under the marker of its source file.
BOOK_LEVEL = (nodes.document, addnodes.start_of_file)


def start_appendix(node):
    """Put ``\\appendix`` before the chapter that holds ``node``, so it is lettered A, B, ..."""
    chapter = node
    while chapter.parent is not None and not isinstance(chapter.parent, BOOK_LEVEL):
        chapter = chapter.parent
    if chapter.parent is None:
        return
    chapter.parent.insert(chapter.parent.index(chapter), nodes.raw("", r"\appendix", format="latex"))


class DropEmptyChapters(SphinxPostTransform):
    """LaTeX: remove chapters left with nothing but a title.

    Sphinx prints the cited works once, as the unnumbered Bibliography at the end of the
    book, and moves them out of the page that lists them in HTML (priority 750); that page's
    chapter would be an empty "References" chapter in the PDF.
    """

    default_priority = 800
    formats = ("latex",)

    def run(self, **kwargs):
        for chapter in list(self.document.findall(nodes.section)):
            if not isinstance(chapter.parent, BOOK_LEVEL):
                continue
            body = [child for child in chapter.children
                    if not isinstance(child, (nodes.title, nodes.target, nodes.comment))
                    and not (isinstance(child, nodes.container) and not child.children)]
            if not body:
                chapter.parent.remove(chapter)


class FrontMatterHeadings(SphinxPostTransform):
    """LaTeX: give the front page's text a chapter heading and headings of one size.

    The front page (the root document) prints after the table of contents.  Its own title is
    the book's title, so its text would start with no heading; it gets an unnumbered chapter
    "Introduction".  sphinx-jupyterbook-latex numbers the depth of its sections by counting
    siblings, so its second-level headings come out in two sizes; they are set to their depth.
    """

    default_priority = 4
    formats = ("latex",)
    title = "Introduction"

    def run(self, **kwargs):
        root = self.config.root_doc
        top = next((s for s in self.document.findall(nodes.section)
                    if s.get("docname") == root and s.get("header_level") == 1), None)
        if top is None:
            return
        for section in top.findall(nodes.section):
            depth, node = 0, section
            while node is not None:
                depth += isinstance(node, nodes.section) and node.get("docname") == root
                node = node.parent
            section["header_level"] = depth
        start = 1 if top.children and isinstance(top[0], nodes.title) else 0
        heading = (rf"\chapter*{{{self.title}}}\addcontentsline{{toc}}{{chapter}}{{{self.title}}}"
                   rf"\markboth{{{self.title}}}{{{self.title}}}")
        top.insert(start, nodes.raw("", heading, format="latex"))


def pointer_to(solution):
    """The line that stands in a chapter for a solution printed in the appendix."""
    target = latex_label("solution", solution["label"])
    text = (rf"\par\noindent\hyperref[{target}]{{\emph{{Solution: appendix, "
            rf"page~\pageref*{{{target}}}.}}}}\par")
    return nodes.raw("", text, format="latex")


def pdf_name(config):
    """File name of the PDF, from ``latex_documents`` (``targetname`` with ``.pdf``)."""
    return Path(config.latex_documents[0][1]).with_suffix(".pdf").name


def pdf_edition_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{pdf-edition}`the PDF``` -> a link from this page to the PDF at the site's root."""
    env = inliner.document.settings.env
    target = posixpath.relpath(pdf_name(env.config), posixpath.dirname(env.docname) or ".")
    link = nodes.reference(rawtext, text, refuri=target, classes=["nbcourse-pdf-link"],
                           **(options or {}))
    return [link], []


def copy_pdf_into_html(app, exception):
    """Serve the PDF beside the HTML book, if ``make pdf`` has built it."""
    if exception is not None or app.builder.format != "html":
        return
    pdf = Path(app.outdir).parent / "latex" / pdf_name(app.config)
    if pdf.is_file():
        shutil.copy2(pdf, Path(app.outdir) / pdf.name)
    else:
        logger.info("printbook: no %s yet; `make pdf` builds it and copies it here", pdf)


class LinkStudentVersion(SphinxPostTransform):
    """HTML: after a chapter's last solution, link the chapter's notebook on Binder."""

    default_priority = 30
    formats = ("html",)

    def run(self, **kwargs):
        from .pages import binder_url

        docname = self.env.docname
        solutions = [s for s in self.document.findall(solution_node)
                     if not s.get("nbcourse_gathered")]
        if not solutions or not (Path(self.app.srcdir) / f"{docname}.ipynb").is_file():
            return
        url = binder_url(self.config, f"{docname}.ipynb")
        link = nodes.reference("", "open this chapter on Binder", refuri=url)
        note = nodes.paragraph(classes=["nbcourse-student-version"])
        note += nodes.Text("To work on these exercises in a live notebook, ")
        note += link
        note += nodes.Text(".")
        last = solutions[-1]
        last.parent.insert(last.parent.index(last) + 1, note)


def visit_unresolved(self, node):
    raise nodes.SkipNode


def number_through_the_book(app):
    """LaTeX: figures, tables and equations numbered through the whole book, as the HTML pages
    and the student notebooks number them (sphinx-jupyterbook-latex sets chapter-wise numbers
    when the table of contents has parts; this runs after it)."""
    if app.builder.format == "latex":
        app.config.numfig_secnum_depth = 0


def setup(app):
    app.connect("config-inited", use_book_class, priority=900)
    app.connect("builder-inited", number_through_the_book, priority=900)
    app.add_node(solutions_list, **{fmt: (visit_unresolved, None)
                                    for fmt in ("html", "latex", "text", "man", "texinfo")})
    app.add_directive("solutions", SolutionsDirective)
    app.add_node(answers_list, **{fmt: (visit_unresolved, None)
                                  for fmt in ("html", "latex", "text", "man", "texinfo")})
    app.add_directive("selfcheck-answers", AnswersDirective)
    app.add_role("pdf-edition", pdf_edition_role)
    app.connect("env-get-outdated", reread_gathering_pages)
    app.connect("build-finished", copy_pdf_into_html)
    app.add_post_transform(GatherSolutions)
    app.add_post_transform(GatherAnswers)
    app.add_post_transform(AnswerPointers)
    app.add_post_transform(DropEmptyChapters)
    app.add_post_transform(FrontMatterHeadings)
    app.add_post_transform(LinkStudentVersion)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

