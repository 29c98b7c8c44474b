"""The grading machinery: assignments, student notebooks, instant feedback, the grader,
batches with worker processes and the Gradescope bundle.

Hostile submissions are in ``test_grading_hostile.py``.
"""

import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys

import nbformat
import numpy as np
import pytest
from grading_helpers import unpack_bundle
from hostile import (
    EX_BINARY,
    EX_Q_MINUS_J,
    HONEST_LIMITS,
    ROOT,
    code_cells,
    notebook,
    with_student_id,
)

import nbcourse
from nbcourse.grading import (
    Assignment,
    Call,
    Limits,
    Question,
    Test,
    Value,
    checker,
    close,
    equal,
    raises,
)
from nbcourse.grading.assignment import load_assignment, parse_results
from nbcourse.grading.generate import generate, strip_code, strip_markdown, student_path
from nbcourse.grading.grader import NotebookError, grade_notebook, read_code_cells
from nbcourse.grading.probe import ProbeError, encode, evaluate, run, to_plain

HONEST = Limits(**HONEST_LIMITS)
# every assignment folder; the reference assignments 02 and 05 get extra, specific tests
ASSIGNMENTS = sorted(p.parent for p in (ROOT / "exercises").glob("*/tests.py"))


def grade(folder, path, tmp_path, limits=HONEST):
    assignment = load_assignment(folder)
    return grade_notebook(assignment, path, limits)


# --- assignments and their notebooks ---------------------------------------------------


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_assignment_has_at_least_five_questions_with_public_and_hidden_tests(folder):
    assignment = load_assignment(folder)
    assert len(assignment.questions) >= 5
    tests = [t for q in assignment.questions for t in q.tests]
    assert any(t.hidden for t in tests) and any(not t.hidden for t in tests)
    assert assignment.max_score == sum(q.points for q in assignment.questions) > 0


def test_reference_assignments_are_present():
    assert {EX_BINARY, EX_Q_MINUS_J} <= set(ASSIGNMENTS)
    assert load_assignment(EX_BINARY).max_score == 12 and load_assignment(EX_Q_MINUS_J).max_score == 14


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_committed_student_notebook_is_not_stale(folder):
    expected = nbformat.writes(generate(folder / "solution.ipynb")) + "\n"
    committed = student_path(folder).read_text(encoding="utf-8")
    assert committed == expected, (
        f"{student_path(folder)} is stale: run python -m nbcourse.grading.generate {folder}")


def test_a_stale_student_notebook_is_detected(tmp_path):
    folder = tmp_path / "02-binary-discriminant"
    shutil.copytree(EX_BINARY, folder)
    nb = nbformat.read(folder / "solution.ipynb", as_version=4)
    nb.cells[2].source += "\n# an edit made after the student notebook was generated"
    nbformat.write(nb, folder / "solution.ipynb")
    from nbcourse.grading.generate import main

    assert main(["--check", str(folder)]) == 1
    assert main([str(folder)]) == 0
    assert main(["--check", str(folder)]) == 0


def _solution_lines(folder):
    lines, inside = [], False
    for cell in code_cells(folder / "solution.ipynb"):
        for line in cell.split("\n"):
            if "# BEGIN SOLUTION" in line or "# END SOLUTION" in line:
                inside = "BEGIN" in line
            elif inside or line.rstrip().endswith("# SOLUTION"):
                lines.append(line.split("# SOLUTION")[0].strip())
    return [x for x in lines if len(x) > 8]


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_student_notebook_has_no_solution_left(folder):
    student = "\n".join(code_cells(student_path(folder)))
    secret = _solution_lines(folder)
    assert len(secret) >= 3
    assert "SOLUTION" not in student
    leaked = [line for line in secret if line in student]
    assert leaked == []


def test_strip_code_placeholders_and_marker_errors():
    src = "x = 1\ndef f(a):\n    # BEGIN SOLUTION\n    return a\n    # END SOLUTION\ny = 2  # SOLUTION\n"
    out = strip_code(src)
    assert out == ("x = 1\ndef f(a):\n    raise NotImplementedError(\"replace this line with "
                   "your code\")\ny = ...\n")
    assert strip_code("# BEGIN SOLUTION\nz = 3\n# END SOLUTION") == "..."
    assert strip_code("print(1)  # SOLUTION") == "..."
    with pytest.raises(ValueError, match="without"):
        strip_code("# BEGIN SOLUTION\nz = 3", "cell 4")
    with pytest.raises(ValueError, match="cell 4, line 1"):
        strip_code("# END SOLUTION", "cell 4")
    with pytest.raises(ValueError, match="unbalanced"):
        strip_markdown("<!-- BEGIN SOLUTION --> no end")


