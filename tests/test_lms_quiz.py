"""The question bank as Moodle XML, QTI 1.2 (Canvas) and GIFT: every file read back as its
format specifies, every question present, answers, tolerances and feedback equal to the bank's.

Expected values come from the bank's YAML as this test reads it (a stated value's tolerance is
half a unit in its last decimal, a whole number is exact), not from nbcourse.lms.quiz. Canvas
keeps four decimals, so in QTI a finer tolerance may only be widened outward to four."""

import html
import io
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

import pytest
import yaml

from conftest import ROOT

BANK = ROOT / "instructor" / "question_bank.yml"
QTI_NS = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
CP_NS = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"


def bank(chapter=None):
    entries = yaml.safe_load(BANK.read_text(encoding="utf-8"))
    return [e for e in entries if chapter is None or e["chapter"] == chapter]


def words(text):
    return " ".join(text.split())


def expected_tolerance(value):
    if isinstance(value, int):
        return 0.0
    decimals = len(repr(float(value)).split(".")[1])
    return 0.5 * 10.0 ** -decimals


def parts(entries):
    """``[(title, entry, value)]``: one part per stated value (QTI and GIFT), the question
    itself for an essay."""
    out = []
    for e in entries:
        values = e.get("values", [])
        if len(values) <= 1:
            out.append((e["id"], e, values[0] if values else None))
        else:
            out += [(f"{e['id']} ({k}/{len(values)})", e, v) for k, v in enumerate(values, 1)]
    return out


def close(a, b):
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)


def paragraph_text(markup):
    """The text of an HTML fragment ``<p>...</p>`` (one paragraph, no other tags)."""
    markup = markup.strip()
    assert markup.startswith("<p>") and markup.endswith("</p>"), markup[:80]
    inner = markup[3:-4]
    assert "<" not in inner, inner[:80]
    return html.unescape(inner)


