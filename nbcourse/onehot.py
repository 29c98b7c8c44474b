"""One categorical feature, one-hot encoded: Williams (2024).

A feature ``x`` takes ``K`` values.  Under class ``c`` it has probabilities
``theta[c] = (θ_0, ..., θ_{K-1})`` on the simplex (values are indexed
**0-based** here, ``j in range(K)``; the paper writes ``j = 1..K``).  The
categorical model gives ``p(y = c | x = j) ∝ π_c θ_jc`` (eq. 2).  Feeding the
one-hot code ``e_j`` to naive Bayes as ``K`` independent bits gives the
product-of-Bernoullis (PoB) model (eqs. 1 and 3),

    p(y = c | x̃ = e_j) ∝ π_c θ_jc Q_c^{-j},   Q^{-j}(θ) = Π_{k≠j} (1 - θ_k)   (eq. 4).

Shapes and broadcasting
-----------------------
Every function broadcasts over leading axes: ``theta`` has shape ``(..., K)``
for the single-vector functions and ``(..., C, K)`` for the classifier
functions, with ``pi`` of shape ``(..., C)``; the leading axes of ``pi`` and
``theta`` broadcast against each other.  One call can therefore evaluate
millions of classifiers without a Python loop.

Numerics
--------
``Q^{-j}`` is computed as ``exp(Σ_{k≠j} log1p(-θ_k))``, which is accurate when
the ``θ_k`` are tiny and gives an exact 0 (log ``-inf``) when some ``θ_k = 1``.
Posteriors are normalised in log space with ``logsumexp``.  A ``θ`` or ``π`` of
exactly 0 gives exact zeros, never NaN.

When the posterior does not exist
---------------------------------
If every class gives the observation ``x = j`` probability 0 (all
``π_c θ_jc``, or all ``π_c θ_jc Q_c^{-j}``, are 0) the posterior is undefined.
The posterior functions take ``undefined="raise"`` (default: a ``ValueError``
saying how many classifiers are affected and where the first one is) or
``undefined="nan"`` (those classifiers get NaN in every class, silently and
without a RuntimeWarning, so a batch can count them with ``numpy.isnan``).

Vectors that sum to 1 are accepted within ``ROW_SUM_ATOL = 1e-8``.
"""

from __future__ import annotations

import numpy as np

from ._logspace import UNDEFINED, log, log1m, log_normalise
from ._validation import (
    check_classifier,
    check_index,
    check_n_categories,
    check_probabilities,
    check_theta,
)

__all__ = [
    "categorical_linear_weights",
    "f_j",
    "guaranteed_more_extreme",
    "linear_score",
    "log_f_j",
    "log_posterior_categorical",
    "log_posterior_pob",
    "log_q_minus_all",
    "log_q_minus_from_terms",
    "log_q_minus_j",
    "lower_bound",
    "pob_linear_weights",
    "posterior_categorical",
    "posterior_pob",
    "posterior_table",
    "q_minus_j",
    "q_minus_j_at_centre",
    "theta_at_centre",
    "upper_bound",
]

# --- validation helpers ---------------------------------------------------------------


# --- Q^{-j} and f_j ---------------------------------------------------------------------


def log_q_minus_j(theta, j):
    """``ln Q^{-j}(θ) = Σ_{k≠j} ln(1 - θ_k)`` (Williams 2024, eq. 4, in log form).

    Parameters
    ----------
    theta : array_like, shape (..., K)
        Probability vectors (rows summing to 1 within 1e-8), ``K >= 2``.
    j : int
        The observed value, 0-based (``0 <= j < K``).

    Returns
    -------
    numpy.ndarray, shape (...)
        ``-inf`` exactly when some ``θ_k = 1`` with ``k ≠ j``.

    Examples
    --------
    >>> float(log_q_minus_j([0.5, 0.5, 0.0], 2))
    -1.3862943611198906
    """
    theta = check_theta(theta)
    j = check_index(j, theta.shape[-1])
    return log_q_minus_from_terms(log1m(theta))[..., j]


