"""Numbers a chapter hands to its prose, stored at a precision that no processor changes.

The book quotes computed numbers through myst-nb's ``glue``, and nbval checks every stored
output against a fresh run.  NumPy and OpenBLAS choose their SIMD kernels by processor, so
the same code gives floats whose last two or three of seventeen significant digits differ
from one machine to another (summation order, fused multiply-add).  The book's policy:

* **A glued float carries** :data:`SIGNIFICANT_DIGITS` **significant digits** (8): more than
  any sentence shows (at most five), far fewer than any kernel changes (the differences seen
  between processors are below one part in 10^11).  :func:`glue` rounds every float it
  stores, in scalars, arrays, lists and pandas objects, so the prose formats the same
  number on every machine.
* **An agreement is stored as a bound.**  "The two computations agree to within ..." quotes
  :func:`within` of the difference: the smallest power of ten at or above it, and never
  below :data:`AGREEMENT_FLOOR` (``1e-12``), since below that the difference is rounding
  error whose size depends on the processor.
* **A table a reader sees** is passed through :func:`stable` before it is displayed, so that
  a value that lies on a rounding boundary of the displayed precision (``0.02025`` shown
  with four decimals) is rounded the same way everywhere.  It is stored as data too
  (:func:`table_form`), so that the book prints it without reading its HTML.
* **A verdict is computed, not written.**  A sentence that compares computed results
  ("beats", "ties with", "lower") takes its word from :func:`verdict`, glued beside the
  numbers, so that a refresh whose numbers contradict the prose changes a stored output and
  fails nbval.  Two results whose difference has an interval containing zero are a tie.

Counts, strings and booleans are stored as they are: a different count is a real change.
"""

import math
import re
from numbers import Integral, Real

import numpy as np

from ._validation import _describe
from .mime import VERSION

__all__ = ["SIGNIFICANT_DIGITS", "AGREEMENT_FLOOR", "stable", "within", "glue", "table_form",
           "verdict"]

#: Significant digits of every float the book stores for its prose.
SIGNIFICANT_DIGITS = 8

#: The smallest agreement :func:`within` reports: differences below it are rounding error.
AGREEMENT_FLOOR = 1e-12


def _check_digits(digits):
    if isinstance(digits, bool) or not isinstance(digits, Integral) or not 1 <= digits <= 17:
        raise ValueError(f"digits must be an integer from 1 to 17, got {digits!r}")
    return int(digits)


def _round_float(x: float, digits: int) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    return float(f"{x:.{digits - 1}e}")


def stable(value, digits=SIGNIFICANT_DIGITS):
    """``value`` with every float rounded to ``digits`` significant digits.

    Parameters
    ----------
    value : float, int, bool, str, numpy scalar or array, list, tuple, dict or pandas object
        Floats are rounded (NumPy floats become Python floats, float arrays keep their
        shape and dtype); integers, booleans, strings and other objects are returned as
        they are, and containers are rounded element by element.
    digits : int, default :data:`SIGNIFICANT_DIGITS`
        Significant digits kept, 1 to 17.

    Returns
    -------
    The same kind of object with its floats rounded.  ``0``, ``nan`` and ``inf`` stay.

    Examples
    --------
    >>> stable(0.2366960491666734)
    0.23669605
    >>> stable(3.024999999999999) == stable(3.025)
    True
    >>> stable({"n": 7, "share": np.float64(1 / 3)}, digits=3)
    {'n': 7, 'share': 0.333}
    """
    digits = _check_digits(digits)
    if isinstance(value, (bool, np.bool_, Integral, str, bytes)) or value is None:
        return value
    if isinstance(value, (float, np.floating)):
        return _round_float(float(value), digits)
    if isinstance(value, np.ndarray):
        if not np.issubdtype(value.dtype, np.floating):
            return value
        flat = [_round_float(float(x), digits) for x in value.ravel()]
        return np.array(flat, dtype=value.dtype).reshape(value.shape)
    if isinstance(value, (list, tuple)):
        return type(value)(stable(v, digits) for v in value)
    if isinstance(value, dict):
        return {k: stable(v, digits) for k, v in value.items()}
    if hasattr(value, "map") and hasattr(value, "dtypes"):  # pandas DataFrame or Series
        return value.map(lambda v: stable(v, digits) if isinstance(v, (float, np.floating))
                         else v)
    return value


