"""The question bank in the formats learning-management systems import.

``instructor/question_bank.yml`` holds questions with worked answers; a numeric answer lists
the ``values`` it states, each rounded as written. Here each becomes a quiz question:

* a question with one value: a numerical question whose answer is that value, with a
  tolerance of half a unit in its last decimal (:func:`tolerance`), so that every answer that
  rounds to the stated value is accepted; a whole number must be exact;
* a question with several values: in Moodle XML one embedded-answers (Cloze) question with a
  numerical blank per value; in QTI and GIFT, which have one answer per question, one
  numerical question per value, titled ``<id> (k/n)`` and saying which number it asks for;
* a question without values: an essay question.

Canvas keeps four decimals of a numerical answer: there, a tolerance finer than that is
widened outward to four decimals (:func:`canvas_range`).

The worked answer is the general feedback of every question (shown after an attempt), and
for an essay also Moodle's information for graders. Each question's name is its ``id`` in
the bank; Moodle XML and GIFT file the questions in one category per chapter.

Formats: Moodle XML (Moodle's documentation, "Moodle XML format"), GIFT ("GIFT format"), and
QTI 1.2 as Canvas imports it ("QTI .zip file"), written by the maintained package
`text2qti <https://github.com/gpoore/text2qti>`_ from its plain-text quiz format.
"""

from __future__ import annotations

import html
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FORMATS", "Question", "canvas_range", "decimals", "gift_escape", "load_bank",
           "markdown_escape", "qti_zip", "to_gift", "to_moodle_xml", "to_text2qti", "tolerance",
           "write_quiz"]

FORMATS = ("moodle", "qti", "gift")
BANK = Path(__file__).resolve().parents[2] / "instructor" / "question_bank.yml"
KEYS = {"id", "chapter", "question", "answer", "values"}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


@dataclass(frozen=True)
class Question:
    """One entry of the bank: ``values`` are the numbers its answer states (empty for a
    question answered in words)."""

    id: str
    chapter: str
    question: str
    answer: str
    values: tuple = ()

    def parts(self):
        """``[(title, text, value)]``: the question once per value, each part saying which
        number it asks for (one part, the question itself, when there is one value)."""
        n = len(self.values)
        if n <= 1:
            value = self.values[0] if self.values else None
            hint = f" Answer {_precision(value)}." if value is not None else ""
            return [(self.id, self.question + hint, value)]
        return [(f"{self.id} ({k}/{n})",
                 f"{self.question} Here give the {ORDINALS[k - 1]} of the {n} numbers asked "
                 f"for, {_precision(v)}.", v)
                for k, v in enumerate(self.values, start=1)]


def decimals(value):
    """Decimals shown by a stated value: ``None`` for a whole number (an ``int``).

    >>> decimals(0.6316), decimals(385.5), decimals(-2.749), decimals(2046)
    (4, 1, 3, None)
    """
    if isinstance(value, int):
        return None
    text = repr(float(value))
    if "e" in text or "E" in text:
        raise ValueError(f"values must be written without an exponent, got {value!r}")
    return len(text.split(".")[1]) if "." in text else 0


def tolerance(value):
    """The tolerance of a stated value: half a unit in its last decimal, so that every answer
    that rounds to it is right; 0 for a whole number.

    >>> tolerance(0.6316), tolerance(385.5), tolerance(20)
    (5e-05, 0.05, 0)
    """
    places = decimals(value)
    return 0 if places is None else float(f"5e-{places + 1}")


def _precision(value):
    places = decimals(value)
    if places is None:
        return "as a whole number"
    return f"to {places} decimal place{'' if places == 1 else 's'}"


def load_bank(path=None, chapters=None):
    """The bank's questions (those of ``chapters`` only, if given), in the bank's order.

    Raises ValueError naming the entry and field for a malformed entry, and for a chapter
    that no question tests.
    """
    import yaml

    path = Path(path) if path is not None else BANK
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ValueError(f"bank must be a readable YAML file, got {str(path)!r} ({exc})") from None
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"bank must be a non-empty list of questions, got {type(entries).__name__} "
                         f"in {path}")
    questions = [_question(entry, k, path) for k, entry in enumerate(entries, start=1)]
    ids = [q.id for q in questions]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"bank question ids must be unique, got {twice} more than once in {path}")
    if chapters:
        known = list(dict.fromkeys(q.chapter for q in questions))
        unknown = [c for c in chapters if c not in known]
        if unknown:
            raise ValueError(f"chapter must be one of {known}, got {unknown[0]!r}")
        questions = [q for q in questions if q.chapter in chapters]
    return questions