def run_quiz(tmp_path, fmt, name, *extra):
    out = tmp_path / name
    done = subprocess.run([sys.executable, "-m", "nbcourse", "quiz", "--format", fmt, "-o",
                           str(out), *extra], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out, done.stdout


def test_the_bank_has_questions_of_each_kind():
    entries = bank()
    assert sum(len(e.get("values", [])) == 1 for e in entries) >= 10
    assert sum(len(e.get("values", [])) > 1 for e in entries) >= 10
    assert sum("values" not in e for e in entries) >= 10
    assert any(v < 0 for e in entries for v in e.get("values", []))


# --------------------------------------------------------------------------- Moodle XML

def test_moodle_xml_holds_every_question_with_its_answers_tolerances_and_feedback(tmp_path):
    out, stdout = run_quiz(tmp_path, "moodle", "bank.xml")
    entries = bank()
    assert f"wrote {len(entries)} questions" in stdout
    root = ET.parse(out).getroot()
    assert root.tag == "quiz"
    chapter, seen = None, []
    for element in root:
        assert element.tag == "question"
        kind = element.get("type")
        if kind == "category":
            chapter = element.findtext("category/text").removeprefix("$course$/top/nbcourse/")
            continue
        entry = entries[len(seen)]
        seen.append(element.findtext("name/text"))
        assert seen[-1] == entry["id"] == element.findtext("idnumber")
        assert chapter == entry["chapter"]
        question = element.find("questiontext")
        assert question.get("format") == "html"
        feedback = element.find("generalfeedback")
        assert feedback.get("format") == "html"
        assert paragraph_text(feedback.findtext("text")) == words(entry["answer"])
        values = entry.get("values", [])
        if not values:
            assert kind == "essay"
            assert paragraph_text(question.findtext("text")) == words(entry["question"])
            assert paragraph_text(element.findtext("graderinfo/text")) == words(entry["answer"])
            assert element.find("graderinfo").get("format") == "html"
            assert element.findtext("responseformat") == "editor"
        elif len(values) == 1:
            assert kind == "numerical"
            (answer,) = element.findall("answer")
            assert answer.get("fraction") == "100"
            assert float(answer.findtext("text")) == values[0]
            assert close(float(answer.findtext("tolerance")), expected_tolerance(values[0]))
            assert paragraph_text(question.findtext("text")).startswith(words(entry["question"]))
        else:
            assert kind == "cloze"
            text = question.findtext("text")
            # Moodle's embedded answers: {weight:NUMERICAL:=answer:tolerance}
            blanks = re.findall(r"\{(\d+):NUMERICAL:=([^:}]+):([^}#]+)\}", text)
            assert [float(b[1]) for b in blanks] == [float(v) for v in values]
            assert all(close(float(b[2]), expected_tolerance(v))
                       for b, v in zip(blanks, values, strict=True))
            assert words(entry["question"]) in html.unescape(text)
            assert int(element.findtext("defaultgrade")) == len(values)
    assert seen == [e["id"] for e in entries]


# --------------------------------------------------------------------------- QTI 1.2

def qti_items(path):
    """The items of the assessment a QTI content package's manifest names."""
    with zipfile.ZipFile(path) as archive:
        manifest = ET.fromstring(archive.read("imsmanifest.xml"))
        assert manifest.tag == f"{CP_NS}manifest"
        resources = manifest.findall(f"{CP_NS}resources/{CP_NS}resource")
        qti = [r for r in resources if r.get("type") == "imsqti_xmlv1p2"]
        assert len(qti) == 1, [r.get("type") for r in resources]
        href = qti[0].find(f"{CP_NS}file").get("href")
        root = ET.fromstring(archive.read(href))
    assert root.tag == f"{QTI_NS}questestinterop"
    (assessment,) = root.findall(f"{QTI_NS}assessment")
    (section,) = assessment.findall(f"{QTI_NS}section")
    return section.findall(f"{QTI_NS}item")


def metadata(item):
    return {f.findtext(f"{QTI_NS}fieldlabel"): f.findtext(f"{QTI_NS}fieldentry")
            for f in item.iter(f"{QTI_NS}qtimetadatafield")}


def accepted_range(item):
    """(low, high) of the answers a numerical item accepts: an exact ``varequal`` or the
    ``vargte``/``varlte`` bounds of its correct condition."""
    conditions = [c for c in item.iter(f"{QTI_NS}respcondition")
                  if c.find(f"{QTI_NS}setvar") is not None
                  and c.findtext(f"{QTI_NS}setvar") == "100"]
    (condition,) = conditions
    low = condition.find(f".//{QTI_NS}vargte")
    high = condition.find(f".//{QTI_NS}varlte")
    if low is None:
        exact = float(condition.find(f".//{QTI_NS}varequal").text)
        return exact, exact
    return float(low.text), float(high.text)


def test_qti_holds_every_question_with_its_answers_tolerances_and_feedback(tmp_path):
    out, _ = run_quiz(tmp_path, "qti", "bank.zip")
    items = qti_items(out)
    expected = parts(bank())
    assert [item.get("title") for item in items] == [title for title, _, _ in expected]
    for item, (title, entry, value) in zip(items, expected, strict=True):
        fields = metadata(item)
        assert fields["points_possible"] == "1"
        text = item.find(f"{QTI_NS}presentation/{QTI_NS}material/{QTI_NS}mattext")
        assert text.get("texttype") == "text/html"
        assert paragraph_text(text.text).startswith(words(entry["question"])), title
        (feedback,) = [f for f in item.findall(f"{QTI_NS}itemfeedback")
                       if f.get("ident") == "general_fb"]
        assert paragraph_text(feedback.find(f".//{QTI_NS}mattext").text) == \
            words(entry["answer"]), title
        if value is None:
            assert fields["question_type"] == "essay_question", title
        else:
            assert fields["question_type"] == "numerical_question", title
            low, high = accepted_range(item)
            tol = expected_tolerance(value)
            if tol >= 1e-4 or tol == 0:
                assert close(low, value - tol) and close(high, value + tol), (title, low, high)
            else:  # Canvas keeps four decimals: widened outward, never narrower
                assert low <= value - tol and high >= value + tol, (title, low, high)
                assert high - low <= 2 * tol + 2e-4 + 1e-12, (title, low, high)
                assert all(close(x, round(x, 4)) for x in (low, high)), (title, low, high)


# --------------------------------------------------------------------------- GIFT

def test_gift_round_trips_through_an_independent_parser(tmp_path):
    """pygiftparser (not ours) reads every question back: title, text, numeric answer and
    tolerance, essay, general feedback. It does not read a negative number (its numbers are
    ``\\d+(\\.\\d+)?``), so for those answers the test reads GIFT's ``{#value:tolerance`` as
    Moodle's GIFT documentation writes it."""
    from pygiftparser import parser
    from pygiftparser.answer import Essay, NumericAnswerSet
    from pygiftparser.utils import transformSpecials

    out, _ = run_quiz(tmp_path, "gift", "bank.gift")
    source = out.read_text(encoding="utf-8")
    questions = parser.parseFile(io.StringIO(source))
    expected = parts(bank())
    assert [transformSpecials(q.title) for q in questions] == [t for t, _, _ in expected]
    for q, (title, entry, value) in zip(questions, expected, strict=True):
        text = transformSpecials(q.text).removeprefix("[html]")
        assert paragraph_text(text).startswith(words(entry["question"])), title
        assert paragraph_text(transformSpecials(q.generalFeedback)) == words(entry["answer"])
        if value is None:
            assert isinstance(q.answers, Essay), title
            continue
        assert isinstance(q.answers, NumericAnswerSet), title
        tol = expected_tolerance(value)
        if value >= 0:
            (answer,) = q.answers.answers
            assert answer.value == value and close(answer.tolerance, tol), title
        else:
            assert q.answers.answers == []  # the parser's gap, read from the text instead
            match = re.search(r"\{#(-[\d.]+):([\d.]+)####", q.full)
            assert float(match.group(1)) == value and close(float(match.group(2)), tol)
    assert sum(v is not None and v < 0 for _, _, v in expected) >= 2  # the branch above runs


def test_gift_escapes_what_gift_reads_as_syntax():
    from pygiftparser import parser

    from nbcourse.lms.quiz import Question, to_gift

    tricky = Question("t1", "book/x", "Is {a} = ~b: #c?", "Yes: {a} = ~b, #c.", (1.5,))
    (q,) = parser.parseFile(io.StringIO(to_gift([tricky])))
    assert q.answers.answers[0].value == 1.5
    assert r"\{a\} \= \~b\: \#c" in q.text


# --------------------------------------------------------------------------- choosing and refusing

@pytest.mark.parametrize("fmt, name", [("moodle", "c.xml"), ("gift", "c.gift"), ("qti", "c.zip")])
def test_one_chapter_only(tmp_path, fmt, name):
    chapter = "book/part2/03_bounds"
    out, stdout = run_quiz(tmp_path, fmt, name, "--chapter", chapter)
    ids = [e["id"] for e in bank(chapter)]
    assert f"wrote {len(ids)} questions" in stdout and len(ids) >= 2
    if fmt == "qti":
        titles = [i.get("title") for i in qti_items(out)]
    else:
        titles = re.findall(r"<name>\s*<text>([^<]+)</text>" if fmt == "moodle" else
                            r"^::([^:]+)::", out.read_text(encoding="utf-8"), re.M)
    assert sorted({t.split(" (")[0] for t in titles}) == sorted(ids)


@pytest.mark.parametrize("args, message", [
    (["--format", "qti", "-o", "bank.xml"], "output must be a .zip file name for qti"),
    (["--format", "gift", "-o", "b.gift", "--chapter", "book/part9/nothing"],
     "chapter must be one of"),
])
def test_bad_arguments_are_refused_naming_them(tmp_path, args, message):
    done = subprocess.run([sys.executable, "-m", "nbcourse", "quiz", *args],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("entry, message", [
    ({"id": "a", "chapter": "c", "question": "q?"}, "must have the keys"),
    ({"id": "a", "chapter": "c", "question": "q?", "answer": "x", "values": ["1"]},
     "values must be a list of at most"),
    ({"id": "a", "chapter": "c", "question": "", "answer": "x"}, "question must be a non-empty"),
    ({"id": "a", "chapter": "c", "question": "q?", "answer": "x", "values": [1e-20]},
     "without an exponent"),
])
def test_a_malformed_bank_entry_is_refused_naming_the_field(tmp_path, entry, message):
    from nbcourse.lms.quiz import load_bank

    path = tmp_path / "bank.yml"
    path.write_text(yaml.safe_dump([entry]), encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(message)):
        load_bank(path)


def test_student_paths_never_import_the_lms_code():
    code = ("import sys, nbcourse, nbcourse.grading; from nbcourse.grading import check; "
            "import nbcourse.grading.gradescope, nbcourse.grading.grader; "
            "print(sorted(m for m in sys.modules if m.startswith(('nbcourse.lms', 'text2qti', "
            "'pygiftparser'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"