def q_minus_j(theta, j):
    """``Q^{-j}(θ) = Π_{k≠j} (1 - θ_k)`` (Williams 2024, eq. 4).

    Computed as ``exp`` of :func:`log_q_minus_j`, so small ``θ_k`` lose no
    precision and a ``θ_k = 1`` (``k ≠ j``) gives exactly 0.

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
    """``ln Q^{-j}(θ)`` for every ``j`` at once (Williams 2024, eq. 4).

    Uses exclusive prefix and suffix sums of ``log1p(-θ_k)``, so no term is
    ever subtracted (no cancellation, no ``inf - inf``).

    Parameters
    ----------
    theta : array_like, shape (..., K)

    Returns
    -------
    numpy.ndarray, shape (..., K)
        Entry ``[..., j]`` is ``ln Q^{-j}(θ)``.

    Examples
    --------
    >>> np.exp(log_q_minus_all([0.5, 0.25, 0.25]))
    array([0.5625, 0.375 , 0.375 ])
    """
    return log_q_minus_from_terms(log1m(check_theta(theta)))


def log_q_minus_from_terms(log1m_theta, axis: int = -1):
    """``ln Q^{-j} = Σ_{k≠j} ln(1 - θ_k)`` for every ``j``, from the terms ``ln(1 - θ_k)`` (Williams 2024, eq. 4).

    The one implementation of eq. 4: :func:`log_q_minus_j`,
    :func:`log_q_minus_all`, the posteriors of eq. 3 and the experiments all
    call it.  It adds exclusive prefix and suffix sums of the terms, so no term
    is ever subtracted: no cancellation and no ``inf - inf`` when some
    ``θ_k = 1`` (then ``Q^{-k} = 1`` exactly if the other entries are 0, and
    ``Q^{-j} = 0`` for every ``j ≠ k``).

    Parameters
    ----------
    log1m_theta : numpy.ndarray
        ``ln(1 - θ_k)`` along ``axis`` (values ``<= 0``, ``-inf`` allowed).
    axis : int, default -1
        The axis of the ``K`` values.

    Returns
    -------
    numpy.ndarray, same shape
        Entry ``j`` along ``axis`` is ``ln Q^{-j}``.

    Examples
    --------
    >>> np.exp(log_q_minus_from_terms(np.log1p(-np.array([0.5, 0.25, 0.25]))))
    array([0.5625, 0.375 , 0.375 ])
    """
    terms = np.moveaxis(np.asarray(log1m_theta, dtype=float), axis, -1)
    out = np.zeros_like(terms)
    np.cumsum(terms[..., :-1], axis=-1, out=out[..., 1:])
    out[..., :-1] += np.cumsum(terms[..., :0:-1], axis=-1)[..., ::-1]
    return np.moveaxis(out, -1, axis)


def log_f_j(theta, j):
    """``ln f_j(θ) = ln θ_j + ln Q^{-j}(θ)`` (Williams 2024, §2).

    Parameters
    ----------
    theta : array_like, shape (..., K)
    j : int
        0-based value index.

    Returns
    -------
    numpy.ndarray, shape (...)
        ``-inf`` where ``f_j(θ) = 0``.

    Examples
    --------
    >>> float(np.exp(log_f_j([0.5, 0.5], 0)))
    0.25
    """
    theta = check_theta(theta)
    j = check_index(j, theta.shape[-1])
    return log(theta[..., j]) + log_q_minus_j(theta, j)


def f_j(theta, j):
    """``f_j(θ) = θ_j Q^{-j}(θ)``, the PoB likelihood of ``x̃ = e_j`` (Williams 2024, eq. 1, §2).

    Parameters
    ----------
    theta : array_like, shape (..., K)
    j : int
        0-based value index.

    Returns
    -------
    numpy.ndarray, shape (...)
        Lies between :func:`lower_bound` and :func:`upper_bound` of ``θ_j``.

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
    """``(K-1) ln[(K-2+θ_j)/(K-1)]``, computed as ``(K-1) log1p((θ_j-1)/(K-1))``."""
    with np.errstate(divide="ignore"):
        return (K - 1) * np.log1p((theta_j - 1.0) / (K - 1))


