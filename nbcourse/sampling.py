"""Counting feature vectors and sampling from discrete naive Bayes models.

Part I of the book needs a few small facts about discrete feature spaces
(Duda, Hart & Stork 2001, §2.9): how many feature vectors there are
(``V = prod_j V_j``), how many parameters a full joint table needs compared with
a naive Bayes model, how many of the ``V`` cells a sample of size ``N`` leaves
empty, and data drawn from a known binary naive Bayes model so that estimates
can be compared with the truth.

Indexing is 0-based: a feature with ``V_j`` values takes the codes
``0, 1, ..., V_j - 1``; classes are ``0, 1, ..., c - 1`` (Duda writes
``omega_1, ..., omega_c``).  Counts are returned as exact Python integers,
because ``V`` overflows 64-bit integers already for 64 binary features.

Examples
--------
>>> n_feature_vectors([2, 3, 4])
24
>>> n_parameters_joint([2, 3, 4], n_classes=2), n_parameters_naive([2, 3, 4], n_classes=2)
(46, 12)
"""

from __future__ import annotations

import math

import numpy as np

from ._validation import (
    _describe,
    as_generator,
    as_real_array,
    check_alpha,
    check_codes,
    check_codes_below,
    check_int,
    check_n_values,
    check_ndim,
    check_probabilities,
    check_simplex,
)

__all__ = [
    "bernoulli_estimate_mse",
    "count_empty_cells",
    "expected_empty_cells",
    "n_feature_vectors",
    "n_parameters_joint",
    "n_parameters_naive",
    "sample_binary_features",
    "sample_binary_naive_bayes",
    "sample_labels",
    "sample_uniform_codes",
]


# --------------------------------------------------------------------------- counting


def n_feature_vectors(n_values) -> int:
    """Number of distinct feature vectors ``V = prod_j V_j``.

    Duda, Hart & Stork (2001), §2.9: with ``d`` discrete features, feature ``j``
    taking ``V_j`` values, ``x`` can take ``V = V_1 V_2 ... V_d`` values.

    Parameters
    ----------
    n_values : int or sequence of int, shape (d,)
        Number of values ``V_j`` of each feature (each ``>= 1``).

    Returns
    -------
    int
        Exact (Python integers do not overflow).

    Examples
    --------
    >>> n_feature_vectors([2] * 10)
    1024
    >>> n_feature_vectors([2] * 100) == 2 ** 100
    True
    """
    return math.prod(check_n_values(n_values, required=True).tolist())


def n_parameters_joint(n_values, n_classes: int = 2) -> int:
    """Free parameters of one full table ``P(x | omega_c)`` per class.

    Each class needs a probability for every one of the ``V = prod_j V_j``
    feature vectors, less one because they sum to 1: ``c (V - 1)`` in all.

    Parameters
    ----------
    n_values : int or sequence of int, shape (d,)
        Number of values ``V_j`` of each feature.
    n_classes : int, default 2
        Number of classes ``c``.

    Returns
    -------
    int

    Examples
    --------
    >>> n_parameters_joint([2, 2, 2], n_classes=1)
    7
    """
    c = check_int(n_classes, "n_classes", 1)
    return c * (n_feature_vectors(n_values) - 1)


def n_parameters_naive(n_values, n_classes: int = 2) -> int:
    """Free parameters of a naive Bayes model ``prod_j P(x_j | omega_c)``.

    Under conditional independence each class needs one distribution per
    feature, with ``V_j - 1`` free values each: ``c sum_j (V_j - 1)``, which is
    ``O(d V_bar)`` instead of ``O(V)`` (Duda, Hart & Stork 2001, §2.9).

    Parameters
    ----------
    n_values : int or sequence of int, shape (d,)
        Number of values ``V_j`` of each feature.
    n_classes : int, default 2
        Number of classes ``c``.

    Returns
    -------
    int

    Examples
    --------
    >>> n_parameters_naive([2, 2, 2], n_classes=1)
    3
    """
    c = check_int(n_classes, "n_classes", 1)
    return c * sum(v - 1 for v in check_n_values(n_values, required=True).tolist())


