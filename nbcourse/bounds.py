"""``Q^{-v}``, ``f_j`` and the bounds of Williams (2024), §§1-2.

A feature ``x`` takes ``K`` values.  Under class ``c`` it has probabilities
``theta[c]`` on the simplex.  The book writes the value ``v = 1..K`` and the
entries ``θ_v``; the functions take the value **0-based** as the argument ``j``
(``j = v - 1``, named after the paper's letter).  One-hot encoding ``x`` and
treating the ``K`` bits as independent multiplies the likelihood of ``x = v`` by

    Q^{-v}(θ) = Π_{v'≠v} (1 - θ_v')   (eq. 4),

so the bits' likelihood is ``f_v(θ) = θ_v Q^{-v}(θ)``.  This module holds the one
implementation of eq. 4 (:func:`log_q_minus_from_terms`; every other place in the
library calls it), ``f_j``, the centre of a slice (eqs. 7-8) and the bounds
``θ_v² <= f_v(θ) <= θ_v [(K-2+θ_v)/(K-1)]^{K-1}`` (eqs. 9-10) with the
condition of eq. 13, and the signed comparison of the PoB and categorical
log likelihood ratios that eq. 13 speaks about (:func:`ratio_change`).

Shapes and numerics
-------------------
Every function broadcasts over leading axes (``theta`` of shape ``(..., K)``), so
one call evaluates millions of vectors without a Python loop.  ``Q^{-v}`` is
computed as ``exp(Σ_{v'≠v} log1p(-θ_v'))``: accurate when the ``θ_v'`` are tiny, and
an exact 0 (log ``-inf``) when some ``θ_v' = 1``.  Vectors that sum to 1 are
accepted within ``ROW_SUM_ATOL = 1e-8``.
"""

from __future__ import annotations

import numpy as np

from ._logspace import log, log1m
from ._validation import (
    as_real_array,
    check_index,
    check_n_categories,
    check_probabilities,
    check_theta,
)

__all__ = [
    "MORE_EXTREME",
    "RATIO_CHANGES",
    "REVERSED",
    "WEAKENED",
    "f_j",
    "guaranteed_more_extreme",
    "log_f_j",
    "log_q_minus_all",
    "log_q_minus_from_terms",
    "log_q_minus_j",
    "lower_bound",
    "q_minus_j",
    "q_minus_j_at_centre",
    "ratio_change",
    "theta_at_centre",
    "upper_bound",
]


# --- Q^{-v} and f_j ---------------------------------------------------------------------


def log_q_minus_j(theta, j):
    """``ln Q^{-v}(θ) = Σ_{v'≠v} ln(1 - θ_v')`` (Williams 2024, eq. 4, in log form).

    Parameters
    ----------
    theta : array_like, shape (..., K)
        Probability vectors (rows summing to 1 within 1e-8), ``K >= 2``.
    j : int
        The observed value, 0-based (``0 <= j < K``).

    Returns
    -------
    numpy.ndarray, shape (...)
        ``-inf`` exactly when some ``θ_v' = 1`` with ``v' ≠ v``.

    Examples
    --------
    >>> float(log_q_minus_j([0.5, 0.5, 0.0], 2))
    -1.3862943611198906
    """
    theta = check_theta(theta)
    j = check_index(j, theta.shape[-1])
    return log_q_minus_from_terms(log1m(theta))[..., j]


def q_minus_j(theta, j):
    """``Q^{-v}(θ) = Π_{v'≠v} (1 - θ_v')`` (Williams 2024, eq. 4).

    Computed as ``exp`` of :func:`log_q_minus_j`, so small ``θ_v'`` lose no
    precision and a ``θ_v' = 1`` (``v' ≠ v``) gives exactly 0.

    Parameters
    ----------
    theta : array_like, shape (..., K)
    j : int
        0-based value index.

    Returns
    -------
    numpy.ndarray, shape (...)

    Examples
    --------
    >>> q_minus_j([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]], 0)
    array([0.35, 1.  ])
    """
    return np.exp(log_q_minus_j(theta, j))


def log_q_minus_all(theta):
    """``ln Q^{-v}(θ)`` for every ``j`` at once (Williams 2024, eq. 4).

    Uses exclusive prefix and suffix sums of ``log1p(-θ_v')``, so no term is
    ever subtracted (no cancellation, no ``inf - inf``).

    Parameters
    ----------
    theta : array_like, shape (..., K)

    Returns
    -------
    numpy.ndarray, shape (..., K)
        Entry ``[..., j]`` is ``ln Q^{-v}(θ)``.

    Examples
    --------
    >>> np.exp(log_q_minus_all([0.5, 0.25, 0.25]))
    array([0.5625, 0.375 , 0.375 ])
    """
    return log_q_minus_from_terms(log1m(check_theta(theta)))


