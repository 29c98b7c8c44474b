"""Batches into an existing output folder: late submissions, regrades, resuming a batch that
was killed, written scores that survive, one number format, and reasons naming questions."""

import csv
import json
import os
import re
import subprocess
import sys

import pytest
from hostile import (
    EX_BINARY,
    EX_Q_MINUS_J,
    HONEST_LIMITS,
    ROOT,
    code_cells,
    notebook,
    written_answer_notebook,
)

from nbcourse.grading import Limits
from nbcourse.grading.batch import grade_batch
from nbcourse.grading.generate import student_path
from nbcourse.grading.gradebook import OutputFolder
from nbcourse.grading.grader import grade_notebook

pytestmark = pytest.mark.sandbox  # every test here grades in sandboxes

LIMITS = Limits(**HONEST_LIMITS)
NUMBER = re.compile(r"^(0|[1-9]\d*)(\.\d*[1-9])?$")  # 10, 8.5, 0.25: never 10.0 or 1e-05


def _csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _grades(out):
    return {r["submission"].removeprefix("'"): r for r in _csv(out / "grades.csv")}


def _write_scores(rows, path):
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _merge(out, scores):
    from nbcourse.__main__ import main

    assert main(["grade-merge", "--out", str(out), str(scores)]) == 0


def test_a_late_submission_and_a_regrade_keep_every_row_and_written_score(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    ada = written_answer_notebook(subs / "ada.ipynb", "The prior must drop below 0.494.")
    bob = written_answer_notebook(subs / "bob.ipynb", "*Write your answer here.*")
    first = grade_batch(EX_BINARY, [ada, bob], out, workers=2, limits=LIMITS, progress=None)
    assert [r.name for r in first] == ["ada.ipynb", "bob.ipynb"] and not first.replaced

    rows = _csv(out / "written-answers.csv")
    rows[0].update(points="1.5", max_points="2", comment="Right threshold, no reason given.")
    _merge(out, _write_scores(rows, tmp_path / "scores.csv"))  # bob's answer is not scored

    # one late submission, graded alone into the same folder
    carol = written_answer_notebook(subs / "carol.ipynb", "Below one half.")
    lines = []
    late = grade_batch(EX_BINARY, [carol], out, workers=1, limits=LIMITS, progress=lines.append)
    assert [r.name for r in late] == ["carol.ipynb"] and late.replaced == [] == late.kept
    assert len(lines) == 1 and "replaced" not in lines[0]
    grades = _grades(out)
    assert list(grades) == ["ada.ipynb", "bob.ipynb", "carol.ipynb"]
    assert grades["ada.ipynb"]["written_q5"] == "1.5" and grades["ada.ipynb"]["total"] == "1.5"
    # blank or unscored written answers count as 0 of the question's points: one max
    assert {r["max"] for r in grades.values()} == {"14"}
    assert grades["bob.ipynb"]["written_q5"] == grades["carol.ipynb"]["written_q5"] == "0"
    ada_results = json.loads((out / "ada.ipynb" / "results.json").read_text())
    assert [t for t in ada_results["tests"] if t["name"] == "q5 (written answer)"] == [
        {"name": "q5 (written answer)", "score": 1.5, "max_score": 2.0,
         "output": "Right threshold, no reason given.", "visibility": "visible"}]
    carol_results = json.loads((out / "carol.ipynb" / "results.json").read_text())
    written = [t for t in carol_results["tests"] if t["name"] == "q5 (written answer)"]
    assert written[0]["score"] == 0 and written[0]["max_score"] == 2.0
    answers = {r["submission"]: r for r in _csv(out / "written-answers.csv")}
    assert list(answers) == ["ada.ipynb", "bob.ipynb", "carol.ipynb"]
    assert answers["ada.ipynb"]["points"] == "1.5"  # filled-in scores are kept
    assert answers["carol.ipynb"]["answer"] == "Below one half."
    assert "Below one half." in (out / "written-answers.html").read_text(encoding="utf-8")

    # the kept scores file, with the late row scored, merges into the grown folder
    answers["carol.ipynb"].update(points="2")
    _merge(out, _write_scores(list(answers.values()), tmp_path / "scores.csv"))
    assert _grades(out)["carol.ipynb"]["total"] == "2"

    # a regrade replaces its row only, and says so; the others are kept without grading
    written_answer_notebook(subs / "bob.ipynb", "A new answer.")
    lines = []
    again = grade_batch(EX_BINARY, [ada, bob], out, workers=1, limits=LIMITS,
                        progress=lines.append, regrade=True)
    assert again.replaced == ["ada.ipynb", "bob.ipynb"] and again.kept == []
    assert all("replaced the earlier row" in line for line in lines if line.startswith("["))
    kept = grade_batch(EX_BINARY, [ada, bob, carol], out, workers=1, limits=LIMITS, progress=None)
    assert list(kept) == [] and kept.kept == ["ada.ipynb", "bob.ipynb", "carol.ipynb"]
    grades = _grades(out)
    assert list(grades) == ["ada.ipynb", "bob.ipynb", "carol.ipynb"]
    assert [grades[n]["total"] for n in grades] == ["1.5", "0", "2"]
    answers = {r["submission"]: r for r in _csv(out / "written-answers.csv")}
    assert answers["bob.ipynb"]["answer"] == "A new answer."
    assert answers["ada.ipynb"]["comment"] == "Right threshold, no reason given."
    ada_results = json.loads((out / "ada.ipynb" / "results.json").read_text())
    assert ada_results["score"] == 1.5
    for row in grades.values():  # one number format
        for column, value in row.items():
            if column not in ("submission", "status", "reason", "student_id", "id_source",
                              "id_check", "claimed_id"):
                assert NUMBER.match(value), (column, value)


_KILLED_BATCH = """
import os, sys
from nbcourse.grading import Limits, gradebook
from nbcourse.grading.batch import grade_batch

if os.environ.get("REWRITE_EVERY"):  # how long grades.csv may go without a rewrite
    gradebook.Flushes.__init__.__defaults__ = (float(os.environ["REWRITE_EVERY"]), 20, None)

def progress(line):
    print(line, flush=True)
    if line.startswith("["):  # the first submission is done: die like kill -9 or the OOM killer
        os.kill(os.getpid(), 9)

grade_batch(sys.argv[1], sys.argv[3:], sys.argv[2], workers=1, progress=progress,
            limits=Limits(cell_timeout=120, total_timeout=600, probe_timeout=60,
                          memory_mb=1536, max_procs=48))
"""


@pytest.mark.parametrize("rewrite_every", [0.0, 1e9], ids=["rewritten", "not-rewritten"])
def test_a_batch_killed_midway_resumes_without_regrading_what_was_done(tmp_path, rewrite_every):
    subs = [written_answer_notebook(tmp_path / "subs" / f"s{i}.ipynb", f"answer {i}") for i in range(3)]
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-c", _KILLED_BATCH, str(EX_BINARY), str(out),
                           *map(str, subs)], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**os.environ, "REWRITE_EVERY": str(rewrite_every)})
    assert proc.returncode == -9, proc.stderr
    done = sorted(p.parent.name for p in out.glob("*/results.json"))
    assert done == ["s0.ipynb"]
    # killed before grades.csv was rewritten, its row is still on record
    if rewrite_every == 0.0:
        assert list(_grades(out)) == ["s0.ipynb"]
    else:
        assert not (out / "grades.csv").exists()
    assert list(OutputFolder(out).read_rows(None)) == ["s0.ipynb"]
    before = os.stat(out / "s0.ipynb" / "results.json")

    lines = []
    resumed = grade_batch(EX_BINARY, subs, out, workers=2, limits=LIMITS, progress=lines.append)
    assert resumed.kept == ["s0.ipynb"]
    assert [r.name for r in resumed] == ["s1.ipynb", "s2.ipynb"]
    assert lines[0].startswith("kept 1 submission already graded") and len(lines) == 3
    after = os.stat(out / "s0.ipynb" / "results.json")
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert list(_grades(out)) == ["s0.ipynb", "s1.ipynb", "s2.ipynb"]
    answers = [(r["submission"], r["answer"]) for r in _csv(out / "written-answers.csv")]
    assert answers == [(f"s{i}.ipynb", f"answer {i}") for i in range(3)]
    assert not list(out.rglob("*.tmp"))


