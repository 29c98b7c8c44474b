"""Bayes decisions with independent binary features: Duda, Hart & Stork (2001), §2.9.

A feature vector ``x`` lies on a corner of the cube ``{0, 1}^d``.  Under class
``ω_c`` each bit is an independent Bernoulli variable with ``P[c, j] = P(x_j = 1 | ω_c)``,
so (eq. 86)

    P(x | ω_c) = Π_j P[c, j]^{x_j} (1 - P[c, j])^{1 - x_j},

and the log of ``P(x | ω_c) P(ω_c)`` is *linear* in ``x`` (eqs. 87–91):

    g_c(x) = Σ_j w_cj x_j + w_c0,   w_cj = ln(P[c, j] / (1 - P[c, j])),
    w_c0 = Σ_j ln(1 - P[c, j]) + ln P(ω_c).

For two classes, with ``p_j = P(x_j = 1 | ω_1)`` and ``q_j = P(x_j = 1 | ω_2)``,
the difference ``g(x) = g_1(x) - g_2(x)`` has (eqs. 89–91)

    w_j = ln[p_j (1 - q_j) / (q_j (1 - p_j))],
    w_0 = Σ_j ln[(1 - p_j) / (1 - q_j)] + ln[P(ω_1) / P(ω_2)],

and ``g(x) > 0`` decides ``ω_1``.

Certain features (a probability of exactly 0 or 1)
--------------------------------------------------
If ``p_j = 1`` the mathematics gives ``w_j = +∞`` *and* a ``-∞`` contribution to
``w_0``: the bit ``x_j = 0`` rules ``ω_1`` out, and the bit ``x_j = 1`` must
cancel that.  A linear form cannot carry ``∞ - ∞``, so the functions that return
weights (:func:`two_class_discriminant`, :func:`binary_discriminant`) refuse such
parameters with a ``ValueError`` that points to smoothing (``alpha > 0`` in
:func:`estimate_binary`).  The functions that work with the Bernoulli product
directly (:func:`log_likelihood_binary`, :func:`log_joint_binary`,
:func:`log_posterior_binary`, :func:`log_posterior_ratio`) accept 0 and 1 and
return the exact answer, including ``-inf`` log probabilities and ``±inf`` log
ratios.  Where *every* class gives the observation probability 0 the posterior
does not exist and they raise a ``ValueError`` that lists the offending rows.

Prior probabilities of 0 are allowed: they give ``w_c0 = -inf`` (class never
chosen), which is harmless because the weights stay finite.

Minimum risk
------------
With a loss matrix ``λ[i, j]`` (the loss of deciding ``ω_{i+1}`` when the true
class is ``ω_{j+1}``) the Bayes rule minimises the conditional risk
``R(α_i | x) = Σ_j λ[i, j] P(ω_j | x)`` (Duda, Hart & Stork 2001, §2.9, after
§2.2).  For two classes it decides ``ω_1`` when
``(λ[1, 0] - λ[0, 0]) P(ω_1 | x) > (λ[0, 1] - λ[1, 1]) P(ω_2 | x)``, so the
weights stay those of eq. 90 and only the bias gains
``ln[(λ[1, 0] - λ[0, 0]) / (λ[0, 1] - λ[1, 1])]``:
``two_class_discriminant(..., loss=λ)``.

Logistic regression
-------------------
The discriminative fit of the same two-class family ``P(ω_1 | x) = σ(w·x + w_0)``
maximises the conditional log-likelihood of targets ``t_n`` (1 for ``ω_1``, 0 for
``ω_2``), ``ℓ(w, w_0) = Σ_n [t_n g_n - ln(1 + e^{g_n})]`` with ``g_n = w·x_n + w_0``
(Murphy 2022, ch. 10): :func:`logistic_log_likelihood`, its gradient
:func:`logistic_gradient`, and plain gradient ascent :func:`logistic_gradient_ascent`,
which records the weights at every step (to watch them run off when the classes
are separable).
"""

from __future__ import annotations

