"""Grade notebooks: run each in a sandboxed kernel, extract plain values, score them here.

Flow for one submission (:func:`grade_notebook`):

1. read the .ipynb strictly (size, UTF-8, JSON, nbformat 4) and keep only code cells;
2. run the cells one by one in a fresh :class:`~nbcourse.grading.sandbox.Sandbox` with a
   per-cell and a total time limit; a cell that times out is interrupted, a kernel that
   dies is restarted and the cells that ran before are replayed, so honest work that
   precedes or follows a bad cell still counts;
3. for each question, evaluate its probes through a ``user_expressions`` entry (no input
   transformers, no iopub) that returns one string framed by a fresh random nonce;
4. parse that string strictly in this process and score it with the assignment's checks.

:func:`grade_batch` spreads submissions over worker processes (each launches the sandbox of
its next submission while it grades the current one: :class:`Spares`), prints one progress
line per finished submission and writes ``grades.csv`` plus ``<path>/results.json``
(Gradescope), and the written answers for a person to score
(:mod:`nbcourse.grading.written`).

Everything read from a submission is untrusted: the notebook is read only if it is a
regular file (no symlink, FIFO or device) within a size cap; the kernel's reply is parsed
with limits checked first; every text that reaches an output file or a progress line is
truncated, stripped of control characters, and neutralised where a spreadsheet would
read it as a formula; output names are derived injectively from the input paths.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import subprocess
import sys
import threading
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from . import probe as probe_module
from . import variants
from .assignment import MAX_PAYLOAD, Assignment, Limits, load_assignment, parse_results
from .files import (
    MAX_NOTEBOOK_BYTES,
    NotebookError,
    _write_atomic,
    clip,
    read_regular_file,
)
from .sandbox import Flood, IsolationError, KernelDied, Sandbox, require_isolation

__all__ = ["BatchResults", "GradeResult", "IsolationError", "NotebookError", "Spares", "grade_batch",
           "grade_notebook", "output_names", "read_code_cells"]

MAX_RESTARTS = 3
MAX_NAME = 200  # characters of one path component of an output name
PROBE_SOURCE = Path(probe_module.__file__).read_text(encoding="utf-8")


@dataclass
class GradeResult:
    """Grade of one submission."""

    name: str
    scores: dict[str, float]
    max_scores: dict[str, float]
    status: str  # graded, invalid or error
    reason: str = ""
    seconds: float = 0.0
    feedback: dict[str, list[dict]] = field(default_factory=dict)
    identity: dict = field(default_factory=dict)  # variants.id_status
    # what the student may see before publication: the status and notes as they stood
    # before any hidden test ran (None: the same as status and reason)
    shown: list[str] | None = None

    @property
    def total(self):
        return round(sum(self.scores.values()), 6)

    @property
    def max_score(self):
        return round(sum(self.max_scores.values()), 6)

    def to_dict(self):
        return {"name": self.name, "scores": self.scores, "max_scores": self.max_scores,
                "status": self.status, "reason": self.reason, "seconds": self.seconds,
                "feedback": self.feedback, "identity": self.identity, "shown": self.shown}

    @classmethod
    def from_dict(cls, data):
        return cls(**data)


# --- reading ---------------------------------------------------------------------------


def read_code_cells(path):
    """Return the source of each code cell of the notebook at ``path``.

    Raises
    ------
    NotebookError
        If the file is too large, not UTF-8, not JSON, or not an nbformat 4 notebook.
    """
    raw = read_regular_file(path, MAX_NOTEBOOK_BYTES)
    try:
        text = raw.decode("utf-8")
        nb = json.loads(text)
    except UnicodeDecodeError as exc:
        raise NotebookError(f"notebook is not UTF-8 text (byte {exc.start})") from None
    except (ValueError, RecursionError) as exc:
        raise NotebookError(f"notebook is not valid JSON ({str(exc)[:120]})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError("notebook has no list of cells (expected nbformat 4)")
    if nb.get("nbformat") != 4:
        raise NotebookError(f"expected nbformat 4, got {clip(repr(nb.get('nbformat')), 60)}")
    cells = []
    for i, cell in enumerate(nb["cells"]):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {i} is not an object")
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError(f"cell {i} has no text source")
        cells.append(source)
    return cells


# --- running ---------------------------------------------------------------------------


def probe_expression(probes, nonce, seconds):
    """The ``user_expressions`` entry that evaluates ``probes`` in the student's namespace."""
    # Builtins are reached through __builtins__, so a notebook that names a variable
    # ``exec`` or ``globals`` does not break its own grading.
    return (f"(lambda _b, _g: (_b.exec({PROBE_SOURCE!r}, _g), _g['run']({probes!r}, {nonce!r}, "
            f"_b.globals(), {float(seconds)!r}))[1])(__builtins__, {{'__name__': '_nbcourse_probe'}})"
            )