def test_solution_only_cells_are_removed(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("a = 1  # SOLUTION"),
        nbformat.v4.new_code_cell("secret = 2", metadata={"tags": ["solution-only"]}),
    ])
    student = generate(nb)
    assert [c.source for c in student.cells] == ["a = ..."]


# --- instant feedback ------------------------------------------------------------------


def _solution_namespace(folder):
    namespace = {"np": np}
    for cell in code_cells(folder / "solution.ipynb"):
        if "checker" not in cell and not cell.startswith("check("):
            exec(cell, namespace)
    return namespace


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_check_passes_every_public_test_of_the_solution(folder, capsys):
    check = checker(folder.name, namespace=_solution_namespace(folder))
    check("all")
    passed, total = check.last
    assert total >= 5 and passed == total
    assert "✘" not in capsys.readouterr().out


def test_check_explains_a_wrong_answer_and_hides_hidden_tests(capsys):
    namespace = _solution_namespace(EX_BINARY)
    namespace["log_odds_weights"] = lambda p, q: np.log(np.asarray(p) / np.asarray(q))
    check = checker(str(EX_BINARY), namespace=namespace)
    check("q1")
    out = capsys.readouterr().out
    assert check.last == (0, 2)
    assert "0 of 2 public tests passed" in out
    assert "1.386" in out and "0.47" in out  # expected ln 4 and got ln 1.6, both public
    assert "six random features" not in out  # hidden tests are not listed
    check("q9")
    assert "no question 'q9'" in capsys.readouterr().out


def test_check_reports_placeholders_and_errors_kindly(capsys):
    check = checker("05-q-minus-j", namespace={"eq13_threshold": ...})
    check("q4")
    check("q1")
    out = capsys.readouterr().out
    assert "eq13_threshold is still ...; replace the ... with your answer" in out
    assert "ProbeError" not in out and "your code raised" not in out.split("\n")[1]
    assert "NameError: q_minus_j is not defined" in out


def test_checker_names_a_missing_assignment():
    with pytest.raises(ValueError, match=r"^name must be an assignment folder with tests.py "
                                         r"or the name of one under exercises/ near .*, "
                                         r"got 'no-such-assignment', which was not found$"):
        checker("no-such-assignment")


@pytest.mark.parametrize("build, error, message", [
    (lambda: Call("q minus j"), ValueError, "func must be a Python identifier, got 'q minus j'"),
    (lambda: Call(None), TypeError, "func must be a Python identifier, got NoneType None"),
    (lambda: Value("x.y"), ValueError, "name must be a Python identifier, got 'x.y'"),
    (lambda: Question("Q 1", "t", 1, []), ValueError,
     "name must be an identifier like 'q1', got 'Q 1'"),
    (lambda: Question("q1", "t", 0, []), ValueError, "points must be a finite number > 0, got 0.0"),
    (lambda: Question("q1", "t", "2", []), TypeError, "points must be a finite number > 0, got str '2'"),
    (lambda: Assignment("a", "t", [Question("q1", "t", 1, [])] * 2), ValueError,
     "questions must be distinct by name, got names ['q1', 'q1']"),
])
def test_bad_assignment_definitions_are_named(build, error, message):
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        build()


