"""Small validators shared by every public entry point of :mod:`nbcourse`.

Each function checks one kind of argument, converts it to a NumPy array (or a
Python scalar) and returns it, or raises :class:`ValueError` /
:class:`TypeError` with a message that names the argument, says what was
expected and shows what was given, always in the form
``"<name> must be <what was expected>, got <what was given>"``.  Every module of
the library (the estimators, the experiments, the figures) validates through them.

Random state
------------
Every random function takes ``seed``: ``None`` (fresh entropy), a non-negative
int, a :class:`numpy.random.SeedSequence` or a :class:`numpy.random.Generator`
(used as it is, so a notebook can thread one generator through several calls).
:func:`check_seed` and :func:`as_generator` implement that convention.

Tolerance
---------
Rows that must lie on the probability simplex are accepted when their sum is
within ``ROW_SUM_ATOL = 1e-8`` of 1 (absolute).  That is loose enough for
parameters typed by hand to 8+ decimals or produced by floating-point
arithmetic, and tight enough to catch a genuine mistake.

Examples
--------
>>> from nbcourse._validation import check_probabilities, check_simplex
>>> check_probabilities([0.2, 1.0], "p")
array([0.2, 1. ])
>>> check_simplex([[0.5, 0.6]], "theta")
Traceback (most recent call last):
...
ValueError: theta must have rows summing to 1 (within 1e-08) along its last axis; row 0 sums to 0.1 too many (sum 1.1)
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "ROW_SUM_ATOL",
    "as_real_array",
    "as_generator",
    "check_alpha",
    "check_binary",
    "check_classifier",
    "check_codes",
    "check_codes_below",
    "check_index",
    "check_int",
    "check_labels",
    "check_n_categories",
    "check_n_values",
    "check_ndim",
    "check_positive",
    "check_probabilities",
    "check_same_shape",
    "check_seed",
    "check_simplex",
    "check_text",
    "check_theta",
]

#: Absolute tolerance on ``|sum(row) - 1|`` for rows on the probability simplex.
ROW_SUM_ATOL = 1e-8


def _describe(x) -> str:
    """A short description of ``x`` for error messages (type, shape, a few values)."""
    arr = np.asarray(x) if not isinstance(x, str) else None
    if arr is None or arr.dtype == object:
        return f"{type(x).__name__} {x!r:.60}"
    if arr.ndim == 0:
        return f"{arr.item()!r}"
    flat = np.array2string(arr.ravel()[:6], precision=4, separator=", ")
    more = ", ..." if arr.size > 6 else ""
    return f"array of shape {arr.shape} and dtype {arr.dtype} ({flat[:-1]}{more}])"


def as_real_array(x, name: str) -> np.ndarray:
    """Convert ``x`` to a float64 array, rejecting non-numeric input and NaN.

    Parameters
    ----------
    x : array_like
        Numbers (booleans and integers are accepted and converted).
    name : str
        Argument name used in error messages.

    Returns
    -------
    numpy.ndarray of float64
        Same shape as ``x``.  Infinite values are allowed here; callers that
        need finiteness check it themselves.

    Raises
    ------
    TypeError
        If ``x`` is not numeric (strings, objects, complex numbers).
    ValueError
        If ``x`` contains NaN.

    Examples
    --------
    >>> as_real_array([1, 2], "x")
    array([1., 2.])
    """
    try:
        arr = np.asarray(x)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array of numbers, got {x!r:.60}") from exc
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must contain real numbers, got {_describe(x)}")
    arr = arr.astype(np.float64, copy=False)
    if np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN, got {_describe(arr)}")
    return arr


def check_probabilities(x, name: str) -> np.ndarray:
    """Return ``x`` as a float64 array of probabilities, each in ``[0, 1]``.

    Parameters
    ----------
    x : array_like, any shape
    name : str
        Argument name used in error messages.

    Returns
    -------
    numpy.ndarray of float64

    Raises
    ------
    TypeError
        If ``x`` is not numeric.
    ValueError
        If any entry is NaN or lies outside ``[0, 1]``.

    Examples
    --------
    >>> check_probabilities(0.5, "p")
    array(0.5)
    >>> check_probabilities([0.1, 1.2], "p")
    Traceback (most recent call last):
    ...
    ValueError: p must contain probabilities in [0, 1]; entry (1,) is 1.2
    """
    arr = as_real_array(x, name)
    bad = (arr < 0) | (arr > 1)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"{name} must contain probabilities in [0, 1]; entry {idx} is {arr[idx].item()!r}"
        )
    return arr


def check_simplex(x, name: str, *, atol: float = ROW_SUM_ATOL) -> np.ndarray:
    """Return ``x`` as probabilities whose last axis sums to 1.

    Parameters
    ----------
    x : array_like, shape (..., K)
        Each row (along the last axis) is a probability vector.
    name : str
        Argument name used in error messages.
    atol : float, default ``ROW_SUM_ATOL`` (1e-8)
        Accepted absolute deviation of each row sum from 1.

    Returns
    -------
    numpy.ndarray of float64, shape (..., K)
        The input, unchanged (rows are not renormalised).

    Raises
    ------
    ValueError
        If ``x`` is a scalar, has an entry outside ``[0, 1]`` or NaN, or a row
        whose sum differs from 1 by more than ``atol``.

    Examples
    --------
    >>> check_simplex([[0.25, 0.75], [1.0, 0.0]], "theta").shape
    (2, 2)
    """
    arr = check_probabilities(x, name)
    if arr.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (a probability vector), got a scalar")
    dev = arr.sum(axis=-1) - 1.0
    bad = np.abs(dev) > atol
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0]) if dev.ndim else ()
        word = "too many" if dev[idx] > 0 else "too few"
        where = f"row {idx[0] if len(idx) == 1 else idx}" if idx else "the vector"
        raise ValueError(
            f"{name} must have rows summing to 1 (within {atol:g}) along its last axis; "
            f"{where} sums to {abs(dev[idx]):.3g} {word} (sum {dev[idx] + 1:.10g})"
        )
    return arr


def check_codes(X, name: str, *, ndim: int | None = 2) -> np.ndarray:
    """Return ``X`` as an int64 array of non-negative category codes.

    Integral floats such as ``2.0`` are accepted; ``1.5``, negative numbers,
    NaN and infinities are not.

    Parameters
    ----------
    X : array_like
        Category codes ``0, 1, ..., V-1``.
    name : str
        Argument name used in error messages.
    ndim : int or None, default 2
        Required number of dimensions (``None``: any).

    Returns
    -------
    numpy.ndarray of int64

    Raises
    ------
    TypeError
        If ``X`` is not numeric.
    ValueError
        On the wrong number of dimensions, an empty array, or a code that is
        not a non-negative integer.

    Examples
    --------
    >>> check_codes([[0, 2], [1.0, 0]], "X")
    array([[0, 2],
           [1, 0]])
    """
    arr = as_real_array(X, name) if np.asarray(X).dtype.kind not in "biu" else np.asarray(X)
    if ndim is not None:
        check_ndim(arr, ndim, name)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got {_describe(arr)}")
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValueError(
                f"{name} must contain integer category codes 0, 1, 2, ...; "
                f"entry {idx} is {arr[idx].item()!r}"
            )
    if (arr < 0).any():
        idx = tuple(int(i) for i in np.argwhere(arr < 0)[0])
        raise ValueError(
            f"{name} must contain non-negative category codes 0, 1, 2, ...; "
            f"entry {idx} is {arr[idx].item()!r}"
        )
    return arr.astype(np.int64)


def check_binary(B, name: str, *, ndim: int | None = 2) -> np.ndarray:
    """Return ``B`` as an int64 array whose entries are all 0 or 1.

    Parameters
    ----------
    B : array_like
        Bits (booleans, integers or floats equal to 0 or 1).
    name : str
        Argument name used in error messages.
    ndim : int or None, default 2
        Required number of dimensions (``None``: any).

    Returns
    -------
    numpy.ndarray of int64

    Raises
    ------
    TypeError
        If ``B`` is not numeric.
    ValueError
        On the wrong number of dimensions, an empty array or an entry other
        than 0 or 1.

    Examples
    --------
    >>> check_binary([[True, False]], "B")
    array([[1, 0]])
    """
    arr = as_real_array(B, name)
    if ndim is not None:
        check_ndim(arr, ndim, name)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got {_describe(arr)}")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must contain only 0 and 1; entry {idx} is {arr[idx].item()!r}")
    return arr.astype(np.int64)


def check_alpha(alpha, name: str = "alpha") -> float:
    """Return a smoothing constant as a float, checking ``alpha >= 0``.

    Parameters
    ----------
    alpha : real scalar
        Additive (Laplace/Lidstone) smoothing pseudo-count.
    name : str, default "alpha"

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``alpha`` is not a real number (booleans are refused).
    ValueError
        If ``alpha`` is negative, NaN or infinite.

    Examples
    --------
    >>> check_alpha(1)
    1.0
    """
    if isinstance(alpha, bool | np.bool_) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"{name} must be a real number >= 0, got {_describe(alpha)}")
    value = float(alpha)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return value


def check_index(j, n: int, name: str = "j") -> int:
    """Return ``j`` as a Python int after checking ``0 <= j < n``.

    Indices are 0-based: a K-valued variable has values ``j in range(K)``.

    Parameters
    ----------
    j : int
    n : int
        Number of valid positions.
    name : str, default "j"

    Raises
    ------
    TypeError
        If ``j`` is not an integer (booleans and floats are refused).
    ValueError
        If ``j`` is outside ``range(n)``.

    Examples
    --------
    >>> check_index(2, 3)
    2
    >>> check_index(3, 3)
    Traceback (most recent call last):
    ...
    ValueError: j must be an index in range(3) (0-based), got 3
    """
    if isinstance(j, bool | np.bool_) or not isinstance(j, numbers.Integral):
        raise TypeError(f"{name} must be an integer index (0-based), got {_describe(j)}")
    if not 0 <= int(j) < n:
        raise ValueError(f"{name} must be an index in range({n}) (0-based), got {int(j)}")
    return int(j)


def check_n_categories(K, name: str = "K") -> int:
    """Return the number of categories ``K`` as an int, checking ``K >= 2``.

    Examples
    --------
    >>> check_n_categories(3)
    3
    """
    if isinstance(K, bool | np.bool_) or not isinstance(K, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= 2, got {_describe(K)}")
    if int(K) < 2:
        raise ValueError(f"{name} must be an integer >= 2 (number of categories), got {int(K)}")
    return int(K)


def check_ndim(arr: np.ndarray, ndim: int, name: str) -> np.ndarray:
    """Check that ``arr`` has exactly ``ndim`` dimensions.

    Examples
    --------
    >>> check_ndim(np.zeros((2, 3)), 2, "X").shape
    (2, 3)
    """
    if arr.ndim != ndim:
        raise ValueError(
            f"{name} must be a {ndim}-d array, got {arr.ndim}-d array of shape {arr.shape}"
        )
    return arr


def check_same_shape(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Check that two arrays have identical shapes.

    Examples
    --------
    >>> check_same_shape(np.zeros(3), np.zeros(2), "p", "q")
    Traceback (most recent call last):
    ...
    ValueError: p and q must have the same shape, got (3,) and (2,)
    """
    if a.shape != b.shape:
        raise ValueError(
            f"{name_a} and {name_b} must have the same shape, got {a.shape} and {b.shape}"
        )


