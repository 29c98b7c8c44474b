"""Log-space arithmetic shared by every module: the one log, normalisation and ``logsumexp``.

Probabilities of exactly 0 are handled on purpose: their log is ``-inf`` and no
RuntimeWarning is raised.  Normalisation follows one convention for a row whose
entries are all ``-inf`` (every class gives the observation probability 0, so
the posterior does not exist): by default a :class:`ValueError` says how many
rows are affected and where the first one is; with ``undefined="nan"`` those rows
are NaN in every entry, silently, so a batch can count them with ``numpy.isnan``.

Examples
--------
>>> import numpy as np
>>> log_normalise(log([[1.0, 3.0], [0.0, 0.0]]), undefined="nan")
array([[-1.38629436, -0.28768207],
       [        nan,         nan]])
"""

from __future__ import annotations

import numpy as np

__all__ = ["UNDEFINED", "log", "log1m", "log1m_exp", "log_losing_mass", "log_normalise", "logsumexp"]

#: The accepted values of ``undefined`` in :func:`log_normalise` and the posterior functions.
UNDEFINED = ("raise", "nan")


def log(x):
    """Natural log with ``log(0) = -inf`` and no RuntimeWarning."""
    with np.errstate(divide="ignore"):
        return np.log(x)


def log1m(x):
    """``log(1 - x)`` through ``log1p``, accurate for small ``x``; ``-inf`` at ``x = 1``."""
    with np.errstate(divide="ignore"):
        return np.log1p(-np.asarray(x, dtype=float))


def log1m_exp(log_x):
    """``log(1 - exp(log_x))`` for ``log_x <= 0``; ``-inf`` (no warning) at ``log_x = 0``.

    Uses ``log1p(-exp(.))`` below ``-ln 2`` and ``log(-expm1(.))`` above, the
    accurate choice on each side (Mächler 2012).
    """
    log_x = np.asarray(log_x, dtype=float)
    small = log_x < -np.log(2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(small, np.log1p(-np.exp(np.minimum(log_x, -np.log(2.0)))),
                        np.log(-np.expm1(np.minimum(log_x, 0.0))))


def logsumexp(x, axis: int = -1, keepdims: bool = False):
    """``log(sum(exp(x)))`` along ``axis`` with the usual shift by the maximum.

    A slice whose entries are all ``-inf`` gives ``-inf`` (no NaN, no warning).
    """
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _check_undefined(undefined) -> str:
    if undefined not in UNDEFINED:
        raise ValueError(f"undefined must be 'raise' or 'nan', got {undefined!r}")
    return undefined


def log_normalise(log_joint, axis: int = -1, *, undefined: str = "raise", what: str = ""):
    """Log posteriors from log joints: subtract :func:`logsumexp` along ``axis``.

    Parameters
    ----------
    log_joint : array_like
        Log joint probabilities ``log p(y = c, x)``, classes along ``axis``.
    axis : int, default -1
    undefined : {"raise", "nan"}, default "raise"
        What to do with a slice whose entries are all ``-inf`` (see module notes).
    what : str
        Names the model in the error message (``"PoB"``, ``"categorical"``).

    Returns
    -------
    numpy.ndarray, the shape of ``log_joint``
        ``-inf`` for classes that cannot have produced the observation.
    """
    undefined = _check_undefined(undefined)
    lj = np.asarray(log_joint, dtype=float)
    dead = np.all(np.isneginf(lj), axis=axis, keepdims=True)
    if dead.any():
        if undefined == "raise":
            flat = np.squeeze(dead, axis=axis)
            first = tuple(int(i) for i in np.argwhere(flat)[0])
            label = f"{what} posterior" if what else "posterior"
            raise ValueError(
                f"the {label} is undefined for {int(flat.sum())} of {flat.size} row(s) "
                f"(first at index {first}): every class gives the observation probability 0. "
                "Pass undefined='nan' to get NaN for those instead."
            )
        lj = np.where(dead, 0.0, lj)
    out = lj - logsumexp(lj, axis=axis, keepdims=True)
    return np.where(dead, np.nan, out) if dead.any() else out


def log_losing_mass(log_joint, axis: int = -1):
    """MAP class and ``log r``, where ``r`` is the posterior mass of the other classes over the MAP's.

    The maximum posterior is ``1 / (1 + r)``, so comparing ``log r`` compares
    maximum posteriors exactly, even when both round to 1.  The sum over the
    losing classes is taken relative to the runner-up (the largest of them), so
    it has no cancellation and no underflow.

    Parameters
    ----------
    log_joint : array_like
        Log joints, classes along ``axis``.
    axis : int, default -1

    Returns
    -------
    map_class : numpy.ndarray of int
        First maximum along ``axis`` (``axis`` removed).
    log_r : numpy.ndarray
        ``log sum_{c != MAP} exp(x_c - x_MAP)``; ``-inf`` when every other class
        is impossible, NaN when every class is.

    Examples
    --------
    >>> c, lr = log_losing_mass(np.log([0.2, 0.6, 0.2]))
    >>> int(c), float(np.exp(lr))
    (1, 0.6666666666666667)
    """
    x = np.moveaxis(np.asarray(log_joint, dtype=float), axis, -1)
    top = np.argmax(x, axis=-1)
    m1 = np.take_along_axis(x, top[..., None], axis=-1)
    rest = x.copy()
    np.put_along_axis(rest, top[..., None], -np.inf, axis=-1)
    with np.errstate(invalid="ignore"):
        log_r = logsumexp(rest - m1, axis=-1)
    return top, np.where(np.isneginf(m1[..., 0]), np.nan, log_r)
