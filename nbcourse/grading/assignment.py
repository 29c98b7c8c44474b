"""Assignments: questions, points, probes and the trusted checks of each test.

An assignment is a folder ``exercises/<name>/`` with ``tests.py`` defining
``ASSIGNMENT = Assignment(...)`` with the public tests, and, for the instructor only,
``hidden_tests.py`` defining ``HIDDEN = {question: [Test(..., hidden=True), ...]}``.
:func:`student_files` lists what students receive; :func:`instructor_files` what they
never do. Each :class:`Test` names a *probe* (what to extract
from the student's kernel: a call of one of their functions on inputs chosen here, or
the value of one of their variables) and a *check*: a function run in the grader's own
process that receives only plain JSON values (None, bool, int, float, str, list, dict)
and returns a :class:`Verdict`. Expected values are computed here, never in the kernel.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "Assignment",
    "Call",
    "Limits",
    "Question",
    "Test",
    "Value",
    "Verdict",
    "close",
    "equal",
    "error_verdict",
    "instructor_files",
    "load_assignment",
    "parse_results",
    "raises",
    "student_files",
]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _validation():
    """The library's validators, imported on first use: they load numpy, which
    ``from nbcourse.grading import check`` does not need until an assignment is built."""
    from .. import _validation

    return _validation


def _check_identifier(value, name, example="a Python identifier"):
    """Check that ``value`` is a str that is a Python identifier (ASCII)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be {example}, got {_validation()._describe(value)}")
    if not _NAME.match(value):
        raise ValueError(f"{name} must be {example}, got {value!r}")


@dataclass(frozen=True)
class Verdict:
    """Outcome of one test: ``passed`` and a message for the student."""

    passed: bool
    message: str = ""


@dataclass(frozen=True)
class Call:
    """Probe: call the student's function ``func(*args, **kwargs)`` in their kernel.

    Arguments must be plain JSON values; with ``arrays=True`` (default) lists reach the
    function as float numpy arrays.

    >>> Call("q_minus_j", [0.2, 0.3, 0.5], 1).as_tuple()
    ('call', 'q_minus_j', [[0.2, 0.3, 0.5], 1], {}, True)
    """

    func: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    arrays: bool = True

    def __init__(self, func, *args, arrays=True, **kwargs):
        _check_identifier(func, "func")
        object.__setattr__(self, "func", func)
        object.__setattr__(self, "args", tuple(args))
        object.__setattr__(self, "kwargs", dict(kwargs))
        object.__setattr__(self, "arrays", bool(arrays))
        json.dumps([self.args, self.kwargs], allow_nan=False)  # plain JSON arguments only

    def as_tuple(self):
        return ("call", self.func, list(self.args), dict(self.kwargs), self.arrays)

    def describe(self, short=False):
        """``func(args)`` as text; with ``short``, long arguments are abbreviated.

        >>> Call("f", [[0, 1]] * 40, 2).describe(short=True)
        'f([[0, 1], [0, 1], [0, 1], [0, 1], [0, 1], ... (40 items)], 2)'
        """
        show = _show if short else json.dumps
        parts = [show(a) for a in self.args]
        parts += [f"{k}={show(v)}" for k, v in self.kwargs.items()]
        return f"{self.func}({', '.join(parts)})"


@dataclass(frozen=True)
class Value:
    """Probe: read the student's variable ``name``.

    >>> Value("example_w0").as_tuple()
    ('value', 'example_w0')
    """

    name: str

    def __post_init__(self):
        _check_identifier(self.name, "name")

    def as_tuple(self):
        return ("value", self.name)

    def describe(self, short=False):
        return self.name


