"""Naive Bayes with categorical features, fitted two ways.

* :class:`CategoricalNB` models each feature ``x_j`` (codes ``0..V_j-1``) with one
  categorical distribution per class: the correct model for a categorical
  variable (Williams 2024, eq. 2; Duda, Hart & Stork 2001, §2.9).
* :class:`ProductOfBernoullisNB` models each column of a 0/1 table as an
  independent Bernoulli bit (Duda, Hart & Stork 2001, eq. 86).  Fed the one-hot
  code of a categorical variable it is the PoB model of Williams (2024), eq. 3.

Both follow scikit-learn's conventions: ``fit`` returns the estimator,
attributes learned from data end in ``_`` (``classes_``, ``class_count_``,
``class_log_prior_``, ``feature_log_prob_``, ...) and all arithmetic is in log space.
``fit``, ``predict_log_proba``, ``predict_proba`` and ``predict`` are written once, in a
shared base class, on top of each model's counts, parameters and joint log likelihood
(the shape of scikit-learn's ``_BaseDiscreteNB``).  They declare
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

Without the independence assumption:

* :class:`FullJointNB` models the whole feature vector of each class as one
  categorical variable over the ``Π_j V_j`` cells of the feature table, so its
  posterior ``P(c | x)`` is one free probability per cell (the saturated model);
* :func:`conditional_independence_test` compares naive Bayes with it by a
  likelihood-ratio (deviance) test of the hypothesis that the features are
  independent given the class.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from ._logspace import log_normalise
from ._validation import (
    _describe,
    as_real_array,
    check_alpha,
    check_binary,
    check_codes,
    check_codes_below,
    check_labels,
    check_n_values,
)
from .binary import log_likelihood_bits
from .smoothing import log_bernoulli_smoothed, log_lidstone

__all__ = [
    "CategoricalNB",
    "DevianceTest",
    "FullJointNB",
    "NaiveBayes",
    "ProductOfBernoullisNB",
    "conditional_independence_test",
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


class NaiveBayes(ClassifierMixin, BaseEstimator):
    """``fit`` and the predict methods, written once for every naive Bayes model.

    ``fit`` validates ``X`` and ``y`` (with scikit-learn's bookkeeping:
    ``n_features_in_``, ``feature_names_in_``), turns the labels into one-hot class
    memberships ``Y`` of shape (N, C), checks the smoothing ``alpha`` (kept as ``alpha_``)
    and sets ``classes_``, ``class_count_ = Σ_i Y_ic`` and the priors
    ``class_log_prior_ = ln(N_c / N)``.  The predict methods normalise the joint log
    likelihood.  As in scikit-learn's ``_BaseDiscreteNB``, a model supplies only

    * ``_check_entries(X, reset)``: its check of the values of a 2-d array, at fit
      (``reset=True``) or predict time; what it returns is the ``X`` of the hooks below;
    * ``_count(X, Y)``: its sufficient statistics, sums over the rows of ``X`` weighted by
      the columns of ``Y`` (a row counts as ``Y_ic`` of a row of class ``c``);
    * ``_update_feature_log_prob(alpha)``: its parameters from those statistics;
    * ``_joint_log_likelihood(X)``: ``ln P(x | c) + ln P(c)``, shape (N, C).

    Nothing in the hooks asks for ``Y`` to be 0/1: :meth:`_fit_memberships` fits from any
    non-negative memberships, such as the responsibilities of an EM step.
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

    def fit(self, X, y):
        """Count the classes and the model's statistics, and compute its smoothed parameters.

        Parameters
        ----------
        X : array_like, shape (N, n_features)
            The model's input (see the class description).
        y : array_like, shape (N,)
            Class labels, at least two classes.

        Returns
        -------
        self
        """
        X, y = self._check_input(X, reset=True, y=y)
        classes, y_index = np.unique(y, return_inverse=True)
        return self._fit_memberships(X, np.eye(classes.size)[y_index], classes)

    def _fit_memberships(self, X, Y, classes):
        """Fit from the checked ``X`` and the class memberships ``Y``, shape (N, C).

        ``Y[i, c] >= 0`` is how much row ``i`` counts for class ``classes[c]``: one-hot rows
        for labels, fractions for soft memberships (the responsibilities of an EM step).
        So ``class_count_ = Y.sum(axis=0)``, and every count of the model is weighted by ``Y``.

        Parameters
        ----------
        X : numpy.ndarray or numpy.ma.MaskedArray, shape (N, n_features)
            As ``_check_entries`` returned it.
        Y : array_like, shape (N, C)
        classes : numpy.ndarray, shape (C,)
            Sorted class labels, the columns of ``Y``.

        Returns
        -------
        self
        """
        self.alpha_ = check_alpha(self.alpha)
        Y = np.asarray(Y, dtype=np.float64)
        if Y.shape != (X.shape[0], len(classes)):
            raise ValueError(
                f"Y must have shape ({X.shape[0]}, {len(classes)}), a row per row of X "
                f"and a column per class, got shape {Y.shape}"
            )
        if not (np.isfinite(Y) & (Y >= 0)).all() or not Y.any():
            raise ValueError(
                f"Y must contain finite memberships >= 0, not all zero, got {_describe(Y)}"
            )
        self.classes_ = classes
        self.class_count_ = Y.sum(axis=0)
        with np.errstate(divide="ignore"):  # a class of weight 0 has prior 0
            self.class_log_prior_ = np.log(self.class_count_) - np.log(self.class_count_.sum())
        self._count(X, Y)
        self._update_feature_log_prob(self.alpha_)
        return self

    def _n_values_of(self, X):
        """Number of values of each feature: ``n_values`` if given (every code of ``X`` must be
        below it), else one more than the largest code seen."""
        given = check_n_values(self.n_values, X.shape[1])
        if given is None:
            return X.max(axis=0) + 1
        check_codes_below(X, given, "X", "from n_values")
        return given

    def _check_fitted(self):
        check_is_fitted(self, msg="this %(name)s instance is not fitted yet; call fit(X, y) first")

    def predict_log_proba(self, X):
        """Log posterior class probabilities: the log joints normalised by ``log_normalise``.

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
        if dead.any():  # said in the estimator's terms before log_normalise would say it
            rows = np.flatnonzero(dead)
            raise ValueError(
                f"the posterior is undefined for X row(s) {rows[:10].tolist()}"
                f"{' ...' if rows.size > 10 else ''}: every class gives them probability 0 "
                "(a value never seen in training with alpha=0); use alpha > 0"
            )
        return log_normalise(jll, axis=1)

    def predict_proba(self, X):
        """Posterior class probabilities, shape (N, C); rows sum to 1."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The maximum a posteriori class of each row (ties go to the first in ``classes_``)."""
        log_post = self.predict_log_proba(X)
        return self.classes_[np.argmax(log_post, axis=1)]