def count_empty_cells(X, n_values) -> int:
    """Number of the ``V = prod_j V_j`` feature vectors that never occur in ``X``.

    Parameters
    ----------
    X : array_like of int, shape (N, d)
        A sample of feature vectors; column ``j`` holds codes ``0 .. V_j - 1``.
    n_values : sequence of int, shape (d,)
        Number of values ``V_j`` of each feature.

    Returns
    -------
    int
        ``V`` minus the number of distinct rows of ``X`` (exact).

    Examples
    --------
    >>> count_empty_cells([[0, 1], [0, 1], [1, 1]], [2, 2])
    2
    """
    X = check_codes(X, "X")
    n_values = check_n_values(n_values, X.shape[1], required=True)
    check_codes_below(X, n_values, "X", "from n_values")
    n_seen = np.unique(X, axis=0).shape[0]
    return math.prod(n_values.tolist()) - n_seen


def expected_empty_cells(n_cells, N):
    """Expected number of empty cells after ``N`` uniform draws from ``n_cells`` cells.

    Each cell is missed by one draw with probability ``1 - 1/V``, so the
    expected number of empty cells is ``V (1 - 1/V)^N``, computed as
    ``V exp(N log1p(-1/V))`` so that large ``V`` loses no precision.

    Parameters
    ----------
    n_cells : int or array_like of float, any shape
        Number of cells ``V >= 1``.
    N : int or array_like of float, any shape
        Sample sizes ``N >= 0``; broadcast against ``n_cells``.

    Returns
    -------
    float or numpy.ndarray of float
        Broadcast shape of the inputs.  Divide by ``n_cells`` for the fraction.

    Examples
    --------
    >>> round(float(expected_empty_cells(4, 2)), 6)
    2.25
    >>> expected_empty_cells(1, [0, 3])
    array([1., 0.])
    """
    V = as_real_array(n_cells, "n_cells")
    n = as_real_array(N, "N")
    if (V < 1).any() or not np.isfinite(V).all():
        raise ValueError(f"n_cells must be finite and >= 1, got {_describe(n_cells)}")
    if (n < 0).any() or not np.isfinite(n).all():
        raise ValueError(f"N must be finite and >= 0, got {_describe(N)}")
    V, n = np.broadcast_arrays(V, n)
    # V == 1: the single cell is empty only when nothing was drawn.
    single = V == 1
    log_miss = np.log1p(-1.0 / np.where(single, 2.0, V))
    out = np.where(single, np.where(n == 0, 1.0, 0.0), V * np.exp(n * log_miss))
    return out[()] if out.ndim == 0 else out


def bernoulli_estimate_mse(p, n, alpha=0.0):
    """Mean squared error of the smoothed estimate ``(k + alpha) / (n + 2 alpha)``.

    With ``k ~ Binomial(n, p)`` the estimate has bias
    ``alpha (1 - 2p) / (n + 2 alpha)`` and variance ``n p (1 - p) / (n + 2 alpha)^2``,
    so its mean squared error is
    ``(n p (1 - p) + alpha^2 (1 - 2p)^2) / (n + 2 alpha)^2``.  ``alpha = 0`` is the
    maximum-likelihood estimate, ``alpha = 1`` Laplace's rule (Duda, Hart & Stork
    2001, §2.9 estimation; here with ``V_j = 2``).

    Parameters
    ----------
    p : float or array_like, any shape
        True probabilities ``P(x_j = 1 | omega_c)``.
    n : int or array_like, any shape
        Sample sizes (``n + 2 alpha > 0``); broadcast against ``p``.
    alpha : float, default 0.0
        Pseudo-count added to each of the two values.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> float(bernoulli_estimate_mse(0.5, 4))
    0.0625
    >>> float(bernoulli_estimate_mse(0.0, 4, alpha=1.0))
    0.027777777777777776
    """
    p = check_probabilities(p, "p")
    n = as_real_array(n, "n")
    a = check_alpha(alpha)
    if (n < 0).any() or not np.isfinite(n).all() or ((n + 2 * a) <= 0).any():
        raise ValueError(f"n must be finite, >= 0 and n + 2*alpha > 0, got {_describe(n)}")
    out = (n * p * (1 - p) + a**2 * (1 - 2 * p) ** 2) / (n + 2 * a) ** 2
    return out[()] if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------- sampling


def sample_uniform_codes(n_values, N: int, *, seed) -> np.ndarray:
    """Draw ``N`` feature vectors uniformly from the ``prod_j V_j`` possible ones.

    Parameters
    ----------
    n_values : sequence of int, shape (d,)
        Number of values ``V_j`` of each feature.
    N : int
        Sample size.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness, by the library's convention (a Generator is used as
        it is, so successive calls can share one stream).

    Returns
    -------
    numpy.ndarray of int64, shape (N, d)

    Examples
    --------
    >>> sample_uniform_codes([2, 3], 4, seed=0).shape
    (4, 2)
    """
    n_values = check_n_values(n_values, required=True)
    n = check_int(N, "N", 0)
    gen = as_generator(seed)
    return gen.integers(0, n_values, size=(n, len(n_values)), dtype=np.int64)


