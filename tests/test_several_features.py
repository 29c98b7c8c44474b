"""Tests for nbcourse.experiments.several_features: Williams' protocol with F features.

Oracles: brute-force products over features written here, 60-digit decimal
arithmetic for the comparison of maximum posteriors, and nbcourse.posteriors'
single-feature posteriors.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from nbcourse.experiments import clustered_rate, simulate_several_features
from nbcourse.posteriors import posterior_table


def brute_force_posteriors(log_pi, log_theta, x):
    """Loop over classifiers, cases, classes and features: eqs. 2-4 for F features."""
    pi, theta = np.exp(log_pi), np.exp(log_theta)
    B, N, F = x.shape
    C = pi.shape[1]
    cat = np.empty((B, N, C))
    pob = np.empty((B, N, C))
    for b in range(B):
        for n in range(N):
            for c in range(C):
                jc, jp = pi[b, c], pi[b, c]
                for f in range(F):
                    t = theta[b, f, c]
                    j = x[b, n, f]
                    jc *= t[j]
                    jp *= t[j] * np.prod(np.delete(1 - t, j))
                cat[b, n, c], pob[b, n, c] = jc, jp
    return cat / cat.sum(-1, keepdims=True), pob / pob.sum(-1, keepdims=True)


@pytest.mark.parametrize("F, K, alpha", [(1, 3, 1.0), (2, 4, 1.0), (3, 3, 0.5)])
def test_simulation_posteriors_match_brute_force(F, K, alpha):
    s = simulate_several_features(F, K, alpha, C=3, n_classifiers=4, n_cases=6, seed=F)
    assert s.x.shape == (4, 6, F) and s.y.shape == (4, 6)
    cat, pob = brute_force_posteriors(s.log_pi, s.log_theta, s.x)
    assert_allclose(s.post_categorical, cat, rtol=1e-10)
    assert_allclose(s.post_pob, pob, rtol=1e-10)


def test_single_feature_simulation_agrees_with_single_feature_posteriors():
    s = simulate_several_features(1, 4, 1.0, n_classifiers=3, n_cases=5, seed=7)
    for b in range(3):
        pi, theta = np.exp(s.log_pi[b]), np.exp(s.log_theta[b, 0])
        pi, theta = pi / pi.sum(), theta / theta.sum(-1, keepdims=True)
        x = s.x[b, :, 0]
        assert_allclose(s.post_categorical[b], posterior_table(pi, theta)[x], rtol=1e-9)
        assert_allclose(s.post_pob[b], posterior_table(pi, theta, "pob")[x], rtol=1e-9)


def test_simulation_draws_cases_from_the_model():
    s = simulate_several_features(2, 3, 1.0, C=3, n_classifiers=1, n_cases=40000, seed=11)
    pi = np.exp(s.log_pi[0])
    freq = np.bincount(s.y[0], minlength=3) / 40000
    assert np.all(np.abs(freq - pi) < 5 * np.sqrt(pi * (1 - pi) / 40000))
    theta = np.exp(s.log_theta[0])
    for c in range(3):
        rows = s.x[0][s.y[0] == c]
        for f in range(2):
            fx = np.bincount(rows[:, f], minlength=3) / len(rows)
            sd = np.sqrt(theta[f, c] * (1 - theta[f, c]) / len(rows))
            assert np.all(np.abs(fx - theta[f, c]) < 5 * sd + 1e-12)


def test_simulation_is_deterministic_and_rates_are_consistent():
    a = simulate_several_features(3, 4, 0.25, n_classifiers=20, n_cases=10, seed=5)
    b = simulate_several_features(3, 4, 0.25, n_classifiers=20, n_cases=10, seed=5)
    assert_array_equal(a.post_pob, b.post_pob)
    rate, lo, hi = a.rate("map_disagree")
    assert_allclose(rate, a.map_disagree.mean())
    assert lo <= rate <= hi
    assert_allclose(a.rate("pob_higher")[0], a.pob_higher.mean())
    assert np.isfinite(a.post_pob).all() and np.isfinite(a.post_categorical).all()
    with pytest.raises(ValueError, match="name must be one of"):
        a.rate("nonsense")


def exact_max_posteriors(log_pi, log_theta, x):
    """Maximum posteriors of both models in 60-digit decimal arithmetic, from the float logs."""
    import decimal

    ctx = decimal.Context(prec=60)
    B, N, F = x.shape
    C, K = log_theta.shape[-2:]
    out = np.empty((2, B, N), dtype=object)
    for b in range(B):
        theta = [[[ctx.exp(decimal.Decimal(float(v))) for v in log_theta[b, f, c]]
                  for c in range(C)] for f in range(F)]
        for n in range(N):
            cat, pob = [], []
            for c in range(C):
                jc = ctx.exp(decimal.Decimal(float(log_pi[b, c])))
                jp = jc
                for f in range(F):
                    t = theta[f][c]
                    j = x[b, n, f]
                    q = decimal.Decimal(1)
                    for k in range(K):
                        if k != j:
                            q = ctx.multiply(q, ctx.subtract(1, t[k]))
                    jc, jp = ctx.multiply(jc, t[j]), ctx.multiply(ctx.multiply(jp, t[j]), q)
                cat.append(jc)
                pob.append(jp)
            out[0, b, n] = ctx.divide(max(cat), sum(cat, decimal.Decimal(0)))
            out[1, b, n] = ctx.divide(max(pob), sum(pob, decimal.Decimal(0)))
    return out


def test_pob_higher_is_exact_where_both_posteriors_round_to_one():
    # many features: most maximum posteriors are within rounding of 1 under both models
    s = simulate_several_features(24, 3, 0.5, C=2, n_classifiers=6, n_cases=8, seed=3)
    exact = exact_max_posteriors(s.log_pi, s.log_theta, s.x)
    oracle = exact[1] > exact[0]
    rounded = (s.post_pob.max(-1) == 1.0) & (s.post_categorical.max(-1) == 1.0)
    assert rounded.sum() >= 5  # the float comparison cannot tell these apart
    assert oracle[rounded].any()  # ... yet PoB is higher for some of them
    assert_array_equal(s.pob_higher, oracle)


def test_sparse_dirichlet_with_many_values_stays_finite():
    with np.errstate(all="raise"):
        s = simulate_several_features(4, 10, 0.02, n_classifiers=30, n_cases=20, seed=2)
    assert np.isfinite(s.post_pob).all()
    assert_allclose(s.post_pob.sum(-1), 1.0)


def test_simulation_rejects_bad_arguments():
    with pytest.raises(ValueError, match="n_features must be an integer >= 1"):
        simulate_several_features(0, 3, 1.0)
    with pytest.raises(TypeError, match="n_features must be an integer >= 1, got 2.5"):
        simulate_several_features(2.5, 3, 1.0)
    with pytest.raises(TypeError, match="K must be an integer >= 2, got 2.5"):
        simulate_several_features(2, 2.5, 1.0)
    with pytest.raises(ValueError, match="alpha must be a finite number > 0"):
        simulate_several_features(1, 3, 0.0)
    with pytest.raises(ValueError, match="K"):
        simulate_several_features(1, 1, 1.0)


def test_clustered_rate_against_closed_forms():
    hit = np.array([[1, 0, 0, 0], [1, 1, 1, 0], [0, 0, 0, 0]], dtype=bool)
    r, lo, hi = clustered_rate(hit)
    # equal cluster sizes: the mean of the per-row rates 0.25, 0.75, 0 and its standard error
    per = np.array([0.25, 0.75, 0.0])
    assert_allclose(r, 1 / 3)
    assert_allclose(hi - r, 1.96 * per.std(ddof=1) / np.sqrt(3))
    assert_allclose(r - lo, hi - r)
    # unequal cluster sizes through base: a = (1, 1, 0), m = (1, 2, 3), r = 2/6
    base = np.array([[1, 0, 0, 0], [1, 0, 0, 1], [1, 1, 1, 0]], dtype=bool)
    r, lo, hi = clustered_rate(hit, base, z=1.0)
    se = np.sqrt(3 / 2 * ((1 - 1 / 3) ** 2 + (1 - 2 / 3) ** 2 + (0 - 1) ** 2)) / 6
    assert_allclose((r, lo, hi), (1 / 3, 1 / 3 - se, 1 / 3 + se))
    # real values: a clustered mean
    assert_allclose(clustered_rate([[0.5, 1.5], [2.0, 4.0]])[0], 2.0)
    with pytest.raises(ValueError, match="hit must be a 2-d array"):
        clustered_rate([True, False])
    with pytest.raises(ValueError, match="base must select at least one observation"):
        clustered_rate(hit, np.zeros_like(hit))
