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

:func:`grade_batch` spreads submissions over worker processes, prints one progress line per
finished submission and writes ``grades.csv`` plus ``<stem>/results.json`` (Gradescope).
"""

from __future__ import annotations

import ast
import csv
import json
import os
import queue
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import probe as probe_module
from .assignment import Assignment, Limits, load_assignment, parse_results
from .sandbox import KernelDied, Sandbox, Zygote, become_subreaper

__all__ = ["GradeResult", "NotebookError", "grade_batch", "grade_notebook", "read_code_cells"]

MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024
MAX_RESTARTS = 3
PROBE_SOURCE = Path(probe_module.__file__).read_text(encoding="utf-8")


class NotebookError(ValueError):
    """The submission is not a readable Jupyter notebook."""


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

    @property
    def total(self):
        return round(sum(self.scores.values()), 6)

    @property
    def max_score(self):
        return round(sum(self.max_scores.values()), 6)

    def to_dict(self):
        return {"name": self.name, "scores": self.scores, "max_scores": self.max_scores,
                "status": self.status, "reason": self.reason, "seconds": self.seconds,
                "feedback": self.feedback}

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
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_NOTEBOOK_BYTES:
            raise NotebookError(f"notebook is too large ({size} bytes; limit "
                                f"{MAX_NOTEBOOK_BYTES})")
        raw = path.read_bytes()
    except OSError as exc:
        raise NotebookError(f"cannot read notebook: {exc.strerror}") from None
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
        raise NotebookError(f"expected nbformat 4, got {nb.get('nbformat')!r}")
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
    text = (entry.get("data") or {}).get("text/plain")
    if not isinstance(text, str) or len(text) > 3 * 4_000_000:
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if type(value) is str else None


class _Run:
    """State of one submission's kernel: executed cells, restarts, notes, deadline."""

    def __init__(self, zygote, limits, hide, cells):
        self.zygote, self.limits, self.hide, self.cells = zygote, limits, hide, cells
        self.deadline = time.monotonic() + limits.total_timeout
        self.executed: list[int] = []
        self.notes: list[str] = []
        self.restarts = 0
        self.sandbox = None

    def remaining(self):
        return self.deadline - time.monotonic()

    def start(self):
        self.sandbox = Sandbox(self.zygote, self.limits, self.hide)
        self.sandbox.start(timeout=min(30.0, max(self.remaining(), 1.0)))

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
            self.notes.append(f"kernel restart failed ({exc})")
            self.sandbox = None
            return False
        for i in list(self.executed):
            reply = self.sandbox.execute(self.cells[i], self._cell_time())
            if reply.status not in ("ok", "error"):
                self.notes.append(f"cell {i + 1} failed when replayed")
                self.executed.remove(i)
                if reply.stuck or not self.sandbox.alive():
                    return self.restart()
        return True

    def _broken(self, reply):
        return reply.status == "dead" or reply.stuck or not self.sandbox.alive()

    def _cell_time(self):
        return max(0.1, min(self.limits.cell_timeout, self.remaining()))

    def run_cells(self):
        for i, code in enumerate(self.cells):
            if self.remaining() <= 0:
                self.notes.append(f"total time limit reached before cell {i + 1}")
                return
            if not self.sandbox.alive() and self.executed:
                culprit = self.executed.pop()  # the kernel died after answering that cell
                self.notes.append(f"cell {culprit + 1} stopped the kernel")
                if not self.restart():
                    return
            reply = self.sandbox.execute(code, self._cell_time())
            if reply.status in ("ok", "error"):
                self.executed.append(i)
                continue
            what = "timed out" if reply.status == "timeout" else "stopped the kernel"
            self.notes.append(f"cell {i + 1} {what}")
            if self._broken(reply) and not self.restart():
                return

    def extract(self, question):
        """Evaluate the question's probes; return one result record per probe."""
        probes = question.probes()
        missing = [{"ok": False, "error": "no result from the notebook"}] * len(probes)
        if self.sandbox is None or self.remaining() <= 0:
            return missing
        nonce = secrets.token_hex(16)
        expression = probe_expression(probes, nonce, self.limits.probe_timeout)
        timeout = min(self.remaining(), self.limits.probe_timeout * len(probes) + 5.0)
        reply = self.sandbox.execute("", max(timeout, 0.5), {"r": expression}, silent=True)
        if reply.status != "ok":
            failed = "timed out" if reply.status == "timeout" else "failed"
            self.notes.append(f"{question.name}: checking {failed}")
            if self._broken(reply):
                self.restart()
            return missing
        text = _payload(reply)
        try:
            return parse_results(text, nonce, len(probes))
        except ValueError as exc:
            self.notes.append(f"{question.name}: unreadable results ({exc})")
            return missing

    def close(self):
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None