import numpy as np

from ._logspace import log, log1m, log_normalise
from ._validation import (
    _describe,
    as_real_array,
    check_alpha,
    check_binary,
    check_labels,
    check_probabilities,
    check_same_shape,
    check_simplex,
)
from .smoothing import bernoulli_smoothed

__all__ = [
    "binary_discriminant",
    "cube_corners",
    "decide",
    "estimate_binary",
    "linear_discriminant",
    "log_joint_binary",
    "log_likelihood_binary",
    "log_likelihood_bits",
    "log_posterior_binary",
    "log_posterior_ratio",
    "logistic_gradient",
    "logistic_gradient_ascent",
    "logistic_log_likelihood",
    "two_class_discriminant",
]

#: Largest dimension accepted by :func:`cube_corners` (2**20 rows).
MAX_CUBE_DIM = 20


def _refuse_certain(P: np.ndarray, name: str) -> None:
    """Raise if any feature probability is exactly 0 or 1 (infinite weight)."""
    certain = (P == 0) | (P == 1)
    if certain.any():
        idx = tuple(int(i) for i in np.argwhere(certain)[0])
        raise ValueError(
            f"{name} has a feature probability of exactly {P[idx].item():g} at {idx}: its linear "
            "weight would be infinite and the bias would contain -inf, so g(x) = w·x + w0 "
            "is undefined (inf - inf). Smooth the estimate (estimate_binary(..., alpha>0)) "
            "or use log_posterior_ratio / log_posterior_binary, which handle 0 and 1 exactly."
        )


def _check_priors(priors, n_classes: int, name: str = "priors") -> np.ndarray:
    pri = check_simplex(priors, name)
    if pri.shape != (n_classes,):
        raise ValueError(
            f"{name} must have shape ({n_classes},) (one prior per class), got {pri.shape}"
        )
    return pri


def _check_prior1(prior1) -> float:
    pr = check_probabilities(prior1, "prior1")
    if pr.ndim != 0:
        raise ValueError(f"prior1 must be a scalar probability, got shape {pr.shape}")
    return float(pr)


def two_class_discriminant(p, q, prior1=0.5, *, loss=None):
    """Weights of the two-class linear discriminant for independent binary features.

    Duda, Hart & Stork (2001), §2.9.1, eqs. 89–91: ``g(x) = w·x + w0``, and
    ``g(x) > 0`` decides ``ω_1``.  Without ``loss``, ``g(x)`` equals the log
    posterior ratio ``ln P(ω_1 | x) / P(ω_2 | x)`` (minimum error rate); with a
    loss matrix, ``g(x) > 0`` is the minimum-risk decision and ``g(x)`` is the
    log posterior ratio plus ``ln[(λ21 - λ11) / (λ12 - λ22)]``.

    Parameters
    ----------
    p : array_like, shape (d,)
        ``p[j] = P(x_j = 1 | ω_1)``, each strictly between 0 and 1.
    q : array_like, shape (d,)
        ``q[j] = P(x_j = 1 | ω_2)``, each strictly between 0 and 1.
    prior1 : float, default 0.5
        ``P(ω_1)``; ``P(ω_2) = 1 - prior1``.  0 or 1 give ``w0 = ∓inf``.
    loss : array_like, shape (2, 2), optional
        ``loss[c, c']`` is the loss of deciding ``ω_{c+1}`` when the true class
        is ``ω_{c'+1}`` (the book's ``λ_cc'`` with 0-based indices).  An error must
        cost more than the correct decision: ``loss[1, 0] > loss[0, 0]`` and
        ``loss[0, 1] > loss[1, 1]``.  ``None`` (default) is the zero-one loss.

    Returns
    -------
    w : numpy.ndarray, shape (d,)
        ``w[j] = ln[p_j (1 - q_j) / (q_j (1 - p_j))]`` (eq. 90); the loss
        does not change it.
    w0 : float
        ``Σ_j ln[(1 - p_j)/(1 - q_j)] + ln[prior1 / (1 - prior1)]`` (eq. 91),
        plus ``ln[(loss[1, 0] - loss[0, 0]) / (loss[0, 1] - loss[1, 1])]``
        when ``loss`` is given.

    Raises
    ------
    ValueError
        If a probability is outside [0, 1], NaN, or exactly 0 or 1 (the weight
        would be infinite; see the module notes), if shapes differ, or if
        ``loss`` is not a finite (2, 2) matrix in which each error costs more
        than the correct decision.

    Examples
    --------
    Duda, Hart & Stork, Example 3: three features with ``p_j = 0.8`` and ``q_j = 0.5``.

    >>> w, w0 = two_class_discriminant([0.8, 0.8, 0.8], [0.5, 0.5, 0.5])
    >>> np.round(w, 4), round(w0, 4)
    (array([1.3863, 1.3863, 1.3863]), -2.7489)

    Missing ``ω_1`` costs 4, a false alarm 1: the bias rises by ``ln 4``.

    >>> w, w0 = two_class_discriminant([0.8] * 3, [0.5] * 3, loss=[[0, 1], [4, 0]])
    >>> round(w0, 4), round(3 * float(np.log(0.4)) + float(np.log(4)), 4)
    (-1.3626, -1.3626)
    """
    p = check_probabilities(p, "p")
    q = check_probabilities(q, "q")
    if p.ndim != 1:
        raise ValueError(f"p must be a 1-d array of d feature probabilities, got shape {p.shape}")
    check_same_shape(p, q, "p", "q")
    _refuse_certain(p, "p")
    _refuse_certain(q, "q")
    pr = _check_prior1(prior1)
    w = (np.log(p) - np.log1p(-p)) - (np.log(q) - np.log1p(-q))
    w0 = float(np.sum(np.log1p(-p) - np.log1p(-q)) + log(pr) - log1m(pr))
    if loss is not None:
        w0 += _loss_log_ratio(loss)
    return w, w0


