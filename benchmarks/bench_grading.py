"""Grading throughput: 100 copies of a typical submission, 2 worker processes.

Prints total wall time and submissions per second per core (target: at least 1
submission/s/core, 100 submissions in under 2 minutes on a 2-core machine).

    .venv/bin/python benchmarks/bench_grading.py [--copies 100] [--workers 2]
"""

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from nbcourse.grading.grader import grade_batch

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = ROOT / "exercises" / "01-binary-discriminant"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        subs = Path(tmp) / "submissions"
        subs.mkdir()
        for i in range(args.copies):  # a typical submission: complete, with its check cells
            shutil.copy(ASSIGNMENT / "solution.ipynb", subs / f"student{i:03d}.ipynb")
        notebooks = sorted(subs.glob("*.ipynb"))
        start = time.perf_counter()
        results = grade_batch(ASSIGNMENT, notebooks, Path(tmp) / "out", workers=args.workers,
                              progress=None)
        seconds = time.perf_counter() - start
    cores = min(args.workers, os.cpu_count() or 1)
    full = sum(r.total == r.max_score for r in results)
    per_sub = sorted(r.seconds for r in results)
    print(f"graded {len(results)} submissions ({full} with full marks) with "
          f"{args.workers} workers on {os.cpu_count()} cores")
    print(f"total time: {seconds:.1f} s (includes starting the workers)")
    print(f"throughput: {len(results) / seconds:.2f} submissions/s, "
          f"{len(results) / seconds / cores:.2f} submissions/s/core")
    print(f"per submission: median {per_sub[len(per_sub) // 2]:.2f} s, "
          f"max {per_sub[-1]:.2f} s")


if __name__ == "__main__":
    main()