def _question(entry, k, path):
    where = f"bank {path}, question {k}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where} must be a mapping, got {type(entry).__name__}")
    if not {"id", "chapter", "question", "answer"} <= set(entry) <= KEYS:
        raise ValueError(f"{where} must have the keys id, chapter, question, answer and "
                         f"optionally values, got {sorted(entry)}")
    for key in ("id", "chapter", "question", "answer"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise ValueError(f"{where}: {key} must be a non-empty string, got {entry[key]!r}")
    values = entry.get("values", [])
    if not isinstance(values, list) or len(values) > len(ORDINALS) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in values):
        raise ValueError(f"{where} ({entry['id']}): values must be a list of at most "
                         f"{len(ORDINALS)} finite numbers, got {values!r}")
    for v in values:
        decimals(v)
    return Question(entry["id"].strip(), entry["chapter"].strip(), _one_line(entry["question"]),
                    _one_line(entry["answer"]), tuple(values))


def _one_line(text):
    return " ".join(text.split())


def _number(value):
    """A value as the formats write it: as stated, without an exponent."""
    return str(value) if isinstance(value, int) else repr(float(value))


def _tolerance_text(value):
    tol = tolerance(value)
    return "0" if tol == 0 else f"{tol:.{decimals(value) + 1}f}"


def _html(text):
    return f"<p>{html.escape(text, quote=False)}</p>"


# --------------------------------------------------------------------------- Moodle XML

def to_moodle_xml(questions):
    """The questions as Moodle XML (a ``<quiz>`` of ``<question>`` elements), one category
    per chapter: ``numerical``, ``cloze`` (several values) or ``essay`` questions."""
    quiz = ET.Element("quiz")
    chapter = None
    for q in questions:
        if q.chapter != chapter:
            chapter = q.chapter
            category = ET.SubElement(quiz, "question", type="category")
            _text(ET.SubElement(category, "category"), f"$course$/top/nbcourse/{chapter}")
        quiz.append(_moodle_question(q))
    ET.indent(quiz)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, "unicode") + "\n"


def _text(parent, text, format_=None):
    if format_:
        parent.set("format", format_)
    ET.SubElement(parent, "text").text = text
    return parent


def _moodle_question(q):
    kind = "essay" if not q.values else "numerical" if len(q.values) == 1 else "cloze"
    element = ET.Element("question", type=kind)
    _text(ET.SubElement(element, "name"), q.id)
    if kind == "cloze":
        blanks = "".join(
            f"<p>The {ORDINALS[k]} number, {_precision(v)}: "
            f"{{1:NUMERICAL:={_number(v)}:{_tolerance_text(v)}}}</p>"
            for k, v in enumerate(q.values))
        text = _html(q.question) + blanks
    else:
        text = _html(q.parts()[0][1])
    _text(ET.SubElement(element, "questiontext"), text, "html")
    _text(ET.SubElement(element, "generalfeedback"), _html(q.answer), "html")
    ET.SubElement(element, "defaultgrade").text = str(max(1, len(q.values)))
    ET.SubElement(element, "penalty").text = "0.3333333"
    ET.SubElement(element, "hidden").text = "0"
    ET.SubElement(element, "idnumber").text = q.id
    if kind == "numerical":
        value = q.values[0]
        answer = ET.SubElement(element, "answer", fraction="100", format="moodle_auto_format")
        ET.SubElement(answer, "text").text = _number(value)
        ET.SubElement(answer, "tolerance").text = _tolerance_text(value)
        _text(ET.SubElement(answer, "feedback"), "", "html")
    elif kind == "essay":
        ET.SubElement(element, "responseformat").text = "editor"
        ET.SubElement(element, "responserequired").text = "1"
        ET.SubElement(element, "responsefieldlines").text = "10"
        ET.SubElement(element, "attachments").text = "0"
        _text(ET.SubElement(element, "graderinfo"), _html(q.answer), "html")
        _text(ET.SubElement(element, "responsetemplate"), "", "html")
    return element


# --------------------------------------------------------------------------- GIFT

_GIFT_SPECIAL = re.compile(r"([\\~=#{}:])")


def gift_escape(text):
    r"""``text`` with GIFT's special characters ``~ = # { } :`` (and ``\``) escaped.

    >>> gift_escape("w = ln{4}: #1")
    'w \\= ln\\{4\\}\\: \\#1'
    """
    return _GIFT_SPECIAL.sub(r"\\\1", text)


