"""Grading throughput, sandbox start cost and the grader's peak memory on a hostile batch.

In one run, for the bubblewrap sandbox of this tree and, for comparison, the grader of an
earlier commit (a preloaded zygote that forks kernels and hides files with its own mount
code; ``--baseline``, default the commit before the sandbox changed):

* submissions per second per core: ``--copies`` copies of the solution (a complete, typical
  submission with its check cells), ``--workers`` worker processes (goal: at least 1);
* the cost of starting one sandboxed kernel and stopping it (median of ``--starts``);
* in the same run, a bare ``jupyter nbconvert --execute`` of the same copies (``--workers``
  processes, each executing its share one after another, no sandbox, no checks), and the
  grader's cost per submission per core as a ratio to it: a figure that moves far less
  with the machine than an absolute rate (``--no-bare`` leaves it out);
* the same figures for ``--before``, the sandbox before least privilege;
* the bookkeeping of a large batch: ``--bookkeeping`` submissions that are not notebooks
  (each graded at once, without a kernel, so what is timed is writing ``grades.csv``, the
  written answers and ``results.json``), against the grader of ``--bookkeeping-baseline``
  (default: the last commit that rewrote ``grades.csv`` after every submission);

and for this tree only, the peak resident memory of the grading side on a batch of hostile
submissions (forged huge replies, 2.4 GB of messages sent to the grader, a line that makes a
backtracking pattern take cubic time, a 19 MB string in the notebook, memory split over
processes, FIFOs, symbolic links, scratch filling, an exception with a 50 MB message, 19 MB
of empty lists that would take some 500 MB parsed whole): the
batch process, each worker and each link process (which holds one kernel's connection), and
the sum of them all, sampled while the batch runs, and the processor time of the batch
process and its workers.

    .venv/bin/python benchmarks/bench_grading.py [--copies 40] [--workers 2] [--starts 10]

Run it as root for whole-tree (cgroup) limits; elsewhere it grades with per-process limits.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = "exercises/02-binary-discriminant"
BASELINE = "8c0c03b"  # the grader with its own zygote and mount code
BOOKKEEPING_BASELINE = "cbc4ec5"  # grades.csv and written answers rewritten per submission
BEFORE = "6f8384c"  # the bubblewrap sandbox before least privilege (a seccomp filter, a host
# uid of its own, a cgroup in every hierarchy, the bounded notebook parse)

BOOKKEEPING = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from nbcourse.grading.batch import grade_batch
    assignment, tmp, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    subs = tmp / "submissions"
    subs.mkdir()
    for i in range(n):
        (subs / f"s{i:05d}.ipynb").write_bytes(b"not a notebook")
    start = time.perf_counter()
    results = grade_batch(assignment, sorted(subs.iterdir()), tmp / "out", workers=2,
                          progress=None, allow_per_process_limits=True)
    seconds = time.perf_counter() - start
    rows = (tmp / "out" / "grades.csv").read_text(encoding="utf-8").count("\\n") - 1
    print(json.dumps({"seconds": seconds, "n": len(results), "rows": rows}))
""")

THROUGHPUT = textwrap.dedent("""
    import json, os, shutil, sys, time
    from pathlib import Path
    from nbcourse.grading.batch import grade_batch
    assignment, tmp, copies, workers = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    subs = tmp / "submissions"
    subs.mkdir()
    for i in range(copies):
        shutil.copy(assignment / "solution.ipynb", subs / f"student{i:03d}.ipynb")
    kwargs = {"allow_per_process_limits": True} if "new" in sys.argv[5:] else {}
    start = time.perf_counter()
    results = grade_batch(assignment, sorted(subs.glob("*.ipynb")), tmp / "out",
                          workers=workers, progress=None, **kwargs)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "n": len(results),
                      "full": sum(r.total == r.max_score for r in results),
                      "median": sorted(r.seconds for r in results)[len(results) // 2]}))
""")