def check_labels(y, n_samples: int, name: str = "y") -> np.ndarray:
    """Return class labels ``y`` as a 1-d array with at least two distinct classes.

    Parameters
    ----------
    y : array_like, shape (n_samples,)
        Class labels of any sortable type (ints, strings).
    n_samples : int
        Number of rows of the matching feature matrix.
    name : str, default "y"

    Raises
    ------
    ValueError
        If ``y`` is not 1-d, has the wrong length, contains NaN, or has fewer
        than two distinct classes.

    Examples
    --------
    >>> check_labels(["a", "b", "a"], 3)
    array(['a', 'b', 'a'], dtype='<U1')
    """
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of class labels, got shape {arr.shape}")
    if arr.shape[0] != n_samples:
        raise ValueError(
            f"{name} must have one label per row of X ({n_samples}), got {arr.shape[0]} labels"
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN labels")
    n_classes = np.unique(arr).size
    if n_classes < 2:
        raise ValueError(
            f"{name} must contain at least 2 distinct classes, got {n_classes} "
            f"({_describe(np.unique(arr))})"
        )
    return arr


def check_int(x, name: str, minimum: int = 0) -> int:
    """Return ``x`` as a Python int after checking it is an integer ``>= minimum``.

    Raises
    ------
    TypeError
        If ``x`` is not an integer (booleans and floats such as 2.5 are refused).
    ValueError
        If ``x < minimum``.

    Examples
    --------
    >>> check_int(3, "n", 1)
    3
    >>> check_int(0, "n", 1)
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer >= 1, got 0
    """
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {minimum}, got {_describe(x)}")
    if int(x) < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {int(x)}")
    return int(x)


def check_positive(x, name: str) -> float:
    """Return ``x`` as a float after checking it is a finite real number ``> 0``.

    Examples
    --------
    >>> check_positive(0.5, "alpha")
    0.5
    >>> check_positive(0, "alpha")
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a finite number > 0, got 0.0
    """
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name} must be a finite number > 0, got {_describe(x)}")
    value = float(x)
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def check_text(x, name: str) -> str:
    """Return ``x`` stripped of surrounding blanks after checking it is a non-empty str.

    Raises
    ------
    TypeError
        If ``x`` is not a str.
    ValueError
        If ``x`` is empty or only blanks.

    Examples
    --------
    >>> check_text("  prior P(ω₁) ", "label")
    'prior P(ω₁)'
    >>> check_text(" ", "label")
    Traceback (most recent call last):
    ...
    ValueError: label must be a non-empty str, got ' '
    """
    if not isinstance(x, str):
        raise TypeError(f"{name} must be a non-empty str, got {_describe(x)}")
    if not x.strip():
        raise ValueError(f"{name} must be a non-empty str, got {x!r}")
    return x.strip()


