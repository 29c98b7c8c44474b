"""Naive Bayes with continuous features: one normal density per feature and class.

* :class:`GaussianNB` models feature ``x_j`` in class ``c`` as a normal variable with mean
  ``μ_jc`` and variance ``S²_jc``, independent of the other features given the class
  (Duda, Hart & Stork 2001, §2.6, with the covariance matrix of each class diagonal;
  John & Langley 1995).  With ``shared_variance=True`` every class has the same variance
  ``S²_j`` for feature ``j``: the case ``Σ_c = Σ`` of Duda, Hart & Stork (2001, §2.6), with
  ``Σ`` diagonal.
* :func:`gaussian_discriminant` writes the two-class log posterior ratio of either model as
  ``Σ_j a_j x_j² + Σ_j w_j x_j + w_0``: quadratic in general, linear (``a = 0``) when the
  variances are shared, the continuous counterpart of the linear discriminant of
  independent binary features (Duda, Hart & Stork 2001, eqs. 89-91).

The estimates are the maximum-likelihood ones: the weighted mean and the weighted mean squared
deviation of each class (divided by ``N_c``, not ``N_c - 1``), as in scikit-learn's
``GaussianNB``, with which :class:`GaussianNB` agrees.
"""

from __future__ import annotations

import numpy as np

from ._validation import _describe, as_real_array
from .binary import _check_prior1
from .naive_bayes import NaiveBayes

__all__ = ["GaussianNB", "gaussian_discriminant"]


def _check_finite_table(X, name="X"):
    """``X`` as a 2-d float array of finite numbers."""
    X = as_real_array(X, name)
    bad = ~np.isfinite(X)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must contain finite numbers, not NaN or inf; entry {idx} is "
                         f"{X[idx].item()!r}")
    return X


class GaussianNB(NaiveBayes):
    """Gaussian naive Bayes, with a variance per feature and class or one shared by the classes.

    The class-conditional density is a product of normal densities,

    ``p(x | c) = Π_j (2π S²_jc)^{-1/2} exp(-(x_j - μ_jc)² / (2 S²_jc))``,

    with the maximum-likelihood estimates ``μ_jc = Σ_i Y_ic x_ij / N_c`` and
    ``S²_jc = Σ_i Y_ic (x_ij - μ_jc)² / N_c + ε`` (Duda, Hart & Stork 2001, §3.2, for the
    estimates; §2.6 for the density).  With ``shared_variance=True`` the variance is pooled
    over the classes, ``S²_j = Σ_c Σ_i Y_ic (x_ij - μ_jc)² / N + ε``: the model whose log
    posterior ratio is linear in ``x`` (:func:`gaussian_discriminant`).  The term
    ``ε = α · max_j Var(x_j)`` (the largest variance of a feature over all rows) keeps every
    variance positive, as scikit-learn's ``var_smoothing``: with the same ``α`` the model
    agrees with ``sklearn.naive_bayes.GaussianNB(var_smoothing=α)``.

    Parameters
    ----------
    alpha : float, default 1e-9
        ``>= 0``: the share of the largest feature variance added to every variance.
    shared_variance : bool, default False
        One variance per feature for all classes (pooled within the classes) instead of one
        per feature and class.

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
    class_log_prior_ : ndarray, shape (C,)
        ``ln(N_c / N)``.
    theta_ : ndarray, shape (C, n_features)
        ``μ_jc``.
    var_ : ndarray, shape (C, n_features)
        ``S²_jc`` (with ``shared_variance``, every row is ``S²_j``).
    epsilon_ : float
        ``ε``, the amount added to every variance.
    n_features_in_ : int
    feature_names_in_ : ndarray of str, shape (n_features,)
        Only when ``X`` was a DataFrame with string column names.

    Raises
    ------
    ValueError
        At fit time, if a variance is 0 (a feature constant within a class, or within every
        class when shared, with ``ε = 0``): the density is then not defined; use ``alpha > 0``.

    Examples
    --------
    Class a at 0 and 2, class b at 4, 5 and 6: means 1 and 5, variances 1 and 2/3, and the
    shared variance (2 + 2) / 5 = 0.8.

    >>> X, y = [[0.0], [2.0], [4.0], [5.0], [6.0]], ["a", "a", "b", "b", "b"]
    >>> m = GaussianNB(alpha=0.0).fit(X, y)
    >>> m.theta_.ravel(), m.var_.ravel().round(4)
    (array([1., 5.]), array([1.    , 0.6667]))
    >>> GaussianNB(alpha=0.0, shared_variance=True).fit(X, y).var_.ravel()
    array([0.8, 0.8])
    """

    def __init__(self, alpha=1e-9, shared_variance=False):
        self.alpha = alpha
        self.shared_variance = shared_variance

    def _check_entries(self, X, reset):
        return _check_finite_table(X)

    def _count(self, X, Y):
        """``theta_`` and the weighted sums of squared deviations ``Σ_i Y_ic (x_ij - μ_jc)²``."""
        if not isinstance(self.shared_variance, bool | np.bool_):
            raise TypeError(f"shared_variance must be True or False, got "
                            f"{_describe(self.shared_variance)}")
        with np.errstate(invalid="ignore", divide="ignore"):
            self.theta_ = (Y.T @ X) / self.class_count_[:, None]
        if not np.isfinite(self.theta_).all():
            empty = np.flatnonzero(self.class_count_ == 0).tolist()
            raise ValueError(f"Y must give every class a positive weight, got weight 0 for "
                             f"class(es) {empty}")
        self._squared_deviations = np.stack(
            [Y[:, c] @ (X - self.theta_[c]) ** 2 for c in range(Y.shape[1])])
        self._largest_variance = float(X.var(axis=0).max())

    def _update_feature_log_prob(self, alpha):
        """``var_`` (and ``epsilon_``): the mean squared deviations plus ``ε = α max_j Var(x_j)``."""
        self.epsilon_ = float(alpha) * self._largest_variance
        if self.shared_variance:
            pooled = self._squared_deviations.sum(axis=0) / self.class_count_.sum()
            var = np.tile(pooled, (self.class_count_.size, 1))
        else:
            var = self._squared_deviations / self.class_count_[:, None]
        self.var_ = var + self.epsilon_
        if (self.var_ <= 0).any():
            c, j = (int(i) for i in np.argwhere(self.var_ <= 0)[0])
            raise ValueError(
                f"the variance of feature {j} is 0 in class {self.classes_[c].tolist()!r} (the feature "
                f"is constant there), so its normal density is not defined; use alpha > 0 "
                f"(alpha={alpha!r} gives epsilon={self.epsilon_!r})")

    def _joint_log_likelihood(self, X):
        """``ln π_c - ½ Σ_j [ln(2π S²_jc) + (x_j - μ_jc)² / S²_jc]``, shape (N, C)."""
        sq = (X[:, None, :] - self.theta_[None]) ** 2 / self.var_[None]
        return -0.5 * (sq + np.log(2 * np.pi * self.var_)[None]).sum(axis=2) + self.class_log_prior_