_ZYGOTE: Zygote | None = None


def _zygote():
    global _ZYGOTE
    if _ZYGOTE is None or not _ZYGOTE.alive():
        _ZYGOTE = Zygote()
    return _ZYGOTE


def _score(assignment, name, records_by_question, status, reason, seconds):
    scores, max_scores, feedback = {}, {}, {}
    for question in assignment.questions:
        score, verdicts = question.score(records_by_question[question.name])
        scores[question.name], max_scores[question.name] = score, question.points
        total_weight = sum(t.weight for t in question.tests)
        feedback[question.name] = [
            {"test": t.name, "hidden": t.hidden, "passed": v.passed, "message": v.message,
             "points": question.points * t.weight / total_weight}
            for t, v in zip(question.tests, verdicts, strict=True)]
    return GradeResult(name, scores, max_scores, status, reason, round(seconds, 3), feedback)


def grade_notebook(assignment, path, limits=None, hide=(), name=None, zygote=None):
    """Grade the notebook at ``path``; never raises for a bad submission.

    Parameters
    ----------
    assignment : Assignment or path-like
        The assignment, or its folder.
    path : path-like
        The submitted .ipynb.
    limits : Limits, optional
        Defaults to the assignment's limits.
    hide : sequence of path-like
        Paths the kernel must not see (``namespace`` isolation).

    Returns
    -------
    GradeResult
    """
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
        return _score(assignment, name, empty, "invalid", str(exc), time.monotonic() - start)
    run = _Run(zygote or _zygote(), limits, [str(p) for p in hide], cells)
    try:
        try:
            run.start()
        except KernelDied:  # a transient failure before any student code ran: once more
            run.close()
            run.start()
        run.run_cells()
        records = {q.name: run.extract(q) for q in assignment.questions}
        status = "graded"
    except KernelDied as exc:
        records, status = empty, "error"
        run.notes.append(f"sandbox failure: {exc}")
    finally:
        run.close()
    return _score(assignment, name, records, status, "; ".join(run.notes),
                  time.monotonic() - start)


# --- output files ----------------------------------------------------------------------


def gradescope_results(result):
    """Gradescope's results.json for one :class:`GradeResult` (hidden values never shown)."""
    tests = []
    for qname, items in result.feedback.items():
        for hidden in (False, True):
            part = [f for f in items if f["hidden"] is hidden]
            if not part:
                continue
            max_score = sum(f["points"] for f in part)
            score = sum(f["points"] for f in part if f["passed"])
            lines = [f"{'PASS' if f['passed'] else 'FAIL'} {f['test']}"
                     + ("" if hidden or f["passed"] else f": {f['message']}") for f in part]
            tests.append({"name": f"{qname} ({'hidden' if hidden else 'public'} tests)",
                          "score": round(score, 4), "max_score": round(max_score, 4),
                          "output": "\n".join(lines),
                          "visibility": "after_published" if hidden else "visible"})
    output = f"Status: {result.status}." + (f" {result.reason}" if result.reason else "")
    return {"score": round(result.total, 4), "output": output, "tests": tests,
            "execution_time": round(result.seconds, 3)}


