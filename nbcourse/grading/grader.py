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

Many submissions at once: :mod:`nbcourse.grading.batch` (worker processes, each launching the
sandbox of its next submission while it grades the current one with :class:`Spares`).

Everything read from a submission is untrusted: the notebook is read only if it is a
regular file (no symlink, FIFO or device) within a size cap; the kernel's reply is parsed
with limits checked first; every text that reaches an output file or a progress line is
truncated, stripped of control characters, and neutralised where a spreadsheet would
read it as a formula; output names are derived injectively from the input paths.
"""

from __future__ import annotations

import marshal
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import probe as probe_module
from . import variants
from .assignment import MAX_PAYLOAD, Assignment, load_assignment, parse_results
from .cells import read_cells
from .files import NotebookError, clip
from .sandbox import (
    Flood,
    IsolationError,
    KernelDied,
    Sandbox,
    check_layout,
    require_isolation,
)

__all__ = ["GradeResult", "IsolationError", "NotebookError", "Spares", "extract_answers", "grade_notebook",
           "hidden_seconds", "read_code_cells"]

MAX_RESTARTS = 3
PROBE_SOURCE = Path(probe_module.__file__).read_text(encoding="utf-8")
# compiled once here: the kernel runs the same Python (sys.executable), so it loads the code
# object instead of compiling the module's text again for every question
PROBE_CODE = marshal.dumps(compile(PROBE_SOURCE, "<nbcourse probe>", "exec"))


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
        If the file is too large, not UTF-8, not JSON, not an nbformat 4 notebook, or too
        complex to parse within bounded memory (:func:`~nbcourse.grading.cells.read_cells`).
    """
    cells = []
    for i, cell in enumerate(read_cells(path)):
        if cell is None:
            raise NotebookError(f"cell {i} is not an object")
        if cell["cell_type"] != "code":
            continue
        if cell["source"] is None:
            raise NotebookError(f"cell {i} has no text source")
        cells.append(cell["source"])
    return cells


# --- running ---------------------------------------------------------------------------


def probe_expression(probes, nonce, seconds):
    """The ``user_expressions`` entry that evaluates ``probes`` in the student's namespace."""
    # Builtins are reached through __builtins__, so a notebook that names a variable
    # ``exec`` or ``globals`` does not break its own grading.
    return (f"(lambda _b, _g: (_b.exec(_b.__import__('marshal').loads({PROBE_CODE!r}), _g), "
            f"_g['run']({probes!r}, {nonce!r}, "
            f"_b.globals(), {float(seconds)!r}))[1])(__builtins__, {{'__name__': '_nbcourse_probe'}})"
            )


