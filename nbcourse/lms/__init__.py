"""The course and a learning-management system (LMS): what an instructor sends to one.

* :mod:`~nbcourse.lms.quiz` — the question bank (``instructor/question_bank.yml``) as Moodle
  XML, QTI 1.2 (Canvas) and GIFT;
* :mod:`~nbcourse.lms.grades` — a batch's ``grades.csv`` in the grade-import formats of
  Canvas and Moodle, or as a plain CSV;
* :mod:`~nbcourse.lms.feedback` — one self-contained HTML page per submission from its
  ``results.json``, hidden tests left out until grades are published;
* :mod:`~nbcourse.lms.cli` — ``python -m nbcourse quiz``, ``export`` and ``feedback``.

Instructor-side only: neither ``nbcourse`` nor :mod:`nbcourse.grading` (what a student's
kernel imports) imports this package, and its modules import their own dependencies
(PyYAML, text2qti) when called.
"""
