"""Naive Bayes with missing feature values: marginalising, imputing, dropping, and making holes.

A missing value is written as the code ``missing`` (default ``-1``, a negative integer that
no category code can take).  With the observed features ``x_g`` and the missing ones
``x_b``, Bayes' rule asks for ``P(c | x_g)``, which Duda, Hart & Stork (2001, §2.10) obtain
by summing (integrating) the joint over the missing features:

``P(c | x_g) = Σ_{x_b} P(c, x_g, x_b) / Σ_c' Σ_{x_b} P(c', x_g, x_b)``.

Under naive Bayes the joint is ``P(c) Π_j P(x_j | c)``, and the sum over the ``V_j``
values of a missing ``x_j`` is ``Σ_v θ_{j,v,c} = 1``: the factor of a missing feature
simply drops out.

* :class:`MissingCategoricalNB` fits the categorical model from the available cases of each
  feature and predicts by leaving the factors of missing features out.
* :class:`MissingProductOfBernoullisNB` does the same for the product of Bernoullis on a
  0/1 table whose missing bits carry the code ``missing``; :func:`one_hot_missing` encodes a
  missing categorical value as a whole one-hot group of missing bits, so the marginal
  drops every bit factor of the group.
* Baselines: :func:`impute_mode` (the overall mode of each feature, learned from the
  training data), :func:`complete_cases` (listwise deletion) and
  :func:`missing_as_category` (an extra value "missing").
* :func:`remove_values` makes holes at random, completely at random (MCAR) or not at random
  (MNAR, the chance of a value going missing depends on the value itself), in the terms of
  Rubin (1976) and Little & Rubin (2019).
* :func:`compare_missing_strategies` measures the strategies on held-out data with seeded
  repetitions.

Examples
--------
>>> X = [[0, 1], [1, 1], [-1, 0], [1, 0]]
>>> m = MissingCategoricalNB(alpha=1.0).fit(X, [0, 0, 1, 1])
>>> m.category_count_[0]  # the case with feature 0 missing is not counted for it
array([[1., 1.],
       [0., 1.]])
>>> m.predict_proba([[-1, -1]])  # nothing observed: the priors
array([[0.5, 0.5]])
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

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
)
from .binary import log_likelihood_bits
from .naive_bayes import CategoricalNB, ProductOfBernoullisNB
from .smoothing import log_bernoulli_smoothed

__all__ = [
    "MISSING",
    "MissingCategoricalNB",
    "MissingProductOfBernoullisNB",
    "MissingComparison",
    "compare_missing_strategies",
    "complete_cases",
    "impute_mode",
    "missing_as_category",
    "one_hot_missing",
    "remove_values",
]

#: The default code of a missing value.
MISSING = -1

#: The mechanisms :func:`remove_values` knows.
MECHANISMS = ("mcar", "mnar", "mnar-partial", "class")

#: The strategies :func:`compare_missing_strategies` measures, in the order of its results.
STRATEGIES = ("marginalise", "impute mode", "complete cases", "missing category")


# --- validation -------------------------------------------------------------------------------


def _check_missing(missing, name: str = "missing") -> int:
    """The missing-value code: a negative integer (no category code or bit can equal it)."""
    if isinstance(missing, bool | np.bool_) or not isinstance(missing, numbers.Integral):
        raise TypeError(f"{name} must be a negative integer code, got "
                        f"{type(missing).__name__} {missing!r:.40}")
    if int(missing) >= 0:
        raise ValueError(f"{name} must be a negative integer code (codes 0, 1, ... are values), "
                         f"got {int(missing)}")
    return int(missing)


def _split_missing(X, missing: int, name: str = "X"):
    """``(codes, mask)``: ``X`` as int64 with missing entries set to 0, and the mask of missing.

    Every entry other than ``missing`` must be a non-negative integer code.
    """
    arr = as_real_array(X, name) if np.asarray(X).dtype.kind not in "biu" else np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array, got {arr.ndim}-d array of shape {arr.shape}")
    mask = arr == missing
    filled = np.where(mask, 0, arr)
    try:
        codes = check_codes(filled, name)
    except ValueError as exc:
        raise ValueError(f"{exc} (entries equal to missing={missing} mark missing values)") from None
    return codes, mask


# --- the estimators ---------------------------------------------------------------------------


class MissingCategoricalNB(CategoricalNB):
    """:class:`~nbcourse.CategoricalNB` that fits and predicts with missing values.

    Fitting counts each feature on its available cases: ``N_cjv`` counts the class-``c``
    rows with ``x_j = v`` among those where ``x_j`` is observed, and
    ``θ_{j,v,c} = (N_cjv + α) / (N_cj + α V_j)`` with ``N_cj = Σ_v N_cjv``.  The priors
    ``N_c / N`` count every row, since the class is always observed.  Predicting leaves the
    factor ``θ_{j,x_j,c}`` of every missing ``x_j`` out of ``P(c) Π_j θ_{j,x_j,c}``, which is
    the joint summed over the missing values (Duda, Hart & Stork 2001, §2.10): each such sum
    is ``Σ_v θ_{j,v,c} = 1``.  With nothing missing it is :class:`~nbcourse.CategoricalNB`.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, ``>= 0``.  With ``alpha = 0`` every feature needs at least one
        observed value in every class.
    n_values : int, sequence of int or None, default None
        ``V_j``; ``None`` takes one more than the largest observed code.
    missing : int, default -1
        The code of a missing value, a negative integer.

    Attributes
    ----------
    category_count_ : list of ndarray, each shape (C, V_j)
        ``N_cjv`` over the available cases.
    feature_log_prob_ : list of ndarray, each shape (C, V_j)
        ``ln θ_{j,v,c}``.
    classes_, class_count_, class_log_prior_, n_categories_, n_features_in_
        As in :class:`~nbcourse.CategoricalNB`.

    Examples
    --------
    >>> X = [[0, 1], [0, -1], [1, 0], [-1, 0]]
    >>> m = MissingCategoricalNB(alpha=0.5).fit(X, ["a", "a", "b", "b"])
    >>> m.predict_proba([[0, -1]]).round(4)   # (2.5/3) / (2.5/3 + 0.5/2): only x_0 = 0 counts
    array([[0.7692, 0.2308]])
    """

    def __init__(self, alpha=1.0, n_values=None, missing=MISSING):
        super().__init__(alpha=alpha, n_values=n_values)
        self.missing = missing

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = False  # the missing code is negative
        return tags

    def _check_entries(self, X, reset):
        codes, mask = _split_missing(X, _check_missing(self.missing), "X")
        if not reset:
            check_codes_below(codes, self.n_categories_, "X", "learned in fit")
        return np.ma.MaskedArray(codes, mask)

    def _count(self, X, Y):
        """``category_count_`` over the available cases (a missing code reads 0 in ``X.data``)."""
        codes, observed = X.data, ~np.ma.getmaskarray(X)
        self.n_categories_ = self._n_values_of(codes).astype(np.int64)
        self.category_count_ = [
            Y.T @ (np.eye(V)[codes[:, j]] * observed[:, j, None])
            for j, V in enumerate(self.n_categories_)]

    def _joint_log_likelihood(self, X):
        codes, mask = X.data, np.ma.getmaskarray(X)
        jll = np.tile(self.class_log_prior_, (codes.shape[0], 1))
        for j, log_theta in enumerate(self.feature_log_prob_):
            jll = jll + np.where(mask[:, j, None], 0.0, log_theta[:, codes[:, j]].T)
        return jll


class MissingProductOfBernoullisNB(ProductOfBernoullisNB):
    """:class:`~nbcourse.ProductOfBernoullisNB` that fits and predicts with missing bits.

    Each bit ``b_i`` is estimated from the rows where it is observed,
    ``p_ci = (N_ci1 + α) / (N_ci + 2α)`` with ``N_ci`` the class-``c`` rows that observe it,
    and a missing bit's factor ``p_ci^{b_i} (1 - p_ci)^{1 - b_i}`` is left out, which is the
    sum of the joint over ``b_i ∈ {0, 1}`` (Duda, Hart & Stork 2001, §2.10).  A categorical
    value that is missing makes its whole one-hot group missing (:func:`one_hot_missing`):
    the marginal over all ``2^K`` patterns of the group's bits drops all ``K`` factors.

    Parameters
    ----------
    alpha : float, default 1.0
    missing : int, default -1
        The code of a missing bit, a negative integer.

    Attributes
    ----------
    feature_count_ : ndarray, shape (C, n_features)
        ``N_ci1``.
    observed_count_ : ndarray, shape (C, n_features)
        ``N_ci``, the class-``c`` rows in which bit ``i`` is observed.
    feature_log_prob_, feature_log_prob_neg_ : ndarray, shape (C, n_features)
        ``ln p_ci`` and ``ln(1 - p_ci)``.

    Examples
    --------
    >>> B = [[1, 0], [1, -1], [0, 1], [-1, 1]]
    >>> m = MissingProductOfBernoullisNB(alpha=1.0).fit(B, [0, 0, 1, 1])
    >>> m.observed_count_
    array([[2., 1.],
           [1., 2.]])
    >>> m.predict_proba([[-1, -1]])
    array([[0.5, 0.5]])
    """

    def __init__(self, alpha=1.0, missing=MISSING):
        super().__init__(alpha=alpha, binarize=None)
        self.missing = missing

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = False
        return tags

    def _check_entries(self, X, reset):
        bits, mask = _split_missing(X, _check_missing(self.missing), "X")
        if (bits > 1).any():
            idx = tuple(int(i) for i in np.argwhere(bits > 1)[0])
            raise ValueError(f"X must contain only 0, 1 and missing={self.missing}; "
                             f"entry {idx} is {int(bits[idx])}")
        return np.ma.MaskedArray(bits, mask)

    def _count(self, X, Y):
        """``feature_count_`` (``N_ci1``) and ``observed_count_`` (``N_ci``) over the observed bits."""
        observed = ~np.ma.getmaskarray(X)
        self.feature_count_ = Y.T @ (X.data * observed)
        self.observed_count_ = Y.T @ observed.astype(float)

    def _update_feature_log_prob(self, alpha):
        """``ln p_ci`` and ``ln(1 - p_ci)`` from ``N_ci1`` of the ``N_ci`` rows observing bit ``i``."""
        self.feature_log_prob_, self.feature_log_prob_neg_ = log_bernoulli_smoothed(
            self.feature_count_, self.observed_count_, alpha)

    def _joint_log_likelihood(self, X):
        observed = ~np.ma.getmaskarray(X)
        return (log_likelihood_bits(X.data, self.feature_log_prob_, self.feature_log_prob_neg_,
                                    observed=observed) + self.class_log_prior_)


# --- encoding and the baselines -------------------------------------------------------------


def one_hot_missing(X, n_values, missing=MISSING):
    """One-hot encode codes, a missing value becoming a whole group of missing bits.

    Parameters
    ----------
    X : array_like, shape (N, d)
        Codes ``0..V_j-1`` or ``missing``.
    n_values : int or sequence of int
        ``V_j`` of each feature (required: the observed codes may not show every value).
    missing : int, default -1

    Returns
    -------
    numpy.ndarray of int64, shape (N, Σ V_j)
        The one-hot code of :func:`nbcourse.one_hot`, with the ``V_j`` bits of a missing
        ``x_j`` all set to ``missing``.

    Examples
    --------
    >>> one_hot_missing([[0, 2], [-1, 1]], n_values=[2, 3])
    array([[ 1,  0,  0,  0,  1],
           [-1, -1,  0,  1,  0]])
    """
    missing = _check_missing(missing)
    codes, mask = _split_missing(X, missing)
    V = check_n_values(n_values, codes.shape[1], required=True)
    check_codes_below(codes, V, "X", "from n_values")
    starts = np.concatenate([[0], np.cumsum(V)[:-1]])
    B = np.zeros((codes.shape[0], int(V.sum())), dtype=np.int64)
    rows = np.arange(codes.shape[0])
    for j, (s, v) in enumerate(zip(starts, V, strict=True)):
        B[rows, s + codes[:, j]] = 1
        B[mask[:, j], s:s + v] = missing
    return B


def impute_mode(X_train, X=None, missing=MISSING):
    """Fill missing values with the overall mode of each feature in the training data.

    The mode is taken over the observed values of ``X_train`` (ties go to the smallest
    code).  A per-class mode would fit the training data better, but at prediction time the
    class is what is unknown, so only the overall mode can be used for a new case.

    Parameters
    ----------
    X_train : array_like, shape (N, d)
        Codes or ``missing``; every feature needs at least one observed value.
    X : array_like, shape (M, d) or None
        The table to fill (default: ``X_train``).
    missing : int, default -1

    Returns
    -------
    numpy.ndarray of int64, shape of ``X``

    Examples
    --------
    >>> impute_mode([[0, 1], [1, 1], [1, -1]], [[-1, -1]])
    array([[1, 1]])
    """
    missing = _check_missing(missing)
    train, train_mask = _split_missing(X_train, missing, "X_train")
    empty = train_mask.all(axis=0)
    if empty.any():
        raise ValueError(f"X_train must have an observed value in every feature; feature(s) "
                         f"{np.flatnonzero(empty).tolist()} are missing in every row")
    modes = np.array([np.bincount(train[~train_mask[:, j], j]).argmax()
                      for j in range(train.shape[1])])
    codes, mask = (train, train_mask) if X is None else _split_missing(X, missing, "X")
    if codes.shape[1] != modes.size:
        raise ValueError(f"X must have {modes.size} columns like X_train, got {codes.shape[1]}")
    return np.where(mask, modes[None, :], codes)


def complete_cases(X, y=None, missing=MISSING):
    """The rows of ``X`` (and of ``y``) with no missing value: listwise deletion.

    Parameters
    ----------
    X : array_like, shape (N, d)
    y : array_like, shape (N,) or None
    missing : int, default -1

    Returns
    -------
    numpy.ndarray, or (numpy.ndarray, numpy.ndarray) when ``y`` is given

    Examples
    --------
    >>> complete_cases([[0, 1], [-1, 1], [1, 0]], [0, 1, 1])
    (array([[0, 1],
           [1, 0]]), array([0, 1]))
    """
    codes, mask = _split_missing(X, _check_missing(missing))
    keep = ~mask.any(axis=1)
    if y is None:
        return codes[keep]
    y = np.asarray(y)
    if y.shape != (codes.shape[0],):
        raise ValueError(f"y must have one label per row of X ({codes.shape[0]}), "
                         f"got shape {y.shape}")
    return codes[keep], y[keep]


def missing_as_category(X, n_values, missing=MISSING):
    """Code a missing value as one extra value of its feature: ``x_j = V_j``.

    Parameters
    ----------
    X : array_like, shape (N, d)
    n_values : int or sequence of int
        ``V_j`` of each feature.
    missing : int, default -1

    Returns
    -------
    X_new : numpy.ndarray of int64, shape (N, d)
    n_values_new : numpy.ndarray of int64, shape (d,)
        ``V_j + 1``.

    Examples
    --------
    >>> missing_as_category([[0, -1], [-1, 2]], n_values=3)
    (array([[0, 3],
           [3, 2]]), array([4, 4]))
    """
    codes, mask = _split_missing(X, _check_missing(missing))
    V = check_n_values(n_values, codes.shape[1], required=True)
    check_codes_below(codes, V, "X", "from n_values")
    return np.where(mask, V[None, :], codes), V + 1


# --- making holes -----------------------------------------------------------------------------


def _check_rate(rate, name: str = "rate") -> float:
    if isinstance(rate, bool | np.bool_) or not isinstance(rate, numbers.Real):
        raise TypeError(f"{name} must be a number in [0, 1], got {type(rate).__name__} {rate!r:.40}")
    value = float(rate)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    return value


def remove_values(X, rate, *, mechanism="mcar", values=None, seed=None, missing=MISSING, y=None):
    """Replace entries of ``X`` by ``missing``, at random, depending on the value or on the class.

    * ``"mcar"`` (missing completely at random, Rubin 1976): every entry goes missing with
      probability ``rate``, whatever its value and class.
    * ``"mnar"`` (missing not at random): only the entries of feature ``j`` equal to one value
      ``v*_j`` can go missing, each with probability ``min(1, rate · N / N_{j v*_j})``, where
      ``N_{j v*_j}`` is the number of rows with ``x_j = v*_j``; so a share ``rate`` of the
      feature goes missing when there are enough such rows (otherwise all of them do).  The
      chance of going missing depends on the value itself: the self-masking mechanism
      discussed by Little & Rubin (2019).  A hole then identifies the value, the case most
      favourable to coding "missing" as a category of its own.
    * ``"mnar-partial"``: an entry with ``x_j = v*_j`` goes missing with twice the probability
      of any other entry of feature ``j``, ``q = min(1, 2 · rate · N / (N + N_{j v*_j}))``
      against ``rate · N / (N + N_{j v*_j})``, so that a share ``rate`` of the feature goes
      missing: the value changes the chance of a hole, but a hole does not identify it.
    * ``"class"``: every entry of a row of the first class of ``y`` (its smallest label) goes
      missing with twice the probability of an entry of any other row, whatever the values,
      again a share ``rate`` in all: the chance of a hole depends on the class alone.  For
      fitting, where the class is observed, the values are missing at random; at prediction
      time, where it is not, a hole is evidence about it.

    Parameters
    ----------
    X : array_like, shape (N, d)
        Non-negative integer codes (no entry missing yet).
    rate : float in [0, 1]
        The intended share of entries of each feature made missing.
    mechanism : {"mcar", "mnar", "mnar-partial", "class"}, default "mcar"
    values : int, sequence of int or None, default None
        ``v*_j`` for ``"mnar"`` and ``"mnar-partial"``: the value that goes missing (more often)
        in each feature (an int applies to all).  ``None`` takes each feature's largest code,
        which for a 0/1 feature is 1 (a "yes" that is not reported).
    seed : None, int, SeedSequence or Generator
    missing : int, default -1
    y : array_like, shape (N,), optional
        The classes of the rows; required by ``"class"``, ignored by the others.

    Returns
    -------
    numpy.ndarray of int64, shape (N, d)

    Examples
    --------
    >>> X = np.array([[0, 1]] * 4 + [[1, 0]] * 4)
    >>> holes = remove_values(X, 0.5, mechanism="mnar", seed=0)
    >>> (holes == -1).sum(axis=0)     # half of each column: every 1 goes missing
    array([4, 4])
    >>> bool((X[holes == -1] == 1).all())
    True
    """
    X = check_codes(X, "X")
    rate = _check_rate(rate)
    missing = _check_missing(missing)
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    rng = as_generator(seed)
    u = rng.random(X.shape)
    if mechanism == "mcar":
        return np.where(u < rate, missing, X)
    if mechanism == "class":
        if y is None or np.shape(y) != (X.shape[0],):
            raise ValueError(f"y must give the class of each of the {X.shape[0]} rows for "
                             f"mechanism 'class', got {_describe(y)}")
        labels = np.asarray(y)
        return np.where(u < _twice_as_likely(labels == np.min(labels), rate)[:, None], missing, X)
    if values is None:
        target = X.max(axis=0)
    elif isinstance(values, numbers.Integral) and not isinstance(values, bool):
        target = np.full(X.shape[1], int(values))
    else:
        target = np.asarray(values)
        if target.dtype.kind not in "iu" or target.shape != (X.shape[1],):
            raise ValueError(f"values must be None, an int or {X.shape[1]} ints (one per "
                             f"feature), got {values!r:.80}")
    hit = X == target[None, :]
    if mechanism == "mnar-partial":
        p = np.column_stack([_twice_as_likely(hit[:, j], rate) for j in range(X.shape[1])])
        return np.where(u < p, missing, X)
    n_hit = hit.sum(axis=0)
    p = np.where(n_hit > 0, np.minimum(1.0, rate * X.shape[0] / np.maximum(n_hit, 1)), 0.0)
    return np.where(hit & (u < p[None, :]), missing, X)


def _twice_as_likely(group, rate):
    """Per-row probability of a hole: a row of ``group`` twice as likely as any other row.

    With ``N`` rows, ``n`` of them in ``group``, the others get ``rate · N / (N + n)`` and the
    rows of ``group`` twice that (at most 1), so that ``rate · N`` holes are expected in all
    whenever ``2 · rate · N / (N + n) <= 1``, which holds for every ``rate <= 1/2``.
    """
    other = rate * group.size / (group.size + int(group.sum()))
    return np.where(group, min(1.0, 2 * other), other)


# --- the experiment ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MissingComparison:
    """Held-out scores of the strategies of :func:`compare_missing_strategies`.

    Attributes
    ----------
    rates : ndarray, shape (R,)
    strategies : tuple of str
    log_loss, accuracy : dict of str to ndarray, shape (R, n_repeats)
        Per strategy, rate and repetition.
    missing_share : ndarray, shape (R, n_repeats)
        The share of entries actually removed (train and test together).
    """

    rates: np.ndarray
    strategies: tuple
    log_loss: dict
    accuracy: dict
    missing_share: np.ndarray

    def mean(self, score: str = "log_loss") -> dict:
        """The mean over the repetitions of ``score`` ("log_loss" or "accuracy"), per strategy."""
        if score not in ("log_loss", "accuracy"):
            raise ValueError(f"score must be 'log_loss' or 'accuracy', got {score!r}")
        return {s: v.mean(axis=1) for s, v in getattr(self, score).items()}


def _scores(proba, classes, y):
    """Log loss (natural log) and accuracy of ``proba`` (columns ``classes``) for labels ``y``."""
    col = np.searchsorted(classes, y)
    log_loss = -np.mean(np.log(proba[np.arange(y.size), col]))
    return float(log_loss), float(np.mean(classes[proba.argmax(axis=1)] == y))


def _one_split(X, y, V, rate, mechanism, alpha, test_size, rng):
    """Scores of every strategy on one seeded split and one set of holes."""
    order = rng.permutation(y.size)
    n_test = int(round(test_size * y.size))
    test, train = order[:n_test], order[n_test:]
    holes = remove_values(X, rate, mechanism=mechanism, seed=rng, y=y)
    Xtr, Xte, ytr, yte = holes[train], holes[test], y[train], y[test]
    results = {}
    m = MissingCategoricalNB(alpha=alpha, n_values=V).fit(Xtr, ytr)
    results["marginalise"] = _scores(m.predict_proba(Xte), m.classes_, yte)
    imp = CategoricalNB(alpha=alpha, n_values=V).fit(impute_mode(Xtr, missing=MISSING), ytr)
    results["impute mode"] = _scores(imp.predict_proba(impute_mode(Xtr, Xte)), imp.classes_, yte)
    Xc, yc = complete_cases(Xtr, ytr)
    if np.unique(yc).size == np.unique(ytr).size:
        cc = MissingCategoricalNB(alpha=alpha, n_values=V).fit(Xc, yc)
        results["complete cases"] = _scores(cc.predict_proba(Xte), cc.classes_, yte)
    else:  # a class has no complete case left: no model to score
        results["complete cases"] = (np.nan, np.nan)
    Xm, Vm = missing_as_category(Xtr, V)
    cat = CategoricalNB(alpha=alpha, n_values=Vm).fit(Xm, ytr)
    results["missing category"] = _scores(cat.predict_proba(missing_as_category(Xte, V)[0]),
                                          cat.classes_, yte)
    return results, float((holes == MISSING).mean())


def compare_missing_strategies(X, y, rates, *, mechanism="mcar", n_repeats=20, alpha=1.0,
                               test_size=0.3, seed=0):
    """Held-out log loss and accuracy of four ways of handling missing values.

    For every rate and repetition, the rows are split at random into training and test
    rows, values are removed from both by :func:`remove_values`, and the categorical model
    is scored on the test rows after each strategy:

    * ``"marginalise"``: :class:`MissingCategoricalNB`, counts from the available cases,
      missing factors left out (Duda, Hart & Stork 2001, §2.10);
    * ``"impute mode"``: every missing value replaced by the training mode of its feature
      (:func:`impute_mode`), in training and test rows;
    * ``"complete cases"``: trained on the complete training rows only (:func:`complete_cases`),
      predicting by marginalising, since a test case cannot be dropped; NaN when a class has
      no complete training row left;
    * ``"missing category"``: "missing" as one more value of each feature
      (:func:`missing_as_category`).

    Parameters
    ----------
    X : array_like, shape (N, d)
        Complete category codes.
    y : array_like, shape (N,)
    rates : sequence of float in [0, 1]
    mechanism : {"mcar", "mnar", "mnar-partial", "class"}, default "mcar"
        Passed to :func:`remove_values` (with ``y`` for ``"class"``).
    n_repeats : int, default 20
    alpha : float, default 1.0
        Smoothing of every model (``> 0``, so a value unseen in a small training set is scored).
    test_size : float in (0, 1), default 0.3
    seed : None, int, SeedSequence or Generator, default 0
        Repetition ``r`` of every rate uses the same split (the same child seed), so the
        rates differ only in the holes.

    Returns
    -------
    MissingComparison

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> y = rng.integers(0, 2, 200)
    >>> X = np.column_stack([np.where(rng.random(200) < 0.8, y, 1 - y), rng.integers(0, 3, 200)])
    >>> res = compare_missing_strategies(X, y, [0.0, 0.5], n_repeats=3, seed=0)
    >>> res.log_loss["marginalise"].shape
    (2, 3)
    """
    X = check_codes(X, "X")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have one label per row of X ({X.shape[0]}), got shape {y.shape}")
    rates = np.array([_check_rate(r, "rates[i]") for r in np.atleast_1d(rates)])
    n_repeats = check_int(n_repeats, "n_repeats", 1)
    alpha = check_alpha(alpha)
    if alpha == 0:
        raise ValueError("alpha must be > 0 in this comparison, got 0.0")
    test_size = float(test_size)
    if not 0.0 < test_size < 1.0:
        raise ValueError(f"test_size must be a number in (0, 1), got {test_size!r}")
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    V = X.max(axis=0) + 1
    children = np.random.SeedSequence(as_generator(seed).integers(0, 2**63)).spawn(n_repeats)
    shape = (rates.size, n_repeats)
    loss = {s: np.empty(shape) for s in STRATEGIES}
    acc = {s: np.empty(shape) for s in STRATEGIES}
    share = np.empty(shape)
    for i, rate in enumerate(rates):
        for r, child in enumerate(children):
            res, share[i, r] = _one_split(X, y, V, rate, mechanism, alpha, test_size,
                                          np.random.default_rng(child))
            for s in STRATEGIES:
                loss[s][i, r], acc[s][i, r] = res[s]
    return MissingComparison(rates, STRATEGIES, loss, acc, share)