@dataclass(frozen=True)
class Test:
    """One test of a question.

    Parameters
    ----------
    name : str
        Short description shown to the student.
    probe : Call or Value, or a tuple of them
        What to extract. With a tuple, ``check`` receives one value per probe.
    check : callable
        ``check(result) -> Verdict`` (or ``check(*results)`` for a tuple of probes), run in
        the trusted process. ``result`` is ``{"ok": True, "value": plain}`` or
        ``{"ok": False, "error": str}``. Build it with :func:`close`, :func:`equal`,
        :func:`raises`, or write one.
    hidden : bool
        Hidden tests run only in the grader; their expected values are never shown.
    weight : float
        Share of the question's points.
    """

    name: str
    probe: Call | Value | tuple
    check: Callable
    hidden: bool = False
    weight: float = 1.0
    __test__ = False  # not a pytest test class

    @property
    def probes(self):
        return self.probe if isinstance(self.probe, tuple) else (self.probe,)

    def verdict(self, results):
        """Run the check on the extracted ``results`` (one per probe); never raises."""
        try:
            outcome = self.check(*results)
        except Exception as exc:  # a check may meet any malformed value
            outcome = Verdict(False, f"could not check the answer ({type(exc).__name__})")
        if not isinstance(outcome, Verdict):
            outcome = Verdict(bool(outcome) is True)
        if self.hidden:
            return Verdict(outcome.passed, "passed" if outcome.passed else "failed")
        return outcome


@dataclass(frozen=True)
class Question:
    """A question: ``name`` (``"q1"``), a title, its points and its tests."""

    name: str
    title: str
    points: float
    tests: Sequence[Test]

    def __post_init__(self):
        _check_identifier(self.name, "name", "an identifier like 'q1'")
        _validation().check_positive(self.points, "points")

    def probes(self):
        """All probes of the question as plain tuples, in test order."""
        return [p.as_tuple() for t in self.tests for p in t.probes]

    def score(self, results):
        """Score ``results`` (one per probe, as from :func:`parse_results`).

        Returns ``(score, verdicts)`` with one :class:`Verdict` per test.
        """
        verdicts, i = [], 0
        for test in self.tests:
            n = len(test.probes)
            verdicts.append(test.verdict(results[i:i + n]))
            i += n
        total = sum(t.weight for t in self.tests)
        earned = sum(t.weight for t, v in zip(self.tests, verdicts, strict=True) if v.passed)
        return round(self.points * earned / total, 6), verdicts


@dataclass(frozen=True)
class Limits:
    """Resource limits of one submission's kernel.

    Times in seconds, sizes in MiB. ``max_procs`` counts processes and threads.
    """

    cell_timeout: float = 30.0
    total_timeout: float = 240.0
    probe_timeout: float = 5.0
    memory_mb: int = 2048
    max_procs: int = 64
    file_mb: int = 64

    def replace(self, **changes):
        values = {**self.__dict__, **{k: v for k, v in changes.items() if v is not None}}
        return Limits(**values)


@dataclass(frozen=True)
class Assignment:
    """An assignment: its name, title, questions and default limits."""

    name: str
    title: str
    questions: Sequence[Question]
    limits: Limits = Limits()
    path: Path | None = None

    def __post_init__(self):
        names = [q.name for q in self.questions]
        if len(set(names)) != len(names):
            raise ValueError(f"questions must be distinct by name, got names {names}")

    @property
    def max_score(self):
        return sum(q.points for q in self.questions)

    def question(self, name):
        for q in self.questions:
            if q.name == name:
                return q
        raise KeyError(f"no question {name!r}; expected one of {[q.name for q in self.questions]}")


PUBLIC_TESTS = "tests.py"
HIDDEN_TESTS = "hidden_tests.py"
SOLUTION = "solution.ipynb"
RUBRIC = "rubric.yml"


def student_files(path):
    """What students receive of the assignment in folder ``path``: the student notebook and
    the public tests (``tests.py``), which ``check("q1")`` needs. Nothing else."""
    folder = Path(path)
    notebook = folder / f"{folder.resolve().name}.ipynb"
    if notebook.name == SOLUTION:
        raise ValueError(f"path: expected an assignment folder not named like the solution, got "
                         f"{str(path)!r}: its student notebook would be {SOLUTION}")
    return [notebook, folder / PUBLIC_TESTS]


