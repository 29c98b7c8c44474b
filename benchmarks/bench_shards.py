"""Grading on Dask distributed and on a Slurm job array beside grading on one machine.

``--copies`` copies of the solution of an exercise (an honest, complete submission), with a
roster that lists them all, are graded

* on one machine: ``python -m nbcourse grade --workers 2 --roster ...``;
* on Dask distributed: a scheduler and ``--dask-workers`` workers of one thread each, every
  one its own process on 127.0.0.1, started before the clock starts (as a cluster that is
  already running), and ``python -m nbcourse grade --dask ADDRESS --roster ...`` (shards:
  the default, 2 per worker thread, merged at the end);
* on a one-node Slurm cluster (``slurmctld``, ``slurmd``, ``munged``, started before the
  clock starts, as ``tests/test_grading_paths.py`` starts them): the job array and the merge
  job of exercises/README.md as they stand (16 shards, 2 CPUs and 2 grading workers per
  task), timed from the first ``sbatch`` until the merge job has ended.

Each is run ``--runs`` times into a new output folder; the median wall time of the whole
command (Python start-up, grading and, on Dask, the merge) is reported, with every time.
Every run must give every copy full marks.

    .venv/bin/python benchmarks/bench_shards.py [--copies 1000] [--runs 1] [--engines one dask slurm]

Needs ``dask`` and ``distributed`` (requirements-dev.txt). Run it as root for whole-tree
(cgroup) limits; elsewhere it grades with per-process limits.
"""

import argparse
import contextlib
import csv
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = ROOT / "exercises" / "02-binary-discriminant"


def _env():
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}


def _count(out):
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return len(rows), sum(r["total"] == r["max"] for r in rows)


def _grade(out, subs, extra):
    risk = [] if os.geteuid() == 0 else ["--allow-per-process-limits"]
    command = [sys.executable, "-m", "nbcourse", "grade", "--assignment", str(EXERCISE),
               "--out", str(out), "--quiet", *risk, *extra, str(subs)]
    start = time.perf_counter()
    done = subprocess.run(command, env=_env(), cwd=ROOT, capture_output=True, text=True,
                          check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    full = sum(r["total"] == r["max"] for r in rows)
    return seconds, len(rows), full


def _slurm(shared, env):
    """Run the README's job array and merge job in ``shared``; the seconds until the merge
    job has ended."""
    sys.path.insert(0, str(ROOT / "tests"))
    from clusters import recipe_block, shared_paths, wait_for_job

    work = shared / "submit"
    work.mkdir(exist_ok=True)
    (work / "grade.sbatch").write_text(shared_paths(recipe_block("#SBATCH"), shared))
    start = time.perf_counter()
    done = subprocess.run(["bash", "-euo", "pipefail", "-c",
                           shared_paths(recipe_block("jobid=$(sbatch"), shared)],
                          cwd=work, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"sbatch failed:\n{done.stderr[-3000:]}")
    states = wait_for_job(env, done.stdout.split()[-1], timeout=6 * 3600)
    seconds = time.perf_counter() - start
    if states != {"COMPLETED"}:
        logs = "".join(p.read_text(errors="replace")[-2000:] for p in work.glob("slurm-*"))
        raise RuntimeError(f"the merge job ended {states}:\n{logs}")
    return seconds


def _cluster(workers, folder):
    """A scheduler and ``workers`` one-thread workers, each its own process; (address,
    processes)."""
    from distributed import Client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    procs = []

    def start(args, name):
        log = open(folder / f"{name}.log", "w")
        procs.append(subprocess.Popen([sys.executable, "-m", *args], env=_env(), cwd=folder,
                                      stdout=log, stderr=subprocess.STDOUT))

    start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
           "--no-dashboard", "--preload", "nbcourse.grading.shards"], "scheduler")
    for i in range(workers):
        start(["distributed.cli.dask_worker", address, "--nthreads", "1", "--host",
               "127.0.0.1", "--no-dashboard", "--name", f"w{i}", "--preload",
               "nbcourse.grading.shards", "--local-directory",
               str(folder / f"w{i}")], f"worker{i}")
    with Client(address, timeout=120) as client:
        client.wait_for_workers(workers, timeout=180)
    return address, procs