def _loss_log_ratio(loss) -> float:
    """``ln[(λ21 - λ11) / (λ12 - λ22)]``, the shift of the bias by a loss matrix.

    Duda, Hart & Stork (2001), §2.9 with the minimum-risk rule of §2.2: decide
    ``ω_1`` when ``(λ21 - λ11) P(ω_1 | x) > (λ12 - λ22) P(ω_2 | x)``.
    """
    lam = as_real_array(loss, "loss")
    if lam.shape != (2, 2) or not np.isfinite(lam).all():
        raise ValueError(f"loss must be a finite (2, 2) matrix, got {_describe(loss)}")
    miss, false_alarm = lam[1, 0] - lam[0, 0], lam[0, 1] - lam[1, 1]
    if miss <= 0 or false_alarm <= 0:
        raise ValueError(
            "loss must be a (2, 2) matrix in which each error costs more than the correct "
            "decision (loss[1, 0] > loss[0, 0] and loss[0, 1] > loss[1, 1]), got "
            f"{lam.tolist()}"
        )
    return float(np.log(miss) - np.log(false_alarm))


def binary_discriminant(P, priors):
    """Weights of the multi-class linear discriminants ``g_c(x) = W[c]·x + w0[c]``.

    Duda, Hart & Stork (2001), §2.9.1: ``g_c(x) = ln P(x | ω_c) + ln P(ω_c)``
    with independent binary features is linear in ``x``; the largest ``g_c``
    gives the Bayes decision.

    Parameters
    ----------
    P : array_like, shape (C, d)
        ``P[c, j] = P(x_j = 1 | ω_c)``, each strictly between 0 and 1.
    priors : array_like, shape (C,)
        Prior probabilities ``P(ω_c)``, summing to 1 (within 1e-8); zeros allowed.

    Returns
    -------
    W : numpy.ndarray, shape (C, d)
        ``W[c, j] = ln(P[c, j] / (1 - P[c, j]))``, the log-odds.
    w0 : numpy.ndarray, shape (C,)
        ``w0[c] = Σ_j ln(1 - P[c, j]) + ln P(ω_c)``.

    Raises
    ------
    ValueError
        On probabilities outside [0, 1] or exactly 0 or 1, priors off the
        simplex, or mismatched shapes.

    Examples
    --------
    >>> W, w0 = binary_discriminant([[0.5, 0.8], [0.5, 0.2]], [0.5, 0.5])
    >>> np.round(W, 4)
    array([[ 0.    ,  1.3863],
           [ 0.    , -1.3863]])
    >>> np.round(w0, 4)
    array([-2.9957, -1.6094])
    """
    P = check_probabilities(P, "P")
    if P.ndim != 2:
        raise ValueError(f"P must be a 2-d array of shape (C, d), got shape {P.shape}")
    _refuse_certain(P, "P")
    pri = _check_priors(priors, P.shape[0])
    W = np.log(P) - np.log1p(-P)
    w0 = np.log1p(-P).sum(axis=1) + log(pri)
    return W, w0