def check_seed(seed, name: str = "seed") -> np.random.SeedSequence:
    """A :class:`numpy.random.SeedSequence` from the library's random-state convention.

    ``seed`` may be ``None``, a non-negative int, a SeedSequence (returned as it
    is) or a Generator (which supplies the entropy, so the result depends on the
    generator's state and advances it).

    Examples
    --------
    >>> check_seed(3).entropy
    3
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(seed.integers(0, 2**63, size=2).tolist())
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise TypeError(
            f"{name} must be None, a non-negative int, a numpy SeedSequence or Generator, "
            f"got {_describe(seed)}"
        )
    return np.random.SeedSequence(int(seed))


def as_generator(seed, name: str = "seed") -> np.random.Generator:
    """A :class:`numpy.random.Generator` from ``seed`` (see :func:`check_seed`).

    A Generator is returned as it is (not reseeded), so successive calls that
    share one generator continue its stream.

    Examples
    --------
    >>> g = np.random.default_rng(0)
    >>> as_generator(g) is g
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.Generator(np.random.PCG64(check_seed(seed, name)))


def check_theta(theta, name: str = "theta") -> np.ndarray:
    """Probability vectors along the last axis (shape ``(..., K)``, ``K >= 2``).

    Examples
    --------
    >>> check_theta([0.25, 0.75]).shape
    (2,)
    """
    arr = check_simplex(theta, name)
    check_n_categories(arr.shape[-1], f"the last axis of {name} (K)")
    return arr


