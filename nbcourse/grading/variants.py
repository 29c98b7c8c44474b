"""Per-student variants of compute-a-value questions: a copied number is a wrong number.

A question that asks for a value computed from data gives every student data of their own,
drawn from a seed that depends on the assignment, the question and the student's identifier,
:func:`personal_seed`. The student notebook sets ``STUDENT_ID`` and repeats the few lines of
standard-library code of the seed, since the grading kernel cannot import ``nbcourse``.

**The grader never takes the identifier from the notebook.** The identity of a submission's
owner comes from the instructor: a roster (:func:`read_roster`, ``grade --roster
roster.csv``) or, on Gradescope, the submission's metadata (the ``users`` of
``/autograder/submission_metadata.json``). The grader computes the expected value for that
identity in its own process (:func:`personal`), so an answer copied from a classmate, or
computed for a classmate's identifier that the notebook claims, is wrong. Without a roster
entry the grader falls back to the notebook's ``STUDENT_ID`` and says so: the identity's
source is then ``notebook`` and its check ``unverified`` in every output (:func:`id_status`).

Identifiers are compared as UTS #39 says (:func:`same_id`): after :func:`canonical_id` (NFKC,
case folding, format characters such as zero-width spaces removed) their *skeletons*
(:func:`skeleton`) must be equal, so a claimed ``STUDENT_ID`` in Cyrillic or Greek
look-alike letters is recognised as a look-alike of the owner's, never as another student's,
and a roster cannot hold two identifiers that look alike. The seed uses the canonical form,
which the notebook can compute with :mod:`unicodedata`, so ``ADA`` and fullwidth ``ａｄａ``
draw the numbers of ``ada``.

The seed is the first 8 bytes of SHA-256 of ``"<assignment>/<question>/<canonical id>"``,
read big-endian: stable across machines, Python versions and runs.

>>> personal_seed("ada", "07-smoothing", "q6")
4391666078146414073
>>> personal_seed("ADA", "07-smoothing", "q6") == personal_seed("ada", "07-smoothing", "q6")
True
>>> personal_seed("ada", "07-smoothing", "q6") != personal_seed("bob", "07-smoothing", "q6")
True
"""

from __future__ import annotations

import contextlib
import contextvars
import csv
import functools
import hashlib
import io
import json
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .assignment import Verdict, close, error_verdict

__all__ = ["MAX_ID_CHARS", "Identity", "Roster", "canonical_id", "check_student_id", "has_form",
           "id_status", "owner", "personal", "personal_seed", "read_roster", "report_identities", "same_id",
           "skeleton", "student_id_is_set"]

MAX_ID_CHARS = 100
"""Longest accepted identifier."""

CONFUSABLES = Path(__file__).resolve().parents[1] / "data" / "confusables.txt"
"""The Unicode consortium's ``confusables.txt`` (UTS #39 data, version 13.0.0), shipped."""

SOURCES = {"roster": "the roster", "gradescope": "the Gradescope submission",
           "notebook": "the notebook's STUDENT_ID, unverified"}


def check_student_id(student_id, what="STUDENT_ID") -> str:
    """Return ``student_id`` if it is a usable identifier, else raise naming what was expected.

    Usable: a str of at most :data:`MAX_ID_CHARS` characters whose :func:`canonical_id` is
    printable and not empty (format characters such as a zero-width space are dropped).

    >>> check_student_id("ada.lovelace")
    'ada.lovelace'
    >>> check_student_id("")
    Traceback (most recent call last):
    ...
    ValueError: STUDENT_ID must be your identifier as a non-empty string, got ''
    """
    if not isinstance(student_id, str):
        raise TypeError(f"{what} must be your identifier as a string, got "
                        f"{type(student_id).__name__}")
    key = canonical_id(student_id)
    if not key:
        raise ValueError(f"{what} must be your identifier as a non-empty string, "
                         f"got {student_id!r}")
    if len(student_id) > MAX_ID_CHARS or not key.isprintable():
        shown = student_id if len(student_id) <= 40 else student_id[:40] + "..."
        raise ValueError(f"{what} must be your identifier, at most {MAX_ID_CHARS} "
                         f"printable characters, got {shown!r}")
    return student_id


