"""A batch split into shards (``grade --shard K/N``), merged (``grade-merge-shards``) and run
on Dask distributed: the merged gradebook equals the one of a single run on one machine."""

import csv
import hashlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys

import nbformat
import pytest
from grading_helpers import gradebook_snapshot
from hostile import (
    EX_BINARY,
    EX_Q_MINUS_J,
    HONEST_LIMITS,
    ROOT,
    code_cells,
    notebook,
    written_answer_notebook,
)

from nbcourse.__main__ import main
from nbcourse.grading import Limits
from nbcourse.grading.batch import grade_batch
from nbcourse.grading.generate import student_path
from nbcourse.grading.shards import (
    grade_on_dask,
    grade_shard,
    merge_shards,
    parse_shard,
    shard_of,
    shard_plan,
)

LIMITS = Limits(**HONEST_LIMITS)
NAMES = ["ada.ipynb", "bob.ipynb", "broken.ipynb", "raises.ipynb", "a/hw.ipynb",
         "b/hw.ipynb"]


def _batch(folder):
    """Six submissions: a written answer, the untouched template, a notebook that is not
    JSON, one whose code raises (partial marks), and two in per-student folders with the same file name."""
    folder.mkdir(parents=True)
    solution = code_cells(EX_BINARY / "solution.ipynb")
    written_answer_notebook(folder / "ada.ipynb", "=1+1 is not an answer; the prior must drop below 0.494.")
    nbformat.write(nbformat.read(student_path(EX_BINARY), as_version=4), folder / "bob.ipynb")
    (folder / "broken.ipynb").write_text('{"cells": [', encoding="utf-8")
    notebook(solution[:3] + ["def bias(p, q, prior1):\n    raise RuntimeError('no')"]
             + solution[4:], folder / "raises.ipynb")
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    shutil.copy(EX_BINARY / "solution.ipynb", folder / "a" / "hw.ipynb")
    written_answer_notebook(folder / "b" / "hw.ipynb", "Below one half.")
    return [folder / n for n in NAMES]


@pytest.fixture(scope="module")
def single_run(tmp_path_factory):
    """One run on one machine over the batch: (submissions, output folder)."""
    tmp = tmp_path_factory.mktemp("single")
    subs = _batch(tmp / "subs")
    results = grade_batch(EX_BINARY, subs, tmp / "out", workers=2, limits=LIMITS, progress=None)
    statuses = {r.name: r.status for r in results}
    assert statuses["broken.ipynb"] == "invalid" and statuses["ada.ipynb"] == "graded"
    assert len({r.total for r in results}) >= 3  # the batch has different totals
    return subs, tmp / "out"


@pytest.fixture(scope="module")
def single(single_run):
    """(submissions, snapshot of the output of one run)."""
    subs, out = single_run
    return subs, gradebook_snapshot(out)