def instructor_files(path):
    """What stays with the instructor: the solution source, the hidden tests and the
    rubric of the written answers (``rubric.yml``, where the assignment has written ones)."""
    folder = Path(path)
    return [folder / SOLUTION, folder / HIDDEN_TESTS, folder / RUBRIC]


def load_assignment(path, hidden=None):
    """Load ``ASSIGNMENT`` from ``<path>/tests.py`` (``path`` is the assignment folder).

    Parameters
    ----------
    hidden : bool or None
        True: add the tests of ``hidden_tests.py`` (the file must exist); False: public tests
        only (what ``check()`` runs); None (default): add them when the file exists.
    """
    folder = Path(path).resolve()
    source = folder / PUBLIC_TESTS
    if not source.is_file():
        raise ValueError(f"path must be a folder containing {PUBLIC_TESTS}, got {str(path)!r}")
    module_name = "nbcourse_assignment_" + re.sub(r"\W", "_", folder.name)
    spec = importlib.util.spec_from_file_location(module_name, source)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    assignment = getattr(module, "ASSIGNMENT", None)
    if not isinstance(assignment, Assignment):
        raise ValueError(f"{source} must define ASSIGNMENT = Assignment(...)")
    hidden_source = folder / HIDDEN_TESTS
    if hidden is True and not hidden_source.is_file():
        raise ValueError(f"hidden must be False or None for an assignment without "
                         f"{HIDDEN_TESTS}, got True ({hidden_source} does not exist)")
    if hidden is not False and hidden_source.is_file():
        assignment = _with_hidden(assignment, module, hidden_source)
    for q in assignment.questions if hidden is not False else ():
        if not q.tests:
            raise ValueError(f"question {q.name!r} of {folder.name} has no tests")
    object.__setattr__(assignment, "path", folder)
    return assignment


def _with_hidden(assignment, module, source):
    """``assignment`` with the tests of ``source`` (run in ``module``'s namespace) added."""
    namespace = dict(vars(module))
    namespace["__file__"] = str(source)
    exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), namespace)
    extra = namespace.get("HIDDEN")
    names = {q.name for q in assignment.questions}
    if not isinstance(extra, dict) or not set(extra) <= names:
        raise ValueError(f"{source} must define HIDDEN = {{question name: [Test, ...]}} "
                         f"for questions among {sorted(names)}, got {type(extra).__name__}")
    questions = []
    for q in assignment.questions:
        tests = list(extra.get(q.name, []))
        if not all(isinstance(t, Test) and t.hidden for t in tests):
            raise ValueError(f"{source}: HIDDEN[{q.name!r}] must hold Test(..., hidden=True)")
        questions.append(dataclasses.replace(q, tests=[*q.tests, *tests]))
    return dataclasses.replace(assignment, questions=questions)


# --- strict parsing of what the kernel sent -------------------------------------------

MAX_PAYLOAD = 4_000_000


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _constant(name):
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]


def _depth_ok(text, limit=40):
    depth = best = 0
    in_str = escaped = False
    for char in text:
        if in_str:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_str = False
        elif char == '"':
            in_str = True
        elif char in "[{":
            depth += 1
            best = max(best, depth)
        elif char in "]}":
            depth -= 1
    return best <= limit


def _valid_record(record):
    if not isinstance(record, dict) or not isinstance(record.get("ok"), bool):
        return False
    if record["ok"]:
        return set(record) == {"ok", "value"}
    return set(record) == {"ok", "error"} and isinstance(record["error"], str)