def q_minus_j_at_centre(theta_j, K):
    """Maximum of ``Q^{-j}`` over the slice with ``θ_j`` fixed (Williams 2024, eq. 8).

    The maximum is at the centre of the slice, ``θ_k = (1-θ_j)/(K-1)`` for
    ``k ≠ j`` (eq. 7), where ``Q^{-j} = [(K-2+θ_j)/(K-1)]^{K-1}``.

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
    """The centre of the slice ``{θ on the simplex : θ_j fixed}`` (Williams 2024, eq. 7).

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
        ``θ_j`` at position ``j`` and ``(1-θ_j)/(K-1)`` elsewhere.

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
    """Lower bound ``ℓ(θ_j) = θ_j²`` on ``f_j(θ)`` (Williams 2024, eq. 9).

    Attained at the corners of the slice (all of ``1-θ_j`` on one other value).

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
    """Upper bound ``u(θ_j) = θ_j [(K-2+θ_j)/(K-1)]^{K-1}`` on ``f_j(θ)`` (Williams 2024, eq. 10).

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
    """Whether ``f_j(θ_c)/f_j(θ_d)`` must exceed ``θ_jc/θ_jd`` (Williams 2024, eq. 13).

    The condition ``θ_jc > [(K-2+θ_jd)/(K-1)]^{K-1}`` makes ``ℓ(θ_jc)/u(θ_jd)``,
    a lower bound on the ratio of ``f_j`` values (eq. 12), exceed ``θ_jc/θ_jd``.
    It depends on ``θ_jc`` and ``θ_jd`` only; it is sufficient, not necessary.

    Parameters
    ----------
    theta_jc, theta_jd : array_like, broadcastable
        ``θ_j`` under classes ``c`` and ``d``, in [0, 1].
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


# --- posteriors (eqs. 2 and 3) ----------------------------------------------------------


_MODEL_NAMES = {"categorical": "categorical", "pob": "PoB"}


def _log_joint_table(pi, theta, model: str) -> np.ndarray:
    """Log joints ``ln π_c θ_jc`` (eq. 2) or ``ln π_c θ_jc Q_c^{-j}`` (eq. 3), shape (..., K, C)."""
    log_theta = np.swapaxes(theta, -1, -2)  # (..., K, C)
    lj = log(pi)[..., None, :] + log(log_theta)
    if model == "pob":
        lj = lj + np.swapaxes(log_q_minus_from_terms(log1m(theta)), -1, -2)
    return lj


def _posterior_at(pi, theta, j, model: str, undefined: str) -> np.ndarray:
    pi, theta = check_classifier(pi, theta)
    j = check_index(j, theta.shape[-1])
    return log_normalise(_log_joint_table(pi, theta, model)[..., j, :], undefined=undefined,
                         what=_MODEL_NAMES[model])


def log_posterior_categorical(pi, theta, j, *, undefined="raise"):
    """Log posterior ``ln p(y = c | x = j)`` under the categorical model (Williams 2024, eq. 2).

    Parameters
    ----------
    pi : array_like, shape (..., C)
        Class priors.
    theta : array_like, shape (..., C, K)
        ``theta[..., c, k] = p(x = k | y = c)``.
    j : int
        Observed value, 0-based.
    undefined : {"raise", "nan"}, default "raise"
        What to do when every class gives ``x = j`` probability 0 (see module notes).

    Returns
    -------
    numpy.ndarray, shape (..., C)
        ``-inf`` for classes that cannot have produced ``x = j``.

    Examples
    --------
    >>> np.exp(log_posterior_categorical([0.5, 0.5], [[0.6, 0.4], [0.2, 0.8]], 0))
    array([0.75, 0.25])
    """
    return _posterior_at(pi, theta, j, "categorical", undefined)


def log_posterior_pob(pi, theta, j, *, undefined="raise"):
    """Log posterior ``ln p(y = c | x̃ = e_j)`` under the product-of-Bernoullis model (Williams 2024, eq. 3).

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
        With maximum-likelihood estimates the PoB bit probabilities equal the
        categorical ``θ`` (Williams 2024, §1), so the same array serves both models.
    j : int
        Observed value (the position of the 1 in ``x̃``), 0-based.
    undefined : {"raise", "nan"}, default "raise"

    Returns
    -------
    numpy.ndarray, shape (..., C)

    Examples
    --------
    >>> np.exp(log_posterior_pob([0.5, 0.5], [[0.6, 0.4], [0.2, 0.8]], 0))
    array([0.9, 0.1])
    """
    return _posterior_at(pi, theta, j, "pob", undefined)


def posterior_categorical(pi, theta, j, *, undefined="raise"):
    """Posterior ``p(y = c | x = j) = π_c θ_jc / Σ_c' π_c' θ_jc'`` (Williams 2024, eq. 2).

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
    j : int
        0-based.
    undefined : {"raise", "nan"}, default "raise"

    Returns
    -------
    numpy.ndarray, shape (..., C)
        Sums to 1 over the last axis (NaN rows only with ``undefined="nan"``).

    Examples
    --------
    >>> posterior_categorical([0.25, 0.75], [[0.5, 0.5], [0.1, 0.9]], 0)
    array([0.625, 0.375])
    """
    return np.exp(log_posterior_categorical(pi, theta, j, undefined=undefined))


def posterior_pob(pi, theta, j, *, undefined="raise"):
    """Posterior ``p(y = c | x̃ = e_j) ∝ π_c θ_jc Q_c^{-j}`` (Williams 2024, eq. 3).

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
    j : int
        0-based.
    undefined : {"raise", "nan"}, default "raise"

    Returns
    -------
    numpy.ndarray, shape (..., C)

    Examples
    --------
    >>> np.round(posterior_pob([0.25, 0.75], [[0.5, 0.5], [0.1, 0.9]], 0), 6)
    array([0.892857, 0.107143])
    """
    return np.exp(log_posterior_pob(pi, theta, j, undefined=undefined))


def posterior_table(pi, theta, model="categorical", *, log=False, undefined="raise"):
    """Posteriors for every observed value ``j`` at once.

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
    model : {"categorical", "pob"}, default "categorical"
        Eq. 2 or eq. 3 of Williams (2024).
    log : bool, default False
        Return log posteriors.
    undefined : {"raise", "nan"}, default "raise"
        With "nan", only the affected ``(classifier, j)`` rows are NaN.

    Returns
    -------
    numpy.ndarray, shape (..., K, C)
        Entry ``[..., j, c]`` is ``p(y = c | x = j)`` (or its log).

    Examples
    --------
    >>> posterior_table([0.5, 0.5], [[0.6, 0.4], [0.2, 0.8]])
    array([[0.75      , 0.25      ],
           [0.33333333, 0.66666667]])
    """
    pi, theta = check_classifier(pi, theta)
    if model not in ("categorical", "pob"):
        raise ValueError(f"model must be 'categorical' or 'pob', got {model!r}")
    if undefined not in UNDEFINED:
        raise ValueError(f"undefined must be 'raise' or 'nan', got {undefined!r}")
    out = log_normalise(_log_joint_table(pi, theta, model), undefined=undefined,
                        what=_MODEL_NAMES[model])
    return out if log else np.exp(out)


# --- the linear-discriminant view (Duda §2.9 applied to the one-hot bits) ----------------


def categorical_linear_weights(pi, theta):
    """Linear discriminant of the categorical model in the one-hot bits.

    With ``x̃ = e_j``, ``ln π_c θ_jc = W[c]·x̃ + b[c]`` where ``W[c, k] = ln θ_kc``
    and ``b[c] = ln π_c`` (Williams 2024, eq. 2 written in the one-hot bits).

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)

    Returns
    -------
    W : numpy.ndarray, shape (..., C, K)
        ``-inf`` where ``θ = 0``.
    b : numpy.ndarray, shape (..., C)

    Examples
    --------
    >>> W, b = categorical_linear_weights([0.5, 0.5], [[0.5, 0.5], [0.25, 0.75]])
    >>> np.round(W, 4)
    array([[-0.6931, -0.6931],
           [-1.3863, -0.2877]])
    """
    pi, theta = check_classifier(pi, theta)
    return log(theta), log(pi)


def pob_linear_weights(pi, theta):
    """Linear discriminant of the PoB model in the one-hot bits (Duda, Hart & Stork §2.9).

    Each bit is Bernoulli with ``P(x̃_k = 1 | c) = θ_kc``, so Duda's weights
    apply: ``W[c, k] = logit θ_kc = ln θ_kc - ln(1 - θ_kc)`` and
    ``b[c] = ln π_c + Σ_k ln(1 - θ_kc)``.  Then ``W[c]·e_j + b[c] =
    ln π_c θ_jc Q_c^{-j}``, the log joint of Williams (2024), eq. 3.

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
        No entry may equal 1 (the weight would be ``+inf`` and the bias
        ``-inf``, whose sum is undefined); zeros are allowed and give ``-inf``
        weights.

    Returns
    -------
    W : numpy.ndarray, shape (..., C, K)
    b : numpy.ndarray, shape (..., C)

    Raises
    ------
    ValueError
        If some ``θ`` equals 1; use :func:`log_posterior_pob`, which handles it.

    Examples
    --------
    >>> W, b = pob_linear_weights([0.5, 0.5], [[0.5, 0.5], [0.25, 0.75]])
    >>> np.round(W, 4), np.round(b, 4)
    (array([[ 0.    ,  0.    ],
           [-1.0986,  1.0986]]), array([-2.0794, -2.3671]))
    """
    pi, theta = check_classifier(pi, theta)
    if (theta == 1).any():
        idx = tuple(int(i) for i in np.argwhere(theta == 1)[0])
        raise ValueError(
            f"theta has an entry equal to 1 at {idx}: its PoB weight logit(1) = +inf and "
            "the bias holds ln(1 - 1) = -inf, so the linear form is undefined; use "
            "log_posterior_pob, which handles theta = 1 exactly"
        )
    W = log(theta) - log1m(theta)
    b = log(pi) + log1m(theta).sum(axis=-1)
    return W, b


def linear_score(W, b, j):
    """Evaluate ``W[..., c, :]·e_j + b[..., c]`` for the one-hot vector ``e_j``.

    Selecting column ``j`` instead of multiplying by the bits avoids ``0 · (-inf)``
    when a weight is ``-inf``.

    Parameters
    ----------
    W : array_like, shape (..., C, K)
    b : array_like, shape (..., C)
    j : int
        0-based position of the 1 in ``x̃``.

    Returns
    -------
    numpy.ndarray, shape (..., C)

    Examples
    --------
    >>> linear_score([[1.0, 2.0], [3.0, 4.0]], [0.5, -0.5], 1)
    array([2.5, 3.5])
    """
    W = np.asarray(W, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if W.ndim < 2 or b.shape[-1:] != W.shape[-2:-1]:
        raise ValueError(
            f"W must have shape (..., C, K) and b shape (..., C), got {W.shape} and {b.shape}"
        )
    j = check_index(j, W.shape[-1])
    return W[..., j] + b
