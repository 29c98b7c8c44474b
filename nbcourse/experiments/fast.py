"""The fast engine: the exact engine's counts in plain floating point, checked as it goes.

Documented interface (used by :mod:`.comparison`, the tests and the benchmark):
:func:`linear_margin`, :func:`linear_joints`, :func:`linear_q_minus_j`, :func:`linear_decide`,
:func:`linear_counts`, :func:`chunk_counts` (one chunk, unsafe classifiers handed
to :mod:`.exact`), :func:`iter_counts` (every chunk of a cell) and
:data:`LINEAR_TINY`.

For sampled classifiers almost every joint probability is a normal float, so
the counts can be taken without logs and exps.  Each classifier is either
decided in plain floating point, where every comparison clears a margin far
above the rounding error, or marked unsafe and recomputed by the exact engine
(:mod:`.exact`).  The counts are therefore the exact engine's counts.
"""

from __future__ import annotations

import numpy as np

from .._logspace import logsumexp
from . import exact
from .draws import GammaDraws, Scratch, engine_layout, iter_draws, work

__all__: list[str] = []

#: Joint probabilities below this send their classifier to the log-space engine
#: (far above the subnormal range, where relative precision is lost).
LINEAR_TINY = 1e-280


def linear_margin(K: int, C: int) -> float:
    """Relative margin a fast-path comparison must clear to be trusted.

    The joints carry a relative rounding error below ``2 (K + C)**2`` units of
    ``eps`` (sums of positive terms, a product of ``K`` factors, a few divisions);
    the margin is 1e-10 plus eight times that bound.
    """
    return 1e-10 + 16.0 * (K + C) ** 2 * np.finfo(float).eps


def linear_decide(joint: np.ndarray, margin: float, scratch=None):
    """For joints (C, L, m): MAP class, ``r`` and a near-tie flag, each shape (L, m).

    One pass over the classes keeps the running maximum; each comparison's loser
    is added to ``rest`` (the mass of the losing classes, summed without
    cancellation) and to the running runner-up.  ``r = rest / max`` is the ratio
    of losing to winning mass, as ``log_r`` is in :func:`decide`.  The MAP class
    is the first maximum: indices only grow along the pass, so ``max(idx, c * gt)``
    records a strictly larger value at class ``c``.
    """
    C, L, m = joint.shape
    itype = np.int8 if C < 128 else np.int32
    top, rest, second, loser = (work(scratch, name, (L, m))
                                for name in ("top", "rest", "second", "loser"))
    idx = work(scratch, "idx", (L, m), itype)
    step = work(scratch, "step", (L, m), itype)
    gt = work(scratch, "gt", (L, m), bool)
    top[...] = joint[0]
    idx[...] = 0
    rest[...] = 0.0
    second[...] = 0.0
    for c in range(1, C):
        v = joint[c]
        np.greater(v, top, out=gt)
        np.minimum(v, top, out=loser)
        rest += loser
        np.maximum(second, loser, out=second)
        np.maximum(top, v, out=top)
        np.multiply(gt, itype(c), out=step)
        np.maximum(idx, step, out=idx)
    rest /= top
    top *= 1.0 - margin
    return idx, rest, second >= top


def linear_joints(weights_pi: np.ndarray, weights_theta: np.ndarray, scratch=None):
    """Joints under both models from gamma weights ``(C, m)`` and ``(K, C, m)``.

    ``theta_jc = g_jc / S_c`` and ``1 - theta_jc = (sum of the other g) / S_c``,
    the sum of the others taken as a prefix plus a suffix sum, so it has no
    cancellation even when ``theta_jc`` is within rounding of 1.  Returns the
    joints (C, 2K, m): the categorical joints ``pi_c theta_jc`` (eq. 2) for
    ``j < K`` and then the PoB joints ``pi_c theta_jc Q^{-j}_c`` (eqs. 3 and 4);
    and ``Q_c = prod_k (1 - theta_kc)``, (C, m).
    """
    g = weights_theta
    K, C, m = g.shape
    others = work(scratch, "others", g.shape)
    others[K - 1] = 0.0
    for k in range(K - 2, -1, -1):
        np.add(others[k + 1], g[k + 1], out=others[k])
    total = g[0].copy()
    for k in range(1, K):
        others[k] += total
        total += g[k]
    scale = weights_pi / weights_pi.sum(axis=0)
    scale /= total
    joints = work(scratch, "joints", (C, 2 * K, m))
    by_value = joints.transpose(1, 0, 2)
    cat = np.multiply(g, scale, out=by_value[:K])
    one_minus = others
    one_minus /= total
    q_all = np.prod(one_minus, axis=0)
    pob = linear_q_minus_j(q_all, one_minus, out=by_value[K:])
    pob *= cat
    return joints, q_all