def estimate_binary(X, y, alpha=0.0):
    """Estimate Bernoulli parameters and class priors from labelled binary data.

    ``P[c, j] = (N_cj + alpha) / (N_c + 2 alpha)``, by
    :func:`nbcourse.smoothing.bernoulli_smoothed`, where ``N_cj`` counts the
    samples of class ``c`` with ``x_j = 1`` and ``N_c`` the samples of class
    ``c``; ``alpha = 0`` is the maximum-likelihood estimate, ``alpha = 1``
    Laplace smoothing.  Priors are class frequencies ``N_c / N``
    (Duda, Hart & Stork 2001, §2.9).

    Parameters
    ----------
    X : array_like, shape (N, d)
        Bits 0/1.
    y : array_like, shape (N,)
        Class labels; at least two classes.  Classes are ordered as
        ``numpy.unique(y)``, which is the row order of ``P`` and ``priors``.
    alpha : float, default 0.0
        Additive smoothing, ``alpha >= 0``.

    Returns
    -------
    P : numpy.ndarray, shape (C, d)
    priors : numpy.ndarray, shape (C,)

    Examples
    --------
    >>> X = [[1, 0], [1, 1], [0, 0], [0, 1]]
    >>> P, priors = estimate_binary(X, [0, 0, 1, 1], alpha=1.0)
    >>> P
    array([[0.75, 0.5 ],
           [0.25, 0.5 ]])
    >>> priors
    array([0.5, 0.5])
    """
    X = check_binary(X, "X")
    y = check_labels(y, X.shape[0])
    alpha = check_alpha(alpha)
    classes, y_index = np.unique(y, return_inverse=True)
    onehot_y = np.eye(classes.size)[y_index]  # (N, C)
    N_c = onehot_y.sum(axis=0)
    N_cj = onehot_y.T @ X
    return bernoulli_smoothed(N_cj, N_c[:, None], alpha), N_c / N_c.sum()


def cube_corners(d):
    """All ``2**d`` corners of the cube ``{0, 1}^d``, one per row.

    Rows are in binary counting order with the first feature most significant,
    so row ``r`` is the binary expansion of ``r``.

    Parameters
    ----------
    d : int
        Dimension, ``1 <= d <= 20``.

    Returns
    -------
    numpy.ndarray of int64, shape (2**d, d)

    Examples
    --------
    >>> cube_corners(2)
    array([[0, 0],
           [0, 1],
           [1, 0],
           [1, 1]])
    """
    if isinstance(d, bool | np.bool_) or not isinstance(d, int | np.integer):
        raise TypeError(f"d must be an integer dimension, got {d!r}")
    if not 1 <= d <= MAX_CUBE_DIM:
        raise ValueError(f"d must satisfy 1 <= d <= {MAX_CUBE_DIM}, got {d}")
    r = np.arange(2**d)[:, None]
    shifts = np.arange(d - 1, -1, -1)
    return (r >> shifts) & 1


