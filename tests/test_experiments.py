"""Tests for nbcourse.experiments (Williams 2024, §3).

Oracles: an exact rational-arithmetic reference (fractions.Fraction), a plain
per-classifier log-space reference in pure Python, scikit-learn's CategoricalNB
and BernoulliNB, closed-form Dirichlet/Beta facts, and the paper's own numbers.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import special, stats

import nbcourse.experiments as ex
from nbcourse.experiments import (
    PAPER_VALUES,
    cli,
    compare_models,
    compare_observations,
    comparison,
    draws,
    exact,
    fast,
    fig2_data,
    fig3_data,
    log_posteriors,
    paper_consistency,
    paper_table,
    prior_alpha_evidence,
    sample_log_classifiers,
    sample_log_dirichlet,
    sampling_distribution,
    simulate_replicates,
)

PAPER_CELLS = [(cell.K, cell.alpha) for cell in PAPER_VALUES]
NEAR_TIE = 1e-9


# ----------------------------------------------------------------------------
# Reference implementations (slow, per classifier, obviously correct)
# ----------------------------------------------------------------------------


def ref_exact(pi, theta):
    """Exact rational reference for one classifier: per j, (valid, p_cat, p_pob, map_cat, map_pob).

    pi: length C, theta: C rows of length K, as Python floats (converted exactly).
    """
    P = [Fraction(float(p)) for p in pi]
    T = [[Fraction(float(t)) for t in row] for row in theta]
    C, K = len(T), len(T[0])
    out = []
    for j in range(K):
        cat = [P[c] * T[c][j] for c in range(C)]
        pob = []
        for c in range(C):
            q = Fraction(1)
            for k in range(K):
                if k != j:
                    q *= 1 - T[c][k]
            pob.append(cat[c] * q)
        if sum(cat) == 0 or sum(pob) == 0:
            out.append((False, None, None, -1, -1))
            continue
        p_cat, p_pob = max(cat) / sum(cat), max(pob) / sum(pob)
        out.append((True, p_cat, p_pob, cat.index(max(cat)), pob.index(max(pob))))
    return out


def _lse(xs):
    m = max(xs)
    if m == -math.inf:
        return -math.inf
    return m + math.log(math.fsum(math.exp(x - m) for x in xs))


def ref_log(log_pi, log_theta):
    """Log-space reference for one classifier given log pi (C) and log theta (C, K).

    Per j: (valid, log_r_cat, log_r_pob, map_cat, map_pob) with log_r the log of
    (losing posterior mass / winning posterior mass).
    """
    C, K = len(log_theta), len(log_theta[0])
    log1m = [[_lse([log_theta[c][m] for m in range(K) if m != k]) for k in range(K)]
             for c in range(C)]
    out = []
    for j in range(K):
        cat = [log_pi[c] + log_theta[c][j] for c in range(C)]
        pob = [cat[c] + math.fsum(log1m[c][k] for k in range(K) if k != j) for c in range(C)]
        if max(cat) == -math.inf or max(pob) == -math.inf:
            out.append((False, None, None, -1, -1))
            continue
        res = []
        for joint in (cat, pob):
            top = joint.index(max(joint))
            res.append((top, _lse([v for c, v in enumerate(joint) if c != top]) - joint[top]))
        out.append((True, res[0][1], res[1][1], res[0][0], res[1][0]))
    return out


def near_tie(p_cat, p_pob):
    """Different maximum posteriors whose losing masses ``1 - p`` agree to 1e-9 (relative)."""
    return p_pob != p_cat and abs(p_pob - p_cat) <= NEAR_TIE * max(1 - p_cat, 1 - p_pob)


def ref_counts_exact(pi, theta):
    """Per-classifier (a, d, m) and the number of near-ties skipped, from ref_exact."""
    a = d = m = skipped = 0
    for valid, p_cat, p_pob, map_cat, map_pob in ref_exact(pi, theta):
        if not valid:
            continue
        m += 1
        d += map_cat != map_pob
        if near_tie(p_cat, p_pob):
            skipped += 1
        a += p_pob > p_cat
    return a, d, m, skipped


def random_params(rng, n, C, K, zero_frac=0.0):
    """Random classifiers, optionally with exact zeros (and exact ones) in theta and pi."""
    theta = rng.dirichlet(np.ones(K), size=(n, C))
    pi = rng.dirichlet(np.ones(C), size=n)
    if zero_frac:
        theta = np.where(rng.random(theta.shape) < zero_frac, 0.0, theta)
        dead = theta.sum(axis=-1) == 0
        theta[dead, 0] = 1.0
        theta /= theta.sum(axis=-1, keepdims=True)
        one = rng.random((n, C)) < zero_frac / 2  # some rows become a corner exactly
        corner = rng.integers(0, K, size=(n, C))
        theta[one] = np.eye(K)[corner[one]]
        pi = np.where(rng.random(pi.shape) < zero_frac / 2, 0.0, pi)
        pi[pi.sum(axis=-1) == 0, 0] = 1.0
        pi /= pi.sum(axis=-1, keepdims=True)
    return pi, theta


# ----------------------------------------------------------------------------
# Exact agreement with the references
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("zero_frac", [0.0, 0.3, 0.6])
@pytest.mark.parametrize("C,K", [(2, 2), (4, 3), (3, 6)])
def test_compare_observations_matches_exact_reference(C, K, zero_frac):
    rng = np.random.default_rng(17 + C * K)
    pi, theta = random_params(rng, 60, C, K, zero_frac)
    r = compare_observations(pi, theta)
    n_invalid = 0
    for i in range(len(pi)):
        for j, (valid, p_cat, p_pob, map_cat, map_pob) in enumerate(ref_exact(pi[i], theta[i])):
            assert r.valid[i, j] == valid
            if not valid:
                n_invalid += 1
                assert math.isnan(r.max_posterior_categorical[i, j])
                assert r.map_categorical[i, j] == -1 and not r.pob_higher[i, j]
                assert not r.map_disagree[i, j]
                continue
            assert_allclose(r.max_posterior_categorical[i, j], float(p_cat), rtol=1e-12)
            assert_allclose(r.max_posterior_pob[i, j], float(p_pob), rtol=1e-12)
            assert (r.map_categorical[i, j], r.map_pob[i, j]) == (map_cat, map_pob)
            if not near_tie(p_cat, p_pob):
                assert r.pob_higher[i, j] == (p_pob > p_cat)
    if zero_frac >= 0.3:
        assert n_invalid > 0, "the zero cases must include observations impossible under every class"


@pytest.mark.parametrize("prior_alpha", [1.0, "alpha"])
@pytest.mark.parametrize("K,alpha", PAPER_CELLS + [(20, 0.05)])
def test_compare_models_counts_match_exact_reference(K, alpha, prior_alpha):
    n = 150
    r = compare_models(K, alpha, n=n, prior_alpha=prior_alpha, seed=5)
    log_pi, log_theta = sample_log_classifiers(K, alpha, n, prior_alpha=prior_alpha, seed=5)
    pi, theta = np.exp(log_pi), np.exp(log_theta)
    a = d = m = skipped = 0
    for i in range(n):
        ai, di, mi, si = ref_counts_exact(pi[i], theta[i])
        a, d, m, skipped = a + ai, d + di, m + mi, skipped + si
    assert skipped == 0
    assert (r.pob_higher_count, r.map_disagree_count, r.n_observations) == (a, d, m)
    assert r.n_excluded == 0 and m == n * K
    assert r.pob_higher == a / m and r.map_disagree == d / m


@pytest.mark.parametrize("K,alpha", [(3, 1 / 3), (10, 0.1), (50, 1 / 50), (8, 0.002)])
def test_engine_matches_log_space_reference_for_tiny_alpha(K, alpha):
    """Sparse alpha: entries below the smallest float, still exact in log space."""
    n = 40
    log_pi, log_theta = sample_log_classifiers(K, alpha, n, prior_alpha="alpha", seed=11)
    r = compare_models(K, alpha, n=n, prior_alpha="alpha", seed=11)
    obs = comparison.observation_comparison(log_pi.T.copy(), np.transpose(log_theta, (1, 2, 0)).copy(),
                                     (n,))
    a = d = 0
    for i in range(n):
        for j, (valid, lr_cat, lr_pob, map_cat, map_pob) in enumerate(
                ref_log(log_pi[i].tolist(), log_theta[i].tolist())):
            assert valid and obs.valid[i, j]
            assert (obs.map_categorical[i, j], obs.map_pob[i, j]) == (map_cat, map_pob)
            a += lr_pob < lr_cat
            d += map_cat != map_pob
            if abs(lr_pob - lr_cat) > 1e-9 * max(1.0, abs(lr_cat)):
                assert obs.pob_higher[i, j] == (lr_pob < lr_cat)
    assert (r.pob_higher_count, r.map_disagree_count, r.n_excluded) == (a, d, 0)
    if alpha < 0.01:  # the regime the log-space sampler exists for
        assert np.sum(np.exp(log_theta) == 0.0) > 0


def test_log_posteriors_match_scikit_learn():
    """CategoricalNB / BernoulliNB fitted to data whose frequencies are exactly (pi, theta)."""
    from sklearn.naive_bayes import BernoulliNB, CategoricalNB

    counts = np.array([[5, 3, 2, 0], [1, 1, 6, 2], [0, 4, 4, 2]])  # class c, value j
    prior_counts = counts.sum(axis=1)
    y = np.repeat(np.arange(3), prior_counts)
    x = np.concatenate([np.repeat(np.arange(4), row) for row in counts])
    theta = counts / counts.sum(axis=1, keepdims=True)
    pi = prior_counts / prior_counts.sum()
    cat_nb = CategoricalNB(alpha=1e-10, force_alpha=True).fit(x[:, None], y)
    pob_nb = BernoulliNB(alpha=1e-10, force_alpha=True).fit(np.eye(4)[x], y)
    lp_cat, lp_pob = log_posteriors(pi, theta)
    j = np.arange(4)
    sk_cat = cat_nb.predict_proba(j[:, None])
    sk_pob = pob_nb.predict_proba(np.eye(4))
    assert_allclose(np.exp(lp_cat), sk_cat, atol=1e-8)
    assert_allclose(np.exp(lp_pob), sk_pob, atol=1e-8)


def test_exact_zero_cases_by_hand():
    # theta_1 = e_0 exactly: Q^{-0} = 1 and Q^{-k} = 0 for k != 0
    pi = [0.25, 0.75]
    theta = [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]
    lp_cat, lp_pob = log_posteriors(pi, theta, undefined="nan")
    # x = 0: cat 0.25*1 vs 0.75*0.5; PoB 0.25*1*1*1 vs 0.75*0.5*0.5*1
    assert_allclose(np.exp(lp_cat[0]), [0.25 / 0.625, 0.375 / 0.625])
    assert_allclose(np.exp(lp_pob[0]), [0.25 / 0.4375, 0.1875 / 0.4375])
    # x = 1: only class 1 possible under both models
    assert_allclose(np.exp(lp_cat[1]), [0.0, 1.0])
    assert_allclose(np.exp(lp_pob[1]), [0.0, 1.0])
    # x = 2: impossible under every class: no posterior (NaN on request, else an error)
    assert np.all(np.isnan(lp_cat[2])) and np.all(np.isnan(lp_pob[2]))
    with pytest.raises(ValueError, match=r"posterior is undefined for 1 of 3 row\(s\)"):
        log_posteriors(pi, theta)
    r = compare_observations(pi, theta)
    assert r.valid.tolist() == [True, True, False]
    assert r.pob_higher.tolist() == [False, False, False]  # x = 1: both exactly 1, a tie
    assert r.map_disagree.tolist() == [True, False, False]


# ----------------------------------------------------------------------------
# The fast path agrees with the log-space engine
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("K,alpha,C,prior_alpha", [
    (3, 1.0, 4, 1.0), (3, 1 / 3, 4, 1.0), (10, 0.1, 4, "alpha"), (50, 0.02, 4, 1.0),
    (2, 0.5, 2, 1.0), (6, 1.0, 7, 0.01), (8, 0.002, 3, "alpha"), (2, 3.0, 3, 2.5), (4, 1.0, 130, 1.0),
])
def test_fast_path_counts_equal_the_log_space_engine(K, alpha, C, prior_alpha):
    """Chunk by chunk, the counts of the plain floating-point path are the log engine's counts."""
    K, alpha, n, C, prior_alpha, ss = draws.check_cell(K, alpha, 6000, C, prior_alpha, 4)
    handed_over = 0
    scratch = draws.Scratch()  # work arrays reused from chunk to chunk, as in compare_models
    for pi, theta in draws.iter_draws(K, alpha, n, C, prior_alpha, ss, scratch):
        lp, lx = draws.engine_layout(pi.log(), theta.log())
        slow = exact.block_counts(lp - np.logaddexp.reduce(lp, axis=0, keepdims=True), lx)
        counted = fast.chunk_counts(pi, theta, scratch)
        for f, s in zip(counted, slow, strict=True):
            assert_array_equal(f, s)
        handed_over += int(fast.linear_counts(
            np.ascontiguousarray(pi.values.T),
            np.ascontiguousarray(np.transpose(theta.values, (2, 1, 0))))[2].sum())
    if alpha < 0.01 or prior_alpha < 0.1:  # tiny weights: the log engine must take over
        assert handed_over > 0


