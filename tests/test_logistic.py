"""Tests for the logistic regression functions of nbcourse.binary: log-likelihood, gradient and
gradient ascent.

Oracles: scikit-learn's log_loss and LogisticRegression, SciPy's finite-difference gradient,
and a data set whose maximum-likelihood weights are known exactly (log odds of counts).
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.optimize import approx_fprime
from scipy.special import expit
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss

from nbcourse.binary import (
    logistic_gradient,
    logistic_gradient_ascent,
    logistic_log_likelihood,
)

CORNERS = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])


def separable():
    X = np.repeat(CORNERS, 5, axis=0)
    return X, X[:, 0].copy()                       # feature 1 decides the class


def overlapping():
    X, t = separable()
    return np.vstack([X, CORNERS]), np.r_[t, 1 - CORNERS[:, 0]]   # one case against it per corner


def random_problem(seed, n=60, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    t = (rng.uniform(size=n) < expit(X @ rng.normal(size=d))).astype(int)
    return X, t, rng.normal(size=d), float(rng.normal())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_log_likelihood_is_minus_n_times_the_log_loss(seed):
    X, t, w, w0 = random_problem(seed)
    expected = -len(t) * log_loss(t, expit(X @ w + w0), labels=[0, 1])
    assert logistic_log_likelihood(X, t, w, w0) == pytest.approx(expected, rel=1e-10)


def test_log_likelihood_stays_finite_for_huge_scores():
    value = logistic_log_likelihood([[1.0]], [0], [1000.0], 0.0)
    assert value == pytest.approx(-1000.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gradient_matches_finite_differences(seed):
    X, t, w, w0 = random_problem(seed)

    def f(v):
        return logistic_log_likelihood(X, t, v[:-1], v[-1])

    grad_w, grad_w0 = logistic_gradient(X, t, w, w0)
    numeric = approx_fprime(np.r_[w, w0], f, 1e-6)
    assert_allclose(np.r_[grad_w, grad_w0], numeric, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("seed", range(5))
def test_log_likelihood_is_concave_along_any_segment(seed):
    X, t, w, w0 = random_problem(seed)
    rng = np.random.default_rng(100 + seed)
    for _ in range(20):
        a, b = rng.normal(scale=3, size=(2, X.shape[1] + 1))
        mid = (a + b) / 2
        value = lambda v: logistic_log_likelihood(X, t, v[:-1], v[-1])  # noqa: E731
        assert value(mid) >= (value(a) + value(b)) / 2 - 1e-9


def test_gradient_ascent_reaches_the_exact_maximum_when_it_exists():
    # each value of x_1 holds 5 cases of one class and 1 of the other: the maximum-likelihood
    # log odds are +-ln 5, so w_1 = 2 ln 5, w_0 = -ln 5, and x_2 gets no weight
    X, t = overlapping()
    path = logistic_gradient_ascent(X, t, step=1.0, n_iter=5000)
    assert_allclose(path[-1], [2 * np.log(5), 0.0, -np.log(5)], atol=1e-8)
    sk = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X, t)
    assert_allclose(path[-1], np.r_[sk.coef_[0], sk.intercept_], atol=1e-5)
    assert path.shape == (5001, 3)


def test_under_separation_the_weights_grow_without_bound():
    X, t = separable()
    path = logistic_gradient_ascent(X, t, step=1.0, n_iter=20_000)
    norms = np.linalg.norm(path, axis=1)
    assert np.all(np.diff(norms[1:]) > 0)
    loglik = [logistic_log_likelihood(X, t, v[:-1], v[-1]) for v in path[[10, 100, 1000, 20_000]]]
    assert np.all(np.diff(loglik) > 0) and loglik[-1] > -0.01
    # no convergence: between 10,000 and 20,000 steps the norm still grows by more than 0.5
    assert norms[20_000] - norms[10_000] > 0.5


def test_bad_arguments_are_named():
    X, t = separable()
    with pytest.raises(ValueError, match="t must"):
        logistic_log_likelihood(X, np.full(len(t), 2), [0.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="w must have shape"):
        logistic_gradient(X, t, [0.0], 0.0)
    with pytest.raises(ValueError, match="t must hold one 0/1 target per row"):
        logistic_gradient(X, t[:-1], [0.0, 0.0], 0.0)
    with pytest.raises(ValueError, match="step must be a positive finite number"):
        logistic_gradient_ascent(X, t, step=0.0)
    with pytest.raises(ValueError, match="n_iter must be an int >= 1"):
        logistic_gradient_ascent(X, t, n_iter=0)
