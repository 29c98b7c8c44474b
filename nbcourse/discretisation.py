"""Supervised discretisation: continuous features cut into intervals by the class entropy.

Equal-width and equal-frequency intervals need no class labels, and scikit-learn's
``KBinsDiscretizer`` (``strategy="uniform"`` and ``"quantile"``) makes them; the course uses
it.  This module holds the supervised method of Fayyad & Irani (1993), which scikit-learn
does not have:

* :func:`class_entropy`: the entropy, in bits, of the class distribution of a set of rows;
* :func:`mdl_cut_points`: the cut points of one feature, chosen recursively, each the cut that
  minimises the weighted class entropy of the two sides, kept only when its information gain
  passes the minimum description length (MDL) test of Fayyad & Irani (1993);
* :class:`MDLDiscretiser`: a scikit-learn transformer that learns those cut points for every
  column and turns the columns into interval codes ``0, 1, ..., n_bins - 1``, the input of
  :class:`nbcourse.CategoricalNB` (Dougherty, Kohavi & Sahami 1995 compare unsupervised and
  supervised cutting for naive Bayes).

Cut points are midpoints between consecutive distinct values, and a value equal to a cut point
goes to the interval above it, as in ``KBinsDiscretizer`` (``numpy.searchsorted`` with
``side="right"``).
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import _describe, as_real_array

__all__ = ["MDLDiscretiser", "class_entropy", "mdl_accepts", "mdl_cut_points"]


def class_entropy(counts) -> float:
    """``Ent(S) = -Σ_c p_c log₂ p_c`` with ``p_c = N_c / N``: the class entropy of a set, in bits.

    Parameters
    ----------
    counts : array_like, shape (C,)
        Non-negative numbers of rows of each class (at least one positive).

    Returns
    -------
    float
        ``0 <= Ent <= log₂ C``; classes with no row contribute 0.

    Examples
    --------
    >>> class_entropy([5, 5]), class_entropy([4, 0]), round(class_entropy([1, 1, 2]), 4)
    (1.0, 0.0, 1.5)
    """
    n = as_real_array(counts, "counts")
    if n.ndim != 1 or not (np.isfinite(n) & (n >= 0)).all() or not n.sum() > 0:
        raise ValueError(f"counts must be a 1-d array of non-negative counts, not all zero, "
                         f"got {_describe(n)}")
    p = n[n > 0] / n.sum()
    return float(max(-np.sum(p * np.log2(p)), 0.0)) + 0.0  # never -0.0


def _best_cut(x, onehot):
    """The cut of sorted ``x`` with the smallest weighted class entropy, or None.

    Returns ``(position, E)``: the cut falls between rows ``position - 1`` and ``position``
    (``x[position - 1] < x[position]``), and ``E = (N_1 Ent(S_1) + N_2 Ent(S_2)) / N``.
    """
    positions = np.flatnonzero(x[1:] > x[:-1]) + 1
    if positions.size == 0:
        return None
    left = np.cumsum(onehot, axis=0)[positions - 1]                 # (P, C) counts below
    right = onehot.sum(axis=0) - left
    n = x.size

    def weighted(side):
        size = side.sum(axis=1, keepdims=True)
        p = side / size
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(side > 0, p * np.log2(p), 0.0)
        return -terms.sum(axis=1) * size[:, 0] / n

    entropy = weighted(left) + weighted(right)
    best = int(np.argmin(entropy))                                     # the lowest cut on ties
    return int(positions[best]), float(entropy[best])


def mdl_accepts(counts, counts_left, counts_right) -> bool:
    """The MDL test of Fayyad & Irani (1993) for one binary cut of a set ``S`` into ``S_1, S_2``.

    Accept the cut when

    ``Gain > log₂(N - 1)/N + Δ/N``,  ``Δ = log₂(3^k - 2) - [k Ent(S) - k_1 Ent(S_1) - k_2 Ent(S_2)]``,

    where ``Gain = Ent(S) - (N_1 Ent(S_1) + N_2 Ent(S_2))/N`` and ``k``, ``k_1``, ``k_2`` count
    the classes present in ``S``, ``S_1`` and ``S_2``.

    Parameters
    ----------
    counts, counts_left, counts_right : array_like, shape (C,)
        Class counts of ``S``, ``S_1`` and ``S_2`` (``counts = counts_left + counts_right``).

    Returns
    -------
    bool

    Examples
    --------
    Twenty rows of class 0 below the cut and twenty of class 1 above it: one bit of gain,
    far above the cost of the cut.

    >>> mdl_accepts([20, 20], [20, 0], [0, 20])
    True
    >>> mdl_accepts([20, 20], [10, 10], [10, 10])
    False
    """
    s, s1, s2 = (as_real_array(c, name) for c, name in
                 ((counts, "counts"), (counts_left, "counts_left"), (counts_right, "counts_right")))
    if not (s.shape == s1.shape == s2.shape) or not np.allclose(s, s1 + s2):
        raise ValueError(f"counts must equal counts_left + counts_right, got {_describe(s)}, "
                         f"{_describe(s1)} and {_describe(s2)}")
    n, n1, n2 = s.sum(), s1.sum(), s2.sum()
    if not (n1 > 0 and n2 > 0):
        raise ValueError(f"both sides of a cut must hold rows, got {n1!r} and {n2!r} rows")
    ent, ent1, ent2 = class_entropy(s), class_entropy(s1), class_entropy(s2)
    gain = ent - (n1 * ent1 + n2 * ent2) / n
    k, k1, k2 = (int(np.count_nonzero(c)) for c in (s, s1, s2))
    delta = math.log2(3 ** k - 2) - (k * ent - k1 * ent1 - k2 * ent2)
    return bool(gain > (math.log2(n - 1) + delta) / n)


def mdl_cut_points(x, y) -> np.ndarray:
    """The cut points of a continuous feature by the entropy-MDL method of Fayyad & Irani (1993).

    The rows are sorted by ``x``; among the midpoints between consecutive distinct values, the
    cut with the smallest weighted class entropy of its two sides is found, and kept if it
    passes :func:`mdl_accepts`; each side is then cut again the same way, until no cut passes.
    (Fayyad & Irani show that the best cut always lies where the class changes between
    neighbouring values, so searching every midpoint finds the same minimum.)

    Parameters
    ----------
    x : array_like, shape (N,)
        Finite real values of one feature.
    y : array_like, shape (N,)
        Class labels (a single class gives no cut).

    Returns
    -------
    numpy.ndarray of float64, shape (n_cuts,)
        Increasing cut points; empty when no cut passes the test (one interval).

    Examples
    --------
    >>> x = np.arange(40.0)
    >>> mdl_cut_points(x, (x >= 20).astype(int))
    array([19.5])
    >>> mdl_cut_points(x, x % 2).size     # alternating classes: no cut pays for itself
    0
    """
    x = as_real_array(x, "x")
    if x.ndim != 1 or x.size == 0 or not np.isfinite(x).all():
        raise ValueError(f"x must be a non-empty 1-d array of finite numbers, got {_describe(x)}")
    labels = np.asarray(y)
    if labels.shape != x.shape or (labels.dtype.kind == "f" and np.isnan(labels).any()):
        raise ValueError(f"y must be a 1-d array of class labels, one per value of x ({x.size}), "
                         f"got {_describe(labels)}")
    _, codes = np.unique(labels, return_inverse=True)
    order = np.argsort(x, kind="stable")
    xs, onehot = x[order], np.eye(codes.max() + 1)[codes[order]]
    cuts = []
    stack = [(0, xs.size)]
    while stack:
        lo, hi = stack.pop()
        found = _best_cut(xs[lo:hi], onehot[lo:hi])
        if found is None:
            continue
        position, _ = found
        total, below = onehot[lo:hi].sum(axis=0), onehot[lo:lo + position].sum(axis=0)
        if mdl_accepts(total, below, total - below):
            cuts.append((xs[lo + position - 1] + xs[lo + position]) / 2)
            stack += [(lo, lo + position), (lo + position, hi)]
    return np.array(sorted(cuts), dtype=np.float64)


class MDLDiscretiser(TransformerMixin, BaseEstimator):
    """Cut every column into the intervals of :func:`mdl_cut_points` (Fayyad & Irani 1993).

    ``fit(X, y)`` learns the cut points of each column from the class labels;
    ``transform(X)`` replaces each value by the code of its interval, ``0`` below the first cut
    up to ``n_bins_[j] - 1`` above the last.  A column without any cut becomes all zeros: a
    feature that carries no class information by this test drops out of a naive Bayes model.

    Attributes
    ----------
    cut_points_ : list of numpy.ndarray
        The increasing cut points of each column.
    n_bins_ : numpy.ndarray of int64, shape (n_features,)
        ``len(cut_points_[j]) + 1``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str, shape (n_features,)
        Only when ``X`` was a DataFrame with string column names.

    Examples
    --------
    >>> X = np.column_stack([np.arange(40.0), np.zeros(40)])
    >>> d = MDLDiscretiser().fit(X, np.arange(40) >= 20)
    >>> d.n_bins_, d.transform([[3.0, 0.0], [25.0, 1.0]])
    (array([2, 1]), array([[0, 0],
           [1, 0]]))
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.transformer_tags.preserves_dtype = []  # real numbers in, integer codes out
        return tags

    def fit(self, X, y):
        """Learn the cut points of every column of ``X`` from the labels ``y``.

        Parameters
        ----------
        X : array_like, shape (N, n_features)
            Finite real numbers.
        y : array_like, shape (N,)
            Class labels.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, ensure_all_finite=True, dtype=np.float64)
        self.cut_points_ = [mdl_cut_points(X[:, j], y) for j in range(X.shape[1])]
        self.n_bins_ = np.array([c.size + 1 for c in self.cut_points_], dtype=np.int64)
        return self

    def transform(self, X):
        """Interval codes of every entry of ``X``.

        Parameters
        ----------
        X : array_like, shape (N, n_features)

        Returns
        -------
        numpy.ndarray of int64, shape (N, n_features)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, ensure_all_finite=True, dtype=np.float64)
        return np.column_stack([np.searchsorted(c, X[:, j], side="right")
                                for j, c in enumerate(self.cut_points_)]).astype(np.int64)