def _payload(reply):
    """The framed string from a ``user_expressions`` reply, or None."""
    entry = (reply.user_expressions or {}).get("r")
    if not isinstance(entry, dict) or entry.get("status") != "ok":
        return None
    return parse_str_repr((entry.get("data") or {}).get("text/plain"))


def parse_str_repr(text, limit=MAX_PAYLOAD):
    r"""Parse ``repr(s)`` of a printable-ASCII string ``s`` of at most ``limit`` characters
    (what the probe returns), in linear time; None for anything else.

    The size is checked before any work; only the escapes ``repr`` uses for printable
    ASCII (``\\``, ``\'``, ``\"``) are accepted.

    >>> parse_str_repr(repr('N[{"a":1}]N' + "'" + '"' + "\\"))
    'N[{"a":1}]N\'"\\'
    >>> parse_str_repr("'" + "x" * 10 + "'", limit=5) is None
    True
    """
    if type(text) is not str or not 2 <= len(text) <= 2 * limit + 2:
        return None
    quote = text[0]
    if quote not in "'\"" or text[-1] != quote or not text.isascii():
        return None
    body = text[1:-1]
    if not body.isprintable():
        return None
    parts = body.split("\\\\")  # escaped backslashes
    out = []
    for part in parts:
        if "\\" in part.replace("\\'", "").replace('\\"', ""):
            return None  # an escape repr would not produce here
        if quote in part.replace("\\" + quote, ""):
            return None  # an unescaped closing quote inside the literal
        out.append(part.replace("\\'", "'").replace('\\"', '"'))
    value = "\\".join(out)
    return value if len(value) <= limit else None


def _cell_error(reply):
    """``"SyntaxError: invalid syntax (line 3)"`` from a failed cell's reply, without the
    kernel's temporary file name (``(<file>, line 3)`` at the end). Linear in the text.

    >>> from types import SimpleNamespace as R
    >>> _cell_error(R(ename="SyntaxError", evalue="invalid syntax (/tmp/x.py, line 3)"))
    'SyntaxError: invalid syntax (line 3)'
    """
    value = reply.evalue.strip()
    head, paren, tail = value.rpartition("(")
    where, comma, line = tail.rpartition(", line ")
    if paren and comma and ")" not in where and line.endswith(")") and line[:-1].isdigit() \
            and line[:-1].isascii():
        value = f"{head}(line {line}"
    return clip(f"{reply.ename}: {value}" if value else reply.ename or "error", 200)


def _defined(cells):
    """``defined(i)``: the names code cell ``i`` defines, found once per cell."""
    from .check import defined_names

    found = {}

    def defined(i):
        if i not in found:
            found[i] = defined_names(cells[i])
        return found[i]

    return defined


def probe_seconds(questions, limits):
    """The time reserved for evaluating the probes of ``questions``, beyond the total time
    limit of the cells: ``probe_timeout`` per probe and 5 s per question."""
    return sum(limits.probe_timeout * len(q.probes()) + 5.0 for q in questions)


class Spares:
    """Sandboxes launched one submission ahead, for a worker that grades submissions one
    after another: while one submission's cells run, the kernel of the next one starts.

    Each sandbox serves one submission only (its first kernel or a restart), and nothing of
    a submission is in it before that; at most one waits at a time, and only while
    ``wanted`` says another submission follows. A waiting sandbox that has stopped is
    replaced by a fresh one.
    """

    def __init__(self, limits, tree_limits, extra_seconds):
        self.args = (limits, tree_limits, extra_seconds)
        self.spare = None
        self.wanted = False

    def take(self):
        """The waiting sandbox if it still runs, else a new one (not yet launched)."""
        box, self.spare = self.spare, None
        if box is not None and box.alive():
            return box
        if box is not None:
            box.close()
        return Sandbox(*self.args)

    def prepare(self):
        """Launch the next submission's sandbox, if one is wanted and none waits."""
        if self.spare is not None or not self.wanted:
            return
        box = Sandbox(*self.args)
        try:
            box.launch()
        except (OSError, KernelDied):  # the next submission starts its own
            box.close()
            return
        self.spare = box

    def close(self):
        if self.spare is not None:
            self.spare.close()
            self.spare = None


