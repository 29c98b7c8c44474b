"""What students and instructors meet in the assignment loop: Run All on the notebooks as
they ship, feedback wording, failed defining cells, and written answers."""

import csv
import json

import nbformat
import numpy as np
import pytest
from hostile import EX01, EX02, ROOT, code_cells, notebook

from nbcourse.grading import Call, Test, Value, checker, close
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


def test_check_names_a_syntax_error_in_the_cell_that_defines_the_answer():
    solution = code_cells(EX01 / "solution.ipynb")
    setup = solution[0]
    bias_cell = next(c for c in solution if c.startswith("def bias"))
    broken = bias_cell.replace("return float(", "return float((")
    nb = _run_in_kernel([setup, bias_cell, 'check("q2")', broken, 'check("q2")',
                         bias_cell, 'check("q2")'], EX01)
    first, after_break, after_fix = (_outputs_text(nb.cells[i]) for i in (2, 4, 6))
    assert "all 2 public tests passed" in first
    assert "all 2 public tests passed" not in after_break
    assert "the cell that defines bias failed with SyntaxError" in after_break
    assert "0 of 2" not in after_break and "not checked" in after_break
    assert "all 2 public tests passed" in after_fix  # running the fixed cell clears it


def test_check_names_an_exception_in_the_defining_cell_and_ignores_other_failures():
    solution = code_cells(EX01 / "solution.ipynb")
    value_cell = 'ex3_w = np.log(4.0) * np.ones(3)\nex3_w0 = 3 * np.log(0.4)\n1 / 0'
    nb = _run_in_kernel([solution[0], value_cell, 'check("q3")', "undefined_name + 1",
                         'ex3_w = np.log(4.0) * np.ones(3)\nex3_w0 = 3 * np.log(0.4)',
                         'check("q3")'], EX01)
    assert "ex3_w failed with ZeroDivisionError: division by zero" in _outputs_text(nb.cells[2])
    assert "all 2 public tests passed" in _outputs_text(nb.cells[5])


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
    from nbcourse.grading.check import _defines

    assert _defines(source, name) is expected


def test_grader_reason_names_the_syntax_error_of_a_defining_cell(tmp_path):
    from nbcourse.grading import Limits
    from nbcourse.grading.grader import grade_notebook

    cells = code_cells(EX01 / "solution.ipynb")
    index = next(i for i, c in enumerate(cells) if c.startswith("def bias"))
    cells[index] = cells[index].replace("return float(", "return float((")
    limits = Limits(cell_timeout=5, total_timeout=60, probe_timeout=3, memory_mb=1536,
                    max_procs=48)
    result = grade_notebook(EX01, notebook(cells, tmp_path / "broken.ipynb"), limits)
    assert result.status == "graded"
    assert (f"q2: the cell that defines bias (code cell {index + 1}) failed with "
            f"SyntaxError: ") in result.reason
    assert "line " in result.reason and "/tmp" not in result.reason and ".py" not in result.reason
    assert result.scores["q2"] == 0 and result.scores["q1"] == 2


# --- feedback wording ------------------------------------------------------------------


def test_placeholders_are_described_in_the_students_words(capsys):
    student = code_cells(student_path(EX01))
    namespace = {"np": np}
    for cell in student:
        if "checker" not in cell and not cell.startswith("check("):
            exec(cell, namespace)
    check = checker(str(EX01), namespace=namespace)
    check("q1")
    check("q3")
    out = capsys.readouterr().out
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
    check = checker(str(EX01), namespace=namespace)
    check("q3")
    out = capsys.readouterr().out
    # ln 4 = 1.3862943..., 1.386 is off by 3e-4; 3 ln 0.4 = -2.74887..., within 1e-4
    assert "expected [1.386294, 1.386294, 1.386294] (± 0.0001), got [1.386, 1.386, 1.386]" in out
    assert check.last == (1, 2)


def test_the_four_decimal_values_printed_in_the_notebook_pass(capsys):
    # what the Example 3 cell of the solution prints: [1.3863 1.3863 1.3863] -2.7489
    namespace = {"ex3_w": [1.3863, 1.3863, 1.3863], "ex3_w0": -2.7489}
    check = checker(str(EX01), namespace=namespace)
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
    check = checker(str(EX01), namespace=namespace)
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
