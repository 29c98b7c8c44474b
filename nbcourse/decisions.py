"""Decisions from posteriors when errors have different costs.

With a loss ``λ(a | c)`` for taking action ``a`` when the class is ``c``, the conditional risk of
``a`` at ``x`` is ``R(a | x) = Σ_c λ(a | c) P(c | x)``, and the Bayes decision takes the action of
least risk (Duda, Hart & Stork 2001, §2.2): :func:`conditional_risk`,
:func:`minimum_risk_decision`.  With two classes and actions "decide class 0" and "decide class
1" the rule is a threshold on ``P(0 | x)`` (:func:`posterior_threshold`); with no cost for a
right decision it is ``λ(0 | 1) / (λ(0 | 1) + λ(1 | 0))``, the false alarm's cost over the sum of
both errors' costs (Elkan 2001).

Loss matrices follow :func:`nbcourse.binary.two_class_discriminant`: ``loss[a, c]`` is the loss
of action ``a`` (deciding class ``a``, 0-based) when the true class is ``c``.

Examples
--------
Missing class 0 costs 4, a false alarm 1: decide class 0 from a posterior of 0.2 upwards.

>>> loss = [[0, 1], [4, 0]]
>>> posterior_threshold(loss)
0.2
>>> minimum_risk_decision([[0.3, 0.7], [0.1, 0.9]], loss)
array([0, 1])
"""

from __future__ import annotations

import numpy as np

from ._validation import _describe, as_real_array, check_simplex

__all__ = ["conditional_risk", "minimum_risk_decision", "posterior_threshold"]


def _check_loss(loss, n_classes=None):
    lam = as_real_array(loss, "loss")
    if lam.ndim != 2 or lam.shape[1] < 2 or lam.shape[0] < 1 or not np.isfinite(lam).all():
        raise ValueError("loss must be a finite 2-d array, one row per action and one column "
                         f"per class (at least 2), got {_describe(lam)}")
    if n_classes is not None and lam.shape[1] != n_classes:
        raise ValueError(f"loss must have one column per class of proba ({n_classes}), "
                         f"got shape {lam.shape}")
    return lam


def conditional_risk(proba, loss):
    """``R(a | x_i) = Σ_c λ(a | c) P(c | x_i)`` for every case and action (Duda et al. 2001, §2.2).

    Parameters
    ----------
    proba : array_like, shape (N, C)
        Posteriors; rows sum to 1.
    loss : array_like, shape (A, C)
        ``loss[a, c] = λ(a | c)``.

    Returns
    -------
    numpy.ndarray, shape (N, A)

    Examples
    --------
    >>> conditional_risk([[0.3, 0.7]], [[0, 1], [4, 0]])
    array([[0.7, 1.2]])
    """
    p = check_simplex(proba, "proba")
    if p.ndim != 2:
        raise ValueError(f"proba must have shape (N, C), got shape {p.shape}")
    return p @ _check_loss(loss, p.shape[1]).T


def minimum_risk_decision(proba, loss):
    """The action of least conditional risk for every case (ties to the lowest action).

    With the zero-one loss (``1 - identity``) it is the class of largest posterior.

    Parameters
    ----------
    proba : array_like, shape (N, C)
    loss : array_like, shape (A, C)

    Returns
    -------
    numpy.ndarray of int64, shape (N,)
        Action codes ``0..A-1``.

    Examples
    --------
    >>> minimum_risk_decision([[0.5, 0.3, 0.2]], 1 - np.eye(3))
    array([0])
    >>> minimum_risk_decision([[0.5, 0.3, 0.2]], [[0, 1, 9], [1, 0, 9], [1, 1, 0]])
    array([2])
    """
    return np.argmin(conditional_risk(proba, loss), axis=1).astype(np.int64)


def posterior_threshold(loss) -> float:
    """The posterior of class 0 above which the two-class Bayes rule decides class 0.

    Deciding 0 has the lesser risk when
    ``P(0 | x) > (λ(0 | 1) - λ(1 | 1)) / [(λ(0 | 1) - λ(1 | 1)) + (λ(1 | 0) - λ(0 | 0))]``
    (Duda, Hart & Stork 2001, §2.2, written for the posterior).

    Parameters
    ----------
    loss : array_like, shape (2, 2)
        ``loss[a, c]``; each error must cost more than the right decision
        (``loss[1, 0] > loss[0, 0]`` and ``loss[0, 1] > loss[1, 1]``).

    Returns
    -------
    float in (0, 1)

    Raises
    ------
    ValueError
        If ``loss`` is not such a (2, 2) matrix.

    Examples
    --------
    >>> posterior_threshold(1 - np.eye(2))
    0.5
    """
    lam = _check_loss(loss)
    false_alarm, miss = lam[0, 1] - lam[1, 1], lam[1, 0] - lam[0, 0]
    if lam.shape != (2, 2) or false_alarm <= 0 or miss <= 0:
        raise ValueError("loss must be a (2, 2) matrix in which each error costs more than the "
                         "right decision (loss[1, 0] > loss[0, 0] and loss[0, 1] > loss[1, 1]), "
                         f"got {lam.tolist()}")
    return float(false_alarm / (false_alarm + miss))
