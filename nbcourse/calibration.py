"""How well calibrated a classifier's probabilities are, and how two classifiers compare on the same cases.

* :func:`log_loss`, :func:`reliability_bins` and :func:`expected_calibration_error`
  score predicted class probabilities against true labels; like scikit-learn's
  ``log_loss(y_true, y_pred)`` and ``calibration_curve(y_true, y_prob)`` they take
  the labels first;
* :func:`paired_bootstrap` gives a percentile interval for the difference of a score
  (log loss, calibration error) between two classifiers on the same test cases.

Labels and feature values are 0-based integer codes.

Examples
--------
>>> round(log_loss([0, 1], [[0.9, 0.1], [0.2, 0.8]]), 6)  # -(ln 0.9 + ln 0.8) / 2
0.164252
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ._validation import check_codes, check_int, check_seed, check_simplex

__all__ = [
    "PairedBootstrap",
    "Reliability",
    "expected_calibration_error",
    "log_loss",
    "log_loss_of_log_odds",
    "paired_bootstrap",
    "reliability_bins",
]


# ------------------------------------------------------------------ helpers
def _check_proba_and_labels(proba, y):
    """Rows of class probabilities (N, C) and labels 0..C-1 (N,)."""
    p = check_simplex(proba, "proba", atol=1e-6)
    if p.ndim != 2:
        raise ValueError(f"proba must have shape (N, C), got shape {p.shape}")
    labels = check_codes(y, "y", ndim=1)
    if labels.shape[0] != p.shape[0]:
        raise ValueError(f"y must have one label per row of proba ({p.shape[0]}), "
                         f"got {labels.shape[0]}")
    if labels.max() >= p.shape[1]:
        raise ValueError(f"y must contain class codes in range({p.shape[1]}), "
                         f"got {int(labels.max())}")
    return p, labels


# -------------------------------------------------------------- calibration
def log_loss(y, proba) -> float:
    """Mean negative log probability given to the true class (natural log).

    The arguments come in scikit-learn's order, ``log_loss(y_true, y_pred)``.

    Parameters
    ----------
    y : array_like of int, shape (N,)
        True class codes in ``range(C)``.
    proba : array_like, shape (N, C)
        Rows are predicted class probabilities (summing to 1).

    Returns
    -------
    float
        ``-mean(log proba[i, y[i]])``; ``inf`` (without a warning) when some true
        class was given probability exactly 0.

    Examples
    --------
    >>> round(log_loss([0, 1], [[0.5, 0.5], [0.25, 0.75]]), 6)
    0.490415
    """
    p, labels = _check_proba_and_labels(proba, y)
    chosen = p[np.arange(len(labels)), labels]
    if (chosen == 0).any():
        return float("inf")
    return float(-np.log(chosen).mean())


def log_loss_of_log_odds(y, g) -> float:
    """Two-class log loss from the log posterior odds, computed stably (log-sigmoid).

    With ``g = ln[P(class 0 | x) / P(class 1 | x)]`` (Duda, Hart & Stork's discriminant
    ``g(x)`` for two classes), ``P(class 0 | x) = sigma(g)`` and the loss of a case is
    ``ln(1 + e^{-g})`` if its class is 0 and ``ln(1 + e^{g})`` if it is 1.  Computed this
    way it is finite for every finite ``g``; through ``1 - expit(g)`` a large ``g`` rounds the
    probability of class 1 to 0 and the loss to infinity.

    Parameters
    ----------
    y : array_like of int, shape (N,)
        True class codes, 0 or 1.
    g : array_like of float, shape (N,)
        Log posterior odds of class 0 against class 1, finite.

    Returns
    -------
    float
        The mean loss in nats, as :func:`log_loss` gives for ``[sigma(g), 1 - sigma(g)]``.

    Examples
    --------
    >>> round(log_loss_of_log_odds([0, 1], [0.0, np.log(1 / 3)]), 6)
    0.490415
    >>> round(log_loss_of_log_odds([1], [40.0]), 6)
    40.0
    """
    labels = check_codes(y, "y", ndim=1)
    if labels.max() > 1:
        raise ValueError(f"y must contain class codes 0 and 1, got {int(labels.max())}")
    scores = np.asarray(g, dtype=float)
    if scores.shape != labels.shape:
        raise ValueError(f"g must have one log odds per case, shape {labels.shape}, "
                         f"got shape {scores.shape}")
    if not np.all(np.isfinite(scores)):
        raise ValueError("g must be finite log odds, got inf or nan")
    return float(np.logaddexp(0.0, np.where(labels == 0, -scores, scores)).mean())


@dataclass(frozen=True)
class Reliability:
    """Top-label reliability bins (see :func:`reliability_bins`).

    Attributes
    ----------
    edges : numpy.ndarray, shape (n_bins + 1,)
        Bin edges on the confidence axis.
    confidence : numpy.ndarray, shape (m,)
        Mean stated confidence (largest class probability) in each non-empty bin.
    accuracy : numpy.ndarray, shape (m,)
        Fraction of the bin's cases whose most probable class was the true one.
    count : numpy.ndarray of int, shape (m,)
        Cases in each non-empty bin.
    """

    edges: np.ndarray
    confidence: np.ndarray
    accuracy: np.ndarray
    count: np.ndarray

    def as_tuple(self):
        """``(confidence, accuracy, count)``, the form :func:`nbcourse.plots.plot_reliability` takes."""
        return self.confidence, self.accuracy, self.count


def reliability_bins(y, proba, n_bins: int = 10) -> Reliability:
    """Group cases by their largest predicted probability; compare it with accuracy.

    Bins are equal-width on ``[0, 1]``, closed on the right (a confidence of
    exactly 1 falls in the last bin); empty bins are dropped.  Ties for the most
    probable class go to the lowest class code, as with ``numpy.argmax``.

    Parameters
    ----------
    y : array_like of int, shape (N,)
    proba : array_like, shape (N, C)
    n_bins : int, default 10

    Returns
    -------
    Reliability

    Examples
    --------
    >>> r = reliability_bins([0, 1, 1], [[0.9, 0.1], [0.8, 0.2], [0.4, 0.6]], n_bins=4)
    >>> r.confidence, r.accuracy, r.count
    (array([0.6 , 0.85]), array([1. , 0.5]), array([1, 2]))
    """
    p, labels = _check_proba_and_labels(proba, y)
    n_bins = check_int(n_bins, "n_bins", 1)
    conf = p.max(axis=1)
    right = p.argmax(axis=1) == labels
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    which = np.clip(np.searchsorted(edges, conf, side="left") - 1, 0, n_bins - 1)
    count = np.bincount(which, minlength=n_bins)
    keep = count > 0
    conf_sum = np.bincount(which, weights=conf, minlength=n_bins)
    right_sum = np.bincount(which, weights=right, minlength=n_bins)
    return Reliability(edges, conf_sum[keep] / count[keep], right_sum[keep] / count[keep],
                       count[keep])


def expected_calibration_error(y, proba, n_bins: int = 10) -> float:
    """Count-weighted mean of ``|accuracy - confidence|`` over the reliability bins.

    Parameters
    ----------
    y : array_like of int, shape (N,)
    proba : array_like, shape (N, C)
    n_bins : int, default 10

    Returns
    -------
    float

    Examples
    --------
    >>> round(expected_calibration_error([0, 1, 1], [[0.9, 0.1], [0.8, 0.2], [0.4, 0.6]], 4), 4)
    0.3667
    """
    r = reliability_bins(y, proba, n_bins)
    return float(np.sum(r.count * np.abs(r.accuracy - r.confidence)) / r.count.sum())


@dataclass(frozen=True)
class PairedBootstrap:
    """The difference of a score between two classifiers and its bootstrap interval
    (see :func:`paired_bootstrap`).

    Attributes
    ----------
    difference : float
        ``statistic(y, proba_a) - statistic(y, proba_b)`` on the cases as given.
    low, high : float
        Percentile interval of the difference over the resamples.
    confidence : float
        Nominal coverage of ``[low, high]``.
    n_boot : int
        Number of resamples.
    """

    difference: float
    low: float
    high: float
    confidence: float
    n_boot: int


def paired_bootstrap(y, proba_a, proba_b, statistic=None, *, n_boot=2000, confidence=0.95,
                     seed=0) -> PairedBootstrap:
    """Percentile bootstrap interval for a difference of scores on the same test cases.

    Each resample draws ``N`` cases with replacement and scores *both* classifiers on the same
    draw, so what the two share (the hard cases, the rare class) cancels in the difference
    (Efron & Tibshirani 1993, ch. 13, for the percentile interval).  The test cases are treated
    as independent draws; the fitted classifiers are held fixed, so the interval says nothing
    about the variation from one training set to another.

    Parameters
    ----------
    y : array_like of int, shape (N,)
        True class codes in ``range(C)``.
    proba_a, proba_b : array_like, shape (N, C)
        Class probabilities of the two classifiers for the same cases.
    statistic : callable or None, default None
        ``statistic(y, proba) -> float``; ``None`` is :func:`log_loss`.  For example
        :func:`expected_calibration_error`.
    n_boot : int, default 2000
    confidence : float in (0, 1), default 0.95
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator, default 0

    Returns
    -------
    PairedBootstrap

    Examples
    --------
    >>> y = [0, 1, 1, 0]
    >>> a = [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.6, 0.4]]
    >>> r = paired_bootstrap(y, a, a, n_boot=50)
    >>> r.difference, r.low, r.high
    (0.0, 0.0, 0.0)
    """
    p_a, labels = _check_proba_and_labels(proba_a, y)
    p_b, _ = _check_proba_and_labels(proba_b, y)
    if p_a.shape != p_b.shape:
        raise ValueError(f"proba_b must have the shape of proba_a {p_a.shape}, got {p_b.shape}")
    if statistic is None:
        statistic = log_loss
    if not callable(statistic):
        raise TypeError(f"statistic must be a callable statistic(y, proba), got "
                        f"{type(statistic).__name__}")
    n_boot = check_int(n_boot, "n_boot", 1)
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not (
            0 < confidence < 1):
        raise ValueError(f"confidence must be a number strictly between 0 and 1, "
                         f"got {confidence!r}")
    rng = np.random.default_rng(check_seed(seed))
    n = labels.shape[0]
    diffs = np.empty(n_boot)
    for b in range(n_boot):
        rows = rng.integers(0, n, size=n)
        diffs[b] = statistic(labels[rows], p_a[rows]) - statistic(labels[rows], p_b[rows])
    low, high = np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2])
    return PairedBootstrap(float(statistic(labels, p_a) - statistic(labels, p_b)), float(low),
                           float(high), float(confidence), n_boot)
