"""``python -m nbcourse quiz ...``, ``... export ...`` and ``... feedback ...``."""

from __future__ import annotations

import argparse
import sys

__all__ = ["quiz_main"]


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