def sample_labels(priors, n: int, *, seed) -> np.ndarray:
    """Draw ``n`` class labels ``0 .. c-1`` with probabilities ``priors``.

    Parameters
    ----------
    priors : array_like, shape (c,)
        Prior probabilities ``P(omega_c)``, summing to 1.
    n : int
        Number of labels.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        As in :func:`sample_uniform_codes`.

    Returns
    -------
    numpy.ndarray of int64, shape (n,)

    Examples
    --------
    >>> sample_labels([0.0, 1.0], 3, seed=1)
    array([1, 1, 1])
    """
    pri = check_simplex(priors, "priors")
    check_ndim(pri, 1, "priors")
    size = check_int(n, "n", 0)
    gen = as_generator(seed)
    # Inverse-CDF sampling; exact zeros in ``priors`` are never drawn.
    cdf = np.cumsum(pri)
    cdf[-1] = 1.0
    y = np.searchsorted(cdf, gen.random(size), side="right")
    return np.minimum(y, pri.size - 1).astype(np.int64)


def sample_binary_features(P, y, *, seed) -> np.ndarray:
    """Draw binary feature vectors given their classes, features independent.

    Row ``n`` has ``x_j ~ Bernoulli(P[y[n], j])`` independently for each ``j``:
    the class-conditional model of Duda, Hart & Stork (2001), eq. 85/86 (the
    product of Bernoulli terms ``p^x (1 - p)^(1 - x)``).

    Parameters
    ----------
    P : array_like, shape (c, d)
        ``P[c, j] = P(x_j = 1 | omega_c)`` (0-based class ``c`` and feature ``j``).
    y : array_like of int, shape (n,)
        Class of each row, in ``0 .. c-1``.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        As in :func:`sample_uniform_codes`.

    Returns
    -------
    numpy.ndarray of int64, shape (n, d)

    Examples
    --------
    >>> sample_binary_features([[0.0, 1.0], [1.0, 0.0]], [0, 1, 0], seed=0)
    array([[0, 1],
           [1, 0],
           [0, 1]])
    """
    probs = check_probabilities(P, "P")
    check_ndim(probs, 2, "P")
    labels = check_codes(y, "y", ndim=1) if np.size(y) else np.zeros(0, dtype=np.int64)
    if labels.size and labels.max() >= probs.shape[0]:
        raise ValueError(
            f"y must hold classes 0..{probs.shape[0] - 1} (one per row of P), "
            f"got a label {int(labels.max())}"
        )
    gen = as_generator(seed)
    u = gen.random((labels.size, probs.shape[1]))
    return (u < probs[labels]).astype(np.int64)


def sample_binary_naive_bayes(P, priors, n: int, *, seed) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n`` labelled samples from a binary naive Bayes model.

    The class is drawn from ``priors``, then each feature independently from
    ``Bernoulli(P[class, j])`` (Duda, Hart & Stork 2001, §2.9.1).

    Parameters
    ----------
    P : array_like, shape (c, d)
        ``P[c, j] = P(x_j = 1 | omega_c)``.
    priors : array_like, shape (c,)
        ``P(omega_c)``.
    n : int
        Sample size.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        As in :func:`sample_uniform_codes`.

    Returns
    -------
    X : numpy.ndarray of int64, shape (n, d)
    y : numpy.ndarray of int64, shape (n,)

    Examples
    --------
    >>> X, y = sample_binary_naive_bayes([[0.8, 0.8], [0.5, 0.5]], [0.5, 0.5], 5, seed=0)
    >>> X.shape, y.shape
    ((5, 2), (5,))
    """
    probs = check_probabilities(P, "P")
    check_ndim(probs, 2, "P")
    pri = check_simplex(priors, "priors")
    if pri.shape != (probs.shape[0],):
        raise ValueError(
            f"priors must have one entry per row of P ({probs.shape[0]}), got shape {pri.shape}"
        )
    gen = as_generator(seed)
    y = sample_labels(pri, n, seed=gen)
    return sample_binary_features(probs, y, seed=gen), y