class _Run:
    """State of one submission's kernel: executed cells, restarts, notes, deadlines.

    Starting, restarting and replaying all count against the one total deadline of the
    cells; the probes have a budget of their own (:func:`probe_seconds`), so that a
    notebook whose later cells use up the total time still has its answers checked.
    ``spares`` (:class:`Spares`, with the same limits) provides the sandboxes and launches
    the next submission's once this one's kernel runs.
    """

    def __init__(self, limits, cells, tree_limits, questions=(), spares=None):
        self.limits, self.cells, self.tree_limits = limits, cells, tree_limits
        self.questions = list(questions)
        self.defined = _defined(cells)
        self.reserve = probe_seconds(self.questions, limits)
        self.spares = spares if spares is not None and spares.args == (
            limits, tree_limits, self.reserve) else None
        self.deadline = time.monotonic() + limits.total_timeout
        self.probe_deadline = None  # set when the probes start
        self.hidden_failed = False  # a hidden test's probes ended the grading
        self.executed: list[int] = []
        self.errors: dict[int, str] = {}  # cell index -> "SyntaxError: ..." on its first run
        self.notes: list[str] = []
        self.restarts = 0
        self.sandbox = None

    def remaining(self):
        return self.deadline - time.monotonic()

    def cell(self, i, what):
        """``"cell 3 timed out (q1)"``: the note for code cell ``i`` naming the questions
        whose probed answers it defines (or that it defines none)."""
        names = [q.name for q in self.questions
                 if any(p[1] in self.defined(i) for p in q.probes())]
        return f"cell {i + 1} {what} ({', '.join(names) if names else 'no graded answer'})"

    def start(self):
        if self.remaining() <= 0:
            raise KernelDied("total time limit reached before the kernel started")
        self.sandbox = (self.spares.take() if self.spares is not None
                        else Sandbox(self.limits, self.tree_limits, extra_seconds=self.reserve))
        self.sandbox.start(timeout=min(30.0, self.remaining()))
        if self.spares is not None:
            self.spares.prepare()

    def restart(self):
        """Fresh kernel; replay the cells that ran before. False if out of budget."""
        self.sandbox.close()
        self.sandbox = None
        self.restarts += 1
        if self.restarts > MAX_RESTARTS or self.remaining() <= 1:
            self.notes.append("too many kernel restarts" if self.restarts > MAX_RESTARTS
                              else "total time limit reached")
            return False
        try:
            self.start()
        except (KernelDied, OSError) as exc:
            self.notes.append(f"kernel restart failed ({clip(exc, 200)})")
            self.close()
            return False
        for i in list(self.executed):
            if self.remaining() <= 0:
                self.notes.append(f"total time limit reached replaying cell {i + 1}")
                self.close()
                return False
            reply = self.sandbox.execute(self.cells[i], self._cell_time())
            if reply.status not in ("ok", "error"):
                self.notes.append(self.cell(i, "failed when replayed"))
                self.executed.remove(i)
                if reply.stuck or not self.sandbox.alive():
                    return self.restart()
        return True

    def _broken(self, reply):
        return reply.status == "dead" or reply.stuck or not self.sandbox.alive()

    def _cell_time(self):
        return max(0.0, min(self.limits.cell_timeout, self.remaining()))

    def run_cells(self):
        for i, code in enumerate(self.cells):
            if self.sandbox is None:
                return
            if self.remaining() <= 0:
                self.notes.append(f"total time limit reached before cell {i + 1}")
                return
            if not self.sandbox.alive() and self.executed:
                culprit = self.executed.pop()  # the kernel died after answering that cell
                self.notes.append(self.cell(culprit, "stopped the kernel"))
                if not self.restart():
                    return
            reply = self.sandbox.execute(code, self._cell_time())
            if reply.status in ("ok", "error"):
                self.executed.append(i)
                if reply.status == "error":
                    self.errors[i] = _cell_error(reply)
                continue
            what = "timed out" if reply.status == "timeout" else "stopped the kernel"
            self.notes.append(self.cell(i, what))
            if self._broken(reply) and not self.restart():
                return

    def failed_definitions(self, question):
        """Notes naming each cell that defines a name the question probes and failed
        (after its last successful definition)."""
        notes = []
        for name in dict.fromkeys(p[1] for p in question.probes()):
            last = None  # (cell, error) of the latest cell that defines name, if it failed
            for i in sorted(self.executed):
                if name in self.defined(i):
                    last = (i, self.errors[i]) if i in self.errors else None
            if last is not None:
                notes.append(f"{question.name}: the cell that defines {name} (code cell "
                             f"{last[0] + 1}) failed with {last[1]}")
        return notes

    def extract(self, question, tests=None, label=None):
        """Evaluate the probes of ``tests`` (by default all of the question's); return one
        result record per probe."""
        probes = [p.as_tuple() for t in (question.tests if tests is None else tests)
                  for p in t.probes]
        if not probes:
            return []
        missing = [{"ok": False, "error": "no result from the notebook"}] * len(probes)
        if self.probe_deadline is None:
            self.probe_deadline = time.monotonic() + self.reserve
        left = self.probe_deadline - time.monotonic()
        if self.sandbox is None or left <= 0:
            return missing
        nonce = secrets.token_hex(16)
        expression = probe_expression(probes, nonce, self.limits.probe_timeout)
        timeout = min(left, self.limits.probe_timeout * len(probes) + 5.0)
        reply = self.sandbox.execute("", max(timeout, 0.0), {"r": expression}, silent=True)
        if reply.status != "ok":
            failed = "timed out" if reply.status == "timeout" else "failed"
            self.notes.append(f"{label or question.name}: checking {failed}")
            if self._broken(reply):
                self.restart()
            return missing
        text = _payload(reply)
        try:
            return parse_results(text, nonce, len(probes))
        except ValueError as exc:
            self.notes.append(f"{label or question.name}: unreadable results "
                              f"({clip(exc, 200)})")
            return missing

    def close(self):
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None