def to_gift(questions):
    """The questions in GIFT: numerical questions ``{#value:tolerance####feedback}`` and essays
    ``{####feedback}``, in one ``$CATEGORY`` per chapter; texts in HTML."""
    lines = ["// The nbcourse question bank (instructor/question_bank.yml) in GIFT.", ""]
    chapter = None
    for q in questions:
        if q.chapter != chapter:
            chapter = q.chapter
            lines += [f"$CATEGORY: $course$/top/nbcourse/{chapter}", ""]
        feedback = gift_escape(_html(q.answer))
        for title, text, value in q.parts():
            head = f"::{gift_escape(title)}::[html]{gift_escape(_html(text))}"
            if value is None:
                lines.append(f"{head} {{####{feedback}}}")
            else:
                lines.append(f"{head} {{#{_number(value)}:{_tolerance_text(value)}####{feedback}}}")
            lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- QTI 1.2

_MARKDOWN_SPECIAL = re.compile(r"""([\\`*_{}\[\]()#+\-.!|>"'$])""")


def markdown_escape(text):
    r"""``text`` as Markdown that text2qti shows literally: every mark that Markdown (with
    text2qti's extensions, among them SmartyPants quotes and dashes) or text2qti's ``$``
    mathematics may read is backslash-escaped, and ``&`` and ``<`` are entities.

    >>> markdown_escape("a_1 * b < c & $x$ -- 'q'")
    "a\\_1 \\* b &lt; c &amp; \\$x\\$ \\-\\- \\'q\\'"
    """
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def to_text2qti(questions, title="nbcourse question bank"):
    """The questions in text2qti's plain-text quiz format (numerical ``=   value +- margin``,
    essays ``____``, the worked answer as general feedback ``...``)."""
    lines = [f"Quiz title: {title}",
             "Quiz description: Questions of the course book on naive Bayes with discrete "
             "features, with their worked answers as feedback.", ""]
    number = 0
    for q in questions:
        for part_title, text, value in q.parts():
            number += 1
            lines += [f"Title: {part_title}", "Points: 1", f"{number}.  {markdown_escape(text)}",
                      f"... {markdown_escape(q.answer)}"]
            if value is None:
                lines.append("____")
            elif decimals(value) is None:
                lines.append(f"=   {_number(value)}")
            elif decimals(value) < CANVAS_DECIMALS:
                lines.append(f"=   {_number(value)} +- {_tolerance_text(value)}")
            else:
                low, high = canvas_range(value)
                lines.append(f"=   [{low}, {high}]")
            lines.append("")
    return "\n".join(lines)


CANVAS_DECIMALS = 4
"""Canvas keeps numerical answers and their margins to four decimals (and text2qti writes
them so)."""


def canvas_range(value):
    """The answers Canvas accepts for ``value``: its tolerance range widened outward to
    :data:`CANVAS_DECIMALS` decimals, so that no answer that rounds to ``value`` is refused.

    >>> canvas_range(0.6316), canvas_range(0.005833), canvas_range(-2.8655)
    (('0.6315', '0.6317'), ('0.0058', '0.0059'), ('-2.8656', '-2.8654'))
    """
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

    exact, tol = Decimal(_number(value)), Decimal(_tolerance_text(value))
    step = Decimal(1).scaleb(-CANVAS_DECIMALS)
    return (str((exact - tol).quantize(step, rounding=ROUND_FLOOR)),
            str((exact + tol).quantize(step, rounding=ROUND_CEILING)))


def qti_zip(questions, title="nbcourse question bank"):
    """The QTI 1.2 content package (zip bytes: ``imsmanifest.xml`` and the assessment) that
    Canvas imports, made by text2qti from :func:`to_text2qti`."""
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    config = Config()  # text2qti's defaults; no user configuration file is read
    quiz = Quiz(to_text2qti(questions, title), config=config, source_name="<question bank>")
    return QTI(quiz).zip_bytes()


# --------------------------------------------------------------------------- output

def write_quiz(fmt, output, bank=None, chapters=None):
    """Write the bank (or the questions of ``chapters``) in format ``fmt`` to ``output``.

    ``fmt`` is ``moodle`` (Moodle XML), ``qti`` (a QTI 1.2 zip for Canvas; ``output`` must
    end in ``.zip``) or ``gift``. Returns the number of bank questions written.
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {list(FORMATS)}, got {fmt!r}")
    output = Path(output)
    if fmt == "qti" and output.suffix.lower() != ".zip":
        raise ValueError(f"output must be a .zip file name for qti (Canvas imports a QTI "
                         f"content package), got {str(output)!r}")
    questions = load_bank(bank, chapters)
    output.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "moodle":
        output.write_text(to_moodle_xml(questions), encoding="utf-8")
    elif fmt == "gift":
        output.write_text(to_gift(questions), encoding="utf-8")
    else:
        output.write_bytes(qti_zip(questions))
    return len(questions)
