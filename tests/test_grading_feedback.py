"""What students and instructors meet in the assignment loop: Run All on the notebooks as
they ship, feedback wording, failed defining cells, and written answers."""

import csv
import json

import nbformat
import numpy as np
import pytest
from hostile import EX_BINARY, HONEST_LIMITS, ROOT, code_cells, notebook

from nbcourse.grading import Test, Value, checker, close
from nbcourse.grading.generate import student_path

ASSIGNMENTS = sorted(p.parent for p in (ROOT / "exercises").glob("*/tests.py"))


# --- Run All on the untouched student notebooks ----------------------------------------


def _outputs_text(cell):
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        elif "data" in out:
            parts.append(out["data"].get("text/plain", ""))
    return "".join(parts)


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
@pytest.mark.notebooks
def test_run_all_on_the_shipped_student_notebook_runs_every_check(folder):
    from nbclient import NotebookClient

    nb = nbformat.read(student_path(folder), as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(folder)}})
    client.execute()  # raises CellExecutionError at the first cell that fails
    checks = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("check(")]
    assert len(checks) >= 5
    for cell in checks:
        assert cell.execution_count is not None, cell.source
        text = _outputs_text(cell)
        question = cell.source.split('"')[1]
        assert text.startswith(f"{question} — "), (cell.source, text)
        assert "check() needs the course repository" not in text


# --- a failed defining cell ------------------------------------------------------------


