"""Calibration statistics and the several-feature comparison of Williams (2024), §4.

The paper's experiments use a single categorical feature.  Its discussion says
that with several one-hot encoded features the change from ``theta_jc/theta_jd``
to ``f_j(theta_c)/f_j(theta_d)`` multiplies up across features.  This module
measures that claim and how well calibrated the two models are:

* :func:`log_loss`, :func:`reliability_bins` and :func:`expected_calibration_error`
  score predicted class probabilities against true labels;
* :func:`simulate_several_features` samples naive Bayes classifiers with ``F``
  categorical features, draws labelled cases from each, and scores both the
  categorical posterior and the product-of-Bernoullis (PoB) posterior that the
  one-hot encoding of every feature produces;
* :func:`cross_validate_models` fits both models to real data (integer codes) by
  stratified k-fold cross-validation and returns out-of-fold probabilities.

Labels and feature values are 0-based integer codes.

Examples
--------
>>> round(log_loss([0, 1], [[0.9, 0.1], [0.2, 0.8]]), 6)  # -(ln 0.9 + ln 0.8) / 2
0.164252
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._logspace import log1m_exp, log_losing_mass, log_normalise
from ._validation import (
    as_generator,
    check_codes,
    check_int,
    check_labels,
    check_n_categories,
    check_positive,
    check_simplex,
)

__all__ = [
    "CrossValidation",
    "FeatureSimulation",
    "Reliability",
    "cross_validate_models",
    "expected_calibration_error",
    "log_loss",
    "reliability_bins",
    "simulate_several_features",
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


def reliability_bins(proba, y, n_bins: int = 10) -> Reliability:
    """Group cases by their largest predicted probability; compare it with accuracy.

    Bins are equal-width on ``[0, 1]``, closed on the right (a confidence of
    exactly 1 falls in the last bin); empty bins are dropped.  Ties for the most
    probable class go to the lowest class code, as with ``numpy.argmax``.

    Parameters
    ----------
    proba : array_like, shape (N, C)
    y : array_like of int, shape (N,)
    n_bins : int, default 10

    Returns
    -------
    Reliability

    Examples
    --------
    >>> r = reliability_bins([[0.9, 0.1], [0.8, 0.2], [0.4, 0.6]], [0, 1, 1], n_bins=4)
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


def expected_calibration_error(proba, y, n_bins: int = 10) -> float:
    """Count-weighted mean of ``|accuracy - confidence|`` over the reliability bins.

    Parameters
    ----------
    proba : array_like, shape (N, C)
    y : array_like of int, shape (N,)
    n_bins : int, default 10

    Returns
    -------
    float

    Examples
    --------
    >>> round(expected_calibration_error([[0.9, 0.1], [0.8, 0.2], [0.4, 0.6]], [0, 1, 1], 4), 4)
    0.3667
    """
    r = reliability_bins(proba, y, n_bins)
    return float(np.sum(r.count * np.abs(r.accuracy - r.confidence)) / r.count.sum())


