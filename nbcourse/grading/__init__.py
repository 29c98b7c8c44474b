"""Graded exercises: instant feedback in the notebook and an autograder that cannot be fooled.

* :mod:`~nbcourse.grading.assignment` — questions, probes, trusted checks (``tests.py`` and
  the instructor-only ``hidden_tests.py``; :func:`student_files` lists what students get);
* :mod:`~nbcourse.grading.generate` — solution notebook to student notebook;
* :mod:`~nbcourse.grading.check` — ``check("q1")`` inside the student's notebook;
* :mod:`~nbcourse.grading.variants` — per-student numbers for compute-a-value questions,
  checked for the owner a roster or Gradescope names (never the notebook's claim);
* :mod:`~nbcourse.grading.sandbox` — one kernel per submission in a bubblewrap sandbox;
* :mod:`~nbcourse.grading.link` — the process that holds the connection to one kernel and
  cuts what it sends to a bounded size;
* :mod:`~nbcourse.grading.grader` — one submission: run it in its sandbox and score it;
* :mod:`~nbcourse.grading.batch` — many submissions on worker processes, ``grades.csv`` and
  ``results.json``;
* :mod:`~nbcourse.grading.gradescope` — the Gradescope autograder bundle.

This package is imported only on demand (``nbcourse`` itself does not import it), so the
book's notebooks never load the grading machinery.
"""

from .assignment import (
    Assignment,
    Call,
    Limits,
    Question,
    Test,
    Value,
    Verdict,
    close,
    equal,
    error_verdict,
    instructor_files,
    load_assignment,
    raises,
    student_files,
)
from .check import Checker, checker
from .variants import has_form, personal, personal_seed, read_roster, student_id_is_set

__all__ = [
    "Assignment",
    "Call",
    "Checker",
    "Limits",
    "Question",
    "Test",
    "Value",
    "Verdict",
    "checker",
    "close",
    "equal",
    "error_verdict",
    "has_form",
    "instructor_files",
    "load_assignment",
    "personal",
    "personal_seed",
    "raises",
    "read_roster",
    "student_files",
    "student_id_is_set",
]