def within(difference, floor=AGREEMENT_FLOOR):
    """The bound quoted for an agreement: the smallest power of ten >= ``|difference|``.

    Parameters
    ----------
    difference : real number or array_like
        A difference (or the largest of several, taken here when an array is given)
        between two computations of the same quantity.
    floor : float, default :data:`AGREEMENT_FLOOR`
        The smallest bound returned, positive: a difference below it is rounding error.

    Returns
    -------
    float
        ``10.0 ** k`` with ``k`` the smallest integer such that ``|difference| <= 10**k``
        and ``10**k >= floor``.

    Examples
    --------
    >>> within(2.220446049250313e-16)
    1e-12
    >>> within(3.66e-07)
    1e-06
    >>> within([1e-3, -0.02])
    0.1
    """
    if isinstance(floor, bool) or not isinstance(floor, Real) or not floor > 0:
        raise ValueError(f"floor must be a positive number, got {floor!r}")
    diff = np.abs(np.asarray(difference, dtype=float))
    if diff.size == 0 or not np.all(np.isfinite(diff)):
        raise ValueError(f"difference must be finite numbers, at least one, got {difference!r}")
    largest = max(float(diff.max()), float(floor))
    k = math.ceil(math.log10(largest))
    while float(f"1e{k}") < largest:  # log10 is rounded: settle k on the decimal powers
        k += 1
    while float(f"1e{k - 1}") >= largest:
        k -= 1
    return float(f"1e{k}")