# --- categorical naive Bayes -----------------------------------------------------------------


class CategoricalNB(NaiveBayes):
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
    category_count_ : list of ndarray, each shape (C, V_j)
        ``N_cjv``.
    feature_log_prob_ : list of ndarray, each shape (C, V_j)
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

    def _count(self, X, Y):
        """``n_categories_`` and ``category_count_``: ``N_cjv = Σ_i Y_ic [x_ij = v]``."""
        self.n_categories_ = self._n_values_of(X).astype(np.int64)
        self.category_count_ = [Y.T @ np.eye(V)[X[:, j]] for j, V in enumerate(self.n_categories_)]

    def _update_feature_log_prob(self, alpha):
        """``feature_log_prob_``: ``ln[(N_cjv + α) / (N_cj + α V_j)]`` for every feature."""
        self.feature_log_prob_ = [log_lidstone(N_cv, alpha) for N_cv in self.category_count_]

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


class ProductOfBernoullisNB(NaiveBayes):
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

    def _count(self, X, Y):
        """``feature_count_``: ``N_cj1 = Σ_i Y_ic b_ij``."""
        self.feature_count_ = Y.T @ X

    def _update_feature_log_prob(self, alpha):
        """``ln p_cj`` and ``ln(1 - p_cj)`` from ``N_cj1`` of the ``N_c`` rows of each class."""
        self.feature_log_prob_, self.feature_log_prob_neg_ = log_bernoulli_smoothed(
            self.feature_count_, self.class_count_[:, None], alpha)

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
        return (log_likelihood_bits(B, self.feature_log_prob_, self.feature_log_prob_neg_)
                + self.class_log_prior_)


# --- the full joint (saturated) model --------------------------------------------------------

#: The largest number of cells ``Π_j V_j`` that :class:`FullJointNB` tabulates.
MAX_CELLS = 10_000_000


def _n_cells(n_values) -> int:
    """``Π_j V_j`` as a Python int, refused above :data:`MAX_CELLS`."""
    n_cells = 1
    for V in n_values:
        n_cells *= int(V)
    if n_cells > MAX_CELLS:
        raise ValueError(
            f"n_values must give at most {MAX_CELLS:,} cells (the product of the numbers of "
            f"values), got {[int(V) for V in n_values]} with {n_cells:,} cells"
        )
    return n_cells