def log_likelihood_binary(X, P):
    """Log class-conditional probabilities ``ln P(x | ω_c)`` by the Bernoulli product.

    Duda, Hart & Stork (2001), eq. 86, in log form: a sum of ``ln P[c, j]``
    over the bits that are 1 and ``ln(1 - P[c, j])`` (via ``log1p``) over the bits
    that are 0, evaluated by :func:`log_likelihood_bits`.  Probabilities of exactly
    0 or 1 are handled exactly: an impossible bit gives ``-inf``, never NaN.

    Parameters
    ----------
    X : array_like, shape (N, d)
        Bits 0/1.
    P : array_like, shape (C, d)
        ``P[c, j] = P(x_j = 1 | ω_c)`` in [0, 1].

    Returns
    -------
    numpy.ndarray, shape (N, C)

    Examples
    --------
    >>> np.exp(log_likelihood_binary([[1, 0]], [[0.8, 0.5], [1.0, 1.0]]))
    array([[0.4, 0. ]])
    """
    X = check_binary(X, "X")
    P = check_probabilities(P, "P")
    if P.ndim != 2 or P.shape[1] != X.shape[1]:
        raise ValueError(
            f"P must have shape (C, {X.shape[1]}) to match X with {X.shape[1]} features, "
            f"got shape {P.shape}"
        )
    # term by term, so that chapter 2's comparison with the linear discriminant compares two
    # different computations
    return log_likelihood_bits(X, log(P), log1m(P), linear=False)


def log_likelihood_bits(B, log_on, log_off, observed=None, *, linear=True):
    """Log Bernoulli likelihoods ``ln P(b | ω_c)`` from stored log probabilities.

    The product of Duda, Hart & Stork (2001), eq. 86, in log form.  With every log
    probability finite (and ``linear``), it is evaluated in the linear form
    ``B·(ln p - ln(1 - p)) + Σ ln(1 - p)`` (their eq. 87), one matrix product, as the
    product-of-Bernoullis estimators do; otherwise as the sum of the selected terms,
    so that an impossible bit gives ``-inf`` and never ``0·(-inf)``.  The two agree
    to rounding.  With ``observed``, a bit that is not observed contributes no factor
    (it is summed out, Duda, Hart & Stork §2.10).

    Parameters
    ----------
    B : numpy.ndarray, shape (N, d)
        Bits 0/1 (checked by the caller).
    log_on, log_off : numpy.ndarray, shape (C, d)
        ``ln P(b_j = 1 | ω_c)`` and ``ln P(b_j = 0 | ω_c)``.
    observed : numpy.ndarray of bool, shape (N, d), optional
        ``False`` where a bit is missing.
    linear : bool, default True
        ``False`` sums the selected terms even when every probability is inside (0, 1).

    Returns
    -------
    numpy.ndarray, shape (N, C)

    Examples
    --------
    >>> on, off = np.log([[0.8, 0.5], [1.0, 1.0]]), log1m([[0.8, 0.5], [1.0, 1.0]])
    >>> np.exp(log_likelihood_bits(np.array([[1, 0]]), on, off))
    array([[0.4, 0. ]])
    >>> np.exp(log_likelihood_bits(np.array([[1, 0]]), on, off, observed=np.array([[True, False]])))
    array([[0.8, 1. ]])
    """
    if observed is None and linear and np.isfinite(log_on).all() and np.isfinite(log_off).all():
        return B @ (log_on - log_off).T + log_off.sum(axis=1)
    terms = np.where(B[:, None, :] == 1, log_on[None], log_off[None])  # (N, C, d)
    if observed is not None:
        terms = np.where(observed[:, None, :], terms, 0.0)
    return terms.sum(axis=2)