def _payload(reply, key="r"):
    """The framed string of ``key`` in a ``user_expressions`` reply, or None."""
    entry = (reply.user_expressions or {}).get(key)
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
    limit of the cells: ``probe_timeout`` per probe and 5 s per question, twice over: once
    for the round trip that evaluates every question's probes together
    (:meth:`_Run.extract_together`), once more for questions whose results it did not
    bring back, each evaluated on its own."""
    return 2 * sum(limits.probe_timeout * len(q.probes()) + 5.0 for q in questions)


def hidden_seconds(questions, limits):
    """The fixed time of the hidden tests' phase of a run whose length a student may see
    (:func:`grade_notebook`'s ``hidden_seconds``): what :func:`probe_seconds` reserves for
    the hidden tests' probes alone."""
    return 2 * sum(limits.probe_timeout * sum(len(t.probes) for t in q.tests if t.hidden) + 5.0
                   for q in questions if any(t.hidden for t in q.tests))


STOP_SECONDS = 5.0  # beyond a fixed hidden phase: time for its kernel to be stopped


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
    notebook whose later cells use up the total time still has its answers checked (a
    restart while the probes run, and its replay, draw on the probes' budget).
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
        self.together = True  # False once a shared round trip of probes did not come back
        self.hidden_failed = False  # a hidden test's probes ended the grading
        self.executed: list[int] = []
        self.errors: dict[int, str] = {}  # cell index -> "SyntaxError: ..." on its first run
        self.notes: list[str] = []
        self.restarts = 0
        self.sandbox = None

    def remaining(self):
        """Seconds left for starting, running and replaying cells: until the cells' total
        deadline, and once the probes have started (a restart then serves them) until the
        later of that and the probes' own deadline."""
        end = self.deadline if self.probe_deadline is None else max(self.deadline,
                                                                     self.probe_deadline)
        return end - time.monotonic()

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

    def extract_together(self, groups):
        """Evaluate the probes of several ``(question, tests, label)`` groups in one round
        trip, one ``user_expressions`` entry per group, in the order given; return one list
        of result records per group. A group whose results do not come back readable (the
        round trip timed out or the kernel died, its entry failed, or its text was cut) is
        evaluated again on its own by :meth:`extract`, which notes what went wrong; after a
        round trip that did not come back, every later group is evaluated on its own."""
        probes = [[p.as_tuple() for t in tests for p in t.probes] for _, tests, _ in groups]
        found = [[] if not p else None for p in probes]
        together = [k for k, p in enumerate(probes) if p]
        if self.probe_deadline is None:
            self.probe_deadline = time.monotonic() + self.reserve
        left = self.probe_deadline - time.monotonic()
        if self.together and len(together) > 1 and self.sandbox is not None and left > 0:
            nonces = {k: secrets.token_hex(16) for k in together}
            expressions = {f"r{k}": probe_expression(probes[k], nonces[k],
                                                     self.limits.probe_timeout)
                           for k in together}
            timeout = min(left, 5.0 + sum(self.limits.probe_timeout * len(probes[k])
                                          for k in together))
            reply = self.sandbox.execute("", timeout, expressions, silent=True)
            self.together = reply.status == "ok"
            if reply.status == "ok":
                for k in together:
                    try:
                        found[k] = parse_results(_payload(reply, f"r{k}"), nonces[k],
                                                 len(probes[k]))
                    except ValueError:
                        pass
            elif self._broken(reply):
                self.restart()
        return [found[k] if found[k] is not None else self.extract(question, tests, label)
                for k, (question, tests, label) in enumerate(groups)]

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


def extract_answers(run, assignment, hidden_seconds=None):
    """The result records of every question, public tests first: the probes of every
    public test of every question run before any hidden test's, so nothing a hidden test
    passes to the student's code can reach what is shown of a public test. Returns the
    records and the notes made before the first hidden probe.

    With ``hidden_seconds``, the hidden tests' phase takes that fixed time whatever the
    student's code does with their inputs: its probes, restarts and replays stop at that
    budget, the kernel is stopped, and the phase is then padded to ``hidden_seconds`` plus
    ``STOP_SECONDS`` (only a kernel that takes longer than that to stop makes it longer)."""
    records = {q.name: [None] * len(q.probes()) for q in assignment.questions}
    missing = {"ok": False, "error": "no result from the notebook"}

    def place(hidden):
        groups = [(q, [t for t in q.tests if t.hidden is hidden],
                   f"{q.name} (hidden tests)" if hidden else None)
                  for q in assignment.questions]
        for (question, _, _), got in zip(groups, run.extract_together(groups), strict=True):
            got = iter(got)
            i = 0
            for t in question.tests:
                for _ in t.probes:
                    if t.hidden is hidden:
                        records[question.name][i] = next(got, missing)
                    i += 1

    place(False)
    shown = list(run.notes)
    fixed = hidden_seconds is not None and any(t.hidden for q in assignment.questions
                                               for t in q.tests)
    began = time.monotonic()
    if fixed:
        end = began + float(hidden_seconds)
        run.deadline = min(run.deadline, end)
        run.probe_deadline = min(run.probe_deadline or end, end)
    try:
        place(True)
    except Flood as exc:  # keeps what the public tests found
        run.notes.append(f"grading stopped: {clip(exc, 300)}")
        run.hidden_failed = True
    finally:
        if fixed:
            run.close()
            _sleep_until(began + float(hidden_seconds) + STOP_SECONDS)
    return {k: [r or missing for r in v] for k, v in records.items()}, shown


def _sleep_until(moment):
    """Wait until ``time.monotonic()`` reaches ``moment``."""
    while (left := moment - time.monotonic()) > 0:
        time.sleep(left)


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
                   identity=None, spares=None, hidden_seconds=None):
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
    hidden_seconds : float, optional
        Give the hidden tests' phase this fixed time (see :func:`hidden_seconds`), so that
        the length of the run tells nothing of what the hidden tests pass to the student's
        code: for a run whose length the student sees (Gradescope).

    Returns
    -------
    GradeResult

    Raises
    ------
    IsolationError
        If the sandbox (or whole-tree limits, unless allowed) is unavailable, or a folder
        bound into the sandbox holds the assignment or the notebook
        (:func:`~nbcourse.grading.sandbox.check_layout`).
    """
    found = require_isolation(allow_per_process_limits)
    start = time.monotonic()
    if not isinstance(assignment, Assignment):
        assignment = load_assignment(assignment)
    check_layout(assignment.path, submissions=[path])
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
        records, shown = extract_answers(run, assignment, hidden_seconds)
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