def _claim(assignment, records_by_question):
    """The probe record of the notebook's ``STUDENT_ID``, if a question reads it."""
    for question in assignment.questions:
        for probe, record in zip(question.probes(), records_by_question[question.name],
                                 strict=False):
            if probe == ("value", "STUDENT_ID"):
                return record
    return None


def _extract_all(run, assignment):
    """The result records of every question, public tests first: the probes of every
    public test of every question run before any hidden test's, so nothing a hidden test
    passes to the student's code can reach what is shown of a public test. Returns the
    records and the notes made before the first hidden probe."""
    records = {q.name: [None] * len(q.probes()) for q in assignment.questions}
    missing = {"ok": False, "error": "no result from the notebook"}

    def place(question, hidden):
        tests = [t for t in question.tests if t.hidden is hidden]
        got = iter(run.extract(question, tests,
                               f"{question.name} (hidden tests)" if hidden else None))
        i = 0
        for t in question.tests:
            for _ in t.probes:
                if t.hidden is hidden:
                    records[question.name][i] = next(got, missing)
                i += 1

    for q in assignment.questions:
        place(q, False)
    shown = list(run.notes)
    try:
        for q in assignment.questions:
            place(q, True)
    except Flood as exc:  # keeps what the public tests found
        run.notes.append(f"grading stopped: {clip(exc, 300)}")
        run.hidden_failed = True
    return {k: [r or missing for r in v] for k, v in records.items()}, shown


def _score(assignment, name, records_by_question, status, reason, seconds, identity=None):
    scores, max_scores, feedback = {}, {}, {}
    for question in assignment.questions:
        with variants.owner(identity):
            score, verdicts = question.score(records_by_question[question.name])
        scores[question.name], max_scores[question.name] = score, question.points
        total_weight = sum(t.weight for t in question.tests)
        feedback[question.name] = [
            {"test": clip(t.name, 200), "hidden": t.hidden, "passed": v.passed,
             "message": clip(v.message, 500), "points": question.points * t.weight / total_weight}
            for t, v in zip(question.tests, verdicts, strict=True)]
    return GradeResult(name, scores, max_scores, status, clip(reason), round(seconds, 3),
                       feedback, variants.id_status(identity,
                                                    _claim(assignment, records_by_question)))


def _not_run(assignment, name, status, reason, identity=None):
    return _score(assignment, name, {q.name: [{"ok": False, "error": "not run"}] * len(q.probes())
                                     for q in assignment.questions}, status, reason, 0.0,
                  identity)


