"""Instant feedback inside the student's notebook: ``check("q1")``.

The first cell of every student notebook does::

    from nbcourse.grading import checker
    check = checker("02-binary-discriminant")

and ``check("q1")`` then runs that question's *public* tests against the notebook's
current functions and variables, with no server, and prints a short, friendly report.
Hidden tests only run when the instructor grades. This is feedback, not grading: it runs
in the student's own kernel, so it trusts that kernel; the grader does not.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .assignment import load_assignment
from .probe import evaluate

__all__ = ["CellFailures", "Checker", "checker", "defined_names", "defines", "find_assignment"]


def find_assignment(name):
    """Locate the folder of assignment ``name`` (a path, or a name under ``exercises/``).

    Looks at ``name`` itself, the current directory, ``./exercises/<name>`` and the same in
    every parent directory, then next to the installed nbcourse package, then in the package
    itself: the package installed from the student tree carries each assignment's public
    tests as ``nbcourse/public_tests/<name>/tests.py``.
    """
    direct = Path(name)
    if (direct / "tests.py").is_file():
        return direct
    cwd = Path.cwd()
    places = [cwd] if cwd.name == name else []
    for folder in [cwd, *cwd.parents, Path(__file__).resolve().parents[2]]:
        places.append(folder / "exercises" / name)
    places.append(Path(__file__).resolve().parents[1] / "public_tests" / str(name))
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


def defines(source, name):
    """Whether the cell ``source`` defines ``name`` (a ``def``/``class`` or an assignment).

    Read from the text, so that a cell with a syntax error still counts. Linear in the
    length of ``source`` (the grader runs it on what a submission wrote); see
    :func:`defined_names` for every name at once.

    >>> defines("def bias(p, q, prior1):\\n    return (", "bias")
    True
    >>> defines("ex3_w, ex3_w0 = 1, 2", "ex3_w0")
    True
    >>> defines("print(bias)", "bias")
    False
    """
    word = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
    for line in source.split("\n"):
        head = _definition(line)
        if head is not None:
            if head == name:
                return True
            continue
        target = _assigned_target(line)
        if target and word.search(target) and not _CALL.search(target):
            return True
    return False


_CALL = re.compile(r"\w\s*\(")  # linear: a run of spaces follows at most one \w
_WORD = re.compile(r"\w*")
_RUN = re.compile(r"[\w\s,()\[\]*.]*")  # what an assignment target is made of
_AUGMENTED = frozenset("-+*/%@&|^")


def _definition(line):
    """The name a ``def``/``class`` (or ``async def``) line defines, else None.

    >>> _definition("  async  def f(x):"), _definition("class C:"), _definition("x = 1")
    ('f', 'C', None)
    """
    words = line.split(None, 2)
    if words[:1] == ["async"]:
        words = line.split(None, 3)[1:]
    if len(words) < 2 or words[0] not in ("def", "class"):
        return None
    return _WORD.match(words[1]).group() or None


def _assigned_target(line):
    """The target of an assignment line (``x, y = ...``, ``x: int = ...``, ``x += ...``),
    else None: the start of the line made of names, spaces and ``,()[]*.`` followed by
    ``=``, by an augmented ``op=`` or by an annotation and ``=``, never by ``==``.

    A few scans of the line, each linear (a regular expression that lets the target and the
    spaces after it share the spaces takes cubic time on a line of spaces).

    >>> _assigned_target("  a, b[0] = 1"), _assigned_target("x *= 2"), _assigned_target("x == 1")
    ('a, b[0]', 'x', None)
    >>> _assigned_target("total: float = 0.0"), _assigned_target(" " * 10 + "x")
    ('total', None)
    """
    start = len(line) - len(line.lstrip())
    stop = _RUN.match(line, start).end()  # the target's characters end here
    if stop <= start:
        return None
    char, then = line[stop:stop + 1], line[stop + 1:stop + 2]
    if char == "=" and then != "=":
        if stop - 1 > start and line[stop - 1] == "*":  # x *= ...: the * is the operator
            return line[start:stop - 1].rstrip()
        return line[start:stop].rstrip()
    if char in _AUGMENTED and char and then == "=" and line[stop + 2:stop + 3] != "=":
        return line[start:stop].rstrip()
    if char == ":":
        equals = line.find("=", stop + 1)
        if equals >= 0 and line[equals + 1:equals + 2] != "=":
            return line[start:stop].rstrip()
    return None


def defined_names(source):
    """Every name the cell ``source`` defines, in the sense of :func:`defines`, in one
    linear pass: ``name in defined_names(source)`` is ``defines(source, name)`` for a
    Python identifier ``name``.

    >>> sorted(defined_names("def f():\\n    y = 2\\nobj.attr, (a, b) = g\\nh(x)[0] = 1"))
    ['a', 'b', 'f', 'obj', 'y']
    """
    names = set()
    for line in source.split("\n"):
        head = _definition(line)
        if head is not None:
            names.add(head)
            continue
        target = _assigned_target(line)
        if target and not _CALL.search(target):
            names.update(_TOKEN.findall(target))
    return names


_TOKEN = re.compile(r"(?<![\w.])(\w+)")


class CellFailures:
    """The cells that failed since each name was last defined, from IPython's
    ``post_run_cell`` events: ``failure(name)`` is ``"SyntaxError: ..."`` or None."""

    def __init__(self):
        self.failed = {}  # name -> error text of the latest failed cell that defines it

    def record(self, source, error):
        """Note one executed cell: ``error`` is None, an exception or its text."""
        if error is None:
            # a cell that ran defines its names afresh: forget older failures of them
            for name in [n for n in self.failed if defines(source, n)]:
                del self.failed[name]
            return
        text = error if isinstance(error, str) else _error_text(error)
        for name in _names(source):
            if defines(source, name):
                self.failed[name] = text

    def post_run_cell(self, result):
        error = getattr(result, "error_before_exec", None) or getattr(result, "error_in_exec",
                                                                      None)
        self.record(getattr(result.info, "raw_cell", "") or "", error)

    def failure(self, name):
        return self.failed.get(name)


def _names(source):
    return set(re.findall(r"[A-Za-z_]\w*", source))


def _error_text(error):
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, SyntaxError) and error.lineno:
        text = f"{type(error).__name__}: {error.msg} (line {error.lineno})"
    return text if len(text) <= 160 else text[:157] + "..."


def _watch(shell):
    """The :class:`CellFailures` of IPython ``shell``, registered once per shell."""
    watcher = getattr(shell, "_nbcourse_cell_failures", None)
    if watcher is None:
        watcher = CellFailures()
        shell.events.register("post_run_cell", watcher.post_run_cell)
        shell._nbcourse_cell_failures = watcher
    return watcher


def _shell():
    try:
        from IPython import get_ipython

        return get_ipython()
    except ImportError:
        return None


def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Checker:
    """Run public tests of an assignment against a namespace (the notebook's by default).

    Calling it with a question name prints a report; ``last`` keeps ``(passed, total)``.
    """

    def __init__(self, assignment, namespace=None, failures=None):
        self.assignment = assignment
        self.namespace = namespace
        self.failures = failures
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
        broken = self._broken_definitions(question)
        if broken:
            lines = [f"  ✘ the cell that defines {name} failed with {error}" for name, error
                     in broken]
            return 0, len(public), "\n".join([
                f"{head}: not checked, because a cell it needs failed", *lines,
                "  Fix that cell and run it again: the tests do not use the older definition "
                "still in memory."])
        lines, passed = [], 0
        for test in public:
            results = [evaluate(p.as_tuple(), namespace) for p in test.probes]
            verdict = test.verdict(results)
            passed += verdict.passed
            if not verdict.passed:
                tried = ", ".join(p.describe(short=True) for p in test.probes)
                lines.append(f"  ✘ {test.name}: {verdict.message}\n      (checked {tried})")
        hidden = sum(t.hidden for t in question.tests)
        if passed == len(public):
            more = (f" {_plural(hidden, 'more hidden test')} run when graded." if hidden
                    else "")
            every = "the public test" if passed == 1 else f"all {passed} public tests"
            return passed, len(public), f"{head}: {every} passed ✔{more}"
        summary = f"{head}: {passed} of {_plural(len(public), 'public test')} passed"
        return passed, len(public), "\n".join([summary, *lines])


    def _broken_definitions(self, question):
        failures = self.failures
        if failures is None:
            return []
        names = dict.fromkeys(p.as_tuple()[1] for t in question.tests if not t.hidden
                              for p in t.probes)
        return [(n, e) for n in names if (e := failures.failure(n)) is not None]


def checker(name, namespace=None):
    """Return the ``check`` function for assignment ``name`` (see module docstring).

    In IPython, ``check`` also watches which cells fail (``post_run_cell``) and reports a
    question whose defining cell failed instead of checking an older definition.
    """
    assignment = load_assignment(find_assignment(name), hidden=False)
    shell = _shell() if namespace is None else None
    return Checker(assignment, namespace, _watch(shell) if shell is not None else None)
