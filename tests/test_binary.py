"""Tests for nbcourse.binary: Duda, Hart & Stork (2001) §2.9, independent binary features.

Expected values come from closed forms (Example 3), brute-force enumeration of the
cube with plain Python products, and scikit-learn's BernoulliNB as an independent oracle.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.naive_bayes import BernoulliNB

from nbcourse.binary import (
    binary_discriminant,
    cube_corners,
    decide,
    estimate_binary,
    linear_discriminant,
    log_joint_binary,
    log_likelihood_binary,
    log_likelihood_bits,
    log_posterior_binary,
    log_posterior_ratio,
    two_class_discriminant,
)

FAST = settings(max_examples=200, deadline=None)


def brute_joint(x, P, priors):
    """P(x | ω_c) P(ω_c) for one corner x, by an explicit product (eq. 86)."""
    out = []
    for c in range(len(priors)):
        prod = priors[c]
        for i, xi in enumerate(x):
            prod *= P[c][i] if xi == 1 else 1.0 - P[c][i]
        out.append(prod)
    return out


# --- Duda, Hart & Stork, Example 3 -------------------------------------------------


def test_example3_weights():
    w, w0 = two_class_discriminant([0.8, 0.8, 0.8], [0.5, 0.5, 0.5], prior1=0.5)
    assert_allclose(w, [math.log(4)] * 3, rtol=0, atol=1e-14)
    assert_allclose(w, [1.3863] * 3, atol=5e-5)
    assert w0 == pytest.approx(3 * math.log(0.4), abs=1e-14)
    assert w0 == pytest.approx(-2.75, abs=0.005)


def test_example3_with_uninformative_third_feature():
    w, w0 = two_class_discriminant([0.8, 0.8, 0.5], [0.5, 0.5, 0.5])
    assert w[2] == 0.0
    assert_allclose(w[:2], [math.log(4)] * 2, atol=1e-14)
    assert w0 == pytest.approx(2 * math.log(0.4), abs=1e-14)


@pytest.mark.parametrize("p3", [0.8, 0.5])
def test_example3_discriminant_is_log_posterior_ratio_on_all_corners(p3):
    p, q = [0.8, 0.8, p3], [0.5, 0.5, 0.5]
    w, w0 = two_class_discriminant(p, q)
    corners = list(itertools.product([0, 1], repeat=3))
    assert len(corners) == 8
    for x in corners:
        j1, j2 = brute_joint(x, [p, q], [0.5, 0.5])
        expected = math.log(j1 / j2)  # posterior ratio = joint ratio
        g = float(np.dot(w, x) + w0)
        assert g == pytest.approx(expected, abs=1e-12)
        assert log_posterior_ratio(list(x), p, q) == pytest.approx(expected, abs=1e-12)
    # the vectorised form on the whole cube at once
    assert_allclose(
        linear_discriminant(cube_corners(3), w, w0),
        log_posterior_ratio(cube_corners(3), p, q),
        atol=1e-12,
    )


def test_two_class_priors_shift_w0_only():
    p, q = [0.3, 0.9], [0.6, 0.2]
    w_a, w0_a = two_class_discriminant(p, q, prior1=0.5)
    w_b, w0_b = two_class_discriminant(p, q, prior1=0.8)
    assert_allclose(w_a, w_b)
    assert w0_b - w0_a == pytest.approx(math.log(0.8 / 0.2), abs=1e-14)


# --- minimum risk: a loss matrix shifts the bias -----------------------------------


def test_example3_with_loss_closed_form():
    # Missing omega_1 costs 4, a false alarm 1: w0 = 3 ln 0.4 + ln 4 = ln 0.256.
    w, w0 = two_class_discriminant([0.8] * 3, [0.5] * 3, loss=[[0, 1], [4, 0]])
    assert_allclose(w, [math.log(4)] * 3, rtol=0, atol=1e-14)
    assert w0 == pytest.approx(math.log(0.256), abs=1e-14)
    # One "yes" is now enough: g = ln 4 + ln 0.256 = ln 1.024 > 0.
    assert np.sum(decide(cube_corners(3), w, w0) == 0) == 7


def test_zero_one_loss_and_column_shifts_leave_the_rule_unchanged():
    p, q = [0.3, 0.9], [0.6, 0.2]
    plain = two_class_discriminant(p, q, prior1=0.35)
    for loss in ([[0, 1], [1, 0]], [[2, 1], [3, 0]], [[0, 5], [0.5, 4.5]]):
        w, w0 = two_class_discriminant(p, q, prior1=0.35, loss=loss)
        assert_allclose(w, plain[0], atol=1e-14)
        assert w0 == pytest.approx(plain[1], abs=1e-14)


@FAST
@given(d=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
def test_loss_rule_minimises_conditional_risk_on_every_corner(d, seed):
    rng = np.random.default_rng(seed)
    p, q = rng.uniform(0.02, 0.98, d), rng.uniform(0.02, 0.98, d)
    prior1 = float(rng.uniform(0.05, 0.95))
    l11, l22 = rng.uniform(0, 1, 2)                        # losses of correct decisions
    miss, false_alarm = rng.uniform(0.1, 5, 2)             # extra cost of each error
    lam = np.array([[l11, l22 + false_alarm], [l11 + miss, l22]])
    w, w0 = two_class_discriminant(p, q, prior1, loss=lam)
    for x in itertools.product([0, 1], repeat=d):
        j1, j2 = brute_joint(x, [p, q], [prior1, 1 - prior1])
        post = np.array([j1, j2]) / (j1 + j2)
        risk = lam @ post  # R(alpha_i | x) = sum_j lambda_ij P(omega_j | x)
        g = float(np.dot(w, x) + w0)
        expected = math.log((lam[1, 0] - lam[0, 0]) * j1 / ((lam[0, 1] - lam[1, 1]) * j2))
        assert g == pytest.approx(expected, abs=1e-9)
        if abs(risk[0] - risk[1]) > 1e-9 * risk.max():
            assert (g > 0) == (risk[0] < risk[1])


@pytest.mark.parametrize(
    ("loss", "match"),
    [
        ([0, 1, 1, 0], r"loss must be a finite \(2, 2\) matrix, got array of shape \(4,\)"),
        ([[0, 1], [np.inf, 0]], r"loss must be a finite \(2, 2\) matrix"),
        ([[0, 1], [0, 0]], r"each error costs more than the correct decision.*got \[\[0.0, 1.0\]"),
        ([[0, 1], [2, 1]], r"loss\[0, 1\] > loss\[1, 1\]"),
        ([[0, np.nan], [1, 0]], r"loss must not contain NaN"),
    ],
)
def test_bad_loss(loss, match):
    with pytest.raises(ValueError, match=match):
        two_class_discriminant([0.5], [0.4], loss=loss)


# --- multi-class linear form ---------------------------------------------------------


@FAST
@given(
    d=st.integers(1, 5),
    C=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_multiclass_linear_form_equals_log_posterior_up_to_constant(d, C, seed):
    rng = np.random.default_rng(seed)
    P = rng.uniform(0.01, 0.99, size=(C, d))
    priors = rng.dirichlet(np.ones(C))
    W, w0 = binary_discriminant(P, priors)
    corners = list(itertools.product([0, 1], repeat=d))
    g = linear_discriminant(np.array(corners), W, w0)
    for r, x in enumerate(corners):
        joint = brute_joint(x, P.tolist(), priors.tolist())
        evidence = sum(joint)
        log_post = [math.log(v / evidence) for v in joint]
        # g_c(x) - ln P(ω_c | x) = ln P(x), the same constant for every class
        diff = g[r] - np.array(log_post)
        assert_allclose(diff, math.log(evidence), atol=1e-10)
        top2 = sorted(log_post)[-2:]
        if top2[1] - top2[0] > 1e-9:  # no near-tie: the linear rule picks the MAP class
            assert decide(np.array([x]), W, w0)[0] == int(np.argmax(log_post))


@FAST
@given(d=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
def test_two_class_equals_difference_of_multiclass(d, seed):
    rng = np.random.default_rng(seed)
    p, q = rng.uniform(0.01, 0.99, size=(2, d))
    prior1 = rng.uniform(0.05, 0.95)
    w, w0 = two_class_discriminant(p, q, prior1)
    W, W0 = binary_discriminant(np.stack([p, q]), [prior1, 1 - prior1])
    assert_allclose(w, W[0] - W[1], atol=1e-12)
    assert w0 == pytest.approx(W0[0] - W0[1], abs=1e-12)


def test_decide_two_class_vector_and_ties():
    w, w0 = two_class_discriminant([0.8, 0.8, 0.8], [0.5, 0.5, 0.5])
    X = cube_corners(3)
    # g > 0 exactly for corners with at least two bits on: ln 4 * k + 3 ln 0.4 > 0 iff k >= 2
    expected = np.where(X.sum(axis=1) >= 2, 0, 1)
    assert_array_equal(decide(X, w, w0), expected)


# --- direct Bernoulli products and exact zeros ----------------------------------------


def test_log_likelihood_matches_brute_force():
    rng = np.random.default_rng(0)
    P = rng.uniform(0, 1, size=(3, 4))
    X = cube_corners(4)
    ll = log_likelihood_binary(X, P)
    for r, x in enumerate(X):
        joint = brute_joint(x, P.tolist(), [1.0, 1.0, 1.0])
        assert_allclose(ll[r], np.log(joint), rtol=1e-12)


def test_likelihood_of_bits_in_both_forms_matches_brute_force():
    rng = np.random.default_rng(1)
    P = rng.uniform(0, 1, size=(3, 5))
    X = cube_corners(5)
    want = np.log([brute_joint(x, P.tolist(), [1.0, 1.0, 1.0]) for x in X])
    for linear in (True, False):
        got = log_likelihood_bits(X, np.log(P), np.log1p(-P), linear=linear)
        assert_allclose(got, want, rtol=1e-12)


def test_likelihood_of_bits_sums_out_what_is_not_observed():
    rng = np.random.default_rng(2)
    P = rng.uniform(0.05, 0.95, size=(2, 4))
    X = cube_corners(4)
    observed = rng.random(X.shape) < 0.5
    got = log_likelihood_bits(X, np.log(P), np.log1p(-P), observed=observed)
    for r in range(X.shape[0]):
        keep = observed[r]  # the likelihood of the observed bits alone, by brute force
        want = np.log(brute_joint(X[r, keep], P[:, keep].tolist(), [1.0, 1.0]))
        assert_allclose(got[r], want, rtol=1e-12)


def test_likelihood_of_bits_with_certain_features_is_minus_inf_not_nan():
    P = np.array([[1.0, 0.5], [0.5, 0.0]])
    with np.errstate(divide="ignore"):
        on, off = np.log(P), np.log1p(-P)
    got = log_likelihood_bits(cube_corners(2), on, off)  # finite weights unavailable
    assert not np.isnan(got).any()
    assert_array_equal(np.isneginf(got), [[True, False], [True, True], [False, False],
                                          [False, True]])


def test_certain_features_give_exact_infinities_not_nan():
    p, q = [1.0, 0.5], [0.5, 0.0]
    X = cube_corners(2)
    # x=(0,0): ω1 impossible (p1=1), ω2 possible -> -inf
    # x=(0,1): both impossible -> undefined
    with pytest.raises(ValueError, match="undefined"):
        log_posterior_ratio(X, p, q)
    r = log_posterior_ratio(X[[0, 2, 3]], p, q)
    assert r[0] == -np.inf
    assert r[1] == pytest.approx(math.log((1 * 0.5) / (0.5 * 1.0)))
    assert r[2] == np.inf  # q2 = 0 rules ω2 out
    lp = log_posterior_binary(X[[0, 3]], [p, q], [0.5, 0.5])
    assert not np.isnan(lp).any()
    assert_array_equal(np.exp(lp), [[0.0, 1.0], [1.0, 0.0]])


def test_weights_refuse_certain_features_with_clear_message():
    with pytest.raises(ValueError, match=r"p has a feature probability of exactly 1.*alpha>0"):
        two_class_discriminant([1.0, 0.5], [0.5, 0.5])
    with pytest.raises(ValueError, match="q has a feature probability of exactly 0"):
        two_class_discriminant([0.2, 0.5], [0.5, 0.0])
    with pytest.raises(ValueError, match="P has a feature probability of exactly 0"):
        binary_discriminant([[0.0, 0.5], [0.5, 0.5]], [0.5, 0.5])


def test_zero_prior_gives_minus_inf_bias_but_finite_weights():
    W, w0 = binary_discriminant([[0.2, 0.4], [0.7, 0.1]], [1.0, 0.0])
    assert np.isfinite(W).all()
    assert w0[1] == -np.inf
    assert_array_equal(decide(cube_corners(2), W, w0), [0, 0, 0, 0])


def test_log_joint_matches_linear_form():
    P = np.array([[0.2, 0.4, 0.9], [0.7, 0.1, 0.5]])
    priors = [0.3, 0.7]
    W, w0 = binary_discriminant(P, priors)
    X = cube_corners(3)
    assert_allclose(log_joint_binary(X, P, priors), linear_discriminant(X, W, w0), atol=1e-12)


# --- estimation ------------------------------------------------------------------------


def test_estimate_binary_counts_by_hand():
    X = [[1, 0, 1], [1, 1, 1], [0, 0, 1], [1, 0, 0], [0, 1, 0]]
    y = ["b", "b", "b", "a", "a"]  # classes sorted: a, b
    P, priors = estimate_binary(X, y)
    assert_allclose(P, [[1 / 2, 1 / 2, 0 / 2], [2 / 3, 1 / 3, 3 / 3]])
    assert_allclose(priors, [2 / 5, 3 / 5])
    P1, _ = estimate_binary(X, y, alpha=1.0)
    assert_allclose(P1, [[2 / 4, 2 / 4, 1 / 4], [3 / 5, 2 / 5, 4 / 5]])


@pytest.mark.parametrize("alpha", [1e-10, 0.01, 0.5, 1.0, 3.0])
def test_estimate_and_posterior_match_sklearn_bernoulli(alpha):
    rng = np.random.default_rng(42)
    X = rng.integers(0, 2, size=(60, 5))
    y = rng.integers(0, 3, size=60)
    P, priors = estimate_binary(X, y, alpha=alpha)
    sk = BernoulliNB(alpha=alpha, force_alpha=True).fit(X, y)
    assert_allclose(np.log(P), sk.feature_log_prob_, atol=1e-12)
    assert_allclose(np.log(priors), sk.class_log_prior_, atol=1e-12)
    corners = cube_corners(5)
    assert_allclose(
        log_posterior_binary(corners, P, priors), sk.predict_log_proba(corners), atol=1e-10
    )


def test_cube_corners_are_all_distinct_binary_vectors():
    C = cube_corners(4)
    assert C.shape == (16, 4)
    assert set(map(tuple, C.tolist())) == set(itertools.product([0, 1], repeat=4))
    assert_array_equal(C @ (2 ** np.arange(3, -1, -1)), np.arange(16))


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "q", "match"),
    [
        ([0.5, 1.2], [0.5, 0.5], r"p must contain probabilities in \[0, 1\]; entry \(1,\) is 1.2"),
        ([0.5, -0.1], [0.5, 0.5], r"p must contain probabilities"),
        ([0.5, 0.5], [np.nan, 0.5], r"q must not contain NaN"),
        ([0.5, 0.5], [0.5, 0.5, 0.5], r"p and q must have the same shape, got \(2,\) and \(3,\)"),
        ([[0.5]], [[0.5]], r"p must be a 1-d array"),
    ],
)
def test_two_class_bad_input(p, q, match):
    with pytest.raises(ValueError, match=match):
        two_class_discriminant(p, q)


def test_bad_prior1():
    with pytest.raises(ValueError, match="prior1 must contain probabilities"):
        two_class_discriminant([0.5], [0.4], prior1=1.5)
    with pytest.raises(TypeError, match="prior1 must contain real numbers"):
        two_class_discriminant([0.5], [0.4], prior1="half")


def test_binary_discriminant_bad_priors():
    with pytest.raises(ValueError, match=r"priors must have rows summing to 1 \(within 1e-08\)"):
        binary_discriminant([[0.5], [0.4]], [0.5, 0.6])
    with pytest.raises(ValueError, match=r"priors must have shape \(2,\)"):
        binary_discriminant([[0.5], [0.4]], [0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="P must be a 2-d array"):
        binary_discriminant([0.5, 0.4], [0.5, 0.5])


def test_estimate_binary_bad_input():
    with pytest.raises(ValueError, match=r"X must contain only 0 and 1; entry \(0, 1\) is 2"):
        estimate_binary([[0, 2], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="y must contain at least 2 distinct classes, got 1"):
        estimate_binary([[0, 1], [1, 0]], [3, 3])
    with pytest.raises(ValueError, match="X must not be empty"):
        estimate_binary(np.zeros((0, 3)), [])
    with pytest.raises(ValueError, match=r"alpha must be a finite number >= 0, got -1.0"):
        estimate_binary([[0, 1], [1, 0]], [0, 1], alpha=-1)
    with pytest.raises(ValueError, match=r"y must have one label per row of X \(2\), got 3"):
        estimate_binary([[0, 1], [1, 0]], [0, 1, 1])
    with pytest.raises(TypeError, match="alpha must be a real number"):
        estimate_binary([[0, 1], [1, 0]], [0, 1], alpha="1")


def test_log_likelihood_shape_mismatch():
    with pytest.raises(ValueError, match=r"P must have shape \(C, 2\)"):
        log_likelihood_binary([[0, 1]], [[0.5, 0.5, 0.5]])


def test_linear_discriminant_shape_checks():
    with pytest.raises(ValueError, match=r"W must have 2 columns to match X"):
        linear_discriminant([[0, 1]], [[1.0, 2.0, 3.0]], [0.0])
    with pytest.raises(ValueError, match=r"w0 must have shape \(2,\).*got shape \(3,\)"):
        linear_discriminant([[0, 1]], np.zeros((2, 2)), np.zeros(3))
    with pytest.raises(ValueError, match=r"w0 must have shape \(\)"):
        linear_discriminant([[0, 1]], np.zeros(2), np.zeros(2))


def test_cube_corners_bad_input():
    with pytest.raises(ValueError, match="d must satisfy"):
        cube_corners(0)
    with pytest.raises(TypeError, match="d must be an integer"):
        cube_corners(2.0)