def grade_notebook(assignment, path, limits=None, name=None, allow_per_process_limits=False,
                   identity=None, spares=None):
    """Grade the notebook at ``path``; never raises for a bad submission.

    Parameters
    ----------
    assignment : Assignment or path-like
        The assignment, or its folder (loaded with its hidden tests).
    path : path-like
        The submitted .ipynb.
    limits : Limits, optional
        Defaults to the assignment's limits.
    allow_per_process_limits : bool
        Grade even where whole-tree limits are unavailable (see
        :func:`~nbcourse.grading.sandbox.require_isolation`).
    identity : variants.Identity, optional
        The owner, from a roster or Gradescope: per-student answers are checked for them.
        Without it the notebook's own ``STUDENT_ID`` is used, flagged as unverified.
    spares : Spares, optional
        Sandboxes launched ahead (with these limits): the kernel is taken from it, and the
        next submission's sandbox is launched once this one's kernel runs.

    Returns
    -------
    GradeResult

    Raises
    ------
    IsolationError
        If the sandbox (or whole-tree limits, unless allowed) is unavailable.
    """
    found = require_isolation(allow_per_process_limits)
    start = time.monotonic()
    if not isinstance(assignment, Assignment):
        assignment = load_assignment(assignment)
    limits = limits or assignment.limits
    name = name or Path(path).stem
    empty = {q.name: [{"ok": False, "error": "not run"}] * len(q.probes())
             for q in assignment.questions}
    try:
        cells = read_code_cells(path)
    except NotebookError as exc:
        return _score(assignment, name, empty, "invalid", str(exc), time.monotonic() - start,
                      identity)
    run = _Run(limits, cells, found.tree_limits, assignment.questions, spares)
    try:
        try:
            run.start()
        except KernelDied:  # a transient failure before any student code ran: once more
            run.close()
            run.start()
        run.run_cells()
        for q in assignment.questions:
            run.notes.extend(run.failed_definitions(q))
        records, shown = _extract_all(run, assignment)
        status = "error" if run.hidden_failed else "graded"
        shown = ["graded", clip("; ".join(shown))]
    except Flood as exc:  # the kernel sent more than the grader's link to it may hold
        records, status, shown = empty, "error", None
        run.notes.append(f"grading stopped: {clip(exc, 300)}")
    except (KernelDied, OSError) as exc:
        records, status, shown = empty, "error", None
        run.notes.append(f"sandbox failure: {clip(exc, 300)}")
    finally:
        run.close()
    result = _score(assignment, name, records, status, "; ".join(run.notes),
                    time.monotonic() - start, identity)
    if shown is not None and any(t.hidden for q in assignment.questions for t in q.tests):
        result.shown = shown
    return result


# --- output files ----------------------------------------------------------------------


def gradescope_results(result):
    """Gradescope's results.json for one :class:`GradeResult`.

    Nothing shown before publication depends on a hidden test: hidden tests are one entry
    per question, visible ``after_published``, named by number only (a name may describe
    an input); the total score, which counts hidden passes, is visible after publication
    too; the output shows the status and notes as they stood before the first hidden probe
    ran; and the execution time, which a submission can vary with a hidden input, is not
    written.
    """
    tests = []
    for qname, items in result.feedback.items():
        for hidden in (False, True):
            part = [f for f in items if f["hidden"] is hidden]
            if not part:
                continue
            max_score = sum(f["points"] for f in part)
            score = sum(f["points"] for f in part if f["passed"])
            lines = [f"{'PASS' if f['passed'] else 'FAIL'} hidden test {k}" if hidden else
                     f"{'PASS' if f['passed'] else 'FAIL'} {clip(f['test'], 200)}"
                     + ("" if f["passed"] else f": {clip(f['message'], 500)}")
                     for k, f in enumerate(part, 1)]
            tests.append({"name": f"{qname} ({'hidden' if hidden else 'public'} tests)",
                          "score": round(score, 4), "max_score": round(max_score, 4),
                          "output": "\n".join(lines),
                          "visibility": "after_published" if hidden else "visible"})
    status, reason = result.shown or (result.status, result.reason)
    reason = clip(reason)
    output = (f"Status: {status}." + (f" {reason}" if reason else "")
              + (f" {variants.describe(result.identity)}" if result.identity else ""))
    data = {"score": round(result.total, 4), "output": output, "tests": tests}
    if result.identity:
        data["extra_data"] = {"identity": result.identity}  # Gradescope keeps it, unshown
    if any(f["hidden"] for items in result.feedback.values() for f in items):
        data["visibility"] = "after_published"  # the total counts hidden passes
    return data