def canonical_id(student_id: str) -> str:
    """NFKC, case folding, NFKC again, format characters (category Cf: zero-width spaces and
    joiners, bidirectional marks) removed, surrounding blanks stripped: the key of the seed.

    >>> canonical_id(" Ｚoë\\u200bNG ")
    'zoëng'
    """
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", student_id).casefold())
    return "".join(c for c in text if unicodedata.category(c) != "Cf").strip()


@functools.cache
def _prototypes():
    """``{code point: prototype}`` from the shipped confusables.txt."""
    table = {}
    with open(CONFUSABLES, encoding="utf-8-sig") as f:
        for line in f:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) >= 2 and fields[0].strip():
                table[int(fields[0], 16)] = "".join(chr(int(h, 16)) for h in fields[1].split())
    return table


_IGNORABLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810),
              *range(0xFE00, 0xFE10)}


def skeleton(student_id: str) -> str:
    """UTS #39 skeleton of :func:`canonical_id`: NFD, default-ignorable characters removed,
    each character replaced by its prototype in confusables.txt, NFD again.

    >>> skeleton("\\u0430d\\u0430") == skeleton("ada")  # Cyrillic a
    True
    """
    text = unicodedata.normalize("NFD", canonical_id(student_id))
    table = _prototypes()
    kept = (c for c in text if not (unicodedata.category(c) == "Cf" or ord(c) in _IGNORABLE
                                    or 0xE0000 <= ord(c) <= 0xE0FFF))
    return unicodedata.normalize("NFD", "".join(table.get(ord(c), c) for c in kept))


def same_id(a: str, b: str) -> bool:
    """Whether two identifiers are the same or look alike (equal skeletons).

    >>> same_id("Ada", "\\uff41\\u0501\\u03b1")  # fullwidth a, Cyrillic komi de, Greek alpha
    True
    >>> same_id("ada", "adb")
    False
    """
    return skeleton(a) == skeleton(b)


def personal_seed(student_id, assignment: str, question: str) -> int:
    """Seed of a student's own numbers for ``question`` of ``assignment`` (a 64-bit int)."""
    key = canonical_id(check_student_id(student_id))
    return int.from_bytes(hashlib.sha256(f"{assignment}/{question}/{key}".encode()).digest()[:8],
                          "big")


# --- the owner of a submission ---------------------------------------------------------------


@dataclass(frozen=True)
class Identity:
    """Whose numbers a submission is graded on: ``student_id`` from ``source`` (``roster``,
    ``gradescope``), or ``student_id=None`` and ``source="notebook"`` for the fallback to the
    notebook's own, unverified, ``STUDENT_ID``. ``group`` holds the other members of a group
    submission (:meth:`resolve`)."""

    student_id: str | None = None
    source: str = "notebook"
    group: tuple = ()

    def __post_init__(self):
        if self.source not in SOURCES:
            raise ValueError(f"source must be one of {sorted(SOURCES)}, got {self.source!r}")
        if (self.student_id is None) != (self.source == "notebook"):
            raise ValueError("student_id must be given exactly when the source is not the "
                             "notebook")
        if self.student_id is not None:
            check_student_id(self.student_id, "student_id")
        object.__setattr__(self, "group", tuple(check_student_id(g, "group member")
                                                for g in self.group))

    @property
    def verified(self):
        return self.source != "notebook"

    def resolve(self, claim_result=None) -> Identity:
        """The member of a group submission whose identifier the notebook's ``STUDENT_ID``
        names (:func:`same_id`), else the first; the claim only chooses among the members the
        instructor gave, never adds one."""
        claimed = claim_result.get("value") if isinstance(claim_result, dict) and \
            claim_result.get("ok") else None
        if self.group and _usable(claimed) and not same_id(self.student_id, claimed):
            for member in self.group:
                if same_id(member, claimed):
                    return Identity(member, self.source)
        return Identity(self.student_id, self.source) if self.verified else self

    @classmethod
    def from_gradescope(cls, metadata, field="email"):
        """The owners in the ``users`` of Gradescope's submission metadata (the first, and
        the others of a group); the unverified fallback if it names nobody usable."""
        users = metadata.get("users") if isinstance(metadata, dict) else None
        ids = [u.get(field) for u in users if isinstance(u, dict)] if isinstance(users, list) else []
        ids = [i for i in ids if _usable(i)]
        if not ids:
            return cls()
        return cls(ids[0], "gradescope", tuple(ids[1:]))

    def to_dict(self):
        return {"student_id": self.student_id, "source": self.source, "group": list(self.group)}