class FullJointNB(NaiveBayes):
    """Bayes' rule with the full joint distribution of the features in each class.

    The feature vector ``x`` (codes ``x_j < V_j``) is read as one categorical
    variable whose values are the ``M = Π_j V_j`` cells of the feature table,
    cell ``m(x) = numpy.ravel_multi_index(x, V)``, and each class gets its own
    distribution over the cells:

    ``P(x | c) = φ_{c, m(x)}`` with ``φ_{c,m} = (N_cm + α) / (N_c + α M)``,

    where ``N_cm`` counts the class-``c`` rows in cell ``m``.  No independence
    between features is assumed: this is :class:`CategoricalNB` applied to the
    single feature ``m(x)``.  With ``alpha = 0`` the posterior in a cell is the
    share of each class among its training rows, ``P(c | x) = N_{c,m(x)} / N_{m(x)}``:
    one free probability per cell and class, the saturated model of the
    contingency table (Agresti 2013, ch. 9).  Duda, Hart & Stork (2001, §2.9) count
    the ``Π_j V_j`` possible feature vectors that this model needs a probability for.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing of the cell probabilities, ``>= 0``.
    n_values : int, sequence of int or None, default None
        Number of categories ``V_j`` of each feature (an int applies to all);
        ``None`` takes ``max(X[:, i]) + 1`` from the training data.  The number of
        cells ``Π_j V_j`` may be at most :data:`MAX_CELLS`.

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
    class_log_prior_ : ndarray, shape (C,)
        ``ln(N_c / N)``.
    n_categories_ : ndarray of int64, shape (n_features,)
        ``V_j``.
    cell_count_ : ndarray, shape (C, M)
        ``N_cm``, cells in the order of ``numpy.ravel_multi_index`` (last feature fastest).
    cell_log_prob_ : ndarray, shape (C, M)
        ``ln φ_{c,m}``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str, shape (n_features,)
        Only when ``X`` was a DataFrame with string column names.

    Examples
    --------
    Two binary features that are equal in class "a" and differ in class "b":
    naive Bayes cannot see it, the full joint can.

    >>> X = [[0, 0], [1, 1], [0, 1], [1, 0]]
    >>> y = ["a", "a", "b", "b"]
    >>> FullJointNB(alpha=0).fit(X, y).predict_proba([[1, 1], [1, 0]])
    array([[1., 0.],
           [0., 1.]])
    >>> CategoricalNB(alpha=0).fit(X, y).predict_proba([[1, 1], [1, 0]])
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """

    def __init__(self, alpha=1.0, n_values=None):
        self.alpha = alpha
        self.n_values = n_values

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True
        return tags

    def _count(self, X, Y):
        """``n_categories_`` and ``cell_count_``: ``N_cm = Σ_i Y_ic [m(x_i) = m]``."""
        n_cat = self._n_values_of(X)
        n_cells = _n_cells(n_cat)
        self.n_categories_ = n_cat.astype(np.int64)
        cells = self.cells(X)
        self.cell_count_ = np.stack(
            [np.bincount(cells, weights=Y[:, c], minlength=n_cells) for c in range(Y.shape[1])])

    def _update_feature_log_prob(self, alpha):
        """``cell_log_prob_``: ``ln[(N_cm + α) / (N_c + α M)]``."""
        self.cell_log_prob_ = log_lidstone(self.cell_count_, alpha)

    def cells(self, X):
        """The cell index ``m(x) = numpy.ravel_multi_index(x, n_categories_)`` of each row.

        Parameters
        ----------
        X : array_like, shape (N, n_features)
            Codes below ``n_categories_``.

        Returns
        -------
        numpy.ndarray of int64, shape (N,)
        """
        if not hasattr(self, "n_categories_"):
            self._check_fitted()
        X = check_codes(X, "X")
        if X.ndim != 2 or X.shape[1] != self.n_categories_.size:
            raise ValueError(f"X must have shape (N, {self.n_categories_.size}), got {X.shape}")
        check_codes_below(X, self.n_categories_, "X", "learned in fit")
        return np.ravel_multi_index(tuple(X.T), tuple(self.n_categories_)).astype(np.int64)

    def _check_entries(self, X, reset):
        _refuse_negative(X, "non-negative category codes 0, 1, 2, ...", "category codes")
        X = check_codes(X, "X")
        if not reset:
            check_codes_below(X, self.n_categories_, "X", "learned in fit")
        return X

    def _joint_log_likelihood(self, X):
        return self.cell_log_prob_[:, self.cells(X)].T + self.class_log_prior_


