"""Naive Bayes with categorical features, fitted two ways.

* :class:`CategoricalNB` models each feature ``x_j`` (codes ``0..V_j-1``) with one
  categorical distribution per class: the correct model for a categorical
  variable (Williams 2024, eq. 2; Duda, Hart & Stork 2001, §2.9).
* :class:`ProductOfBernoullisNB` models each column of a 0/1 table as an
  independent Bernoulli bit (Duda, Hart & Stork 2001, eq. 86).  Fed the one-hot
  code of a categorical variable it is the PoB model of Williams (2024), eq. 3.

Both follow scikit-learn's conventions: ``fit`` returns the estimator,
attributes learned from data end in ``_`` (``classes_``, ``class_count_``,
``class_log_prior_``, ``feature_log_prob_``, ...), all arithmetic is in log space,
and ``predict_log_proba`` / ``predict_proba`` / ``predict`` are written once in a
shared base class on top of each model's joint log likelihood.  They declare
their input tags as scikit-learn's own ``CategoricalNB`` and ``BernoulliNB`` do,
raise ``NotFittedError`` before ``fit``, keep ``n_features_in_`` and
``feature_names_in_``, and pass scikit-learn's estimator checks
(``sklearn.utils.estimator_checks.check_estimator``), except that
``ProductOfBernoullisNB()`` refuses any entry other than 0 and 1 unless it is
given a ``binarize`` threshold (``tests/test_estimator_checks.py`` lists those checks).

Smoothing (``alpha >= 0``; ``alpha = 0`` is maximum likelihood), computed by
:mod:`nbcourse.smoothing`:

* categorical: ``(N_cjv + α) / (N_c + α V_j)``,
* Bernoulli: ``(N_cj1 + α) / (N_c + 2α)``,

and the class priors are the class frequencies ``N_c / N``.  With ``alpha = 0``
a value never seen with a class gets probability 0 (log ``-inf``), exactly.  If
a row then has probability 0 under *every* class its posterior is undefined
and ``predict*`` raise a ``ValueError`` naming the rows.

One-hot encoding, which turns codes into the 0/1 table that
:class:`ProductOfBernoullisNB` takes, is in :mod:`nbcourse.encoding`.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from ._logspace import logsumexp
from ._validation import (
    as_real_array,
    check_alpha,
    check_binary,
    check_codes,
    check_codes_below,
    check_labels,
    check_n_values,
)
from .smoothing import log_bernoulli_smoothed, log_lidstone

__all__ = [
    "CategoricalNB",
    "ProductOfBernoullisNB",
]


# --- the shared base ------------------------------------------------------------------------


def _as_table(X, name, estimator):
    """``X`` as a 2-d array of real numbers, shape (N, n_features), before its entries are checked.

    The messages name the argument, what was expected and what was given, and
    contain the phrases that scikit-learn's estimator checks look for
    ("Complex data not supported", "Reshape your data", "0 feature(s)").
    """
    if sparse.issparse(X):
        raise TypeError(
            f"{name} must be a dense array, got a sparse {type(X).__name__}: sparse input is "
            f"not supported by {type(estimator).__name__}; pass {name}.toarray()"
        )
    try:
        arr = np.asarray(X)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array of numbers, got {X!r:.60}") from exc
    if arr.dtype.kind == "c":
        raise ValueError(
            f"{name} must contain real numbers, got complex dtype {arr.dtype} "
            "(Complex data not supported)"
        )
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"{name} must contain real numbers, got an object array with an entry that "
                f"is not one ({exc})"
            ) from exc
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-d array, got {arr.ndim}-d array of shape {arr.shape}. "
            f"Reshape your data: {name}.reshape(-1, 1) for a single feature, "
            f"{name}.reshape(1, -1) for a single sample"
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must not be empty, got 0 sample(s) (shape={arr.shape})")
    if arr.shape[1] == 0:
        raise ValueError(
            f"{name} must have at least one feature, got 0 feature(s) (shape={arr.shape}) "
            "while a minimum of 1 is required."
        )
    return arr


def _refuse_negative(X, expected, what):
    """Raise for the first negative entry of ``X``, which must contain ``expected``.

    The message carries scikit-learn's phrase "Negative values in data", the
    mark of an estimator whose ``positive_only`` input tag is set.
    """
    negative = X < 0 if X.dtype.kind in "iuf" else np.zeros(X.shape, dtype=bool)
    if negative.any():
        idx = tuple(int(i) for i in np.argwhere(negative)[0])
        raise ValueError(
            f"X must contain {expected}; entry {idx} is {X[idx].item()!r} "
            f"(Negative values in data are not {what})"
        )


def _as_labels(y, n_samples, estimator):
    """Class labels ``y`` as a 1-d array (a column vector is raveled with a warning)."""
    if y is None:
        raise ValueError(
            f"y must be an array of class labels, got None ({type(estimator).__name__} "
            "requires y to be passed, but the target y is None)"
        )
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected; y of shape "
            f"{arr.shape} is read as y.ravel()",
            DataConversionWarning,
            stacklevel=4,
        )
        arr = arr.ravel()
    if arr.shape == (n_samples,) and not (arr.dtype.kind == "f" and np.isnan(arr).any()):
        classes = np.unique(arr)
        if classes.size == 1:
            raise ValueError(
                f"y must contain at least 2 distinct classes, got 1 class ({classes.tolist()})"
            )
    if arr.dtype.kind == "f":
        finite = arr[np.isfinite(arr)]
        fractional = finite[finite != np.round(finite)]
        if fractional.size:
            raise ValueError(
                "y must contain class labels (a discrete target), got a continuous target "
                f"with values such as {fractional[0].item()!r}"
            )
    return check_labels(arr, n_samples)


class _DiscreteNB(ClassifierMixin, BaseEstimator):
    """Fit the class priors and turn a joint log likelihood into predictions.

    Subclasses implement ``_check_entries(X, reset)`` (the model's own check of
    the values in a 2-d array, at fit or predict time) and ``_joint_log_likelihood(X)`` returning
    ``ln P(x | c) + ln P(c)``, shape (N, C).  Every public method validates its
    input here, with scikit-learn's bookkeeping (``n_features_in_``,
    ``feature_names_in_``, :class:`~sklearn.exceptions.NotFittedError`).
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False  # dense arrays only; a sparse matrix is refused
        # as for scikit-learn's discrete naive Bayes: the checks' continuous toy data are no
        # measure of a discrete model, so their accuracy threshold does not apply
        tags.classifier_tags.poor_score = True
        return tags

    def _check_input(self, X, reset, y=None):
        """Check ``X`` (and ``y`` at fit time) and return them as arrays.

        ``reset=True`` (fit) sets ``n_features_in_`` (and ``feature_names_in_``
        for a DataFrame); ``reset=False`` (predict) compares against them.  The
        labels are checked before the entries of ``X``, so a bad ``y`` is
        reported as such.
        """
        arr = _as_table(X, "X", self)
        if reset:
            y = _as_labels(y, arr.shape[0], self)
        validate_data(self, X if hasattr(X, "columns") else arr, reset=reset, skip_check_array=True)
        arr = self._check_entries(arr, reset)
        return (arr, y) if reset else arr

    def _fit_classes(self, y):
        """Set ``classes_``, ``class_count_``, ``class_log_prior_``; return one-hot labels (N, C)."""
        self.alpha_ = check_alpha(self.alpha)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        Y = np.eye(self.classes_.size)[y_index]
        self.class_count_ = Y.sum(axis=0)
        self.class_log_prior_ = np.log(self.class_count_) - np.log(self.class_count_.sum())
        return Y

    def _check_fitted(self):
        check_is_fitted(self, msg="this %(name)s instance is not fitted yet; call fit(X, y) first")

    def predict_log_proba(self, X):
        """Log posterior class probabilities, normalised with ``logsumexp``.

        Parameters
        ----------
        X : array_like, shape (N, n_features)

        Returns
        -------
        numpy.ndarray, shape (N, C)
            Columns in the order of ``classes_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit`` (it is a ``ValueError``).
        ValueError
            If a row has probability 0 under every class (possible only with ``alpha = 0``).
        """
        self._check_fitted()
        jll = self._joint_log_likelihood(self._check_input(X, reset=False))
        dead = np.all(np.isneginf(jll), axis=1)
        if dead.any():
            rows = np.flatnonzero(dead)
            raise ValueError(
                f"the posterior is undefined for X row(s) {rows[:10].tolist()}"
                f"{' ...' if rows.size > 10 else ''}: every class gives them probability 0 "
                "(a value never seen in training with alpha=0); use alpha > 0"
            )
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X):
        """Posterior class probabilities, shape (N, C); rows sum to 1."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The maximum a posteriori class of each row (ties go to the first in ``classes_``)."""
        log_post = self.predict_log_proba(X)
        return self.classes_[np.argmax(log_post, axis=1)]