def test_a_regrade_stopped_halfway_is_resumed_not_taken_as_done(tmp_path):
    out = tmp_path / "out"
    paths = [tmp_path / "subs" / n for n in ("a.ipynb", "b.ipynb")]
    for p in paths:
        p.parent.mkdir(exist_ok=True)
        p.write_bytes(b"not a notebook")  # invalid: graded without a kernel
    grade_batch(EX_BINARY, paths, out, progress=None)
    # what a regrade leaves when it is killed before b finished: b's results.json removed
    (out / "b.ipynb" / "results.json").unlink()
    resumed = grade_batch(EX_BINARY, paths, out, progress=None)
    assert resumed.kept == ["a.ipynb"] and resumed.replaced == ["b.ipynb"]


def test_names_stay_those_of_the_first_batch_for_a_single_late_file(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    for who in ("alice", "bob"):
        (subs / who).mkdir(parents=True)
        (subs / who / "hw.ipynb").write_bytes(b"{}")
    grade_batch(EX_BINARY, sorted(subs.glob("*/hw.ipynb")), out, progress=None)
    late = grade_batch(EX_BINARY, [subs / "bob" / "hw.ipynb"], out, progress=None, regrade=True)
    assert late.replaced == ["bob/hw.ipynb"]
    assert list(_grades(out)) == ["alice/hw.ipynb", "bob/hw.ipynb"]
    (tmp_path / "late" / "carol").mkdir(parents=True)
    (tmp_path / "late" / "carol" / "hw.ipynb").write_bytes(b"{}")
    grade_batch(EX_BINARY, [tmp_path / "late" / "carol" / "hw.ipynb"], out, progress=None,
                base=tmp_path / "late")
    assert list(_grades(out)) == ["alice/hw.ipynb", "bob/hw.ipynb", "carol/hw.ipynb"]
    with pytest.raises(ValueError, match=r"^base must be a folder that holds every submission"):
        grade_batch(EX_BINARY, [subs / "bob" / "hw.ipynb"], out, progress=None, base=tmp_path / "late")


def test_another_assignment_or_a_busy_folder_is_refused(tmp_path):
    from nbcourse.grading.gradebook import OutputBusy, OutputFolder

    path = tmp_path / "a.ipynb"
    path.write_bytes(b"{}")
    out = tmp_path / "out"
    grade_batch(EX_BINARY, [path], out, progress=None)
    with pytest.raises(ValueError, match=r"^out must be a folder of grades of this assignment"):
        grade_batch(EX_Q_MINUS_J, [path], out, progress=None)
    with OutputFolder(out).lock(), pytest.raises(OutputBusy, match="another grading batch"):
        grade_batch(EX_BINARY, [path], out, progress=None, regrade=True)
    with pytest.raises(ValueError, match=r"^workers must be an integer >= 1, got 0$"):
        grade_batch(EX_BINARY, [path], out, progress=None, workers=0)


def test_merge_scores_one_max_per_question_and_names_disagreement(tmp_path, capsys):
    from nbcourse.__main__ import main

    out = tmp_path / "out"
    paths = [tmp_path / n for n in ("a.ipynb", "b.ipynb", "c.ipynb")]
    for p in paths:
        p.write_bytes(b"{}")
    grade_batch(EX_BINARY, paths, out, progress=None)
    scores = tmp_path / "scores.csv"
    scores.write_text("submission,question,points,max_points\na.ipynb,q5,1,2\n"
                      "b.ipynb,q5,1,3\n", encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 2
    assert "max_points of q5 must be the same in every row, got 2, 3 (rows 2, 3)" in \
        capsys.readouterr().err
    scores.write_text("submission,question,points\na.ipynb,q9,1\n", encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 2
    assert "scores must name written questions of written-answers.csv (['q5']), got ['q9']" \
        in capsys.readouterr().err
    assert "written_q5" not in (out / "grades.csv").read_text()  # nothing changed
    scores.write_text("submission,question,points\na.ipynb,q5,0.5\n", encoding="utf-8")
    assert main(["grade-merge", "--out", str(out), str(scores), "--max-points", "1"]) == 0
    grades = _grades(out)
    assert [(g["written_q5"], g["written_max"], g["total"], g["max"]) for g in grades.values()] \
        == [("0.5", "1", "0.5", "13"), ("0", "1", "0", "13"), ("0", "1", "0", "13")]


def test_a_timeout_reason_names_the_question_of_the_cell(tmp_path):
    cells = code_cells(student_path(EX_BINARY))
    cells.append("def log_odds_weights(p, q):\n    return p\nwhile True:\n    pass\n")
    cells.append("while True:\n    pass\n")
    path = notebook(cells, tmp_path / "slow.ipynb")
    result = grade_notebook(EX_BINARY, path, Limits(cell_timeout=2, total_timeout=60,
                                               probe_timeout=3, memory_mb=1536, max_procs=48))
    n = len(cells)
    assert f"cell {n - 1} timed out (q1)" in result.reason
    assert f"cell {n} timed out (no graded answer)" in result.reason
