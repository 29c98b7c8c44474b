"""Gaussian naive Bayes and its discriminant, against scikit-learn and against hand computation."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import load_breast_cancer
from sklearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from nbcourse import GaussianNB, gaussian_discriminant


def cancer():
    return load_breast_cancer(return_X_y=True)


def blobs(seed, n=60, d=3, C=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, C, size=n)
    y[:C] = np.arange(C)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3, size=d) + y[:, None] * rng.normal(size=d)
    return X, y


@pytest.mark.parametrize("alpha", [1e-9, 1e-3, 0.5])
def test_it_agrees_with_scikit_learns_gaussian_nb(alpha):
    for X, y in [cancer(), blobs(0), blobs(1, d=1, C=2)]:
        ours = GaussianNB(alpha=alpha).fit(X, y)
        theirs = SkGaussianNB(var_smoothing=alpha).fit(X, y)
        assert_allclose(ours.theta_, theirs.theta_, rtol=1e-12, atol=1e-12)
        assert_allclose(ours.var_, theirs.var_, rtol=1e-10)
        assert_allclose(ours.epsilon_, theirs.epsilon_, rtol=1e-12)
        assert_allclose(np.exp(ours.class_log_prior_), theirs.class_prior_, rtol=1e-14)
        assert_allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X), rtol=1e-9,
                        atol=1e-9)
        assert_array_equal(ours.predict(X), theirs.predict(X))


def test_a_hand_example_of_both_variances():
    # class a at 0 and 2, class b at 4, 5, 6: means 1 and 5; per-class ML variances 1 and 2/3;
    # pooled (2 + 2)/5 = 0.8.  At x = 3, shared variance: the two squared distances are equal,
    # so P(a | 3) is the prior 2/5.
    X, y = [[0.0], [2.0], [4.0], [5.0], [6.0]], ["a", "a", "b", "b", "b"]
    per_class = GaussianNB(alpha=0.0).fit(X, y)
    assert_allclose(per_class.var_.ravel(), [1.0, 2 / 3], rtol=1e-15)
    shared = GaussianNB(alpha=0.0, shared_variance=True).fit(X, y)
    assert_allclose(shared.var_, [[0.8], [0.8]], rtol=1e-15)
    assert_allclose(shared.predict_proba([[3.0]]), [[0.4, 0.6]], rtol=1e-14)
    # per class at x = 3: ln N(3; 1, 1) - ln N(3; 5, 2/3) + ln(2/3)
    g = (-0.5 * np.log(2 * np.pi) - 2.0) - (-0.5 * np.log(2 * np.pi * 2 / 3) - 4 / (2 * 2 / 3))
    g += np.log(2 / 3)
    assert_allclose(per_class.predict_proba([[3.0]])[0, 0], 1 / (1 + np.exp(-g)), rtol=1e-14)


def test_shared_variance_is_the_diagonal_of_lda_and_one_feature_is_lda():
    X, y = cancer()
    shared = GaussianNB(alpha=0.0, shared_variance=True).fit(X, y)
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    assert_allclose(shared.var_[0], np.diag(lda.covariance_), rtol=1e-10)
    for j in (0, 7, 21):
        x = X[:, [j]]
        one = GaussianNB(alpha=0.0, shared_variance=True).fit(x, y)
        lda1 = LinearDiscriminantAnalysis(solver="lsqr").fit(x, y)
        assert_allclose(one.predict_proba(x), lda1.predict_proba(x), rtol=1e-9, atol=1e-12)


def test_one_feature_with_per_class_variances_is_qda():
    X, y = cancer()
    for j in (3, 12):
        x = X[:, [j]]
        ours = GaussianNB(alpha=0.0).fit(x, y)
        qda = QuadraticDiscriminantAnalysis(store_covariance=True).fit(x, y)
        assert_allclose(np.array(qda.covariance_)[:, 0, 0], ours.var_[:, 0], rtol=1e-10)
        assert_allclose(ours.predict_proba(x), qda.predict_proba(x), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("shared", [False, True])
def test_the_discriminant_is_the_log_odds_and_linear_when_shared(shared):
    X, y = cancer()
    m = GaussianNB(shared_variance=shared).fit(X, y)
    lp = m.predict_log_proba(X)
    var = m.var_[0] if shared else m.var_
    a, w, w0 = gaussian_discriminant(m.theta_, var, np.exp(m.class_log_prior_[0]))
    assert_allclose(X**2 @ a + X @ w + w0, lp[:, 0] - lp[:, 1], rtol=1e-8, atol=1e-8)
    if shared:
        assert_array_equal(a, 0.0)
        assert_allclose(w, (m.theta_[0] - m.theta_[1]) / var, rtol=1e-15)
    else:
        assert (a != 0).all()


def test_discriminant_hand_example_and_bad_arguments():
    a, w, w0 = gaussian_discriminant([[1.0], [5.0]], [0.8])
    assert_array_equal(a, [0.0])
    assert_allclose(w, [-5.0]) and np.testing.assert_allclose(w0, 15.0)
    a, w, w0 = gaussian_discriminant([[0.0, 1.0], [0.0, 1.0]], [[1.0, 1.0], [4.0, 1.0]], 0.5)
    assert_allclose(a, [-0.5 * (1 - 0.25), 0.0]) and np.testing.assert_allclose(w, [0.0, 0.0])
    assert_allclose(w0, -0.5 * np.log(1 / 4))
    with pytest.raises(ValueError, match=r"theta must be a finite array of shape \(2, d\)"):
        gaussian_discriminant([[1.0, 2.0]], [1.0, 1.0])
    with pytest.raises(ValueError, match=r"var must hold positive finite variances of shape "
                                         r"\(2, 1\) or \(1,\)"):
        gaussian_discriminant([[1.0], [2.0]], [0.0])
    with pytest.raises(ValueError, match="prior1"):
        gaussian_discriminant([[1.0], [2.0]], [1.0], prior1=1.5)


def test_bad_input_is_refused_by_name():
    X, y = [[0.0], [2.0], [4.0], [4.0]], [0, 0, 1, 1]
    with pytest.raises(ValueError, match="the variance of feature 0 is 0 in class 1 .*"
                                         "use alpha > 0"):
        GaussianNB(alpha=0.0).fit(X, y)
    GaussianNB(alpha=1e-9).fit(X, y)  # the smoothing makes it positive
    with pytest.raises(ValueError, match=r"X must contain finite numbers, not NaN or inf; "
                                         r"entry \(1, 0\) is inf"):
        GaussianNB().fit([[0.0], [np.inf], [1.0], [2.0]], y)
    with pytest.raises(ValueError, match="X must not contain NaN"):
        GaussianNB().fit([[0.0], [np.nan], [1.0], [2.0]], y)
    with pytest.raises(TypeError, match="shared_variance must be True or False, got str 'yes'"):
        GaussianNB(shared_variance="yes").fit(X, y)
    with pytest.raises(ValueError, match="alpha must be a finite number >= 0"):
        GaussianNB(alpha=-1.0).fit(X, y)


def test_fractional_memberships_weight_the_means_and_variances():
    X = np.array([[0.0], [1.0], [3.0]])
    Y = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    m = GaussianNB(alpha=0.0).fit([[0.0], [1.0], [2.0], [4.0]], [0, 0, 1, 1])
    m._fit_memberships(X, Y, m.classes_)
    # class 0: weights 1, 0.5 on 0, 1 -> mean 1/3; class 1: weights 0.5, 1 on 1, 3 -> mean 7/3
    assert_allclose(m.theta_.ravel(), [1 / 3, 7 / 3], rtol=1e-15)
    var0 = (1 * (1 / 3) ** 2 + 0.5 * (2 / 3) ** 2) / 1.5
    var1 = (0.5 * (4 / 3) ** 2 + 1 * (2 / 3) ** 2) / 1.5
    assert_allclose(m.var_.ravel(), [var0, var1], rtol=1e-14)
