"""Priors that change between training and use: adjusting a classifier's posteriors, and
estimating the new priors from unlabelled cases by EM.

A classifier trained where the classes had priors ``π_c`` is used where they have priors
``π'_c``; the class-conditional distributions ``p(x | c)`` stay the same (*prior shift*, or
label shift).  Bayes' rule then gives the posteriors of the new setting from the old ones
(Saerens, Latinne & Decaestecker 2002):

``p'(c | x) = [π'_c / π_c] p(c | x) / Σ_k [π'_k / π_k] p(k | x)``   (:func:`adjust_posteriors`).

When the new priors are unknown, the unlabelled cases of the new setting estimate them:
:func:`em_priors` alternates the adjustment above (E-step) with the mean of the adjusted
posteriors (M-step), the EM algorithm of Saerens et al. (2002), which climbs the likelihood of
the unlabelled cases as a function of ``π'`` and converges to its maximum.  The posteriors must
be calibrated in the training setting for the estimate to be right.

Examples
--------
>>> proba = [[0.9, 0.1], [0.8, 0.2], [0.6, 0.4], [0.3, 0.7]]
>>> adjust_posteriors(proba, [0.5, 0.5], [0.2, 0.8]).round(3)
array([[0.692, 0.308],
       [0.5  , 0.5  ],
       [0.273, 0.727],
       [0.097, 0.903]])
>>> em = em_priors(proba + [[0.2, 0.8]], [0.5, 0.5])     # five new cases
>>> em.priors.round(3), em.converged
(array([0.703, 0.297]), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._logspace import logsumexp
from ._validation import _describe, as_real_array, check_int, check_simplex

__all__ = ["PriorEstimate", "adjust_posteriors", "em_priors", "prior_shift_log_likelihood"]


def _check_proba(proba):
    p = check_simplex(proba, "proba")
    if p.ndim != 2 or p.shape[0] == 0 or p.shape[1] < 2:
        raise ValueError(f"proba must have shape (N, C) with N >= 1 and C >= 2, one row of "
                         f"posteriors per case, got {_describe(p)}")
    return p


def _check_priors(priors, n_classes, name, *, positive):
    pi = check_simplex(priors, name)
    if pi.shape != (n_classes,):
        raise ValueError(f"{name} must have shape ({n_classes},), one prior per column of "
                         f"proba, got shape {pi.shape}")
    if positive and (pi <= 0).any():
        raise ValueError(f"{name} must be > 0 for every class (the adjustment divides by it), "
                         f"got {pi.tolist()}")
    return pi


def _log_weighted(proba, ratio):
    """``ln([π'_c/π_c] p(c | x))``, shape (N, C); ``-inf`` where either factor is 0."""
    with np.errstate(divide="ignore"):
        return np.log(proba) + np.log(ratio)


def adjust_posteriors(proba, train_priors, new_priors):
    """Posteriors under new class priors, from posteriors under the training priors.

    ``p'(c | x) ∝ [π'_c / π_c] p(c | x)``, normalised over the classes (Saerens, Latinne &
    Decaestecker 2002): Bayes' rule with the same ``p(x | c)`` and the priors ``π'``.
    Computed in log space.

    Parameters
    ----------
    proba : array_like, shape (N, C)
        Posteriors ``p(c | x_i)`` of a classifier in the training setting; rows sum to 1.
    train_priors : array_like, shape (C,)
        ``π_c``, the priors the posteriors were computed with, each ``> 0``.
    new_priors : array_like, shape (C,)
        ``π'_c``, the priors of the new setting (zeros allowed).

    Returns
    -------
    numpy.ndarray, shape (N, C)
        ``p'(c | x_i)``; rows sum to 1.

    Raises
    ------
    ValueError
        If the arguments are not probabilities of matching shapes, a training prior is 0, or
        a row gets probability 0 under every class of ``new_priors``.

    Examples
    --------
    >>> adjust_posteriors([[0.5, 0.5]], [0.5, 0.5], [0.9, 0.1])
    array([[0.9, 0.1]])
    """
    p = _check_proba(proba)
    pi = _check_priors(train_priors, p.shape[1], "train_priors", positive=True)
    pi_new = _check_priors(new_priors, p.shape[1], "new_priors", positive=False)
    log_w = _log_weighted(p, pi_new / pi)
    dead = np.isneginf(log_w).all(axis=1)
    if dead.any():
        raise ValueError(f"new_priors give rows {np.flatnonzero(dead)[:10].tolist()} of proba "
                         "probability 0 under every class")
    return np.exp(log_w - logsumexp(log_w, axis=1, keepdims=True))


def prior_shift_log_likelihood(proba, train_priors, new_priors) -> float:
    """Log likelihood of the cases under new priors, up to a constant that does not depend on them.

    ``ℓ(π') = Σ_i ln Σ_c [π'_c / π_c] p(c | x_i)``: with ``p(x | c)`` fixed,
    ``p'(x_i) = p(x_i) Σ_c [π'_c / π_c] p(c | x_i)``, and ``Σ_i ln p(x_i)`` does not depend on
    ``π'``.  :func:`em_priors` climbs it; ``ℓ(π) = 0`` at the training priors.

    Parameters
    ----------
    proba, train_priors, new_priors
        As in :func:`adjust_posteriors`.

    Returns
    -------
    float

    Examples
    --------
    >>> round(prior_shift_log_likelihood([[0.8, 0.2]], [0.5, 0.5], [0.9, 0.1]), 4)   # ln 1.48
    0.392
    """
    p = _check_proba(proba)
    pi = _check_priors(train_priors, p.shape[1], "train_priors", positive=True)
    pi_new = _check_priors(new_priors, p.shape[1], "new_priors", positive=False)
    return float(np.sum(logsumexp(_log_weighted(p, pi_new / pi), axis=1)))


@dataclass(frozen=True)
class PriorEstimate:
    """New class priors estimated by EM (see :func:`em_priors`).

    Attributes
    ----------
    priors : numpy.ndarray, shape (C,)
        The estimate of ``π'``.
    proba : numpy.ndarray, shape (N, C)
        The posteriors adjusted to ``priors``.
    log_likelihood : numpy.ndarray, shape (n_iter + 1,)
        :func:`prior_shift_log_likelihood` at the start and after each iteration;
        non-decreasing.
    n_iter : int
    converged : bool
        Whether the largest change of a prior in the last iteration was below ``tol``.
    """

    priors: np.ndarray
    proba: np.ndarray
    log_likelihood: np.ndarray
    n_iter: int
    converged: bool


def em_priors(proba, train_priors, *, max_iter=1000, tol=1e-8) -> PriorEstimate:
    """Estimate the class priors of new, unlabelled cases by EM (Saerens et al. 2002).

    Starting from ``π'^(0) = π`` (the training priors), each iteration adjusts the posteriors to
    the current priors (E-step, :func:`adjust_posteriors`) and takes their mean over the cases as
    the next priors (M-step):

    ``p^(s)(c | x_i) ∝ [π'^(s)_c / π_c] p(c | x_i)``,   ``π'^(s+1)_c = (1/N) Σ_i p^(s)(c | x_i)``.

    This is EM for the mixture ``p'(x) = Σ_c π'_c p(x | c)`` with the components known through
    the classifier, so the log likelihood :func:`prior_shift_log_likelihood` never decreases and
    the priors converge to its maximum.

    Parameters
    ----------
    proba : array_like, shape (N, C)
        Posteriors of the new cases under the training priors (a classifier's ``predict_proba``).
    train_priors : array_like, shape (C,)
        ``π``, each ``> 0``.
    max_iter : int, default 1000
    tol : float, default 1e-8
        Stop when no prior changes by more than ``tol`` in an iteration.

    Returns
    -------
    PriorEstimate

    Raises
    ------
    ValueError, TypeError
        For arguments of the wrong shape or value (see :func:`adjust_posteriors`), a
        ``max_iter`` that is not an integer ``>= 1`` or a ``tol`` that is not ``> 0``.

    Examples
    --------
    Three cases the classifier gives to class 0 with probability 0.8, one with 0.2: the new
    priors lean to class 0.

    >>> em = em_priors([[0.8, 0.2]] * 3 + [[0.2, 0.8]], [0.5, 0.5])
    >>> bool(em.priors[0] > 0.75), bool(np.all(np.diff(em.log_likelihood) >= 0))
    (True, True)
    """
    p = _check_proba(proba)
    pi = _check_priors(train_priors, p.shape[1], "train_priors", positive=True)
    max_iter = check_int(max_iter, "max_iter", 1)
    tol_arr = as_real_array(tol, "tol")
    if tol_arr.ndim != 0 or not (np.isfinite(tol_arr) and tol_arr > 0):
        raise ValueError(f"tol must be a number > 0, got {_describe(tol)}")
    estimate, history, converged = pi.copy(), [0.0], False
    for _ in range(max_iter):
        adjusted = adjust_posteriors(p, pi, estimate)
        new = adjusted.mean(axis=0)
        change = float(np.max(np.abs(new - estimate)))
        estimate = new
        history.append(prior_shift_log_likelihood(p, pi, estimate))
        if change < tol_arr:
            converged = True
            break
    return PriorEstimate(estimate, adjust_posteriors(p, pi, estimate), np.array(history),
                         len(history) - 1, converged)
