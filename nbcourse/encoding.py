"""One-hot encoding, and finding one-hot groups in a bare 0/1 table.

* :func:`one_hot` turns category codes into bits, ``x̃ = e_{x_j}`` for each
  feature (Williams 2024, §1), and :func:`one_hot_groups` says which columns
  belong to which feature;
* :func:`variance_inflation_factors` and :func:`find_one_hot_groups` look for
  one-hot codes hidden among the columns of a table without a data dictionary
  (Williams 2024, footnote 3).

Examples
--------
>>> one_hot([[0, 2], [1, 0]], n_values=[2, 3])
array([[1, 0, 0, 0, 1],
       [0, 1, 1, 0, 0]])
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ._validation import check_binary, check_codes, check_codes_below, check_n_values

__all__ = ["find_one_hot_groups", "one_hot", "one_hot_groups", "variance_inflation_factors"]


# --- one-hot encoding ----------------------------------------------------------------------


def one_hot_groups(n_values):
    """Column indices of each feature's block in :func:`one_hot` output.

    Parameters
    ----------
    n_values : sequence of int
        Number of categories of each feature, ``V_0, V_1, ...``.

    Returns
    -------
    list of numpy.ndarray of int64
        ``groups[j]`` holds the ``V_j`` consecutive columns of feature ``j``;
        column ``groups[j][v]`` is the bit for ``x_j = v``.

    Examples
    --------
    >>> one_hot_groups([2, 3])
    [array([0, 1]), array([2, 3, 4])]
    """
    arr = check_n_values(n_values, required=True)
    starts = np.concatenate([[0], np.cumsum(arr)[:-1]])
    return [np.arange(s, s + v, dtype=np.int64) for s, v in zip(starts, arr, strict=True)]


def one_hot(X, n_values=None, *, return_groups=False):
    """One-hot encode integer category codes: ``K`` bits per feature, exactly one on.

    The categorical feature ``x_j`` with ``V_j`` values becomes the bits
    ``x̃ = e_{x_j}`` (Williams 2024, §1); blocks follow feature order, as in
    scikit-learn's ``OneHotEncoder`` with categories ``0..V_j-1``.

    Parameters
    ----------
    X : array_like, shape (N, d)
        Non-negative integer codes.
    n_values : int, sequence of int or None, default None
        ``V_j`` per feature (an int applies to all); ``None`` uses ``max(X[:, j]) + 1``.
    return_groups : bool, default False
        Also return :func:`one_hot_groups` of the ``V_j`` used.

    Returns
    -------
    B : numpy.ndarray of int64, shape (N, Σ V_i)
    groups : list of numpy.ndarray, only if ``return_groups``

    Examples
    --------
    >>> one_hot([[0, 2], [1, 0]], n_values=[2, 3])
    array([[1, 0, 0, 0, 1],
           [0, 1, 1, 0, 0]])
    >>> B, groups = one_hot([[1], [0]], return_groups=True)
    >>> groups
    [array([0, 1])]
    """
    X = check_codes(X, "X")
    V = check_n_values(n_values, X.shape[1])
    if V is None:
        V = X.max(axis=0) + 1
    else:
        check_codes_below(X, V, "X", "from n_values")
    groups = one_hot_groups(V)
    B = np.zeros((X.shape[0], int(V.sum())), dtype=np.int64)
    for i, cols in enumerate(groups):
        B[np.arange(X.shape[0]), cols[X[:, i]]] = 1
    return (B, groups) if return_groups else B


# --- finding one-hot groups in a bare table (Williams 2024, footnote 3) ------------------------


def variance_inflation_factors(B):
    """Variance inflation factor of each column: ``1 / (1 - R²)``.

    ``R²`` comes from the least-squares regression of the column on an
    intercept and all other columns (Rawlings et al. 1989, §11.3.2, as cited by
    Williams 2024, footnote 3).  A column that is an exact linear combination of
    the others, such as any bit of a one-hot block (it equals 1 minus the other
    bits of its block), has ``R² = 1`` and VIF ``inf``.

    Parameters
    ----------
    B : array_like, shape (N, d)
        A numeric table (0/1 in this course).

    Returns
    -------
    numpy.ndarray, shape (d,)
        ``inf`` where the residual sum of squares is below ``1e-10`` of the
        column's total sum of squares; ``nan`` for a constant column (no
        variance to explain).

    Examples
    --------
    >>> B = one_hot([[0], [1], [2], [1]])
    >>> variance_inflation_factors(B)
    array([inf, inf, inf])
    """
    B = np.asarray(check_binary(B, "B", ndim=2), dtype=np.float64)
    n, d = B.shape
    out = np.empty(d)
    for k in range(d):
        y = B[:, k]
        tss = np.sum((y - y.mean()) ** 2)
        if tss == 0:
            out[k] = np.nan
            continue
        A = np.column_stack([np.ones(n), np.delete(B, k, axis=1)])
        coef, *_ = np.linalg.lstsq(A, y, rcond=None)
        rss = np.sum((y - A @ coef) ** 2)
        out[k] = np.inf if rss <= 1e-10 * tss else tss / rss
    return out


def _exact_cover_from(a, support, allowed, max_nodes):
    """Depth-first search for columns that, with column ``a``, have exactly one 1 per row.

    ``support`` is the boolean table (N, m); ``allowed`` lists usable columns.
    Returns the sorted list of columns, ``None`` if there is none, or raises
    ``RuntimeError`` when more than ``max_nodes`` partial covers were tried.
    """
    nodes = 0

    def search(chosen, covered):
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise RuntimeError
        if covered.all():
            return sorted(chosen)
        r = int(np.argmin(covered))  # first row not covered yet
        for c in allowed:
            if c not in chosen and support[r, c] and not (support[:, c] & covered).any():
                found = search(chosen | {c}, covered | support[:, c])
                if found is not None:
                    return found
        return None

    return search({a}, support[:, a].copy())


def find_one_hot_groups(B, *, max_nodes=100_000):
    """Find groups of columns of a bare 0/1 table that behave as one-hot codes.

    A group is a set of at least two columns such that every row has exactly
    one 1 among them: what one-hot encoding a categorical variable produces
    (Williams 2024, footnote 3).

    Algorithm
    ---------
    1. *Linear dependence (VIF).*  Every column of a one-hot block equals 1
       minus the other columns of the block, so it is perfectly predicted by a
       regression on the other columns with an intercept (VIF = ∞, see
       :func:`variance_inflation_factors`).  Only such columns are candidates;
       constant columns are dropped.
    2. *Exact cover.*  Taking candidates in column order, a depth-first search
       looks for a set of not-yet-grouped candidates containing the column whose
       1s are pairwise disjoint and together cover every row.  Found groups are
       removed and the search continues with the next column.

    Limits
    ------
    * A category never observed gives an all-zero column; it cannot be told
      apart from data and is not reported in any group.
    * A binary feature together with its complement *is* a one-hot code of a
      two-valued variable and is reported as a group.
    * If the table admits several decompositions (for example, a genuine binary
      column that happens to coincide with the union of some categories of
      another feature), the one found first in column order is returned.
    * On small samples unrelated rare binary columns can form a group by
      chance; the evidence grows with the number of rows.
    * The search is exponential in the worst case; after ``max_nodes`` partial
      covers for one starting column it gives up on that column with a
      ``UserWarning``.

    Parameters
    ----------
    B : array_like, shape (N, d)
        0/1 table.
    max_nodes : int, default 100000
        Search budget per starting column.

    Returns
    -------
    list of numpy.ndarray of int64
        Each array holds the sorted column indices of one group; groups are
        sorted by their first column.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 3, size=(50, 2))
    >>> B = np.column_stack([rng.integers(0, 2, size=50), one_hot(X)])
    >>> find_one_hot_groups(B)
    [array([1, 2, 3]), array([4, 5, 6])]
    """
    B = check_binary(B, "B")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, numbers.Integral) or max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive int, got {max_nodes!r}")
    support = B.astype(bool)
    varying = np.flatnonzero(support.any(axis=0) & ~support.all(axis=0))
    vif = np.full(B.shape[1], np.nan)
    if varying.size:
        vif[varying] = variance_inflation_factors(B[:, varying])
    candidates = [int(c) for c in varying if np.isinf(vif[c])]
    groups, grouped = [], set()
    for a in candidates:
        if a in grouped:
            continue
        allowed = [c for c in candidates if c not in grouped]
        try:
            found = _exact_cover_from(a, support, allowed, max_nodes)
        except RuntimeError:
            warnings.warn(
                f"find_one_hot_groups: search budget max_nodes={max_nodes} exhausted for "
                f"column {a}; it is left out of the result",
                UserWarning,
                stacklevel=2,
            )
            continue
        if found is not None and len(found) >= 2:
            groups.append(np.array(found, dtype=np.int64))
            grouped.update(found)
    return groups