def parse_results(text, nonce, n_probes):
    """Parse the framed JSON text from the kernel into ``n_probes`` result records.

    The text must be exactly ``nonce + JSON list + nonce`` with one well-formed record per
    probe; anything else raises ValueError (the grader then scores the probes as missing).

    >>> parse_results('N[{"ok":true,"value":[1,2.5]}]N', "N", 1)
    [{'ok': True, 'value': [1, 2.5]}]
    """
    if not isinstance(text, str) or len(text) > MAX_PAYLOAD:
        raise ValueError("results text is missing or too large")
    if not (text.startswith(nonce) and text.endswith(nonce)) or text.count(nonce) != 2:
        raise ValueError("results text is not framed by this run's nonce")
    body = text[len(nonce):-len(nonce)]
    if not _depth_ok(body):
        raise ValueError("results are nested too deeply")
    records = json.loads(body, object_pairs_hook=_no_duplicates, parse_constant=_constant)
    if not isinstance(records, list) or len(records) != n_probes:
        raise ValueError(f"expected {n_probes} results")
    if not all(_valid_record(r) for r in records):
        raise ValueError("malformed result record")
    return records


# --- checks ----------------------------------------------------------------------------


def _shape(value):
    if isinstance(value, list):
        inner = {_shape(v) for v in value}
        if len(inner) > 1:
            return None
        sub = inner.pop() if inner else ()
        return None if sub is None else (len(value),) + sub
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return ()


