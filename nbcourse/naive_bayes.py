"""Naive Bayes with categorical features, fitted two ways.

* :class:`CategoricalNB` models each feature ``x_i`` (codes ``0..V_i-1``) with one
  categorical distribution per class: the correct model for a categorical
  variable (Williams 2024, eq. 2; Duda, Hart & Stork 2001, §2.9).
* :class:`ProductOfBernoullisNB` models each column of a 0/1 table as an
  independent Bernoulli bit (Duda, Hart & Stork 2001, eq. 86).  Fed the one-hot
  code of a categorical variable it is the PoB model of Williams (2024), eq. 3.

Both follow scikit-learn's conventions: ``fit`` returns the estimator,
attributes learned from data end in ``_`` (``classes_``, ``class_count_``,
``class_log_prior_``, ``feature_log_prob_``, ...), all arithmetic is in log space,
and ``predict_log_proba`` / ``predict_proba`` / ``predict`` are written once in a
shared base class on top of each model's joint log likelihood.

Smoothing (``alpha >= 0``; ``alpha = 0`` is maximum likelihood):

* categorical: ``(N_civ + α) / (N_c + α V_i)``,
* Bernoulli: ``(N_ci1 + α) / (N_c + 2α)``,

and the class priors are the class frequencies ``N_c / N``.  With ``alpha = 0``
a value never seen with a class gets probability 0 (log ``-inf``), exactly.  If
a row then has probability 0 under *every* class its posterior is undefined
and ``predict*`` raise a ``ValueError`` naming the rows.

One-hot encoding, which turns codes into the 0/1 table that
:class:`ProductOfBernoullisNB` takes, is in :mod:`nbcourse.encoding`.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin

from ._validation import check_alpha, check_binary, check_codes, check_labels

__all__ = [
    "CategoricalNB",
    "ProductOfBernoullisNB",
]


def _log(x):
    with np.errstate(divide="ignore"):
        return np.log(x)


# --- the shared base ------------------------------------------------------------------------


class _DiscreteNB(ClassifierMixin, BaseEstimator):
    """Fit the class priors and turn a joint log likelihood into predictions.

    Subclasses implement ``_check_X(X)`` (validate at predict time) and
    ``_joint_log_likelihood(X)`` returning ``ln P(x | c) + ln P(c)``, shape (N, C).
    """

    def _fit_classes(self, X, y):
        """Set ``classes_``, ``class_count_``, ``class_log_prior_``; return one-hot labels (N, C)."""
        y = check_labels(y, X.shape[0])
        self.alpha_ = check_alpha(self.alpha)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        Y = np.eye(self.classes_.size)[y_index]
        self.class_count_ = Y.sum(axis=0)
        self.class_log_prior_ = np.log(self.class_count_) - np.log(self.class_count_.sum())
        self.n_features_in_ = X.shape[1]
        return Y

    def _check_fitted(self):
        if not hasattr(self, "classes_"):
            raise ValueError(
                f"this {type(self).__name__} instance is not fitted yet; call fit(X, y) first"
            )

    def _check_n_features(self, X, name):
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"{name} must have {self.n_features_in_} columns (as in fit), got {X.shape[1]}"
            )

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
        ValueError
            If a row has probability 0 under every class (possible only with ``alpha = 0``).
        """
        self._check_fitted()
        jll = self._joint_log_likelihood(self._check_X(X))
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


def _check_n_values(n_values, n_features, name="n_values"):
    """Per-feature category counts from ``None`` / int / sequence (``None`` stays ``None``)."""
    if n_values is None:
        return None
    if isinstance(n_values, numbers.Integral) and not isinstance(n_values, bool):
        arr = np.full(n_features, int(n_values), dtype=np.int64)
    else:
        arr = np.asarray(n_values)
        if arr.dtype.kind not in "iu" or arr.shape != (n_features,):
            raise ValueError(
                f"{name} must be an int or a sequence of {n_features} ints (one per feature), "
                f"got {n_values!r:.80}"
            )
        arr = arr.astype(np.int64)
    if (arr < 1).any():
        raise ValueError(f"{name} must be >= 1 for every feature, got {arr.tolist()}")
    return arr


def _check_codes_below(X, n_categories, name, origin):
    """Every code ``X[:, i]`` must be below ``n_categories[i]``."""
    too_big = X >= n_categories[None, :]
    if too_big.any():
        r, i = (int(v) for v in np.argwhere(too_big)[0])
        raise ValueError(
            f"{name}[{r}, {i}] = {int(X[r, i])} is not a valid code for feature {i}, which has "
            f"{int(n_categories[i])} categories (codes 0..{int(n_categories[i]) - 1}, {origin})"
        )


