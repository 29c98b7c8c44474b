"""Tests of nbcourse.prior_shift: Bayes' rule with known class-conditional likelihoods as the
oracle for the adjustment, and a direct maximisation of the log likelihood for the EM
estimate of the new priors (Saerens, Latinne & Decaestecker 2002)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.optimize import minimize
from scipy.special import softmax

from nbcourse.prior_shift import adjust_posteriors, em_priors, prior_shift_log_likelihood


def posteriors(likelihood, priors):
    joint = likelihood * priors
    return joint / joint.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def world():
    """Three classes, likelihoods p(x_i | c) of 400 cases drawn with priors (0.6, 0.3, 0.1)."""
    rng = np.random.default_rng(7)
    means = np.array([-1.5, 0.0, 1.5])
    true_priors = np.array([0.6, 0.3, 0.1])
    y = rng.choice(3, size=400, p=true_priors)
    x = rng.normal(means[y], 1.0)
    likelihood = np.exp(-0.5 * (x[:, None] - means) ** 2) / np.sqrt(2 * np.pi)
    return likelihood, true_priors, y


def test_the_adjustment_is_bayes_rule_with_the_new_priors(world):
    likelihood, _, _ = world
    train, new = np.array([1 / 3, 1 / 3, 1 / 3]), np.array([0.2, 0.5, 0.3])
    got = adjust_posteriors(posteriors(likelihood, train), train, new)
    assert_allclose(got, posteriors(likelihood, new), rtol=1e-12)
    back = adjust_posteriors(got, new, train)
    assert_allclose(back, posteriors(likelihood, train), rtol=1e-12)


def test_a_new_prior_of_zero_removes_the_class_and_a_dead_row_is_named():
    got = adjust_posteriors([[0.5, 0.3, 0.2]], [0.4, 0.4, 0.2], [0.0, 0.5, 0.5])
    assert got[0, 0] == 0.0 and got.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match=r"rows \[1\] of proba probability 0"):
        adjust_posteriors([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]], [0.4, 0.4, 0.2], [0.0, 0.5, 0.5])


def test_em_finds_the_maximum_of_the_likelihood(world):
    likelihood, _, _ = world
    train = np.array([1 / 3, 1 / 3, 1 / 3])
    proba = posteriors(likelihood, train)
    em = em_priors(proba, train, tol=1e-12, max_iter=20_000)
    assert em.converged

    def minus_ll(z):
        return -prior_shift_log_likelihood(proba, train, softmax(np.r_[0.0, z]))

    best = softmax(np.r_[0.0, minimize(minus_ll, np.zeros(2), method="BFGS", tol=1e-12).x])
    assert_allclose(em.priors, best, atol=1e-5)
    # the mixture likelihood itself, summed by hand
    mixture = np.log(likelihood @ em.priors).sum() - np.log(likelihood @ train).sum()
    assert em.log_likelihood[-1] == pytest.approx(mixture, rel=1e-10)


def test_em_climbs_and_stops_at_a_fixed_point(world):
    likelihood, true_priors, y = world
    train = np.array([0.2, 0.2, 0.6])
    em = em_priors(posteriors(likelihood, train), train, tol=1e-10, max_iter=10_000)
    assert np.all(np.diff(em.log_likelihood) >= -1e-12)
    assert em.log_likelihood[0] == 0.0 and em.n_iter == em.log_likelihood.size - 1
    assert_allclose(em.proba.mean(axis=0), em.priors, atol=1e-9)
    assert_allclose(em.proba, adjust_posteriors(posteriors(likelihood, train), train, em.priors))
    # 400 cases: the estimate lies near the priors they were drawn with, and nearer than the
    # training priors did
    assert np.abs(em.priors - true_priors).max() < 0.08
    assert np.abs(em.priors - np.bincount(y) / y.size).max() < 0.08


def test_a_cap_on_the_iterations_is_reported():
    em = em_priors([[0.9, 0.1], [0.8, 0.2], [0.6, 0.4], [0.3, 0.7]], [0.5, 0.5], max_iter=3)
    assert em.n_iter == 3 and not em.converged


@pytest.mark.parametrize("call, message", [
    (lambda: adjust_posteriors([[0.5, 0.6]], [0.5, 0.5], [0.5, 0.5]), "proba must have rows"),
    (lambda: adjust_posteriors([0.5, 0.5], [0.5, 0.5], [0.5, 0.5]), "proba must have shape"),
    (lambda: adjust_posteriors([[0.5, 0.5]], [1.0, 0.0], [0.5, 0.5]),
     "train_priors must be > 0"),
    (lambda: adjust_posteriors([[0.5, 0.5]], [0.5, 0.5], [0.2, 0.3, 0.5]),
     r"new_priors must have shape \(2,\)"),
    (lambda: em_priors([[0.5, 0.5]], [0.5, 0.5], tol=0), "tol must be a number > 0"),
    (lambda: em_priors([[0.5, 0.5]], [0.5, 0.5], max_iter=0), "max_iter must be an integer"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
