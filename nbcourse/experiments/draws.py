"""Random draws of the §3 protocol: classifiers, in blocks with their own streams.

Documented interface (used by :mod:`.fast`, :mod:`.comparison`, the tests and the
benchmark):

* :data:`BLOCK`, :data:`CHUNK`, :func:`blocks`, :func:`chunk_size` -- the units of
  random streams and of work;
* :func:`child` -- the generator of one sub-stream of a seed;
* :class:`GammaDraws`, :func:`small_gamma_parts`, :func:`proposals`,
  :func:`log_gamma` -- ``Gamma(a, 1)`` draws with exact logs for ``a < 1``;
* :func:`iter_draws` -- the draws of ``pi`` and ``theta`` chunk by chunk;
* :func:`engine_layout` -- rows of logs in the engines' layout ``(C, m)``, ``(C, K, m)``;
* :class:`Scratch`, :func:`work` -- work arrays reused from chunk to chunk;
* :func:`check_cell` -- validation of a cell's arguments.

:func:`sample_log_dirichlet` is the library's one Dirichlet sampler (the
several-feature experiment uses it too).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._logspace import logsumexp
from .._validation import as_generator, check_int, check_positive, check_seed

__all__ = ["BLOCK", "PAPER_C", "PAPER_N", "sample_log_classifiers", "sample_log_dirichlet"]

#: Classifiers per block: the unit of random streams.  Changing it changes which
#: random numbers each classifier gets (not the distribution).
BLOCK = 4096

#: Observations per chunk, the unit of work (``CHUNK // K`` classifiers): small
#: enough for the work arrays to stay in cache.  Draws for ``alpha < 1`` are made
#: per chunk, so changing it changes those numbers too.
CHUNK = 16384

#: The paper's number of classes and of sampled classifiers per cell (Williams 2024, §3).
PAPER_C = 4
PAPER_N = 100



def resolve_prior_alpha(prior_alpha, alpha: float) -> float:
    """``prior_alpha`` as a number; the string ``"alpha"`` means the same as ``alpha``."""
    if isinstance(prior_alpha, str):
        if prior_alpha != "alpha":
            raise ValueError(f'prior_alpha must be a positive number or "alpha", got {prior_alpha!r}')
        return alpha
    return check_positive(prior_alpha, "prior_alpha")


def child(ss: np.random.SeedSequence, *key: int) -> np.random.Generator:
    """The generator for sub-stream ``key`` of ``ss`` (independent of call order)."""
    child = np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + key)
    return np.random.Generator(np.random.PCG64(child))


class Scratch:
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


def work(scratch, name: str, shape, dtype=float) -> np.ndarray:
    """An uninitialised work array: from ``scratch`` if given, else fresh."""
    return np.empty(shape, dtype=dtype) if scratch is None else scratch(name, shape, dtype)


def small_gamma_parts(rng: np.random.Generator, a: float, n: int, scratch=None, name: str = ""):
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
    e = rng.standard_exponential(out=work(scratch, name + "e", (n,)))
    log_tail, todo = proposals(e, rng.random(out=work(scratch, name + "u", (n,))), a,
                                work(scratch, name + "log_p", (n,)))
    while todo.size:
        e_new = rng.standard_exponential(todo.size)
        tail_new, again = proposals(e_new, rng.random(todo.size), a)
        e[todo] = e_new
        log_tail[todo] = tail_new
        todo = todo[again]
    e *= 1.0 + a
    return e, log_tail


def proposals(e: np.ndarray, u: np.ndarray, a: float, out=None):
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


class GammaDraws:
    """``Gamma(a, 1)`` draws as plain values, with their exact logs on demand.

    ``a = 1`` uses exponentials and ``a > 1`` numpy's gamma sampler, one draw per
    element in order.  For ``a < 1`` a draw is ``G V**(1/a)``
    (:func:`small_gamma_parts`); its plain value may underflow, but its log
    ``log G + log(V) / a`` is exact, and :meth:`log` computes it from the kept
    ``G`` and ``log(V) / a``.  The first axis indexes classifiers.  The first ``keep``
    rows are kept; for ``a < 1`` all of ``size`` is drawn first, so the kept rows
    do not depend on ``keep``.  With a :class:`Scratch`, the arrays are valid
    until the next draws under the same ``name``.
    """

    def __init__(self, rng: np.random.Generator, a: float, size, keep=None, scratch=None,
                 name: str = ""):
        size = tuple(size)
        keep = size[0] if keep is None else keep
        kept = (keep,) + size[1:]
        values = work(scratch, name + "values", kept)
        self.a = a
        self._head = self._log_tail = None
        if a == 1.0:
            self.values = rng.standard_exponential(out=values)
        elif a > 1.0:
            self.values = rng.standard_gamma(a, out=values)
        else:
            head, log_tail = small_gamma_parts(rng, a, math.prod(size), scratch, name)
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


def log_gamma(rng: np.random.Generator, a: float, size) -> np.ndarray:
    """Logs of ``Gamma(a, 1)`` draws of shape ``size``, exact for tiny ``a`` (see :class:`GammaDraws`)."""
    return GammaDraws(rng, a, (size,) if isinstance(size, numbers.Integral) else size).log()


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
    lx = log_gamma(rng, alpha, (*size, K))
    return lx - logsumexp(lx, axis=-1, keepdims=True)


def blocks(n: int):
    """Yield ``(index, size)`` of the fixed-size blocks covering ``n`` classifiers."""
    for index, start in enumerate(range(0, n, BLOCK)):
        yield index, min(BLOCK, n - start)


def chunk_size(K: int) -> int:
    """Classifiers per chunk, the unit of work: about :data:`CHUNK` observations."""
    return max(1, CHUNK // K)


def iter_draws(K: int, alpha: float, n: int, C: int, prior_alpha: float, ss, scratch=None):
    """Yield :class:`GammaDraws` ``(pi, theta)`` for consecutive chunks of the ``n`` classifiers.

    Each block of :data:`BLOCK` classifiers has two independent streams, for
    ``pi`` and for ``theta``, consumed chunk after chunk.  A chunk is always
    drawn whole (draws for ``a < 1`` depend on the chunk's size) and cut to the
    classifiers needed, so classifier ``i`` is the same whatever ``n``: the first
    ``n`` classifiers of a run with seed ``s`` are those of any longer run with
    seed ``s``.  With a :class:`Scratch`, each chunk's draws are valid until the
    next chunk is drawn.
    """
    step = chunk_size(K)
    for index, b in blocks(n):
        pi_stream, theta_stream = child(ss, 0, index, 0), child(ss, 0, index, 2)
        for start in range(0, b, step):
            size = min(step, BLOCK - start)
            keep = min(step, b - start)
            yield (GammaDraws(pi_stream, prior_alpha, (size, C), keep, scratch, "pi."),
                   GammaDraws(theta_stream, alpha, (size, C, K), keep, scratch, "theta."))


def engine_layout(log_pi_rows: np.ndarray, log_theta_rows: np.ndarray):
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
    K, alpha, n, C, prior_alpha, ss = check_cell(K, alpha, n, C, prior_alpha, seed)
    pis, thetas = [], []
    for pi, theta in iter_draws(K, alpha, n, C, prior_alpha, ss):
        lp, lx = pi.log(), theta.log()
        pis.append(lp - logsumexp(lp, axis=1, keepdims=True))
        thetas.append(lx - logsumexp(lx, axis=2, keepdims=True))
    return np.concatenate(pis), np.concatenate(thetas)


def check_cell(K, alpha, n, C, prior_alpha, seed):
    K = check_int(K, "K", 2)
    alpha = check_positive(alpha, "alpha")
    n = check_int(n, "n", 1)
    C = check_int(C, "C", 2)
    prior_alpha = resolve_prior_alpha(prior_alpha, alpha)
    return K, alpha, n, C, prior_alpha, check_seed(seed)
