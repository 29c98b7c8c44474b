"""Grades and feedback reach students: a graded batch exported in Canvas's and Moodle's
grade-import formats (read back as those systems' importers read a file) and as plain CSV,
and one feedback page per submission that holds no hidden test before publication."""

import csv
import io
import json
import re
import shutil
import subprocess
import sys

import pytest
from hostile import EX_BINARY, HONEST_LIMITS

from conftest import ROOT
from nbcourse.grading import Limits, read_roster
from nbcourse.grading.batch import grade_batch
from nbcourse.grading.generate import student_path
from nbcourse.lms.feedback import feedback_page, write_feedback
from nbcourse.lms.grades import export_grades, read_gradebook

TITLE = "02-binary-discriminant"

pytestmark = pytest.mark.sandbox  # the gradebooks exported here are graded in sandboxes


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """A graded batch: ada (the solution) and bob (the untouched student notebook) named by a
    roster; carol and dave (the solution again) on no roster, so their identifier is the
    notebook's unverified claim, the same for both."""
    tmp = tmp_path_factory.mktemp("lms")
    subs = tmp / "submissions"
    subs.mkdir()
    for name in ("ada", "carol", "dave"):
        shutil.copy(EX_BINARY / "solution.ipynb", subs / f"{name}.ipynb")
    shutil.copy(student_path(EX_BINARY), subs / "bob.ipynb")
    roster = tmp / "roster.csv"
    roster.write_text("submission,student_id\nada.ipynb,ada@uni.example\n"
                      "bob.ipynb,bob@uni.example\n", encoding="utf-8")
    out = tmp / "grades"
    grade_batch(EX_BINARY, sorted(subs.iterdir()), out, workers=2,
                limits=Limits(**HONEST_LIMITS), progress=None, roster=read_roster(roster))
    return out


def grades_by_id(out):
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        return {r["student_id"]: r for r in csv.DictReader(f)}


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "nbcourse", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


# --------------------------------------------------------------------------- Canvas

CANVAS_NON_ASSIGNMENT = re.compile("Current Score|Current Points|Current Grade|Final Score|"
                                   "Final Points|Final Grade|Override Score|Override Grade|"
                                   "Override Status")


def canvas_import(text):
    """``(points_possible, {assignment: {student key: grade}})`` as Canvas's gradebook
    importer reads a CSV: the delimiter is the one (',' or ';') that splits the first lines
    into equal counts of fields; the header starts 'Student', 'ID', then 'SIS Login ID', or
    'SIS User ID' and 'SIS Login ID' (an 'Integration ID' may follow), and the student
    columns end with 'Section'; total and override columns are not assignments; a row
    starting 'Points Possible' gives the points; a student is found by ID, else SIS User ID,
    else SIS Login ID."""
    lines = text.splitlines()[:3]
    counts = {sep: {len(next(csv.reader([line], delimiter=sep))) for line in lines}
              for sep in ",;"}
    widths = {sep: c.pop() if len(c) == 1 else 0 for sep, c in counts.items()}
    sep = ";" if widths[";"] > widths[","] else ","
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=sep))
    header = rows[0]
    assert len(header) > 3 and "Student" in header[0] and "ID" in header[1]
    if re.search(r"SIS\s+Login\s+ID", header[2]):
        columns, sis_user, sis_login = 4, None, 2
    else:
        assert re.search(r"SIS\s+User\s+ID", header[2]) and re.search(r"SIS\s+Login\s+ID",
                                                                     header[3])
        extra = 1 if re.search(r"Integration\s+ID", header[4]) else 0
        columns, sis_user, sis_login = 5 + extra, 2, 3
    assert "Section" in header[columns - 1]
    assignments = {i: h for i, h in enumerate(header) if i >= columns
                   and not CANVAS_NON_ASSIGNMENT.search(h)}
    points, grades = {}, {h: {} for h in assignments.values()}
    for row in rows[1:]:
        if row[0].startswith("Points Possible"):
            points = {assignments[i]: row[i] for i in assignments}
            continue
        key = row[1] or (sis_user is not None and row[sis_user]) or row[sis_login]
        assert key, f"no student identifier in {row}"
        for i, title in assignments.items():
            grades[title][key] = row[i].strip()
    return points, grades


