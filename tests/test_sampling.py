"""Tests for nbcourse.sampling: counts against closed forms and brute-force enumeration."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from nbcourse.sampling import (
    bernoulli_estimate_mse,
    count_empty_cells,
    expected_empty_cells,
    n_feature_vectors,
    n_parameters_joint,
    n_parameters_naive,
    sample_binary_features,
    sample_binary_naive_bayes,
    sample_labels,
    sample_uniform_codes,
)

# ----------------------------------------------------------------------------- counting


@given(st.lists(st.integers(1, 6), min_size=1, max_size=5))
@settings(max_examples=50, deadline=None)
def test_n_feature_vectors_counts_the_cartesian_product(V):
    product = list(itertools.product(*[range(v) for v in V]))
    assert n_feature_vectors(V) == len(product)


def test_n_feature_vectors_is_exact_beyond_int64():
    assert n_feature_vectors([2] * 100) == 2**100
    assert n_feature_vectors(7) == 7


def test_parameter_counts_closed_forms():
    # Two classes, 20 binary features: 2 (2^20 - 1) joint, 2 * 20 naive.
    assert n_parameters_joint([2] * 20) == 2 * (2**20 - 1)
    assert n_parameters_naive([2] * 20) == 40
    # Three classes, features with 3, 4, 5 values.
    assert n_parameters_joint([3, 4, 5], n_classes=3) == 3 * (60 - 1)
    assert n_parameters_naive([3, 4, 5], n_classes=3) == 3 * (2 + 3 + 4)


@pytest.mark.parametrize(
    "V, given",
    [([], "got array of shape (0,)"), ([2, 0], "got [2, 0]"), ([2.5], "got array of shape (1,)"),
     (["a"], "got array of shape (1,)"), ([[2, 2]], "got array of shape (1, 2)"), (0, "got 0"),
     (None, "got None")],
)
def test_bad_cardinalities_are_named(V, given):
    expected = ("n_values must be an int >= 1 or a non-empty sequence of ints >= 1, "
                "the number of values of each feature, ")
    for call in (lambda: n_feature_vectors(V), lambda: sample_uniform_codes(V, 3, seed=0)):
        with pytest.raises(ValueError, match="n_values must") as info:
            call()
        assert str(info.value).startswith(expected + given)


def test_whole_numbers_as_floats_and_one_int_are_cardinalities():
    assert n_feature_vectors([2.0, 3.0]) == 6
    assert n_feature_vectors(5) == 5
    assert count_empty_cells([[0, 1], [1, 1]], 2) == 2


def test_bad_n_classes():
    with pytest.raises(ValueError, match="n_classes must be an integer >= 1, got 0"):
        n_parameters_naive([2, 2], n_classes=0)
    with pytest.raises(TypeError, match="n_classes"):
        n_parameters_joint([2, 2], n_classes=2.0)


# ----------------------------------------------------------------------------- empty cells


def test_count_empty_cells_matches_set_difference():
    rng = np.random.default_rng(3)
    V = [3, 2, 4]
    X = rng.integers(0, V, size=(10, 3))
    every = set(itertools.product(*[range(v) for v in V]))
    seen = {tuple(int(v) for v in row) for row in X}
    assert count_empty_cells(X, V) == len(every - seen)


def test_count_empty_cells_rejects_out_of_range_codes():
    with pytest.raises(ValueError, match=r"X\[0, 1\] = 2 is not a valid code for feature 1, "
                       r"which has 2 categories \(codes 0..1, from n_values\)"):
        count_empty_cells([[0, 2]], [2, 2])
    with pytest.raises(ValueError, match=r"n_values must be an int >= 1 or a sequence of 3 ints "
                       r">= 1, the number of values of each feature, got \[2, 2\]"):
        count_empty_cells([[0, 1, 0]], [2, 2])


@pytest.mark.parametrize("V, N", [(1, 0), (1, 2), (2, 1), (3, 4), (5, 3)])
def test_expected_empty_cells_by_enumerating_every_sample(V, N):
    # Average the number of empty cells over all V^N equally likely samples.
    counts = [V - len(set(s)) for s in itertools.product(range(V), repeat=N)]
    assert_allclose(expected_empty_cells(V, N), np.mean(counts), rtol=1e-12)


def test_expected_empty_cells_for_huge_V_is_precise():
    # V (1 - 1/V)^N ~ V - N + N(N-1)/(2V) when N << V.
    V, N = 2.0**40, 1000
    assert_allclose(expected_empty_cells(V, N), V - N + N * (N - 1) / (2 * V), rtol=1e-15)


def test_expected_empty_cells_agrees_with_simulation():
    V = [2] * 6
    rng = np.random.default_rng(0)
    sims = [count_empty_cells(sample_uniform_codes(V, 50, seed=rng), V) for _ in range(400)]
    exact = expected_empty_cells(64, 50)
    se = np.std(sims) / np.sqrt(len(sims))
    assert abs(np.mean(sims) - exact) < 4 * se


def test_expected_empty_cells_bad_input():
    with pytest.raises(ValueError, match="n_cells must be finite and >= 1"):
        expected_empty_cells(0, 3)
    with pytest.raises(ValueError, match="N must be finite and >= 0"):
        expected_empty_cells(4, -1)


# ----------------------------------------------------------------------------- estimation error


@pytest.mark.parametrize("p, n, alpha", [(0.3, 5, 0.0), (0.9, 4, 1.0), (0.0, 3, 0.5), (0.5, 6, 2.0)])
def test_bernoulli_estimate_mse_by_enumerating_the_binomial(p, n, alpha):
    from scipy.stats import binom

    k = np.arange(n + 1)
    estimate = (k + alpha) / (n + 2 * alpha)
    exact = np.sum(binom.pmf(k, n, p) * (estimate - p) ** 2)
    assert_allclose(bernoulli_estimate_mse(p, n, alpha), exact, rtol=1e-12, atol=1e-15)


def test_bernoulli_estimate_mse_broadcasts_and_validates():
    out = bernoulli_estimate_mse([0.2, 0.5], [[10], [20]])
    assert out.shape == (2, 2)
    assert_allclose(out[1, 0], 0.2 * 0.8 / 20)
    with pytest.raises(ValueError, match="n must be finite, >= 0 and n"):
        bernoulli_estimate_mse(0.5, 0)
    with pytest.raises(ValueError, match="p must contain probabilities"):
        bernoulli_estimate_mse(1.5, 3)


# ----------------------------------------------------------------------------- sampling


def test_sample_binary_naive_bayes_frequencies():
    P = np.array([[0.8, 0.1, 0.5], [0.3, 0.95, 0.0]])
    priors = np.array([0.25, 0.75])
    n = 40_000
    X, y = sample_binary_naive_bayes(P, priors, n, seed=np.random.default_rng(7))
    assert X.shape == (n, 3) and y.shape == (n,)
    assert set(np.unique(X)) <= {0, 1}
    # Class frequencies and per-class feature frequencies within 4 standard errors.
    assert abs(np.mean(y == 0) - 0.25) < 4 * np.sqrt(0.25 * 0.75 / n)
    for c in range(2):
        rows = X[y == c]
        se = np.sqrt(P[c] * (1 - P[c]) / len(rows)) + 1e-12
        assert np.all(np.abs(rows.mean(axis=0) - P[c]) <= 4 * se)
    # The exact zero stays exact.
    assert X[y == 1, 2].sum() == 0


def test_features_are_independent_within_a_class():
    P = [[0.5, 0.5]]
    y = np.zeros(50_000, dtype=int)
    X = sample_binary_features(P, y, seed=1)
    both = np.mean((X[:, 0] == 1) & (X[:, 1] == 1))
    assert abs(both - 0.25) < 4 * np.sqrt(0.25 * 0.75 / len(y))


def test_sampling_is_deterministic_given_a_seed():
    a = sample_binary_naive_bayes([[0.2, 0.7]], [1.0], 20, seed=11)
    b = sample_binary_naive_bayes([[0.2, 0.7]], [1.0], 20, seed=np.random.default_rng(11))
    assert_array_equal(a[0], b[0])
    assert_array_equal(a[1], b[1])


def test_zero_priors_are_never_drawn():
    y = sample_labels([0.5, 0.0, 0.5], 5000, seed=2)
    assert 1 not in set(y.tolist())
    assert set(y.tolist()) == {0, 2}


def test_uniform_codes_cover_their_range():
    X = sample_uniform_codes([2, 5], 2000, seed=0)
    assert_array_equal(np.unique(X[:, 0]), [0, 1])
    assert_array_equal(np.unique(X[:, 1]), [0, 1, 2, 3, 4])


@pytest.mark.parametrize(
    "call, err, text",
    [
        (lambda: sample_binary_naive_bayes([[0.5]], [0.5, 0.5], 3, seed=0), ValueError,
         "priors must have one entry per row of P"),
        (lambda: sample_binary_naive_bayes([[0.5]], [1.0], 3, seed="x"), TypeError,
         "seed must be None, a non-negative int"),
        (lambda: sample_binary_features([[0.5]], [1], seed=0), ValueError,
         "y must hold classes 0..0"),
        (lambda: sample_labels([0.5, 0.6], 2, seed=0), ValueError, "priors must have rows"),
        (lambda: sample_uniform_codes([2], -1, seed=0), ValueError, "N must be an integer >= 0"),
    ],
)
def test_sampling_bad_input(call, err, text):
    with pytest.raises(err, match=text):
        call()
