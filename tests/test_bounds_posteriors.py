"""Tests for nbcourse.bounds and nbcourse.posteriors: Williams (2024), one categorical feature one-hot encoded.

Oracles: exact rational arithmetic (fractions.Fraction) for Q^{-j}, explicit products of K
Bernoulli terms for the PoB model, closed forms for the centre and corners of the simplex,
and Duda's linear discriminant (nbcourse.binary) applied to the one-hot bits.
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from nbcourse.binary import binary_discriminant, linear_discriminant
from nbcourse.bounds import (
    MORE_EXTREME,
    RATIO_CHANGES,
    REVERSED,
    WEAKENED,
    f_j,
    guaranteed_more_extreme,
    log_f_j,
    log_q_minus_all,
    log_q_minus_j,
    lower_bound,
    q_minus_j,
    q_minus_j_at_centre,
    ratio_change,
    theta_at_centre,
    upper_bound,
)
from nbcourse.posteriors import (
    categorical_linear_weights,
    linear_score,
    log_posterior_categorical,
    log_posterior_pob,
    pob_linear_weights,
    posterior_categorical,
    posterior_pob,
    posterior_table,
)

FAST = settings(max_examples=200, deadline=None)
RTOL = 1e-12


@st.composite
def simplex_points(draw, K=None, min_K=2, max_K=8):
    """A point of the simplex, sometimes with exact zeros and sometimes a corner."""
    if K is None:
        K = draw(st.integers(min_K, max_K))
    raw = draw(
        st.lists(
            st.one_of(st.just(0.0), st.floats(1e-9, 1.0)), min_size=K, max_size=K
        )
    )
    raw = np.array(raw)
    if raw.sum() == 0:
        raw[draw(st.integers(0, K - 1))] = 1.0
    return raw / raw.sum()


@st.composite
def point_and_index(draw):
    theta = draw(simplex_points())
    return theta, draw(st.integers(0, theta.size - 1))


def exact_q(theta, j):
    """Q^{-j} in exact rational arithmetic on the given floats."""
    prod = Fraction(1)
    for k, t in enumerate(theta):
        if k != j:
            prod *= 1 - Fraction(float(t))
    return prod


def softmax(v):
    v = np.asarray(v, dtype=float)
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# --- Q^{-j}: accuracy and the analysis of section 1 ----------------------------------------


@FAST
@given(point_and_index())
def test_q_minus_j_matches_exact_rational_product(tj):
    theta, j = tj
    expected = float(exact_q(theta, j))
    assert q_minus_j(theta, j) == pytest.approx(expected, rel=1e-13, abs=0)
    assert_allclose(np.exp(log_q_minus_all(theta))[j], expected, rtol=1e-13, atol=0)


def test_q_minus_j_tiny_thetas_keep_precision():
    theta = np.array([1 - 2e-12, 1e-12, 1e-12])
    expected = float(exact_q(theta, 0))
    assert 1 - expected == pytest.approx(2e-12, rel=1e-3)
    assert q_minus_j(theta, 0) == pytest.approx(expected, rel=1e-15)
    # log form: ln(1 - 1e-12) twice, far below double precision of 1 + x
    assert log_q_minus_j(theta, 0) == pytest.approx(2 * math.log1p(-1e-12), rel=1e-12)


@FAST
@given(point_and_index())
def test_bounds_on_f_j(tj):
    """ℓ(θ_j) <= f_j(θ) <= u(θ_j), Williams (2024) eqs. 9 and 10."""
    theta, j = tj
    K = theta.size
    f = f_j(theta, j)
    # a float row sums to 1 only within a few ulps; the bounds move by θ_j times that
    slack = theta[j] * K * 1e-15
    assert lower_bound(theta[j]) * (1 - RTOL) - slack <= f
    assert f <= upper_bound(theta[j], K) * (1 + RTOL) + slack


@FAST
@given(point_and_index())
def test_q_minus_j_between_corner_and_centre_values(tj):
    """θ_j <= Q^{-j}(θ) <= eq. 8: no random point exceeds the centre of its slice."""
    theta, j = tj
    q = q_minus_j(theta, j)
    slack = theta.size * 1e-15  # rounding of the row sum, see test_bounds_on_f_j
    assert theta[j] * (1 - RTOL) - slack <= q
    assert q <= q_minus_j_at_centre(theta[j], theta.size) * (1 + RTOL) + slack


@FAST
@given(
    K=st.integers(2, 10),
    theta_j=st.one_of(st.just(0.0), st.just(1.0), st.floats(0, 1)),
    data=st.data(),
)
def test_corners_and_centre_of_the_slice(K, theta_j, data):
    j = data.draw(st.integers(0, K - 1))
    k = data.draw(st.integers(0, K - 1).filter(lambda v: v != j))
    corner = np.zeros(K)
    corner[j], corner[k] = theta_j, 1 - theta_j
    # at a corner Q^{-j} = 1 - (1 - θ_j) = θ_j (up to the rounding of 1 - θ_j)
    assert q_minus_j(corner, j) == pytest.approx(float(exact_q(corner, j)), rel=1e-13, abs=0)
    assert q_minus_j(corner, j) == pytest.approx(theta_j, rel=1e-12, abs=1e-16)
    # centre built by hand: all other values share 1 - θ_j equally (eq. 7)
    centre = np.full(K, (1 - theta_j) / (K - 1))
    centre[j] = theta_j
    assert_allclose(theta_at_centre(theta_j, K, j), centre, rtol=0, atol=0)
    by_product = math.prod(1 - c for i, c in enumerate(centre) if i != j)
    closed_form = ((K - 2 + theta_j) / (K - 1)) ** (K - 1)  # eq. 8
    assert q_minus_j(centre, j) == pytest.approx(by_product, rel=1e-13)
    assert q_minus_j_at_centre(theta_j, K) == pytest.approx(closed_form, rel=1e-13)
    assert q_minus_j_at_centre(theta_j, K) == pytest.approx(by_product, rel=1e-13)


def test_centre_value_at_zero_is_williams_constant():
    """At θ_j = 0, eq. 8 is ((K-2)/(K-1))^(K-1); for K = 2 it is 0."""
    for K in range(2, 12):
        assert q_minus_j_at_centre(0.0, K) == pytest.approx(((K - 2) / (K - 1)) ** (K - 1))
    assert q_minus_j_at_centre(0.0, 2) == 0.0


def test_centre_value_exceeds_theta_j_below_one():
    """Williams (2024), §1: Q^{-j}(θ*) > θ_j on [0, 1), equality at 1."""
    t = np.linspace(0, 1, 1001)
    for K in (2, 3, 6, 10):
        c = q_minus_j_at_centre(t, K)
        if K == 2:  # K = 2: the slice is a single point and Q^{-j} = θ_j exactly
            assert_allclose(c, t, atol=1e-15)
        else:
            assert (c[:-1] > t[:-1]).all()
            assert c[-1] == 1.0
            assert (np.diff(c) > 0).all()


def test_bounds_closed_forms():
    t = np.array([0.0, 0.25, 0.5, 1.0])
    assert_array_equal(lower_bound(t), t**2)
    assert_allclose(upper_bound(t, 6), t * ((4 + t) / 5) ** 5, rtol=1e-14)
    # K = 2: f_j(θ) = θ_j (1 - (1 - θ_j)) = θ_j², so both bounds coincide
    assert_allclose(upper_bound(t, 2), lower_bound(t), rtol=1e-14)


def test_log_q_minus_all_with_exact_zeros_and_ones():
    theta = np.array([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        q = np.exp(log_q_minus_all(theta))
        for j in range(3):
            assert_allclose(q[:, j], q_minus_j(theta, j), rtol=1e-15)
    assert_array_equal(q[0], [0.0, 1.0, 0.0])
    assert_allclose(q[1], [0.5, 0.5, 0.25], rtol=1e-15)
    assert_allclose(q[2], [0.35, 0.4, 0.56], rtol=1e-14)
    assert log_f_j(theta[0], 0) == -np.inf


# --- eq. 13 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("K", "a"), [(3, 1.0), (3, 1 / 3), (6, 1.0), (6, 1 / 6), (10, 0.1)])
def test_guaranteed_more_extreme_holds_on_random_draws(K, a):
    rng = np.random.default_rng(2024 + K)
    theta_c = rng.dirichlet(np.full(K, a), size=20000)
    theta_d = rng.dirichlet(np.full(K, a), size=20000)
    j = 0
    tc, td = theta_c[:, j], theta_d[:, j]
    ok = (tc > 0) & (td > 0)
    guaranteed = guaranteed_more_extreme(tc, td, K) & ok
    assert guaranteed.sum() >= 100, "the test must exercise the condition"
    log_f_ratio = log_f_j(theta_c, j) - log_f_j(theta_d, j)
    log_theta_ratio = np.log(tc[guaranteed]) - np.log(td[guaranteed])
    assert (log_f_ratio[guaranteed] > log_theta_ratio).all()
    # eq. 12 everywhere: f ratio >= ℓ(θ_jc) / u(θ_jd)
    bound = np.log(lower_bound(tc[ok])) - np.log(upper_bound(td[ok], K))
    assert (log_f_ratio[ok] >= bound - 1e-9).all()


def test_guaranteed_more_extreme_closed_form_threshold():
    # K = 3, θ_jd = 0.1: threshold ((1 + 0.1)/2)^2 = 0.3025
    assert_array_equal(
        guaranteed_more_extreme([0.30, 0.3026, 0.9], 0.1, 3), [False, True, True]
    )


# --- signed comparison of the two log ratios -------------------------------------------------


def _exact_log_ratios(theta_c, theta_d, j=0):
    """x = ln(θ_jc/θ_jd) and y = ln(f_j(θ_c)/f_j(θ_d)) from exact fractions."""
    def f(theta):
        out = Fraction(theta[j])
        for k, t in enumerate(theta):
            out *= 1 if k == j else 1 - Fraction(t)
        return out
    c, d = [Fraction(t) for t in theta_c], [Fraction(t) for t in theta_d]
    return math.log(c[j] / d[j]), math.log(f(c) / f(d))


# θ_c, θ_d and the change by hand: K = 2 squares the ratio (y = 2x); a corner against a
# centre with θ_jc only a little larger: f_c = 0.4 · 0.4 = 0.16 > f_d = 0.35 · 0.675² = 0.1594...
# (weakened) and, for K = 6, f_c = 0.45 · 0.45 = 0.2025 < f_d = 0.4 · 0.88⁵ = 0.2111 (reversed).
HAND_CHANGES = [
    (("0.8", "0.2"), ("0.4", "0.6"), MORE_EXTREME),
    (("0.4", "0.6", "0"), ("0.35", "0.325", "0.325"), WEAKENED),
    (("0.45", "0.55", "0", "0", "0", "0"), ("0.4", "0.12", "0.12", "0.12", "0.12", "0.12"), REVERSED),
]


@pytest.mark.parametrize(("theta_c", "theta_d", "expected"), HAND_CHANGES)
def test_ratio_change_on_hand_examples_both_orders(theta_c, theta_d, expected):
    x, y = _exact_log_ratios(theta_c, theta_d)
    assert ratio_change(x, y) == expected
    assert ratio_change(-x, -y) == expected            # classes exchanged: the mirror image
    tc, td = np.array(theta_c, dtype=float), np.array(theta_d, dtype=float)
    assert ratio_change(np.log(tc[0] / td[0]), log_f_j(tc, 0) - log_f_j(td, 0)) == expected


def test_ratio_change_is_signed_not_absolute():
    # x > 0 and y = -3x: |y| > |x|, yet the evidence changed side
    x = np.array([0.5, 0.5, 0.5, -0.5, -0.5, 0.5, 0.0, 0.0])
    y = np.array([1.0, 0.2, -1.5, -1.0, 1.5, 0.5, 0.3, 0.0])
    assert_array_equal(ratio_change(x, y), [1, 0, -1, 1, -1, 0, 1, 0])
    assert RATIO_CHANGES == {1: "more extreme", 0: "weakened", -1: "reversed"}
    assert ratio_change([[0.5], [-0.5]], [1.0, -1.0, 0.1]).shape == (2, 3)


@pytest.mark.parametrize("K", [3, 6])
def test_ratio_change_is_more_extreme_wherever_eq_13_guarantees_it(K):
    rng = np.random.default_rng(7 + K)
    theta_c, theta_d = rng.dirichlet(np.ones(K), size=(2, 20000))
    x = np.log(theta_c[:, 0] / theta_d[:, 0])
    change = ratio_change(x, log_f_j(theta_c, 0) - log_f_j(theta_d, 0))
    guaranteed = (guaranteed_more_extreme(theta_c[:, 0], theta_d[:, 0], K)
                  | guaranteed_more_extreme(theta_d[:, 0], theta_c[:, 0], K))
    assert guaranteed.sum() > 1000 and (~guaranteed).sum() > 1000
    assert (change[guaranteed] == MORE_EXTREME).all()
    assert (change[~guaranteed] == REVERSED).any()  # reversals exist, only outside the region


def test_ratio_change_bad_input():
    with pytest.raises(ValueError, match="log_f_ratio must not contain NaN"):
        ratio_change(0.5, np.nan)
    with pytest.raises(TypeError, match="log_theta_ratio must contain real numbers"):
        ratio_change("0.5", 1.0)
    with pytest.raises(ValueError, match=r"must broadcast to one shape, got \(3,\) and \(2,\)"):
        ratio_change([1.0, 2.0, 3.0], [1.0, 2.0])


# --- posteriors: eqs. 2 and 3 ------------------------------------------------------------


@st.composite
def classifiers(draw):
    K = draw(st.integers(2, 6))
    C = draw(st.integers(2, 5))
    theta = np.stack([draw(simplex_points(K=K)) for _ in range(C)])
    pi = draw(simplex_points(K=C))
    j = draw(st.integers(0, K - 1))
    return pi, theta, j


def brute_pob_joint(pi, theta, j):
    """π_c Π_k θ_kc^{x_k} (1 - θ_kc)^{1 - x_k} with x = e_j, by explicit product."""
    K = theta.shape[1]
    x = [1 if k == j else 0 for k in range(K)]
    out = []
    for c in range(theta.shape[0]):
        prod = Fraction(float(pi[c]))
        for k in range(K):
            t = Fraction(float(theta[c, k]))
            prod *= t if x[k] == 1 else 1 - t
        out.append(prod)
    return out


@FAST
@given(classifiers())
def test_posteriors_against_brute_force(clf):
    pi, theta, j = clf
    cat_joint = [Fraction(float(pi[c])) * Fraction(float(theta[c, j])) for c in range(len(pi))]
    pob_joint = brute_pob_joint(pi, theta, j)
    for joint, post, table_model in (
        (cat_joint, posterior_categorical, "categorical"),
        (pob_joint, posterior_pob, "pob"),
    ):
        total = sum(joint)
        if total == 0:
            with pytest.raises(ValueError, match="undefined"):
                post(pi, theta, j)
            continue
        expected = np.array([float(v / total) for v in joint])
        got = post(pi, theta, j)
        assert_allclose(got, expected, rtol=1e-12, atol=1e-300)
        assert got.sum() == pytest.approx(1.0, abs=1e-12)
        table = posterior_table(pi, theta, table_model, undefined="nan")
        assert_allclose(table[j], expected, rtol=1e-12, atol=1e-300)


@FAST
@given(classifiers())
def test_pob_posterior_is_duda_linear_discriminant_on_one_hot_bits(clf):
    pi, theta, j = clf
    theta = np.clip(theta, 1e-6, 1 - 1e-6)  # Duda's weights need 0 < θ < 1
    theta = theta / theta.sum(axis=1, keepdims=True)
    pi = np.clip(pi, 1e-6, 1)
    pi = pi / pi.sum()
    W, w0 = binary_discriminant(theta, pi)
    e_j = np.eye(theta.shape[1], dtype=int)[[j]]
    g = linear_discriminant(e_j, W, w0)[0]
    assert_allclose(posterior_pob(pi, theta, j), softmax(g), rtol=1e-10)
    Wp, bp = pob_linear_weights(pi, theta)
    assert_allclose(Wp, W, rtol=1e-12)
    assert_allclose(bp, w0, rtol=1e-12)
    assert_allclose(np.exp(log_posterior_pob(pi, theta, j)), softmax(linear_score(Wp, bp, j)))


def test_categorical_weights_reproduce_eq2():
    pi = np.array([0.2, 0.3, 0.5])
    theta = np.array([[0.1, 0.0, 0.9], [0.3, 0.3, 0.4], [0.6, 0.2, 0.2]])
    W, b = categorical_linear_weights(pi, theta)
    for j in range(3):
        s = linear_score(W, b, j)
        expected = pi * theta[:, j] / (pi * theta[:, j]).sum()
        assert_allclose(softmax(s), expected, rtol=1e-14)
        assert_allclose(posterior_categorical(pi, theta, j), expected, rtol=1e-14)


def test_broadcasting_over_leading_axes_matches_loops():
    rng = np.random.default_rng(7)
    C, K = 4, 5
    theta = rng.dirichlet(np.ones(K), size=(6, 3, C))  # (6, 3, C, K)
    pi = rng.dirichlet(np.ones(C), size=(3,))  # (3, C) broadcasts against (6, 3)
    for j in range(K):
        cat = posterior_categorical(pi, theta, j)
        pob = posterior_pob(pi, theta, j)
        lpob = log_posterior_pob(pi, theta, j)
        assert cat.shape == pob.shape == (6, 3, C)
        for a in range(6):
            for b in range(3):
                assert_allclose(cat[a, b], posterior_categorical(pi[b], theta[a, b], j))
                assert_allclose(pob[a, b], posterior_pob(pi[b], theta[a, b], j))
        assert_allclose(np.exp(lpob), pob, rtol=1e-14)
    q = q_minus_j(theta, 2)
    assert q.shape == (6, 3, C)
    assert_allclose(q[1, 2, 3], np.prod(np.delete(1 - theta[1, 2, 3], 2)), rtol=1e-13)
    table = posterior_table(pi, theta, "pob")
    assert table.shape == (6, 3, K, C)
    assert_allclose(table[..., 2, :], posterior_pob(pi, theta, 2), rtol=1e-14)
    assert_allclose(table.sum(axis=-1), 1.0, atol=1e-12)


def test_pob_with_certain_value():
    theta = [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]
    pi = [0.5, 0.5]
    # class 0: f_0 = 1·1·1 = 1; class 1: f_0 = 0.5·(1-0.5)·1 = 0.25
    assert_allclose(posterior_pob(pi, theta, 0), [0.8, 0.2], rtol=1e-15)
    assert_array_equal(posterior_pob(pi, theta, 1), [0.0, 1.0])
    assert_allclose(posterior_categorical(pi, theta, 0), [2 / 3, 1 / 3], rtol=1e-15)


def test_undefined_posterior_raises_or_returns_nan_on_request():
    pi = [1.0, 0.0]
    theta = [[0.0, 1.0], [1.0, 0.0]]  # class 0 never shows x=0, class 1 has prior 0
    with pytest.raises(ValueError, match=r"posterior is undefined for 1 of 1 row"):
        posterior_categorical(pi, theta, 0)
    with pytest.raises(ValueError, match="PoB posterior is undefined"):
        posterior_pob(pi, theta, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = log_posterior_categorical(pi, theta, 0, undefined="nan")
        assert np.isnan(got).all()
        table = posterior_table(pi, theta, "categorical", undefined="nan")
    assert np.isnan(table[0]).all()
    assert_array_equal(table[1], [1.0, 0.0])


def test_undefined_counts_in_a_batch():
    theta = np.array([[[0.0, 1.0], [0.0, 1.0]], [[0.5, 0.5], [0.2, 0.8]]])  # (2, C=2, K=2)
    pi = [0.5, 0.5]
    with pytest.raises(ValueError, match=r"1 of 2 row\(s\) \(first at index \(0,\)\)"):
        posterior_pob(pi, theta, 0)
    got = posterior_pob(pi, theta, 0, undefined="nan")
    assert np.isnan(got[0]).all() and not np.isnan(got[1]).any()


# --- bad input ---------------------------------------------------------------------------


def test_bad_theta():
    with pytest.raises(ValueError, match=r"theta must have rows summing to 1 \(within 1e-08\)"):
        q_minus_j([0.5, 0.6], 0)
    with pytest.raises(ValueError, match=r"theta must contain probabilities in \[0, 1\]"):
        q_minus_j([1.5, -0.5], 0)
    with pytest.raises(ValueError, match="theta must not contain NaN"):
        f_j([np.nan, 1.0], 0)
    with pytest.raises(ValueError, match=r"last axis of theta \(K\) must be an integer >= 2.*got 1"):
        q_minus_j([[1.0]], 0)
    with pytest.raises(TypeError, match="theta must contain real numbers"):
        q_minus_j(["a", "b"], 0)


def test_bad_j():
    with pytest.raises(ValueError, match=r"j must be an index in range\(3\) \(0-based\), got 3"):
        q_minus_j([0.2, 0.3, 0.5], 3)
    with pytest.raises(ValueError, match=r"j must be an index in range\(2\)"):
        posterior_pob([0.5, 0.5], [[0.5, 0.5], [0.5, 0.5]], -1)
    with pytest.raises(TypeError, match="j must be an integer index"):
        f_j([0.2, 0.8], 1.0)


def test_bad_K_and_theta_j():
    with pytest.raises(ValueError, match="K must be an integer >= 2"):
        upper_bound(0.5, 1)
    with pytest.raises(TypeError, match="K must be an integer"):
        q_minus_j_at_centre(0.5, 3.0)
    with pytest.raises(ValueError, match=r"theta_j must contain probabilities in \[0, 1\]"):
        lower_bound(1.5)
    with pytest.raises(ValueError, match="theta_jd must not contain NaN"):
        guaranteed_more_extreme(0.5, np.nan, 3)


def test_bad_pi_and_shapes():
    theta = [[0.5, 0.5], [0.2, 0.8]]
    with pytest.raises(ValueError, match=r"pi must have rows summing to 1"):
        posterior_categorical([0.5, 0.6], theta, 0)
    with pytest.raises(ValueError, match=r"pi and theta must have the same number of classes C"):
        posterior_categorical([0.2, 0.3, 0.5], theta, 0)
    with pytest.raises(ValueError, match=r"theta must have shape \(\.\.\., C, K\)"):
        posterior_pob([0.5, 0.5], [0.5, 0.5], 0)
    with pytest.raises(ValueError, match="leading axes of pi"):
        posterior_pob(np.full((3, 2), 0.5), np.full((4, 2, 2), 0.5), 0)
    with pytest.raises(ValueError, match="undefined must be 'raise' or 'nan'"):
        posterior_pob([0.5, 0.5], theta, 0, undefined="ignore")
    with pytest.raises(ValueError, match="model must be 'categorical' or 'pob'"):
        posterior_table([0.5, 0.5], theta, "bernoulli")
    with pytest.raises(ValueError, match=r"theta has an entry equal to 1 at \(0, 0\)"):
        pob_linear_weights([0.5, 0.5], [[1.0, 0.0], [0.2, 0.8]])
    with pytest.raises(ValueError, match=r"W must have shape \(\.\.\., C, K\)"):
        linear_score([[0.0, 1.0]], [0.0, 1.0], 0)