@pytest.mark.parametrize("id_column, header", [("sis_login_id", "SIS Login ID"),
                                               ("sis_user_id", "SIS User ID"), ("id", "ID")])
def test_canvas_import_reads_every_verified_grade(batch, tmp_path, id_column, header):
    out = tmp_path / "canvas.csv"
    done = run("export", "--format", "canvas", "--canvas-id", id_column, "-o", out, batch)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    points, grades = canvas_import(text)
    expected = grades_by_id(batch)
    assert points == {TITLE: "12"}
    assert grades == {TITLE: {s: expected[s]["total"]
                              for s in ("ada@uni.example", "bob@uni.example")}}
    assert float(grades[TITLE]["ada@uni.example"]) > float(grades[TITLE]["bob@uni.example"]) == 0
    column = next(csv.reader([text.splitlines()[0]])).index(header)
    assert {row[column] for row in csv.reader(io.StringIO(text))} >= {"ada@uni.example"}
    assert "left out carol.ipynb: unverified" in done.stderr
    assert "left out dave.ipynb: unverified" in done.stderr


def test_canvas_title_names_an_existing_assignment(batch, tmp_path):
    out = tmp_path / "canvas.csv"
    export_grades(batch, "canvas", out, title="Homework 2 (4567)")
    _, grades = canvas_import(out.read_text(encoding="utf-8"))
    assert list(grades) == ["Homework 2 (4567)"]


# --------------------------------------------------------------------------- Moodle

