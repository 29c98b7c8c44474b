"""Williams (2024) §3 experiments: categorical versus product-of-Bernoullis naive Bayes.

Protocol (Williams 2024, §3).  A classifier has ``C`` classes and one categorical
feature with ``K`` values.  Each class's parameter vector ``theta_c`` (length ``K``)
is drawn from ``Dir(alpha * 1)`` and the class prior ``pi`` (length ``C``) from
``Dir(prior_alpha * 1)``.  For every sampled classifier every observation
``x = j`` is considered (``j = 0, ..., K - 1`` here; the paper writes
``j = 1, ..., K``), and two statistics are counted:

* ``pob_higher`` -- the maximum posterior under the product-of-Bernoullis model
  (eq. 3) is strictly larger than under the categorical model (eq. 2);
* ``map_disagree`` -- the two models' MAP classes differ.

The paper says ``pi`` is drawn "similarly", which leaves ``prior_alpha`` open:
``prior_alpha=1.0`` (uniform on the simplex) or ``prior_alpha="alpha"`` (the same
``alpha`` as ``theta``).  :func:`paper_consistency` locates each of the paper's
n = 100 values in our sampling distribution under a reading, and
:func:`prior_alpha_evidence` compares the two readings' likelihoods.

Numerics
--------
Draws are kept so that their logs are exact: ``Dir(alpha)`` with ``alpha < 1``
comes from ``Gamma(1 + alpha) * V**(1/alpha)``, so ``theta`` entries far below the
smallest float still have finite, exact logs.  ``log(1 - theta_k)`` is computed as
the log of the sum of the *other* entries, so it stays exact when ``theta_k`` is
within rounding of 1.  An observation with zero probability under every class
(in practice only for supplied parameters with exact zeros) is excluded from
both fractions and counted in ``n_excluded``.

The counts are taken in two ways.  The log-space engine (:func:`_engine`) handles
every case.  A faster path (:func:`_linear_counts`) works with plain floating
point numbers and decides a classifier only when every joint probability is a
normal float and every comparison clears a margin far above its rounding error;
any other classifier goes to the log-space engine.  The counts are the same
either way (the tests check this chunk by chunk).

Classifiers are drawn in blocks of :data:`BLOCK`, each with its own random
streams derived from the seed, and worked through in chunks of about
:data:`_CHUNK` observations, so memory does not grow with ``n``, a given seed
gives the same numbers on every run, and the first ``n`` classifiers of a seed
are the same in any longer run.

Examples
--------
>>> r = compare_models(3, 1.0, n=100, seed=0)
>>> r.n_observations
300
>>> 0.0 <= r.pob_higher <= 1.0 and r.pob_higher_ci[0] <= r.pob_higher <= r.pob_higher_ci[1]
True
"""

from __future__ import annotations

import argparse
import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

from ._logspace import log, logsumexp
from ._validation import as_generator, check_classifier, check_int, check_positive, check_seed
from .onehot import log_q_minus_from_terms, posterior_table

__all__ = [
    "BLOCK",
    "PAPER_C",
    "PAPER_N",
    "PAPER_VALUES",
    "Fig3Data",
    "ModelComparison",
    "ObservationComparison",
    "PaperCell",
    "PaperTable",
    "SamplingDistribution",
    "compare_models",
    "compare_observations",
    "fig2_data",
    "fig3_data",
    "log_posteriors",
    "main",
    "paper_consistency",
    "paper_table",
    "prior_alpha_evidence",
    "sample_log_classifiers",
    "sample_log_dirichlet",
    "sampling_distribution",
    "simulate_replicates",
]

#: Classifiers per block: the unit of random streams.  Changing it changes which
#: random numbers each classifier gets (not the distribution).
BLOCK = 4096

#: Observations per chunk, the unit of work (``_CHUNK // K`` classifiers): small
#: enough for the work arrays to stay in cache.  Draws for ``alpha < 1`` are made
#: per chunk, so changing it changes those numbers too.
_CHUNK = 16384

#: The paper's number of classes and of sampled classifiers per cell (Williams 2024, §3).
PAPER_C = 4
PAPER_N = 100

#: Below this, ``total - 1`` is recomputed without cancellation (see :func:`_normalise`);
#: above it the cancellation error of ``log(total - 1)`` is below ~1e-11.
_R_EXACT = 1e-4


# ----------------------------------------------------------------------------
# The paper's values
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PaperCell:
    """One cell of Williams (2024) §3: ``K``, ``alpha`` and the two reported fractions.

    Attributes
    ----------
    K : int
        Number of values of the categorical feature.
    alpha_label : str
        ``"1"`` or ``"1/K"``, as in the paper.
    pob_higher, map_disagree : float
        The paper's fractions (percentages divided by 100).
    """

    K: int
    alpha_label: str
    pob_higher: float
    map_disagree: float

    @property
    def alpha(self) -> float:
        """The Dirichlet parameter ``alpha`` of the cell as a number."""
        return 1.0 if self.alpha_label == "1" else 1.0 / self.K


#: The six cells reported in Williams (2024) §3 (C = 4, n = 100 classifiers each).
PAPER_VALUES: tuple[PaperCell, ...] = (
    PaperCell(3, "1", 0.820, 0.1233),
    PaperCell(6, "1", 0.723, 0.0567),
    PaperCell(10, "1", 0.747, 0.0250),
    PaperCell(3, "1/K", 0.780, 0.1433),
    PaperCell(6, "1/K", 0.781, 0.0700),
    PaperCell(10, "1/K", 0.764, 0.0630),
)


# ----------------------------------------------------------------------------
# Argument checks
# ----------------------------------------------------------------------------


def _resolve_prior_alpha(prior_alpha, alpha: float) -> float:
    """``prior_alpha`` as a number; the string ``"alpha"`` means the same as ``alpha``."""
    if isinstance(prior_alpha, str):
        if prior_alpha != "alpha":
            raise ValueError(f'prior_alpha must be a positive number or "alpha", got {prior_alpha!r}')
        return alpha
    return check_positive(prior_alpha, "prior_alpha")


def _child(ss: np.random.SeedSequence, *key: int) -> np.random.Generator:
    """The generator for sub-stream ``key`` of ``ss`` (independent of call order)."""
    child = np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + key)
    return np.random.Generator(np.random.PCG64(child))


# ----------------------------------------------------------------------------
# Log-space sampling
# ----------------------------------------------------------------------------


class _Scratch:
    """Work arrays kept from one chunk to the next.

    Fresh arrays of a chunk's size come from newly mapped memory, and handling the
    page faults of touching it took up to a third of the engine's time; reusing
    the arrays avoids them.  ``scratch(name, shape)`` returns an uninitialised array that
    stays valid until the same name is asked for again.  ``None`` in place of a
    scratch means fresh arrays.
    """

    def __init__(self):
        self._arrays: dict[str, np.ndarray] = {}

    def __call__(self, name: str, shape, dtype=float) -> np.ndarray:
        shape = tuple(shape)
        size = math.prod(shape)
        buf = self._arrays.get(name)
        if buf is None or buf.dtype != dtype or buf.size < size:
            buf = self._arrays[name] = np.empty(size, dtype=dtype)
        return buf[:size].reshape(shape)


def _work(scratch, name: str, shape, dtype=float) -> np.ndarray:
    """An uninitialised work array: from ``scratch`` if given, else fresh."""
    return np.empty(shape, dtype=dtype) if scratch is None else scratch(name, shape, dtype)


