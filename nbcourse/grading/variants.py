"""Per-student variants of compute-a-value questions: a copied number is a wrong number.

A question that asks for a value computed from data can give every student data of their
own. The student notebook sets ``STUDENT_ID`` (the identifier the course uses, e.g. a login)
and draws its numbers from a seed that depends on the assignment, the question and that
identifier, :func:`personal_seed`; the notebook carries the same few lines of standard-library
code, since the grading kernel cannot import ``nbcourse``. The grader reads ``STUDENT_ID``
and the answer from the kernel and computes the expected value for that identifier in its
own process (:func:`personal`), so an answer copied from a classmate fails, and so does one
computed for another identifier unless the notebook claims that identifier, which the results
show (:func:`student_id_is_set`).

The seed is the first 8 bytes of SHA-256 of ``"<assignment>/<question>/<student id>"``,
read big-endian: stable across machines, Python versions and runs.

>>> personal_seed("ada", "07-smoothing", "q6")
4391666078146414073
>>> personal_seed("ada", "07-smoothing", "q6") != personal_seed("bob", "07-smoothing", "q6")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from .assignment import Verdict, close, error_verdict

__all__ = ["MAX_ID_CHARS", "check_student_id", "personal", "personal_seed", "student_id_is_set"]

MAX_ID_CHARS = 100
"""Longest accepted ``STUDENT_ID``."""


def check_student_id(student_id) -> str:
    """Return ``student_id`` if it is a usable identifier, else raise naming what was expected.

    Usable: a str of 1 to :data:`MAX_ID_CHARS` printable characters, not all blank.

    >>> check_student_id("ada.lovelace")
    'ada.lovelace'
    >>> check_student_id("")
    Traceback (most recent call last):
    ...
    ValueError: STUDENT_ID must be your identifier as a non-empty string, got ''
    """
    if not isinstance(student_id, str):
        raise TypeError(f"STUDENT_ID must be your identifier as a string, got "
                        f"{type(student_id).__name__}")
    if not student_id.strip():
        raise ValueError(f"STUDENT_ID must be your identifier as a non-empty string, "
                         f"got {student_id!r}")
    if len(student_id) > MAX_ID_CHARS or not student_id.isprintable():
        shown = student_id if len(student_id) <= 40 else student_id[:40] + "..."
        raise ValueError(f"STUDENT_ID must be your identifier, at most {MAX_ID_CHARS} "
                         f"printable characters, got {shown!r}")
    return student_id


def personal_seed(student_id, assignment: str, question: str) -> int:
    """Seed of a student's own numbers for ``question`` of ``assignment`` (a 64-bit int)."""
    text = f"{assignment}/{question}/{check_student_id(student_id)}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def _student_id(result):
    """(identifier, None) from a probe result, or (None, Verdict) saying what is wrong."""
    if not result["ok"]:
        return None, error_verdict(result)
    try:
        return check_student_id(result["value"]), None
    except (TypeError, ValueError) as exc:
        return None, Verdict(False, str(exc))


def student_id_is_set(result) -> Verdict:
    """Check of ``Value("STUDENT_ID")``: set, and named in the verdict the results show."""
    student_id, problem = _student_id(result)
    if problem is not None:
        return problem
    return Verdict(True, f"your numbers are those of STUDENT_ID {student_id!r}")


def personal(assignment: str, question: str, expected: Callable[[int], object],
             rtol: float = 1e-7, atol: float = 1e-10) -> Callable:
    """Check of ``(Value("STUDENT_ID"), answer_probe)``: the answer for that student's numbers.

    ``expected(seed)`` computes the right answer from :func:`personal_seed` of the
    identifier the notebook sets; the answer is compared with :func:`close`.
    """

    def check(id_result, answer_result):
        student_id, problem = _student_id(id_result)
        if problem is not None:
            return problem
        seed = personal_seed(student_id, assignment, question)
        return close(lambda: expected(seed), rtol=rtol, atol=atol)(answer_result)

    return check
