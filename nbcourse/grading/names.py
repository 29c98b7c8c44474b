"""How a submission is named in the output folder: injectively, on any file system.

:func:`output_names` derives each submission's folder name from its path: distinct paths
give names that stay distinct on file systems that ignore case or Unicode normalisation
(capitals and a trailing dot are percent-encoded), never a name the gradebook uses for its own
files (``grades.csv``, ``results.json``, ``written-answers.*``, ``.nbcourse``) or a Windows
device name, and never more than ``MAX_NAME`` characters a component.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

__all__ = ["MAX_NAME", "accented_latin", "check_name", "file_name", "output_names",
           "safe_component"]

MAX_NAME = 200  # characters of one path component of an output name


_RESERVED = {"grades.csv", "results.json", "written-answers.csv", "written-answers.html"}
_DEVICES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
            *(f"lpt{i}" for i in range(10))}
"""Names that Windows takes for devices in any folder, with any extension and in any case."""


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


def _folded(char):
    """Whether ``char`` is its own case fold (after NFC): a lower-case letter, a digit, a
    sign; never a capital, which a case-insensitive file system takes for its small letter."""
    return unicodedata.normalize("NFC", char.casefold()) == char


def _reserved(safe, fold_case):
    """Whether a component would be taken for an output file of the folder, its state
    folder, or a Windows device: compared without case (or exactly, for the names of a
    gradebook made before names were case-folded)."""
    if not fold_case:
        return safe in _RESERVED
    folded = unicodedata.normalize("NFC", safe.casefold())
    return (folded in _RESERVED or folded.startswith(("written-answers.", ".nbcourse"))
            or folded.split(".", 1)[0] in _DEVICES)


def safe_component(part, fold_case=True):
    """Percent-encode one path component so that the encoding is injective and the result
    is a plain, printable file name that is neither hidden nor an output file's name, in
    which no character looks like an ASCII letter or digit that it is not.

    With ``fold_case`` (every gradebook but one made before it existed) capitals are
    percent-encoded too, a trailing ``.`` is (FAT and Windows drop it), and reserved names
    are compared without case, so that two names differ on a file system that ignores case
    or Unicode normalisation (FAT, exFAT, NTFS, APFS, HFS+, ext4 with casefold) exactly
    when they differ on any other."""
    out = []
    for i, char in enumerate(part):
        keep = (char.isalnum() and (char.isascii() or accented_latin(char))) \
            or char in "-_" or (char == "." and i and not (fold_case and i == len(part) - 1))
        if fold_case and keep:
            keep = _folded(char)
        raw = char.encode("utf-8", "surrogateescape")  # a byte of a non-UTF-8 name is kept
        out.append(char if keep else "".join(f"%{b:02X}" for b in raw))
    safe = "".join(out)
    if _reserved(safe, fold_case):
        safe = f"%{ord(safe[0]):02X}{safe[1:]}"
    if len(safe.encode("utf-8")) > MAX_NAME:
        import hashlib

        digest = hashlib.sha256(part.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        safe = safe[:MAX_NAME - 20].rstrip("%") + "%~" + digest
    return safe


def output_names(paths, base=None, fold_case=True):
    """Injective, safe output names for ``paths``: each path relative to ``base`` (by
    default the folder the paths share), one percent-encoded component per folder (so
    per-student folders are kept), never ``.``/``..``, never hidden, never an output file's
    name (``grades.csv``, ``results.json``, the written-answers files) in any case, never
    a Windows device name (``con``, ``nul.ipynb``). Any byte sequence is a name: a byte of
    a name that is not UTF-8 becomes ``%XX`` like any other. Names that look alike stay
    visibly distinct: a non-ASCII character that could be taken for an ASCII one (Cyrillic
    а in ``аlice``) is percent-encoded (``%D0%B0lice``); small accented Latin letters (é)
    are kept.

    Capitals are percent-encoded (``Ada.ipynb`` is ``%41da.ipynb``), and so is a trailing
    dot, so that names stay distinct, each submission in a folder of its own, on a file
    system that ignores case or Unicode normalisation. ``fold_case=False`` gives the names
    of a gradebook made before that rule (capitals kept), which it keeps.

    >>> output_names(["s/a/hw.ipynb", "s/b/hw.ipynb", "s/hw-2.ipynb"])
    ['a/hw.ipynb', 'b/hw.ipynb', 'hw-2.ipynb']
    >>> output_names(["x/grades.csv", "x/...ipynb", "x/=1+1 é.ipynb", "x/%3D1.ipynb"])
    ['%67rades.csv', '%2E..ipynb', '%3D1%2B1%20é.ipynb', '%253%441.ipynb']
    >>> output_names(["s/a/hw.ipynb"], base="s"), output_names([b"s/caf\\xe9.ipynb".decode(
    ...     "utf-8", "surrogateescape")])
    (['a/hw.ipynb'], ['caf%E9.ipynb'])
    >>> output_names(["s/alice.ipynb", "s/\u0430lice.ipynb"])
    ['alice.ipynb', '%D0%B0lice.ipynb']
    >>> output_names(["s/Ada.ipynb", "s/ada.ipynb", "s/GRADES.CSV", "s/Con.ipynb", "s/x."])
    ['%41da.ipynb', 'ada.ipynb', '%47%52%41%44%45%53.%43%53%56', '%43on.ipynb', 'x%2E']
    >>> output_names(["s/Ada.ipynb", "s/nul.ipynb"], fold_case=False)
    ['Ada.ipynb', 'nul.ipynb']
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
        names.append("/".join(safe_component(c, fold_case) for c in parts))
    return names


def file_name(name):
    """The file name a submission named ``name`` had (the last component of its output
    name, decoded), or None where the name does not tell it (a name shortened with a
    digest).

    >>> file_name("carol/hw.ipynb"), file_name("%67rades.csv"), file_name("caf%E9.ipynb")
    ('hw.ipynb', 'grades.csv', 'caf\udce9.ipynb')
    """
    from urllib.parse import unquote

    last = name.rsplit("/", 1)[-1]
    if "%~" in last:
        return None
    return unquote(last, errors="surrogateescape")


def check_name(name):
    """``name`` if it is an output name that :func:`output_names` gives some path (each
    component percent-encoded as it would be), else ValueError naming ``--name``.

    >>> check_name("carol/hw.ipynb")
    'carol/hw.ipynb'
    """
    from urllib.parse import unquote

    parts = name.split("/") if isinstance(name, str) else []
    encoded = [safe_component(unquote(p, errors="surrogateescape")) for p in parts if p]
    if not parts or "" in parts or "/".join(encoded) != name or "%~" in name:
        good = "/".join(encoded) if encoded else "carol/hw.ipynb"
        raise ValueError(f"argument --name: expected a submission name as grades.csv shows "
                         f"it (components percent-encoded, e.g. {good!r}), got {name!r}")
    return name