def _small_gamma_parts(rng: np.random.Generator, a: float, n: int, scratch=None, name: str = ""):
    """``n`` draws of ``Gamma(a, 1)``, ``0 < a < 1``, as ``(G, log(V) / a)``; the draw is ``G V**(1/a)``.

    ``G ~ Gamma(1 + a)`` and ``V ~ U(0, 1]`` independent, so ``G V**(1/a) ~ Gamma(a)``
    (Marsaglia & Tsang 2000).  ``G`` is drawn by rejection: the proposal
    ``(1 + a) E`` with ``E ~ Exp(1)`` is accepted when ``U <= p(E)``, where
    ``p(E) = exp(a (log E - E + 1))`` is the target density over the scaled proposal
    (at most 1, equal to 1 at ``E = 1``); the acceptance rate is
    ``Gamma(1 + a) e**a / (1 + a)**(1 + a)``, 0.95 at ``a = 0.1`` and 0.85 at ``a = 1/3``.
    Given acceptance, ``U / p(E)`` is uniform on ``(0, 1]`` and independent of ``E``,
    so it serves as ``V``.  Rejected entries are redrawn in rounds, so the draws
    depend on ``n``; callers draw whole chunks.
    """
    e = rng.standard_exponential(out=_work(scratch, name + "e", (n,)))
    log_tail, todo = _proposals(e, rng.random(out=_work(scratch, name + "u", (n,))), a,
                                _work(scratch, name + "log_p", (n,)))
    while todo.size:
        e_new = rng.standard_exponential(todo.size)
        tail_new, again = _proposals(e_new, rng.random(todo.size), a)
        e[todo] = e_new
        log_tail[todo] = tail_new
        todo = todo[again]
    e *= 1.0 + a
    return e, log_tail


def _proposals(e: np.ndarray, u: np.ndarray, a: float, out=None):
    """``log(U / p(E)) / a`` for uniforms ``u`` in ``[0, 1)`` (``U = 1 - u``), and the rejected indices.

    ``log(U / p(E)) / a = log(U) / a - (log E - E + 1)``, computed in place of
    ``u``; ``out`` (optional) holds ``log(p(E)) / a``.  A proposal is rejected when
    ``U > p(E)``, i.e. when the result is positive; an ``E`` of 0 has ``p(E) = 0``
    and is always rejected.
    """
    with np.errstate(divide="ignore"):
        log_p_a = np.log(e, out=out)
    log_p_a -= e
    log_p_a += 1.0
    np.subtract(1.0, u, out=u)  # (0, 1]
    np.log(u, out=u)
    u *= 1.0 / a
    u -= log_p_a
    return u, np.flatnonzero(u > 0.0)


class _GammaDraws:
    """``Gamma(a, 1)`` draws as plain values, with their exact logs on demand.

    ``a = 1`` uses exponentials and ``a > 1`` numpy's gamma sampler, one draw per
    element in order.  For ``a < 1`` a draw is ``G V**(1/a)``
    (:func:`_small_gamma_parts`); its plain value may underflow, but its log
    ``log G + log(V) / a`` is exact, and :meth:`log` computes it from the kept
    ``G`` and ``log(V) / a``.  The first axis indexes classifiers.  The first ``keep``
    rows are kept; for ``a < 1`` all of ``size`` is drawn first, so the kept rows
    do not depend on ``keep``.  With a :class:`_Scratch`, the arrays are valid
    until the next draws under the same ``name``.
    """

    def __init__(self, rng: np.random.Generator, a: float, size, keep=None, scratch=None,
                 name: str = ""):
        size = tuple(size)
        keep = size[0] if keep is None else keep
        kept = (keep,) + size[1:]
        values = _work(scratch, name + "values", kept)
        self.a = a
        self._head = self._log_tail = None
        if a == 1.0:
            self.values = rng.standard_exponential(out=values)
        elif a > 1.0:
            self.values = rng.standard_gamma(a, out=values)
        else:
            head, log_tail = _small_gamma_parts(rng, a, math.prod(size), scratch, name)
            self._head = head.reshape(size)[:keep]
            self._log_tail = log_tail.reshape(size)[:keep]
            self.values = np.exp(self._log_tail, out=values)
            self.values *= self._head

    def log(self, rows=slice(None)) -> np.ndarray:
        """Exact logs of the draws ``[rows]`` (an exact 0, probability ~1e-16, gives ``-inf``)."""
        if self._head is None:
            with np.errstate(divide="ignore"):
                return np.log(self.values[rows])
        out = np.log(self._head[rows])
        out += self._log_tail[rows]
        return out


def _log_gamma(rng: np.random.Generator, a: float, size) -> np.ndarray:
    """Logs of ``Gamma(a, 1)`` draws of shape ``size``, exact for tiny ``a`` (see :class:`_GammaDraws`)."""
    return _GammaDraws(rng, a, (size,) if isinstance(size, numbers.Integral) else size).log()


def sample_log_dirichlet(alpha, K, size=(), *, seed=None) -> np.ndarray:
    """Draw ``log theta`` with ``theta ~ Dir(alpha * 1)``, exactly for tiny ``alpha``.

    Parameters
    ----------
    alpha : float
        Concentration, ``> 0``.  ``alpha = 1`` is uniform on the simplex; small
        ``alpha`` puts ``theta`` near the corners, with entries far below the
        smallest float (their logs are still finite and exact).
    K : int
        Length of each probability vector, ``>= 2``.
    size : int or tuple of int
        Leading shape.
    seed : None, int, SeedSequence or Generator

    Returns
    -------
    numpy.ndarray, shape (*size, K)
        ``log theta``; ``logsumexp`` over the last axis is 0.

    Examples
    --------
    >>> lt = sample_log_dirichlet(0.01, 5, size=3, seed=1)
    >>> lt.shape, bool(np.all(np.isfinite(lt)))
    ((3, 5), True)
    >>> np.allclose(np.logaddexp.reduce(lt, axis=-1), 0.0)
    True
    """
    alpha = check_positive(alpha, "alpha")
    K = check_int(K, "K", 2)
    size = (size,) if isinstance(size, numbers.Integral) else tuple(size)
    rng = as_generator(seed)
    lx = _log_gamma(rng, alpha, (*size, K))
    return lx - logsumexp(lx, axis=-1, keepdims=True)


def _blocks(n: int):
    """Yield ``(index, size)`` of the fixed-size blocks covering ``n`` classifiers."""
    for index, start in enumerate(range(0, n, BLOCK)):
        yield index, min(BLOCK, n - start)


