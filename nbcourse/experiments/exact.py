"""The exact engine: log-space counts for any classifier (Williams 2024, eqs. 2-4).

Documented interface (used by :mod:`.fast` for the classifiers it hands over, by
:mod:`.comparison`, the tests and the benchmark): :func:`log_simplex`,
:func:`joint_logs`, :func:`decide`, :func:`engine`, :func:`block_counts`,
:func:`losing_mass`, :func:`leading_argmax` and :data:`R_EXACT`.  Arrays are in
the layout ``log_pi`` (C, b), log weights ``lx`` (C, K, b), with ``b`` classifiers
last so that the loops over classes work on contiguous slices.
"""

from __future__ import annotations

import numpy as np

from .._logspace import log_losing_mass
from ..bounds import log_q_minus_from_terms

__all__: list[str] = []

#: Below this, ``total - 1`` is recomputed without cancellation (see :func:`losing_mass`);
#: above it the cancellation error of ``log(total - 1)`` is below ~1e-11.
R_EXACT = 1e-4

def leading_argmax(x: np.ndarray):
    """``(max, argmax)`` over axis 0, first index on ties.

    Built from elementwise operations on the slices ``x[c]``, which is several
    times faster than :func:`numpy.argmax` over a leading axis.
    """
    best = np.max(x, axis=0)
    idx = np.full(x.shape[1:], x.shape[0] - 1, dtype=np.int8 if x.shape[0] < 128 else np.intp)
    for c in range(x.shape[0] - 2, -1, -1):
        idx = np.where(x[c] == best, np.int8(c) if idx.dtype == np.int8 else c, idx)
    return best, idx


def losing_mass(x: np.ndarray, m1: np.ndarray, axis: int):
    """``y = exp(x - m1)``, ``total = sum y`` along ``axis`` and ``log_r = log(total - 1)``.

    ``total - 1`` is the mass of the entries other than the top one relative to it.
    Where it is below :data:`R_EXACT` it carries cancellation error (and is 0
    once it underflows), so ``log_r`` is recomputed there by
    :func:`nbcourse._logspace.log_losing_mass` (pivot on the runner-up).  Returns ``(y, total, log_r, fix)``.
    """
    with np.errstate(invalid="ignore"):
        y = np.exp(x - m1)
    total = np.sum(y, axis=axis, keepdims=True)
    r = total - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        log_r = np.log(r)
    fix = r < R_EXACT
    if fix.any():
        cols = np.moveaxis(x, axis, 0)[:, np.moveaxis(fix, axis, 0)[0]]
        np.moveaxis(log_r, axis, 0)[0][np.moveaxis(fix, axis, 0)[0]] = log_losing_mass(cols, axis=0)[1]
    return y, total, log_r, fix


def log_simplex(lx: np.ndarray):
    """From log weights ``lx`` (C, K, b): ``log theta`` and ``log(1 - theta)``, normalised over K.

    ``log(1 - theta_k) = log(sum_{m != k} theta_m)``.  With ``y = exp(lx - max)``
    and ``total = sum y``, that is ``log(total - y_k) - log(total)``: for every
    entry but the top one ``total - y_k >= 1`` (no cancellation); for the top one
    it is ``log_r - log(total)`` with ``log_r`` exact (see :func:`losing_mass`).
    """
    m1 = np.max(lx, axis=1, keepdims=True)
    y, total, log_r, fix = losing_mass(lx, m1, axis=1)
    log_total = np.log(total)
    log_theta = lx - (m1 + log_total)
    with np.errstate(divide="ignore"):
        log1m = np.log(total - y)
    log1m -= log_total
    if fix.any():
        c, _, i = np.nonzero(fix)
        top = np.argmax(lx[c, :, i], axis=1)
        log1m[c, top, i] = log_r[c, 0, i] - log_total[c, 0, i]
    return log_theta, log1m


def joint_logs(log_pi: np.ndarray, lx: np.ndarray):
    """Log joints ``log pi_c + log p(x = j | c)`` under both models, each shape (C, K, b).

    Categorical: ``log pi_c + log theta_jc`` (eq. 2).  PoB: plus ``log Q^{-j}_c``,
    i.e. ``log pi_c + log f_j(theta_c)`` (eqs. 1 and 3).
    """
    log_theta, log1m = log_simplex(lx)
    cat = log_theta
    cat += log_pi[:, None, :]
    with np.errstate(invalid="ignore"):
        pob = log_q_minus_from_terms(log1m, axis=1)  # eq. 4
        pob += cat
    return cat, pob


def decide(joint: np.ndarray):
    """MAP class, ``log r`` and validity per observation, each shape (K, b).

    ``r`` is the posterior mass of the losing classes over that of the winner, so
    the maximum posterior is ``1 / (1 + r)`` and comparing ``log r`` compares
    maximum posteriors exactly, even when both round to 1.  An observation with
    zero probability under every class is not valid.
    """
    m1, idx = leading_argmax(joint)
    _, _, log_r, _ = losing_mass(joint, m1[None], axis=0)
    return idx, log_r[0], m1 > -np.inf


def engine(log_pi: np.ndarray, lx: np.ndarray):
    """Per-observation results for classifiers given as ``log_pi`` (C, b) and ``lx`` (C, K, b).

    Returns ``map_cat, map_pob, log_r_cat, log_r_pob, valid``, each shape (K, b).
    ``valid`` is False where an observation has zero probability under every class.
    """
    cat, pob = joint_logs(log_pi, lx)
    map_cat, log_r_cat, ok_cat = decide(cat)
    map_pob, log_r_pob, ok_pob = decide(pob)
    return map_cat, map_pob, log_r_cat, log_r_pob, ok_cat & ok_pob


def block_counts(log_pi, lx):
    """Per-classifier counts ``(a, d, m)``: PoB higher, MAP differs, observations counted."""
    map_cat, map_pob, log_r_cat, log_r_pob, valid = engine(log_pi, lx)
    higher = (log_r_pob < log_r_cat) & valid
    differ = (map_cat != map_pob) & valid
    return (higher.sum(axis=0, dtype=np.int32), differ.sum(axis=0, dtype=np.int32),
            valid.sum(axis=0, dtype=np.int32))
