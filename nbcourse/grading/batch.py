"""Grade many notebooks: worker processes, ``grades.csv`` and ``results.json``.

:func:`grade_batch` spreads submissions over worker processes, each a ``python -m
nbcourse.grading.batch --worker`` that grades with :func:`~nbcourse.grading.grader.grade_notebook`
and launches the sandbox of its next submission while it grades the current one
(:class:`~nbcourse.grading.grader.Spares`). It prints one progress line per finished
submission and writes ``grades.csv`` plus ``<name>/results.json`` (Gradescope's format) and
the written answers for a person to score (:mod:`nbcourse.grading.written`). Output names are
derived injectively from the input paths (:mod:`nbcourse.grading.names`); every text that
reaches an output file or a progress line is truncated and stripped of control characters.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from . import variants
from .assignment import Limits, load_assignment
from .files import (
    _write_atomic,
    clip,
)
from .grader import GradeResult, Spares, _not_run, grade_notebook, probe_seconds
from .names import check_name, output_names
from .sandbox import check_layout, require_isolation

__all__ = ["BatchResults", "grade_batch", "gradebook_columns", "gradebook_row", "gradescope_results",
           "write_results"]

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


IDENTITY_COLUMNS = ("student_id", "id_source", "id_check", "claimed_id")
"""The identifier the per-student answers were checked for, where it came from, how the
notebook's own STUDENT_ID compares with it (``differs`` and ``look-alike`` flag a claim of
another identifier; see :func:`~nbcourse.grading.variants.id_status`), and that claim."""


def gradebook_row(result):
    """The grades.csv row of one :class:`GradeResult` (numbers as text, one format)."""
    from .gradebook import number

    return {"submission": result.name,
            **{name: number(score) for name, score in result.scores.items()},
            "total": number(result.total), "max": number(result.max_score),
            "status": result.status, "reason": result.reason, "seconds": number(result.seconds),
            "student_id": result.identity.get("student_id", ""),
            "id_source": result.identity.get("source", ""),
            "id_check": result.identity.get("check", ""),
            "claimed_id": result.identity.get("claimed", "")}


# --- batch with worker processes -------------------------------------------------------

class _WorkerProcess:
    """A grading worker subprocess speaking JSON lines on its stdin/stdout."""

    def __init__(self, config):
        self.config = config
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "nbcourse.grading.batch", "--worker"],
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
                allow_per_process_limits=False, regrade=False, base=None, roster=None,
                name=None):
    """Grade ``notebooks`` with ``workers`` worker processes into the folder ``out_dir``.

    Every submission gets a row of ``grades.csv`` (status graded, invalid or error), a
    ``results.json`` in ``out_dir/<name>/`` where ``name`` comes from
    :func:`~nbcourse.grading.names.output_names` (relative to ``base``, else to the base recorded by the folder's first batch if it
    holds every notebook, else to the folder the notebooks share), and its written answers
    in ``written-answers.csv``/``.html``; one progress line is printed per finished
    submission.

    The folder is incremental and resumable: rows of other submissions, the written
    answers and their merged scores and comments are kept; a submission whose row and
    ``results.json`` are already there is not graded again (``regrade=True`` grades it
    again and replaces its row). As each submission finishes, its row is recorded
    (:meth:`~nbcourse.grading.gradebook.OutputFolder.record_finished`) and its
    ``results.json`` written atomically; ``grades.csv`` and the written answers are
    written from these records at the end (:class:`~nbcourse.grading.gradebook.Flushes`),
    so each submission costs the same however many rows the folder holds, and a batch
    stopped at any point (Ctrl-C, ``kill -9``) resumes where it stopped when run again.

    ``roster`` (a :class:`~nbcourse.grading.variants.Roster`) names each submission's owner,
    whose identifier per-student answers are checked for; a submission it does not list, or
    every submission without one, falls back to the notebook's ``STUDENT_ID``, flagged
    ``unverified`` in grades.csv and results.json.

    The folder remembers how it was made (``.nbcourse/batch.json``): the assignment, the
    base of its names and the roster. A later batch (late work, a regrade, a resumed batch)
    that contradicts it is refused with a ValueError saying what to pass: a roster (or no
    roster) that would give a row already graded another owner
    (:meth:`~nbcourse.grading.gradebook.OutputFolder.check_roster`), a notebook outside the
    recorded base without ``base``, or a ``base`` that renames notebooks the recorded one
    holds (:meth:`~nbcourse.grading.gradebook.OutputFolder.base`). ``name`` gives a single
    notebook its output name explicitly (as grades.csv shows it).

    Returns
    -------
    BatchResults
        The results of the submissions graded now, in the order of ``notebooks``, with
        ``replaced`` and ``kept`` names.

    Raises
    ------
    IsolationError
        Before grading anything, if the required isolation is unavailable, or a folder
        bound into every sandbox holds the assignment, ``out_dir``, a notebook or the
        roster's file (:func:`~nbcourse.grading.sandbox.check_layout`).
    ValueError
        If ``out_dir`` holds another assignment's grades, if ``base`` does not hold
        every notebook, or if the batch contradicts how ``out_dir`` was made (above).
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
    check_layout(assignment.path, out_dir, notebooks, getattr(roster, "path", None))
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    folder = OutputFolder(out_dir)
    notebooks = [Path(p) for p in notebooks]
    if name is not None:
        check_name(name)
        if len(notebooks) != 1 or base is not None:
            raise ValueError(f"argument --name: expected one submission and no --base, got "
                             f"{len(notebooks)} submissions"
                             + (" and --base" if base is not None else ""))
    columns = gradebook_columns(assignment)
    with folder.lock():
        folder.claim(assignment.name)
        rows = folder.read_rows(columns)
        names = ([name] if name is not None
                 else output_names(notebooks, folder.base(notebooks, base),
                                   folder.names_fold_case(rows)))
        folder.check_roster(roster, rows)
        written = folder.load_written()
        export = WrittenExport(assignment.path, out_dir)
        recovered = folder.finished()
        if recovered:  # a batch stopped between two rewrites: finish its bookkeeping
            for entry in recovered:  # answers taken again, unless the notebook is gone
                if os.path.isfile(str(entry.get("notebook", ""))):
                    export.update(entry["name"], entry["notebook"], write=False)
            export.order(list(rows))
            folder.write_grades(columns, rows, written)
            export.finish()
            folder.clear_finished()
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
    from .gradebook import Flushes

    lock = threading.Lock()
    done = [0]
    flushes = Flushes()
    width = len(str(len(todo)))
    # the worker enforces the total and the probes' own budget itself
    timeout = limits.total_timeout + probe_seconds(assignment.questions, limits) + 30.0

    def flush():
        """Rewrite grades.csv and the written answers: earlier rows first, then this
        batch's in the order given (not the order finished)."""
        with flushes.timing():
            order = earlier + [names[j] for j in todo if names[j] in rows and names[j] not in before]
            ordered = {n: rows[n] for n in order}
            rows.clear()
            rows.update(ordered)
            export.order(order)
            folder.write_grades(columns, rows, written)
            export.finish()
            folder.clear_finished()

    def finish(i, result):
        """Record one submission: its row and written answers, then results.json (last:
        its presence says the submission is done)."""
        name = names[i]
        again = name in rows
        rows[name] = gradebook_row(result)
        export.update(name, notebooks[i], write=False)
        folder.record_finished(name, rows[name], os.path.abspath(notebooks[i]))
        try:
            write_results(result, out_dir / name, written)
        except OSError as exc:
            result.reason = clip(f"{result.reason}; results.json not written ({exc})")
            rows[name] = gradebook_row(result)
            folder.record_finished(name, rows[name], os.path.abspath(notebooks[i]))
        results[i] = result
        if again:
            replaced.append(i)
        done[0] += 1
        if flushes.due() or done[0] == len(todo):
            flush()
        if progress:  # the total and maximum of grades.csv, written answers included
            extra = written.points(name) if written.merged else {}
            progress(f"[{done[0]:>{width}}/{len(todo)}] {clip(name, 200)}: "
                     f"{round(result.total + sum(extra.values()), 6):g}/"
                     f"{round(result.max_score + written.max_points * written.merged, 6):g} "
                     f"in {result.seconds:.1f} s "
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
    if folder.finished():  # a worker thread that stopped early left rows unwritten
        flush()
    order = [i for i in todo if i in results]
    return BatchResults([results[i] for i in order], [names[i] for i in sorted(replaced)],
                        [names[i] for i in range(len(names)) if i not in todo])


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        _worker_main()
