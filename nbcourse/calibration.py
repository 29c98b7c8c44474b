"""How well calibrated a classifier's probabilities are, and the two models compared on real data.

* :func:`log_loss`, :func:`reliability_bins` and :func:`expected_calibration_error`
  score predicted class probabilities against true labels; like scikit-learn's
  ``log_loss(y_true, y_pred)`` and ``calibration_curve(y_true, y_prob)`` they take
  the labels first;
* :func:`cross_validate_models` fits categorical and product-of-Bernoullis naive
  Bayes to real data (integer codes) by stratified k-fold cross-validation and
  returns out-of-fold probabilities;
* :func:`out_of_fold_proba` fits any other classifier on the same folds, and
  :func:`fold_log_loss` scores out-of-fold probabilities fold by fold;
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
from dataclasses import dataclass, field

import numpy as np

from ._validation import check_codes, check_int, check_labels, check_seed, check_simplex

__all__ = [
    "CrossValidation",
    "PairedBootstrap",
    "Reliability",
    "cross_validate_models",
    "expected_calibration_error",
    "fold_log_loss",
    "log_loss",
    "log_loss_of_log_odds",
    "out_of_fold_proba",
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


# ------------------------------------------------------- cross-validation
@dataclass(frozen=True)
class CrossValidation:
    """Out-of-fold class probabilities of both models (see :func:`cross_validate_models`).

    Attributes
    ----------
    classes : numpy.ndarray, shape (C,)
        Class labels in code order (``y`` holds codes into this array).
    y : numpy.ndarray of int, shape (N,)
        True class codes.
    fold : numpy.ndarray of int, shape (N,)
        Fold in which each row was held out.
    proba_categorical, proba_pob : numpy.ndarray, shape (N, C)
        Probabilities from the model fitted without the row's fold: categorical
        naive Bayes on the codes, and PoB naive Bayes on their one-hot bits.
    """

    classes: np.ndarray
    y: np.ndarray
    fold: np.ndarray
    proba_categorical: np.ndarray = field(repr=False)
    proba_pob: np.ndarray = field(repr=False)

    def proba(self, model: str) -> np.ndarray:
        """Out-of-fold probabilities of ``model`` ("categorical" or "pob")."""
        if model not in ("categorical", "pob"):
            raise ValueError(f"model must be 'categorical' or 'pob', got {model!r}")
        return self.proba_categorical if model == "categorical" else self.proba_pob

    def fold_log_loss(self, model: str) -> np.ndarray:
        """Log loss of ``model`` on each held-out fold, shape (n_splits,)."""
        return fold_log_loss(self.y, self.proba(model), self.fold)

    def summary(self, n_bins: int = 10) -> dict:
        """Log loss, accuracy and calibration error of both models, and their MAP disagreement.

        Returns
        -------
        dict
            ``{"categorical": {...}, "pob": {...}, "map_disagree": float}`` where each
            model's entry has ``log_loss``, ``accuracy``, ``ece`` and ``mean_confidence``.
        """
        out = {}
        for model in ("categorical", "pob"):
            p = self.proba(model)
            out[model] = {
                "log_loss": log_loss(self.y, p),
                "accuracy": float((p.argmax(1) == self.y).mean()),
                "ece": expected_calibration_error(self.y, p, n_bins),
                "mean_confidence": float(p.max(1).mean()),
            }
        out["map_disagree"] = float(
            (self.proba_categorical.argmax(1) != self.proba_pob.argmax(1)).mean())
        return out


def cross_validate_models(X, y, *, alpha=1.0, n_splits=10, seed=0) -> CrossValidation:
    """Fit categorical and PoB naive Bayes by stratified k-fold cross-validation.

    The categorical model (:class:`nbcourse.CategoricalNB`) sees the integer
    codes; the PoB model (:class:`nbcourse.ProductOfBernoullisNB`) sees their
    one-hot encoding (:func:`nbcourse.encoding.one_hot`), as happens when a categorical
    table is one-hot encoded before a Bernoulli naive Bayes classifier.  The
    number of values of each feature is taken from the whole of ``X`` so that a
    value absent from a training fold is still a known category.

    Parameters
    ----------
    X : array_like of int, shape (N, d)
        Category codes.
    y : array_like, shape (N,)
        Class labels (any sortable type), at least two classes.
    alpha : float, default 1.0
        Additive smoothing for both models.
    n_splits : int, default 10
        Number of folds (each class needs at least this many rows).
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator, default 0
        Shuffles the rows before they are split into folds (an int is passed to
        scikit-learn's ``StratifiedKFold`` as its ``random_state``; a SeedSequence
        or Generator supplies one).

    Returns
    -------
    CrossValidation

    Examples
    --------
    >>> from nbcourse.datasets import titanic
    >>> X, y = titanic().to_rows(target="Survived")
    >>> cv = cross_validate_models(X, y, n_splits=5, seed=0)
    >>> cv.proba_pob.shape
    (2201, 2)
    """
    from sklearn.model_selection import StratifiedKFold

    from .encoding import one_hot
    from .naive_bayes import CategoricalNB, ProductOfBernoullisNB

    X = check_codes(X, "X")
    labels = check_labels(y, X.shape[0])
    classes, codes = np.unique(labels, return_inverse=True)
    n_splits = check_int(n_splits, "n_splits", 2)
    smallest = int(np.bincount(codes).min())
    if smallest < n_splits:
        raise ValueError(f"n_splits must be at most the size of the smallest class ({smallest}), "
                         f"got {n_splits}")
    n_values = X.max(axis=0) + 1
    B = one_hot(X, n_values=n_values)
    fold = np.empty(X.shape[0], dtype=np.int64)
    p_cat = np.empty((X.shape[0], classes.size))
    p_pob = np.empty_like(p_cat)
    random_state = seed if seed is None or isinstance(seed, numbers.Integral) else int(
        check_seed(seed).generate_state(1)[0])
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    for k, (train, test) in enumerate(splitter.split(X, codes)):
        if np.unique(codes[train]).size < classes.size:
            raise ValueError(f"fold {k} leaves a class out of training; use fewer folds")
        fold[test] = k
        cat = CategoricalNB(alpha=alpha, n_values=n_values).fit(X[train], codes[train])
        pob = ProductOfBernoullisNB(alpha=alpha).fit(B[train], codes[train])
        p_cat[test] = cat.predict_proba(X[test])
        p_pob[test] = pob.predict_proba(B[test])
    return CrossValidation(classes, codes.astype(np.int64), fold, p_cat, p_pob)


def _check_fold(fold, n_rows):
    """Fold numbers 0..K-1 (K >= 2, every fold non-empty), one per row."""
    folds = check_codes(fold, "fold", ndim=1)
    if folds.shape[0] != n_rows:
        raise ValueError(f"fold must give one fold number per row ({n_rows}), "
                         f"got {folds.shape[0]}")
    n_folds = int(folds.max()) + 1
    missing = np.setdiff1d(np.arange(n_folds), folds)
    if n_folds < 2 or missing.size:
        raise ValueError(f"fold must number at least 2 folds as 0, 1, ..., K-1 with none empty, "
                         f"got folds {np.unique(folds).tolist()[:12]}")
    return folds, n_folds


def fold_log_loss(y, proba, fold) -> np.ndarray:
    """Log loss of out-of-fold probabilities on each fold separately.

    Parameters
    ----------
    y : array_like of int, shape (N,)
        True class codes in ``range(C)``.
    proba : array_like, shape (N, C)
        Out-of-fold class probabilities.
    fold : array_like of int, shape (N,)
        The fold (0..K-1) in which each row was held out, as :attr:`CrossValidation.fold`.

    Returns
    -------
    numpy.ndarray, shape (K,)
        :func:`log_loss` of the rows of each fold.

    Examples
    --------
    >>> fold_log_loss([0, 1, 1], [[0.5, 0.5], [0.5, 0.5], [0.2, 0.8]], [0, 0, 1]).round(4)
    array([0.6931, 0.2231])
    """
    p, labels = _check_proba_and_labels(proba, y)
    folds, n_folds = _check_fold(fold, labels.shape[0])
    return np.array([log_loss(labels[folds == k], p[folds == k]) for k in range(n_folds)])


def out_of_fold_proba(estimator, X, y, fold) -> np.ndarray:
    """Out-of-fold class probabilities of any classifier on given folds.

    For each fold ``k`` a fresh copy of ``estimator`` (``sklearn.base.clone``) is fitted to
    the rows outside the fold and predicts the rows inside it.  Given the ``fold`` of a
    :class:`CrossValidation`, the result is comparable row by row and fold by fold with
    that comparison's two models.

    Parameters
    ----------
    estimator : scikit-learn classifier
        Unfitted, with ``fit`` and ``predict_proba``.
    X : array_like, shape (N, d)
    y : array_like of int, shape (N,)
        Class codes 0..C-1; every class must occur outside every fold.
    fold : array_like of int, shape (N,)
        Fold numbers 0..K-1.

    Returns
    -------
    numpy.ndarray, shape (N, C)
        Columns in the order of the class codes.

    Examples
    --------
    >>> from nbcourse.naive_bayes import CategoricalNB
    >>> X, y = [[0], [0], [1], [1]], [0, 0, 1, 1]
    >>> out_of_fold_proba(CategoricalNB(alpha=1.0), X, y, [0, 1, 0, 1])
    array([[0.66666667, 0.33333333],
           [0.66666667, 0.33333333],
           [0.33333333, 0.66666667],
           [0.33333333, 0.66666667]])
    """
    from sklearn.base import clone

    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict_proba")):
        raise TypeError(f"estimator must be a classifier with fit and predict_proba, "
                        f"got {type(estimator).__name__}")
    X = np.asarray(X)
    labels = check_codes(y, "y", ndim=1)
    if X.ndim != 2 or X.shape[0] != labels.shape[0]:
        raise ValueError(f"X must have shape (N, d) with one row per label ({labels.shape[0]}), "
                         f"got shape {X.shape}")
    folds, n_folds = _check_fold(fold, labels.shape[0])
    n_classes = int(labels.max()) + 1
    proba = np.empty((labels.shape[0], n_classes))
    for k in range(n_folds):
        test = folds == k
        train = ~test
        if np.unique(labels[train]).size < n_classes:
            raise ValueError(f"fold {k} leaves a class out of training; use fewer folds")
        model = clone(estimator).fit(X[train], labels[train])
        proba[test] = model.predict_proba(X[test])
    return proba


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