def _chunk_size(K: int) -> int:
    """Classifiers per chunk, the unit of work: about :data:`_CHUNK` observations."""
    return max(1, _CHUNK // K)


def _iter_draws(K: int, alpha: float, n: int, C: int, prior_alpha: float, ss, scratch=None):
    """Yield :class:`_GammaDraws` ``(pi, theta)`` for consecutive chunks of the ``n`` classifiers.

    Each block of :data:`BLOCK` classifiers has two independent streams, for
    ``pi`` and for ``theta``, consumed chunk after chunk.  A chunk is always
    drawn whole (draws for ``a < 1`` depend on the chunk's size) and cut to the
    classifiers needed, so classifier ``i`` is the same whatever ``n``: the first
    ``n`` classifiers of a run with seed ``s`` are those of any longer run with
    seed ``s``.  With a :class:`_Scratch`, each chunk's draws are valid until the
    next chunk is drawn.
    """
    step = _chunk_size(K)
    for index, b in _blocks(n):
        pi_stream, theta_stream = _child(ss, 0, index, 0), _child(ss, 0, index, 2)
        for start in range(0, b, step):
            size = min(step, BLOCK - start)
            keep = min(step, b - start)
            yield (_GammaDraws(pi_stream, prior_alpha, (size, C), keep, scratch, "pi."),
                   _GammaDraws(theta_stream, alpha, (size, C, K), keep, scratch, "theta."))


def _engine_layout(log_pi_rows: np.ndarray, log_theta_rows: np.ndarray):
    """Rows ``(m, C)`` and ``(m, C, K)`` of log weights in the engine's layout ``(C, m)``, ``(C, K, m)``."""
    return (np.ascontiguousarray(log_pi_rows.T),
            np.ascontiguousarray(np.transpose(log_theta_rows, (1, 2, 0))))


def sample_log_classifiers(K, alpha, n, C=PAPER_C, prior_alpha=1.0, seed=None):
    """The classifiers the engine draws for a seed, as ``(log_pi, log_theta)``.

    Identical to the classifiers behind :func:`compare_models` and :func:`fig3_data`
    with the same arguments, so the engine can be checked against other code.

    Parameters
    ----------
    K, alpha, n, C, prior_alpha, seed
        As in :func:`compare_models`.

    Returns
    -------
    log_pi : numpy.ndarray, shape (n, C)
    log_theta : numpy.ndarray, shape (n, C, K)
        ``log_theta[i, c, j]`` is ``log theta_jc`` of classifier ``i`` (``j`` 0-based).

    Examples
    --------
    >>> log_pi, log_theta = sample_log_classifiers(3, 1.0, n=2, seed=0)
    >>> log_pi.shape, log_theta.shape
    ((2, 4), (2, 4, 3))
    """
    K, alpha, n, C, prior_alpha, ss = _check_cell(K, alpha, n, C, prior_alpha, seed)
    pis, thetas = [], []
    for pi, theta in _iter_draws(K, alpha, n, C, prior_alpha, ss):
        lp, lx = pi.log(), theta.log()
        pis.append(lp - logsumexp(lp, axis=1, keepdims=True))
        thetas.append(lx - logsumexp(lx, axis=2, keepdims=True))
    return np.concatenate(pis), np.concatenate(thetas)


def _check_cell(K, alpha, n, C, prior_alpha, seed):
    K = check_int(K, "K", 2)
    alpha = check_positive(alpha, "alpha")
    n = check_int(n, "n", 1)
    C = check_int(C, "C", 2)
    prior_alpha = _resolve_prior_alpha(prior_alpha, alpha)
    return K, alpha, n, C, prior_alpha, check_seed(seed)


# ----------------------------------------------------------------------------
# The engine: log theta, log(1 - theta), posteriors and the two statistics
# ----------------------------------------------------------------------------


def _leading_argmax(x: np.ndarray):
    """``(max, argmax)`` over axis 0, first index on ties.

    Built from elementwise operations on the slices ``x[c]``, which is several
    times faster than :func:`numpy.argmax` over a leading axis.
    """
    best = np.max(x, axis=0)
    idx = np.full(x.shape[1:], x.shape[0] - 1, dtype=np.int8 if x.shape[0] < 128 else np.intp)
    for c in range(x.shape[0] - 2, -1, -1):
        idx = np.where(x[c] == best, np.int8(c) if idx.dtype == np.int8 else c, idx)
    return best, idx


def _log_rest_exact(xs: np.ndarray) -> np.ndarray:
    """``log sum_{k != argmax} exp(x_k - max)`` for columns ``xs`` (L, m), via the runner-up.

    No cancellation and no underflow: the runner-up is the pivot.  ``-inf`` when
    every other entry is ``-inf``.
    """
    cols = np.arange(xs.shape[1])
    top = np.argmax(xs, axis=0)
    m1 = xs[top, cols]
    xs = xs.copy()
    xs[top, cols] = -np.inf
    m2 = np.max(xs, axis=0)
    finite = np.isfinite(m2)
    pivot = np.where(finite, m2, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rest = np.log(np.sum(np.exp(xs - pivot), axis=0)) + pivot - m1
    return np.where(finite, rest, -np.inf)


def _normalise(x: np.ndarray, m1: np.ndarray, axis: int):
    """``y = exp(x - m1)``, ``total = sum y`` along ``axis`` and ``log_r = log(total - 1)``.

    ``total - 1`` is the mass of the entries other than the top one relative to it.
    Where it is below :data:`_R_EXACT` it carries cancellation error (and is 0
    once it underflows), so ``log_r`` is recomputed there by
    :func:`_log_rest_exact`.  Returns ``(y, total, log_r, fix)``.
    """
    with np.errstate(invalid="ignore"):
        y = np.exp(x - m1)
    total = np.sum(y, axis=axis, keepdims=True)
    r = total - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        log_r = np.log(r)
    fix = r < _R_EXACT
    if fix.any():
        cols = np.moveaxis(x, axis, 0)[:, np.moveaxis(fix, axis, 0)[0]]
        np.moveaxis(log_r, axis, 0)[0][np.moveaxis(fix, axis, 0)[0]] = _log_rest_exact(cols)
    return y, total, log_r, fix


def _log_simplex(lx: np.ndarray):
    """From log weights ``lx`` (C, K, b): ``log theta`` and ``log(1 - theta)``, normalised over K.

    ``log(1 - theta_k) = log(sum_{m != k} theta_m)``.  With ``y = exp(lx - max)``
    and ``total = sum y``, that is ``log(total - y_k) - log(total)``: for every
    entry but the top one ``total - y_k >= 1`` (no cancellation); for the top one
    it is ``log_r - log(total)`` with ``log_r`` exact (see :func:`_normalise`).
    """
    m1 = np.max(lx, axis=1, keepdims=True)
    y, total, log_r, fix = _normalise(lx, m1, axis=1)
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


def _log_q_minus_j(log1m: np.ndarray) -> np.ndarray:
    """``log Q^{-j}_c = sum_{k != j} log(1 - theta_kc)`` (Williams 2024, eq. 4), shape (C, K, b).

    A row with ``theta_jc = 1`` has ``log(1 - theta_jc) = -inf``; then
    ``Q^{-j}_c = 1`` (every other entry is 0) and ``Q^{-k}_c = 0`` for ``k != j``.
    """
    return log_q_minus_from_terms(log1m, axis=1)


def _joint_logs(log_pi: np.ndarray, lx: np.ndarray):
    """Log joints ``log pi_c + log p(x = j | c)`` under both models, each shape (C, K, b).

    Categorical: ``log pi_c + log theta_jc`` (eq. 2).  PoB: plus ``log Q^{-j}_c``,
    i.e. ``log pi_c + log f_j(theta_c)`` (eqs. 1 and 3).
    """
    log_theta, log1m = _log_simplex(lx)
    cat = log_theta
    cat += log_pi[:, None, :]
    with np.errstate(invalid="ignore"):
        pob = _log_q_minus_j(log1m)
        pob += cat
    return cat, pob


def _decide(joint: np.ndarray):
    """MAP class, ``log r`` and validity per observation, each shape (K, b).

    ``r`` is the posterior mass of the losing classes over that of the winner, so
    the maximum posterior is ``1 / (1 + r)`` and comparing ``log r`` compares
    maximum posteriors exactly, even when both round to 1.  An observation with
    zero probability under every class is not valid.
    """
    m1, idx = _leading_argmax(joint)
    _, _, log_r, _ = _normalise(joint, m1[None], axis=0)
    return idx, log_r[0], m1 > -np.inf


def _engine(log_pi: np.ndarray, lx: np.ndarray):
    """Per-observation results for classifiers given as ``log_pi`` (C, b) and ``lx`` (C, K, b).

    Returns ``map_cat, map_pob, log_r_cat, log_r_pob, valid``, each shape (K, b).
    ``valid`` is False where an observation has zero probability under every class.
    """
    cat, pob = _joint_logs(log_pi, lx)
    map_cat, log_r_cat, ok_cat = _decide(cat)
    map_pob, log_r_pob, ok_pob = _decide(pob)
    return map_cat, map_pob, log_r_cat, log_r_pob, ok_cat & ok_pob


def _block_counts(log_pi, lx):
    """Per-classifier counts ``(a, d, m)``: PoB higher, MAP differs, observations counted."""
    map_cat, map_pob, log_r_cat, log_r_pob, valid = _engine(log_pi, lx)
    higher = (log_r_pob < log_r_cat) & valid
    differ = (map_cat != map_pob) & valid
    return (higher.sum(axis=0, dtype=np.int32), differ.sum(axis=0, dtype=np.int32),
            valid.sum(axis=0, dtype=np.int32))


# ----------------------------------------------------------------------------
# The fast path: the same counts in plain floating point, checked as it goes
# ----------------------------------------------------------------------------
#
# For sampled classifiers almost every joint probability is a normal float, so
# the counts can be taken without logs and exps.  Each classifier is either
# decided in plain floating point, where every comparison clears a margin far
# above the rounding error, or marked unsafe and recomputed by the log-space
# engine above.  The counts are therefore the log-space engine's counts.


#: Joint probabilities below this send their classifier to the log-space engine
#: (far above the subnormal range, where relative precision is lost).
_LINEAR_TINY = 1e-280


def _linear_margin(K: int, C: int) -> float:
    """Relative margin a fast-path comparison must clear to be trusted.

    The joints carry a relative rounding error below ``2 (K + C)**2`` units of
    ``eps`` (sums of positive terms, a product of ``K`` factors, a few divisions);
    the margin is 1e-10 plus eight times that bound.
    """
    return 1e-10 + 16.0 * (K + C) ** 2 * np.finfo(float).eps


def _linear_decide(joint: np.ndarray, margin: float, scratch=None):
    """For joints (C, L, m): MAP class, ``r`` and a near-tie flag, each shape (L, m).

    One pass over the classes keeps the running maximum; each comparison's loser
    is added to ``rest`` (the mass of the losing classes, summed without
    cancellation) and to the running runner-up.  ``r = rest / max`` is the ratio
    of losing to winning mass, as ``log_r`` is in :func:`_decide`.  The MAP class
    is the first maximum: indices only grow along the pass, so ``max(idx, c * gt)``
    records a strictly larger value at class ``c``.
    """
    C, L, m = joint.shape
    itype = np.int8 if C < 128 else np.int32
    top, rest, second, loser = (_work(scratch, name, (L, m))
                                for name in ("top", "rest", "second", "loser"))
    idx = _work(scratch, "idx", (L, m), itype)
    step = _work(scratch, "step", (L, m), itype)
    gt = _work(scratch, "gt", (L, m), bool)
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


def _linear_joints(weights_pi: np.ndarray, weights_theta: np.ndarray, scratch=None):
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
    others = _work(scratch, "others", g.shape)
    others[K - 1] = 0.0
    for k in range(K - 2, -1, -1):
        np.add(others[k + 1], g[k + 1], out=others[k])
    total = g[0].copy()
    for k in range(1, K):
        others[k] += total
        total += g[k]
    scale = weights_pi / weights_pi.sum(axis=0)
    scale /= total
    joints = _work(scratch, "joints", (C, 2 * K, m))
    by_value = joints.transpose(1, 0, 2)
    cat = np.multiply(g, scale, out=by_value[:K])
    one_minus = others
    one_minus /= total
    q_all = np.prod(one_minus, axis=0)
    pob = _linear_q_minus_j(q_all, one_minus, out=by_value[K:])
    pob *= cat
    return joints, q_all


def _linear_q_minus_j(q_all: np.ndarray, one_minus: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``Q^{-j}_c = Q_c / (1 - theta_jc)`` (Williams 2024, eq. 4), written to ``out``."""
    return np.divide(q_all, one_minus, out=out)


def _linear_counts(weights_pi: np.ndarray, weights_theta: np.ndarray, scratch=None):
    """Per-classifier counts ``(a, d)`` and an ``unsafe`` flag, from gamma weights.

    ``weights_pi`` is (C, m) and ``weights_theta`` (K, C, m).  A classifier is
    unsafe when a joint or ``Q_c`` is below :data:`_LINEAR_TINY` (or NaN),
    when a MAP class is within the margin of a runner-up, or when the two maximum
    posteriors are within the margin of each other.  Safe classifiers have all
    ``K`` observations valid.
    """
    K, C, _ = weights_theta.shape
    margin = _linear_margin(K, C)
    with np.errstate(all="ignore"):
        joints, q_all = _linear_joints(weights_pi, weights_theta, scratch)
        unsafe = ~(joints.min(axis=(0, 1)) >= _LINEAR_TINY)  # also catches NaN
        unsafe |= ~(q_all.min(axis=0) >= _LINEAR_TINY)
        best, r, close = _linear_decide(joints, margin, scratch)
        r_cat, r_pob = r[:K], r[K:]
        bound = _work(scratch, "bound", r_cat.shape)
        higher = np.less(r_pob, np.multiply(r_cat, 1.0 - margin, out=bound))
        decided = np.greater(r_pob, np.multiply(r_cat, 1.0 + margin, out=bound))
    decided |= higher
    close[:K] |= ~decided
    unsafe |= close.any(axis=0)
    return (higher.sum(axis=0, dtype=np.int32), (best[:K] != best[K:]).sum(axis=0, dtype=np.int32),
            unsafe)


def _fast_counts(pi: _GammaDraws, theta: _GammaDraws, scratch=None):
    """Per-classifier counts ``(a, d, m)`` of one chunk; unsafe classifiers go to the log engine."""
    m, C, K = theta.values.shape
    weights_pi = _work(scratch, "weights_pi", (C, m))
    weights_pi[...] = pi.values.T
    weights_theta = _work(scratch, "weights_theta", (K, C, m))
    weights_theta[...] = np.transpose(theta.values, (2, 1, 0))
    higher, differ, unsafe = _linear_counts(weights_pi, weights_theta, scratch)
    counted = np.full(m, K, dtype=np.int32)
    if unsafe.any():
        rows = np.flatnonzero(unsafe)
        lp, lx = _engine_layout(pi.log(rows), theta.log(rows))
        higher[rows], differ[rows], counted[rows] = _block_counts(
            lp - logsumexp(lp, axis=0, keepdims=True), lx)
    return higher, differ, counted


def _iter_counts(K, alpha, n, C, prior_alpha, ss):
    """Yield per-classifier counts ``(a, d, m)`` chunk by chunk (constant memory)."""
    scratch = _Scratch()
    for pi, theta in _iter_draws(K, alpha, n, C, prior_alpha, ss, scratch):
        yield _fast_counts(pi, theta, scratch)


# ----------------------------------------------------------------------------
# Supplied parameters: posteriors and per-observation comparison
# ----------------------------------------------------------------------------


def _check_params(pi, theta):
    """Validate ``pi`` (..., C) and ``theta`` (..., C, K); return the engine's logs and the leading shape."""
    pi, theta = check_classifier(pi, theta)
    lead = np.broadcast_shapes(pi.shape[:-1], theta.shape[:-2])
    C, K = theta.shape[-2:]
    pi = np.broadcast_to(pi, lead + (C,))
    theta = np.broadcast_to(theta, lead + (C, K))
    log_pi = log(pi.reshape(-1, C).T)
    lx = log(np.transpose(theta.reshape(-1, C, K), (1, 2, 0)))
    return log_pi, lx, lead


def log_posteriors(pi, theta, *, undefined="raise"):
    """Log posteriors ``log p(y = c | x = j)`` of every observation under both models.

    Categorical model, Williams (2024) eq. 2; product of Bernoullis, eq. 3 with
    ``tilde pi = pi`` and ``tilde theta = theta``.

    Parameters
    ----------
    pi : array_like, shape (..., C)
        Class priors.
    theta : array_like, shape (..., C, K)
        ``theta[..., c, j] = p(x = j | y = c)``, ``j`` 0-based; rows sum to 1.
    undefined : {"raise", "nan"}, default "raise"
        An observation with zero probability under every class has no posterior:
        raise a ValueError, or give NaN in every class (the library's one convention,
        see :func:`nbcourse.posterior_table`).

    Returns
    -------
    log_post_cat, log_post_pob : numpy.ndarray, shape (..., K, C)
        ``[..., j, c]`` is the log posterior of class ``c`` given ``x = j``:
        :func:`nbcourse.posterior_table` for both models.

    Examples
    --------
    >>> pi, theta = [0.65, 0.35], [[0.3, 0.7, 0.0], [0.5, 0.25, 0.25]]
    >>> cat, pob = log_posteriors(pi, theta)
    >>> np.round(np.exp(cat[0]), 4)  # 0.65*0.3 against 0.35*0.5
    array([0.527, 0.473])
    >>> np.round(np.exp(pob[0]), 4)  # times Q^{-0}: 0.7*1.0 against 0.75*0.75
    array([0.3728, 0.6272])
    """
    return (posterior_table(pi, theta, "categorical", log=True, undefined=undefined),
            posterior_table(pi, theta, "pob", log=True, undefined=undefined))


@dataclass(frozen=True)
class ObservationComparison:
    """Per-observation comparison of the two models; every array has shape (..., K).

    Attributes
    ----------
    max_posterior_categorical, max_posterior_pob : numpy.ndarray of float
        ``max_c p(y = c | x = j)`` under eq. 2 and eq. 3; NaN where ``valid`` is False.
    map_categorical, map_pob : numpy.ndarray of int
        MAP class (first on ties); -1 where ``valid`` is False.
    pob_higher : numpy.ndarray of bool
        PoB maximum posterior strictly larger (compared exactly in log space).
    map_disagree : numpy.ndarray of bool
        The MAP classes differ.
    valid : numpy.ndarray of bool
        False where the observation has zero probability under every class.
    """

    max_posterior_categorical: np.ndarray
    max_posterior_pob: np.ndarray
    map_categorical: np.ndarray
    map_pob: np.ndarray
    pob_higher: np.ndarray
    map_disagree: np.ndarray
    valid: np.ndarray


def _observation_comparison(log_pi, lx, lead) -> ObservationComparison:
    map_cat, map_pob, log_r_cat, log_r_pob, valid = _engine(log_pi, lx)
    K = lx.shape[1]

    def shaped(a):
        return a.T.reshape(*lead, K)

    p_cat = np.where(valid, expit(-np.where(valid, log_r_cat, 0.0)), np.nan)
    p_pob = np.where(valid, expit(-np.where(valid, log_r_pob, 0.0)), np.nan)
    return ObservationComparison(
        max_posterior_categorical=shaped(p_cat),
        max_posterior_pob=shaped(p_pob),
        map_categorical=shaped(np.where(valid, map_cat, -1)),
        map_pob=shaped(np.where(valid, map_pob, -1)),
        pob_higher=shaped((log_r_pob < log_r_cat) & valid),
        map_disagree=shaped((map_cat != map_pob) & valid),
        valid=shaped(valid),
    )


def compare_observations(pi, theta) -> ObservationComparison:
    """Compare the categorical and PoB classifiers on every observation ``x = j``.

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
        As in :func:`log_posteriors`.

    Returns
    -------
    ObservationComparison
        Arrays of shape (..., K).

    Examples
    --------
    >>> r = compare_observations([0.65, 0.35], [[0.3, 0.7, 0.0], [0.5, 0.25, 0.25]])
    >>> r.map_categorical.tolist(), r.map_pob.tolist()
    ([0, 0, 1], [1, 0, 1])
    >>> r.pob_higher.tolist()  # at x = 2 both posteriors are exactly 1: a tie
    [True, True, False]
    >>> r = compare_observations([0.5, 0.5], [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    >>> r.valid.tolist()  # x = 1 and x = 2 are impossible under both classes
    [True, False, False]
    """
    return _observation_comparison(*_check_params(pi, theta))


# ----------------------------------------------------------------------------
# compare_models: counts, point estimates, cluster-bootstrap intervals
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelComparison:
    """Result of :func:`compare_models` for one cell.

    Attributes
    ----------
    K, alpha, n, C, prior_alpha : cell parameters (``prior_alpha`` as a number).
    pob_higher, map_disagree : float
        Fractions of the counted observations, in [0, 1].
    pob_higher_ci, map_disagree_ci : tuple of float
        Percentile cluster-bootstrap intervals (classifiers resampled, each with
        all its observations) at level ``confidence``.
    n_observations : int
        ``(classifier, j)`` pairs counted.
    n_excluded : int
        Pairs with zero probability under every class (excluded from both fractions).
    pob_higher_count, map_disagree_count : int
        Numerators of the fractions.
    pob_higher_table, map_disagree_table : numpy.ndarray of int, shape (K + 1, K + 1)
        ``table[m, a]`` = number of classifiers with ``m`` counted observations of
        which ``a`` had the property.  They determine the per-classifier
        distribution used by :func:`sampling_distribution`.
    confidence : float
    entropy : int or tuple
        Entropy of the seed sequence, so a run with ``seed=None`` can be repeated.
    """

    K: int
    alpha: float
    n: int
    C: int
    prior_alpha: float
    pob_higher: float
    map_disagree: float
    pob_higher_ci: tuple[float, float]
    map_disagree_ci: tuple[float, float]
    n_observations: int
    n_excluded: int
    pob_higher_count: int
    map_disagree_count: int
    pob_higher_table: np.ndarray = field(repr=False)
    map_disagree_table: np.ndarray = field(repr=False)
    confidence: float = 0.95
    entropy: object = field(default=None, repr=False)


def _count_tables(K, alpha, n, C, prior_alpha, ss):
    """Accumulate the ``(m, a)`` and ``(m, d)`` tables over blocks."""
    size = (K + 1) * (K + 1)
    higher = np.zeros(size, dtype=np.int64)
    differ = np.zeros(size, dtype=np.int64)
    for a, d, m in _iter_counts(K, alpha, n, C, prior_alpha, ss):
        higher += np.bincount(m * (K + 1) + a, minlength=size)
        differ += np.bincount(m * (K + 1) + d, minlength=size)
    return higher.reshape(K + 1, K + 1), differ.reshape(K + 1, K + 1)


def _table_ratio(table: np.ndarray) -> tuple[int, int]:
    """Numerator and denominator ``(sum a, sum m)`` of a ``(m, a)`` table."""
    m = np.arange(table.shape[0])[:, None]
    a = np.arange(table.shape[1])[None, :]
    return int((table * a).sum()), int((table * m).sum())


def _cluster_bootstrap_ci(table, confidence=0.95, n_boot=2000, rng=None) -> tuple[float, float]:
    """Percentile cluster-bootstrap interval for ``sum a / sum m`` from a ``(m, a)`` table.

    Resampling ``n`` classifiers with replacement is a multinomial draw over the
    ``(m, a)`` categories, so the cost does not depend on ``n``.
    """
    table = np.asarray(table)
    n = int(table.sum())
    counts = table.ravel()
    keep = counts > 0
    m = np.repeat(np.arange(table.shape[0]), table.shape[1])[keep]
    a = np.tile(np.arange(table.shape[1]), table.shape[0])[keep]
    draws = rng.multinomial(n, counts[keep] / n, size=n_boot)
    num, den = draws @ a, draws @ m
    ok = den > 0
    if not ok.any():
        return (0.0, 0.0)
    stats = num[ok] / den[ok]
    lo, hi = np.quantile(stats, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(lo), float(hi)


def compare_models(
    K, alpha, n=PAPER_N, C=PAPER_C, prior_alpha=1.0, seed=None, *, confidence=0.95, n_boot=2000
) -> ModelComparison:
    """Sample ``n`` classifiers and compare the categorical and PoB models (Williams 2024, §3).

    Parameters
    ----------
    K : int
        Values of the categorical feature, ``>= 2``.
    alpha : float
        ``theta_c ~ Dir(alpha * 1)`` for each class.
    n : int
        Number of sampled classifiers (the paper used 100).
    C : int
        Number of classes (the paper used 4).
    prior_alpha : float or "alpha"
        ``pi ~ Dir(prior_alpha * 1)``; ``"alpha"`` uses the same ``alpha`` as ``theta``.
    seed : None, int, SeedSequence or Generator
        Same seed, same numbers.
    confidence : float
        Level of the cluster-bootstrap intervals.
    n_boot : int
        Bootstrap resamples.

    Returns
    -------
    ModelComparison

    Examples
    --------
    >>> r = compare_models(3, 1.0, n=1000, seed=0)
    >>> r.n_observations, r.n_excluded
    (3000, 0)
    >>> round(r.pob_higher, 2), round(r.map_disagree, 2)
    (0.78, 0.13)
    """
    K, alpha, n, C, prior_alpha, ss = _check_cell(K, alpha, n, C, prior_alpha, seed)
    if not (isinstance(confidence, numbers.Real) and 0 < confidence < 1):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    n_boot = check_int(n_boot, "n_boot", 10)
    higher, differ = _count_tables(K, alpha, n, C, prior_alpha, ss)
    a, total = _table_ratio(higher)
    d, _ = _table_ratio(differ)
    boot = _child(ss, 1, 0)
    return ModelComparison(
        K=K, alpha=alpha, n=n, C=C, prior_alpha=prior_alpha,
        pob_higher=a / total if total else 0.0,
        map_disagree=d / total if total else 0.0,
        pob_higher_ci=_cluster_bootstrap_ci(higher, confidence, n_boot, boot),
        map_disagree_ci=_cluster_bootstrap_ci(differ, confidence, n_boot, boot),
        n_observations=total, n_excluded=n * K - total,
        pob_higher_count=a, map_disagree_count=d,
        pob_higher_table=higher, map_disagree_table=differ,
        confidence=float(confidence), entropy=ss.entropy,
    )


# ----------------------------------------------------------------------------
# Sampling distributions at the paper's n
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SamplingDistribution:
    """Distribution of a fraction ``sum a / sum m`` over ``n`` independent classifiers.

    Attributes
    ----------
    counts : numpy.ndarray of int, shape (L,)
        Possible numerators ``0, ..., n * K``.
    fractions : numpy.ndarray of float, shape (L,)
        ``counts / (n * K)``.
    pmf : numpy.ndarray of float, shape (L,)
        Their probabilities.
    n, K : int
    """

    counts: np.ndarray
    fractions: np.ndarray
    pmf: np.ndarray
    n: int
    K: int

    def mean(self) -> float:
        """Expected fraction."""
        return float(self.pmf @ self.fractions)

    def quantile(self, value: float) -> float:
        """Mid-distribution function at ``value``: ``P(X < value) + P(X = value) / 2``.

        ``value`` is rounded to the nearest attainable count, as the paper's
        rounded percentages are.
        """
        k = self.count_of(value)
        return float(self.pmf[:k].sum() + 0.5 * self.pmf[k])

    def p_value(self, value: float) -> float:
        """Two-sided p-value of ``value``: ``min(1, 2 * min(P(X <= k), P(X >= k)))``."""
        k = self.count_of(value)
        lower, upper = self.pmf[: k + 1].sum(), self.pmf[k:].sum()
        return float(min(1.0, 2.0 * min(lower, upper)))

    def log_pmf(self, value: float) -> float:
        """``log P(X = k)`` at the count nearest to ``value`` (``-inf`` if impossible)."""
        p = self.pmf[self.count_of(value)]
        return float(np.log(p)) if p > 0 else -math.inf

    def count_of(self, value: float) -> int:
        """The attainable numerator nearest to ``value * n * K``."""
        return int(np.clip(round(value * self.n * self.K), 0, self.n * self.K))


def _convolve_power(p: np.ndarray, n: int) -> np.ndarray:
    """``n``-fold convolution of the pmf ``p`` with itself (repeated squaring).

    Direct convolution of non-negative arrays: tails keep their relative accuracy.
    """
    out = np.array([1.0])
    base = p
    while n:
        if n & 1:
            out = np.convolve(out, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
    return out / out.sum()


def sampling_distribution(result, statistic="pob_higher", n=PAPER_N) -> SamplingDistribution:
    """Exact distribution of a statistic over ``n`` classifiers, given a large-n run.

    The per-classifier distribution of the count ``a`` (out of ``K`` observations)
    is estimated by ``result``'s table; the statistic at ``n`` classifiers is
    ``sum a / (n K)``, whose distribution is the ``n``-fold convolution.

    Parameters
    ----------
    result : ModelComparison
        Typically with ``result.n`` much larger than ``n``.
    statistic : {"pob_higher", "map_disagree"}
    n : int
        Number of classifiers per replicate (the paper used 100).

    Returns
    -------
    SamplingDistribution

    Raises
    ------
    ValueError
        If ``result`` excluded observations (the fraction then has a random
        denominator, which this function does not model).

    Examples
    --------
    >>> big = compare_models(3, 1.0, n=20_000, seed=0)
    >>> dist = sampling_distribution(big, "pob_higher", n=100)
    >>> dist.fractions.shape, round(dist.mean(), 3) == round(big.pob_higher, 3)
    ((301,), True)
    """
    if not isinstance(result, ModelComparison):
        raise TypeError(f"result must be a ModelComparison, got {type(result).__name__}")
    if statistic not in ("pob_higher", "map_disagree"):
        raise ValueError(f'statistic must be "pob_higher" or "map_disagree", got {statistic!r}')
    n = check_int(n, "n", 1)
    if result.n_excluded:
        raise ValueError(
            f"result must count every observation; it excluded {result.n_excluded} "
            "with zero probability under every class"
        )
    table = getattr(result, f"{statistic}_table")
    K = result.K
    p = table[K] / table[K].sum()
    pmf = _convolve_power(p, n)
    counts = np.arange(pmf.size)
    return SamplingDistribution(counts, counts / (n * K), pmf, n, K)


def simulate_replicates(
    K, alpha, n=PAPER_N, n_replicates=1000, C=PAPER_C, prior_alpha=1.0, seed=None
):
    """Run the paper's protocol ``n_replicates`` times and return each replicate's fractions.

    Replicate ``r`` uses classifiers ``r n, ..., (r + 1) n - 1`` of one long run, so
    the replicates are independent and the whole call costs one run of
    ``n * n_replicates`` classifiers.

    Parameters
    ----------
    K, alpha, n, C, prior_alpha, seed
        As in :func:`compare_models`; ``n`` is the size of one replicate.
    n_replicates : int

    Returns
    -------
    pob_higher, map_disagree : numpy.ndarray, shape (n_replicates,)
        Fractions per replicate (NaN-free: a replicate whose observations were all
        excluded counts as 0).

    Examples
    --------
    >>> ph, md = simulate_replicates(3, 1.0, n=100, n_replicates=5, seed=0)
    >>> ph.shape, bool(np.all((0 <= md) & (md <= 1)))
    ((5,), True)
    """
    n_replicates = check_int(n_replicates, "n_replicates", 1)
    K, alpha, n, C, prior_alpha, ss = _check_cell(K, alpha, n, C, prior_alpha, seed)
    parts = list(_iter_counts(K, alpha, n * n_replicates, C, prior_alpha, ss))
    a, d, m = (np.concatenate([p[i] for p in parts]).reshape(n_replicates, n).sum(axis=1)
               for i in range(3))
    safe = np.maximum(m, 1)
    return a / safe, d / safe


# ----------------------------------------------------------------------------
# The paper's table, ours beside it, and the prior_alpha question
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PaperTable:
    """The six cells of Williams (2024) §3, the paper's values beside ours.

    Attributes
    ----------
    cells : tuple of PaperCell
        The paper's values (:data:`PAPER_VALUES`).
    results : tuple of ModelComparison
        Ours, in the same order.
    n, seed, prior_alpha
        The arguments used.
    """

    cells: tuple
    results: tuple
    n: int
    seed: object
    prior_alpha: object

    def rows(self) -> list[dict]:
        """One dict per cell: ``K``, ``alpha``, paper and our values, intervals, exclusions."""
        return [
            {
                "K": cell.K, "alpha": cell.alpha_label,
                "paper_pob_higher": cell.pob_higher, "pob_higher": r.pob_higher,
                "pob_higher_ci": r.pob_higher_ci,
                "paper_map_disagree": cell.map_disagree, "map_disagree": r.map_disagree,
                "map_disagree_ci": r.map_disagree_ci,
                "n_observations": r.n_observations, "n_excluded": r.n_excluded,
            }
            for cell, r in zip(self.cells, self.results, strict=True)
        ]

    def to_string(self) -> str:
        """The table as fixed-width text, percentages to two decimals."""
        level = round(100 * self.results[0].confidence)
        head = (f"{'K':>3} {'alpha':>5} | {'PoB higher (%)':^31} | {'MAP differs (%)':^31} | excluded\n"
                f"{'':>3} {'':>5} | {'paper':>6} {'ours':>7} {f'{level}% interval':>16} "
                f"| {'paper':>6} {'ours':>7} {f'{level}% interval':>16} |")
        lines = [head]
        for row in self.rows():
            lines.append(
                f"{row['K']:>3} {row['alpha']:>5} | {_pct(row['paper_pob_higher'])} "
                f"{_pct(row['pob_higher'], 7)} {_pct_ci(row['pob_higher_ci'])} | "
                f"{_pct(row['paper_map_disagree'])} {_pct(row['map_disagree'], 7)} "
                f"{_pct_ci(row['map_disagree_ci'])} | {row['n_excluded']}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_string()

    def to_frame(self):
        """The rows as a :class:`pandas.DataFrame` (pandas is imported on demand)."""
        import pandas as pd

        return pd.DataFrame(self.rows())


def _pct(x: float, width: int = 6) -> str:
    return f"{100 * x:{width}.2f}"


def _pct_ci(ci) -> str:
    return f"[{100 * ci[0]:6.2f}, {100 * ci[1]:6.2f}]"


def paper_table(n=PAPER_N, seed=0, prior_alpha=1.0, *, confidence=0.95, n_boot=2000) -> PaperTable:
    """Reproduce the six cells of Williams (2024) §3 (C = 4; K = 3, 6, 10; alpha = 1, 1/K).

    Each cell gets its own independent random stream derived from ``seed``.

    Parameters
    ----------
    n : int
        Classifiers per cell (the paper used 100).
    seed : None, int or SeedSequence
    prior_alpha : float or "alpha"
        ``pi ~ Dir(prior_alpha * 1)``; ``"alpha"`` uses each cell's ``alpha``.
    confidence, n_boot
        As in :func:`compare_models`.

    Returns
    -------
    PaperTable

    Examples
    --------
    >>> t = paper_table(n=100, seed=0)
    >>> [(row["K"], row["alpha"], row["paper_pob_higher"]) for row in t.rows()][:2]
    [(3, '1', 0.82), (6, '1', 0.723)]
    """
    ss = check_seed(seed)
    results = tuple(
        compare_models(cell.K, cell.alpha, n=n, C=PAPER_C, prior_alpha=prior_alpha,
                       seed=np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, i)),
                       confidence=confidence, n_boot=n_boot)
        for i, cell in enumerate(PAPER_VALUES)
    )
    return PaperTable(PAPER_VALUES, results, results[0].n, seed, prior_alpha)


def paper_consistency(prior_alpha=1.0, n_truth=1_000_000, seed=0, n=PAPER_N) -> list[dict]:
    """Where each of the paper's twelve values falls in our n = 100 sampling distribution.

    For every cell, a run of ``n_truth`` classifiers estimates the per-classifier
    distribution; :func:`sampling_distribution` turns it into the exact
    distribution of the statistic at ``n`` classifiers.  The paper's value is then
    located in it.

    Parameters
    ----------
    prior_alpha : float or "alpha"
        The reading of "similarly" to test.
    n_truth : int
        Classifiers per cell for the large run.
    seed : int or SeedSequence
    n : int
        Classifiers per replicate (the paper used 100).

    Returns
    -------
    list of dict
        One per (cell, statistic): ``K``, ``alpha``, ``statistic``, ``paper``,
        ``truth`` (large-n value), ``truth_ci``, ``sd`` (standard deviation at
        ``n``), ``z``, ``quantile`` (mid-distribution function at the paper's
        value), ``p_value`` (two-sided) and ``log_pmf`` (log probability of the
        paper's count: summed over cells it is a log likelihood of the reading).

    Examples
    --------
    >>> rows = paper_consistency(1.0, n_truth=5_000, seed=0)
    >>> len(rows), sorted(rows[0])[:4]
    (12, ['K', 'alpha', 'log_pmf', 'p_value'])
    """
    table = paper_table(n=n_truth, seed=seed, prior_alpha=prior_alpha)
    rows = []
    for cell, result in zip(table.cells, table.results, strict=True):
        for statistic in ("pob_higher", "map_disagree"):
            dist = sampling_distribution(result, statistic, n=n)
            paper = getattr(cell, statistic)
            mean = dist.mean()
            sd = float(np.sqrt(dist.pmf @ (dist.fractions - mean) ** 2))
            rows.append({
                "K": cell.K, "alpha": cell.alpha_label, "statistic": statistic,
                "paper": paper, "truth": getattr(result, statistic),
                "truth_ci": getattr(result, f"{statistic}_ci"), "sd": sd,
                "z": (paper - mean) / sd, "quantile": dist.quantile(paper),
                "p_value": dist.p_value(paper), "log_pmf": dist.log_pmf(paper),
            })
    return rows


def prior_alpha_evidence(n_truth=1_000_000, seed=0, n=PAPER_N) -> dict:
    """Compare the two readings of "pi is drawn similarly" on the paper's own numbers.

    For each reading (``prior_alpha=1.0`` and ``prior_alpha="alpha"``) and each
    statistic, sums the log probabilities of the paper's six counts under our
    n = 100 sampling distributions (cells are independent, so the sum is a log
    likelihood).  The ``alpha = 1`` cells are the same under both readings and
    cancel in the difference.

    Parameters
    ----------
    n_truth, seed, n
        As in :func:`paper_consistency`.

    Returns
    -------
    dict
        ``rows``: ``{reading: paper_consistency rows}``; ``log_likelihood``:
        ``{reading: {statistic: float}}``; ``log_likelihood_ratio``:
        ``{statistic: log L(1.0) - log L("alpha")}`` (positive favours ``pi ~ Dir(1)``).

    Examples
    --------
    >>> ev = prior_alpha_evidence(n_truth=5_000, seed=0)
    >>> sorted(ev["log_likelihood_ratio"])
    ['map_disagree', 'pob_higher']
    """
    rows = {reading: paper_consistency(reading, n_truth=n_truth, seed=seed, n=n)
            for reading in (1.0, "alpha")}
    loglik = {reading: {stat: float(sum(r["log_pmf"] for r in rs if r["statistic"] == stat))
                        for stat in ("pob_higher", "map_disagree")}
              for reading, rs in rows.items()}
    ratio = {stat: loglik[1.0][stat] - loglik["alpha"][stat] for stat in loglik[1.0]}
    return {"rows": rows, "log_likelihood": loglik, "log_likelihood_ratio": ratio}


# ----------------------------------------------------------------------------
# Figures 2 and 3
# ----------------------------------------------------------------------------


def fig2_data(K=3, alpha=1.0, n=500, seed=0, mirror=True):
    """Points of Williams (2024) Fig. 2: ``log(theta_jc / theta_jd)`` and ``log(f_j(theta_c) / f_j(theta_d))``.

    ``f_j(theta) = theta_j Q^{-j}(theta)`` (Williams 2024, §2).  ``n`` independent
    pairs ``(theta_c, theta_d)`` are drawn from ``Dir(alpha * 1)`` and every
    ``j = 0, ..., K - 1`` gives a point.  With ``mirror`` each point ``(x, y)`` is
    also included as ``(-x, -y)``, as in the paper's footnote 2 (the order of the
    two classes is arbitrary).

    Parameters
    ----------
    K : int
    alpha : float
    n : int
        Number of pairs.
    seed : None, int, SeedSequence or Generator
    mirror : bool

    Returns
    -------
    x, y : numpy.ndarray, shape (n * K * (2 if mirror else 1),)
        ``x = log(theta_jc / theta_jd)``, ``y = log(f_j(theta_c) / f_j(theta_d))``.

    Examples
    --------
    >>> x, y = fig2_data(3, 1.0, n=10, seed=0)
    >>> x.shape, bool(np.allclose(x[:30], -x[30:]))
    ((60,), True)
    """
    K = check_int(K, "K", 2)
    alpha = check_positive(alpha, "alpha")
    n = check_int(n, "n", 1)
    rng = as_generator(seed)
    log_theta, log1m = _log_simplex(_log_gamma(rng, alpha, (2, K, n)))
    log_f = log_theta + _log_q_minus_j(log1m)
    x = (log_theta[0] - log_theta[1]).T.ravel()
    y = (log_f[0] - log_f[1]).T.ravel()
    if mirror:
        x, y = np.concatenate([x, -x]), np.concatenate([y, -y])
    return x, y


@dataclass(frozen=True)
class Fig3Data:
    """Points of Williams (2024) Fig. 3, one per counted observation.

    Attributes
    ----------
    max_posterior_categorical, max_posterior_pob : numpy.ndarray, shape (m,)
    map_agree : numpy.ndarray of bool, shape (m,)
    n_excluded : int
        Observations with zero probability under every class (not plotted).
    """

    max_posterior_categorical: np.ndarray
    max_posterior_pob: np.ndarray
    map_agree: np.ndarray
    n_excluded: int


def fig3_data(K=3, alpha=1.0, n=PAPER_N, C=PAPER_C, prior_alpha=1.0, seed=0) -> Fig3Data:
    """Maximum posteriors under both models and MAP agreement (Williams 2024, Fig. 3).

    Uses the same classifiers as :func:`compare_models` with the same arguments,
    so its counts match that function's.

    Parameters
    ----------
    K, alpha, n, C, prior_alpha, seed
        As in :func:`compare_models`.

    Returns
    -------
    Fig3Data

    Examples
    --------
    >>> d = fig3_data(3, 1.0, n=100, seed=0)
    >>> d.max_posterior_pob.shape, d.n_excluded
    ((300,), 0)
    """
    K, alpha, n, C, prior_alpha, ss = _check_cell(K, alpha, n, C, prior_alpha, seed)
    parts = []
    for pi, theta in _iter_draws(K, alpha, n, C, prior_alpha, ss):
        lp, lx = _engine_layout(pi.log(), theta.log())
        parts.append(_observation_comparison(lp - logsumexp(lp, axis=0, keepdims=True), lx,
                                             (lp.shape[1],)))
    valid = np.concatenate([p.valid for p in parts]).ravel()
    def cat(name):
        return np.concatenate([getattr(p, name) for p in parts]).ravel()[valid]
    return Fig3Data(
        max_posterior_categorical=cat("max_posterior_categorical"),
        max_posterior_pob=cat("max_posterior_pob"),
        map_agree=~cat("map_disagree"),
        n_excluded=int(valid.size - valid.sum()),
    )


# ----------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------


def _prior_alpha_arg(text: str):
    if text == "alpha":
        return "alpha"
    try:
        return check_positive(float(text), "--prior-alpha")
    except ValueError:
        raise argparse.ArgumentTypeError(f'expected a positive number or "alpha", got {text!r}') from None


def _positive_int_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _seed_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def main(argv=None) -> int:
    """``python -m nbcourse reproduce [--n N] [--seed S] [--prior-alpha A]``: print the table.

    Prints the paper's values, ours and the cluster-bootstrap 95% intervals for
    the six cells of Williams (2024) §3.  Returns the exit code (0 on success,
    2 on bad arguments).

    Examples
    --------
    >>> main(["--n", "100", "--seed", "0"])  # doctest: +ELLIPSIS
    Williams (2024) §3: C = 4, n = 100 classifiers per cell, pi ~ Dir(1), seed 0
    ...
    0
    """
    parser = argparse.ArgumentParser(
        prog="python -m nbcourse reproduce",
        description="Reproduce the two tables of Williams (2024) §3: the paper's values, ours, "
                    "and cluster-bootstrap intervals.",
    )
    parser.add_argument("--n", type=_positive_int_arg, default=PAPER_N,
                        help="classifiers per cell (default: 100, as in the paper)")
    parser.add_argument("--seed", type=_seed_arg, default=0, help="random seed (default: 0)")
    parser.add_argument("--prior-alpha", type=_prior_alpha_arg, default=1.0,
                        help='pi ~ Dir(A * 1); "alpha" uses each cell\'s alpha (default: 1)')
    try:
        args = parser.parse_args([] if argv is None else list(argv))
    except SystemExit as exc:  # argparse has printed the message
        return int(exc.code or 0)
    table = paper_table(n=args.n, seed=args.seed, prior_alpha=args.prior_alpha)
    prior = "alpha" if args.prior_alpha == "alpha" else f"{args.prior_alpha:g}"
    print(f"Williams (2024) §3: C = {PAPER_C}, n = {args.n} classifiers per cell, "
          f"pi ~ Dir({prior}), seed {args.seed}")
    print(table.to_string())
    print("Intervals: percentile cluster bootstrap (classifiers resampled with all K of their "
          "observations); excluded: observations with zero probability under every class.")
    return 0