def write_results(result, folder, written=None):
    """Write ``folder/results.json`` for ``result``, with the ``written`` scores if given."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    data = gradescope_results(result)
    if written is not None:
        data = written.apply(data, result.name)
    return _write_atomic(folder / "results.json", json.dumps(data, indent=2) + "\n")


def gradebook_columns(assignment):
    """The columns of grades.csv before any written score is merged."""
    return ["submission", *[q.name for q in assignment.questions], "total", "max", "status",
            "reason", "seconds", *IDENTITY_COLUMNS]


IDENTITY_COLUMNS = ("student_id", "id_source", "id_check")
"""The identifier the per-student answers were checked for, where it came from, and how
the notebook's own STUDENT_ID compares with it (``differs`` and ``look-alike`` flag a claim
of another identifier; see :func:`~nbcourse.grading.variants.id_status`)."""


def gradebook_row(result):
    """The grades.csv row of one :class:`GradeResult` (numbers as text, one format)."""
    from .gradebook import number

    return {"submission": result.name,
            **{name: number(score) for name, score in result.scores.items()},
            "total": number(result.total), "max": number(result.max_score),
            "status": result.status, "reason": result.reason, "seconds": number(result.seconds),
            "student_id": result.identity.get("student_id", ""),
            "id_source": result.identity.get("source", ""),
            "id_check": result.identity.get("check", "")}


# --- batch with worker processes -------------------------------------------------------

_RESERVED = {"grades.csv", "results.json", "written-answers.csv", "written-answers.html"}


def accented_latin(char):
    """Whether the non-ASCII ``char`` is a Latin letter with accents (é, ñ, ö: an ASCII
    letter and combining marks, in its composed form), which no reader takes for a plain
    ASCII letter. Every other non-ASCII letter or digit may look like one (Cyrillic а,
    Greek ο, fullwidth ａ, dotless ı, the Ångström sign Å) and is shown escaped.

    >>> [accented_latin(c) for c in "éÅ\u0430\u03bf\uff41\u0131\u212b\u0451"]
    [True, True, False, False, False, False, False, False]
    """
    if unicodedata.normalize("NFC", char) != char:
        return False
    parts = unicodedata.normalize("NFD", char)
    return (len(parts) > 1 and parts[0].isascii() and parts[0].isalpha()
            and all(unicodedata.combining(c) for c in parts[1:]))


def _safe_component(part):
    """Percent-encode one path component so that the encoding is injective and the result
    is a plain, printable file name that is neither hidden nor an output file's name, in
    which no character looks like an ASCII letter or digit that it is not."""
    out = []
    for i, char in enumerate(part):
        keep = (char.isalnum() and (char.isascii() or accented_latin(char))) \
            or char in "-_" or (char == "." and i)
        raw = char.encode("utf-8", "surrogateescape")  # a byte of a non-UTF-8 name is kept
        out.append(char if keep else "".join(f"%{b:02X}" for b in raw))
    safe = "".join(out)
    if safe in _RESERVED:
        safe = f"%{ord(safe[0]):02X}{safe[1:]}"
    if len(safe.encode("utf-8")) > MAX_NAME:
        import hashlib

        digest = hashlib.sha256(part.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        safe = safe[:MAX_NAME - 20].rstrip("%") + "%~" + digest
    return safe


def output_names(paths, base=None):
    """Injective, safe output names for ``paths``: each path relative to ``base`` (by
    default the folder the paths share), one percent-encoded component per folder (so
    per-student folders are kept), never ``.``/``..``, never hidden, never an output file's
    name (``grades.csv``, ``results.json``, the written-answers files). Any byte sequence
    is a name: a byte of a name that is not UTF-8 becomes ``%XX`` like any other. Names
    that look alike stay visibly distinct: a non-ASCII character that could be taken for
    an ASCII one (Cyrillic а in ``аlice``) is percent-encoded (``%D0%B0lice``); accented
    Latin letters (é) are kept.

    >>> output_names(["s/a/hw.ipynb", "s/b/hw.ipynb", "s/hw-2.ipynb"])
    ['a/hw.ipynb', 'b/hw.ipynb', 'hw-2.ipynb']
    >>> output_names(["x/grades.csv", "x/...ipynb", "x/=1+1 é.ipynb", "x/%3D1.ipynb"])
    ['%67rades.csv', '%2E..ipynb', '%3D1%2B1%20é.ipynb', '%253D1.ipynb']
    >>> output_names(["s/a/hw.ipynb"], base="s"), output_names([b"s/caf\\xe9.ipynb".decode(
    ...     "utf-8", "surrogateescape")])
    (['a/hw.ipynb'], ['caf%E9.ipynb'])
    >>> output_names(["s/alice.ipynb", "s/\u0430lice.ipynb"])
    ['alice.ipynb', '%D0%B0lice.ipynb']
    """
    absolute = [os.path.abspath(os.fspath(p)) for p in paths]
    if len(set(absolute)) != len(absolute):
        twice = next(p for i, p in enumerate(absolute) if p in absolute[:i])
        raise ValueError(f"paths must be distinct, got {twice!r} twice")
    if not absolute:
        return []
    if base is None:
        base = os.path.commonpath([os.path.dirname(p) for p in absolute])
    else:
        base = os.path.abspath(os.fspath(base))
        outside = [p for p in absolute if os.path.commonpath([p, base]) != base or p == base]
        if outside:
            raise ValueError(f"base must be a folder that holds every path, got {base!r}, "
                             f"which does not hold {outside[0]!r}")
    names = []
    for p in absolute:
        parts = Path(os.path.relpath(p, base)).parts
        names.append("/".join(_safe_component(c) for c in parts))
    return names


class _WorkerProcess:
    """A grading worker subprocess speaking JSON lines on its stdin/stdout."""

    def __init__(self, config):
        self.config = config
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "nbcourse.grading.grader", "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            cwd="/", close_fds=True)
        self.proc.stdin.write(json.dumps(self.config) + "\n")
        self.proc.stdin.flush()

    def grade(self, path, name, timeout, identity=None, more=False):
        """Grade one submission; ``more``: another will follow (the worker launches its
        sandbox while it grades this one)."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        task = {"path": str(path), "name": name, "more": bool(more),
                "identity": identity.to_dict() if identity is not None else None}
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()
        line = _readline(self.proc.stdout, timeout)
        if not line:
            self.stop(force=True)
            raise RuntimeError("grading worker stopped or exceeded the total time limit")
        return GradeResult.from_dict(json.loads(line))

    def stop(self, force=False):
        if self.proc is not None:
            if self.proc.poll() is None:
                if force:
                    self.proc.kill()  # its sandboxes die with it (--die-with-parent)
                else:
                    self.proc.stdin.close()
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.proc = None