def _stop(procs):
    for p in procs[::-1]:
        p.terminate()
    for p in procs[::-1]:
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="grade --workers on one machine")
    parser.add_argument("--dask-workers", type=int, default=2)
    parser.add_argument("--engines", nargs="+", choices=("one", "dask", "slurm"),
                        default=["one", "dask", "slurm"],
                        help="what to time: one machine, Dask, Slurm (default: all three)")
    args = parser.parse_args()
    print(f"{args.copies} copies of the solution of {EXERCISE.name}; {os.cpu_count()} cores; "
          f"uid {os.geteuid()}; median of {args.runs} run{'s' * (args.runs != 1)} each",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp, \
            contextlib.ExitStack() as stack:
        tmp = Path(tmp)
        shared = tmp / "shared"  # the layout of the README's recipes
        subs = shared / "submissions" / "02"
        subs.mkdir(parents=True)
        (shared / "rosters").mkdir()
        roster = shared / "rosters" / "02.csv"
        solution = (EXERCISE / "solution.ipynb").read_text(encoding="utf-8")
        assert solution.count("example-student") == 1
        with open(roster, "w", encoding="utf-8") as f:
            f.write("submission,student_id\n")
            for i in range(args.copies):  # each copy is its owner's: full marks
                (subs / f"student{i:04d}.ipynb").write_text(
                    solution.replace("example-student", f"student{i:04d}"), encoding="utf-8")
                f.write(f"student{i:04d}.ipynb,student{i:04d}\n")
        address, procs = _cluster(args.dask_workers, tmp) if "dask" in args.engines else ("", [])
        stack.callback(_stop, procs)
        if "slurm" in args.engines:
            sys.path.insert(0, str(ROOT / "tests"))
            from clusters import slurm_cluster

            slurm_env = stack.enter_context(slurm_cluster(tmp / "slurm"))
        times = {label: [] for label in args.engines}
        setups = {"one": ["--workers", str(args.workers)], "dask": ["--dask", address]}
        for run in range(args.runs):
            for label in args.engines:
                if label == "slurm":
                    if (shared / "grades").exists():
                        shutil.move(shared / "grades", tmp / f"slurm{run - 1}")
                    seconds = _slurm(shared, slurm_env)
                    n, full = _count(shared / "grades" / "02")
                else:
                    seconds, n, full = _grade(tmp / f"{label}{run}", subs,
                                              setups[label] + ["--roster", str(roster)])
                if (n, full) != (args.copies, args.copies):
                    raise RuntimeError(f"{label}: {full} of {n} rows with full marks, "
                                       f"expected {args.copies} of {args.copies}")
                times[label].append(seconds)
                print(f"  run {run + 1}, {label}: {seconds:.1f} s", flush=True)
    for label, text in (("one", f"one machine, grade --workers {args.workers}"),
                        ("dask", f"Dask distributed, {args.dask_workers} workers x 1 thread "
                                 f"on 127.0.0.1, grade --dask"),
                        ("slurm", "one-node Slurm cluster, the README's job array of 16 "
                                  "shards and its merge job")):
        if label not in times:
            continue
        t = times[label]
        ratio = (f"; {statistics.median(t) / statistics.median(times['one']):.2f} x one "
                 f"machine" if "one" in times and label != "one" else "")
        print(f"{text}: median {statistics.median(t):.1f} s "
              f"({args.copies / statistics.median(t):.2f} submissions/s{ratio}); runs: "
              + ", ".join(f"{s:.1f} s" for s in t))


if __name__ == "__main__":
    main()