START_NEW = textwrap.dedent("""
    import json, sys, time
    from nbcourse.grading.assignment import Limits
    from nbcourse.grading.sandbox import Sandbox, isolation
    tree = isolation().tree_limits
    times = []
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter()
        box = Sandbox(Limits(), tree_limits=tree)
        box.start()
        box.close()
        times.append(time.perf_counter() - t)
    print(json.dumps(sorted(times)))
""")

START_OLD = textwrap.dedent("""
    import json, sys, time
    from nbcourse.grading.assignment import Limits
    from nbcourse.grading.sandbox import Sandbox, Zygote
    zygote = Zygote()
    times = []
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter()
        box = Sandbox(zygote, Limits())
        box.start()
        box.close()
        times.append(time.perf_counter() - t)
    zygote.close()
    print(json.dumps(sorted(times)))
""")

HOSTILE = textwrap.dedent("""
    import json, os, resource, sys, time
    from pathlib import Path
    sys.path.insert(0, str(Path(sys.argv[1]) / "tests"))
    import threading
    from hostile import FILL_SCRATCH, FLOOD, HUGE_REPR, MEMORY_SPLIT, code_cells, notebook
    from nbcourse.grading.assignment import Limits
    from nbcourse.grading.batch import grade_batch
    assignment, tmp = Path(sys.argv[2]), Path(sys.argv[3])
    subs = tmp / "subs"
    subs.mkdir()
    sol = code_cells(assignment / "solution.ipynb")
    for i, n in enumerate((7_000_000, 12_000_000, 7_000_000, 12_000_000)):
        notebook(sol + [HUGE_REPR.format(n=n)], subs / f"repr{i}.ipynb")
    notebook(sol[:3] + [MEMORY_SPLIT.format(n=4, mb=300)] + sol[3:], subs / "memory.ipynb")
    notebook(sol[:3] + [FILL_SCRATCH] + sol[3:], subs / "fill.ipynb")
    notebook(sol[:3] + ["raise ValueError('e' * 50_000_000)"] + sol[3:], subs / "raise.ipynb")
    notebook(sol + [FLOOD.format(mb=8, n=300, parts=0)], subs / "flood-many.ipynb")
    notebook(sol + [FLOOD.format(mb=8, n=0, parts=300)], subs / "flood-parts.ipynb")
    notebook(sol + [" " * 200_000 + "x = 1"], subs / "spaces.ipynb")
    (subs / "big.ipynb").write_text(json.dumps({"nbformat": "x" * 19_000_000, "cells": []}))
    dense = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []})
    (subs / "dense.ipynb").write_text(dense.replace("{}", "[" + "[]," * 6_399_999 + "[]]", 1))
    os.mkfifo(subs / "fifo.ipynb")
    (subs / "zero.ipynb").symlink_to("/dev/zero")
    for i in range(4):
        notebook(sol, subs / f"honest{i}.ipynb")
    peaks = {"worker": 0.0, "link": 0.0, "parse": 0.0, "all": 0.0}
    cpu = {}
    done = threading.Event()

    # the peak (VmHWM) of every worker and link process while it runs, and the peak of the
    # memory of them all with this process at once (PSS: a shared page is counted once)
    def sample():
        while not done.wait(0.05):
            now = 0.0
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        cmd = f.read()
                    with open(f"/proc/{pid}/status") as f:
                        status = f.read()
                    with open(f"/proc/{pid}/stat") as f:
                        ticks = f.read().rsplit(")", 1)[1].split()[11:13]
                except OSError:
                    continue
                kind = ("worker" if b"nbcourse.grading.batch" in cmd and b"--worker" in cmd
                        else "link" if b"connection to one kernel" in cmd
                        else "parse" if b'config["max_cells"]' in cmd else None)
                hwm = [line for line in status.splitlines() if line.startswith("VmHWM:")]
                pss = []
                if kind or int(pid) == os.getpid():
                    try:
                        with open(f"/proc/{pid}/smaps_rollup") as f:
                            pss = [line for line in f if line.startswith("Pss:")]
                    except OSError:
                        pass
                if kind and hwm:
                    peaks[kind] = max(peaks[kind], int(hwm[0].split()[1]) / 1024)
                if pss:
                    now += int(pss[0].split()[1]) / 1024
                if kind == "worker":
                    cpu[pid] = sum(map(int, ticks)) / os.sysconf("SC_CLK_TCK")
            peaks["all"] = max(peaks["all"], now)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.perf_counter()
    results = grade_batch(assignment, sorted(subs.iterdir()), tmp / "out", workers=2,
                          limits=Limits(total_timeout=20, cell_timeout=10, memory_mb=1024),
                          progress=None, allow_per_process_limits=True)
    done.set()
    sampler.join()
    by_name = {r.name: r for r in results}
    print(json.dumps({
        "seconds": time.perf_counter() - start, "n": len(results),
        "honest_full": sum(r.total == r.max_score for r in results if "honest" in r.name),
        "raise": by_name["raise.ipynb"].status + f" {by_name['raise.ipynb'].total:g}/"
                 f"{by_name['raise.ipynb'].max_score:g} " + by_name["raise.ipynb"].reason[:200],
        "flood": [by_name[n].status + ": " + by_name[n].reason[-90:]
                  for n in ("flood-many.ipynb", "flood-parts.ipynb")],
        "grader_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "grader_cpu": resource.getrusage(resource.RUSAGE_SELF).ru_utime
                      + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
        "worker_mib": peaks["worker"], "link_mib": peaks["link"], "parse_mib": peaks["parse"],
        "all_mib": peaks["all"], "dense": by_name["dense.ipynb"].reason[:120],
        "worker_cpu": sum(cpu.values())}))
""")