def _readline(stream, timeout, limit=16 * 1024 * 1024):
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        if not sel.select(timeout):
            return ""
    return stream.readline(limit)


def _die_with_parent():
    """SIGKILL this worker when the batch process dies (Linux); its sandboxes follow it."""
    import ctypes
    import signal

    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


def _worker_main():
    """Worker loop: first line is the config, then one task per line, one reply per line."""
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # nothing else may write to the protocol pipe
    _die_with_parent()
    config = json.loads(sys.stdin.readline())
    assignment = load_assignment(config["assignment"])
    limits = Limits(**config["limits"])
    found = require_isolation(config["allow_per_process_limits"])
    spares = Spares(limits, found.tree_limits, probe_seconds(assignment.questions, limits))
    try:
        for line in sys.stdin:
            task = json.loads(line)
            identity = variants.Identity(**task["identity"]) if task.get("identity") else None
            spares.wanted = bool(task.get("more"))
            try:
                result = grade_notebook(assignment, task["path"], limits, task["name"],
                                        config["allow_per_process_limits"], identity, spares)
            except Exception as exc:  # keep the batch going; record the failure
                result = _not_run(assignment, task["name"], "error",
                                  f"grader error: {exc!r}", identity)
            if not spares.wanted:
                spares.close()
            protocol.write(json.dumps(result.to_dict()) + "\n")
            protocol.flush()
    finally:
        spares.close()


class BatchResults(list):
    """The :class:`GradeResult` of each submission graded by one :func:`grade_batch`, in the
    order given, with ``replaced`` (output names whose earlier row and results were
    replaced) and ``kept`` (names already graded in the output folder, not graded again)."""

    def __init__(self, results=(), replaced=(), kept=()):
        super().__init__(results)
        self.replaced, self.kept = list(replaced), list(kept)


