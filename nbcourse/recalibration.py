"""Post-hoc recalibration: maps fitted on held-out cases that turn over-confident scores into
calibrated probabilities without retraining the classifier.

* :class:`TemperatureScaling` divides the log odds (or every class's log score) by one number
  ``T`` chosen to minimise the log loss (Guo et al. 2017);
* :class:`PlattScaling` is logistic regression of the label on the single feature ``g``, the log
  odds, with Platt's (1999) smoothed targets as an option;
* :class:`IsotonicCalibration` fits the non-decreasing step function of ``g`` closest to the
  labels in squared error (Zadrozny & Elkan 2002), by the pool-adjacent-violators algorithm
  :func:`pava` (Ayer et al. 1955);
* :func:`brier_score` scores probabilities by squared error (Brier 1950): unlike the log loss it
  stays finite when a map states certainty and is wrong;
* :func:`calibrate_held_out` fits a calibrator to a fitted classifier's scores on a calibration
  set, and :func:`cross_fit` to out-of-fold scores, giving a :class:`Recalibrated` classifier.

Scores follow the rest of the library.  With two classes a calibrator takes ``g``, shape
``(N,)``, the log posterior odds of class 0 against class 1
(:func:`nbcourse.calibration.log_loss_of_log_odds`), or the log probabilities, shape ``(N, 2)``,
from which it forms ``g``.  With ``C > 2`` classes it takes log scores of shape ``(N, C)``
(``predict_log_proba``): temperature scaling divides them all by ``T``; Platt scaling and
isotonic regression calibrate each class against the rest (one-vs-rest, as Zadrozny & Elkan 2002)
and divide each row by its sum.  Labels are 0-based class codes.  Every calibrator returns
probabilities of shape ``(N, C)`` from ``predict_proba``.

Examples
--------
>>> g = np.array([-3.0, -1.0, 1.0, 3.0, -2.0, 2.0])
>>> y = np.array([1, 1, 0, 0, 0, 1])              # right 4 times out of 6, at odds e^2 or e^3
>>> t = TemperatureScaling().fit(g, y)
>>> bool(t.temperature_ > 1)                       # over-confident scores are cooled
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit, log_expit

from ._logspace import log_normalise, logsumexp
from ._validation import as_real_array, check_codes, check_int
from .calibration import _check_proba_and_labels

__all__ = [
    "IsotonicCalibration",
    "PlattScaling",
    "Recalibrated",
    "TemperatureScaling",
    "brier_score",
    "calibrate_held_out",
    "cross_fit",
    "pava",
]


# ------------------------------------------------------------------ validation
def _check_scores(scores, name="scores"):
    """``g`` (N,) or log scores (N, C), finite; returned as float arrays."""
    s = as_real_array(scores, name)
    if s.ndim not in (1, 2) or s.shape[0] == 0 or (s.ndim == 2 and s.shape[1] < 2):
        raise ValueError(f"{name} must be log odds g of shape (N,) or log scores of shape (N, C) "
                         f"with C >= 2 and N >= 1, got shape {s.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError(f"{name} must be finite (smooth the model so that no probability is 0), "
                         f"got inf")
    return s


def _check_labels(y, n_rows, n_classes):
    labels = check_codes(y, "y", ndim=1)
    if labels.shape[0] != n_rows:
        raise ValueError(f"y must have one label per row of scores ({n_rows}), "
                         f"got {labels.shape[0]}")
    if labels.max() >= n_classes:
        raise ValueError(f"y must contain class codes in range({n_classes}), "
                         f"got {int(labels.max())}")
    return labels


def _check_weights(weights, n):
    if weights is None:
        return np.ones(n)
    w = as_real_array(weights, "weights")
    if w.shape != (n,) or not np.all(np.isfinite(w)) or (w <= 0).any():
        raise ValueError(f"weights must be {n} finite positive numbers, got shape {w.shape} "
                         f"with values from {w.min():g} to {w.max():g}")
    return w


def _log_odds_one_vs_rest(log_scores):
    """``ln[p_c / (1 - p_c)]`` for every class from log scores (N, C)."""
    logp = log_normalise(log_scores, axis=1)
    C = logp.shape[1]
    rest = np.column_stack([logsumexp(np.delete(logp, c, axis=1), axis=1) for c in range(C)])
    return logp - rest


def _binary_g(scores):
    """``g`` from ``(N,)`` log odds or ``(N, 2)`` log scores."""
    return scores if scores.ndim == 1 else scores[:, 0] - scores[:, 1]


def _one_vs_rest_problems(calibrator, scores, y, weights):
    """Check ``fit``'s arguments, record the kind of scores on ``calibrator``, and return the
    one-feature problems a map is fitted to: ``(features, positives, weights)``, with one
    column of ``features`` (``g``, or each class's log odds against the rest) and one boolean
    vector of ``positives`` per map."""
    s = _check_scores(scores)
    calibrator._ndim = s.ndim
    calibrator.n_classes_ = 2 if s.ndim == 1 else s.shape[1]
    labels = _check_labels(y, s.shape[0], calibrator.n_classes_)
    w = _check_weights(weights, s.shape[0])
    if calibrator.n_classes_ == 2:
        return _binary_g(s)[:, None], [labels == 0], w
    return (_log_odds_one_vs_rest(s), [labels == c for c in range(calibrator.n_classes_)], w)


def _check_fitted(calibrator, attribute):
    if not hasattr(calibrator, attribute):
        raise ValueError(f"this {type(calibrator).__name__} is not fitted yet; "
                         f"call fit(scores, y) first")


def _check_same_kind(calibrator, scores):
    if scores.ndim != calibrator._ndim or (scores.ndim == 2 and
                                           scores.shape[1] != calibrator.n_classes_):
        expected = "(N,)" if calibrator._ndim == 1 else f"(N, {calibrator.n_classes_})"
        raise ValueError(f"scores must have shape {expected} as in fit, got shape {scores.shape}")


# ------------------------------------------------------------------ Brier score
def brier_score(y, proba) -> float:
    """Mean squared distance between the predicted probabilities and the indicator of the class.

    ``mean_i sum_c (proba[i, c] - [y_i = c])**2`` (Brier 1950), between 0 and 2.  Like the log
    loss it is a proper score, smallest in expectation for the true probabilities; unlike the log
    loss it stays finite when a class that occurs was given probability 0.

    Parameters
    ----------
    y : array_like of int, shape (N,)
        True class codes in ``range(C)``.
    proba : array_like, shape (N, C)
        Rows of class probabilities.

    Returns
    -------
    float

    Examples
    --------
    >>> brier_score([0, 1], [[1.0, 0.0], [0.5, 0.5]])       # (0 + 0.25 + 0.25) / 2
    0.25
    """
    p, labels = _check_proba_and_labels(proba, y)
    truth = np.eye(p.shape[1])[labels]
    return float(((p - truth) ** 2).sum(axis=1).mean())


# ------------------------------------------------------------------ temperature
def _temperature_loss(w, s, labels):
    """Mean log loss of softmax(w s), its first and second derivatives in ``w``."""
    z = w * s
    logp = log_normalise(z, axis=1)
    p = np.exp(logp)
    chosen = s[np.arange(len(labels)), labels]
    mean_s = (p * s).sum(axis=1)
    loss = -logp[np.arange(len(labels)), labels].mean()
    grad = (mean_s - chosen).mean()
    hess = ((p * s * s).sum(axis=1) - mean_s ** 2).mean()
    return loss, grad, hess


class TemperatureScaling:
    """One temperature ``T`` that divides the log odds (or all log scores), fitted by log loss.

    With two classes the calibrated probability of class 0 is ``sigma(g / T)``; with ``C``
    classes it is ``softmax(s / T)`` of the log scores ``s`` (Guo et al. 2017).  ``T`` is
    found by Newton's method on the inverse temperature ``w = 1 / T``, in which the mean log
    loss is convex.  ``T > 1`` softens over-confident scores, ``T < 1`` sharpens them; the class
    with the largest score, and the order of the cases by ``g``, never change.

    Attributes
    ----------
    temperature_ : float
        The fitted ``T > 0``.
    n_classes_ : int
    n_iter_ : int
        Newton steps taken.

    Examples
    --------
    >>> g = [3.0, -3.0, 3.0, -3.0, 3.0, -3.0]           # odds e^3 : 1, right 4 times in 6
    >>> t = TemperatureScaling().fit(g, [0, 1, 0, 1, 1, 0])
    >>> round(t.temperature_, 6), round(3 / float(np.log(2)), 6)   # sigma(3 / T) = 2/3
    (4.328085, 4.328085)
    >>> t.predict_proba([3.0]).round(4)
    array([[0.6667, 0.3333]])
    """

    def fit(self, scores, y, *, tol=1e-10, max_iter=100):
        """Fit ``T`` on held-out ``scores`` and labels ``y``; returns ``self``.

        Parameters
        ----------
        scores : array_like, shape (N,) or (N, C)
            Log odds ``g`` of class 0 against class 1, or log scores of each class.
        y : array_like of int, shape (N,)
        tol : float, default 1e-10
            Stop when a Newton step changes ``w = 1 / T`` by less than this.
        max_iter : int, default 100
        """
        s = _check_scores(scores)
        self._ndim = s.ndim
        s2 = np.column_stack([s / 2, -s / 2]) if s.ndim == 1 else s
        self.n_classes_ = s2.shape[1]
        labels = _check_labels(y, s2.shape[0], self.n_classes_)
        max_iter = check_int(max_iter, "max_iter", 1)
        s2 = s2 - s2.mean(axis=1, keepdims=True)   # softmax ignores a shift of each row
        if _temperature_loss(0.0, s2, labels)[1] >= 0:
            raise ValueError("scores must carry information about y: the log loss falls as T "
                             "grows without bound (the best calibrated probabilities are the "
                             "class shares)")
        w, it = 1.0, 0
        while it < max_iter:
            it += 1
            loss, grad, hess = _temperature_loss(w, s2, labels)
            step = -grad / hess if hess > 0 else -grad
            new = w + step
            while new <= 0 or _temperature_loss(new, s2, labels)[0] > loss + 1e-15:
                step /= 2                              # damped step: stay positive, go down
                new = w + step
                if abs(step) < tol * max(1.0, w):
                    break
            w = new
            if abs(step) < tol * max(1.0, w):
                break
        self.temperature_ = float(1.0 / w)
        self.n_iter_ = it
        return self

    def predict_proba(self, scores):
        """Calibrated class probabilities, shape (N, C)."""
        _check_fitted(self, "temperature_")
        s = _check_scores(scores)
        _check_same_kind(self, s)
        if s.ndim == 1:
            return np.column_stack([expit(s / self.temperature_), expit(-s / self.temperature_)])
        return np.exp(log_normalise(s / self.temperature_, axis=1))


# ------------------------------------------------------------------ Platt
def _platt_fit(g, target, weights, tol=1e-12, max_iter=100):
    """Newton's method for ``P(target) = sigma(a g + b)``, mean cross-entropy, targets in [0, 1]."""
    A = np.column_stack([g, np.ones_like(g)])
    wsum = weights.sum()

    def loss(theta):
        z = A @ theta
        return -(weights * (target * log_expit(z) + (1 - target) * log_expit(-z))).sum() / wsum

    theta = np.array([0.0, np.log((weights * target).sum() + 1) - np.log(
        (weights * (1 - target)).sum() + 1)])
    for _ in range(max_iter):
        p = expit(A @ theta)
        grad = A.T @ (weights * (p - target)) / wsum
        hess = (A * (weights * p * (1 - p))[:, None]).T @ A / wsum
        hess += 1e-12 * np.eye(2)
        step = -np.linalg.solve(hess, grad)
        current = loss(theta)
        t = 1.0
        while loss(theta + t * step) > current + 1e-15 and t > 1e-10:
            t /= 2
        theta = theta + t * step
        if np.abs(t * step).max() < tol * max(1.0, np.abs(theta).max()):
            break
    return theta


class PlattScaling:
    """Logistic regression of the label on the single feature ``g`` (Platt 1999).

    With two classes, ``P(class 0 | g) = sigma(a g + b)``: ``a`` rescales the log odds, as a
    temperature ``1 / a`` does, and ``b`` shifts them.  The two parameters minimise the
    cross-entropy to targets ``t_i``: the labels themselves, or with ``target_smoothing`` Platt's
    ``(N_0 + 1) / (N_0 + 2)`` for the ``N_0`` cases of class 0 and ``1 / (N_1 + 2)`` for the
    ``N_1`` cases of class 1, which keeps ``a`` and ``b`` finite when ``g`` separates the classes
    and is what scikit-learn's ``CalibratedClassifierCV(method="sigmoid")`` does.  With
    ``C > 2`` classes, one such map per class on its one-vs-rest log odds; rows are then divided
    by their sums.  Fitted by Newton's method.

    Parameters
    ----------
    target_smoothing : bool, default True

    Attributes
    ----------
    a_, b_ : numpy.ndarray, shape (1,) or (C,)
        Slope and intercept of each map (one map with two classes).
    n_classes_ : int

    Examples
    --------
    >>> p = PlattScaling(target_smoothing=False).fit([-1, -1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 1])
    >>> p.predict_proba([1.0, -1.0]).round(6)        # the shares 3/4 and 1/2 at the two scores
    array([[0.75, 0.25],
           [0.5 , 0.5 ]])
    """

    def __init__(self, target_smoothing=True):
        self.target_smoothing = target_smoothing

    def _targets(self, is_zero):
        if not isinstance(self.target_smoothing, bool | np.bool_):
            raise TypeError(f"target_smoothing must be True or False, "
                            f"got {self.target_smoothing!r}")
        if not self.target_smoothing:
            return is_zero.astype(float)
        n0, n1 = is_zero.sum(), (~is_zero).sum()
        return np.where(is_zero, (n0 + 1.0) / (n0 + 2.0), 1.0 / (n1 + 2.0))

    def fit(self, scores, y, weights=None):
        """Fit the map(s) on held-out ``scores`` and labels ``y``; returns ``self``."""
        features, positives, w = _one_vs_rest_problems(self, scores, y, weights)
        params = [_platt_fit(features[:, k], self._targets(pos), w)
                  for k, pos in enumerate(positives)]
        self.a_ = np.array([p[0] for p in params])
        self.b_ = np.array([p[1] for p in params])
        return self

    def predict_proba(self, scores):
        """Calibrated class probabilities, shape (N, C)."""
        _check_fitted(self, "a_")
        s = _check_scores(scores)
        _check_same_kind(self, s)
        if self.n_classes_ == 2:
            z = self.a_[0] * _binary_g(s) + self.b_[0]
            return np.column_stack([expit(z), expit(-z)])
        return _normalise(expit(self.a_ * _log_odds_one_vs_rest(s) + self.b_))


def _normalise(p):
    """Rows divided by their sums; a row of zeros becomes uniform (as scikit-learn does)."""
    total = p.sum(axis=1, keepdims=True)
    uniform = np.full_like(p, 1.0 / p.shape[1])
    return np.divide(p, total, out=uniform, where=total > 0)


# ------------------------------------------------------------------ isotonic
def pava(values, weights=None):
    """The non-decreasing sequence closest to ``values`` in weighted squared error.

    The pool-adjacent-violators algorithm (Ayer et al. 1955): scan left to right, and whenever a
    block's mean falls below the mean of the block before it, merge the two into one block whose
    value is their weighted mean; repeat until no two neighbours violate the order.

    Parameters
    ----------
    values : array_like, shape (n,)
        In the order of the scores they belong to.
    weights : array_like, shape (n,) or None
        Positive weights (default: all 1).

    Returns
    -------
    numpy.ndarray, shape (n,)
        ``f`` minimising ``sum(weights * (values - f)**2)`` subject to
        ``f[0] <= f[1] <= ... <= f[n-1]``.

    Examples
    --------
    >>> pava([1, 0, 0, 1, 0, 1, 1])
    array([0.33333333, 0.33333333, 0.33333333, 0.5       , 0.5       ,
           1.        , 1.        ])
    """
    v = as_real_array(values, "values")
    if v.ndim != 1 or v.size == 0 or not np.all(np.isfinite(v)):
        raise ValueError(f"values must be a non-empty 1-d array of finite numbers, "
                         f"got shape {v.shape}")
    w = _check_weights(weights, v.size)
    means, totals, sizes = [], [], []          # one entry per block
    for value, weight in zip(v, w, strict=True):
        means.append(value)
        totals.append(weight)
        sizes.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            m2, w2, n2 = means.pop(), totals.pop(), sizes.pop()
            merged = totals[-1] + w2
            means[-1] = (means[-1] * totals[-1] + m2 * w2) / merged
            totals[-1] = merged
            sizes[-1] += n2
    return np.repeat(means, sizes)


class IsotonicCalibration:
    """Isotonic regression of the label on ``g`` (Zadrozny & Elkan 2002).

    With two classes, ``P(class 0 | g)`` is the non-decreasing function of ``g`` with the least
    squared error to the indicators of class 0 on the calibration cases, found by :func:`pava`
    after pooling cases with equal ``g`` (their mean, weighted by their number).  Between the
    fitted scores it is interpolated linearly and beyond them held constant, as scikit-learn's
    ``IsotonicRegression(out_of_bounds="clip")``.  With ``C > 2`` classes, one such map per
    class on its one-vs-rest log odds; rows are then divided by their sums.

    Attributes
    ----------
    thresholds_ : list of (numpy.ndarray, numpy.ndarray)
        For each map, the distinct fitted scores and the fitted probabilities there.
    n_classes_ : int

    Examples
    --------
    >>> iso = IsotonicCalibration().fit([-2.0, -1.0, 1.0, 2.0], [1, 0, 1, 0])
    >>> iso.predict_proba([-2.0, 0.0, 2.0])[:, 0]
    array([0. , 0.5, 1. ])
    """

    def fit(self, scores, y, weights=None):
        """Fit the map(s) on held-out ``scores`` and labels ``y``; returns ``self``."""
        features, positives, w = _one_vs_rest_problems(self, scores, y, weights)
        self.thresholds_ = []
        for k, pos in enumerate(positives):
            x, inverse = np.unique(features[:, k], return_inverse=True)
            total = np.bincount(inverse, weights=w)
            share = np.bincount(inverse, weights=w * pos) / total
            self.thresholds_.append((x, pava(share, total)))
        return self

    def predict_proba(self, scores):
        """Calibrated class probabilities, shape (N, C)."""
        _check_fitted(self, "thresholds_")
        s = _check_scores(scores)
        _check_same_kind(self, s)
        if self.n_classes_ == 2:
            x, f = self.thresholds_[0]
            p0 = np.interp(_binary_g(s), x, f)
            return np.column_stack([p0, 1.0 - p0])
        z = _log_odds_one_vs_rest(s)
        return _normalise(np.column_stack([np.interp(z[:, k], x, f)
                                           for k, (x, f) in enumerate(self.thresholds_)]))


# ------------------------------------------------------------------ held-out fitting
_CALIBRATORS = (TemperatureScaling, PlattScaling, IsotonicCalibration)


@dataclass(frozen=True)
class Recalibrated:
    """A fitted classifier followed by a calibrator fitted on its held-out log probabilities.

    Attributes
    ----------
    estimator : fitted classifier with ``predict_log_proba``
    calibrator : fitted TemperatureScaling, PlattScaling or IsotonicCalibration
    """

    estimator: object
    calibrator: object

    def _scores(self, X):
        s = np.asarray(self.estimator.predict_log_proba(X))
        return _binary_g(s) if self.calibrator._ndim == 1 else s

    def predict_proba(self, X):
        """Calibrated class probabilities of the rows of ``X``, shape (N, C)."""
        return self.calibrator.predict_proba(self._scores(X))

    def predict(self, X):
        """The class with the largest calibrated probability (column index, 0-based)."""
        return self.predict_proba(X).argmax(axis=1)


def _check_pair(estimator, calibrator):
    if not hasattr(estimator, "predict_log_proba"):
        raise TypeError(f"estimator must be a classifier with predict_log_proba, "
                        f"got {type(estimator).__name__}")
    if not isinstance(calibrator, _CALIBRATORS):
        raise TypeError(f"calibrator must be one of {[c.__name__ for c in _CALIBRATORS]}, "
                        f"got {type(calibrator).__name__}")


def calibrate_held_out(estimator, calibrator, X_cal, y_cal) -> Recalibrated:
    """Fit ``calibrator`` to a fitted classifier's log probabilities on a calibration set.

    The calibration cases must not have been used to fit ``estimator``: on its own training
    cases a classifier looks better calibrated than it is.  With two classes the calibrator
    sees ``g = ln p_0 - ln p_1``; with more, the log probabilities.

    Parameters
    ----------
    estimator : fitted classifier with ``predict_log_proba``
    calibrator : TemperatureScaling, PlattScaling or IsotonicCalibration
        Fitted in place.
    X_cal : array_like
    y_cal : array_like of int, shape (N,)
        Class codes 0..C-1 in the order of the estimator's columns.

    Returns
    -------
    Recalibrated

    Examples
    --------
    >>> from nbcourse.naive_bayes import CategoricalNB
    >>> model = CategoricalNB().fit([[0], [0], [1], [1]], [0, 0, 1, 1])
    >>> r = calibrate_held_out(model, PlattScaling(), [[0], [1], [0], [1]], [0, 1, 1, 0])
    >>> r.predict_proba([[0], [1]]).round(3)          # the calibration set says: a coin toss
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """
    _check_pair(estimator, calibrator)
    s = np.asarray(estimator.predict_log_proba(X_cal))
    calibrator.fit(_binary_g(s) if s.shape[1] == 2 else s, y_cal)
    return Recalibrated(estimator, calibrator)


def cross_fit(estimator, calibrator, X, y, *, n_splits=5, seed=0) -> Recalibrated:
    """Fit a calibrator on out-of-fold scores and the classifier on all the cases.

    The cases are split into ``n_splits`` stratified folds
    (:func:`nbcourse.model_selection.stratified_folds`); a copy of ``estimator`` fitted
    outside each fold scores the cases inside it, so every case gets a score from a model that
    did not see it.  The calibrator is fitted to these out-of-fold scores, and ``estimator`` is
    then refitted to all the cases (scikit-learn's ``CalibratedClassifierCV(ensemble=False)``).
    No case is set aside for calibration only.

    Parameters
    ----------
    estimator : unfitted scikit-learn classifier with ``predict_log_proba``
    calibrator : TemperatureScaling, PlattScaling or IsotonicCalibration
    X : array_like, shape (N, d)
    y : array_like of int, shape (N,)
        Class codes 0..C-1.
    n_splits : int, default 5
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator, default 0
        Shuffles the rows before they are split (as in :func:`nbcourse.cross_validate_models`).

    Returns
    -------
    Recalibrated

    Examples
    --------
    >>> from nbcourse.naive_bayes import CategoricalNB
    >>> X, y = [[0]] * 6 + [[1]] * 6, [0] * 5 + [1] + [1] * 5 + [0]
    >>> r = cross_fit(CategoricalNB(), TemperatureScaling(), X, y, n_splits=3)
    >>> bool(r.calibrator.temperature_ > 0)
    True
    """
    from sklearn.base import clone

    from .model_selection import out_of_fold_proba, stratified_folds

    _check_pair(estimator, calibrator)
    X = np.asarray(X)
    labels = check_codes(y, "y", ndim=1)
    if X.ndim != 2 or X.shape[0] != labels.shape[0]:
        raise ValueError(f"X must have shape (N, d) with one row per label ({labels.shape[0]}), "
                         f"got shape {X.shape}")
    fold = stratified_folds(labels, n_splits, seed=seed)
    scores = out_of_fold_proba(estimator, X, labels, fold, method="predict_log_proba")
    n_classes = scores.shape[1]
    calibrator.fit(_binary_g(scores) if n_classes == 2 else scores, labels)
    return Recalibrated(clone(estimator).fit(X, labels), calibrator)