# ------------------------------------------------------ several features
@dataclass(frozen=True)
class FeatureSimulation:
    """Cases drawn from sampled naive Bayes classifiers with ``F`` categorical features.

    Attributes
    ----------
    n_features, K, alpha, C, prior_alpha : the simulation's parameters.
    log_pi : numpy.ndarray, shape (n_classifiers, C)
        Log class priors of the sampled classifiers.
    log_theta : numpy.ndarray, shape (n_classifiers, n_features, C, K)
        ``log theta[b, f, c, k] = log p(x_f = k | y = c)`` for classifier ``b``.
    x : numpy.ndarray of int, shape (n_classifiers, n_cases, n_features)
        Feature values of each case.
    y : numpy.ndarray of int, shape (n_classifiers, n_cases)
        True class of each case (drawn from the classifier's own model).
    post_categorical, post_pob : numpy.ndarray, shape (n_classifiers, n_cases, C)
        Posteriors under the categorical model (the true one) and under PoB.
    map_categorical, map_pob : numpy.ndarray of int, shape (n_classifiers, n_cases)
        MAP classes (first on ties), taken from the log joints.
    log_r_categorical, log_r_pob : numpy.ndarray, shape (n_classifiers, n_cases)
        ``log r`` with ``r`` the posterior mass of the other classes over the MAP
        class's, so the maximum posterior is ``1 / (1 + r)`` (see
        :func:`nbcourse._logspace.log_losing_mass`); comparisons of maximum
        posteriors use these, exactly, as the §3 experiments do.
    """

    n_features: int
    K: int
    alpha: float
    C: int
    prior_alpha: float
    log_pi: np.ndarray = field(repr=False)
    log_theta: np.ndarray = field(repr=False)
    x: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    post_categorical: np.ndarray = field(repr=False)
    post_pob: np.ndarray = field(repr=False)
    map_categorical: np.ndarray = field(repr=False)
    map_pob: np.ndarray = field(repr=False)
    log_r_categorical: np.ndarray = field(repr=False)
    log_r_pob: np.ndarray = field(repr=False)

    @property
    def map_disagree(self) -> np.ndarray:
        """bool (n_classifiers, n_cases): the two MAP classes differ."""
        return self.map_categorical != self.map_pob

    @property
    def pob_higher(self) -> np.ndarray:
        """bool (n_classifiers, n_cases): PoB's largest posterior strictly exceeds the categorical one.

        Compared exactly through ``log r`` (a smaller losing mass is a larger
        maximum posterior), so posteriors that both round to 1 are still told apart.
        """
        return self.log_r_pob < self.log_r_categorical

    def rate(self, name: str):
        """Fraction of cases with a property and a 95% interval over classifiers.

        Parameters
        ----------
        name : {"map_disagree", "pob_higher", "correct_categorical", "correct_pob"}

        Returns
        -------
        tuple (rate, lower, upper)
            The mean over all cases and ``rate -/+ 1.96`` standard errors of the
            per-classifier rates (cases from one classifier are not independent,
            so classifiers are the unit of replication).
        """
        per = self._per_case(name).mean(axis=1)
        se = per.std(ddof=1) / np.sqrt(per.size) if per.size > 1 else 0.0
        m = float(per.mean())
        return m, m - 1.96 * float(se), m + 1.96 * float(se)

    def _per_case(self, name):
        table = {
            "map_disagree": lambda: self.map_disagree,
            "pob_higher": lambda: self.pob_higher,
            "correct_categorical": lambda: self.map_categorical == self.y,
            "correct_pob": lambda: self.map_pob == self.y,
        }
        if name not in table:
            raise ValueError(f"name must be one of {sorted(table)}, got {name!r}")
        return table[name]().astype(float)

    def flat(self):
        """``(y, post_categorical, post_pob)`` with classifiers and cases merged: (N,), (N, C)."""
        C = self.C
        return (self.y.ravel(), self.post_categorical.reshape(-1, C),
                self.post_pob.reshape(-1, C))


