"""Self-check questions in the book: each question's HTML form and printed form, made from its
JSON output (:data:`nbcourse.mime.SELFCHECK`, produced by :mod:`nbcourse.selfcheck`), and the
``{selfcheck-answers}`` page that lists every question of the book with its answer."""

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from nbcourse.selfcheck import Question

from .printing import chapter_section, latex, latex_label, placeholders, reading_order

QUESTION = "nbcourse_selfcheck"
"""Attribute of a question's HTML form: its JSON form."""
logger = logging.getLogger(__name__)


def question_nodes(question: Question) -> list[nodes.Element]:
    """The question's HTML form and, for print, its prompt and options (no answer), then the
    page of its answer when the book has the answers page (LaTeX knows the answer's label)."""
    form = nodes.raw("", question._repr_html_(), format="html",
                     classes=["output", "text_html"], **{QUESTION: question.to_json()})
    back, answer = latex_label("question", question.ident), latex_label("answer", question.ident)
    para = nodes.paragraph("", "", latex(rf"\phantomsection\label{{{back}}}"))
    para += nodes.strong(text="Self-check: ")
    para += nodes.Text(" ".join(question.prompt.split()))
    printed = addnodes.only(expr="format_latex")
    printed += para
    if question.options:
        items = nodes.enumerated_list(enumtype="loweralpha", prefix="(", suffix=")")
        for option in question.options:
            items += nodes.list_item("", nodes.paragraph(text=" ".join(option.split())))
        printed += items
    printed += latex(rf"\ifcsname r@{answer}\endcsname\par\noindent\hyperref[{answer}]{{\emph{{"
                     rf"Answer: appendix, page~\pageref*{{{answer}}}.}}}}\par\fi")
    return [form, printed]


def questions_in(doctree: nodes.Node) -> list[Question]:
    """The self-check questions of ``doctree``, in order."""
    return [Question.from_json(node[QUESTION])
            for node in doctree.findall(nodes.raw) if QUESTION in node.attributes]


def answer_item(question, uri, printed):
    """One entry of the answers list: the question, a link back to it, then its answer."""
    asked = nodes.paragraph()
    if printed:
        asked += latex(rf"\phantomsection\label{{{latex_label('answer', question.ident)}}}")
    asked += nodes.emphasis(text=" ".join(question.prompt.split()))
    if uri:
        asked += nodes.Text(" ")
        asked += nodes.reference("", "(the question)", refuri=uri)
    elif printed:
        back = latex_label("question", question.ident)
        asked += latex(rf" \hyperref[{back}]{{(question on page~\pageref*{{{back}}})}}")
    answer = nodes.paragraph("", "", nodes.strong(text="Answer: "),
                             nodes.Text(" ".join(question.answer_text().split())))
    return nodes.list_item("", asked, answer)


class GatherAnswers(SphinxPostTransform):
    """Fill ``{selfcheck-answers}``, chapter by chapter in reading order.  A question asked
    twice is a warning."""

    def run(self, **kwargs):
        printed = self.app.builder.format == "latex"
        for node in placeholders(self.document, "selfcheck-answers"):
            sections, seen = [], set()
            for docname in reading_order(self.env):
                questions = questions_in(self.env.get_doctree(docname))
                for question in questions:
                    if question.ident in seen:
                        logger.warning("self-check question asked twice in the book: %s",
                                       question.prompt, location=node)
                    seen.add(question.ident)
                if not questions:
                    continue
                base = "" if printed else self.app.builder.get_relative_uri(self.env.docname,
                                                                            docname)
                items = nodes.enumerated_list(enumtype="arabic", prefix="", suffix=".")
                items.extend(answer_item(q, base and f"{base}#{q.ident}", printed)
                             for q in questions)
                section = chapter_section(self.env, docname, "answers")
                section += items
                sections += [latex(r"\needspace{8\baselineskip}")] if printed else []
                sections.append(section)
            node.replace_self(sections)