class _Weights:
    """Plain weights standing in for gamma draws (rows are classifiers)."""

    def __init__(self, values):
        self.values = np.asarray(values, dtype=float)

    def log(self, rows=slice(None)):
        with np.errstate(divide="ignore"):
            return np.log(self.values[rows])


def test_fast_path_hands_ties_and_tiny_joints_to_the_log_engine():
    pi = [[1.0, 2.5], [1.0, 1.0], [1.0, 1.0], [1.0, 1.3], [1.0, 1.0]]
    theta = [
        [[1.0, 2.0, 3.0], [4.0, 1.0, 2.0]],      # ordinary
        [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]],      # identical classes: MAP ties everywhere
        [[1e-300, 1.0, 1.0], [3.0, 1.0, 2.0]],   # a joint far below the smallest float's reach
        [[0.5, 0.25, 0.25], [0.525, 0.1, 0.375]],  # Q^{-0} equal: equal maximum posteriors at j = 0
        [[0.0, 1.0, 1.0], [0.0, 2.0, 1.0]],      # x = 0 impossible under every class
    ]
    wp = np.ascontiguousarray(np.asarray(pi).T)
    wt = np.ascontiguousarray(np.transpose(np.asarray(theta), (2, 1, 0)))
    _, _, unsafe = fast.linear_counts(wp, wt)
    assert unsafe.tolist() == [False, True, True, True, True]
    counted = fast.chunk_counts(_Weights(pi), _Weights(theta))
    lp, lx = draws.engine_layout(np.log(np.asarray(pi)), _Weights(theta).log())
    slow = exact.block_counts(lp - np.logaddexp.reduce(lp, axis=0, keepdims=True), lx)
    for f, s in zip(counted, slow, strict=True):
        assert_array_equal(f, s)
    assert counted[2].tolist() == [3, 3, 3, 3, 2]  # the impossible observation is not counted