def _flat(value):
    if isinstance(value, list):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def _plain_expected(value):
    """Turn a trusted expected value (numbers, numpy arrays) into nested lists of floats."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return [_plain_expected(v) for v in value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected values must be numbers or arrays, got {type(value).__name__}")
    return float(value)


def _numbers_match(got, want, rtol, atol):
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return math.isfinite(got) and abs(got - want) <= atol + rtol * abs(want)


SHOW_CHARS = 60


def _number(x, digits=10):
    if isinstance(x, bool) or not isinstance(x, float):
        return json.dumps(x)
    if not math.isfinite(x):
        return repr(x)
    text = f"{x:.{digits}g}"
    return text if ("." in text or "e" in text or "n" in text) else text + ".0"


def _show(value, limit=SHOW_CHARS, digits=10):
    """A short text of a plain value: numbers to ``digits`` significant digits, long lists
    cut after the items that fit in about ``limit`` characters.

    >>> _show(list(range(100)))
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, ... (100 items)]'
    >>> _show(1.3862943611198908, digits=6)
    '1.38629'
    """
    if isinstance(value, list):
        items, used = [], 2
        for item in value:
            text = _show(item, limit, digits)
            if items and used + len(text) > limit:
                return "[" + ", ".join(items) + f", ... ({len(value)} items)]"
            items.append(text)
            used += len(text) + 2
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        text = json.dumps(value)
        return text if len(text) <= limit else text[:limit] + "...}"
    text = _number(value, digits)
    return text if len(text) <= 2 * limit else text[:2 * limit] + "..."


def error_verdict(result, prefix="your code raised "):
    """The failed :class:`Verdict` for a probe that gave an error (``result["ok"]`` false):
    an answer not given yet is described as such, any other error follows ``prefix``.

    >>> error_verdict({"ok": False, "error": "ZeroDivisionError: division by zero"}).message
    'your code raised ZeroDivisionError: division by zero'
    >>> error_verdict({"ok": False, "error": "Placeholder: x is still ..."}).message
    'x is still ...'
    """
    error = result["error"]
    if error.startswith("Placeholder: "):
        return Verdict(False, error[len("Placeholder: "):])
    return Verdict(False, f"{prefix}{error}")


_error_verdict = error_verdict


def _tolerance(rtol, atol):
    """How far from the expected value an answer may be, in words.

    >>> _tolerance(0, 1e-4)
    '± 0.0001'
    >>> _tolerance(1e-6, 0)
    '± 1e-06 × |expected|'
    """
    if rtol == 0 and atol == 0:
        return "exactly"
    parts = ([f"{atol:g}"] if atol else []) + ([f"{rtol:g} × |expected|"] if rtol else [])
    return "± " + " + ".join(parts)


def _digits(want, rtol, atol):
    """Significant digits that show ``want`` as finely as the tolerance needs (3 to 17)."""
    biggest = max((abs(x) for x in _flat(want) if math.isfinite(x)), default=1.0) or 1.0
    step = atol + rtol * biggest
    if step <= 0:
        return 17
    return max(3, min(17, math.ceil(math.log10(biggest / step)) + 2))


def _mismatch(got, want, rtol, atol):
    """None if ``got`` matches ``want`` (nested lists of floats), else a reason."""
    if isinstance(want, list):
        if not isinstance(got, list):
            return "expected a list or array"
        if len(got) != len(want):
            return f"expected {len(want)} items, got {len(got)}"
        for g, w in zip(got, want, strict=True):
            reason = _mismatch(g, w, rtol, atol)
            if reason:
                return reason
        return None
    if isinstance(got, bool) or not isinstance(got, int | float):
        return "expected a number"
    return None if _numbers_match(float(got), want, rtol, atol) else "wrong value"


def close(expected, rtol=1e-7, atol=1e-10):
    """Check: numbers, arrays or tuples of them equal to ``expected`` within
    ``atol + rtol*|expected|``.

    ``expected`` is a value or a zero-argument callable (evaluated once, lazily, in the
    trusted process). Booleans are not numbers here, lengths must match exactly, and NaN
    matches only an expected NaN. A failed check shows the expected value with this
    tolerance; for a value students type from a printout rounded to 4 decimals, use
    ``rtol=0, atol=1e-4`` or wider.

    >>> close(0.5)({"ok": True, "value": 0.5 + 1e-12}).passed
    True
    >>> close([1.0, 2.0])({"ok": True, "value": [1.0, True]}).passed
    False
    >>> close(([1.0], 2.0))({"ok": True, "value": [[1.0], 2]}).passed
    True
    """
    cache = []

    def want():
        if not cache:
            cache.append(_plain_expected(expected() if callable(expected) else expected))
        return cache[0]

    def check(result):
        if not result["ok"]:
            return _error_verdict(result)
        got, target = result["value"], want()
        reason = _mismatch(got, target, rtol, atol)
        if reason is None:
            return Verdict(True, "correct")
        got_shape, want_shape = _shape(got), _shape(target)
        if want_shape is not None and got_shape is not None and got_shape != want_shape:
            return Verdict(False, f"expected shape {want_shape}, got shape {got_shape}")
        digits = _digits(target, rtol, atol)
        return Verdict(False, f"{reason}: expected {_show(target, digits=digits)} "
                              f"({_tolerance(rtol, atol)}), got {_show(got, digits=digits)}")

    return check


def equal(expected):
    """Check: exactly ``expected`` (plain JSON; types must match, 1 is not True).

    >>> equal([1, 2])({"ok": True, "value": [1, 2]}).passed
    True
    >>> equal(1)({"ok": True, "value": True}).passed
    False
    """

    def same(a, b):
        if type(a) is not type(b):
            return False
        if isinstance(a, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
        if isinstance(a, dict):
            return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        return a == b

    def check(result):
        if not result["ok"]:
            return _error_verdict(result)
        target = expected() if callable(expected) else expected
        if same(result["value"], target):
            return Verdict(True, "correct")
        return Verdict(False, f"expected {_show(target)}, got {_show(result['value'])}")

    return check


def raises(*names):
    """Check: the call raised one of the exception classes ``names`` (e.g. ``"ValueError"``).

    >>> raises("ValueError")({"ok": False, "error": "ValueError: j out of range"}).passed
    True
    """

    def check(result):
        if result["ok"]:
            return Verdict(False, f"expected {' or '.join(names)} to be raised, "
                                  f"got the value {_show(result['value'])}")
        raised = result["error"].split(":", 1)[0]
        if raised in names:
            return Verdict(True, "correct")
        return Verdict(False, f"expected {' or '.join(names)}, got {raised}")

    return check