def glue(name, value, display=False):
    """Store ``value`` under ``name`` for the prose (myst-nb's ``glue``), floats made stable.

    Parameters
    ----------
    name : str
        The key the prose quotes (``{glue:text}`name:.3f```).
    value : object
        What to store; its floats are rounded by :func:`stable` first.
    display : bool, default False
        Also show the value under the cell, as myst-nb's ``glue`` does.

    Returns nothing, as myst-nb's ``glue`` does, so that a cell ending in a call shows no
    value.  Where myst-nb is not installed (a student's environment, whose chapters have the
    values written into their text) nothing is stored.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"name must be a Python identifier, got {name!r}")
    value = stable(value)
    try:
        from myst_nb import glue as myst_glue
    except ImportError:
        return
    myst_glue(name, value, display=display)


def _interval_ends(interval):
    """``(low, high)`` of a number, a pair, or an object with ``low`` and ``high``."""
    if hasattr(interval, "low") and hasattr(interval, "high"):
        ends = (interval.low, interval.high)
    elif isinstance(interval, Real) and not isinstance(interval, bool):
        ends = (interval, interval)
    elif isinstance(interval, (tuple, list)) and len(interval) == 2:
        ends = tuple(interval)
    else:
        raise ValueError("interval must be a number, a pair (low, high) or an object with "
                         f"attributes low and high, got {interval!r:.80}")
    if not all(isinstance(e, Real) and not isinstance(e, bool) and math.isfinite(e)
               for e in ends):
        raise ValueError(f"interval must have finite real ends, got {ends!r:.80}")
    low, high = (float(e) for e in ends)
    if low > high:
        raise ValueError(f"interval must have low <= high, got ({low!r}, {high!r})")
    return low, high


def verdict(interval, words=("below", "level with", "above")):
    """The word a sentence uses for a computed difference, from where it lies around zero.

    The rule: ``words[0]`` when the whole interval lies below zero, ``words[2]`` when it
    lies above zero, and ``words[1]`` (a tie) when it contains zero, ends included.  Give
    the interval of a difference ``A - B`` computed in the chapter: a paired bootstrap
    interval (:func:`nbcourse.paired_bootstrap`), a corrected t-interval over resampled
    splits (:func:`nbcourse.fold_t_interval`), or a single number for a difference that
    has no sampling error (an exact computation; only an exact zero is then a tie).  For a
    loss, where lower is better, ``("beats", "ties with", "loses to")`` reads "A beats B".

    Parameters
    ----------
    interval : float, (low, high), or an object with attributes ``low`` and ``high``
        The difference ``A - B`` or an interval for it; finite, ``low <= high``.
    words : sequence of three str, default ``("below", "level with", "above")``
        The words for a difference below zero, containing zero, and above zero.

    Returns
    -------
    str
        One of ``words``.

    Examples
    --------
    >>> verdict((-0.03, -0.01), ("beats", "ties with", "loses to"))
    'beats'
    >>> verdict((-0.004, 0.002), ("beats", "ties with", "loses to"))
    'ties with'
    >>> verdict(0.25)
    'above'
    """
    if (isinstance(words, str) or not hasattr(words, "__len__") or len(words) != 3
            or not all(isinstance(w, str) and w for w in words)):
        raise ValueError(f"words must be three non-empty strings (below, tie, above), "
                         f"got {words!r:.80}")
    low, high = _interval_ends(interval)
    if high < 0:
        return words[0]
    if low > 0:
        return words[2]
    return words[1]


_SPAN = re.compile(r'\b(col|row)span="([0-9]+)"')


def table_form(frame) -> dict:
    """The JSON form (:data:`nbcourse.mime.TABLE`) of a DataFrame, as Jupyter shows it.

    The cells are those of pandas' own notebook table (``DataFrame._repr_html_``), taken
    from its formatter row by row rather than from its HTML: the same numbers (pandas'
    ``display.precision``), the same "..." rows and columns of a shortened table, the same
    labels spanning rows or columns in a hierarchical index.

    Examples
    --------
    >>> import pandas as pd
    >>> form = table_form(pd.DataFrame({"p": [0.25, 0.5]}, index=["a", "b"]))
    >>> form["head"]
    [[{'text': '', 'th': True}, {'text': 'p', 'th': True}]]
    >>> form["body"][1]
    [{'text': 'b', 'th': True}, {'text': '0.50'}]
    """
    import pandas as pd
    from pandas.io.formats.format import DataFrameFormatter
    from pandas.io.formats.html import NotebookFormatter
    from pandas.io.formats.printing import pprint_thing

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {_describe(frame)}")
    head, body = [], []

    class Rows(NotebookFormatter):
        """pandas' notebook table, each row kept as cells instead of written as HTML."""

        def write_tr(self, line, indent=0, indent_delta=0, header=False, align=None,
                     tags=None, nindex_levels=0):
            cells = []
            for i, value in enumerate(line):
                cell = {"text": pprint_thing(value).strip()}
                if header or i < nindex_levels:
                    cell["th"] = True
                cell.update((f"{kind}span", int(n))
                            for kind, n in _SPAN.findall((tags or {}).get(i) or ""))
                cells.append(cell)
            (head if header else body).append(cells)

    option = pd.get_option
    formatter = DataFrameFormatter(  # as DataFrame._repr_html_ makes it
        frame, na_rep="NaN", float_format=option("display.float_format"), index_names=True,
        header=True, index=True, bold_rows=True, escape=True,
        max_rows=option("display.max_rows"), min_rows=option("display.min_rows"),
        max_cols=option("display.max_columns"),
        show_dimensions=option("display.show_dimensions"), decimal=".")
    Rows(formatter).render()
    dimensions = (f"{len(frame)} rows \u00d7 {len(frame.columns)} columns"
                  if formatter.should_show_dimensions else "")
    return {"version": VERSION, "head": head, "body": body, "dimensions": dimensions}

