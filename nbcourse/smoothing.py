"""Estimates of categorical and Bernoulli parameters from counts, with additive smoothing.

* :func:`lidstone` and :func:`log_lidstone`: the categorical estimate
  ``(N_v + α) / (n + Kα)``, the mean of the Dirichlet posterior ``Dir(N + α)``
  (Lidstone 1920; ``α = 1`` is Laplace's rule, ``α = 0`` maximum likelihood);
* :func:`bernoulli_smoothed` and :func:`log_bernoulli_smoothed`: the same for one
  bit, ``(N_1 + α) / (n + 2α)``, the mean of the Beta posterior ``Beta(N_1 + α, N_0 + α)``;
* :func:`pob_bit_probabilities`: the product-of-Bernoullis estimates of the ``K``
  one-hot bits of a categorical variable, which no longer sum to 1 once smoothed.

Choosing ``α`` by cross-validation is :func:`nbcourse.model_selection.cross_validate_alpha`.

The estimators of :mod:`nbcourse.naive_bayes` compute their smoothed log
probabilities with :func:`log_lidstone` and :func:`log_bernoulli_smoothed`.

Examples
--------
>>> lidstone([3, 1, 0], alpha=1.0)           # (3+1, 1+1, 0+1) / (4 + 3)
array([0.57142857, 0.28571429, 0.14285714])
>>> pob_bit_probabilities([3, 1, 0], alpha=1.0)  # (3+1, 1+1, 0+1) / (4 + 2)
array([0.66666667, 0.33333333, 0.16666667])
"""

from __future__ import annotations

import numpy as np

from ._logspace import log
from ._validation import as_real_array, check_alpha

__all__ = [
    "bernoulli_smoothed",
    "lidstone",
    "log_bernoulli_smoothed",
    "log_lidstone",
    "pob_bit_probabilities",
]


# ------------------------------------------------------------------ validation
def _check_counts(counts, name, *, scalar=False):
    """Finite non-negative counts as a float array (at least 1-d unless ``scalar``)."""
    arr = as_real_array(counts, name)
    if arr.ndim == 0 and not scalar:
        raise ValueError(f"{name} must be an array of counts with at least one axis, got a scalar")
    if not np.isfinite(arr).all() or (arr < 0).any():
        bad = arr[~(np.isfinite(arr) & (arr >= 0))].flat[0]
        raise ValueError(f"{name} must contain finite counts >= 0, got {bad.item()!r}")
    return arr


def _check_total(total, alpha, name):
    """With ``alpha = 0`` every total must be positive, or the estimate is 0/0."""
    if alpha == 0 and (np.asarray(total) == 0).any():
        raise ValueError(f"{name} must have a positive total when alpha = 0 (the maximum-"
                         "likelihood estimate of an empty sample is 0/0), got a total of 0")


def _check_bits(n_on, n):
    """Counts of bits on, ``n_on <= n``, broadcast against the sample sizes ``n``."""
    n_on = _check_counts(n_on, "n_on", scalar=True)
    n = _check_counts(n, "n", scalar=True)
    try:
        n_on, n = np.broadcast_arrays(n_on, n)
    except ValueError:
        raise ValueError(f"n must broadcast against n_on of shape {n_on.shape}, "
                         f"got shape {n.shape}") from None
    if (n_on > n).any():
        raise ValueError("n_on must be at most n (a bit cannot be on in more cases than were "
                         f"seen), got n_on = {n_on[n_on > n][0]!r} with n = {n[n_on > n][0]!r}")
    return n_on, n


# ------------------------------------------------------------------ categorical
def lidstone(counts, alpha=1.0):
    """Smoothed categorical probabilities ``θ_v = (N_v + α) / (n + Kα)`` along the last axis.

    With a symmetric Dirichlet prior ``Dir(β, ..., β)`` on ``θ`` and counts
    ``N_1, ..., N_K`` from a categorical sample of size ``n``, the posterior is
    ``Dir(N_1 + β, ..., N_K + β)`` and this is its mean for ``α = β`` (Lidstone 1920; Murphy
    2022; Manning, Raghavan & Schütze 2008, ch. 13).  ``α = 0`` is the maximum-likelihood estimate ``N_v / n``,
    ``α = 1`` Laplace's rule of succession.  The categorical model of Williams
    (2024), eq. 2, is fitted with it (:class:`nbcourse.CategoricalNB`).

    Parameters
    ----------
    counts : array_like, shape (..., K)
        Non-negative counts ``N_v`` (leading axes: classes, features, ...).
    alpha : float, default 1.0
        Pseudo-count added to every value, ``>= 0``.

    Returns
    -------
    numpy.ndarray, shape (..., K)
        Each slice along the last axis sums to 1.

    Raises
    ------
    ValueError
        If a count is negative or not finite, or if ``alpha = 0`` and some slice has no counts.

    Examples
    --------
    >>> lidstone([[2, 0], [1, 1]], alpha=0.0)
    array([[1. , 0. ],
           [0.5, 0.5]])
    """
    alpha = check_alpha(alpha)
    smoothed = _check_counts(counts, "counts") + alpha
    total = smoothed.sum(axis=-1, keepdims=True)
    _check_total(total, alpha, "counts")
    return smoothed / total


