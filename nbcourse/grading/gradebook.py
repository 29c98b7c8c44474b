"""The output folder of a batch, kept across batches: ``grades.csv``, written scores, a lock.

Grading into a folder that already holds grades adds or replaces only the submissions
given, keyed by their output name (:func:`~nbcourse.grading.names.output_names`); every
other row stays, and so does every written score and comment that ``grade-merge`` added.
The written scores are kept in ``OUT/.nbcourse/written-scores.json`` and applied to each
row and each ``results.json`` whenever either is written, so a later batch, a regrade or a
resumed batch cannot lose them. (Output names are never hidden, so ``.nbcourse`` never
meets a submission's folder.)

A batch does not rewrite ``grades.csv`` after every submission, which would make a batch
of ``n`` cost ``n**2`` rows written: each finished submission's row is appended to
``OUT/.nbcourse/finished.jsonl`` (one line, a constant cost, however many rows the folder
holds), and ``grades.csv`` is written from it once, at the end (:class:`Flushes` can also
rewrite it during a batch; by default it does not, since every rewrite costs one write per
row). Whoever opens the folder next (a batch, a resumed batch, ``grade-merge``, a merge of
shards) reads the rows of both, so a batch stopped before its end loses nothing.

Numbers in ``grades.csv`` have one format (:func:`number`): no trailing zeros and no
exponent, at most 6 decimals: ``10``, ``8.5``, ``0.25``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Flushes", "OutputBusy", "OutputFolder", "Written", "number"]

STATE = ".nbcourse"
GRADES = "grades.csv"
WRITTEN_STORE = "written-scores.json"
BATCH = "batch.json"
JOURNAL = "finished.jsonl"
WRITTEN_TEST = " (written answer)"
NUMERIC = {"total", "max", "seconds", "written_max"}
TEXT = {"submission", "status", "reason", "student_id", "id_source", "id_check", "claimed_id"}
#: Columns added to grades.csv after its first release: a gradebook without them is read,
#: with the column empty in its earlier rows.
LATER = ("claimed_id",)


class OutputBusy(RuntimeError):
    """Another batch or merge is writing to the same output folder."""


def number(value):
    """``value`` as grades.csv writes numbers: at most 6 decimals, no trailing zeros.

    >>> [number(10), number(10.0), number(8.50), number(1 / 3), number(-0.0), number(2e-7)]
    ['10', '10', '8.5', '0.333333', '0', '0']
    """
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"a score must be a finite number, got {value!r}")
    text = f"{round(value, 6):.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass
class Written:
    """Hand scores merged by ``grade-merge``: ``questions`` maps each written question to
    its points (the same for every submission); ``scores`` maps a submission to
    ``{question: [points, comment]}``. Before the first merge ``merged`` is False and no
    written column is shown."""

    questions: dict[str, float] = field(default_factory=dict)
    scores: dict[str, dict[str, list]] = field(default_factory=dict)
    merged: bool = False

    @property
    def max_points(self):
        return sum(self.questions.values())

    def points(self, name):
        """``{question: points}`` of a submission, 0 for an answer not scored."""
        mine = self.scores.get(name, {})
        return {q: float(mine[q][0]) if q in mine else 0.0 for q in self.questions}

    def tests(self, name):
        """Gradescope tests for the written answers of ``name`` (none before a merge)."""
        from .files import clip

        mine = self.scores.get(name, {})
        tests = []
        for q, top in self.questions.items():
            points, comment = mine.get(q, (0.0, ""))
            if q not in mine:
                comment = "Not scored: counts as 0."
            tests.append({"name": f"{q}{WRITTEN_TEST}", "score": float(points),
                          "max_score": float(top),
                          "output": clip(comment or "Scored by hand.", 2000),
                          "visibility": "visible"})
        return tests

    def apply(self, data, name):
        """Gradescope ``data`` with its written tests replaced by this record's."""
        tests = data.get("tests", [])
        old = sum(float(t.get("score", 0)) for t in tests
                  if str(t.get("name", "")).endswith(WRITTEN_TEST))
        added = self.tests(name)
        data["tests"] = [t for t in tests
                         if not str(t.get("name", "")).endswith(WRITTEN_TEST)] + added
        data["score"] = round(float(data.get("score", 0)) - old
                              + sum(t["score"] for t in added), 4)
        return data