def grade_batch(assignment_dir, notebooks, out_dir, workers=2, limits=None, progress=print,
                allow_per_process_limits=False, regrade=False, base=None, roster=None):
    """Grade ``notebooks`` with ``workers`` worker processes into the folder ``out_dir``.

    Every submission gets a row of ``grades.csv`` (status graded, invalid or error), a
    ``results.json`` in ``out_dir/<name>/`` where ``name`` comes from :func:`output_names`
    (relative to ``base``, else to the base recorded by the folder's first batch if it
    holds every notebook, else to the folder the notebooks share), and its written answers
    in ``written-answers.csv``/``.html``; one progress line is printed per finished
    submission.

    The folder is incremental and resumable: rows of other submissions, the written
    answers and their merged scores and comments are kept; a submission whose row and
    ``results.json`` are already there is not graded again (``regrade=True`` grades it
    again and replaces its row). Each submission's files are written as it finishes, its
    ``results.json`` last and atomically, so a batch stopped at any point (Ctrl-C,
    ``kill -9``) resumes where it stopped when run again.

    ``roster`` (a :class:`~nbcourse.grading.variants.Roster`) names each submission's owner,
    whose identifier per-student answers are checked for; a submission it does not list, or
    every submission without one, falls back to the notebook's ``STUDENT_ID``, flagged
    ``unverified`` in grades.csv and results.json.

    Returns
    -------
    BatchResults
        The results of the submissions graded now, in the order of ``notebooks``, with
        ``replaced`` and ``kept`` names.

    Raises
    ------
    IsolationError
        Before grading anything, if the required isolation is unavailable.
    ValueError
        If ``out_dir`` holds another assignment's grades, or ``base`` does not hold
        every notebook.
    OutputBusy
        If another batch or merge is writing to ``out_dir``.
    """
    from .gradebook import OutputFolder
    from .written import WrittenExport

    require_isolation(allow_per_process_limits)
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    assignment = load_assignment(assignment_dir)
    limits = limits or assignment.limits
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    folder = OutputFolder(out_dir)
    notebooks = [Path(p) for p in notebooks]
    columns = gradebook_columns(assignment)
    with folder.lock():
        folder.claim(assignment.name)
        rows = folder.read_rows(columns)
        names = output_names(notebooks, folder.base(notebooks, base))
        written = folder.load_written()
        export = WrittenExport(assignment.path, out_dir)
        done = {n for n in names if n in rows and (out_dir / n / "results.json").is_file()}
        todo = [i for i, n in enumerate(names) if regrade or n not in done]
        kept = [n for n in names if n in done and not regrade]
        if kept and progress:
            shown = ", ".join(clip(n, 200) for n in kept[:5]) + (", ..." if len(kept) > 5 else "")
            progress(f"kept {len(kept)} submission{'s' * (len(kept) != 1)} already graded in "
                     f"{clip(out_dir, 300)} (--regrade grades them again): {shown}")
        for i in todo:  # a regrade stopped halfway is then resumed, not taken as done
            (out_dir / names[i] / "results.json").unlink(missing_ok=True)
        owners = (roster.owners(names, notebooks) if roster is not None
                  else [None] * len(names))
        results = _run_batch(assignment, notebooks, names, todo, workers, limits,
                             allow_per_process_limits, progress, out_dir, folder, columns,
                             rows, written, export, owners)
        export.finish()
    return results


def _run_batch(assignment, notebooks, names, todo, workers, limits, allow_per_process_limits,
               progress, out_dir, folder, columns, rows, written, export, owners):
    config = {"assignment": str(assignment.path), "limits": limits.__dict__,
              "allow_per_process_limits": bool(allow_per_process_limits)}
    tasks: queue.Queue = queue.Queue()
    for i in todo:
        tasks.put(i)
    results: dict[int, GradeResult] = {}
    replaced: list[int] = []
    earlier = list(rows)
    before = set(earlier)
    lock = threading.Lock()
    done = [0]
    width = len(str(len(todo)))
    # the worker enforces the total and the probes' own budget itself
    timeout = limits.total_timeout + probe_seconds(assignment.questions, limits) + 30.0

    def finish(i, result):
        """Record one submission: written answers, its row, then results.json (last: its
        presence says the submission is done)."""
        name = names[i]
        again = name in rows
        rows[name] = gradebook_row(result)
        # earlier rows first, then this batch's in the order given (not the order finished)
        order = earlier + [names[j] for j in todo if names[j] in rows and names[j] not in before]
        ordered = {n: rows[n] for n in order}
        rows.clear()
        rows.update(ordered)
        export.update(name, notebooks[i], order=order)
        folder.write_grades(columns, rows, written)
        try:
            write_results(result, out_dir / name, written)
        except OSError as exc:
            result.reason = clip(f"{result.reason}; results.json not written ({exc})")
            rows[name] = gradebook_row(result)
            folder.write_grades(columns, rows, written)
        results[i] = result
        if again:
            replaced.append(i)
        done[0] += 1
        if progress:
            progress(f"[{done[0]:>{width}}/{len(todo)}] {clip(name, 200)}: "
                     f"{result.total:g}/{result.max_score:g} in {result.seconds:.1f} s "
                     f"({result.status}{', replaced the earlier row' if again else ''})")

    def work():
        worker = _WorkerProcess(config)
        try:
            while True:
                try:
                    i = tasks.get_nowait()
                except queue.Empty:
                    return
                try:
                    result = worker.grade(os.path.abspath(notebooks[i]), names[i], timeout,
                                          owners[i], more=not tasks.empty())
                    result.name = names[i]
                except Exception as exc:
                    result = _not_run(assignment, names[i], "error", f"grader error: {exc}",
                                      owners[i])
                with lock:
                    finish(i, result)
        finally:
            worker.stop()

    threads = [threading.Thread(target=work, daemon=True)
               for _ in range(max(0, min(workers, len(todo))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    order = [i for i in todo if i in results]
    return BatchResults([results[i] for i in order], [names[i] for i in sorted(replaced)],
                        [names[i] for i in range(len(names)) if i not in todo])


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        _worker_main()