# ----------------------------------------------------------------------------
# Invariances, determinism
# ----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), C=st.integers(2, 5), K=st.integers(2, 7))
def test_statistics_invariant_to_relabelling(seed, C, K):
    rng = np.random.default_rng(seed)
    pi, theta = random_params(rng, 8, C, K, zero_frac=0.2 * (seed % 2))
    r = compare_observations(pi, theta)
    pc, pk = rng.permutation(C), rng.permutation(K)
    s = compare_observations(pi[:, pc], theta[:, pc][:, :, pk])
    # relabelling classes renames the MAP classes; relabelling values permutes observations
    assert_array_equal(s.valid, r.valid[:, pk])
    assert_array_equal(s.map_disagree, r.map_disagree[:, pk])
    assert_allclose(s.max_posterior_pob, r.max_posterior_pob[:, pk], rtol=1e-12)
    assert_allclose(s.max_posterior_categorical, r.max_posterior_categorical[:, pk], rtol=1e-12)
    gap = np.abs(r.max_posterior_pob - r.max_posterior_categorical)
    clear = (gap > 1e-9) | ~r.valid
    assert_array_equal(s.pob_higher[clear[:, pk]], r.pob_higher[:, pk][clear[:, pk]])
    mapped = np.where(s.valid, pc[np.maximum(s.map_categorical, 0)], -1)  # new c is old pc[c]
    assert_array_equal(mapped, r.map_categorical[:, pk])