def _score_written(out, tmp_path):
    """Score the written answer of two submissions with grade-merge."""
    with open(out / "written-answers.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    rows[0].update(points="1.5", max_points="2", comment="Right threshold.")
    rows[-1].update(points="0.5", comment="=no reason")
    scores = tmp_path / "scores.csv"
    with open(scores, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert main(["grade-merge", "--out", str(out), str(scores)]) == 0


# --- the rule --------------------------------------------------------------------------


def test_shard_rule_is_stable_total_and_independent_of_order_and_machine(tmp_path):
    names = NAMES + [f"student{i:03d}.ipynb" for i in range(200)] + ["café.ipynb", "é/x.ipynb"]
    for count in (1, 2, 3, 7, 16):
        # the documented rule: the first 8 bytes of sha256(name), big-endian, mod N
        expected = {n: int.from_bytes(hashlib.sha256(n.encode()).digest()[:8], "big") % count
                    for n in names}
        assert {n: shard_of(n, count) for n in names} == expected
        sizes = [list(expected.values()).count(k) for k in range(count)]
        assert sum(sizes) == len(names) and (count > len(names) // 10 or min(sizes) > 0)
    # the same files in another order, and mounted at another path, split the same way
    here, there = tmp_path / "here" / "subs", tmp_path / "there" / "mnt" / "x"
    for root in (here, there):
        for n in names:
            (root / n).parent.mkdir(parents=True, exist_ok=True)
            (root / n).write_text("{}")
    shuffled = names[:]
    random.Random(3).shuffle(shuffled)
    plans = []
    for root, order in ((here, names), (there, shuffled)):
        _, got, shards = shard_plan([root / n for n in order], 5)
        plans.append({got[i]: k for k, members in enumerate(shards) for i in members})
        assert sorted(i for members in shards for i in members) == list(range(len(names)))
    assert plans[0] == plans[1] == {n: shard_of(n, 5) for n in names}
    # another process with another hash seed agrees (the rule is not Python's hash())
    code = ("import json, sys; from nbcourse.grading.shards import shard_of; "
            "print(json.dumps([shard_of(n, 7) for n in json.loads(sys.argv[1])]))")
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    other = subprocess.run([sys.executable, "-c", code, json.dumps(names)], env=env,
                           capture_output=True, text=True, check=True).stdout
    assert json.loads(other) == [shard_of(n, 7) for n in names]


# --- merge equals one run ----------------------------------------------------------------


@pytest.mark.sandbox
def test_merged_shards_equal_one_run_also_with_a_resumed_shard(single, single_run, tmp_path):
    subs, expected = single
    # the shards see the same files in another order
    order = [subs[i] for i in (5, 3, 1, 0, 4, 2)]
    _, names, members = shard_plan(order, 3)
    assert all(members), "every shard of this batch holds a submission"
    folders = [tmp_path / f"shard{k}" for k in range(3)]
    for k in (2, 0, 1):
        grade_shard(EX_BINARY, subs, folders[k], k, 3, workers=1, limits=LIMITS, progress=None)
    # shard 1 stopped before it finished a submission: the merge refuses, resuming helps
    victim = names[members[1][0]]
    (folders[1] / victim / "results.json").unlink()
    with pytest.raises(ValueError, match=r"shards: shard 1/3 .* has not finished.*resume"):
        merge_shards(tmp_path / "early", folders)
    again = grade_shard(EX_BINARY, subs, folders[1], 1, 3, workers=1, limits=LIMITS, progress=None)
    assert [r.name for r in again] == [victim] and len(again.kept) == len(members[1]) - 1
    assert merge_shards(tmp_path / "merged", folders[::-1]) == len(NAMES)
    assert gradebook_snapshot(tmp_path / "merged") == expected
    # the merged folder is an ordinary gradebook: the command line merges the same way,
    # and merging again into it is allowed
    assert main(["grade-merge-shards", "--quiet", "--out", str(tmp_path / "cli"),
                 *map(str, folders)]) == 0
    assert gradebook_snapshot(tmp_path / "cli") == expected
    # written scores merged into the merged folder and into a copy of the single run agree,
    # and survive merging the shards again
    copy = tmp_path / "single-copy"
    shutil.copytree(single_run[1], copy)
    for out in (copy, tmp_path / "cli"):
        _score_written(out, tmp_path)
    scored = gradebook_snapshot(copy)
    assert scored != expected and "written_q5" in scored["grades.csv"][0]
    assert gradebook_snapshot(tmp_path / "cli") == scored
    assert merge_shards(tmp_path / "cli", folders) == len(NAMES)
    assert gradebook_snapshot(tmp_path / "cli") == scored


@pytest.mark.sandbox
def test_grade_with_shard_on_the_command_line(single, tmp_path, capsys):
    subs, expected = single
    folders = [tmp_path / f"s{k}" for k in range(2)]
    for k in range(2):
        assert main(["grade", "--assignment", str(EX_BINARY), "--out", str(folders[k]), "--quiet",
                     "--shard", f"{k}/2", "--workers", "1", "--total-timeout", "600",
                     "--cell-timeout", "120", "--probe-timeout", "60", "--memory-mb", "1536",
                     "--max-procs", "48", str(subs[0].parent)]) == 0
    assert "shard 1/2:" in capsys.readouterr().out
    assert main(["grade-merge-shards", "--out", str(tmp_path / "out"), *map(str, folders)]) == 0
    assert gradebook_snapshot(tmp_path / "out") == expected


# --- Dask distributed, scheduler and workers in their own processes -------------------------


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def dask_cluster(tmp_path):
    """A scheduler and two workers (one thread each), each its own process on 127.0.0.1."""
    from distributed import Client

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    address = f"tcp://127.0.0.1:{_free_port()}"
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    procs = []

    def start(name, args):
        log = open(logs / f"{name}.log", "w")
        procs.append(subprocess.Popen([sys.executable, "-m", *args], env=env, cwd=tmp_path,
                                      stdout=log, stderr=subprocess.STDOUT))

    start("scheduler", ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                        address.rsplit(":", 1)[1], "--no-dashboard", "--preload",
                        "nbcourse.grading.shards"])
    for i in range(2):
        start(f"worker{i}", ["distributed.cli.dask_worker", address, "--nthreads", "1",
                             "--host", "127.0.0.1", "--no-dashboard", "--name", f"w{i}",
                             "--preload", "nbcourse.grading.shards",
                             "--local-directory", str(tmp_path / f"w{i}")])
    try:
        with Client(address, timeout=120) as client:
            client.wait_for_workers(2, timeout=180)
            pids = client.run(os.getpid)
            assert len(pids) == 2 and os.getpid() not in pids.values()
            assert set(pids.values()).isdisjoint({p.pid for p in procs[:1]})
        yield address
    except BaseException:
        for path in sorted(logs.iterdir()):
            print(path.name, path.read_text()[-3000:])
        raise
    finally:
        for p in procs[::-1]:
            p.terminate()
        for p in procs[::-1]:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@pytest.mark.sandbox
def test_dask_run_equals_one_run(single, dask_cluster, tmp_path):
    subs, expected = single
    from distributed import Client

    lines = []
    with Client(dask_cluster) as client:
        assert grade_on_dask(client, EX_BINARY, subs, tmp_path / "out", shards=4, limits=LIMITS,
                             progress=lines.append) == len(NAMES)
    assert gradebook_snapshot(tmp_path / "out") == expected
    assert len(lines) == 5 and lines[-1].startswith("merged 4 shards (6 submissions)")
    # the shards ran on both workers (processes of their own, started above)
    assert {w for w in ("w0", "w1") if any(f" on {w} (" in line for line in lines)} == {
        "w0", "w1"}
    # the shard folders are ordinary resumable shards: running again grades nothing anew
    again = []
    grade_on_dask(dask_cluster, EX_BINARY, subs, tmp_path / "out", shards=4, limits=LIMITS,
                  progress=again.append)
    assert len(again) == 5 and all(": 0 graded," in line for line in again[:-1])
    assert gradebook_snapshot(tmp_path / "out") == expected


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["3/2", "0/0", "2/2", "-1/2", "1", "a/b", "1/2/3"])
def test_a_bad_shard_spec_is_refused_naming_the_argument(spec, tmp_path, capsys):
    with pytest.raises(ValueError, match=r"argument --shard: expected K/N"):
        parse_shard(spec)
    (tmp_path / "x.ipynb").write_text("{}")
    with pytest.raises(SystemExit) as stop:
        main(["grade", "--assignment", str(EX_BINARY), "--out", str(tmp_path / "out"),
              f"--shard={spec}", str(tmp_path / "x.ipynb")])
    assert stop.value.code == 2
    assert "argument --shard: expected K/N" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def _broken(folder, names):
    folder.mkdir(parents=True, exist_ok=True)
    for n in names:
        (folder / n).write_text('{"cells": [', encoding="utf-8")
    return [folder / n for n in names]


@pytest.mark.sandbox
def test_merging_overlapping_foreign_or_missing_shards_is_refused(tmp_path, capsys):
    subs = _broken(tmp_path / "subs", [f"s{i}.ipynb" for i in range(8)])
    opts = dict(workers=1, limits=LIMITS, progress=None)
    s0, s1 = tmp_path / "s0", tmp_path / "s1"
    grade_shard(EX_BINARY, subs, s0, 0, 2, **opts)
    grade_shard(EX_BINARY, subs, s1, 1, 2, **opts)
    assert merge_shards(tmp_path / "ok", [s0, s1]) == 8
    with pytest.raises(ValueError, match=r"^shards: overlapping shard outputs: .* both hold "
                                         r"shard 0/2"):
        merge_shards(tmp_path / "o1", [s0, s1, s0])
    with pytest.raises(ValueError, match=r"^shards: expected all 2 shards .* missing shard 1/2"):
        merge_shards(tmp_path / "o2", [s0])
    # shard 1 of another assignment over the same files
    other = tmp_path / "other"
    grade_shard(EX_Q_MINUS_J, subs, other, 1, 2, **opts)
    with pytest.raises(ValueError, match=r"^shards: expected shards of one assignment, got "
                                         r"'02-binary-discriminant' .* '05-q-minus-j'"):
        merge_shards(tmp_path / "o3", [s0, other])
    # shard 1 of another batch (one submission more), and of another number of shards
    more = subs + _broken(tmp_path / "subs", ["late.ipynb"])
    grade_shard(EX_BINARY, more, tmp_path / "m1", 1, 2, **opts)
    grade_shard(EX_BINARY, subs, tmp_path / "t1", 1, 3, **opts)
    for foreign in ("m1", "t1"):
        with pytest.raises(ValueError, match=r"^shards: expected shards of one batch"):
            merge_shards(tmp_path / "o4", [s0, tmp_path / foreign])
    # a folder that is no shard, a shard folder reused for another shard, an occupied --out
    with pytest.raises(ValueError, match=r"^shards: expected output folders of 'grade --shard"):
        merge_shards(tmp_path / "o5", [s0, tmp_path / "subs"])
    with pytest.raises(ValueError, match=r"^out must be a new folder or one of this very shard"):
        grade_shard(EX_BINARY, subs, s0, 1, 2, **opts)
    grade_batch(EX_BINARY, subs, tmp_path / "plain", **opts)
    with pytest.raises(ValueError, match=r"^out must be a new folder or the output of an "
                                         r"earlier merge"):
        merge_shards(tmp_path / "plain", [s0, s1])
    # the command line names the argument and exits with 2
    assert main(["grade-merge-shards", "--out", str(tmp_path / "o6"), str(s0), str(s0),
                 str(s1)]) == 2
    assert "nbcourse grade-merge-shards: shards: overlapping" in capsys.readouterr().err
    for bad in (["--shards", "2"], ["--shard", "0/2", "--dask", "tcp://127.0.0.1:1"]):
        with pytest.raises(SystemExit):
            main(["grade", "--assignment", str(EX_BINARY), "--out", str(tmp_path / "o7"), *bad,
                  str(subs[0])])
        assert "argument --shard" in capsys.readouterr().err