def log_lidstone(counts, alpha=1.0):
    """``ln θ_v = ln(N_v + α) - ln(n + Kα)``, the log of :func:`lidstone`.

    A value never seen with ``α = 0`` gets ``-inf`` exactly, without a warning.

    Parameters
    ----------
    counts : array_like, shape (..., K)
    alpha : float, default 1.0

    Returns
    -------
    numpy.ndarray, shape (..., K)

    Examples
    --------
    >>> np.exp(log_lidstone([3, 1], alpha=1.0))
    array([0.66666667, 0.33333333])
    """
    alpha = check_alpha(alpha)
    smoothed = _check_counts(counts, "counts") + alpha
    total = smoothed.sum(axis=-1, keepdims=True)
    _check_total(total, alpha, "counts")
    return log(smoothed) - np.log(total)


# ------------------------------------------------------------------ Bernoulli
def bernoulli_smoothed(n_on, n, alpha=1.0):
    """Smoothed probability that a bit is on, ``p = (N_1 + α) / (n + 2α)``.

    The mean of the Beta posterior ``Beta(N_1 + β, n - N_1 + β)`` under a
    ``Beta(β, β)`` prior, for ``α = β``: :func:`lidstone` with ``K = 2``.  The PoB model
    (Duda, Hart & Stork 2001, eq. 86; Williams 2024, eq. 3) estimates each of its
    bits this way.

    Parameters
    ----------
    n_on : array_like
        ``N_1``, the number of cases with the bit on.
    n : array_like
        Number of cases seen, broadcasting against ``n_on``; ``n_on <= n``.
    alpha : float, default 1.0

    Returns
    -------
    numpy.ndarray
        Shape of ``n_on`` and ``n`` broadcast together.

    Examples
    --------
    >>> bernoulli_smoothed([0, 3], 3, alpha=1.0)
    array([0.2, 0.8])
    """
    alpha = check_alpha(alpha)
    n_on, n = _check_bits(n_on, n)
    _check_total(n, alpha, "n")
    return (n_on + alpha) / (n + 2.0 * alpha)


def log_bernoulli_smoothed(n_on, n, alpha=1.0):
    """``(ln p, ln(1 - p))`` for :func:`bernoulli_smoothed`, both from the counts.

    ``ln(1 - p)`` is computed as ``ln(n - N_1 + α) - ln(n + 2α)``, exact even when
    ``p`` is close to 1; a count of 0 with ``α = 0`` gives ``-inf`` without a warning.

    Parameters
    ----------
    n_on, n : array_like
        As in :func:`bernoulli_smoothed`.
    alpha : float, default 1.0

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``ln p`` and ``ln(1 - p)``, each of the broadcast shape.

    Examples
    --------
    >>> on, off = log_bernoulli_smoothed(1, 4, alpha=1.0)
    >>> np.exp([on, off])  # 2/6 and 4/6
    array([0.33333333, 0.66666667])
    """
    alpha = check_alpha(alpha)
    n_on, n = _check_bits(n_on, n)
    _check_total(n, alpha, "n")
    denom = np.log(n + 2.0 * alpha)
    return log(n_on + alpha) - denom, log(n - n_on + alpha) - denom


def pob_bit_probabilities(counts, alpha=1.0):
    """The PoB estimates of the ``K`` one-hot bits of a categorical variable.

    Bit ``v`` is on exactly when the value is ``v``, so it is on in ``N_v`` of the
    ``n = Σ_v N_v`` cases and its smoothed estimate is ``(N_v + α) / (n + 2α)``.
    At ``α = 0`` these equal :func:`lidstone` (Williams 2024, §2: maximum
    likelihood gives the PoB model the categorical ``θ``); for ``α > 0`` and
    ``K > 2`` they are larger and sum to ``(n + Kα) / (n + 2α) > 1``.

    Parameters
    ----------
    counts : array_like, shape (..., K)
        Counts of each value (leading axes: classes, ...).
    alpha : float, default 1.0

    Returns
    -------
    numpy.ndarray, shape (..., K)

    Examples
    --------
    >>> float(pob_bit_probabilities([3, 1, 0], alpha=1.0).sum())  # (4 + 3) / (4 + 2)
    1.1666666666666667
    """
    N = _check_counts(counts, "counts")
    return bernoulli_smoothed(N, N.sum(axis=-1, keepdims=True), alpha)