def log_q_minus_from_terms(log1m_theta, axis: int = -1):
    """``ln Q^{-v} = Σ_{v'≠v} ln(1 - θ_v')`` for every ``j``, from the terms ``ln(1 - θ_v')`` (Williams 2024, eq. 4).

    The one implementation of eq. 4: :func:`log_q_minus_j`,
    :func:`log_q_minus_all`, the posteriors of eq. 3 and the experiments all
    call it.  It adds exclusive prefix and suffix sums of the terms, so no term
    is ever subtracted: no cancellation and no ``inf - inf`` when some
    ``θ_v' = 1`` (then ``Q^{-v'} = 1`` exactly if the other entries are 0, and
    ``Q^{-v} = 0`` for every ``v ≠ v'``).

    Parameters
    ----------
    log1m_theta : numpy.ndarray
        ``ln(1 - θ_v')`` along ``axis`` (values ``<= 0``, ``-inf`` allowed).
    axis : int, default -1
        The axis of the ``K`` values.

    Returns
    -------
    numpy.ndarray, same shape
        Entry ``j`` along ``axis`` is ``ln Q^{-v}``.

    Examples
    --------
    >>> np.exp(log_q_minus_from_terms(np.log1p(-np.array([0.5, 0.25, 0.25]))))
    array([0.5625, 0.375 , 0.375 ])
    """
    terms = np.moveaxis(np.asarray(log1m_theta, dtype=float), axis, 0)  # a view, K first
    out = np.empty_like(terms)
    out[0, ...] = 0.0
    for k in range(1, terms.shape[0]):  # sums before j: a loop over K of whole slices
        np.add(out[k - 1, ...], terms[k - 1, ...], out=out[k, ...])
    after = np.zeros_like(terms[0, ...])
    for k in range(terms.shape[0] - 2, -1, -1):  # plus sums after j
        after += terms[k + 1, ...]
        out[k, ...] += after
    return np.moveaxis(out, 0, axis)


def log_f_j(theta, j):
    """``ln f_v(θ) = ln θ_v + ln Q^{-v}(θ)`` (Williams 2024, §2).

    Parameters
    ----------
    theta : array_like, shape (..., K)
    j : int
        0-based value index.

    Returns
    -------
    numpy.ndarray, shape (...)
        ``-inf`` where ``f_v(θ) = 0``.

    Examples
    --------
    >>> float(np.exp(log_f_j([0.5, 0.5], 0)))
    0.25
    """
    theta = check_theta(theta)
    j = check_index(j, theta.shape[-1])
    return log(theta[..., j]) + log_q_minus_j(theta, j)


def f_j(theta, j):
    """``f_v(θ) = θ_v Q^{-v}(θ)``, the PoB likelihood of ``x̃ = e_v`` (Williams 2024, eq. 1, §2).

    Parameters
    ----------
    theta : array_like, shape (..., K)
    j : int
        0-based value index.

    Returns
    -------
    numpy.ndarray, shape (...)
        Lies between :func:`lower_bound` and :func:`upper_bound` of ``θ_v``.

    Examples
    --------
    >>> f_j([[0.2, 0.3, 0.5]], 2)
    array([0.28])
    """
    return np.exp(log_f_j(theta, j))


# --- bounds (section 1 and 2) ----------------------------------------------------------


def _check_theta_j(theta_j, name: str = "theta_j") -> np.ndarray:
    return check_probabilities(theta_j, name)


def _log_centre_factor(theta_j: np.ndarray, K: int) -> np.ndarray:
    """``(K-1) ln[(K-2+θ_v)/(K-1)]``, computed as ``(K-1) log1p((θ_v-1)/(K-1))``."""
    with np.errstate(divide="ignore"):
        return (K - 1) * np.log1p((theta_j - 1.0) / (K - 1))


def q_minus_j_at_centre(theta_j, K):
    """Maximum of ``Q^{-v}`` over the slice with ``θ_v`` fixed (Williams 2024, eq. 8).

    The maximum is at the centre of the slice, ``θ_v' = (1-θ_v)/(K-1)`` for
    ``v' ≠ v`` (eq. 7), where ``Q^{-v} = [(K-2+θ_v)/(K-1)]^{K-1}``.

    Parameters
    ----------
    theta_j : array_like, any shape
        Values in [0, 1].
    K : int
        Number of categories, ``K >= 2``.

    Returns
    -------
    numpy.ndarray, same shape as ``theta_j``

    Examples
    --------
    >>> q_minus_j_at_centre([0.0, 1.0], 3)
    array([0.25, 1.  ])
    """
    theta_j = _check_theta_j(theta_j)
    K = check_n_categories(K)
    return np.exp(_log_centre_factor(theta_j, K))


def theta_at_centre(theta_j, K, j=0):
    """The centre of the slice ``{θ on the simplex : θ_v fixed}`` (Williams 2024, eq. 7).

    Parameters
    ----------
    theta_j : array_like, any shape
    K : int
        ``K >= 2``.
    j : int, default 0
        0-based position of the fixed coordinate.

    Returns
    -------
    numpy.ndarray, shape ``theta_j.shape + (K,)``
        ``θ_v`` at position ``j`` and ``(1-θ_v)/(K-1)`` elsewhere.

    Examples
    --------
    >>> theta_at_centre(0.4, 4, j=1)
    array([0.2, 0.4, 0.2, 0.2])
    """
    theta_j = _check_theta_j(theta_j)
    K = check_n_categories(K)
    j = check_index(j, K)
    out = np.repeat(((1.0 - theta_j) / (K - 1))[..., None], K, axis=-1)
    out[..., j] = theta_j
    return out