def check_classifier(pi, theta) -> tuple[np.ndarray, np.ndarray]:
    """Validate a classifier with one categorical feature: ``pi`` (..., C) and ``theta`` (..., C, K).

    Both hold rows on the simplex; they must have the same number of classes
    ``C`` and leading axes that broadcast against each other.

    Examples
    --------
    >>> pi, theta = check_classifier([0.5, 0.5], [[0.2, 0.8], [0.6, 0.4]])
    >>> pi.shape, theta.shape
    ((2,), (2, 2))
    """
    theta = check_theta(theta)
    if theta.ndim < 2:
        raise ValueError(
            f"theta must have shape (..., C, K) (one row per class), got shape {theta.shape}"
        )
    pi = check_simplex(pi, "pi")
    if pi.shape[-1] != theta.shape[-2]:
        raise ValueError(
            f"pi and theta must have the same number of classes C: pi has shape {pi.shape} "
            f"(C = {pi.shape[-1]}) but theta has shape {theta.shape} (C = {theta.shape[-2]})"
        )
    try:
        np.broadcast_shapes(pi.shape[:-1], theta.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the leading axes of pi {pi.shape[:-1]} and theta {theta.shape[:-2]} "
            "must broadcast against each other"
        ) from None
    return pi, theta


def check_n_values(n_values, n_features: int | None = None, name: str = "n_values", *,
                   required: bool = False):
    """The number of values ``V_j`` of each feature as int64, the one check of ``n_values``.

    Accepts an int (every feature has that many values; one feature when ``n_features``
    is not known) or a sequence of integers, one per feature (``n_features`` of them when
    given), each at least 1.  Whole numbers stored as floats are accepted.  ``None`` stays
    ``None`` (the caller infers the counts from data) unless ``required``.

    Examples
    --------
    >>> check_n_values(3, 2)
    array([3, 3])
    >>> check_n_values([2, 0])
    Traceback (most recent call last):
    ...
    ValueError: n_values must be an int >= 1 or a non-empty sequence of ints >= 1, the number of values of each feature, got [2, 0]
    """  # noqa: E501
    if n_values is None and not required:
        return None
    if n_features is None:
        expected = "an int >= 1 or a non-empty sequence of ints >= 1"
    else:
        expected = f"an int >= 1 or a sequence of {n_features} ints >= 1"
    message = f"{name} must be {expected}, the number of values of each feature, got "
    if isinstance(n_values, numbers.Integral) and not isinstance(n_values, bool):
        arr = np.full(1 if n_features is None else n_features, int(n_values), dtype=np.int64)
        if n_values < 1:
            raise ValueError(f"{message}{n_values!r}")
        return arr
    arr = np.asarray(n_values) if not isinstance(n_values, str | bytes | bool) else None
    whole = arr is not None and arr.ndim == 1 and arr.size > 0 and (
        arr.dtype.kind in "iu" or (arr.dtype.kind == "f" and np.isfinite(arr).all()
                                   and (arr == np.round(arr)).all()))
    if (not whole or (n_features is not None and arr.shape[0] != n_features)
            or (arr < 1).any()):
        got = (arr.tolist() if whole and arr.size <= 12
               else "None" if n_values is None else _describe(n_values))
        raise ValueError(f"{message}{got}")
    return arr.astype(np.int64)


def check_codes_below(X: np.ndarray, n_values: np.ndarray, name: str, origin: str) -> None:
    """Every code ``X[:, i]`` must be below ``n_values[i]``; ``origin`` says where those came from."""
    too_big = X >= n_values[None, :]
    if too_big.any():
        r, i = (int(v) for v in np.argwhere(too_big)[0])
        raise ValueError(
            f"{name}[{r}, {i}] = {int(X[r, i])} is not a valid code for feature {i}, which has "
            f"{int(n_values[i])} categories (codes 0..{int(n_values[i]) - 1}, {origin})"
        )