def simulate_several_features(n_features, K, alpha, *, C=4, n_classifiers=200, n_cases=50,
                              prior_alpha=1.0, seed=None) -> FeatureSimulation:
    """Score categorical and PoB naive Bayes on cases from classifiers with ``F`` features.

    Each classifier has prior ``pi ~ Dir(prior_alpha)`` over ``C`` classes and,
    for every feature ``f`` and class ``c``, ``theta[f, c] ~ Dir(alpha)`` over
    ``K`` values (the protocol of Williams 2024, §3, with ``F`` features instead
    of one).  ``n_cases`` labelled cases are drawn from each classifier's own
    (categorical) model.  For a case ``x`` the two log posteriors are, up to a
    constant,

    * categorical: ``log pi_c + sum_f log theta[f, c, x_f]`` (eq. 2 for F features);
    * PoB: the same plus ``sum_f log Q_c^{-x_f}(theta[f, c])`` (eqs. 3-4, one
      ``Q`` factor per one-hot encoded feature).

    Parameters
    ----------
    n_features : int
        Number of categorical features ``F >= 1``.
    K : int
        Values per feature, ``K >= 2``.
    alpha : float
        Dirichlet parameter of every ``theta`` vector (> 0).
    C : int, default 4
        Number of classes (the paper's value).
    n_classifiers, n_cases : int
        Sampled classifiers, and cases drawn from each.
    prior_alpha : float, default 1.0
        Dirichlet parameter of ``pi``.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The library's random-state convention (:func:`nbcourse._validation.check_seed`).

    Returns
    -------
    FeatureSimulation

    Examples
    --------
    >>> s = simulate_several_features(2, 3, 1.0, n_classifiers=5, n_cases=4, seed=0)
    >>> s.post_pob.shape
    (5, 4, 4)
    >>> bool(np.allclose(s.post_categorical.sum(-1), 1))
    True
    """
    from .experiments import sample_log_dirichlet
    from .onehot import log_q_minus_from_terms

    F = check_int(n_features, "n_features", 1)
    K = check_n_categories(K)
    C = check_n_categories(C, "C")
    alpha = check_positive(alpha, "alpha")
    prior_alpha = check_positive(prior_alpha, "prior_alpha")
    B = check_int(n_classifiers, "n_classifiers", 1)
    N = check_int(n_cases, "n_cases", 1)
    rng = as_generator(seed)

    log_pi = sample_log_dirichlet(prior_alpha, C, (B,), seed=rng)
    log_theta = sample_log_dirichlet(alpha, K, (B, F, C), seed=rng)
    # draw labels, then each feature's value given the label (Gumbel-max in log space)
    y = np.argmax(log_pi[:, None, :] + rng.gumbel(size=(B, N, C)), axis=-1)
    lt_y = np.take_along_axis(log_theta[:, None], y[:, :, None, None, None], axis=3)[..., 0, :]
    x = np.argmax(lt_y + rng.gumbel(size=(B, N, F, K)), axis=-1)  # (B, N, F)

    # per feature and class: ln theta at the observed value and ln Q^{-x_f} (eq. 4)
    log_q = log_q_minus_from_terms(log1m_exp(log_theta))  # (B, F, C, K)
    at_x = np.broadcast_to(x[:, :, :, None, None], (B, N, F, C, 1))
    pick = lambda a: np.take_along_axis(  # noqa: E731
        np.broadcast_to(a[:, None], (B, N, F, C, K)), at_x, axis=4)[..., 0].sum(axis=2)
    joint_cat = log_pi[:, None, :] + pick(log_theta)  # (B, N, C)
    joint_pob = joint_cat + pick(log_q)
    map_cat, log_r_cat = log_losing_mass(joint_cat)
    map_pob, log_r_pob = log_losing_mass(joint_pob)
    return FeatureSimulation(F, K, alpha, C, prior_alpha, log_pi, log_theta, x, y,
                             np.exp(log_normalise(joint_cat)), np.exp(log_normalise(joint_pob)),
                             map_cat, map_pob, log_r_cat, log_r_pob)


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
        p = self.proba(model)
        return np.array([log_loss(self.y[self.fold == k], p[self.fold == k])
                         for k in range(int(self.fold.max()) + 1)])

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
                "ece": expected_calibration_error(p, self.y, n_bins),
                "mean_confidence": float(p.max(1).mean()),
            }
        out["map_disagree"] = float(
            (self.proba_categorical.argmax(1) != self.proba_pob.argmax(1)).mean())
        return out


def cross_validate_models(X, y, *, alpha=1.0, n_splits=10, seed=0) -> CrossValidation:
    """Fit categorical and PoB naive Bayes by stratified k-fold cross-validation.

    The categorical model (:class:`nbcourse.CategoricalNB`) sees the integer
    codes; the PoB model (:class:`nbcourse.ProductOfBernoullisNB`) sees their
    one-hot encoding (:func:`nbcourse.one_hot`), as happens when a categorical
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
    seed : int or None, default 0
        Shuffles the rows before they are split into folds.

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

    from .naive_bayes import CategoricalNB, ProductOfBernoullisNB, one_hot

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
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    for k, (train, test) in enumerate(splitter.split(X, codes)):
        if np.unique(codes[train]).size < classes.size:
            raise ValueError(f"fold {k} leaves a class out of training; use fewer folds")
        fold[test] = k
        cat = CategoricalNB(alpha=alpha, n_values=n_values).fit(X[train], codes[train])
        pob = ProductOfBernoullisNB(alpha=alpha).fit(B[train], codes[train])
        p_cat[test] = cat.predict_proba(X[test])
        p_pob[test] = pob.predict_proba(B[test])
    return CrossValidation(classes, codes.astype(np.int64), fold, p_cat, p_pob)
