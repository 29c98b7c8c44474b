"""Tests of nbcourse.decisions: the conditional risk summed by hand, the threshold against
the minimum-risk rule on a grid, and agreement with Part I's two-class discriminant."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import logit

from nbcourse.binary import two_class_discriminant
from nbcourse.decisions import conditional_risk, minimum_risk_decision, posterior_threshold


def test_conditional_risk_is_the_sum_over_classes():
    rng = np.random.default_rng(0)
    proba = rng.dirichlet(np.ones(3), size=20)
    loss = rng.uniform(0, 5, size=(4, 3))
    by_hand = np.array([[sum(loss[a, c] * p[c] for c in range(3)) for a in range(4)]
                        for p in proba])
    assert_allclose(conditional_risk(proba, loss), by_hand, rtol=1e-12)
    assert_array_equal(minimum_risk_decision(proba, loss), by_hand.argmin(axis=1))


def test_with_the_zero_one_loss_the_decision_is_the_largest_posterior():
    proba = np.random.default_rng(1).dirichlet(np.ones(5), size=50)
    assert_array_equal(minimum_risk_decision(proba, 1 - np.eye(5)), proba.argmax(axis=1))


@pytest.mark.parametrize("loss", [[[0, 1], [4, 0]], [[0, 3], [1, 0]], [[1, 5], [3, 2]]])
def test_the_threshold_is_where_the_minimum_risk_decision_changes(loss):
    tau = posterior_threshold(loss)
    grid = np.linspace(0.0005, 0.9995, 1000)
    decide_0 = minimum_risk_decision(np.column_stack([grid, 1 - grid]), loss) == 0
    assert_array_equal(decide_0, grid > tau)
    # Part I: the loss shifts the bias of the discriminant by -logit(tau)
    _, w0 = two_class_discriminant([0.7], [0.4])
    _, w0_loss = two_class_discriminant([0.7], [0.4], loss=loss)
    assert w0_loss - w0 == pytest.approx(-logit(tau), rel=1e-12)


def test_with_free_right_decisions_the_threshold_is_the_false_alarm_share_of_the_costs():
    # Elkan (2001): p* = c(false alarm) / (c(false alarm) + c(miss))
    assert posterior_threshold([[0, 2.0], [8.0, 0]]) == pytest.approx(2 / 10)


@pytest.mark.parametrize("call, message", [
    (lambda: posterior_threshold([[0, 1], [0, 0]]), "each error costs more"),
    (lambda: posterior_threshold([[0, 1, 1], [1, 0, 1]]), "each error costs more"),
    (lambda: conditional_risk([[0.5, 0.5]], [[0, 1, 2]]), "one column per class of proba"),
    (lambda: conditional_risk([[0.5, 0.7]], [[0, 1], [1, 0]]), "proba must have rows"),
    (lambda: minimum_risk_decision([[0.5, 0.5]], [[0, np.nan], [1, 0]]), "loss must"),
])
def test_bad_arguments_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