# --- probes and strict parsing ---------------------------------------------------------


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_to_plain_accepts_plain_and_numpy_values_only():
    assert to_plain(np.array([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert to_plain((np.float64(0.5), np.int32(3), np.bool_(True))) == [0.5, 3, True]
    assert type(to_plain(np.float64(0.5))) is float
    for bad in (np.array(["a"]), 1j, object(), np.ma.array([1.0]), np.matrix([[1.0]]),
                type("F", (float,), {})(1.0), type("L", (list,), {})([1]), Ellipsis, 10**30):
        with pytest.raises(ProbeError):
            to_plain(bad)


def test_encode_round_trips_through_the_strict_parser():
    value = {"a": [1, -2.5e-300, None, True, "é\"\\\n"], "b": [math.inf, -math.inf]}
    nonce = "5f0c1d2e3a4b5c6d"
    text = nonce + "[" + encode({"ok": True, "value": value}) + "]" + nonce
    (record,) = parse_results(text, nonce, 1)
    assert record == {"ok": True, "value": value}
    text = nonce + "[" + encode({"ok": True, "value": math.nan}) + "]" + nonce
    nan = parse_results(text, nonce, 1)
    assert math.isnan(nan[0]["value"])


@pytest.mark.parametrize("text", [
    None, "", "N[]N", "X[{\"ok\":true,\"value\":1}]X", "N[{\"ok\":true,\"value\":1}]",
    "N[{\"ok\":true,\"value\":1}]NN[{\"ok\":true,\"value\":2}]N",
    "N[{\"ok\":true,\"value\":1,\"ok\":true}]N", "N[{\"ok\":1,\"value\":1}]N",
    "N[{\"ok\":true,\"value\":1,\"passed\":true}]N", "N[{\"ok\":false,\"error\":3}]N",
    "N" + "[" * 100 + "]" * 100 + "N", "N" + "[1," * 10**6 + "]N",
])
def test_parse_results_rejects_anything_but_one_framed_record_per_probe(text):
    with pytest.raises((ValueError, TypeError)):
        parse_results(text, "N", 1)


def test_checks_are_strict_about_types_shapes_and_nan():
    ok = close([1.0, 2.0])
    assert ok({"ok": True, "value": [1, 2.0000000001]}).passed
    assert not ok({"ok": True, "value": [[1.0, 2.0]]}).passed
    assert not ok({"ok": True, "value": [1.0, math.nan]}).passed
    assert not ok({"ok": True, "value": "[1.0, 2.0]"}).passed
    assert not ok({"ok": False, "error": "NameError: f"}).passed
    assert close(-math.inf)({"ok": True, "value": -math.inf}).passed
    assert not close(-math.inf)({"ok": True, "value": -1e308}).passed
    assert not equal("a")({"ok": True, "value": "b"}).passed
    assert raises("ValueError")({"ok": False, "error": "ValueError: j"}).passed
    assert not raises("ValueError")({"ok": False, "error": "TypeError: j"}).passed


def test_hidden_verdicts_never_carry_the_expected_value():
    test = Test("secret", Value("x"), close(0.123456789), hidden=True)
    verdict = test.verdict([{"ok": True, "value": 1.0}])
    assert not verdict.passed and "0.123" not in verdict.message
    public = Test("open", Value("x"), close(0.123456789))
    assert "0.123" in public.verdict([{"ok": True, "value": 1.0}]).message


def test_a_check_that_crashes_fails_the_test_instead_of_the_grader():
    def broken(result):
        raise KeyError("boom")

    q = Question("q1", "t", 1, [Test("t", Value("x"), broken)])
    score, (verdict,) = q.score([{"ok": True, "value": 1}])
    assert score == 0 and not verdict.passed


def test_probe_evaluation_survives_exceptions_exits_and_slow_calls():
    def leave():
        raise SystemExit(0)

    def slow():
        import time

        time.sleep(5)

    namespace = {"leave": leave, "slow": slow}
    assert evaluate(("call", "leave", [], {}, False), namespace)["error"].startswith("SystemExit")
    text = run([("call", "slow", [], {}, False)], "N", namespace, seconds=0.2)
    assert "TimeoutError" in text
    assert Call("f", [1.0], k=2).describe() == "f([1.0], k=2)"
    with pytest.raises(ValueError):
        Call("not valid")


# --- grading the reference notebooks ---------------------------------------------------


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
@pytest.mark.sandbox
def test_solution_scores_full_marks(folder, tmp_path):
    result = grade(folder, folder / "solution.ipynb", tmp_path)
    assert result.status == "graded", result.reason
    assert result.total == result.max_score, result.feedback
    assert result.reason == ""


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
@pytest.mark.sandbox
def test_untouched_student_notebook_scores_zero_and_runs(folder, tmp_path):
    result = grade(folder, student_path(folder), tmp_path)
    assert result.status == "graded"
    assert result.reason == ""  # every cell ran: no timeout, no dead kernel
    assert result.total == 0.0
    assert all(score == 0 for score in result.scores.values())


@pytest.mark.sandbox
def test_partial_work_earns_partial_credit(tmp_path):
    cells = code_cells(student_path(EX_Q_MINUS_J))
    solution = code_cells(EX_Q_MINUS_J / "solution.ipynb")
    index = next(i for i, c in enumerate(solution) if c.startswith("def q_minus_j"))
    cells[index] = solution[index]
    result = grade(EX_Q_MINUS_J, notebook(cells, tmp_path / "partial.ipynb"), tmp_path)
    assert result.scores["q1"] == 3.0
    assert result.total == 3.0


@pytest.mark.sandbox
def test_careless_q_minus_j_loses_only_the_hidden_edge_cases(tmp_path):
    cells = code_cells(EX_Q_MINUS_J / "solution.ipynb")
    index = next(i for i, c in enumerate(cells) if c.startswith("def q_minus_j"))
    cells[index] = ("def q_minus_j(theta, j):\n    theta = np.asarray(theta, dtype=float)\n"
                    "    return np.prod(1 - theta, axis=-1) / (1 - theta[..., j])\n")
    result = grade(EX_Q_MINUS_J, notebook(cells, tmp_path / "careless.ipynb"), tmp_path)
    failed = {f["test"] for f in result.feedback["q1"] if not f["passed"]}
    assert failed == {"theta_v = 1 (no 0/0)"}  # 0/0 gives NaN, which never passes
    assert 0 < result.scores["q1"] < 3.0


@pytest.mark.sandbox
def test_reasoning_answer_is_checked_by_the_grader_not_by_a_key(tmp_path):
    cells = code_cells(EX_Q_MINUS_J / "solution.ipynb")
    index = next(i for i, c in enumerate(cells) if c.startswith("q6_pi"))
    # another valid example: K = 4, prior favouring c, theta_c at a corner
    cells[index] = ("q6_pi = [0.7, 0.3]\nq6_theta_c = [0.2, 0.8, 0.0, 0.0]\n"
                    "q6_theta_d = [0.4, 0.2, 0.2, 0.2]\nq6_j = 0\n")
    assert grade(EX_Q_MINUS_J, notebook(cells, tmp_path / "other.ipynb"), tmp_path).scores["q6"] == 2
    cells[index] = ("q6_pi = [0.5, 0.5]\nq6_theta_c = [0.3, 0.7, 0.0]\n"
                    "q6_theta_d = [0.4, 0.3, 0.3]\nq6_j = 0\n")  # both models pick d
    assert grade(EX_Q_MINUS_J, notebook(cells, tmp_path / "wrong.ipynb"), tmp_path).scores["q6"] == 0
    cells[index] = "q6_pi = [0.6, 0.4]\nq6_theta_c = [0.5, 0.7, 0.0]\nq6_theta_d = [1, 0, 0]\nq6_j = 0\n"
    assert grade(EX_Q_MINUS_J, notebook(cells, tmp_path / "invalid.ipynb"), tmp_path).scores["q6"] == 0


def test_read_code_cells_rejects_what_is_not_a_notebook(tmp_path):
    path = tmp_path / "x.ipynb"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(NotebookError, match="not UTF-8"):
        read_code_cells(path)
    path.write_text('{"nbformat": 3, "worksheets": []}')
    with pytest.raises(NotebookError, match="no list of cells"):
        read_code_cells(path)
    assert read_code_cells(notebook(["a = 1", "b = 2"], path)) == ["a = 1", "b = 2"]


# --- batches, the command line and Gradescope ------------------------------------------


@pytest.mark.slow
@pytest.mark.sandbox
def test_batch_grades_every_submission_with_workers_and_progress(tmp_path):
    subs = tmp_path / "submissions"
    subs.mkdir()
    shutil.copy(EX_BINARY / "solution.ipynb", subs / "alice.ipynb")
    shutil.copy(student_path(EX_BINARY), subs / "bob.ipynb")
    (subs / "carol.ipynb").write_bytes(b"\x80not a notebook")
    notebook(["import os\nos._exit(3)"], subs / "dave.ipynb")
    (subs / "numpy.py").write_text("raise SystemExit('a local numpy.py must never be imported')\n")
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": ""}
    # -P: the instructor runs from the folder of submissions, next to a student's numpy.py
    proc = subprocess.run(
        [sys.executable, "-P", "-m", "nbcourse", "grade", "--assignment", str(EX_BINARY), "--out", str(out),
         "--workers", "2", "--cell-timeout", "5", "--total-timeout", "60", str(subs)],
        capture_output=True, text=True, cwd=subs, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    progress = [line for line in proc.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == 4
    assert all(" in " in line and " s (" in line for line in progress)
    with open(out / "grades.csv", newline="") as f:
        rows = {r["submission"]: r for r in csv.DictReader(f)}
    assert set(rows) == {"alice.ipynb", "bob.ipynb", "carol.ipynb", "dave.ipynb"}
    rows = {name.removesuffix(".ipynb"): row for name, row in rows.items()}
    assert float(rows["alice"]["total"]) == 12 and rows["alice"]["status"] == "graded"
    assert float(rows["bob"]["total"]) == 0 and rows["bob"]["status"] == "graded"
    assert rows["carol"]["status"] == "invalid" and "UTF-8" in rows["carol"]["reason"]
    assert float(rows["dave"]["total"]) == 0 and rows["dave"]["max"] == "12"
    assert list(rows["alice"])[:7] == ["submission", "q1", "q2", "q3", "q4", "q5", "q6"]
    for name in rows:
        results = json.loads((out / f"{name}.ipynb" / "results.json").read_text())
        assert set(results) >= {"score", "tests", "output"}
        for t in results["tests"]:
            assert set(t) >= {"name", "score", "max_score", "output", "visibility"}
    alice = json.loads((out / "alice.ipynb" / "results.json").read_text())
    assert alice["score"] == 12


@pytest.mark.sandbox
def test_results_never_show_hidden_expected_values(tmp_path):
    cells = code_cells(student_path(EX_BINARY))
    cells.append("def log_odds_weights(p, q):\n    return np.zeros(len(p)) + 0.5\n"
                 "ex3_w0 = 1.0\nex3b_w0 = 1.0\nuseless_feature = 3\n")
    path = notebook(cells, tmp_path / "wrong.ipynb")
    from nbcourse.grading.batch import grade_batch

    grade_batch(EX_BINARY, [path], tmp_path / "out", workers=1, limits=HONEST, progress=None)
    text = (tmp_path / "out" / "wrong.ipynb" / "results.json").read_text()
    text += (tmp_path / "out" / "grades.csv").read_text()
    q1_hidden = load_assignment(EX_BINARY).question("q1").tests[2]
    assert q1_hidden.hidden
    hidden_values = list(nbcourse.two_class_discriminant(*q1_hidden.probe.args)[0])
    hidden_values.append(nbcourse.two_class_discriminant([0.8, 0.8, 0.5], [0.5, 0.5, 0.5])[1])
    for value in hidden_values:
        assert f"{value:.3f}" not in text
    public = json.loads((tmp_path / "out" / "wrong.ipynb" / "results.json").read_text())
    assert any("1.386" in t["output"] for t in public["tests"] if t["visibility"] == "visible")


@pytest.mark.parametrize("which, user, expected", [
    ("solution.ipynb", "example-student", 12.0),
    # the metadata names another student: q7's numbers are theirs, so only its form test passes
    ("solution.ipynb", "bob@uni.example", 12.0 - 1.75),
    (None, None, 0.0)])
@pytest.mark.sandbox
def test_gradescope_bundle_runs_locally(which, user, expected, tmp_path):
    bundle = tmp_path / "bundle.zip"
    from nbcourse.grading.cli import gradescope_main

    assert gradescope_main([str(EX_BINARY), "-o", str(bundle), "--cell-timeout", "5",
                            "--total-timeout", "60"]) == 0
    root = tmp_path / "autograder"
    names = unpack_bundle(bundle, root)
    assert {"setup.sh", "run_autograder", "requirements.txt", "config.json",
            "assignment/tests.py", "assignment/hidden_tests.py", "nbcourse/__init__.py"} <= set(names)
    assert not any(n.endswith(".ipynb") for n in names)  # never the solution
    assert "-e ." not in (root / "source" / "requirements.txt").read_text()
    source = EX_BINARY / which if which else student_path(EX_BINARY)
    shutil.copy(source, root / "submission" / "my-work.ipynb")
    (root / "submission" / "numpy.py").write_text("raise SystemExit('never imported')\n")
    if user:
        (root / "submission_metadata.json").write_text(json.dumps(
            {"users": [{"email": user, "name": "A Student", "sid": None}]}))
    env = {**os.environ, "NBCOURSE_AUTOGRADER_ROOT": str(root),
           "NBCOURSE_AUTOGRADER_PYTHON": sys.executable}
    proc = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=300, cwd=root / "submission")
    assert proc.returncode == 0, proc.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == pytest.approx(expected)
    assert sum(t["max_score"] for t in results["tests"]) == pytest.approx(12.0)
    if user:
        assert f"numbers checked for {user!r} (from the Gradescope submission)" in \
            results["output"]
        assert ("flagged" in results["output"]) is (user != "example-student")
    assert {t["visibility"] for t in results["tests"]} == {"visible", "after_published"}


def test_gradescope_run_without_a_notebook_still_writes_results(tmp_path):
    bundle = tmp_path / "bundle.zip"
    from nbcourse.grading.gradescope import build_bundle, run

    build_bundle(EX_Q_MINUS_J, bundle)
    root = tmp_path / "autograder"
    unpack_bundle(bundle, root)
    sys.path.insert(0, str(root / "source"))
    try:
        assert run(root) == 0
    finally:
        sys.path.remove(str(root / "source"))
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0 and "no .ipynb" in results["output"]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "symlink-to-solution"])
@pytest.mark.sandbox
def test_gradescope_always_writes_results(kind, tmp_path):
    """A FIFO, a device or a symbolic link as the submission: results.json all the same,
    with the interpreter given as a path relative to the current folder."""
    bundle = tmp_path / "bundle.zip"
    from nbcourse.grading.gradescope import build_bundle

    build_bundle(EX_BINARY, bundle, LIMITS_FOR_BUNDLE)
    root = tmp_path / "autograder"
    unpack_bundle(bundle, root)
    target = root / "submission" / "work.ipynb"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    else:
        target.symlink_to(EX_BINARY / "solution.ipynb")
    env = {**os.environ, "NBCOURSE_AUTOGRADER_ROOT": os.path.relpath(root, tmp_path),
           "NBCOURSE_AUTOGRADER_PYTHON": os.path.relpath(sys.executable, tmp_path)}
    proc = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0
    assert "regular file" in results["output"] or "symbolic link" in results["output"]


LIMITS_FOR_BUNDLE = Limits(**HONEST_LIMITS)


# --- what students receive ---------------------------------------------------------------


def test_an_assignment_named_like_the_solution_gives_students_nothing(tmp_path):
    """A folder ``solution`` would hand students ``solution.ipynb``: it is refused."""
    from nbcourse.grading.assignment import student_files

    with pytest.raises(ValueError, match="its student notebook would be solution.ipynb"):
        student_files(tmp_path / "solution")


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_student_files_are_the_notebook_and_public_tests_only(folder, tmp_path):
    from nbcourse.grading.assignment import instructor_files, student_files

    files = student_files(folder)
    assert [f.name for f in files] == [f"{folder.name}.ipynb", "tests.py"]
    assert all(f.is_file() for f in files)
    assert {f.name for f in instructor_files(folder)} == {"solution.ipynb", "hidden_tests.py",
                                                          "rubric.yml"}
    # the student tree alone: check() works, and it holds no hidden test at all
    tree = tmp_path / folder.name
    tree.mkdir()
    for f in files:
        shutil.copy(f, tree / f.name)
    public = load_assignment(tree, hidden=False)
    assert not any(t.hidden for q in public.questions for t in q.tests)
    with pytest.raises(ValueError, match=r"^hidden must be False or None for an assignment "
                                         r"without hidden_tests.py, got True \(.*hidden_tests.py "
                                         r"does not exist\)$"):
        load_assignment(tree, hidden=True)
    full = load_assignment(folder, hidden=True)
    n_hidden = sum(t.hidden for q in full.questions for t in q.tests)
    assert n_hidden >= 5
    assert sum(len(q.tests) for q in full.questions) == \
        sum(len(q.tests) for q in public.questions) + n_hidden


EX07 = ROOT / "exercises" / "07-smoothing"


def test_personal_seed_of_the_notebook_is_the_graders():
    """The student notebook draws its numbers with the same seed the grader computes."""
    from nbcourse.grading import personal_seed

    source = next(c for c in code_cells(student_path(EX07)) if "def personal_seed" in c)
    namespace = {}
    exec(source.split("\n\nif ")[0], namespace)  # the function, without drawing the counts
    for sid in ("ada", "bob", "s1234567", "Zoë Ng", "x" * 100):
        assert namespace["personal_seed"](sid, "q6") == personal_seed(sid, "07-smoothing", "q6")
    assert len({personal_seed(s, "07-smoothing", "q6") for s in ("ada", "bob", "eve")}) == 3
    assert personal_seed("ada", "07-smoothing", "q6") != personal_seed("ada", "07-smoothing", "q5")


@pytest.mark.parametrize("value, message", [
    (None, "STUDENT_ID must be your identifier as a string, got NoneType"),
    ("", "STUDENT_ID must be your identifier as a non-empty string, got ''"),
    ("a\nb", "STUDENT_ID must be your identifier, at most 100 printable characters, got 'a\\nb'"),
    ("x" * 101, "STUDENT_ID must be your identifier, at most 100 printable characters, got "
                "'" + "x" * 40 + "...'"),
])
def test_a_student_id_that_cannot_seed_is_named(value, message):
    from nbcourse.grading import student_id_is_set

    verdict = student_id_is_set({"ok": True, "value": value})
    assert not verdict.passed and verdict.message == message
    assert student_id_is_set({"ok": True, "value": "ada"}).message == (
        "your numbers are those of STUDENT_ID 'ada' (unverified: when graded, they are checked "
        "for your identifier on the course roster)")


@pytest.mark.sandbox
def test_a_copied_personal_answer_fails_and_the_own_answer_passes(tmp_path):
    """Bob copies Ada's numbers: the public tests pass, the grader's personal test does not."""
    from nbcourse.grading import personal_seed
    from nbcourse.smoothing import lidstone

    solution = code_cells(EX07 / "solution.ipynb")
    counts = np.random.default_rng(personal_seed("ada", "07-smoothing", "q6")).integers(
        0, 8, size=(2, 5))
    ada_theta = ((counts + 0.5) / (counts.sum(axis=1, keepdims=True) + 2.5)).tolist()
    assert np.allclose(ada_theta, lidstone(counts, 0.5))  # the hand formula, as a cross-check
    own = grade(EX07, notebook(with_student_id(solution, "bob"), tmp_path / "bob.ipynb"),
                tmp_path)
    assert own.scores["q6"] == 2.0
    copied = grade(EX07, notebook(with_student_id(solution, "bob", ada_theta),
                                  tmp_path / "copied.ipynb"), tmp_path)
    verdicts = {f["test"]: f["passed"] for f in copied.feedback["q6"]}
    assert verdicts == {"STUDENT_ID": True, "my_theta: shape and rows": True,
                        "your own estimates": False}
    assert copied.scores["q6"] == 0.5  # the two form checks, a quarter of the question each
    # without a roster the notebook's claim is the (unverified, flagged) identity; with one it
    # is not: tests/test_grading_identity.py
    claimed = grade(EX07, notebook(with_student_id(solution, "ada", ada_theta),
                                   tmp_path / "claimed.ipynb"), tmp_path)
    assert claimed.scores["q6"] == 2.0
    assert any("STUDENT_ID 'ada'" in f["message"] for f in claimed.feedback["q6"]), \
        "the results name the identifier the answer was computed for"


def _expected_of(check):
    """The expected value a close()/equal() check holds (None for other checks)."""
    cells = dict(zip(check.__code__.co_freevars, check.__closure__ or (), strict=True))
    if "want" in cells:  # close(): want() evaluates the expected value lazily
        return cells["want"].cell_contents()
    if "expected" in cells:
        if "assignment" in cells:  # personal(): one expected value per student, none fixed
            return None
        value = cells["expected"].cell_contents
        return value() if callable(value) else value
    return None


def _numbers(value):
    if isinstance(value, list | tuple):
        for v in value:
            yield from _numbers(v)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield float(value)


@pytest.mark.parametrize("folder", ASSIGNMENTS, ids=lambda p: p.name)
def test_no_hidden_expected_value_or_input_is_in_the_student_files(folder):
    """Every hidden test's expected values (as the student files could spell them) and its
    inputs appear in no student-visible file, while the instructor files do hold them."""
    from nbcourse.grading.assignment import student_files

    student_text = "".join(f.read_text(encoding="utf-8") for f in student_files(folder))
    full = load_assignment(folder, hidden=True)
    public_probes = {json.dumps(p.as_tuple()) for q in full.questions for t in q.tests
                     if not t.hidden for p in t.probes}
    public_names = {t.name for q in full.questions for t in q.tests if not t.hidden}
    checked = 0
    for question in full.questions:
        for test in (t for t in question.tests if t.hidden):
            if test.name not in public_names:
                assert f'"{test.name}"' not in student_text, test.name
            for probe in test.probes:
                text = json.dumps(probe.as_tuple())
                if text in public_probes:
                    continue  # the same call as a public test: nothing new is revealed
                args = json.dumps(list(getattr(probe, "args", ())))[1:-1]
                if len(args) > 12:
                    assert args not in student_text, (test.name, args)
            expected = _expected_of(test.check)
            for number in _numbers(expected):
                if len(repr(number)) < 7:
                    continue  # 0, 1, 0.25 ... appear everywhere; the probes above cover them
                for spelling in (repr(number), f"{number:.6f}", f"{number:.5g}"):
                    assert len(spelling) < 6 or spelling not in student_text, (test.name, spelling)
                checked += 1
    assert checked >= 3  # the test saw real hidden values


# --- untrusted text on the trusted side --------------------------------------------------


def test_reply_text_is_parsed_only_within_its_size_limit():
    from nbcourse.grading.grader import parse_str_repr

    for text in ['N[{"ok":true,"value":"it\'s"}]N', 'a"b', "a'b\"c\\d", "", "x" * 1000]:
        assert parse_str_repr(repr(text)) == text
    assert parse_str_repr(repr("x" * 101), limit=100) is None
    assert parse_str_repr("'" + "x" * 10_000_000 + "'", limit=1000) is None  # refused by size
    for forged in ["'a\\nb'", "'a'b'", "'\\x41'", "\"a\"b\"", "'tail\\'", "'é'", "b'x'", 1, None]:
        assert parse_str_repr(forged) is None


def test_output_names_are_injective_and_stay_inside_the_output_folder(tmp_path):
    from nbcourse.grading.names import output_names

    paths = [tmp_path / p for p in [
        "a/hw.ipynb", "b/hw.ipynb", "hw-2.ipynb", "hw 2.ipynb", "hw%202.ipynb", "hw_2.ipynb",
        "grades.csv", "results.json", "...ipynb", ".hidden.ipynb", "=cmd().ipynb",
        "\x1b[31mred.ipynb", "\u202eevil.ipynb", "a" * 300 + ".ipynb", "a" * 301 + ".ipynb"]]
    names = output_names(paths)
    assert len(set(names)) == len(paths)
    for name in names:
        parts = name.split("/")
        assert all(p and not p.startswith(".") and p not in ("grades.csv", "results.json")
                   and len(p.encode()) <= 200 and p.isprintable() for p in parts)
        assert (tmp_path / "out" / name).resolve().is_relative_to(tmp_path / "out")
    assert names[:3] == ["a/hw.ipynb", "b/hw.ipynb", "hw-2.ipynb"]
    with pytest.raises(ValueError, match=r"^paths must be distinct, got '.*' twice$") as info:
        output_names([paths[0], paths[0]])
    assert repr(os.path.abspath(paths[0])) in str(info.value)


def test_csv_cells_are_never_formulas_and_are_clipped():
    from nbcourse.grading.files import MAX_REASON, csv_cell

    for text in ["=HYPERLINK(\"http://x\")", "+1", "-2+3", "@SUM(A1)", "|cmd", "%x"]:
        assert csv_cell(text) == "'" + text
    for text in ["\t=1", "\r=1", "\n=1"]:  # control characters go first
        assert csv_cell(text)[0] not in "\t\r\n="
    assert csv_cell("alice") == "alice" and csv_cell(2.5) == 2.5
    assert len(csv_cell("x" * 19_000_000)) == MAX_REASON
    assert "\x1b" not in csv_cell("\x1b[2Kforged")


def test_only_regular_files_are_read(tmp_path):
    from nbcourse.grading.files import read_regular_file

    (tmp_path / "ok").write_bytes(b"abc")
    assert read_regular_file(tmp_path / "ok", 10) == b"abc"
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "ok")
    (tmp_path / "zero").symlink_to("/dev/zero")
    for name, reason in [("fifo", "not a regular file"), ("link", "symbolic link"),
                         ("zero", "symbolic link"), ("missing", "cannot read")]:
        with pytest.raises(NotebookError, match=reason):
            read_regular_file(tmp_path / name, 10)
    with pytest.raises(NotebookError, match="too large"):
        read_regular_file(tmp_path / "ok", 2)
    with pytest.raises(NotebookError, match="not a regular file"):
        read_regular_file("/dev/zero", 10)


def test_without_bubblewrap_the_grader_refuses(monkeypatch, tmp_path):
    from nbcourse.grading import sandbox
    from nbcourse.grading.batch import grade_batch

    monkeypatch.setattr(sandbox, "find_bwrap", lambda: None)
    sandbox.isolation.cache_clear()
    try:
        found = sandbox.isolation()
        assert not found.sandbox and "bubblewrap" in found.problems[0]
        for allow in (False, True):  # the sandbox itself is never optional
            with pytest.raises(sandbox.IsolationError, match="sandbox is unavailable"):
                grade_batch(EX_BINARY, [EX_BINARY / "solution.ipynb"], tmp_path / "out", progress=None,
                            allow_per_process_limits=allow)
        assert not (tmp_path / "out").exists()
    finally:
        sandbox.isolation.cache_clear()


def test_gradescope_writes_results_when_it_cannot_isolate(monkeypatch, tmp_path):
    from nbcourse.grading import sandbox
    from nbcourse.grading.gradescope import build_bundle, run

    build_bundle(EX_BINARY, tmp_path / "bundle.zip")
    root = tmp_path / "autograder"
    unpack_bundle(tmp_path / "bundle.zip", root)
    shutil.copy(EX_BINARY / "solution.ipynb", root / "submission" / "work.ipynb")
    monkeypatch.setattr(sandbox, "isolation",
                        lambda: sandbox.Isolation(False, False, ("no user namespaces",)))
    assert run(root) == 1
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0 and "could not isolate" in results["output"]
