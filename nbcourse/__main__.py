"""Command line: ``python -m nbcourse COMMAND ...``.

Commands
--------
reproduce   print Williams (2024) Tables 1-2: the paper's values, ours, and 95% intervals
grade       grade submitted notebooks against an assignment
gradescope  build a Gradescope autograder bundle for an assignment
grade-merge add hand-scored written answers to a graded batch's grades.csv and results
grade-merge-shards  merge the outputs of 'grade --shard K/N' into one gradebook
quiz        write the question bank as Moodle XML, QTI 1.2 (Canvas) or GIFT
export      write a gradebook in the grade-import format of Canvas or Moodle, or as CSV
feedback    write one HTML page of feedback per graded submission
"""

import importlib
import sys

COMMANDS = {
    "reproduce": ("nbcourse.experiments.cli", "main"),
    "grade": ("nbcourse.grading.cli", "grade_main"),
    "gradescope": ("nbcourse.grading.cli", "gradescope_main"),
    "grade-merge": ("nbcourse.grading.cli", "merge_main"),
    "grade-merge-shards": ("nbcourse.grading.shards", "merge_main"),
    "quiz": ("nbcourse.lms.cli", "quiz_main"),
    "export": ("nbcourse.lms.cli", "export_main"),
    "feedback": ("nbcourse.lms.cli", "feedback_main"),
}


def main(argv=None):
    """Dispatch ``argv[0]`` to the command's own ``main(argv[1:])`` and return its exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help"}:
        print(__doc__.strip())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"nbcourse: unknown command {name!r}; expected one of {sorted(COMMANDS)}",
              file=sys.stderr)
        return 2
    module, func = COMMANDS[name]
    return getattr(importlib.import_module(module), func)(rest)


if __name__ == "__main__":
    sys.exit(main())