def test_same_seed_same_numbers_and_different_seeds_differ():
    a = compare_models(6, 1 / 6, n=9000, seed=123)
    b = compare_models(6, 1 / 6, n=9000, seed=123)
    c = compare_models(6, 1 / 6, n=9000, seed=124)
    for name in ("pob_higher", "map_disagree", "pob_higher_ci", "map_disagree_ci"):
        assert getattr(a, name) == getattr(b, name)
    assert_array_equal(a.pob_higher_table, b.pob_higher_table)
    assert (a.pob_higher_count, a.map_disagree_count) != (c.pob_higher_count, c.map_disagree_count)


def test_same_seed_same_numbers_in_a_fresh_process():
    code = ("from nbcourse.experiments import compare_models as f; "
            "r = f(10, 0.1, n=5000, prior_alpha='alpha', seed=7); "
            "print(r.pob_higher_count, r.map_disagree_count, r.pob_higher_ci)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    r = compare_models(10, 0.1, n=5000, prior_alpha="alpha", seed=7)
    assert out.stdout.strip() == f"{r.pob_higher_count} {r.map_disagree_count} {r.pob_higher_ci}"


@pytest.mark.parametrize("K,alpha,prior_alpha", [(10, 0.1, "alpha"), (3, 1 / 3, 1.0)])
def test_first_classifiers_do_not_depend_on_n(K, alpha, prior_alpha):
    """Small-alpha draws are made in whole chunks, so a short run is a prefix of a long one."""
    lp, lt = sample_log_classifiers(K, alpha, ex.BLOCK + 2 * draws.chunk_size(K) + 5,
                                    prior_alpha=prior_alpha, seed=3)
    for n in (1, 7, draws.chunk_size(K) + 1, ex.BLOCK + 1):
        lp_n, lt_n = sample_log_classifiers(K, alpha, n, prior_alpha=prior_alpha, seed=3)
        assert_array_equal(lp_n, lp[:n])
        assert_array_equal(lt_n, lt[:n])


def test_blocks_are_prefixes_and_fig3_uses_the_same_classifiers():
    n = ex.BLOCK + 300
    big = compare_models(3, 1.0, n=n, seed=9)
    log_pi, log_theta = sample_log_classifiers(3, 1.0, n, seed=9)
    first = sample_log_classifiers(3, 1.0, 300, seed=9)
    assert_array_equal(first[1], log_theta[:300])  # block 0 does not depend on n
    d = fig3_data(3, 1.0, n=n, seed=9)
    assert int((~d.map_agree).sum()) == big.map_disagree_count
    assert int((d.max_posterior_pob > d.max_posterior_categorical).sum()) == big.pob_higher_count
    assert d.max_posterior_pob.shape == (3 * n,)
    obs = compare_observations(np.exp(log_pi), np.exp(log_theta))
    assert int(obs.map_disagree.sum()) == big.map_disagree_count


# ----------------------------------------------------------------------------
# Sampling
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("alpha,K", [(1.0, 3), (1 / 6, 6), (2.5, 4), (0.05, 10)])
def test_dirichlet_moments_match_closed_form(alpha, K):
    theta = np.exp(sample_log_dirichlet(alpha, K, size=200_000, seed=1))
    assert_allclose(theta.sum(axis=-1), 1.0, rtol=1e-12)
    var = (K - 1) / (K**2 * (K * alpha + 1))  # Var theta_k for Dir(alpha 1)
    cov = -1 / (K**2 * (K * alpha + 1))
    se_mean = math.sqrt(var / 200_000)
    assert np.all(np.abs(theta.mean(axis=0) - 1 / K) < 5 * se_mean)
    assert_allclose(theta.var(axis=0), var, rtol=0.03)
    assert_allclose(np.cov(theta[:, 0], theta[:, 1])[0, 1], cov, rtol=0.06)


def test_dirichlet_marginal_is_beta_including_far_below_the_smallest_float():
    K, alpha = 5, 0.005
    lt = sample_log_dirichlet(alpha, K, size=100_000, seed=2)[:, 0]
    a, b = alpha, (K - 1) * alpha
    # P(theta_0 < x) ~ x**a / (a B(a, b)) for small x (the Beta(a, b) marginal's left tail)
    for log_x in (-800.0, -2000.0, -5000.0):
        expected = math.exp(a * log_x - math.log(a) - special.betaln(a, b))
        got = np.mean(lt < log_x)
        assert abs(got - expected) < 5 * math.sqrt(expected * (1 - expected) / lt.size)
    assert np.mean(np.exp(lt) == 0.0) > 0.01  # linear space would have lost these entries
    assert np.all(np.isfinite(lt))
    ks = stats.kstest(np.exp(sample_log_dirichlet(0.3, 4, size=20_000, seed=3)[:, 0]),
                      stats.beta(0.3, 0.9).cdf)
    assert ks.pvalue > 1e-3


@pytest.mark.parametrize("a", [0.02, 0.1, 1 / 3, 0.9])
def test_small_shape_gamma_draws_follow_the_gamma_law(a):
    """Gamma(a), a < 1: rejection-sampled Gamma(1 + a) times V**(1/a), checked against scipy."""
    gamma = draws.GammaDraws(np.random.default_rng(6), a, (200_000,))
    assert stats.kstest(gamma.values, stats.gamma(a).cdf).pvalue > 1e-3
    log_x = gamma.log()
    assert np.all(np.isfinite(log_x))
    shown = gamma.values > 1e-300
    assert_allclose(np.exp(log_x[shown]), gamma.values[shown], rtol=1e-13)
    # the left tail in log space: P(X < x) ~ x**a / Gamma(a + 1) as x -> 0
    log_q = np.quantile(log_x, 0.002)
    expected = math.exp(a * log_q - special.gammaln(a + 1))
    assert abs(np.mean(log_x < log_q) - expected) < 0.2 * expected


def test_small_shape_gamma_draws_use_the_acceptance_uniform_as_v():
    """V = U / p(E) is uniform on (0, 1] given acceptance, and independent of E."""
    rng = np.random.default_rng(7)
    head, log_tail = draws.small_gamma_parts(rng, 1 / 3, 200_000)
    v = np.exp(log_tail / 3)  # log_tail = log(V) / a
    assert np.all((v > 0) & (v <= 1))
    assert stats.kstest(v, "uniform").pvalue > 1e-3
    assert stats.kstest(head, stats.gamma(4 / 3).cdf).pvalue > 1e-3
    assert abs(stats.spearmanr(head, v)[0]) < 4 / math.sqrt(head.size)
    for a in (0.1, 1 / 3):  # first-round acceptance: Gamma(1 + a) e**a / (1 + a)**(1 + a)
        e = rng.standard_exponential(100_000)
        _, rejected = draws.proposals(e, rng.random(e.size), a)
        rate = math.exp(special.gammaln(1 + a) + a - (1 + a) * math.log1p(a))
        assert abs(1 - rejected.size / e.size - rate) < 0.005


def test_prior_alpha_reading_changes_pi_only():
    lp1, lt1 = sample_log_classifiers(6, 1 / 6, 20_000, prior_alpha=1.0, seed=8)
    lpa, lta = sample_log_classifiers(6, 1 / 6, 20_000, prior_alpha="alpha", seed=8)
    pi1, pia = np.exp(lp1), np.exp(lpa)
    # Var pi_c for Dir(a 1) with C = 4 is 3 / (16 (4a + 1))
    assert_allclose(pi1.var(axis=0), 3 / (16 * 5), rtol=0.05)
    assert_allclose(pia.var(axis=0), 3 / (16 * (4 / 6 + 1)), rtol=0.05)
    assert_allclose(np.exp(lt1).var(axis=(0, 1)), 5 / (36 * 2), rtol=0.05)


# ----------------------------------------------------------------------------
# Intervals and sampling distributions
# ----------------------------------------------------------------------------


def test_intervals_shrink_like_one_over_root_n():
    def width(n, seed):
        r = compare_models(6, 1.0, n=n, seed=seed, n_boot=4000)
        return np.array([np.diff(r.pob_higher_ci)[0], np.diff(r.map_disagree_ci)[0]])

    small = np.mean([width(400, s) for s in range(4)], axis=0)
    large = np.mean([width(6400, s) for s in range(4)], axis=0)
    ratio = small / large
    assert np.all((ratio > 3.4) & (ratio < 4.7)), ratio  # sqrt(6400 / 400) = 4


def test_cluster_intervals_cover_the_truth_at_the_papers_n():
    truth = compare_models(3, 1 / 3, n=400_000, seed=100)
    hits = np.zeros(2)
    reps = 300
    for s in range(reps):
        r = compare_models(3, 1 / 3, n=100, seed=1000 + s, n_boot=1000)
        hits += [r.pob_higher_ci[0] <= truth.pob_higher <= r.pob_higher_ci[1],
                 r.map_disagree_ci[0] <= truth.map_disagree <= r.map_disagree_ci[1]]
    coverage = hits / reps
    # nominal 0.95; with 300 replicates the standard error is 0.013
    assert np.all((coverage > 0.90) & (coverage < 0.99)), coverage


def test_sampling_distribution_matches_direct_replicates():
    big = compare_models(6, 1.0, n=200_000, seed=21)
    ph, md = simulate_replicates(6, 1.0, n=100, n_replicates=3000, seed=22)
    for statistic, sims in (("pob_higher", ph), ("map_disagree", md)):
        dist = sampling_distribution(big, statistic, n=100)
        sd = math.sqrt(dist.pmf @ (dist.fractions - dist.mean()) ** 2)
        assert abs(sims.mean() - dist.mean()) < 5 * sd / math.sqrt(sims.size)
        assert_allclose(sims.std(), sd, rtol=0.08)
        cdf = np.cumsum(dist.pmf)
        for q in (0.05, 0.5, 0.95):
            pred = dist.fractions[np.searchsorted(cdf, q)]
            assert abs(np.quantile(sims, q) - pred) <= 2.5 * sd / 10 + 1 / 600


def test_sampling_distribution_of_a_known_per_classifier_law():
    """With a Binomial(K, p) per classifier, the n-classifier count is Binomial(nK, p)."""
    K, n, p = 3, 100, 0.7
    table = np.zeros((K + 1, K + 1), dtype=np.int64)
    table[K] = np.round(stats.binom(K, p).pmf(np.arange(K + 1)) * 10**9).astype(np.int64)
    fake = compare_models(K, 1.0, n=10, seed=0)
    fake = type(fake)(**{**fake.__dict__, "pob_higher_table": table})
    dist = sampling_distribution(fake, "pob_higher", n=n)
    assert_allclose(dist.pmf, stats.binom(n * K, p).pmf(np.arange(n * K + 1)), atol=1e-9)
    assert_allclose(dist.p_value(0.7), 1.0)
    assert dist.count_of(0.8233) == 247


# ----------------------------------------------------------------------------
# The paper's numbers
# ----------------------------------------------------------------------------


def test_paper_values_as_printed():
    got = [(c.K, c.alpha_label, round(100 * c.pob_higher, 2), round(100 * c.map_disagree, 2))
           for c in PAPER_VALUES]
    assert got == [(3, "1", 82.0, 12.33), (6, "1", 72.3, 5.67), (10, "1", 74.7, 2.5),
                   (3, "1/K", 78.0, 14.33), (6, "1/K", 78.1, 7.0), (10, "1/K", 76.4, 6.3)]
    assert [c.alpha for c in PAPER_VALUES] == [1.0, 1.0, 1.0, 1 / 3, 1 / 6, 1 / 10]


def _fisher(pvalues):
    return stats.chi2(2 * len(pvalues)).sf(-2 * np.sum(np.log(pvalues)))


@pytest.fixture(scope="module")
def evidence():
    return prior_alpha_evidence(n_truth=100_000, seed=31)


def test_papers_values_fall_where_the_sampling_distribution_says(evidence):
    """At large n our engine predicts the n = 100 distribution of each of the paper's 12 values.

    A biased engine moves these distributions away from the paper's independently
    computed numbers.  Thresholds are set so that the paper's own luck fails the
    test with probability below 0.2%: each two-sided p-value above 0.001 / 12
    (Bonferroni) and Fisher's combination above 0.001.
    """
    rows = evidence["rows"][1.0]
    p = np.array([row["p_value"] for row in rows])
    assert np.all(p > 0.001 / 12), [(r["K"], r["alpha"], r["statistic"], r["p_value"]) for r in rows]
    assert _fisher(np.maximum(p, 1e-300)) > 1e-3


def test_the_consistency_check_detects_a_biased_engine(evidence):
    """The same check rejects an engine biased by drawing pi from Dir(alpha) instead of Dir(1)."""
    p = np.array([row["p_value"] for row in evidence["rows"]["alpha"]])
    assert np.any(p <= 0.001 / 12) or _fisher(np.maximum(p, 1e-300)) <= 1e-3


def _fails_consistency(rows):
    p = np.array([row["p_value"] for row in rows])
    return bool(np.any(p <= 0.001 / 12) or _fisher(np.maximum(p, 1e-300)) <= 1e-3)


def _bug_q_includes_j(monkeypatch):
    monkeypatch.setattr(exact, "log_q_minus_from_terms",
                        lambda l1, axis: np.sum(l1, axis=axis, keepdims=True) + 0 * l1)

    def q_all_k(q_all, one_minus, out):
        out[...] = q_all
        return out

    monkeypatch.setattr(fast, "linear_q_minus_j", q_all_k)


def _bug_pob_without_prior(monkeypatch):
    joint = exact.joint_logs
    monkeypatch.setattr(exact, "joint_logs", lambda lp, lx: (joint(lp, lx)[0],
                                                           joint(lp, lx)[1] - lp[:, None, :]))
    linear = fast.linear_joints

    def without_prior(weights_pi, weights_theta, scratch=None):
        joints, q_all = linear(weights_pi, weights_theta, scratch)
        joints[:, weights_theta.shape[0]:] /= (weights_pi / weights_pi.sum(axis=0))[:, None, :]
        return joints, q_all

    monkeypatch.setattr(fast, "linear_joints", without_prior)


def _bug_alpha_ignored(monkeypatch):
    class AlphaIgnored(draws.GammaDraws):
        def __init__(self, rng, a, size, *args, **kwargs):
            super().__init__(rng, 1.0, size, *args, **kwargs)

    monkeypatch.setattr(draws, "GammaDraws", AlphaIgnored)


@pytest.mark.parametrize("bug", [_bug_q_includes_j, _bug_pob_without_prior, _bug_alpha_ignored])
def test_the_consistency_check_fails_for_injected_bugs(monkeypatch, bug):
    """Plausible engine bugs (Q^{-j} over all k, PoB without pi, alpha ignored) fail the check."""
    assert not _fails_consistency(paper_consistency(1.0, n_truth=50_000, seed=31))
    bug(monkeypatch)
    assert _fails_consistency(paper_consistency(1.0, n_truth=50_000, seed=31))


def test_paper_supports_pi_from_dir_one(evidence):
    """Log likelihood of the paper's PoB-higher counts: Dir(1) beats Dir(alpha) by e^20 or more."""
    assert evidence["log_likelihood_ratio"]["pob_higher"] > 20
    same = [r["log_pmf"] for r in evidence["rows"][1.0] if r["alpha"] == "1"]
    assert same == [r["log_pmf"] for r in evidence["rows"]["alpha"] if r["alpha"] == "1"]


def test_consistency_rows_agree_with_direct_computation():
    rows = paper_consistency(1.0, n_truth=20_000, seed=5)
    row = rows[0]
    big = compare_models(3, 1.0, n=20_000, seed=np.random.SeedSequence(5, spawn_key=(0,)))
    assert row["truth"] == big.pob_higher
    dist = sampling_distribution(big, "pob_higher")
    k = 246  # the paper's 82.0% of 300 observations
    assert row["p_value"] == min(1.0, 2 * min(dist.pmf[:k + 1].sum(), dist.pmf[k:].sum()))


def test_paper_table_shape():
    t = paper_table(n=100, seed=0)  # its latency is a figure of benchmarks/bench_experiments.py
    rows = t.rows()
    assert [(r["K"], r["alpha"]) for r in rows] == [(c.K, c.alpha_label) for c in PAPER_VALUES]
    for r in rows:
        assert r["n_observations"] == 100 * r["K"] and r["n_excluded"] == 0
        assert r["pob_higher_ci"][0] <= r["pob_higher"] <= r["pob_higher_ci"][1]
        assert r["map_disagree_ci"][0] <= r["map_disagree"] <= r["map_disagree_ci"][1]
    text = t.to_string()
    assert "82.00" in text and "14.33" in text and "nan" not in text.lower()


# ----------------------------------------------------------------------------
# Figures
# ----------------------------------------------------------------------------


def test_fig2_two_values_gives_slope_two_exactly():
    # K = 2: Q^{-v} = 1 - theta_other = theta_v, so f_v = theta_v**2 and y = 2 x
    x, y = fig2_data(2, 0.5, n=200, seed=1)
    assert_allclose(y, 2 * x, rtol=1e-12, atol=1e-12)


def test_fig2_points_respect_bounds_and_mirror():
    K = 3
    x, y = fig2_data(K, 1.0, n=300, seed=2, mirror=False)
    xm, ym = fig2_data(K, 1.0, n=300, seed=2)
    assert_array_equal(xm, np.concatenate([x, -x]))
    assert_array_equal(ym, np.concatenate([y, -y]))
    # slope above 1 near the origin on average (Williams 2024, Fig. 2(a) discussion)
    near = np.abs(x) < 0.5
    assert np.polyfit(x[near], y[near], 1)[0] > 1.0
    # eq. 11: f_c / f_d lies between l(theta_jc)/u(theta_jd) and u(theta_jc)/l(theta_jd)
    rng = np.random.default_rng(2)
    lt = exact.log_simplex(draws.log_gamma(rng, 1.0, (2, K, 300)))[0]
    tc, td = np.exp(lt[0]).T.ravel(), np.exp(lt[1]).T.ravel()
    assert_allclose(np.log(tc / td), x, rtol=1e-12, atol=1e-12)

    def u(t):
        return t * ((K - 2 + t) / (K - 1)) ** (K - 1)

    assert np.all(y >= np.log(tc**2 / u(td)) - 1e-12)
    assert np.all(y <= np.log(u(tc) / td**2) + 1e-12)


def test_fig3_data_shapes_and_no_nan():
    d = fig3_data(3, 1.0, n=100, seed=0)
    assert d.max_posterior_categorical.shape == d.max_posterior_pob.shape == (300,)
    assert np.all((d.max_posterior_pob >= 0.25) & (d.max_posterior_pob <= 1))
    assert np.all(np.isfinite(d.max_posterior_categorical))
    # disagreements concentrate where the categorical MAP value is low (Williams 2024, Fig. 3)
    assert d.max_posterior_categorical[~d.map_agree].mean() < d.max_posterior_categorical.mean()


# ----------------------------------------------------------------------------
# Arguments and command line
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,exc,words", [
    ({"K": 1}, ValueError, "K must be an integer >= 2"),
    ({"K": 3.0}, TypeError, "K must be an integer"),
    ({"K": True}, TypeError, "K must be an integer"),
    ({"alpha": 0.0}, ValueError, "alpha must be a finite number > 0"),
    ({"alpha": float("nan")}, ValueError, "alpha must be a finite number > 0"),
    ({"n": 0}, ValueError, "n must be an integer >= 1"),
    ({"C": 1}, ValueError, "C must be an integer >= 2"),
    ({"prior_alpha": -1.0}, ValueError, "prior_alpha must be a finite number > 0"),
    ({"prior_alpha": "beta"}, ValueError, 'prior_alpha must be a positive number or "alpha"'),
    ({"seed": -1}, TypeError, "seed must be None"),
    ({"seed": "x"}, TypeError, "seed must be None"),
])
def test_compare_models_rejects_bad_arguments(kwargs, exc, words):
    args = {"K": 3, "alpha": 1.0, "n": 10, **kwargs}
    with pytest.raises(exc, match=words):
        compare_models(**args)