def _usable(student_id):
    try:
        check_student_id(student_id)
    except (TypeError, ValueError):
        return False
    return True


_OWNER: contextvars.ContextVar[Identity | None] = contextvars.ContextVar("owner", default=None)


@contextlib.contextmanager
def owner(identity: Identity | None):
    """Checks built by :func:`personal` and :func:`student_id_is_set` use ``identity``
    inside this block (the unverified fallback outside any)."""
    token = _OWNER.set(identity or Identity())
    try:
        yield
    finally:
        _OWNER.reset(token)


def id_status(identity: Identity | None, claim) -> dict:
    """What the results say about a submission's identity: ``student_id`` (the identifier
    used), ``source`` and ``check``: ``same`` (the notebook's STUDENT_ID is the owner's),
    ``look-alike`` (equal only after confusable folding), ``differs`` (another identifier),
    ``missing`` (no usable STUDENT_ID), or ``unverified`` (no roster identity: the notebook's
    STUDENT_ID is used).

    >>> id_status(Identity("bob", "roster"), {"ok": True, "value": "ada"})["check"]
    'differs'
    >>> id_status(Identity("ada", "roster"), {"ok": True, "value": "\\u0430da"})["check"]
    'look-alike'
    """
    identity = (identity or Identity()).resolve(claim)
    claimed = claim.get("value") if isinstance(claim, dict) and claim.get("ok") else None
    claimed = claimed if _usable(claimed) else None
    if not identity.verified:
        return {"student_id": _shown(claimed), "source": "notebook",
                "check": "unverified" if claimed else "missing", "claimed": _shown(claimed)}
    if claimed is None:
        check = "missing"
    elif canonical_id(claimed) == canonical_id(identity.student_id):
        check = "same"
    else:
        check = "look-alike" if same_id(claimed, identity.student_id) else "differs"
    return {"student_id": _shown(identity.student_id), "source": identity.source,
            "check": check, "claimed": _shown(claimed)}


def _shown(student_id):
    r"""An identifier as the outputs show it: format characters (zero-width, bidirectional)
    escaped as in Python, so that no output hides or reorders characters.

    >>> _shown("ada\u202e")
    'ada\\u202e'
    """
    if not student_id:
        return ""
    return student_id if student_id.isprintable() else repr(student_id)[1:-1]


def describe(status: dict) -> str:
    """One sentence naming the identifier used and where it came from.

    >>> describe({"student_id": "ada", "source": "roster", "check": "same", "claimed": "ada"})
    "Identity: numbers checked for 'ada' (from the roster)."
    """
    if not status.get("student_id"):
        return ("Identity: none (no roster entry, and the notebook sets no usable STUDENT_ID); "
                "per-student answers score 0.")
    text = f"Identity: numbers checked for {status['student_id']!r} (from {SOURCES[status['source']]})"
    notes = {"differs": f"; your notebook claims STUDENT_ID {status['claimed']!r}, another "
                        f"identifier: flagged",
             "look-alike": f"; your notebook claims STUDENT_ID {status['claimed']!r}, which only "
                           f"looks like it: flagged",
             "missing": "; your notebook sets no usable STUDENT_ID"}
    return text + notes.get(status["check"], "") + "."


# --- rosters ---------------------------------------------------------------------------------


