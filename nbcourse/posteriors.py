"""The two posteriors of Williams (2024): categorical (eq. 2) and product of Bernoullis (eq. 3).

For one categorical feature with ``K`` values, class priors ``pi`` (shape
``(..., C)``) and ``theta[..., c, k] = p(x = k | y = c)`` (shape ``(..., C, K)``),

* categorical: ``p(y = c | x = v) ∝ π_c θ_vc``  (eq. 2);
* product of Bernoullis (PoB), the one-hot code ``x̃ = e_v`` treated as ``K``
  independent bits: ``p(y = c | x̃ = e_v) ∝ π_c θ_vc Q_c^{-v}``  (eqs. 1, 3 and 4,
  ``Q^{-v}`` from :mod:`nbcourse.bounds`).

:func:`posterior_table` gives every ``j`` at once; the per-``j`` functions select
one row of it.  :func:`categorical_linear_weights` and :func:`pob_linear_weights`
write both models as linear discriminants in the one-hot bits (Duda, Hart &
Stork 2001, §2.9).  Every function broadcasts over leading axes, and the leading
axes of ``pi`` and ``theta`` broadcast against each other.

When the posterior does not exist
---------------------------------
If every class gives the observation ``x = v`` probability 0 the posterior is
undefined.  The library has one convention for it
(:func:`nbcourse._logspace.log_normalise`): ``undefined="raise"`` (default, a
``ValueError`` saying how many rows are affected and where the first one is) or
``undefined="nan"`` (NaN in every class for those rows, silently, so a batch can
count them with ``numpy.isnan``).
"""

from __future__ import annotations

import numpy as np

from ._logspace import UNDEFINED, log, log1m, log_normalise
from ._validation import check_classifier, check_index
from .bounds import log_q_minus_from_terms

__all__ = [
    "categorical_linear_weights",
    "linear_score",
    "log_posterior_categorical",
    "log_posterior_pob",
    "pob_linear_weights",
    "posterior_categorical",
    "posterior_pob",
    "posterior_table",
]


# --- posteriors (eqs. 2 and 3) ----------------------------------------------------------


_MODEL_NAMES = {"categorical": "categorical", "pob": "PoB"}


def _log_joint_table(pi, theta, model: str) -> np.ndarray:
    """Log joints ``ln π_c θ_vc`` (eq. 2) or ``ln π_c θ_vc Q_c^{-v}`` (eq. 3), shape (..., K, C)."""
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
    """Log posterior ``ln p(y = c | x = v)`` under the categorical model (Williams 2024, eq. 2).

    Parameters
    ----------
    pi : array_like, shape (..., C)
        Class priors.
    theta : array_like, shape (..., C, K)
        ``theta[..., c, k] = p(x = k | y = c)``.
    j : int
        Observed value, 0-based.
    undefined : {"raise", "nan"}, default "raise"
        What to do when every class gives ``x = v`` probability 0 (see module notes).

    Returns
    -------
    numpy.ndarray, shape (..., C)
        ``-inf`` for classes that cannot have produced ``x = v``.

    Examples
    --------
    >>> np.exp(log_posterior_categorical([0.5, 0.5], [[0.6, 0.4], [0.2, 0.8]], 0))
    array([0.75, 0.25])
    """
    return _posterior_at(pi, theta, j, "categorical", undefined)


def log_posterior_pob(pi, theta, j, *, undefined="raise"):
    """Log posterior ``ln p(y = c | x̃ = e_v)`` under the product-of-Bernoullis model (Williams 2024, eq. 3).

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
    """Posterior ``p(y = c | x = v) = π_c θ_vc / Σ_c' π_c' θ_vc'`` (Williams 2024, eq. 2).

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
    """Posterior ``p(y = c | x̃ = e_v) ∝ π_c θ_vc Q_c^{-v}`` (Williams 2024, eq. 3).

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
        Entry ``[..., j, c]`` is ``p(y = c | x = v)`` (or its log).

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

    With ``x̃ = e_v``, ``ln π_c θ_vc = W[c]·x̃ + b[c]`` where ``W[c, v - 1] = ln θ_vc``
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

    Each bit is Bernoulli with ``P(x̃_v = 1 | c) = θ_vc``, so Duda's weights
    apply: ``W[c, v - 1] = logit θ_vc = ln θ_vc - ln(1 - θ_vc)`` and
    ``b[c] = ln π_c + Σ_v ln(1 - θ_vc)``.  Then ``W[c]·e_v + b[c] =
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
    """Evaluate ``W[..., c, :]·e_v + b[..., c]`` for the one-hot vector ``e_v``.

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