def write_results(result, folder):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "results.json"
    tmp = folder / "results.json.tmp"
    tmp.write_text(json.dumps(gradescope_results(result), indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, target)
    return target


def write_gradebook(assignment, results, path):
    names = [q.name for q in assignment.questions]
    tmp = Path(str(path) + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["submission", *names, "total", "max", "status", "reason", "seconds"])
        for r in results:
            writer.writerow([r.name, *[r.scores.get(n, 0.0) for n in names], r.total,
                             r.max_score, r.status, r.reason, r.seconds])
    os.replace(tmp, path)


# --- batch with worker processes -------------------------------------------------------


def hide_paths(assignment, out_dir, notebooks):
    """Paths the kernels must not see: assignment, repository, nbcourse, outputs, inputs."""
    import nbcourse

    from .sandbox import _kernel_sys_path

    candidates = {Path(assignment.path), Path(out_dir), Path(nbcourse.__file__).parent}
    candidates |= {Path(p).resolve().parent for p in notebooks}
    root = Path(assignment.path).resolve()
    while root != root.parent and not (root / ".git").exists():
        root = root.parent
    if (root / ".git").exists():
        candidates |= set(root.iterdir())
    import tempfile

    needed = [Path(p).resolve() for p in
              (sys.prefix, sys.base_prefix, tempfile.gettempdir(), *_kernel_sys_path())]
    keep = []
    for path in sorted({p.resolve() for p in candidates if p.exists()}):
        if any(n == path or path in n.parents for n in needed):
            continue
        keep.append(str(path))
    return keep


def _unique_names(paths):
    seen, names = {}, []
    for p in paths:
        stem = Path(p).stem or "submission"
        seen[stem] = seen.get(stem, 0) + 1
        names.append(stem if seen[stem] == 1 else f"{stem}-{seen[stem]}")
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

    def grade(self, path, name, timeout):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps({"path": str(path), "name": name}) + "\n")
        self.proc.stdin.flush()
        line = _readline(self.proc.stdout, timeout)
        if not line:
            self.stop()
            raise RuntimeError("grading worker stopped or hung")
        return GradeResult.from_dict(json.loads(line))

    def stop(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.stdin.close()
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.proc = None


def _readline(stream, timeout):
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        if not sel.select(timeout):
            return ""
    return stream.readline()


def _worker_main():
    """Worker loop: first line is the config, then one task per line, one reply per line."""
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # nothing else may write to the protocol pipe
    become_subreaper()
    config = json.loads(sys.stdin.readline())
    assignment = load_assignment(config["assignment"])
    limits = Limits(**config["limits"])
    for line in sys.stdin:
        task = json.loads(line)
        try:
            result = grade_notebook(assignment, task["path"], limits, config["hide"],
                                    task["name"])
        except Exception as exc:  # keep the batch going; record the failure
            result = _score(assignment, task["name"], {
                q.name: [{"ok": False, "error": "not run"}] * len(q.probes())
                for q in assignment.questions}, "error", f"grader error: {exc!r}"[:300], 0.0)
        protocol.write(json.dumps(result.to_dict()) + "\n")
        protocol.flush()


def grade_batch(assignment_dir, notebooks, out_dir, workers=2, limits=None, progress=print):
    """Grade ``notebooks`` with ``workers`` worker processes; write grades.csv and results.

    Every submission gets a row (status graded, invalid or error) and a results.json;
    one progress line is printed per finished submission.

    Returns
    -------
    list of GradeResult, in the order of ``notebooks``.
    """
    assignment = load_assignment(assignment_dir)
    limits = limits or assignment.limits
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    notebooks = [Path(p) for p in notebooks]
    names = _unique_names(notebooks)
    config = {"assignment": str(assignment.path), "limits": limits.__dict__,
              "hide": hide_paths(assignment, out_dir, notebooks)}
    tasks: queue.Queue = queue.Queue()
    for i in range(len(notebooks)):
        tasks.put(i)
    results: list[GradeResult | None] = [None] * len(notebooks)
    lock = threading.Lock()
    done = [0]
    width = len(str(len(notebooks)))
    timeout = limits.total_timeout * (MAX_RESTARTS + 2) + 60

    def work():
        worker = _WorkerProcess(config)
        try:
            while True:
                try:
                    i = tasks.get_nowait()
                except queue.Empty:
                    return
                try:
                    result = worker.grade(notebooks[i].resolve(), names[i], timeout)
                except Exception as exc:
                    result = _score(assignment, names[i], {
                        q.name: [{"ok": False, "error": "not run"}] * len(q.probes())
                        for q in assignment.questions}, "error", f"grader error: {exc}", 0.0)
                write_results(result, out_dir / names[i])
                with lock:
                    results[i] = result
                    done[0] += 1
                    if progress:
                        progress(f"[{done[0]:>{width}}/{len(notebooks)}] {names[i]}: "
                                 f"{result.total:g}/{result.max_score:g} in "
                                 f"{result.seconds:.1f} s ({result.status})")
        finally:
            worker.stop()

    threads = [threading.Thread(target=work, daemon=True)
               for _ in range(max(1, min(workers, len(notebooks))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    write_gradebook(assignment, results, out_dir / "grades.csv")
    return results


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        _worker_main()