class Roster:
    """Submissions mapped to student identifiers: ``entries`` maps a submission key (a file
    name such as ``hw-ada.ipynb``, a relative path ``ada/hw.ipynb``, or the batch's stable
    submission name as grades.csv shows it) to an identifier."""

    def __init__(self, entries: dict[str, str], path=None):
        self.entries = dict(entries)
        self.path = None if path is None else str(path)

    @property
    def digest(self) -> str:
        """SHA-256 of the entries (in no particular order of the file): the same roster
        read from another copy, another path or with other columns has the same digest."""
        text = json.dumps(sorted(self.entries.items()), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()

    def record(self) -> dict:
        """What a gradebook keeps of the roster it was graded with: its digest and path."""
        return {"sha256": self.digest, "path": self.path}

    def lookup(self, name: str, path=None) -> Identity:
        """The identity of the submission graded as ``name`` (its grades.csv name) from the
        file ``path``: by that name, else by the file's name; the unverified fallback if
        neither is in the roster."""
        keys = [name] + ([Path(path).name] if path is not None else [])
        for key in keys:
            if key in self.entries:
                return Identity(self.entries[key], "roster")
        return Identity()

    def unlisted(self, names, paths) -> list[str]:
        """The names of the submissions the roster does not list (graded for the notebook's
        own, unverified, ``STUDENT_ID``)."""
        return [name for name, path in zip(names, paths, strict=True)
                if not self.lookup(name, path).verified]

    def owners(self, names, paths) -> list[Identity]:
        """:meth:`lookup` of each submission of a batch; ValueError if a roster row that
        gives a bare file name matches two submissions (``alice/hw.ipynb`` and
        ``bob/hw.ipynb`` for ``hw.ipynb``): list them by their names instead."""
        found, by_file = [], {}
        for name, path in zip(names, paths, strict=True):
            found.append(self.lookup(name, path))
            if name not in self.entries and Path(path).name in self.entries:
                by_file.setdefault(Path(path).name, []).append(name)
        for key, matched in by_file.items():
            if len(matched) > 1:
                raise ValueError(f"roster must name each submission once, but its row for "
                                 f"{key!r} matches {len(matched)} submissions ({matched[0]!r}, "
                                 f"{matched[1]!r}, ...); give their names as grades.csv shows "
                                 f"them")
        return found


def read_roster(path) -> Roster:
    """Read a roster CSV with columns ``submission`` and ``student_id`` (others ignored).

    Raises ValueError, naming the row, for a missing column, an unusable identifier, a
    submission listed twice, or two different identifiers that look alike (equal skeletons).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"roster must be a readable UTF-8 CSV file, got {str(path)!r} "
                         f"({exc})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if not reader.fieldnames or not {"submission", "student_id"} <= set(reader.fieldnames):
        raise ValueError(f"roster must have the columns submission and student_id, got "
                         f"{reader.fieldnames} in {path}")
    entries, seen = {}, {}
    for line, row in enumerate(reader, start=2):
        key, sid = (row.get("submission") or "").strip(), (row.get("student_id") or "").strip()
        if not key:
            raise ValueError(f"roster {path}, line {line}: submission must be a file name or "
                             f"submission name, got an empty cell")
        try:
            check_student_id(sid, f"roster {path}, line {line}: student_id")
        except (TypeError, ValueError) as exc:
            raise ValueError(str(exc).replace("your identifier", "an identifier")) from None
        if key in entries:
            raise ValueError(f"roster {path}, line {line}: submission {key!r} is listed twice")
        shape = skeleton(sid)
        other = seen.setdefault(shape, sid)
        if canonical_id(other) != canonical_id(sid):
            raise ValueError(f"roster {path}, line {line}: student_id {sid!r} looks like "
                             f"{other!r} of another row; identifiers must be told apart")
        entries[key] = sid
    if not entries:
        raise ValueError(f"roster must list at least one submission, got none in {path}")
    return Roster(entries, path)


# --- checks ----------------------------------------------------------------------------------


def _claimed_id(result):
    """(identifier, None) from a probe result, or (None, Verdict) saying what is wrong."""
    if not result["ok"]:
        return None, error_verdict(result)
    try:
        return check_student_id(result["value"]), None
    except (TypeError, ValueError) as exc:
        return None, Verdict(False, str(exc))


def student_id_is_set(result) -> Verdict:
    """Check of ``Value("STUDENT_ID")``: set, and, when the owner's identity is known, theirs.

    The message names the identifier the numbers are checked for."""
    claimed, problem = _claimed_id(result)
    identity = (_OWNER.get() or Identity()).resolve(result)
    if not identity.verified:
        if problem is not None:
            return problem
        return Verdict(True, f"your numbers are those of STUDENT_ID {claimed!r} (unverified: "
                             f"when graded, they are checked for your identifier on the "
                             f"course roster)")
    status = id_status(identity, result)
    if status["check"] == "same":
        return Verdict(True, f"your numbers are those of {identity.student_id!r} "
                             f"({SOURCES[identity.source]})")
    return Verdict(False, describe(status).removeprefix("Identity: ")
                   + (f" {problem.message}" if problem is not None else ""))


def personal(assignment: str, question: str, expected: Callable[[int], object],
             rtol: float = 1e-7, atol: float = 1e-10) -> Callable:
    """Check of ``(Value("STUDENT_ID"), answer_probe)``: the answer for the owner's numbers.

    ``expected(seed)`` computes the right answer from :func:`personal_seed` of the owner's
    identifier (see :func:`owner`; the notebook's ``STUDENT_ID`` only in the unverified
    fallback); the answer is compared with :func:`close`.
    """

    def check(id_result, answer_result):
        identity = (_OWNER.get() or Identity()).resolve(id_result)
        if identity.verified:
            student_id = identity.student_id
        else:
            student_id, problem = _claimed_id(id_result)
            if problem is not None:
                return problem
        seed = personal_seed(student_id, assignment, question)
        return close(lambda: expected(seed), rtol=rtol, atol=atol)(answer_result)

    return check


def has_form(name: str, shape: tuple = (), low=None, high=None, rows_sum_to_one=False) -> Callable:
    """Public check of a per-student answer's *form* only (its numbers are checked hidden):
    finite numbers of ``shape`` (``()`` for one number), within ``[low, high]`` where given,
    each row summing to 1 if ``rows_sum_to_one``.

    >>> has_form("my_p", (2,), 0, 1)({"ok": True, "value": [0.2, 0.8]}).passed
    True
    >>> has_form("my_p", (2,), 0, 1)({"ok": True, "value": 3.0}).message
    'my_p must be an array of shape (2,), got a number'
    """

    def check(result):
        if not result["ok"]:
            return error_verdict(result)
        value = result["value"]
        if isinstance(value, bool) or not isinstance(value, int | float | list):
            return Verdict(False, f"{name} must be {'a number' if not shape else 'an array'}, "
                                  f"got {type(value).__name__}")
        import numpy as np

        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            return Verdict(False, f"{name} must hold numbers only")
        if array.shape != tuple(shape):
            got = "a number" if array.ndim == 0 else f"shape {array.shape}"
            want = "a number" if not shape else f"an array of shape {tuple(shape)}"
            return Verdict(False, f"{name} must be {want}, got {got}")
        if not np.all(np.isfinite(array)):
            return Verdict(False, f"{name} must be finite")
        if (low is not None and np.any(array < low)) or (high is not None and np.any(array > high)):
            return Verdict(False, f"{name} must lie between {low} and {high}")
        if rows_sum_to_one and not np.allclose(array.sum(axis=-1), 1.0):
            return Verdict(False, f"each row of {name} must sum to 1")
        return Verdict(True, "the form is right; your numbers are checked when graded")

    return check


def _listed(names, limit=5):
    return ", ".join(names[:limit]) + (", ..." if len(names) > limit else "")


def report_identities(results, roster, rows=None):
    """Print how many notebooks claim another identity, and which submissions the roster
    does not list (or that no roster was given). ``results``: the GradeResults of this run,
    or None with ``rows`` (grades.csv rows) for a run whose results are in its gradebook."""
    records = ([(r.name, r.identity) for r in results] if results is not None else
               [(n, {"check": r.get("id_check"), "source": r.get("id_source")})
                for n, r in rows.items()])
    flagged = [n for n, i in records if i.get("check") in ("differs", "look-alike")]
    if flagged:
        one = len(flagged) == 1
        print(f"{len(flagged)} notebook{'' if one else 's'} claim{'s' if one else ''} a "
              f"STUDENT_ID other than the owner's (id_check in grades.csv): {_listed(flagged)}")
    if roster is None:
        print("no --roster: per-student answers were checked for each notebook's own "
              "STUDENT_ID, flagged unverified in grades.csv and results.json")
        return
    unlisted = [n for n, i in records if i.get("source") == "notebook"]
    if unlisted:
        one = len(unlisted) == 1
        print(f"{len(unlisted)} submission{'' if one else 's'} not on the roster (checked for "
              f"the notebook's own STUDENT_ID, flagged unverified): {_listed(unlisted, 20)}")