class OutputFolder:
    """The ``--out`` folder of ``grade`` and ``grade-merge``."""

    def __init__(self, path):
        self.path = Path(path)
        self.state = self.path / STATE

    @contextlib.contextmanager
    def lock(self):
        """Hold the folder for one batch or merge; :class:`OutputBusy` if another holds it.

        The lock is released when the process ends, also by ``kill -9``."""
        import fcntl

        self.state.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.state / "lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW,
                     0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise OutputBusy(f"another grading batch or merge is writing to {self.path}; "
                                 f"wait for it to finish") from None
            self._remove_leftovers()
            yield self
        finally:
            os.close(fd)

    def _remove_leftovers(self):
        """Temporary files of a write that was killed halfway (never a submission's)."""
        for folder in (self.path, self.state):
            for tmp in folder.glob(".*.tmp"):
                if tmp.is_file() and not tmp.is_symlink():
                    tmp.unlink(missing_ok=True)

    def claim(self, assignment):
        """Record that the folder holds grades of ``assignment`` (a name); ValueError if it
        holds another assignment's."""
        record = self._read_json(BATCH) or {}
        if record.get("assignment") not in (None, assignment):
            raise ValueError(f"out must be a folder of grades of this assignment: {self.path} "
                             f"holds grades of {record['assignment']!r}, not {assignment!r}")
        if record.get("assignment") is None:
            self._write_json(BATCH, {**record, "assignment": assignment})

    # --- the base folder of output names -----------------------------------------------

    def base(self, notebooks, base=None):
        """The folder that output names are relative to.

        ``base`` if given, else the one recorded by the folder's first batch, else None
        (the folder the notebooks share); the first batch records its base. ValueError if
        ``base`` does not hold every notebook, if a notebook lies outside the recorded base
        and no ``base`` is given (it would be named by another rule than the rows already
        graded), or if ``base`` differs from the recorded one although that one holds every
        notebook (the same file would get a second name)."""
        record = self._read_json(BATCH) or {}
        recorded = record.get("base")
        paths = [os.path.abspath(os.fspath(p)) for p in notebooks]
        if base is not None:
            base = os.path.abspath(os.fspath(base))
            outside = [p for p in paths if not _inside(p, base)]
            if outside:
                raise ValueError(f"base must be a folder that holds every submission, got "
                                 f"{base!r}, which does not hold {outside[0]!r}")
            if recorded and base != recorded and all(_inside(p, recorded) for p in paths):
                raise ValueError(
                    f"base: {self.path} names submissions relative to {recorded!r} (the "
                    f"base of its first batch), which holds every submission given, so "
                    f"--base {base!r} would give them other names; leave --base out (or "
                    f"pass --base {recorded!r})")
        elif recorded:
            outside = [p for p in paths if not _inside(p, recorded)]
            if outside:
                raise ValueError(
                    f"submissions must lie in {recorded!r}, the folder {self.path} names "
                    f"submissions relative to (the base of its first batch), got "
                    f"{outside[0]!r}; pass --base FOLDER to name them relative to another "
                    f"folder (FOLDER/carol/hw.ipynb is carol/hw.ipynb), or --name NAME to "
                    f"give a single notebook the name NAME")
            base = recorded
        if not recorded and paths:
            chosen = base or os.path.commonpath([os.path.dirname(p) for p in paths])
            self._write_json(BATCH, {**record, "base": chosen})
        return base

    # --- the rule of output names --------------------------------------------------------

    def names_fold_case(self, rows):
        """Whether the folder's names follow the case-folded rule of
        :func:`~nbcourse.grading.names.output_names` (recorded by its first batch), or the
        earlier one (a gradebook made before the rule, which keeps its names). ValueError for
        such a gradebook on a file system that ignores case, where two of its names could
        share a folder."""
        record = self._read_json(BATCH) or {}
        if "names" not in record:
            record["names"] = "case-folded" if not rows else "as-given"
            self._write_json(BATCH, record)
        fold = record["names"] == "case-folded"
        if not fold and self.ignores_case():
            raise ValueError(
                f"out must be on a file system that tells capitals from small letters, or "
                f"a gradebook whose names are case-folded: {self.path} ignores case and was "
                f"made before names were, so two submissions whose names differ only by case "
                f"would share a folder; grade every submission again into a new folder")
        return fold

    def ignores_case(self):
        """Whether the folder's file system takes ``X`` and ``x`` for one name (FAT, exFAT,
        NTFS, APFS, HFS+ and ext4 with casefold usually do)."""
        self.state.mkdir(parents=True, exist_ok=True)
        probe = self.state / "case-probe"
        probe.touch()
        try:
            return (self.state / "CASE-PROBE").exists()
        finally:
            probe.unlink(missing_ok=True)

    # --- the roster the rows were graded with ------------------------------------------

    def check_roster(self, roster, rows):
        """Refuse a ``roster`` (a :class:`~nbcourse.grading.variants.Roster`, or None for
        none) that would give a submission already in ``rows`` another owner than the one
        it was graded for; then record it as the folder's roster.

        Every row keeps the owner it was graded for: a later batch, a late submission or a
        regrade without the roster (or with one that changed an entry) is refused, saying
        which roster to pass, rather than turning a row from ``roster``/``same`` into
        ``notebook``/``unverified``. A roster that only adds entries for submissions not
        graded yet is accepted and recorded."""
        from .names import file_name

        record = self._read_json(BATCH) or {}
        before = record.get("roster")
        now = None if roster is None else roster.record()
        if "roster" in record and (before or {}).get("sha256") == (now or {}).get("sha256"):
            return
        for name, row in rows.items():
            source = row.get("id_source", "")
            if source not in ("roster", "notebook"):
                continue  # an older row without an identity, or Gradescope's
            identity = (roster.lookup(name, file_name(name)) if roster is not None
                        else None)
            owner = identity.student_id if identity is not None and identity.verified else None
            if (source == "roster") == (owner is not None) and (
                    owner is None or _shown(owner) == _unquoted(row.get("student_id", ""))):
                continue
            was = (f"for {row.get('student_id')!r} from the roster" if source == "roster"
                   else "for the notebook's own STUDENT_ID (no roster entry)")
            given = ("without --roster" if roster is None
                     else f"with the roster {roster.path or ''} (sha256 {roster.digest[:12]})")
            then = (f"its owner would be {owner!r}" if owner is not None
                    else "it would be checked for the notebook's own STUDENT_ID")
            earlier = (f"--roster {before.get('path')} (sha256 {before['sha256'][:12]})"
                       if before else "no --roster")
            raise ValueError(
                f"roster: {self.path} holds {name!r}, graded {was}; {given} {then}. Every "
                f"row keeps the owner it was graded for: pass the roster this gradebook was "
                f"graded with ({earlier}), or one that gives every graded submission the "
                f"same owner, or grade into a new folder")
        self._write_json(BATCH, {**record, "roster": now})

    # --- grades.csv --------------------------------------------------------------------

    def read_rows(self, columns):
        """``{name: {column: text}}`` of grades.csv without the written columns (and with
        ``total`` and ``max`` without written points), in file order; ``{}`` if there is
        none yet. Raises ValueError if its columns are not ``columns`` (another
        assignment's grades)."""
        path = self.path / GRADES
        self.columns = list(columns or [])
        if not path.exists():
            rows = {}
            for entry in self.finished():
                self.columns = self.columns or list(entry["row"])
                rows[entry["name"]] = {h: str(entry["row"].get(h, "")) for h in self.columns}
            return rows
        from .files import read_regular_file

        text = read_regular_file(path, 256 * 1024 * 1024).decode("utf-8")
        table = list(csv.reader(io.StringIO(text, newline="")))
        header = table[0] if table else []
        written = [h for h in header if h.startswith("written_") and h != "written_max"]
        auto = [h for h in header if h not in written and h != "written_max"]
        if header[:1] != ["submission"] or "total" not in header or "max" not in header:
            raise ValueError(f"grades must be a grades.csv written by nbcourse grade, got "
                             f"header {header} in {path}")
        if columns is not None and auto != list(columns) and auto == [
                c for c in columns if c not in LATER]:
            auto = list(columns)  # an earlier gradebook: the later columns start empty
        if columns is not None and auto != list(columns):
            raise ValueError(f"out must be a folder of grades of this assignment: {path} has "
                             f"columns {auto}, this assignment's are {list(columns)}")
        self.columns = auto
        rows = {}
        for values in table[1:]:
            record = dict(zip(header, values, strict=False))
            if written or "written_max" in header:
                record["total"] = number(_float(record.get("total"))
                                         - sum(_float(record.get(h)) for h in written))
                record["max"] = number(_float(record.get("max"))
                                       - _float(record.get("written_max")))
            rows[record["submission"].removeprefix("'")] = {h: record.get(h, "") for h in auto}
        for entry in self.finished():
            rows[entry["name"]] = {h: str(entry["row"].get(h, "")) for h in self.columns}
        return rows

    def write_grades(self, columns, rows, written):
        """Write grades.csv from autograded ``rows`` and the ``written`` scores."""
        from .files import _write_atomic, csv_cell

        columns = list(columns)
        at = columns.index("total")
        extra = ([f"written_{q}" for q in written.questions] + ["written_max"]
                 if written.merged else [])
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(columns[:at] + extra + columns[at:])
        for name, record in rows.items():
            record = dict(record)
            if written.merged:
                points = written.points(name)
                record.update({f"written_{q}": p for q, p in points.items()})
                record["written_max"] = written.max_points
                record["total"] = _float(record["total"]) + sum(points.values())
                record["max"] = _float(record["max"]) + written.max_points
            cells = []
            for column in columns[:at] + extra + columns[at:]:
                value = record.get(column, "")
                numeric = column in NUMERIC or column not in TEXT
                if numeric and value != "":
                    cells.append(number(value))
                else:
                    cells.append(csv_cell(name if column == "submission" else str(value)))
            writer.writerow(cells)
        return _write_atomic(self.path / GRADES, buffer.getvalue())

    # --- rows of submissions finished since grades.csv was last written ------------------

    def record_finished(self, name, row, notebook):
        """Append the row of a finished submission (and the path of its notebook, whose
        written answers are taken again if the batch stops before the next rewrite)."""
        self.state.mkdir(parents=True, exist_ok=True)
        line = json.dumps({"name": name, "row": row, "notebook": os.fspath(notebook)},
                          ensure_ascii=True)
        with open(self.state / JOURNAL, "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()

    def finished(self):
        """The entries recorded since the last rewrite, oldest first; a last line cut off
        by a stop in the middle of a write is left out."""
        path = self.state / JOURNAL
        if not path.is_file() or path.is_symlink():
            return []
        entries = []
        for line in path.read_text(encoding="utf-8", errors="replace").split("\n")[:-1]:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if (isinstance(entry, dict) and isinstance(entry.get("name"), str)
                    and isinstance(entry.get("row"), dict)):
                entries.append(entry)
        return entries

    def clear_finished(self):
        """Forget the recorded rows once grades.csv holds them."""
        (self.state / JOURNAL).unlink(missing_ok=True)

    # --- written scores ----------------------------------------------------------------

    def load_written(self):
        """The merged written scores (also those of a folder merged before they were kept
        in ``.nbcourse``: read back from its results.json files)."""
        data = self._read_json(WRITTEN_STORE)
        if data is not None:
            return Written({q: float(v) for q, v in data["questions"].items()},
                           data["scores"], True)
        return self._written_from_results()

    def save_written(self, written):
        self._write_json(WRITTEN_STORE, {"questions": written.questions,
                                         "scores": written.scores})

    def _written_from_results(self):
        written = Written()
        try:
            rows = self.read_rows(None)
        except (ValueError, OSError):
            return written
        for name in rows:
            try:
                data = json.loads((self.path / name / "results.json").read_text("utf-8"))
            except (OSError, ValueError):
                continue
            for test in data.get("tests", []):
                label = str(test.get("name", ""))
                if label.endswith(WRITTEN_TEST):
                    q = label.removesuffix(WRITTEN_TEST)
                    written.merged = True
                    written.questions[q] = max(written.questions.get(q, 0.0),
                                               float(test.get("max_score", 0)))
                    if test.get("output") != "Not scored: counts as 0.":
                        written.scores.setdefault(name, {})[q] = [
                            float(test.get("score", 0)), str(test.get("output", ""))]
        return written

    # --- helpers -----------------------------------------------------------------------

    def _read_json(self, name):
        path = self.state / name
        if not path.is_file():
            return None
        return json.loads(path.read_text(encoding="utf-8"))

    def _write_json(self, name, data):
        from .files import _write_atomic

        self.state.mkdir(parents=True, exist_ok=True)
        _write_atomic(self.state / name, json.dumps(data, indent=1, sort_keys=True) + "\n")


class Flushes:
    """When to rewrite grades.csv and the written answers during a batch: at least
    ``every`` seconds apart (by default never: only at the end,
    ``benchmarks/bench_gradebook.py`` measures why), and at least ``ratio`` times as long
    apart as the last rewrite took, so that rewriting takes at most about ``1 / ratio`` of a
    batch's time however many rows the folder holds.

    >>> clock = iter([0.0, 0.5, 3.0, 3.25, 3.5, 6.0, 9.0]).__next__
    >>> flushes = Flushes(every=2.0, ratio=20, clock=clock)   # created at 0.0
    >>> flushes.due()                                          # 0.5 s later
    False
    >>> flushes.due()                                          # 3.0 s later
    True
    >>> with flushes.timing():                                 # a rewrite from 3.25 to 3.5
    ...     pass
    >>> flushes.wait                                           # 20 x 0.25 s
    5.0
    >>> flushes.due(), flushes.due()                           # 2.5 s and 5.5 s later
    (False, True)
    """

    def __init__(self, every=math.inf, ratio=20, clock=None):
        import time

        self.every, self.ratio = float(every), float(ratio)
        self.clock = clock or time.monotonic
        self.last = self.clock()
        self.wait = self.every

    def due(self):
        return self.clock() - self.last >= self.wait

    @contextlib.contextmanager
    def timing(self):
        began = self.clock()
        yield
        self.last = self.clock()
        self.wait = max(self.every, self.ratio * (self.last - began))


def _float(text):
    return float(text) if text not in (None, "") else 0.0


def _unquoted(cell):
    """A text cell of grades.csv without the apostrophe that kept it from being a formula."""
    from .files import _FORMULA_START

    return cell[1:] if cell.startswith("'") and cell[1:].startswith(_FORMULA_START) else cell


def _shown(student_id):
    from .variants import _shown as shown

    return shown(student_id)


def _inside(path, folder):
    return os.path.commonpath([path, folder]) == folder and path != folder