def moodle_import(text, user_column, grade_column, feedback_column):
    """``{user: (grade, feedback)}`` as Moodle's 'Import grades from CSV file' reads a file
    (comma separated, UTF-8): a BOM is dropped, line ends normalised, header fields trimmed;
    every line must have as many fields as the header ('csvweirdcolumns'); the user column
    is mapped to a user field, the grade column to the grade item ('' or '-' is no grade,
    else a number) and the feedback column to its feedback."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = [h.strip() for h in rows[0]]
    assert all(len(row) == len(header) for row in rows[1:]), "csvweirdcolumns"
    at = {name: header.index(name) for name in (user_column, grade_column, feedback_column)}
    out = {}
    for row in rows[1:]:
        value = row[at[grade_column]].strip()
        grade = None if value in ("", "-") else float(value)
        out[row[at[user_column]].strip()] = (grade, row[at[feedback_column]])
    return out


@pytest.mark.parametrize("id_field, column", [("email", "Email address"),
                                              ("idnumber", "ID number")])
def test_moodle_import_reads_every_verified_grade_with_feedback(batch, tmp_path, id_field,
                                                                 column):
    out = tmp_path / "moodle.csv"
    done = run("export", "--format", "moodle", "--moodle-id", id_field, "--title", "Homework 2",
               "-o", out, batch)
    assert done.returncode == 0, done.stderr
    read = moodle_import(out.read_text(encoding="utf-8"), column, "Homework 2", "Feedback")
    expected = grades_by_id(batch)
    assert {k: v[0] for k, v in read.items()} == {
        s: float(expected[s]["total"]) for s in ("ada@uni.example", "bob@uni.example")}
    ada = read["ada@uni.example"][1]
    assert ada.startswith(f"{expected['ada@uni.example']['total']} of 12 points (graded). "
                          f"Per question: q1 2, q2 2,")


# --------------------------------------------------------------------------- the rows

def test_plain_csv_and_the_unverified_rows(batch, tmp_path):
    out = tmp_path / "plain.csv"
    with pytest.raises(ValueError, match="carol.ipynb.*dave.ipynb.*exclude one of them"):
        export_grades(batch, "csv", out, allow_unverified=True)
    done = export_grades(batch, "csv", out, allow_unverified=True, exclude=["dave.ipynb"])
    with open(out, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["student_id"], r["submission"]) for r in rows] == [
        ("ada@uni.example", "ada.ipynb"), ("bob@uni.example", "bob.ipynb"),
        ("example-student", "carol.ipynb")]
    expected = grades_by_id(batch)
    assert [r["score"] for r in rows] == [expected[r["student_id"]]["total"] for r in rows]
    assert rows[2]["score"] == "12"  # the solution, checked for the identifier it claims
    assert {r["max_score"] for r in rows} == {"12"}
    assert done.left_out == [("dave.ipynb", "excluded")]


def test_columns_are_read_by_name_and_extra_ones_ignored(batch, tmp_path):
    """A gradebook with columns added (among the identity columns and at the end) reads the
    same."""
    columns, rows = read_gradebook(batch)
    moved = columns[:-1] + ["claimed_id"] + columns[-1:] + ["made_by"]
    folder = tmp_path / "moved"
    shutil.copytree(batch, folder)
    with open(folder / "grades.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=moved)
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "claimed_id": "someone", "made_by": "roster abc"})
    for fmt in ("canvas", "moodle", "csv"):
        export_grades(batch, fmt, tmp_path / f"a-{fmt}.csv")
        export_grades(folder, fmt, tmp_path / f"b-{fmt}.csv", title=TITLE)
        assert (tmp_path / f"a-{fmt}.csv").read_bytes() == (tmp_path / f"b-{fmt}.csv").read_bytes()


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace("student_id", "owner"), "grades must have the columns"),
    (lambda t: t.replace("ada@uni.example", "=cmd|ada"), "starts as a spreadsheet formula"),
])
def test_a_bad_gradebook_or_row_is_named(batch, tmp_path, change, message):
    folder = tmp_path / "g"
    shutil.copytree(batch, folder)
    text = (folder / "grades.csv").read_text(encoding="utf-8")
    (folder / "grades.csv").write_text(change(text), encoding="utf-8")
    done = run("export", "--format", "csv", "-o", tmp_path / "x.csv", folder)
    assert message in done.stderr


def test_export_refuses_a_missing_gradebook(tmp_path):
    done = run("export", "--format", "canvas", "-o", tmp_path / "x.csv", tmp_path)
    assert done.returncode == 2
    assert "grades must be a grades.csv written by nbcourse grade" in done.stderr


# --------------------------------------------------------------------------- feedback

def test_feedback_holds_no_hidden_test_until_published(batch, tmp_path):
    done = run("feedback", "-o", tmp_path / "fb", batch)
    assert done.returncode == 0, done.stderr
    assert "hidden tests left out until --published" in done.stdout
    page = (tmp_path / "fb" / "ada.ipynb.html").read_text(encoding="utf-8")
    results = json.loads((batch / "ada.ipynb" / "results.json").read_text(encoding="utf-8"))
    hidden = [t for t in results["tests"] if t["visibility"] == "after_published"]
    public = [t for t in results["tests"] if t["visibility"] == "visible"]
    assert hidden and public
    assert "hidden test" not in page and "Score:" not in page
    assert all(t["name"] in page for t in public)
    assert f"{len(hidden)} more results are shown when grades are published" in page
    published = run("feedback", "--published", "-o", tmp_path / "pub", batch)
    assert published.returncode == 0, published.stderr
    page = (tmp_path / "pub" / "ada.ipynb.html").read_text(encoding="utf-8")
    assert all(t["name"] in page for t in hidden + public)
    assert f"Score: <strong>{results['score']:g}</strong> of 12 points." in page
    assert sorted(p.name for p in (tmp_path / "pub").iterdir()) == [
        f"{n}.ipynb.html" for n in ("ada", "bob", "carol", "dave")]


def test_a_feedback_page_is_self_contained_and_escapes_what_a_submission_wrote():
    results = {"score": 1, "visibility": "visible", "output": "<script>alert(1)</script>",
               "tests": [{"name": "q1 <b>", "score": 1, "max_score": 2,
                          "output": "FAIL <img src=x onerror=alert(1)>", "visibility": "visible"}]}
    page = feedback_page(results, "a1", "ada<")
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "ada&lt;" in page
    assert not re.search(r"<[^>]*\s(src|href)=|<link|@import|url\(", page)


def test_a_submission_without_results_gets_no_page_and_is_named(batch, tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(batch, folder)
    (folder / "bob.ipynb" / "results.json").unlink()
    done = run("feedback", "-o", tmp_path / "fb", folder)
    assert done.returncode == 1
    assert "no page for bob.ipynb: no readable results.json" in done.stderr
    assert (tmp_path / "fb" / "ada.ipynb.html").is_file()
    pages = write_feedback(folder, tmp_path / "fb2")
    assert [m[0] for m in pages.missing] == ["bob.ipynb"] and len(pages.written) == 3
