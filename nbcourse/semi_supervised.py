"""Naive Bayes fitted to labelled and unlabelled cases together by EM (Nigam, McCallum, Thrun &
Mitchell 2000).

Naive Bayes is a generative model, so an unlabelled case has a likelihood too:
``p(x) = Σ_c π_c p(x | c)``.  :func:`fit_semi_supervised` maximises

``ℓ(θ) = Σ_{labelled i} ln[π_{y_i} p(x_i | y_i)] + λ Σ_{unlabelled j} ln Σ_c π_c p(x_j | c)``

over the model's parameters by EM.  The E-step gives each unlabelled case its posterior
``r_jc = P(c | x_j)`` under the current parameters; the M-step refits the model with every
labelled case counted once for its class and every unlabelled case counted ``λ r_jc`` times for
class ``c`` (the model's own fit from class memberships).  ``λ = 1`` is the basic EM of Nigam
et al.; their EM-λ gives the unlabelled cases the weight ``λ < 1`` so that the many unlabelled
cases do not drown the few labelled ones.  With a pseudo-count ``α > 0`` every M-step is the
posterior mode under a Dirichlet prior, so the quantity that never decreases is ``ℓ`` plus the
log density of that prior.

EM finds a local maximum, and the maximum is only as good as the model: where the mixture of
the model's class distributions does not separate the classes, unlabelled cases can make the
classifier worse (Nigam et al. 2000; Cozman, Cohen & Cirelo 2003).

Examples
--------
Two word counts; one labelled document per class and four unlabelled ones.

>>> from nbcourse.text import MultinomialNB
>>> X_l, y_l = [[5, 1], [1, 5]], ["a", "b"]
>>> X_u = [[4, 0], [3, 1], [0, 4], [1, 3]]
>>> fit = fit_semi_supervised(MultinomialNB(alpha=1.0), X_l, y_l, X_u)
>>> fit.model.predict(X_u).tolist(), fit.converged
(['a', 'a', 'b', 'b'], True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from ._logspace import log_normalise, logsumexp
from ._validation import _describe, as_real_array, check_int
from .naive_bayes import NaiveBayes, _as_table

__all__ = ["SemiSupervisedFit", "fit_semi_supervised"]


@dataclass(frozen=True)
class SemiSupervisedFit:
    """A naive Bayes model fitted by EM to labelled and unlabelled cases.

    Attributes
    ----------
    model : estimator
        The fitted naive Bayes model (a clone of the one given).
    responsibilities : numpy.ndarray, shape (N_u, C)
        ``r_jc``, the posteriors of the unlabelled cases under the fitted model.
    log_likelihood : numpy.ndarray, shape (n_iter + 1,)
        ``ℓ`` after the labelled-only fit and after each iteration.
    n_iter : int
        Number of EM iterations (0 when ``unlabeled_weight`` is 0).
    converged : bool
        Whether the iterations stopped because no responsibility changed by more than ``tol``
        (always True when ``unlabeled_weight`` is 0).
    """

    model: object
    responsibilities: np.ndarray
    log_likelihood: np.ndarray
    n_iter: int
    converged: bool


def _objective(model, X_l, codes, X_u, weight):
    """``ℓ`` of the fitted ``model`` and the log posteriors of the unlabelled rows."""
    jll_u = model._joint_log_likelihood(X_u)
    labelled = model._joint_log_likelihood(X_l)[np.arange(codes.size), codes].sum()
    return float(labelled + weight * logsumexp(jll_u, axis=1).sum()), jll_u


def fit_semi_supervised(model, X_labeled, y_labeled, X_unlabeled, *, unlabeled_weight=1.0,
                        max_iter=100, tol=1e-6) -> SemiSupervisedFit:
    """Fit a naive Bayes model to labelled and unlabelled cases by EM (Nigam et al. 2000).

    The model is first fitted to the labelled cases alone.  Then each iteration computes the
    posteriors ``r_jc`` of the unlabelled cases (E-step) and refits the model with memberships
    ``1`` for each labelled case's class and ``λ r_jc`` for the unlabelled cases (M-step), until
    no ``r_jc`` changes by more than ``tol`` or ``max_iter`` iterations have run.

    Parameters
    ----------
    model : naive Bayes estimator of nbcourse
        :class:`nbcourse.text.MultinomialNB`, :class:`nbcourse.naive_bayes.CategoricalNB`,
        :class:`nbcourse.naive_bayes.ProductOfBernoullisNB` or another model built on the
        library's base class :class:`nbcourse.naive_bayes.NaiveBayes`; it is cloned, not changed.
    X_labeled : array_like, shape (N_l, d)
    y_labeled : array_like, shape (N_l,)
        Labels of ``X_labeled``, at least two classes; the unlabelled cases are given these
        classes only.
    X_unlabeled : array_like, shape (N_u, d)
        Input of the model's kind (counts, codes or bits), the same ``d`` columns.
    unlabeled_weight : float, default 1.0
        ``λ >= 0``; ``0`` gives the labelled-only fit.
    max_iter : int, default 100
    tol : float, default 1e-6

    Returns
    -------
    SemiSupervisedFit

    Raises
    ------
    TypeError
        If ``model`` is not one of the library's naive Bayes models.
    ValueError
        If an argument has the wrong shape or values (the message names it).

    Examples
    --------
    With ``λ = 0`` the unlabelled cases change nothing.

    >>> from nbcourse.text import MultinomialNB
    >>> fit = fit_semi_supervised(MultinomialNB(), [[3, 0], [0, 3]], [0, 1], [[1, 1]],
    ...                           unlabeled_weight=0.0)
    >>> fit.n_iter, np.exp(fit.model.feature_log_prob_).round(2).tolist()
    (0, [[0.8, 0.2], [0.2, 0.8]])
    """
    if not isinstance(model, NaiveBayes):
        raise TypeError(f"model must be a naive Bayes estimator of nbcourse (MultinomialNB, "
                        f"CategoricalNB, ProductOfBernoullisNB, ...), got {type(model).__name__}")
    weight = as_real_array(unlabeled_weight, "unlabeled_weight")
    if weight.ndim != 0 or not (np.isfinite(weight) and weight >= 0):
        raise ValueError(f"unlabeled_weight must be a number >= 0, got {_describe(unlabeled_weight)}")
    weight = float(weight)
    max_iter = check_int(max_iter, "max_iter", 1)
    tol_arr = as_real_array(tol, "tol")
    if tol_arr.ndim != 0 or not (np.isfinite(tol_arr) and tol_arr > 0):
        raise ValueError(f"tol must be a number > 0, got {_describe(tol)}")
    model = clone(model)
    X_l, y_l = _checked(model, X_labeled, "X_labeled", y_labeled)
    X_u = _checked(model, X_unlabeled, "X_unlabeled")
    classes, codes = np.unique(y_l, return_inverse=True)
    Y_l = np.eye(classes.size)[codes]
    masked = np.ma.isMaskedArray(X_l) or np.ma.isMaskedArray(X_u)
    X_all = (np.ma.concatenate if masked else np.concatenate)([X_l, X_u])
    R = np.zeros((X_u.shape[0], classes.size))
    model._fit_memberships(X_all, np.vstack([Y_l, R]), classes)   # the labelled cases alone
    value, jll_u = _objective(model, X_l, codes, X_u, weight)
    history, converged, n_iter = [value], weight == 0, 0
    while weight > 0 and n_iter < max_iter:
        new = np.exp(log_normalise(jll_u, axis=1))
        if n_iter and float(np.max(np.abs(new - R))) <= tol_arr:
            converged = True
            break
        R = new
        model._fit_memberships(X_all, np.vstack([Y_l, weight * R]), classes)
        n_iter += 1
        value, jll_u = _objective(model, X_l, codes, X_u, weight)
        history.append(value)
    R = np.exp(log_normalise(jll_u, axis=1))                     # under the fitted model
    return SemiSupervisedFit(model, R, np.array(history), n_iter, converged)


def _checked(model, X, name, y=None):
    """``X`` (and ``y``) checked by ``model``'s own rules, errors prefixed with ``name``."""
    try:
        if y is not None:
            return model._check_input(X, reset=True, y=y)
        arr = _as_table(X, "X", model)
        if arr.shape[1] != model.n_features_in_:
            raise ValueError(f"X must have {model.n_features_in_} columns, as X_labeled has, "
                             f"got {arr.shape[1]}")
        return model._check_entries(arr, reset=True)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from exc
