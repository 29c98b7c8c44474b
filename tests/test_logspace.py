"""Tests for nbcourse._logspace, the shared log-space helpers, against closed forms."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from nbcourse._logspace import log, log1m, log1m_exp, log_losing_mass, log_normalise, logsumexp


def test_log_and_log1m_give_exact_infinities_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_array_equal(log([0.0, 1.0]), [-np.inf, 0.0])
        assert_array_equal(log1m([1.0, 0.0]), [-np.inf, 0.0])
        assert log1m_exp(0.0) == -np.inf
    assert log1m(1e-20) == -1e-20  # log1p keeps tiny arguments


@pytest.mark.parametrize("x", [1e-300, 1e-20, 0.25, 0.5, 0.75, 1 - 1e-12])
def test_log1m_exp_on_both_sides_of_log_half(x):
    assert_allclose(log1m_exp(math.log(x)), math.log1p(-x), rtol=1e-9)


def test_logsumexp_matches_the_sum_and_keeps_impossible_rows():
    x = log(np.array([[1.0, 2.0, 5.0], [0.0, 0.0, 0.0]]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = logsumexp(x, axis=1)
    assert_allclose(out[0], math.log(8.0))
    assert out[1] == -np.inf
    big = np.array([1000.0, 1000.0])
    assert_allclose(logsumexp(big), 1000.0 + math.log(2.0))


def test_log_normalise_raises_or_gives_nan_for_rows_without_a_posterior():
    lj = log(np.array([[1.0, 3.0], [0.0, 0.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match=r"the PoB posterior is undefined for 1 of 3 row\(s\) "
                                         r"\(first at index \(1,\)\)"):
        log_normalise(lj, what="PoB")
    out = log_normalise(lj, undefined="nan")
    assert_allclose(np.exp(out[0]), [0.25, 0.75])
    assert np.isnan(out[1]).all()
    assert_array_equal(np.exp(out[2]), [1.0, 0.0])
    assert_allclose(np.exp(log_normalise(lj[[0, 2]].T, axis=0)), [[0.25, 1.0], [0.75, 0.0]])
    with pytest.raises(ValueError, match="undefined must be 'raise' or 'nan', got 'zero'"):
        log_normalise(lj, undefined="zero")


def test_log_losing_mass_is_exact_where_the_posteriors_round_to_one():
    # joints 1, 1e-20 and 3e-20: r = 4e-20 exactly, although 1 / (1 + r) rounds to 1
    joint = np.log([3e-20, 1.0, 1e-20])
    top, log_r = log_losing_mass(joint)
    assert top == 1
    assert_allclose(log_r, math.log(4e-20), rtol=1e-14)
    # against rational arithmetic on a batch, classes on axis 0
    rng = np.random.default_rng(0)
    x = rng.normal(scale=30, size=(4, 50))
    top, log_r = log_losing_mass(x, axis=0)
    assert_array_equal(top, x.argmax(axis=0))
    for i in range(50):
        m = x[top[i], i]
        rest = sum(Fraction(math.exp(v - m)) for k, v in enumerate(x[:, i]) if k != top[i])
        assert_allclose(log_r[i], math.log(rest), rtol=1e-12)
    # every other class impossible: r = 0; every class impossible: undefined
    assert log_losing_mass(log(np.array([0.5, 0.0])))[1] == -np.inf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(log_losing_mass(np.array([-np.inf, -np.inf]))[1])