def lower_bound(theta_j):
    """Lower bound ``ℓ(θ_v) = θ_v²`` on ``f_v(θ)`` (Williams 2024, eq. 9).

    Attained at the corners of the slice (all of ``1-θ_v`` on one other value).

    Parameters
    ----------
    theta_j : array_like, any shape
        Values in [0, 1].

    Returns
    -------
    numpy.ndarray, same shape

    Examples
    --------
    >>> lower_bound([0.5, 1.0])
    array([0.25, 1.  ])
    """
    theta_j = _check_theta_j(theta_j)
    return theta_j**2


def upper_bound(theta_j, K):
    """Upper bound ``u(θ_v) = θ_v [(K-2+θ_v)/(K-1)]^{K-1}`` on ``f_v(θ)`` (Williams 2024, eq. 10).

    Parameters
    ----------
    theta_j : array_like, any shape
        Values in [0, 1].
    K : int
        Number of categories, ``K >= 2``.

    Returns
    -------
    numpy.ndarray, same shape

    Examples
    --------
    >>> upper_bound([0.0, 0.5, 1.0], 3)
    array([0.     , 0.28125, 1.     ])
    """
    theta_j = _check_theta_j(theta_j)
    return theta_j * q_minus_j_at_centre(theta_j, K)


def guaranteed_more_extreme(theta_jc, theta_jd, K):
    """Whether ``f_v(θ_c)/f_v(θ_c')`` must exceed ``θ_vc/θ_vc'`` (Williams 2024, eq. 13).

    The condition ``θ_vc > [(K-2+θ_vc')/(K-1)]^{K-1}`` makes ``ℓ(θ_vc)/u(θ_vc')``,
    a lower bound on the ratio of ``f_j`` values (eq. 12), exceed ``θ_vc/θ_vc'``.
    It depends on ``θ_vc`` and ``θ_vc'`` only; it is sufficient, not necessary.

    Parameters
    ----------
    theta_jc, theta_jd : array_like, broadcastable
        ``θ_v`` under classes ``c`` and ``c'``, in [0, 1].
    K : int
        ``K >= 2``.

    Returns
    -------
    numpy.ndarray of bool, the broadcast shape

    Examples
    --------
    >>> guaranteed_more_extreme([0.9, 0.3], 0.1, 3)
    array([ True, False])
    """
    theta_jc = check_probabilities(theta_jc, "theta_jc")
    theta_jd = check_probabilities(theta_jd, "theta_jd")
    return theta_jc > q_minus_j_at_centre(theta_jd, K)


# --- more extreme, weakened or reversed -------------------------------------------------

#: Codes returned by :func:`ratio_change`.
MORE_EXTREME, WEAKENED, REVERSED = 1, 0, -1

#: Readable name of each code of :func:`ratio_change`.
RATIO_CHANGES = {MORE_EXTREME: "more extreme", WEAKENED: "weakened", REVERSED: "reversed"}


def ratio_change(log_theta_ratio, log_f_ratio):
    """Whether the PoB log ratio is more extreme than the categorical one, signed (Williams 2024, eq. 13).

    With ``x = ln(θ_vc/θ_vc')`` and ``y = ln(f_v(θ_c)/f_v(θ_c'))``, "more extreme"
    has the direction of eqs. 12-13: for ``θ_vc > θ_vc'`` the PoB ratio exceeds
    the categorical one, ``y > x > 0``; for ``θ_vc < θ_vc'``, ``y < x < 0``.
    A ``y`` of the opposite sign to ``x`` favours the other class: the
    evidence is *reversed*, however large ``|y|`` is.

    Parameters
    ----------
    log_theta_ratio, log_f_ratio : array_like, broadcastable
        ``x`` and ``y`` (no NaN; infinite values are compared as they are).

    Returns
    -------
    numpy.ndarray of int, the broadcast shape
        :data:`MORE_EXTREME` (1) where ``x y >= 0`` and ``|y| > |x|`` (so ``x = 0``
        with ``y ≠ 0`` counts as more extreme); :data:`REVERSED` (-1) where
        ``x y < 0``; :data:`WEAKENED` (0) otherwise: same direction (or zero)
        and ``|y| <= |x|``, ties included.

    Examples
    --------
    >>> ratio_change([1.0, 1.0, 1.0, -1.0, -1.0], [2.0, 0.5, -2.0, -1.5, 0.2])
    array([ 1,  0, -1,  1, -1])
    """
    x = as_real_array(log_theta_ratio, "log_theta_ratio")
    y = as_real_array(log_f_ratio, "log_f_ratio")
    try:
        x, y = np.broadcast_arrays(x, y)
    except ValueError:
        raise ValueError("log_theta_ratio and log_f_ratio must broadcast to one shape, "
                         f"got {x.shape} and {y.shape}") from None
    out = np.where(np.abs(y) > np.abs(x), MORE_EXTREME, WEAKENED)
    out[np.sign(x) * np.sign(y) < 0] = REVERSED
    return out