@dataclass(frozen=True)
class DevianceTest:
    """A likelihood-ratio test of naive Bayes against the full joint (see
    :func:`conditional_independence_test`).

    Attributes
    ----------
    deviance : float
        ``G² = 2 Σ N_cm ln(N_cm / E_cm)``, twice the gap in maximised log likelihood.
    df : int
        Degrees of freedom, the number of parameters the full joint has and naive Bayes has
        not: ``C (Π_j V_j - 1 - Σ_j (V_j - 1))``.
    p_value : float
        ``P(χ²_df ≥ G²)``, the large-sample p-value.
    n_cells : int
        Cells of the table of features and class, ``C Π_j V_j``.
    n_empty : int
        Cells of that table with no row.
    expected : numpy.ndarray, shape (C, Π_j V_j)
        ``E_cm``, the counts naive Bayes fitted by maximum likelihood expects in each cell.
    observed : numpy.ndarray, shape (C, Π_j V_j)
        ``N_cm``.
    """

    deviance: float
    df: int
    p_value: float
    n_cells: int
    n_empty: int
    expected: np.ndarray = field(repr=False)
    observed: np.ndarray = field(repr=False)


def conditional_independence_test(X, y, n_values=None) -> DevianceTest:
    """Deviance test of "the features are independent given the class" (naive Bayes).

    Both models are fitted by maximum likelihood to the same rows, as models of the
    table of counts ``N_cm`` of class ``c`` and feature cell ``m``.  The full joint
    (:class:`FullJointNB` with ``alpha = 0``) reproduces the table.  Naive Bayes
    (:class:`CategoricalNB` with ``alpha = 0``) expects

    ``E_cm = N_c Π_j (N_{c,j,x_j} / N_c)``,

    the fitted values of the log-linear model of conditional independence given the
    class (Agresti 2013, ch. 9).  The deviance ``G² = 2 Σ N_cm ln(N_cm / E_cm)`` (empty cells
    contribute 0) is twice the difference of the two maximised joint log likelihoods, and
    under naive Bayes it is approximately χ² with ``df = C (Π_j V_j - 1 - Σ_j (V_j - 1))``
    degrees of freedom (Wilks 1938; Agresti 2013, ch. 9).  With two features this is the
    sum over classes of the G² tests of independence in each class's two-way table.

    The χ² approximation needs expected counts that are not small; a cell that cannot
    occur (a structural zero) still counts as a free parameter here.

    Parameters
    ----------
    X : array_like of int, shape (N, d), d >= 2
        Category codes.
    y : array_like, shape (N,)
        Class labels, at least two classes.
    n_values : int, sequence of int or None, default None
        ``V_i``; ``None`` takes ``max(X[:, i]) + 1``.

    Returns
    -------
    DevianceTest

    Examples
    --------
    >>> X = [[0, 0]] * 20 + [[1, 1]] * 20 + [[0, 1]] * 20 + [[1, 0]] * 20
    >>> y = [0] * 40 + [1] * 40
    >>> t = conditional_independence_test(X, y)
    >>> round(t.deviance, 4), t.df    # 4 · 40 ln 2 in all: each class is one perfect 2×2 table
    (110.9035, 2)
    """
    from scipy.stats import chi2

    X = check_codes(X, "X")
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(
            f"X must have shape (N, d) with at least 2 features (with one feature naive Bayes "
            f"is the full joint), got shape {X.shape}"
        )
    labels = check_labels(y, X.shape[0])
    full = FullJointNB(alpha=0.0, n_values=n_values).fit(X, labels)
    nb = CategoricalNB(alpha=0.0, n_values=full.n_categories_).fit(X, labels)
    V = full.n_categories_
    grid = np.array(np.unravel_index(np.arange(full.cell_count_.shape[1]), tuple(V))).T  # (M, d)
    with np.errstate(divide="ignore"):
        log_expected = np.log(full.class_count_)[:, None] + sum(
            nb.feature_log_prob_[i][:, grid[:, i]] for i in range(V.size))
    observed = full.cell_count_
    expected = np.exp(log_expected)
    seen = observed > 0
    deviance = float(2.0 * np.sum(observed[seen] * (np.log(observed[seen]) - log_expected[seen])))
    deviance = max(deviance, 0.0)
    C = full.classes_.size
    df = int(C * (int(np.prod(V)) - 1 - int(np.sum(V - 1))))
    p_value = float(chi2.sf(deviance, df)) if df > 0 else float("nan")
    return DevianceTest(deviance, df, p_value, int(observed.size), int((~seen).sum()),
                        expected, observed)