def gaussian_discriminant(theta, var, prior1=0.5):
    """The log posterior ratio of two Gaussian naive Bayes classes as a quadratic in ``x``.

    ``g(x) = ln[P(ω_1 | x) / P(ω_2 | x)] = Σ_j a_j x_j² + Σ_j w_j x_j + w_0`` with

    * ``a_j = -½ (1/S²_j1 - 1/S²_j2)``,
    * ``w_j = μ_j1/S²_j1 - μ_j2/S²_j2``,
    * ``w_0 = Σ_j [μ_j2²/(2S²_j2) - μ_j1²/(2S²_j1) - ½ ln(S²_j1/S²_j2)] + ln(P(ω_1)/P(ω_2))``,

    the difference of the two discriminant functions of Duda, Hart & Stork (2001, §2.6, the
    case of arbitrary ``Σ_c``) for diagonal covariance matrices.  When ``S²_j1 = S²_j2 = S²_j``
    (``var`` of shape ``(d,)``) every ``a_j`` is exactly 0 and ``g`` is linear, with
    ``w_j = (μ_j1 - μ_j2)/S²_j`` (their case ``Σ_c = Σ``): the continuous counterpart of the
    weights of independent binary features (Duda, Hart & Stork 2001, eqs. 89-91).

    Parameters
    ----------
    theta : array_like, shape (2, d)
        Means ``μ_jc``, a row per class.
    var : array_like, shape (2, d) or (d,)
        Variances ``S²_jc`` per class, or ``S²_j`` shared by both; positive.
    prior1 : float, default 0.5
        ``P(ω_1)``, strictly between 0 and 1.

    Returns
    -------
    a : numpy.ndarray, shape (d,)
        Weights of ``x_j²`` (zeros when the variances are shared).
    w : numpy.ndarray, shape (d,)
    w0 : float

    Examples
    --------
    >>> a, w, w0 = gaussian_discriminant([[1.0], [5.0]], [0.8])
    >>> a, w, w0
    (array([0.]), array([-5.]), 15.0)
    """
    theta = as_real_array(theta, "theta")
    if theta.ndim != 2 or theta.shape[0] != 2 or not np.isfinite(theta).all():
        raise ValueError(f"theta must be a finite array of shape (2, d), a row per class, "
                         f"got {_describe(theta)}")
    d = theta.shape[1]
    var = as_real_array(var, "var")
    shared = var.shape == (d,)
    if not (shared or var.shape == (2, d)) or not (np.isfinite(var) & (var > 0)).all():
        raise ValueError(f"var must hold positive finite variances of shape (2, {d}) or ({d},), "
                         f"got {_describe(var)}")
    prior1 = _check_prior1(prior1)
    log_prior_ratio = float(np.log(prior1) - np.log1p(-prior1))
    if shared:
        w = (theta[0] - theta[1]) / var
        w0 = float(np.sum((theta[1] ** 2 - theta[0] ** 2) / (2 * var))) + log_prior_ratio
        return np.zeros(d), w, w0
    a = -0.5 * (1 / var[0] - 1 / var[1])
    w = theta[0] / var[0] - theta[1] / var[1]
    w0 = float(np.sum(theta[1] ** 2 / (2 * var[1]) - theta[0] ** 2 / (2 * var[0])
                      - 0.5 * np.log(var[0] / var[1]))) + log_prior_ratio
    return a, w, w0