def log_joint_binary(X, P, priors):
    """``ln P(x | ω_c) + ln P(ω_c)`` for every row of ``X`` and every class.

    This is ``g_c(x)`` of Duda, Hart & Stork (2001), eq. 87, computed directly
    from the Bernoulli product rather than from the linear weights, so it is
    exact when a probability is 0 or 1.

    Parameters
    ----------
    X : array_like, shape (N, d)
    P : array_like, shape (C, d)
    priors : array_like, shape (C,)

    Returns
    -------
    numpy.ndarray, shape (N, C)

    Examples
    --------
    >>> np.round(log_joint_binary([[1]], [[0.5], [0.25]], [0.5, 0.5]), 4)
    array([[-1.3863, -2.0794]])
    """
    ll = log_likelihood_binary(X, P)
    return ll + log(_check_priors(priors, ll.shape[1]))[None, :]


def log_posterior_binary(X, P, priors):
    """Log posteriors ``ln P(ω_c | x)`` for independent binary features.

    The log joint of :func:`log_joint_binary` normalised with ``logsumexp``.

    Parameters
    ----------
    X : array_like, shape (N, d)
    P : array_like, shape (C, d)
    priors : array_like, shape (C,)

    Returns
    -------
    numpy.ndarray, shape (N, C)
        ``exp`` of each row sums to 1.

    Raises
    ------
    ValueError
        If for some row every class has probability 0 (the posterior does not exist).

    Examples
    --------
    >>> np.exp(log_posterior_binary([[1]], [[0.6], [0.2]], [0.5, 0.5]))
    array([[0.75, 0.25]])
    """
    lj = log_joint_binary(X, P, priors)
    return log_normalise(lj, axis=1)


def log_posterior_ratio(X, p, q, prior1=0.5):
    """``ln[P(ω_1 | x) / P(ω_2 | x)]`` from the product of Bernoulli terms.

    The quantity that the two-class discriminant ``g(x)`` of
    :func:`two_class_discriminant` reproduces linearly (Duda, Hart & Stork
    2001, eqs. 89–91), computed here without the linear form so that ``p`` or
    ``q`` may be 0 or 1: the result is ``+inf`` when only ``ω_2`` is ruled out
    and ``-inf`` when only ``ω_1`` is.

    Parameters
    ----------
    X : array_like, shape (N, d) or (d,)
        Bits 0/1; a single vector gives a scalar-shaped result.
    p, q : array_like, shape (d,)
        ``P(x_j = 1 | ω_1)`` and ``P(x_j = 1 | ω_2)``.
    prior1 : float, default 0.5

    Returns
    -------
    numpy.ndarray, shape (N,), or float for a single vector

    Raises
    ------
    ValueError
        If both classes give some row probability 0 (the ratio is undefined).

    Examples
    --------
    >>> round(float(log_posterior_ratio([1, 1, 1], [0.8] * 3, [0.5] * 3)), 4)
    1.41
    >>> log_posterior_ratio([0, 1], [1.0, 0.5], [0.5, 0.5])
    -inf
    """
    X_arr = check_binary(X, "X", ndim=None)
    if X_arr.ndim not in (1, 2):
        raise ValueError(f"X must be 1-d or 2-d, got shape {X_arr.shape}")
    single = X_arr.ndim == 1
    p = check_probabilities(p, "p")
    q = check_probabilities(q, "q")
    if p.ndim != 1:
        raise ValueError(f"p must be a 1-d array of d feature probabilities, got shape {p.shape}")
    check_same_shape(p, q, "p", "q")
    pr = _check_prior1(prior1)
    lj = log_joint_binary(np.atleast_2d(X_arr), np.stack([p, q]), [pr, 1.0 - pr])
    log_normalise(lj, axis=1)  # raises where no class can have produced a row
    with np.errstate(invalid="ignore"):  # inf - inf cannot occur after the check above
        ratio = lj[:, 0] - lj[:, 1]
    return float(ratio[0]) if single else ratio


