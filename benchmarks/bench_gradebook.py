"""What the gradebook costs per submission as it grows to ``--rows`` rows.

A batch of ``--rows`` submissions is graded into a new output folder with a grading worker
that answers at once (a stand-in for ``_WorkerProcess`` that returns the result of a
notebook that is not a notebook, without starting a process or a sandbox), so what is timed
is only the gradebook: the journal line, ``results.json``, the written answers, and
rewriting ``grades.csv``. The time per submission is reported for each window of
``--window`` submissions, for three rewrite policies of ``grades.csv`` in one run:

* ``as shipped``: the journal, and ``grades.csv`` written once, at the end;
* ``periodic``: the journal, and ``grades.csv`` also rewritten during the batch, at most
  every 2 s and at most a twentieth of the time
  (``Flushes(every=2.0, ratio=20)``, :class:`nbcourse.grading.gradebook.Flushes`);
* ``every submission``: ``grades.csv`` rewritten after each submission (for contrast: the
  cost grows with the rows; only the first three windows, which show it).

    .venv/bin/python benchmarks/bench_gradebook.py [--rows 30000] [--window 1000]

Writes only into a temporary folder; needs no sandbox.
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
EXERCISE = ROOT / "exercises" / "02-binary-discriminant"

RUN = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from nbcourse.grading import batch, gradebook
    from nbcourse.grading.assignment import load_assignment
    from nbcourse.grading.grader import _not_run

    exercise, tmp, rows, window, policy = sys.argv[1:6]
    rows, window = int(rows), int(window)
    if policy == "periodic":
        gradebook.Flushes.__init__.__defaults__ = (2.0, 20, None)
    elif policy == "every":
        gradebook.Flushes.__init__.__defaults__ = (0.0, 0, None)
    assignment = load_assignment(exercise)
    stamps = []

    class Instant:
        def __init__(self, config):
            pass

        def grade(self, path, name, timeout, identity=None, more=False):
            return _not_run(assignment, name, "invalid", "not a notebook")

        def stop(self, force=False):
            pass

    batch._WorkerProcess = Instant
    batch.require_isolation = lambda allow: None
    subs = Path(tmp) / "subs"
    subs.mkdir()
    for i in range(rows):
        (subs / f"s{i:06d}.ipynb").write_bytes(b"not a notebook")

    def progress(line):
        if line.startswith("["):
            stamps.append(time.perf_counter())

    start = time.perf_counter()
    results = batch.grade_batch(exercise, sorted(subs.iterdir()), Path(tmp) / "out", workers=1,
                                progress=progress)
    total = time.perf_counter() - start
    times = [start] + stamps
    per = [(times[min(k + window, rows)] - times[k]) / window * 1000
           for k in range(0, rows, window)]
    written = (Path(tmp) / "out" / "grades.csv").read_text().count("\\n") - 1
    print(json.dumps({"n": len(results), "rows": written, "total": total, "per_ms": per}))
""")

POLICIES = (("as shipped (journal, grades.csv written at the end)", "shipped"),
            ("periodic (also rewritten every 2 s, at most 1/20 of the time)", "periodic"),
            ("every submission", "every"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=30_000)
    parser.add_argument("--window", type=int, default=1000)
    parser.add_argument("--policies", nargs="+", default=[p for _, p in POLICIES],
                        choices=[p for _, p in POLICIES])
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"gradebook of {args.rows} submissions, one grading worker that answers at once; "
          f"ms per submission in windows of {args.window}")
    for label, policy in POLICIES:
        if policy not in args.policies:
            continue
        rows = args.rows if policy != "every" else min(args.rows, 3 * args.window)
        with tempfile.TemporaryDirectory(prefix="bench-gradebook-") as tmp:
            done = subprocess.run([sys.executable, "-c", RUN, str(EXERCISE), tmp, str(rows),
                                   str(args.window), policy], env=env, cwd="/",
                                  capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
        r = json.loads(done.stdout.strip().splitlines()[-1])
        per = r["per_ms"]
        print(f"\n{label}: {r['n']} graded, {r['rows']} rows in grades.csv, "
              f"{r['total']:.1f} s in all ({r['total'] / r['n'] * 1000:.2f} ms per submission)")
        print(f"  first window {per[0]:.2f} ms, last window {per[-1]:.2f} ms per submission; "
              f"last / first {per[-1] / per[0]:.2f}")
        print("  windows: " + " ".join(f"{p:.2f}" for p in per))


if __name__ == "__main__":
    main()