# --- categorical naive Bayes -----------------------------------------------------------------


class CategoricalNB(_DiscreteNB):
    """Naive Bayes with one categorical distribution per feature and class.

    ``P(x | c) = Π_j θ_{j, x_j, c}`` with ``θ_{j,v,c} = (N_cjv + α) / (N_c + α V_j)``
    (Williams 2024, eq. 2, for several independent features).  It agrees with
    scikit-learn's ``CategoricalNB(alpha=α, force_alpha=True)`` on ordinal codes.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, ``>= 0``.
    n_values : int, sequence of int or None, default None
        Number of categories ``V_j`` of each feature (an int applies to all).
        ``None`` takes ``max(X[:, i]) + 1`` from the training data.

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
    class_log_prior_ : ndarray, shape (C,)
        ``ln(N_c / N)``.
    category_count_ : list of ndarray, each shape (C, V_i)
        ``N_cjv``.
    feature_log_prob_ : list of ndarray, each shape (C, V_i)
        ``ln θ_{j,v,c}``.
    n_categories_ : ndarray of int64, shape (n_features,)
        ``V_j``; codes ``>= V_j`` are refused at predict time.
    n_features_in_ : int
    feature_names_in_ : ndarray of str, shape (n_features,)
        Only when ``X`` was a DataFrame with string column names.

    Examples
    --------
    >>> X = [[0, 1], [1, 1], [2, 0], [2, 0]]
    >>> m = CategoricalNB(alpha=1.0).fit(X, ["a", "a", "b", "b"])
    >>> m.n_categories_
    array([3, 2])
    >>> np.exp(m.feature_log_prob_[0])
    array([[0.4, 0.4, 0.2],
           [0.2, 0.2, 0.6]])
    >>> m.predict([[0, 1], [2, 0]])
    array(['a', 'b'], dtype='<U1')
    """

    def __init__(self, alpha=1.0, n_values=None):
        self.alpha = alpha
        self.n_values = n_values

    def fit(self, X, y):
        """Count categories per class and compute smoothed log probabilities.

        Parameters
        ----------
        X : array_like, shape (N, n_features)
            Non-negative integer codes.
        y : array_like, shape (N,)
            Class labels, at least two classes.

        Returns
        -------
        self
        """
        X, y = self._check_input(X, reset=True, y=y)
        Y = self._fit_classes(y)
        n_cat = X.max(axis=0) + 1
        given = check_n_values(self.n_values, X.shape[1])
        if given is not None:
            check_codes_below(X, given, "X", "from n_values")
            n_cat = given
        self.n_categories_ = n_cat.astype(np.int64)
        self.category_count_ = [Y.T @ np.eye(V)[X[:, i]] for i, V in enumerate(self.n_categories_)]
        self.feature_log_prob_ = [self._log_theta(N_cv) for N_cv in self.category_count_]
        return self

    def _log_theta(self, N_cv):
        """``ln[(N_cv + α) / (N_c + α V)]`` for one feature, shape (C, V)."""
        return log_lidstone(N_cv, self.alpha_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True
        return tags

    def _check_entries(self, X, reset):
        _refuse_negative(X, "non-negative category codes 0, 1, 2, ...", "category codes")
        X = check_codes(X, "X")
        if not reset:
            check_codes_below(X, self.n_categories_, "X", "learned in fit")
        return X

    def _joint_log_likelihood(self, X):
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for i, log_theta in enumerate(self.feature_log_prob_):
            jll = jll + log_theta[:, X[:, i]].T
        return jll


# --- product-of-Bernoullis naive Bayes -------------------------------------------------------


def _check_threshold(t, name):
    """A finite real threshold (booleans refused)."""
    if isinstance(t, bool | np.bool_) or not isinstance(t, numbers.Real):
        raise TypeError(f"{name} must be None or a real number, got {type(t).__name__} {t!r:.40}")
    if not np.isfinite(t):
        raise ValueError(f"{name} must be None or a finite real number, got {t!r}")
    return float(t)


class ProductOfBernoullisNB(_DiscreteNB):
    """Naive Bayes treating every column of a 0/1 table as an independent bit.

    ``P(b | c) = Π_j p_cj^{b_j} (1 - p_cj)^{1 - b_j}`` with
    ``p_cj = (N_cj1 + α) / (N_c + 2α)`` (Duda, Hart & Stork 2001, eq. 86).
    Applied to ``one_hot(X)`` this is the product-of-Bernoullis model of
    Williams (2024), eq. 3.  It agrees with scikit-learn's
    ``BernoulliNB(alpha=α, force_alpha=True)`` on 0/1 input.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, ``>= 0``.
    binarize : float or None, default None
        ``None``: ``X`` must already be a 0/1 table, and any other entry (a
        category code 2, a count, a negative number) is refused, so codes are
        never read as bits by mistake.  A number ``t``: entries ``> t`` are read
        as 1 and the others as 0, as ``BernoulliNB(binarize=t)`` does.

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
    class_log_prior_ : ndarray, shape (C,)
    feature_count_ : ndarray, shape (C, n_features)
        ``N_cj1``, the number of class-``c`` rows with bit ``j`` on.
    feature_log_prob_ : ndarray, shape (C, n_features)
        ``ln p_cj``.
    feature_log_prob_neg_ : ndarray, shape (C, n_features)
        ``ln(1 - p_cj)``, computed from the counts ``(N_c - N_cj1 + α) / (N_c + 2α)``
        so it is exact even when ``p_cj`` is close to 1.
    n_features_in_ : int
    feature_names_in_ : ndarray of str, shape (n_features,)
        Only when ``X`` was a DataFrame with string column names.

    Examples
    --------
    >>> B = [[1, 0], [1, 1], [0, 1], [0, 1]]
    >>> m = ProductOfBernoullisNB(alpha=1.0).fit(B, [0, 0, 1, 1])
    >>> np.exp(m.feature_log_prob_)
    array([[0.75, 0.5 ],
           [0.25, 0.75]])
    >>> m.predict_proba([[1, 0]]).round(4)
    array([[0.8571, 0.1429]])
    """

    def __init__(self, alpha=1.0, binarize=None):
        self.alpha = alpha
        self.binarize = binarize

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # a strict 0/1 table refuses negative entries; a threshold reads any real number
        tags.input_tags.positive_only = self.binarize is None
        return tags

    def fit(self, X, y):
        """Count the bits that are on per class and compute smoothed log probabilities.

        Parameters
        ----------
        X : array_like, shape (N, n_features)
            0/1 entries, the bits ``b_i`` (any real numbers if ``binarize`` is set).
        y : array_like, shape (N,)
            Class labels, at least two classes.

        Returns
        -------
        self
        """
        B, y = self._check_input(X, reset=True, y=y)
        Y = self._fit_classes(y)
        self.feature_count_ = Y.T @ B
        self.feature_log_prob_, self.feature_log_prob_neg_ = log_bernoulli_smoothed(
            self.feature_count_, self.class_count_[:, None], self.alpha_)
        return self

    def _check_entries(self, X, reset):
        if self.binarize is None:
            _refuse_negative(X, "only 0 and 1", "bits")
            return check_binary(X, "X")
        threshold = _check_threshold(self.binarize, "binarize")
        X = as_real_array(X, "X")
        if not np.isfinite(X).all():
            idx = tuple(int(i) for i in np.argwhere(~np.isfinite(X))[0])
            raise ValueError(f"X must contain finite numbers; entry {idx} is {X[idx].item()!r}")
        return (X > threshold).astype(np.int64)

    def _joint_log_likelihood(self, B):
        on, off = self.feature_log_prob_, self.feature_log_prob_neg_
        if np.isfinite(on).all() and np.isfinite(off).all():
            # Duda's linear form: B·(ln p - ln(1-p)) + Σ ln(1-p)
            jll = B @ (on - off).T + off.sum(axis=1)
        else:  # a probability of exactly 0 or 1: select terms, never 0·(-inf)
            jll = np.where(B[:, None, :] == 1, on[None], off[None]).sum(axis=2)
        return jll + self.class_log_prior_