def linear_discriminant(X, W, w0):
    """Evaluate linear discriminants ``g(x) = W·x + w0`` on rows of ``X``.

    Parameters
    ----------
    X : array_like, shape (N, d)
    W : array_like, shape (C, d) or (d,)
        A weight matrix (one row per class) or a single two-class weight vector.
    w0 : array_like, shape (C,) or ()

    Returns
    -------
    numpy.ndarray, shape (N, C) or (N,)

    Examples
    --------
    >>> linear_discriminant([[1, 0], [1, 1]], [1.0, -2.0], 0.5)
    array([ 1.5, -0.5])
    """
    X = _as_float_features(X)
    W = np.asarray(W, dtype=np.float64)
    if W.shape[-1] != X.shape[1]:
        raise ValueError(
            f"W must have {X.shape[1]} columns to match X, got shape {W.shape}"
        )
    w0 = np.asarray(w0, dtype=np.float64)
    if W.ndim > 2 or w0.shape != W.shape[:-1]:
        raise ValueError(
            f"w0 must have shape {W.shape[:-1]} (one bias per row of W of shape {W.shape}), "
            f"got shape {w0.shape}"
        )
    return X @ W.T + w0


def _as_float_features(X) -> np.ndarray:
    """Binary feature matrix as float64 (helper for matrix products)."""
    return check_binary(X, "X").astype(np.float64)


def decide(X, W, w0):
    """Bayes decisions from linear discriminants: the index of the largest ``g_c(x)``.

    Ties go to the smallest class index.  For a two-class weight vector
    ``W`` of shape (d,) the decision is 0 (``ω_1``) when ``g(x) > 0`` and 1
    (``ω_2``) otherwise.

    Parameters
    ----------
    X : array_like, shape (N, d)
    W : array_like, shape (C, d) or (d,)
    w0 : array_like, shape (C,) or ()

    Returns
    -------
    numpy.ndarray of int64, shape (N,)

    Examples
    --------
    >>> W, w0 = binary_discriminant([[0.9, 0.1], [0.2, 0.7]], [0.5, 0.5])
    >>> decide(cube_corners(2), W, w0)
    array([1, 1, 0, 1])
    """
    g = linear_discriminant(X, W, w0)
    if g.ndim == 1:
        return np.where(g > 0, 0, 1).astype(np.int64)
    return np.argmax(g, axis=1).astype(np.int64)


# --- logistic regression: the discriminative fit of the same family ---------------------------


def _logistic_args(X, t, w, w0):
    """Features as float (N, d), targets 0/1 (N,), weights (d,) and a scalar bias."""
    X = as_real_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-d array (N, d), got shape {X.shape}")
    t = check_binary(t, "t", ndim=1)
    if t.shape != (X.shape[0],):
        raise ValueError(f"t must hold one 0/1 target per row of X ({X.shape[0]}), "
                         f"got shape {t.shape}")
    w = as_real_array(w, "w")
    if w.shape != (X.shape[1],):
        raise ValueError(f"w must have shape ({X.shape[1]},) to match X, got shape {w.shape}")
    w0 = as_real_array(w0, "w0")
    if w0.shape != ():
        raise ValueError(f"w0 must be a scalar, got shape {w0.shape}")
    return X, t.astype(np.float64), w, float(w0)


def logistic_log_likelihood(X, t, w, w0) -> float:
    """Conditional log-likelihood of logistic regression, ``Σ_n ln P(t_n | x_n)``.

    With ``g_n = w·x_n + w_0`` and ``P(ω_1 | x_n) = σ(g_n)``,

    ``ℓ = Σ_n [t_n ln σ(g_n) + (1 - t_n) ln(1 - σ(g_n))] = Σ_n [t_n g_n - ln(1 + e^{g_n})]``,

    computed in the second form with ``numpy.logaddexp`` so that it stays finite for
    large ``|g_n|`` (Murphy 2022, ch. 10).  It is at most 0, and ``-N`` times
    scikit-learn's ``log_loss``.

    Parameters
    ----------
    X : array_like, shape (N, d)
        Features (any real numbers).
    t : array_like of 0/1, shape (N,)
        1 where the case is of class ``ω_1``.
    w : array_like, shape (d,)
    w0 : float

    Returns
    -------
    float

    Examples
    --------
    >>> round(logistic_log_likelihood([[1.0], [0.0]], [1, 0], [0.0], 0.0), 6)  # 2 ln(1/2)
    -1.386294
    """
    X, t, w, w0 = _logistic_args(X, t, w, w0)
    g = X @ w + w0
    return float(np.sum(t * g - np.logaddexp(0.0, g)))