def _run_in_kernel(cells, cwd):
    """Run ``cells`` (sources) as one notebook in a fresh kernel; return the executed one."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, timeout=60, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


@pytest.mark.notebooks
def test_check_names_a_syntax_error_in_the_cell_that_defines_the_answer():
    solution = code_cells(EX_BINARY / "solution.ipynb")
    setup = solution[0]
    bias_cell = next(c for c in solution if c.startswith("def bias"))
    broken = bias_cell.replace("return float(", "return float((")
    nb = _run_in_kernel([setup, bias_cell, 'check("q2")', broken, 'check("q2")',
                         bias_cell, 'check("q2")'], EX_BINARY)
    first, after_break, after_fix = (_outputs_text(nb.cells[i]) for i in (2, 4, 6))
    assert "all 2 public tests passed" in first
    assert "all 2 public tests passed" not in after_break
    assert "the cell that defines bias failed with SyntaxError" in after_break
    assert "0 of 2" not in after_break and "not checked" in after_break
    assert "all 2 public tests passed" in after_fix  # running the fixed cell clears it


@pytest.mark.notebooks
def test_check_names_an_exception_in_the_defining_cell_and_ignores_other_failures():
    solution = code_cells(EX_BINARY / "solution.ipynb")
    value_cell = 'ex3_w = np.log(4.0) * np.ones(3)\nex3_w0 = 3 * np.log(0.4)\n1 / 0'
    nb = _run_in_kernel([solution[0], value_cell, 'check("q3")', "undefined_name + 1",
                         'ex3_w = np.log(4.0) * np.ones(3)\nex3_w0 = 3 * np.log(0.4)',
                         'check("q3")'], EX_BINARY)
    assert "ex3_w failed with ZeroDivisionError: division by zero" in _outputs_text(nb.cells[2])
    assert "all 2 public tests passed" in _outputs_text(nb.cells[5])


def test_a_later_cell_clears_only_the_names_it_defines():
    from nbcourse.grading.check import CellFailures

    failures = CellFailures()
    failures.record("def bias(p, q):\n    x = p\n    return (", SyntaxError("invalid syntax"))
    failures.record("x = 2\ny = 3", None)  # uses x too, but does not define bias
    assert failures.failure("bias") == "SyntaxError: invalid syntax"
    failures.record("bias = lambda p, q: 0.0", None)
    assert failures.failure("bias") is None


@pytest.mark.parametrize("source, name, expected", [
    ("def bias(p, q, prior1):\n    return (", "bias", True),
    ("ex3_w, ex3_w0 = 1, 2", "ex3_w0", True),
    ("x: float = 2.0", "x", True),
    ("total += 1", "total", True),
    ("print(bias)", "bias", False),
    ("f(bias=1)", "bias", False),
    ("biased = 1", "bias", False),
    ("if bias == 2:\n    pass", "bias", False),
])
def test_which_cells_define_a_name(source, name, expected):
    from nbcourse.grading.check import defined_names, defines

    assert defines(source, name) is expected
    assert (name in defined_names(source)) is expected


@pytest.mark.sandbox
def test_grader_reason_names_the_syntax_error_of_a_defining_cell(tmp_path):
    from nbcourse.grading import Limits
    from nbcourse.grading.grader import grade_notebook

    cells = code_cells(EX_BINARY / "solution.ipynb")
    index = next(i for i, c in enumerate(cells) if c.startswith("def bias"))
    cells[index] = cells[index].replace("return float(", "return float((")
    limits = Limits(**HONEST_LIMITS)
    result = grade_notebook(EX_BINARY, notebook(cells, tmp_path / "broken.ipynb"), limits)
    assert result.status == "graded"
    assert (f"q2: the cell that defines bias (code cell {index + 1}) failed with "
            f"SyntaxError: ") in result.reason
    assert "line " in result.reason and "/tmp" not in result.reason and ".py" not in result.reason
    assert result.scores["q2"] == 0 and result.scores["q1"] == 2


# --- feedback wording ------------------------------------------------------------------


def test_placeholders_are_described_in_the_students_words(capsys):
    student = code_cells(student_path(EX_BINARY))
    namespace = {"np": np}
    for cell in student:
        if "checker" not in cell and not cell.startswith("check("):
            exec(cell, namespace)
    check = checker(str(EX_BINARY), namespace=namespace)
    check("q1")
    check("q3")
    check("q5")  # a reasoning check of the assignment's own
    out = capsys.readouterr().out
    assert "prior1_for_omega2 is still ...; replace the ... with your answer" in out
    assert ("log_odds_weights is not written yet: replace its raise NotImplementedError(...) "
            "line with your code") in out
    assert "ex3_w is still ...; replace the ... with your answer" in out
    assert "ProbeError" not in out and "your code raised" not in out


def test_a_function_returning_the_placeholder_is_named():
    from nbcourse.grading.probe import evaluate

    record = evaluate(("call", "f", [], {}, False), {"f": lambda: ...})
    assert record == {"ok": False, "error": "Placeholder: f returned the placeholder ...; "
                                            "replace the ... with your code"}


def test_expected_values_are_shown_with_their_tolerance(capsys):
    namespace = {"np": np, "ex3_w": [1.386, 1.386, 1.386], "ex3_w0": -2.7489}
    check = checker(str(EX_BINARY), namespace=namespace)
    check("q3")
    out = capsys.readouterr().out
    # ln 4 = 1.3862943..., 1.386 is off by 3e-4; 3 ln 0.4 = -2.74887..., within 1e-4
    assert "expected [1.386294, 1.386294, 1.386294] (± 0.0001), got [1.386, 1.386, 1.386]" in out
    assert check.last == (1, 2)


def test_the_four_decimal_values_printed_in_the_notebook_pass(capsys):
    # what the Example 3 cell of the solution prints: [1.3863 1.3863 1.3863] -2.7489
    namespace = {"ex3_w": [1.3863, 1.3863, 1.3863], "ex3_w0": -2.7489}
    check = checker(str(EX_BINARY), namespace=namespace)
    check("q3")
    assert check.last == (2, 2)
    assert "the 2 public tests" not in capsys.readouterr().out


def test_tolerance_text_and_exact_checks():
    assert close(2.0, rtol=0, atol=0)({"ok": True, "value": 2.5}).message == (
        "wrong value: expected 2.0 (exactly), got 2.5")
    assert close(1.0, rtol=1e-6, atol=0)({"ok": True, "value": 1.1}).message == (
        "wrong value: expected 1.0 (± 1e-06 × |expected|), got 1.1")
    assert close(1.0, rtol=0, atol=0.01)({"ok": True, "value": 1.005}).passed
    assert not close(1.0, rtol=0, atol=0.01)({"ok": True, "value": 1.02}).passed


def test_long_literals_are_shortened(capsys):
    namespace = {"np": np, "laplace_estimates": lambda X, y, alpha: (np.zeros((2, 5)), [0.5] * 2)}
    check = checker(str(EX_BINARY), namespace=namespace)
    check("q4")
    out = capsys.readouterr().out
    assert "(40 items)" in out  # the 40-row training set of the second test
    assert max(len(line) for line in out.splitlines()) < 260


@pytest.mark.parametrize("passed_tests, text", [(1, "the public test passed"),
                                                (2, "all 2 public tests passed")])
def test_test_counts_are_singular_or_plural(passed_tests, text, capsys):
    tests = [Test(f"t{i}", Value("x"), close(1.0)) for i in range(passed_tests)]
    from nbcourse.grading import Assignment, Question
    from nbcourse.grading.check import Checker

    hidden = [Test("h", Value("x"), close(1.0), hidden=True)]
    assignment = Assignment("a", "t", [Question("q1", "one", 1, tests + hidden)])
    Checker(assignment, {"x": 1.0})("q1")
    out = capsys.readouterr().out
    assert text in out and "1 more hidden test run when graded" in out
    assert "test(s)" not in out
    Checker(assignment, {"x": 2.0})("q1")
    out = capsys.readouterr().out
    assert f"0 of {passed_tests} public test{'s' if passed_tests > 1 else ''} passed" in out


# --- written answers -------------------------------------------------------------------


def _student_with_answer(tmp_path, name, answer, keep_ids=True):
    nb = nbformat.read(student_path(EX_BINARY), as_version=4)
    cell = next(c for c in nb.cells if "*Write your answer here.*" in c.source)
    cell.source = answer
    if not keep_ids:
        for c in nb.cells:
            c.pop("id", None)
        nb.nbformat_minor = 4
    path = tmp_path / "subs" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def test_written_questions_are_found_in_every_assignment():
    from nbcourse.grading.written import written_questions

    found = {folder.name: sorted(written_questions(folder)) for folder in ASSIGNMENTS}
    assert found == {"02-binary-discriminant": ["q5"], "05-q-minus-j": ["q6"],
                     "04-two-models": ["q6"], "06-experiments": ["q7"],
                     "01-discrete-features": ["q5", "q7"], "03-real-data": ["q2", "q5"],
                     "07-smoothing": ["q3"], "08-scikit-learn": ["q5"],
                     "09-recalibration": ["q6"], "10-text": ["q4"],
                     "11-comparing": ["q5"], "12-missing-values": ["q5"],
                     "13-continuous-features": ["q5"], "14-dependent-features": ["q5"],
                     "15-text-in-practice": ["q5"], "16-priors-that-move": ["q5"]}


def test_written_answers_by_cell_id_and_by_section(tmp_path):
    from nbcourse.grading.written import written_answers

    answer = "The prior must drop below 0.494 <b>& no more</b>."
    with_ids = _student_with_answer(tmp_path, "a.ipynb", answer)
    without = _student_with_answer(tmp_path, "b.ipynb", answer, keep_ids=False)
    untouched = student_path(EX_BINARY)
    for path in (with_ids, without):
        cells = json.loads(path.read_text())["cells"]
        assert written_answers(EX_BINARY, cells) == {"q5": answer}
    assert written_answers(EX_BINARY, json.loads(untouched.read_text())["cells"]) == {"q5": ""}


@pytest.mark.sandbox
def test_written_answers_are_exported_and_hand_scores_merged(tmp_path):
    from nbcourse.__main__ import main
    from nbcourse.grading import Limits
    from nbcourse.grading.batch import grade_batch

    good = _student_with_answer(tmp_path, "ada.ipynb", "=1+1 <script>alert(1)</script>\nline 2")
    blank = _student_with_answer(tmp_path, "bob.ipynb", "*Write your answer here.*")
    out = tmp_path / "out"
    limits = Limits(**HONEST_LIMITS)
    grade_batch(EX_BINARY, [good, blank], out, workers=1, limits=limits, progress=None)

    with open(out / "written-answers.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["submission"], r["question"]) for r in rows] == [("ada.ipynb", "q5"),
                                                                ("bob.ipynb", "q5")]
    assert rows[0]["answer"] == "'=1+1 <script>alert(1)</script>\nline 2"  # never a formula
    assert rows[1]["answer"] == ""
    page = (out / "written-answers.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>" not in page
    assert "(no answer)" in page

    rows[0].update(points="1.5", max_points="2", comment="Right threshold, no reason given.")
    rows[1].update(points="0")
    scores = tmp_path / "scores.csv"
    with open(scores, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for _ in range(2):  # merging twice gives the same result
        assert main(["grade-merge", "--out", str(out), str(scores)]) == 0
        with open(out / "grades.csv", encoding="utf-8", newline="") as f:
            grades = {r["submission"]: r for r in csv.DictReader(f)}
        assert float(grades["ada.ipynb"]["written_q5"]) == 1.5
        assert float(grades["ada.ipynb"]["total"]) == 0 + 1.5  # the untouched code scores 0
        assert float(grades["ada.ipynb"]["max"]) == 12 + 2
        # the question's max_points (given in ada's row) holds for every row
        assert float(grades["bob.ipynb"]["max"]) == 12 + 2
        results = json.loads((out / "ada.ipynb" / "results.json").read_text())
        written = [t for t in results["tests"] if t["name"] == "q5 (written answer)"]
        assert written == [{"name": "q5 (written answer)", "score": 1.5, "max_score": 2.0,
                            "output": "Right threshold, no reason given.",
                            "visibility": "visible"}]
        assert results["score"] == 1.5


def test_grade_merge_names_bad_scores(tmp_path, capsys):
    from nbcourse.__main__ import main

    out = tmp_path / "out"
    out.mkdir()
    (out / "grades.csv").write_text("submission,q1,total,max,status,reason,seconds\n"
                                    "a.ipynb,1,1,2,graded,,1.0\n", encoding="utf-8")
    scores = tmp_path / "scores.csv"
    scores.write_text("submission,question,points\nz.ipynb,q5,1\n", encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 2
    assert "not in" in capsys.readouterr().err and "z.ipynb" in scores.read_text()
    scores.write_text("submission,question,points\na.ipynb,q5,lots\n", encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 2
    assert "points must be a number, got 'lots' in row 2" in capsys.readouterr().err
    scores.write_text("submission,question,points\na.ipynb,q5,3\n", encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 2
    assert "points must be at most max_points (1), got 3 in row 2" in capsys.readouterr().err
    scores.write_text("name,score\n", encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 2
    assert "columns submission, question, points" in capsys.readouterr().err