def linear_q_minus_j(q_all: np.ndarray, one_minus: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``Q^{-j}_c = Q_c / (1 - theta_jc)`` (Williams 2024, eq. 4), written to ``out``.

    The plain-float form of eq. 4 (the library's reference is
    :func:`nbcourse.bounds.log_q_minus_from_terms`); the fast engine trusts it only
    where ``Q_c`` is a normal float, so the division loses nothing.
    """
    return np.divide(q_all, one_minus, out=out)


def linear_counts(weights_pi: np.ndarray, weights_theta: np.ndarray, scratch=None):
    """Per-classifier counts ``(a, d)`` and an ``unsafe`` flag, from gamma weights.

    ``weights_pi`` is (C, m) and ``weights_theta`` (K, C, m).  A classifier is
    unsafe when a joint or ``Q_c`` is below :data:`LINEAR_TINY` (or NaN),
    when a MAP class is within the margin of a runner-up, or when the two maximum
    posteriors are within the margin of each other.  Safe classifiers have all
    ``K`` observations valid.
    """
    K, C, _ = weights_theta.shape
    margin = linear_margin(K, C)
    with np.errstate(all="ignore"):
        joints, q_all = linear_joints(weights_pi, weights_theta, scratch)
        unsafe = ~(joints.min(axis=(0, 1)) >= LINEAR_TINY)  # also catches NaN
        unsafe |= ~(q_all.min(axis=0) >= LINEAR_TINY)
        best, r, close = linear_decide(joints, margin, scratch)
        r_cat, r_pob = r[:K], r[K:]
        bound = work(scratch, "bound", r_cat.shape)
        higher = np.less(r_pob, np.multiply(r_cat, 1.0 - margin, out=bound))
        decided = np.greater(r_pob, np.multiply(r_cat, 1.0 + margin, out=bound))
    decided |= higher
    close[:K] |= ~decided
    unsafe |= close.any(axis=0)
    return (higher.sum(axis=0, dtype=np.int32), (best[:K] != best[K:]).sum(axis=0, dtype=np.int32),
            unsafe)


def chunk_counts(pi: GammaDraws, theta: GammaDraws, scratch=None):
    """Per-classifier counts ``(a, d, m)`` of one chunk; unsafe classifiers go to the log engine."""
    m, C, K = theta.values.shape
    weights_pi = work(scratch, "weights_pi", (C, m))
    weights_pi[...] = pi.values.T
    weights_theta = work(scratch, "weights_theta", (K, C, m))
    weights_theta[...] = np.transpose(theta.values, (2, 1, 0))
    higher, differ, unsafe = linear_counts(weights_pi, weights_theta, scratch)
    counted = np.full(m, K, dtype=np.int32)
    if unsafe.any():
        rows = np.flatnonzero(unsafe)
        lp, lx = engine_layout(pi.log(rows), theta.log(rows))
        higher[rows], differ[rows], counted[rows] = exact.block_counts(
            lp - logsumexp(lp, axis=0, keepdims=True), lx)
    return higher, differ, counted


def iter_counts(K, alpha, n, C, prior_alpha, ss):
    """Yield per-classifier counts ``(a, d, m)`` chunk by chunk (constant memory)."""
    scratch = Scratch()
    for pi, theta in iter_draws(K, alpha, n, C, prior_alpha, ss, scratch):
        yield chunk_counts(pi, theta, scratch)
