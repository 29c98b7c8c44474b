"""Instant feedback inside the student's notebook: ``check("q1")``.

The first cell of every student notebook does::

    from nbcourse.grading import checker
    check = checker("01-binary-discriminant")

and ``check("q1")`` then runs that question's *public* tests against the notebook's
current functions and variables, with no server, and prints a short, friendly report.
Hidden tests only run when the instructor grades. This is feedback, not grading: it runs
in the student's own kernel, so it trusts that kernel; the grader does not.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .assignment import load_assignment
from .probe import evaluate

__all__ = ["Checker", "checker", "find_assignment"]


def find_assignment(name):
    """Locate the folder of assignment ``name`` (a path, or a name under ``exercises/``).

    Looks at ``name`` itself, the current directory, ``./exercises/<name>`` and the same in
    every parent directory, then next to the installed nbcourse package.
    """
    direct = Path(name)
    if (direct / "tests.py").is_file():
        return direct
    cwd = Path.cwd()
    places = [cwd] if cwd.name == name else []
    for folder in [cwd, *cwd.parents, Path(__file__).resolve().parents[2]]:
        places.append(folder / "exercises" / name)
    for place in places:
        if (place / "tests.py").is_file():
            return place
    raise ValueError(f"name must be an assignment folder with tests.py or the name of one "
                     f"under exercises/ near {cwd}, got {str(name)!r}, which was not found")


def _namespace():
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        return shell.user_ns
    return sys._getframe(2).f_globals


class Checker:
    """Run public tests of an assignment against a namespace (the notebook's by default).

    Calling it with a question name prints a report; ``last`` keeps ``(passed, total)``.
    """

    def __init__(self, assignment, namespace=None):
        self.assignment = assignment
        self.namespace = namespace
        self.last = (0, 0)

    def __call__(self, question="all"):
        namespace = self.namespace if self.namespace is not None else _namespace()
        names = ([q.name for q in self.assignment.questions] if question == "all"
                 else [question])
        passed = total = 0
        for name in names:
            p, t, report = self.report(name, namespace)
            passed, total = passed + p, total + t
            print(report)
        self.last = (passed, total)

    def report(self, name, namespace):
        """Evaluate question ``name``'s public tests; return ``(passed, total, text)``."""
        try:
            question = self.assignment.question(name)
        except KeyError as exc:
            return 0, 0, f"check: {exc.args[0]}"
        public = [t for t in question.tests if not t.hidden]
        head = f"{question.name} — {question.title}"
        if not public:
            return 0, 0, f"{head}: no public tests; this question is checked when graded."
        lines, passed = [], 0
        for test in public:
            results = [evaluate(p.as_tuple(), namespace) for p in test.probes]
            verdict = test.verdict(results)
            passed += verdict.passed
            if not verdict.passed:
                tried = ", ".join(p.describe() for p in test.probes)
                lines.append(f"  ✘ {test.name}: {verdict.message}\n      (checked {tried})")
        hidden = sum(t.hidden for t in question.tests)
        if passed == len(public):
            more = f" {hidden} more hidden test(s) run when graded." if hidden else ""
            return passed, len(public), f"{head}: all {passed} public tests passed ✔{more}"
        summary = f"{head}: {passed} of {len(public)} public tests passed"
        return passed, len(public), "\n".join([summary, *lines])


def checker(name, namespace=None):
    """Return the ``check`` function for assignment ``name`` (see module docstring)."""
    return Checker(load_assignment(find_assignment(name), hidden=False), namespace)
