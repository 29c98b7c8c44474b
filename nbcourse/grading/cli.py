"""``python -m nbcourse grade ...``, ``... gradescope ...`` and ``... grade-merge ...``."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from .assignment import load_assignment

__all__ = ["gradescope_main", "grade_main", "merge_main"]


def _limit_options(parser):
    group = parser.add_argument_group("limits (default: the assignment's own)")
    group.add_argument("--cell-timeout", type=float, help="seconds per cell")
    group.add_argument("--total-timeout", type=float,
                       help="seconds for all cells of a submission (the checks have their own)")
    group.add_argument("--probe-timeout", type=float, help="seconds per checked call")
    group.add_argument("--memory-mb", type=int, help="address-space limit of a kernel (MiB)")
    group.add_argument("--max-procs", type=int, help="processes and threads per kernel")


def _limits(assignment, args):
    return assignment.limits.replace(
        cell_timeout=args.cell_timeout, total_timeout=args.total_timeout,
        probe_timeout=args.probe_timeout, memory_mb=args.memory_mb, max_procs=args.max_procs)


def _notebooks(paths):
    from .gradescope import find_notebooks

    found, seen = [], set()
    for p in map(Path, paths):
        for nb in find_notebooks(p) if p.is_dir() and not p.is_symlink() else [p]:
            key = os.path.abspath(nb)
            if key not in seen:
                seen.add(key)
                found.append(nb)
    return found


def _refuse_option_like_names(parser, argv):
    """Refuse an argument before ``--`` that looks like an option but names a submission
    (``--out=x.ipynb`` from a shell glob in the folder of submissions): it would otherwise
    steer the command line."""
    for arg in argv:
        if arg == "--":
            return
        if arg.startswith("-") and (arg.lower().endswith(".ipynb") or os.path.lexists(arg)):
            parser.error(f"argument submissions: {arg!r} starts with '-' and names a file; "
                         f"expected options before the submissions and '--' before any "
                         f"submission whose name starts with '-' (e.g. ... --out grades/01 "
                         f"-- *.ipynb)")


def _risk_option(parser):
    parser.add_argument(
        "--allow-per-process-limits", action="store_true",
        help="grade even where memory, CPU and process limits cannot cover a kernel's whole "
             "process tree (no writable cgroup): a submission can then use the memory limit "
             "in every process it forks and more than one CPU")


def grade_main(argv=None):
    """Grade submissions; write ``OUT/grades.csv`` and ``OUT/<stem>/results.json``."""
    parser = argparse.ArgumentParser(
        prog="python -m nbcourse grade",
        description="Grade submitted notebooks, each in its own sandboxed kernel. Grading "
                    "into an existing output folder adds or replaces only the submissions "
                    "given and resumes a batch that was stopped.",
        allow_abbrev=False)
    parser.add_argument("--assignment", required=True, help="folder exercises/<name>")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--regrade", action="store_true",
                        help="grade again the submissions given that are already graded in "
                             "--out (default: keep them, so a stopped batch resumes)")
    parser.add_argument("--base", help="folder that submission names are relative to "
                                       "(default: the one of the first batch into --out; "
                                       "a notebook outside it needs --base or --name)")
    parser.add_argument("--name", help="the name (as grades.csv shows it) of the one "
                                       "submission given, e.g. carol/hw.ipynb for a late "
                                       "notebook saved elsewhere")
    parser.add_argument("--roster", help="CSV with columns submission (a file name, or the "
                                         "name grades.csv shows) and student_id: the owner "
                                         "whose numbers per-student answers are checked for "
                                         "(default: the notebook's STUDENT_ID, flagged "
                                         "unverified)")
    _risk_option(parser)
    _limit_options(parser)
    from .shards import run_sharded, shard_options

    shard_options(parser)
    parser.add_argument("submissions", nargs="+", help=".ipynb files or folders of them")
    argv = sys.argv[1:] if argv is None else list(argv)
    _refuse_option_like_names(parser, argv)
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"argument --workers: expected an integer >= 1, got {args.workers}")
    from .batch import grade_batch
    from .gradebook import OutputBusy
    from .sandbox import IsolationError

    try:
        assignment = load_assignment(args.assignment)
    except ValueError as exc:
        parser.error(str(exc))
    roster = None
    if args.roster is not None:
        from .variants import read_roster

        try:
            roster = read_roster(args.roster)
        except ValueError as exc:
            parser.error(f"argument --roster: {exc}")
    notebooks = _notebooks(args.submissions)
    if not notebooks:
        parser.error("no .ipynb submissions found")
    if args.name is not None and (args.shard is not None or args.dask is not None):
        parser.error("argument --name: not allowed with --shard or --dask, which name every "
                     "submission of the batch")
    sharded = run_sharded(parser, args, assignment, notebooks, _limits(assignment, args),
                          roster)
    if sharded is not None:
        return sharded
    start = time.monotonic()
    try:
        results = grade_batch(assignment.path, notebooks, args.out, workers=args.workers,
                              limits=_limits(assignment, args),
                              progress=None if args.quiet else print,
                              allow_per_process_limits=args.allow_per_process_limits,
                              regrade=args.regrade, base=args.base, roster=roster,
                              name=args.name)
    except (IsolationError, OutputBusy, ValueError) as exc:
        print(f"nbcourse grade: {exc}", file=sys.stderr)
        return 2
    seconds = time.monotonic() - start
    from .variants import report_identities

    report_identities(results, roster)
    graded = sum(r.status == "graded" for r in results)
    print(f"{len(results)} submissions ({graded} graded, {len(results) - graded} invalid or "
          f"failed; {len(results.replaced)} replaced earlier rows; {len(results.kept)} already "
          f"graded and kept) in {seconds:.1f} s -> {Path(args.out) / 'grades.csv'}")
    return 0


def merge_main(argv=None):
    """Merge hand-scored written answers into ``OUT/grades.csv`` and each results.json."""
    parser = argparse.ArgumentParser(
        prog="python -m nbcourse grade-merge",
        description="Add the points of written answers, scored by hand in the "
                    "written-answers.csv that 'grade' wrote, to grades.csv and to every "
                    "results.json of the batch. Rows with empty points are left out; "
                    "merging again replaces the earlier written scores. An answer without "
                    "points counts as 0, so every row has the same maximum.",
        allow_abbrev=False)
    parser.add_argument("--out", required=True, help="the output folder of 'grade'")
    parser.add_argument("--max-points", type=float, default=None,
                        help="points of a written answer whose max_points cell is empty "
                             "(default: the question's points in the assignment's rubric.yml, "
                             "else 1)")
    parser.add_argument("scores", help="CSV with columns submission, question, points "
                                       "(optionally max_points, comment)")
    args = parser.parse_args(argv)
    from .gradebook import OutputBusy
    from .written import merge_scores

    try:
        count = merge_scores(args.out, args.scores, args.max_points)
    except (ValueError, OSError, OutputBusy) as exc:
        print(f"nbcourse grade-merge: {exc}", file=sys.stderr)
        return 2
    print(f"merged written scores of {count} submissions into {Path(args.out) / 'grades.csv'}")
    return 0


def gradescope_main(argv=None):
    """Build a Gradescope autograder bundle (setup.sh, run_autograder) for an assignment."""
    parser = argparse.ArgumentParser(
        prog="python -m nbcourse gradescope",
        description="Build a Gradescope autograder zip that runs the same grader.")
    parser.add_argument("assignment", help="folder exercises/<name>")
    parser.add_argument("-o", "--output", required=True, help="zip file to write")
    parser.add_argument("--identity-field", choices=["email", "sid"], default="email",
                        help="field of a Gradescope user that is the student's identifier "
                             "(default email; sid is the student ID set in the course roster)")
    _risk_option(parser)
    _limit_options(parser)
    args = parser.parse_args(argv)
    from .gradescope import build_bundle

    try:
        assignment = load_assignment(args.assignment)
    except ValueError as exc:
        parser.error(str(exc))
    path = build_bundle(assignment.path, args.output, _limits(assignment, args),
                        args.allow_per_process_limits, args.identity_field)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(grade_main())
