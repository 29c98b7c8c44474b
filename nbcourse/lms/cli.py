"""``python -m nbcourse quiz ...``, ``... export ...`` and ``... feedback ...``."""

from __future__ import annotations

import argparse
import sys

__all__ = ["export_main", "feedback_main", "quiz_main"]


def quiz_main(argv=None):
    """Write the question bank (or some chapters of it) as Moodle XML, QTI 1.2 or GIFT."""
    from .quiz import FORMATS, write_quiz

    parser = argparse.ArgumentParser(
        prog="python -m nbcourse quiz",
        description="Write the question bank (instructor/question_bank.yml) in a format that "
                    "learning-management systems import: Moodle XML, QTI 1.2 (a .zip that "
                    "Canvas imports) or GIFT. Numeric answers keep their tolerance and every "
                    "question its worked answer as feedback.",
        allow_abbrev=False)
    parser.add_argument("--format", required=True, choices=FORMATS,
                        help="moodle (Moodle XML), qti (QTI 1.2 zip for Canvas) or gift")
    parser.add_argument("-o", "--output", required=True, help="file to write")
    parser.add_argument("--chapter", action="append",
                        help="only the questions on this chapter (a document of _toc.yml such "
                             "as book/part1/01_discrete_features); repeat for several")
    parser.add_argument("--bank", help="question bank to read (default: "
                                       "instructor/question_bank.yml of this checkout)")
    args = parser.parse_args(argv)
    try:
        count = write_quiz(args.format, args.output, args.bank, args.chapter)
    except ValueError as exc:
        print(f"nbcourse quiz: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {count} questions to {args.output}")
    return 0


def export_main(argv=None):
    """Write a batch's grades.csv in the grade-import format of Canvas or Moodle, or as CSV."""
    from .grades import CANVAS_ID_COLUMNS, EXPORT_FORMATS, MOODLE_ID_FIELDS, export_grades

    parser = argparse.ArgumentParser(
        prog="python -m nbcourse export",
        description="Write the gradebook of a graded batch (the --out folder of 'grade', or "
                    "its grades.csv) as a file that a learning-management system imports: "
                    "Canvas's gradebook import, Moodle's grade import from CSV, or a plain "
                    "CSV. Rows are keyed by the identifier the grader checked the answers for; "
                    "rows without a verified identifier are left out and listed.",
        allow_abbrev=False)
    parser.add_argument("--format", required=True, choices=EXPORT_FORMATS)
    parser.add_argument("-o", "--output", required=True, help="file to write")
    parser.add_argument("--title", help="the assignment's name in the LMS (for Canvas, "
                                        "'Name (id)' picks an existing assignment by its id; "
                                        "default: the assignment's folder name)")
    parser.add_argument("--canvas-id", choices=sorted(CANVAS_ID_COLUMNS), default="sis_login_id",
                        help="Canvas column that holds the identifier (default sis_login_id)")
    parser.add_argument("--moodle-id", choices=sorted(MOODLE_ID_FIELDS), default="email",
                        help="Moodle user field that the identifier is (default email)")
    parser.add_argument("--allow-unverified", action="store_true",
                        help="also export rows whose identifier is only the notebook's own "
                             "STUDENT_ID (graded without a roster entry)")
    parser.add_argument("--exclude", action="append", metavar="SUBMISSION",
                        help="leave out this row of grades.csv (its submission name); repeat")
    parser.add_argument("grades", help="the output folder of 'grade' (or its grades.csv)")
    args = parser.parse_args(argv)
    try:
        done = export_grades(args.grades, args.format, args.output, args.title, args.canvas_id,
                             args.moodle_id, args.allow_unverified, args.exclude)
    except (ValueError, OSError) as exc:
        print(f"nbcourse export: {exc}", file=sys.stderr)
        return 2
    for name, reason in done.left_out:
        print(f"left out {name}: {reason}", file=sys.stderr)
    for name, note in done.notes:
        print(f"check {name}: {note}", file=sys.stderr)
    print(f"wrote {len(done.rows)} grades to {done.path} ({args.format}); "
          f"{len(done.left_out)} rows left out")
    return 0


def feedback_main(argv=None):
    """Write one self-contained HTML page of feedback per graded submission."""
    from .feedback import write_feedback

    parser = argparse.ArgumentParser(
        prog="python -m nbcourse feedback",
        description="Write OUTPUT/<submission>.html for every row of a graded batch, from its "
                    "results.json: the public tests and the grader's notes, and, with "
                    "--published, the hidden tests and the total score too.",
        allow_abbrev=False)
    parser.add_argument("-o", "--output", required=True, help="folder to write the pages to")
    parser.add_argument("--published", action="store_true",
                        help="grades are published: show the hidden tests and the total score")
    parser.add_argument("--title", help="the assignment's name on the pages (default: the "
                                        "assignment's folder name)")
    parser.add_argument("grades", help="the output folder of 'grade' (or its grades.csv)")
    args = parser.parse_args(argv)
    try:
        pages = write_feedback(args.grades, args.output, args.published, args.title)
    except (ValueError, OSError) as exc:
        print(f"nbcourse feedback: {exc}", file=sys.stderr)
        return 2
    for name, reason in pages.missing:
        print(f"no page for {name}: {reason}", file=sys.stderr)
    print(f"wrote {len(pages.written)} feedback pages to {args.output}"
          + ("" if args.published else " (hidden tests left out until --published)"))
    return 1 if pages.missing else 0