def _run(code, args, pythonpath=None, cwd=None):
    env = {**os.environ, "PYTHONPATH": pythonpath or ""}
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env, cwd=cwd or "/",
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _bare(exercise, copies, workers, folder):
    """Seconds of a bare ``jupyter nbconvert --execute`` of ``copies`` copies of the solution,
    split over ``workers`` processes that run at once; raises if a notebook fails."""
    import shutil
    import time

    folder.mkdir()
    notebooks = []
    for i in range(copies):
        notebooks.append(folder / f"student{i:03d}.ipynb")
        shutil.copy(exercise / "solution.ipynb", notebooks[-1])
    jupyter = Path(sys.executable).parent / "jupyter"
    start = time.perf_counter()
    procs = [subprocess.Popen([str(jupyter), "nbconvert", "--execute", "--to", "notebook",
                               "--output-dir", str(folder / f"out{k}"), "--log-level", "ERROR",
                               *map(str, notebooks[k::workers])], cwd=folder,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for k in range(min(workers, copies))]
    errors = [p.communicate()[1] for p in procs]
    seconds = time.perf_counter() - start
    if any(p.returncode for p in procs):
        raise RuntimeError("jupyter nbconvert --execute failed: " + "".join(errors)[-3000:])
    return seconds


def _baseline_tree(commit, folder):
    """The package and the exercise as they were at ``commit`` (``git archive``)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "nbcourse", EXERCISE],
                             capture_output=True, check=True).stdout
    folder.mkdir()
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--baseline", default=BASELINE, help="git commit of the earlier grader")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--before", default=BEFORE,
                        help="git commit of the same sandbox before least privilege ('' to "
                             "leave it out)")
    parser.add_argument("--no-bare", action="store_true",
                        help="leave out the bare nbconvert execution and the ratio")
    parser.add_argument("--bookkeeping", type=int, default=1000,
                        help="submissions of the bookkeeping batch (0: leave it out)")
    parser.add_argument("--bookkeeping-baseline", default=BOOKKEEPING_BASELINE)
    args = parser.parse_args()
    cores = min(args.workers, os.cpu_count() or 1)
    print(f"{args.copies} copies of the solution, {args.workers} workers, "
          f"{os.cpu_count()} cores; uid {os.geteuid()}")
    runs = [("bubblewrap sandbox (this tree)", str(ROOT), ROOT / EXERCISE, START_NEW, ["new"])]
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        if not args.no_baseline and os.geteuid() == 0:
            old = _baseline_tree(args.baseline, Path(tmp) / "baseline")
            runs.append((f"zygote + own mount code ({args.baseline})", str(old),
                         old / EXERCISE, START_OLD, []))
        if args.before:
            before = _baseline_tree(args.before, Path(tmp) / "before")
            runs.append((f"bubblewrap sandbox before least privilege ({args.before})",
                         str(before), before / EXERCISE, START_NEW, ["new"]))
        bare = None
        if not args.no_bare:
            seconds = _bare(ROOT / EXERCISE, args.copies, args.workers, Path(tmp) / "bare")
            bare = seconds * cores / args.copies
            print(f"\nbare jupyter nbconvert --execute, {args.workers} processes: {args.copies} "
                  f"notebooks in {seconds:.1f} s: {bare:.3f} s per notebook per core")
        for label, path, exercise, start_code, extra in runs:
            starts = _run(start_code, [args.starts], path)
            work = Path(tempfile.mkdtemp(dir=tmp))
            r = _run(THROUGHPUT, [exercise, work, args.copies, args.workers, *extra], path)
            cost = r["seconds"] * cores / r["n"]
            print(f"\n{label}")
            print(f"  sandbox start + stop: median {starts[len(starts) // 2] * 1000:.0f} ms, "
                  f"min {starts[0] * 1000:.0f} ms ({len(starts)} starts)")
            print(f"  {r['n']} submissions ({r['full']} with full marks) in {r['seconds']:.1f} s:"
                  f" {r['n'] / r['seconds']:.2f} submissions/s, "
                  f"{r['n'] / r['seconds'] / cores:.2f} submissions/s/core; "
                  f"median {r['median']:.2f} s per submission")
            if bare:
                print(f"  cost per submission per core: {cost:.3f} s, {cost / bare:.3f} x a bare "
                      f"nbconvert --execute of the same notebook")
        if args.bookkeeping:
            print(f"\nbookkeeping: {args.bookkeeping} submissions that are not notebooks, "
                  f"2 workers")
            old = _baseline_tree(args.bookkeeping_baseline, Path(tmp) / "bookkeeping-baseline")
            times = {}
            for label, path, exercise in (("this tree", str(ROOT), ROOT / EXERCISE),
                                          (args.bookkeeping_baseline, str(old), old / EXERCISE)):
                work = Path(tempfile.mkdtemp(dir=tmp))
                b = _run(BOOKKEEPING, [exercise, work, args.bookkeeping], path)
                times[label] = b["seconds"]
                print(f"  {label}: {b['n']} graded, {b['rows']} rows in grades.csv, "
                      f"{b['seconds']:.1f} s ({b['seconds'] / b['n'] * 1000:.1f} ms per "
                      f"submission)")
            print(f"  ratio this tree / {args.bookkeeping_baseline}: "
                  f"{times['this tree'] / times[args.bookkeeping_baseline]:.3f}")
        work = Path(tempfile.mkdtemp(dir=tmp))
        h = _run(HOSTILE, [ROOT, ROOT / EXERCISE, work], str(ROOT))
        print(f"\nhostile batch ({h['n']} submissions, {h['honest_full']}/4 honest ones with full "
              f"marks) in {h['seconds']:.1f} s")
        print(f"  peak resident memory: batch process {h['grader_mib']:.0f} MiB, largest worker "
              f"{h['worker_mib']:.0f} MiB, largest link {h['link_mib']:.0f} MiB, largest notebook "
              f"parse {h['parse_mib']:.0f} MiB; all of them "
              f"at once {h['all_mib']:.0f} MiB at most (proportional set size, sampled every "
              f"50 ms)")
        print(f"  processor time: batch process {h['grader_cpu']:.1f} s, workers "
              f"{h['worker_cpu']:.1f} s")
        for line in h["flood"]:
            print(f"  flood: {line}")
        print(f"  50 MB exception message: {h['raise']}")
        print(f"  19 MB of empty lists: {h['dense']}")


if __name__ == "__main__":
    main()