def test_parameters_are_validated():
    with pytest.raises(ValueError, match="theta must have rows summing to 1"):
        compare_observations([0.5, 0.5], [[0.5, 0.6], [0.5, 0.5]])
    with pytest.raises(ValueError, match="pi and theta must have the same number of classes"):
        compare_observations([0.2, 0.3, 0.5], [[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(ValueError, match=r"pi must contain probabilities in \[0, 1\]"):
        log_posteriors([1.5, -0.5], [[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(TypeError, match="result must be a ModelComparison"):
        sampling_distribution({"K": 3})
    with pytest.raises(ValueError, match="statistic must be"):
        sampling_distribution(compare_models(3, 1.0, n=10, seed=0), "other")


def test_command_line(capsys):
    assert cli.main(["--n", "50", "--seed", "3", "--prior-alpha", "alpha"]) == 0
    out = capsys.readouterr().out
    assert "n = 50 classifiers per cell" in out and "Dir(alpha)" in out
    t = paper_table(n=50, seed=3, prior_alpha="alpha")
    assert t.to_string() in out
    assert cli.main(["--n", "0"]) == 2
    assert "expected an integer >= 1" in capsys.readouterr().err
    assert cli.main(["--prior-alpha", "-2"]) == 2


def test_module_entry_point():
    out = subprocess.run([sys.executable, "-m", "nbcourse", "reproduce", "--n", "20"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "paper" in out.stdout and "74.70" in out.stdout


def test_sampling_distribution_sd_is_the_closed_form():
    """Variances add under convolution: sd = sqrt(n var_1) / (n K), var_1 from the per-classifier table."""
    big = compare_models(6, 1 / 6, n=3000, seed=8)
    K, n = 6, 100
    p = big.pob_higher_table[K] / big.pob_higher_table[K].sum()
    a = np.arange(K + 1)
    var_1 = p @ a**2 - (p @ a) ** 2
    dist = sampling_distribution(big, "pob_higher", n=n)
    assert_allclose(dist.sd(), np.sqrt(n * var_1) / (n * K), rtol=1e-10)


def test_locate_paper_values_takes_the_runs_in_paper_order():
    table = paper_table(n=3000, seed=2)
    rows = ex.locate_paper_values(table.results)
    assert rows == paper_consistency(1.0, n_truth=3000, seed=2)
    first = rows[0]
    dist = sampling_distribution(table.results[0], "pob_higher")
    assert_allclose(first["z"], (0.82 - dist.mean()) / dist.sd())
    with pytest.raises(ValueError, match="one ModelComparison per paper cell"):
        ex.locate_paper_values(table.results[:5])
    with pytest.raises(ValueError, match="results must follow PAPER_VALUES"):
        ex.locate_paper_values(table.results[::-1])