def logistic_gradient(X, t, w, w0):
    """Gradient of :func:`logistic_log_likelihood` with respect to ``w`` and ``w_0``.

    Because ``σ'(g) = σ(g)(1 - σ(g))``, each case contributes its residual, target
    minus predicted probability, times its features:

    ``∂ℓ/∂w = Σ_n (t_n - σ(g_n)) x_n``,  ``∂ℓ/∂w_0 = Σ_n (t_n - σ(g_n))``.

    Parameters
    ----------
    X, t, w, w0 : as for :func:`logistic_log_likelihood`

    Returns
    -------
    (numpy.ndarray of shape (d,), float)

    Examples
    --------
    >>> grad_w, grad_w0 = logistic_gradient([[1.0], [0.0]], [1, 0], [0.0], 0.0)
    >>> grad_w, grad_w0   # residuals 1/2 and -1/2
    (array([0.5]), 0.0)
    """
    from scipy.special import expit

    X, t, w, w0 = _logistic_args(X, t, w, w0)
    residual = t - expit(X @ w + w0)
    return X.T @ residual, float(residual.sum())


def logistic_gradient_ascent(X, t, *, step=1.0, n_iter=1000, w=None, w0=0.0):
    """Maximise the logistic log-likelihood by plain gradient ascent, recording every step.

    Each step moves ``(w, w_0)`` by ``step`` times the gradient of the *mean*
    log-likelihood, ``ℓ / N`` (:func:`logistic_gradient`).  Since ``ℓ`` is concave, a
    small enough step (``step < 8 / λ_max``, with ``λ_max`` the largest eigenvalue of
    ``Σ_n x̃_n x̃_nᵀ / N`` and ``x̃_n = (x_n, 1)``) climbs towards its maximum whenever one
    exists.  When the classes are separable it does not exist: ``ℓ`` keeps rising towards 0
    and the recorded weights grow without bound (Albert & Anderson 1984).

    Parameters
    ----------
    X : array_like, shape (N, d)
    t : array_like of 0/1, shape (N,)
    step : float > 0, default 1.0
    n_iter : int >= 1, default 1000
    w : array_like, shape (d,) or None, default None
        Starting weights; ``None`` starts at zero.
    w0 : float, default 0.0
        Starting bias.

    Returns
    -------
    numpy.ndarray, shape (n_iter + 1, d + 1)
        Row ``k`` holds ``(w, w_0)`` after ``k`` steps (row 0 is the start).

    Examples
    --------
    >>> path = logistic_gradient_ascent([[0.0], [1.0], [0.0], [1.0]], [0, 1, 1, 0], n_iter=5)
    >>> path[-1]      # no information in x, balanced targets: the maximum is at zero
    array([0., 0.])
    """
    X = as_real_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-d array (N, d), got shape {X.shape}")
    if isinstance(step, bool) or not isinstance(step, int | float | np.floating) or not (
            np.isfinite(step) and step > 0):
        raise ValueError(f"step must be a positive finite number, got {step!r}")
    if isinstance(n_iter, bool) or not isinstance(n_iter, int | np.integer) or n_iter < 1:
        raise ValueError(f"n_iter must be an int >= 1, got {n_iter!r}")
    w = np.zeros(X.shape[1]) if w is None else w
    X, t, w, w0 = _logistic_args(X, t, w, w0)
    path = np.empty((int(n_iter) + 1, X.shape[1] + 1))
    path[0, :-1], path[0, -1] = w, w0
    for k in range(1, int(n_iter) + 1):
        grad_w, grad_w0 = logistic_gradient(X, t, w, w0)
        w = w + step * grad_w / X.shape[0]
        w0 = w0 + step * grad_w0 / X.shape[0]
        path[k, :-1], path[k, -1] = w, w0
    return path