class CategoricalNB(_DiscreteNB):
    """Naive Bayes with one categorical distribution per feature and class.

    ``P(x | c) = Π_i θ_{i, x_i, c}`` with ``θ_{i,v,c} = (N_civ + α) / (N_c + α V_i)``
    (Williams 2024, eq. 2, for several independent features).  It agrees with
    scikit-learn's ``CategoricalNB(alpha=α, force_alpha=True)`` on ordinal codes.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, ``>= 0``.
    n_values : int, sequence of int or None, default None
        Number of categories ``V_i`` of each feature (an int applies to all).
        ``None`` takes ``max(X[:, i]) + 1`` from the training data.

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
    class_log_prior_ : ndarray, shape (C,)
        ``ln(N_c / N)``.
    category_count_ : list of ndarray, each shape (C, V_i)
        ``N_civ``.
    feature_log_prob_ : list of ndarray, each shape (C, V_i)
        ``ln θ_{i,v,c}``.
    n_categories_ : ndarray of int64, shape (n_features,)
        ``V_i``; codes ``>= V_i`` are refused at predict time.
    n_features_in_ : int

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
        X = check_codes(X, "X")
        Y = self._fit_classes(X, y)
        n_cat = X.max(axis=0) + 1
        given = _check_n_values(self.n_values, X.shape[1])
        if given is not None:
            _check_codes_below(X, given, "X", "from n_values")
            n_cat = given
        self.n_categories_ = n_cat.astype(np.int64)
        self.category_count_ = [
            Y.T @ np.eye(V)[X[:, i]] for i, V in enumerate(self.n_categories_)
        ]
        self.feature_log_prob_ = [self._log_theta(N_cv) for N_cv in self.category_count_]
        return self

    def _log_theta(self, N_cv):
        """``ln[(N_cv + α) / (N_c + α V)]`` for one feature, shape (C, V)."""
        smoothed = N_cv + self.alpha_
        return _log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True))

    def _check_X(self, X):
        X = check_codes(X, "X")
        self._check_n_features(X, "X")
        _check_codes_below(X, self.n_categories_, "X", "learned in fit")
        return X

    def _joint_log_likelihood(self, X):
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for i, log_theta in enumerate(self.feature_log_prob_):
            jll = jll + log_theta[:, X[:, i]].T
        return jll


# --- product-of-Bernoullis naive Bayes -------------------------------------------------------


class ProductOfBernoullisNB(_DiscreteNB):
    """Naive Bayes treating every column of a 0/1 table as an independent bit.

    ``P(b | c) = Π_i p_ic^{b_i} (1 - p_ic)^{1 - b_i}`` with
    ``p_ic = (N_ci1 + α) / (N_c + 2α)`` (Duda, Hart & Stork 2001, eq. 86).
    Applied to ``one_hot(X)`` this is the product-of-Bernoullis model of
    Williams (2024), eq. 3.  It agrees with scikit-learn's
    ``BernoulliNB(alpha=α, force_alpha=True)`` on 0/1 input.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, ``>= 0``.

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
    class_log_prior_ : ndarray, shape (C,)
    feature_count_ : ndarray, shape (C, n_features)
        ``N_ci1``, the number of class-``c`` rows with bit ``i`` on.
    feature_log_prob_ : ndarray, shape (C, n_features)
        ``ln p_ic``.
    feature_log_prob_neg_ : ndarray, shape (C, n_features)
        ``ln(1 - p_ic)``, computed from the counts ``(N_c - N_ci1 + α) / (N_c + 2α)``
        so it is exact even when ``p_ic`` is close to 1.
    n_features_in_ : int

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

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, B, y):
        """Count the bits that are on per class and compute smoothed log probabilities.

        Parameters
        ----------
        B : array_like, shape (N, n_features)
            0/1 entries.
        y : array_like, shape (N,)

        Returns
        -------
        self
        """
        B = check_binary(B, "B")
        Y = self._fit_classes(B, y)
        self.feature_count_ = Y.T @ B
        denom = np.log(self.class_count_ + 2.0 * self.alpha_)[:, None]
        self.feature_log_prob_ = _log(self.feature_count_ + self.alpha_) - denom
        off = self.class_count_[:, None] - self.feature_count_
        self.feature_log_prob_neg_ = _log(off + self.alpha_) - denom
        return self

    def _check_X(self, B):
        B = check_binary(B, "B")
        self._check_n_features(B, "B")
        return B

    def _joint_log_likelihood(self, B):
        on, off = self.feature_log_prob_, self.feature_log_prob_neg_
        if np.isfinite(on).all() and np.isfinite(off).all():
            # Duda's linear form: B·(ln p - ln(1-p)) + Σ ln(1-p)
            jll = B @ (on - off).T + off.sum(axis=1)
        else:  # a probability of exactly 0 or 1: select terms, never 0·(-inf)
            jll = np.where(B[:, None, :] == 1, on[None], off[None]).sum(axis=2)
        return jll + self.class_log_prior_
