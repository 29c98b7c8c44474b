"""Model selection by cross-validation: the two naive Bayes models compared on real data, and
the smoothing constant chosen by out-of-fold scores.

* :func:`cross_validate_models` fits categorical and product-of-Bernoullis naive Bayes to real
  data (integer codes) by stratified k-fold cross-validation and returns out-of-fold
  probabilities (:class:`CrossValidation`);
* :func:`stratified_folds` splits the rows into the folds every function here uses,
  :func:`out_of_fold_proba` fits any other classifier on given folds, and
  :func:`fold_log_loss` scores out-of-fold probabilities fold by fold;
* :func:`cross_validate_alpha`: out-of-fold log loss, accuracy and calibration of the
  categorical and the PoB model over a grid of ``α`` (:class:`SmoothingPath`);
* :func:`compare_by_folds`: any classifiers fitted on the same folds, scored fold by fold in
  log loss and error rate, each against a baseline with the corrected t-interval of Nadeau &
  Bengio (2003) (:class:`FoldComparison`).

The scores come from :mod:`nbcourse.calibration`, the models from :mod:`nbcourse.naive_bayes`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from ._validation import (
    as_real_array,
    check_alpha,
    check_codes,
    check_int,
    check_labels,
    check_seed,
)
from .calibration import _check_proba_and_labels, expected_calibration_error, log_loss
from .encoding import one_hot
from .naive_bayes import CategoricalNB, ProductOfBernoullisNB

__all__ = [
    "CrossValidation",
    "FoldComparison",
    "SmoothingPath",
    "VERDICTS",
    "compare_by_folds",
    "cross_validate_alpha",
    "cross_validate_models",
    "fold_log_loss",
    "out_of_fold_proba",
    "stratified_folds",
]


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
    fold = stratified_folds(codes, n_splits, seed=seed)
    p_cat = np.empty((X.shape[0], classes.size))
    p_pob = np.empty_like(p_cat)
    for k in range(n_splits):
        test = fold == k
        train = ~test
        if np.unique(codes[train]).size < classes.size:
            raise ValueError(f"fold {k} leaves a class out of training; use fewer folds")
        cat = CategoricalNB(alpha=alpha, n_values=n_values).fit(X[train], codes[train])
        pob = ProductOfBernoullisNB(alpha=alpha).fit(B[train], codes[train])
        p_cat[test] = cat.predict_proba(X[test])
        p_pob[test] = pob.predict_proba(B[test])
    return CrossValidation(classes, codes.astype(np.int64), fold, p_cat, p_pob)


def stratified_folds(y, n_splits=10, *, seed=0) -> np.ndarray:
    """The fold in which each row is held out, in stratified k-fold cross-validation.

    The rows are shuffled and split into ``n_splits`` folds with each class spread over
    them as evenly as it can be (scikit-learn's ``StratifiedKFold`` with ``shuffle=True``).

    Parameters
    ----------
    y : array_like, shape (N,)
        Class labels (any sortable type).
    n_splits : int, default 10
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator, default 0
        An int is passed to ``StratifiedKFold`` as its ``random_state``; a SeedSequence or
        Generator supplies one; None shuffles differently each time.

    Returns
    -------
    numpy.ndarray of int64, shape (N,)
        Fold numbers ``0..n_splits-1``, as :attr:`CrossValidation.fold`.

    Examples
    --------
    >>> fold = stratified_folds([0, 0, 0, 1, 1, 1], 3, seed=0)
    >>> sorted(fold.tolist())
    [0, 0, 1, 1, 2, 2]
    """
    from sklearn.model_selection import StratifiedKFold

    labels = np.asarray(y)
    if labels.ndim != 1:
        raise ValueError(f"y must be a 1-d array of labels, got shape {labels.shape}")
    n_splits = check_int(n_splits, "n_splits", 2)
    random_state = seed if seed is None or isinstance(seed, numbers.Integral) else int(
        check_seed(seed).generate_state(1)[0])
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    fold = np.empty(labels.shape[0], dtype=np.int64)
    for k, (_, test) in enumerate(splitter.split(np.zeros((labels.shape[0], 1)), labels)):
        fold[test] = k
    return fold


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


def out_of_fold_proba(estimator, X, y, fold, *, method="predict_proba") -> np.ndarray:
    """Out-of-fold class probabilities of any classifier on given folds.

    For each fold ``k`` a fresh copy of ``estimator`` (``sklearn.base.clone``) is fitted to
    the rows outside the fold and predicts the rows inside it.  Given the ``fold`` of a
    :class:`CrossValidation`, the result is comparable row by row and fold by fold with
    that comparison's two models.

    Parameters
    ----------
    estimator : scikit-learn classifier
        Unfitted, with ``fit`` and ``method``.
    X : array_like, shape (N, d)
    y : array_like of int, shape (N,)
        Class codes 0..C-1; every class must occur outside every fold.
    fold : array_like of int, shape (N,)
        Fold numbers 0..K-1, as :func:`stratified_folds` gives them.
    method : {"predict_proba", "predict_log_proba"}, default "predict_proba"
        Probabilities or their logs.

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

    if method not in ("predict_proba", "predict_log_proba"):
        raise ValueError(f"method must be 'predict_proba' or 'predict_log_proba', got {method!r}")
    if not (hasattr(estimator, "fit") and hasattr(estimator, method)):
        raise TypeError(f"estimator must be a classifier with fit and {method}, "
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
        proba[test] = getattr(model, method)(X[test])
    return proba


# ------------------------------------------------------------------ choosing alpha
@dataclass(frozen=True)
class SmoothingPath:
    """Out-of-fold scores of both models over a grid of ``α`` (see :func:`cross_validate_alpha`).

    Attributes
    ----------
    alphas : numpy.ndarray, shape (m,)
        The grid, in the order given.
    scores : dict
        ``scores[model][metric]`` for ``model`` in ``("categorical", "pob")`` and
        ``metric`` in ``("log_loss", "accuracy", "ece", "mean_confidence")``:
        arrays of shape (m,) computed on all out-of-fold probabilities.
    fold_log_loss : dict
        ``fold_log_loss[model]``: shape (m, n_splits), the log loss on each held-out fold.
    """

    alphas: np.ndarray
    scores: dict
    fold_log_loss: dict

    def overconfidence(self, model: str) -> np.ndarray:
        """Mean top probability minus accuracy, shape (m,): positive means over-confident."""
        s = self._model(model)
        return s["mean_confidence"] - s["accuracy"]

    def best_alpha(self, model: str) -> float:
        """The ``α`` of the grid with the lowest out-of-fold log loss (the first, if tied)."""
        return float(self.alphas[int(np.argmin(self._model(model)["log_loss"]))])

    def _model(self, model):
        if model not in self.scores:
            raise ValueError(f"model must be 'categorical' or 'pob', got {model!r}")
        return self.scores[model]


def cross_validate_alpha(X, y, alphas, *, n_splits=10, seed=0, n_bins=10) -> SmoothingPath:
    """Cross-validate both models at every ``α`` of a grid, on the same folds.

    Each ``α`` is one call of :func:`nbcourse.cross_validate_models` with the same
    ``seed``, so every ``α`` is scored on the same split of the rows and the
    differences between grid points are not differences between splits.

    Parameters
    ----------
    X : array_like of int, shape (N, d)
        Category codes.
    y : array_like, shape (N,)
        Class labels.
    alphas : array_like, shape (m,)
        Smoothing constants ``>= 0``.
    n_splits : int, default 10
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator, default 0
        As in :func:`nbcourse.cross_validate_models`; anything but an int (None
        included) is first turned into one fixed int, so that all ``α`` share the folds.
    n_bins : int, default 10
        Bins of the expected calibration error.

    Returns
    -------
    SmoothingPath

    Examples
    --------
    >>> from nbcourse.datasets import titanic
    >>> X, y = titanic().to_rows(target="Survived")
    >>> path = cross_validate_alpha(X, y, [0.5, 1.0], n_splits=5)
    >>> path.fold_log_loss["pob"].shape
    (2, 5)
    """
    grid = as_real_array(alphas, "alphas")
    if grid.ndim != 1 or grid.size == 0:
        raise ValueError(f"alphas must be a non-empty 1-d sequence, got shape {grid.shape}")
    for a in grid:
        check_alpha(float(a), "alphas")
    if not isinstance(seed, numbers.Integral):  # one fixed seed, so every alpha gets the same folds
        seed = int(check_seed(seed).generate_state(1)[0])
    runs = [cross_validate_models(X, y, alpha=float(a), n_splits=n_splits, seed=seed)
            for a in grid]
    summaries = [run.summary(n_bins) for run in runs]
    scores, folds = {}, {}
    for model in ("categorical", "pob"):
        scores[model] = {key: np.array([s[model][key] for s in summaries])
                         for key in ("log_loss", "accuracy", "ece", "mean_confidence")}
        folds[model] = np.array([run.fold_log_loss(model) for run in runs])
    return SmoothingPath(grid, scores, folds)


# ------------------------------------------------------------------ several models, one baseline
#: The verdicts of :meth:`FoldComparison.verdict`: the model's score is lower (better) than the
#: baseline's, the interval of the difference contains 0, or it is higher.
VERDICTS = ("beats", "ties with", "loses to")


@dataclass(frozen=True)
class FoldComparison:
    """Classifiers scored on the same folds (see :func:`compare_by_folds`).

    Attributes
    ----------
    names : tuple of str
        The models, in the order given; ``baseline`` is one of them.
    baseline : str
    y : numpy.ndarray of int64, shape (N,)
        Class codes.
    fold : numpy.ndarray of int64, shape (N,)
        The fold in which each row was held out.
    proba : dict of str to numpy.ndarray, shape (N, C)
        Out-of-fold probabilities of each model.
    log_loss, error : dict of str to numpy.ndarray, shape (K,)
        Each model's log loss and error rate (maximum a posteriori class) on each fold.
    n_train, n_test : int
        Rows per training and test set (a fold's mean size, rounded): the sizes of the
        correction of Nadeau & Bengio (2003).
    """

    names: tuple
    baseline: str
    y: np.ndarray = field(repr=False)
    fold: np.ndarray = field(repr=False)
    proba: dict = field(repr=False)
    log_loss: dict = field(repr=False)
    error: dict = field(repr=False)
    n_train: int
    n_test: int

    def _scores(self, score):
        if score not in ("log_loss", "error"):
            raise ValueError(f"score must be 'log_loss' or 'error', got {score!r}")
        return getattr(self, score)

    def _name(self, name):
        if name not in self.names:
            raise ValueError(f"name must be one of {self.names}, got {name!r}")
        return name

    def interval(self, name, score="log_loss", confidence=0.95):
        """The corrected t-interval of ``name``'s score minus the baseline's, over the folds.

        Returns
        -------
        nbcourse.evaluation.TInterval
        """
        from .evaluation import fold_t_interval

        scores = self._scores(score)
        d = scores[self._name(name)] - scores[self.baseline]
        return fold_t_interval(d, n_train=self.n_train, n_test=self.n_test, confidence=confidence)

    def verdict(self, name, score="log_loss", confidence=0.95) -> str:
        """``"beats"`` when the interval of :meth:`interval` lies below 0 (a lower score is
        better), ``"loses to"`` when it lies above, ``"ties with"`` when it contains 0."""
        from .publish import verdict

        return verdict(self.interval(name, score, confidence), VERDICTS)

    def table(self, confidence=0.95):
        """One row per model: mean fold log loss and error, and for every model but the baseline
        the interval of each difference and its verdict.

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        rows = {}
        for name in self.names:
            row = {"log loss": float(self.log_loss[name].mean()),
                   "error": float(self.error[name].mean())}
            if name != self.baseline:
                for score, label in (("log_loss", "log loss"), ("error", "error")):
                    iv = self.interval(name, score, confidence)
                    row[f"{label} diff."] = iv.mean
                    row[f"{label} low"], row[f"{label} high"] = iv.low, iv.high
                    row[f"{label} verdict"] = self.verdict(name, score, confidence)
            rows[name] = row
        return pd.DataFrame(rows).T


def compare_by_folds(estimators, X, y, *, baseline=None, n_splits=10, seed=0) -> FoldComparison:
    """Fit every classifier on the same stratified folds and score it fold by fold.

    Each model's out-of-fold probabilities come from :func:`out_of_fold_proba` on the folds of
    :func:`stratified_folds`, so all models are scored on the same rows of each fold, and the
    differences from the baseline are paired fold by fold, as the corrected interval of
    :func:`nbcourse.evaluation.fold_t_interval` requires.

    Parameters
    ----------
    estimators : dict of str to scikit-learn classifier
        Unfitted models (a pipeline works too), each fitted to ``X`` as given.
    X : array_like, shape (N, d)
    y : array_like of int, shape (N,)
        Class codes ``0..C-1``.
    baseline : str or None, default None
        The model the others are compared with; ``None`` takes the first.
    n_splits : int, default 10
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator, default 0

    Returns
    -------
    FoldComparison

    Examples
    --------
    >>> from nbcourse.datasets import titanic
    >>> from nbcourse.naive_bayes import CategoricalNB, FullJointNB
    >>> X, y = titanic().to_rows(target="Survived")
    >>> cmp = compare_by_folds({"naive Bayes": CategoricalNB(), "full joint": FullJointNB()},
    ...                        X, y, n_splits=5)
    >>> cmp.verdict("full joint", "log_loss")
    'beats'
    """
    if not isinstance(estimators, dict) or len(estimators) < 2:
        raise ValueError(f"estimators must be a dict of at least two named classifiers, "
                         f"got {type(estimators).__name__} of length "
                         f"{len(estimators) if hasattr(estimators, '__len__') else '?'}")
    names = tuple(estimators)
    if not all(isinstance(n, str) for n in names):
        raise ValueError(f"estimators must be named by strings, got {names!r}")
    baseline = names[0] if baseline is None else baseline
    if baseline not in names:
        raise ValueError(f"baseline must be one of {names}, got {baseline!r}")
    labels = check_codes(y, "y", ndim=1)
    fold = stratified_folds(labels, n_splits, seed=seed)
    n_splits = int(fold.max()) + 1
    proba, losses, errors = {}, {}, {}
    for name, estimator in estimators.items():
        proba[name] = out_of_fold_proba(estimator, X, labels, fold)
        losses[name] = fold_log_loss(labels, proba[name], fold)
        wrong = proba[name].argmax(axis=1) != labels
        errors[name] = np.array([wrong[fold == k].mean() for k in range(n_splits)])
    n_test = int(round(labels.size / n_splits))
    return FoldComparison(names, baseline, labels, fold, proba, losses, errors,
                          labels.size - n_test, n_test)
