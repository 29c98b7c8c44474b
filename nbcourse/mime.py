"""The project's own MIME types: structured outputs that the book renders, never parses back.

Three kinds of output leave the library as data, each under a versioned JSON MIME type of its
own, beside the representations that any front end shows:

:data:`SELFCHECK` (``application/vnd.nbcourse.selfcheck+json``), version 1
    A self-check question (:mod:`nbcourse.selfcheck`)::

        {"version": 1, "kind": "choice" | "number", "prompt": str,
         "options": [str, ...],        # the options of a choice; [] for a number
         "right": int | float,         # index of the right option, or the right number
         "tolerance": float,           # numbers: largest accepted distance from "right"
         "feedback": [str, ...]}       # one per option, or [when right, when wrong]

    The bundle also holds ``text/html`` (the form JupyterLab shows) and ``text/plain``.

:data:`EXPLORE` (``application/vnd.nbcourse.explore+json``), version 1
    The static form of an explorable figure (:mod:`nbcourse.interact`)::

        {"version": 1, "id": "nbcourse-explore-<12 hex>", "title": str, "caption": str,
         "controls": [{"name": str, "text": str, "kind": "int" | "float" | "options",
                       "labels": [str, ...]}, ...],
         "initial": [int, ...],        # 0-based index of the initial value of each control
         "sizes": [int, ...],          # number of values of each control
         "index": [int, ...],          # state k (row-major over the controls) -> frame
         "alts": [str, ...],           # alt text of each state
         "frames": [str, ...],         # each distinct frame once, a base64 PNG
         "width": int, "height": int}  # pixel size of the frames

    The bundle also holds ``image/png`` (the still of the initial state, which Jupyter and
    print show) and ``text/plain`` (which says to run the cell for the controls); the frames
    are stored once, here, and nowhere as HTML.

:data:`TABLE` (``application/vnd.nbcourse.table+json``), version 1
    A pandas DataFrame as Jupyter shows it (:func:`nbcourse.publish.table_form`), cell by cell::

        {"version": 1,
         "head": [[cell, ...], ...],   # the rows of column labels (and of index names)
         "body": [[cell, ...], ...],   # one row per row shown: index labels, then values
         "dimensions": str}            # "60 rows × 5 columns" under a shortened table, or ""

    where each ``cell`` is ``{"text": str}``, with ``"th": true`` for a label and
    ``"colspan"``/``"rowspan"``: an int > 1 for a label that spans columns or rows.  The
    texts are pandas' own (its ``display.*`` options: precision, "..." rows and columns of a
    shortened table), so a table reads the same in every medium.  IPython adds the form to
    the bundle of every DataFrame it shows, beside pandas' ``text/html`` and ``text/plain``,
    once ``nbcourse`` is imported (:func:`nbcourse.load_ipython_extension`).

The HTML and LaTeX of the book come from these forms through a myst-nb MIME render plugin,
:mod:`nbcourse_book.renderer`.  :func:`payload` takes the data of one type out of a bundle and checks
its envelope, so that a malformed output fails with an error naming what was expected.
"""

from __future__ import annotations

from collections.abc import Mapping

from ._validation import _describe

__all__ = ["EXPLORE", "SELFCHECK", "TABLE", "VERSION", "payload"]

SELFCHECK = "application/vnd.nbcourse.selfcheck+json"
"""MIME type of a self-check question's JSON form."""

EXPLORE = "application/vnd.nbcourse.explore+json"
"""MIME type of an explorable figure's JSON form."""

TABLE = "application/vnd.nbcourse.table+json"
"""MIME type of a table's JSON form."""

VERSION = 1
"""Version of the JSON forms that this library writes and reads."""


def payload(bundle, mime_type: str, keys: Mapping[str, type | tuple]) -> dict:
    """The JSON form of ``mime_type`` in ``bundle``, its envelope and field types checked.

    Parameters
    ----------
    bundle : dict
        A MIME bundle (``output["data"]`` of a notebook output, or the data returned by
        ``_repr_mimebundle_``), or the JSON form itself (a dict with ``"version"``).
    mime_type : str
        :data:`SELFCHECK`, :data:`EXPLORE` or :data:`TABLE`.
    keys : mapping of str to type
        The fields the form must have and the type of each.

    Examples
    --------
    >>> payload({SELFCHECK: {"version": 1, "kind": "number"}}, SELFCHECK, {"kind": str})
    {'version': 1, 'kind': 'number'}
    >>> payload({"text/plain": "x"}, SELFCHECK, {})
    Traceback (most recent call last):
    ...
    ValueError: bundle must hold 'application/vnd.nbcourse.selfcheck+json' (a JSON object), got a bundle of ['text/plain']
    """
    what = f"{mime_type!r} (a JSON object)"
    if not isinstance(bundle, Mapping):
        raise TypeError(f"bundle must be a MIME bundle (dict) holding {what}, "
                        f"got {_describe(bundle)}")
    data = bundle if "version" in bundle else bundle.get(mime_type)
    if data is None:
        raise ValueError(f"bundle must hold {what}, got a bundle of {sorted(bundle)}")
    if not isinstance(data, Mapping):
        raise TypeError(f"bundle[{mime_type!r}] must be a JSON object, got {_describe(data)}")
    if data.get("version") != VERSION:
        raise ValueError(f"bundle[{mime_type!r}]['version'] must be {VERSION} (the version "
                         f"this library reads), got {data.get('version')!r}")
    for key, types in keys.items():
        if key not in data:
            raise ValueError(f"bundle[{mime_type!r}] must have the field {key!r}, "
                             f"got the fields {sorted(data)}")
        if not isinstance(data[key], types) or isinstance(data[key], bool):
            names = " or ".join(t.__name__ for t in (types if isinstance(types, tuple)
                                                      else (types,)))
            raise TypeError(f"bundle[{mime_type!r}][{key!r}] must be {names}, "
                            f"got {_describe(data[key])}")
    return dict(data)
