"""Reading and writing the grader's files safely: submissions that may be anything a student
uploads, and outputs a spreadsheet or a browser will open.

* :func:`read_regular_file` reads a submission only if it is a regular file of bounded size;
* :func:`clip` and :func:`csv_cell` make untrusted text safe to show and to put in a CSV;
* :func:`_write_atomic` replaces a file through a temporary one, so no reader sees half of it.

The grader, the gradebook and the written-answer export all use these; they import nothing
else of the grader.
"""

from __future__ import annotations

import os
import secrets
import stat
import unicodedata
from pathlib import Path

MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024
MAX_REASON = 2000  # characters of a reason or message kept in grades.csv and results.json


class NotebookError(ValueError):
    """The submission is not a readable Jupyter notebook."""


def read_regular_file(path, limit):
    """The bytes of ``path`` if it is a regular file (not a symlink, FIFO or device) of at
    most ``limit`` bytes; raises :class:`NotebookError` otherwise. Never blocks."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == 40:  # ELOOP: the file is a symbolic link
            raise NotebookError("submission is a symbolic link, not a regular file") from None
        raise NotebookError(f"cannot read notebook: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotebookError("submission is not a regular file")
        if info.st_size > limit:
            raise NotebookError(f"notebook is too large ({info.st_size} bytes; limit {limit})")
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise NotebookError(f"notebook is too large (over {limit} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise NotebookError(f"cannot read notebook: {exc.strerror}") from None
    finally:
        os.close(fd)


def clip(text, limit=MAX_REASON):
    """``text`` without control characters, cut to ``limit`` characters."""
    text = str(text)[:limit * 2]
    clean = "".join(c if (unicodedata.category(c)[0] != "C" and c not in "\u2028\u2029")
                    or c in "\n" else "?" for c in text)
    clean = clean.replace("\n", " ")
    return clean if len(clean) <= limit else clean[:limit - 3] + "..."


def _write_atomic(target, text):
    """Write ``text`` to ``target`` through a temporary file in the same folder; a folder or
    anything else that is not a regular file at ``target`` is an error, never followed."""
    target = Path(target)
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise OSError(f"{target} exists and is not a regular file")
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "|", "%")


def csv_cell(value):
    """A value safe for a spreadsheet: text is clipped, and text a spreadsheet would read
    as a formula (starting with ``= + - @``, a tab, ...) gets a leading apostrophe."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        value = str(value)
    if not isinstance(value, str):
        return value
    value = clip(value)
    return "'" + value if value.startswith(_FORMULA_START) else value
