"""Comparing the two models: supplied classifiers, sampled cells and their sampling distributions.

* :func:`log_posteriors`, :func:`compare_observations` -- the two models on every
  observation of classifiers you supply (:func:`observation_comparison` is the
  same on logs already in the engines' layout);
* :func:`compare_models` -- the §3 statistics of one cell with cluster-bootstrap
  intervals (counts from :mod:`.fast`, which hands hard cases to :mod:`.exact`);
* :func:`sampling_distribution`, :func:`simulate_replicates` -- how a statistic at
  the paper's ``n`` varies from run to run;
* :func:`clustered_rate` -- a rate over clusters of observations with its
  cluster-robust interval (used by the chapters and the several-feature experiment).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

from .._logspace import log
from .._validation import as_real_array, check_classifier, check_int
from ..posteriors import posterior_table
from . import exact
from .draws import PAPER_C, PAPER_N, check_cell, child
from .fast import iter_counts

__all__ = [
    "ModelComparison",
    "ObservationComparison",
    "SamplingDistribution",
    "clustered_rate",
    "compare_models",
    "compare_observations",
    "log_posteriors",
    "sampling_distribution",
    "simulate_replicates",
]


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


def observation_comparison(log_pi, lx, lead) -> ObservationComparison:
    map_cat, map_pob, log_r_cat, log_r_pob, valid = exact.engine(log_pi, lx)
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
    return observation_comparison(*_check_params(pi, theta))


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
    for a, d, m in iter_counts(K, alpha, n, C, prior_alpha, ss):
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
    K, alpha, n, C, prior_alpha, ss = check_cell(K, alpha, n, C, prior_alpha, seed)
    if not (isinstance(confidence, numbers.Real) and 0 < confidence < 1):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    n_boot = check_int(n_boot, "n_boot", 10)
    higher, differ = _count_tables(K, alpha, n, C, prior_alpha, ss)
    a, total = _table_ratio(higher)
    d, _ = _table_ratio(differ)
    boot = child(ss, 1, 0)
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

    def sd(self) -> float:
        """Standard deviation of the fraction."""
        return float(np.sqrt(self.pmf @ (self.fractions - self.mean()) ** 2))

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
    K, alpha, n, C, prior_alpha, ss = check_cell(K, alpha, n, C, prior_alpha, seed)
    parts = list(iter_counts(K, alpha, n * n_replicates, C, prior_alpha, ss))
    a, d, m = (np.concatenate([p[i] for p in parts]).reshape(n_replicates, n).sum(axis=1)
               for i in range(3))
    safe = np.maximum(m, 1)
    return a / safe, d / safe


def clustered_rate(hit, base=None, z=1.96):
    """A rate over clustered observations and its cluster-robust interval.

    Row ``i`` of ``hit`` holds the observations of one cluster (a sampled
    classifier, a pair of parameter vectors); rows are independent, observations
    within a row need not be.  The rate is ``r = sum a_i / sum m_i`` with ``a_i``
    the hits and ``m_i`` the observations of row ``i``; its standard error is the
    ratio estimator's, ``sqrt(n / (n - 1) * sum (a_i - r m_i)**2) / sum m_i`` over
    the ``n`` rows (with equal ``m_i`` it is the standard error of the mean of
    the per-row rates).

    Parameters
    ----------
    hit : array_like of bool or float, shape (n, m)
        Whether each observation has the property; real values give a clustered
        mean of them instead (the same formulas with ``a_i`` the row's sum).
    base : array_like of bool, shape (n, m), optional
        Which observations count (default: all).
    z : float, default 1.96
        Normal quantile of the interval (1.96 for 95%).

    Returns
    -------
    tuple of float
        ``(rate, lower, upper)`` with ``lower, upper = rate -/+ z * se``.

    Examples
    --------
    >>> r, lo, hi = clustered_rate([[True, False], [True, True], [False, False]])
    >>> round(r, 4), round(hi - r, 4)  # per-row rates 0.5, 1, 0: sd 0.5 over sqrt(3) rows
    (0.5, 0.5658)
    """
    hit = as_real_array(hit, "hit")
    if hit.ndim != 2:
        raise ValueError(f"hit must be a 2-d array (clusters, observations), got shape {hit.shape}")
    base = np.ones(hit.shape, dtype=bool) if base is None else np.broadcast_to(
        np.asarray(base, dtype=bool), hit.shape)
    a, m = np.where(base, hit, 0.0).sum(axis=1), base.sum(axis=1)
    total = m.sum()
    if total == 0:
        raise ValueError("base must select at least one observation, got none")
    r = a.sum() / total
    n = a.size
    se = np.sqrt(n / (n - 1) * np.sum((a - r * m) ** 2)) / total if n > 1 else 0.0
    return float(r), float(r - z * se), float(r + z * se)
