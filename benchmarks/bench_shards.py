"""Grading on Dask distributed beside grading on one machine.

``--copies`` copies of the solution of an exercise (an honest, complete submission) are
graded

* on one machine: ``python -m nbcourse grade --workers 2``;
* on Dask distributed: a scheduler and ``--dask-workers`` workers of one thread each, every
  one its own process on 127.0.0.1, started before the clock starts (as a cluster that is
  already running), and ``python -m nbcourse grade --dask ADDRESS`` (shards: the default, 2
  per worker thread, merged at the end).

Each is run ``--runs`` times into a new output folder; the median wall time of the whole
command (Python start-up, grading and, on Dask, the merge) is reported, with every time.
Every run must give every copy full marks.

    .venv/bin/python benchmarks/bench_shards.py [--copies 1000] [--runs 1] [--engines one dask]

Needs ``dask`` and ``distributed`` (requirements-dev.txt). Run it as root for whole-tree
(cgroup) limits; elsewhere it grades with per-process limits.
"""

import argparse
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
    parser.add_argument("--engines", nargs="+", choices=("one", "dask"), default=["one", "dask"],
                        help="what to time: one machine, Dask, or both (default)")
    args = parser.parse_args()
    print(f"{args.copies} copies of the solution of {EXERCISE.name}; {os.cpu_count()} cores; "
          f"uid {os.geteuid()}; median of {args.runs} run{'s' * (args.runs != 1)} each",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp:
        tmp = Path(tmp)
        subs = tmp / "submissions"
        subs.mkdir()
        for i in range(args.copies):
            shutil.copy(EXERCISE / "solution.ipynb", subs / f"student{i:04d}.ipynb")
        address, procs = _cluster(args.dask_workers, tmp) if "dask" in args.engines else ("", [])
        try:
            times = {label: [] for label in args.engines}
            setups = {"one": ["--workers", str(args.workers)], "dask": ["--dask", address]}
            for run in range(args.runs):
                for label in args.engines:
                    seconds, n, full = _grade(tmp / f"{label}{run}", subs, setups[label])
                    if (n, full) != (args.copies, args.copies):
                        raise RuntimeError(f"{label}: {full} of {n} rows with full marks, "
                                           f"expected {args.copies} of {args.copies}")
                    times[label].append(seconds)
                    print(f"  run {run + 1}, {label}: {seconds:.1f} s", flush=True)
        finally:
            _stop(procs)
    for label, text in (("one", f"one machine, grade --workers {args.workers}"),
                        ("dask", f"Dask distributed, {args.dask_workers} workers x 1 thread "
                                 f"on 127.0.0.1, grade --dask")):
        if label not in times:
            continue
        t = times[label]
        print(f"{text}: median {statistics.median(t):.1f} s "
              f"({args.copies / statistics.median(t):.2f} submissions/s); runs: "
              + ", ".join(f"{s:.1f} s" for s in t))


if __name__ == "__main__":
    main()
