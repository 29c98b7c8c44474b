"""Tests for nbcourse.calibration: calibration statistics and cross-validation of both models.

Oracles: scikit-learn (log loss, CategoricalNB, BernoulliNB) and explicit loops over
bins written here.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import log_loss as sk_log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import BernoulliNB
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
from sklearn.preprocessing import OneHotEncoder

from nbcourse.calibration import expected_calibration_error, log_loss, reliability_bins
from nbcourse.datasets import hair_eye_color, titanic
from nbcourse.model_selection import cross_validate_models


def random_proba(rng, N, C):
    return rng.dirichlet(np.ones(C), size=N)


# --------------------------------------------------------------- log loss
@pytest.mark.parametrize("C", [2, 3, 5])
def test_log_loss_matches_scikit_learn(C):
    rng = np.random.default_rng(C)
    p = random_proba(rng, 200, C)
    y = rng.integers(0, C, 200)
    assert_allclose(log_loss(y, p), sk_log_loss(y, p, labels=list(range(C))), rtol=1e-12)


def test_log_loss_zero_probability_is_infinite_without_warning():
    with np.errstate(all="raise"):
        assert log_loss([1, 0], [[1.0, 0.0], [0.5, 0.5]]) == np.inf


def test_log_loss_rejects_bad_input():
    with pytest.raises(ValueError, match="proba"):
        log_loss([0], [[0.5, 0.6]])
    with pytest.raises(ValueError, match="one label per row"):
        log_loss([0, 1], [[0.5, 0.5]])
    with pytest.raises(ValueError, match=r"class codes in range\(2\)"):
        log_loss([2], [[0.5, 0.5]])


# ------------------------------------------------------------ reliability
def test_reliability_bins_match_a_loop():
    rng = np.random.default_rng(3)
    p = random_proba(rng, 500, 3)
    y = rng.integers(0, 3, 500)
    r = reliability_bins(y, p, n_bins=5)
    conf, right = p.max(1), p.argmax(1) == y
    expected = []
    for lo, hi in zip(np.linspace(0, 1, 6)[:-1], np.linspace(0, 1, 6)[1:], strict=True):
        inside = (conf > lo) & (conf <= hi)
        if inside.any():
            expected.append((conf[inside].mean(), right[inside].mean(), inside.sum()))
    expected = np.array(expected)
    assert_allclose(r.confidence, expected[:, 0])
    assert_allclose(r.accuracy, expected[:, 1])
    assert_array_equal(r.count, expected[:, 2])
    assert r.count.sum() == 500
    ece = np.sum(expected[:, 2] * np.abs(expected[:, 1] - expected[:, 0])) / 500
    assert_allclose(expected_calibration_error(y, p, 5), ece)


def test_reliability_confidence_one_falls_in_last_bin():
    r = reliability_bins([0, 0], [[1.0, 0.0], [0.0, 1.0]], n_bins=10)
    assert_array_equal(r.count, [2])
    assert_allclose(r.accuracy, [0.5])
    assert_allclose(r.edges[[0, -1]], [0, 1])


def test_reliability_rejects_bad_bins():
    with pytest.raises(ValueError, match="n_bins must be an integer >= 1"):
        reliability_bins([0], [[0.5, 0.5]], n_bins=0)


# ------------------------------------------------------- cross-validation
def sklearn_oof(X, y, n_splits, seed):
    """The same folds, fitted by scikit-learn: OrdinalEncoder-style codes with
    CategoricalNB, and OneHotEncoder bits with BernoulliNB."""
    p_cat = np.empty((len(y), np.unique(y).size))
    p_pob = np.empty_like(p_cat)
    bits = OneHotEncoder(categories=[list(range(v)) for v in X.max(0) + 1],
                         sparse_output=False).fit_transform(X)
    for train, test in StratifiedKFold(n_splits, shuffle=True, random_state=seed).split(X, y):
        cat = SkCategoricalNB(alpha=1.0, force_alpha=True, min_categories=X.max(0) + 1)
        p_cat[test] = cat.fit(X[train], y[train]).predict_proba(X[test])
        pob = BernoulliNB(alpha=1.0, force_alpha=True, binarize=None)
        p_pob[test] = pob.fit(bits[train], y[train]).predict_proba(bits[test])
    return p_cat, p_pob


@pytest.mark.parametrize("table, target", [(titanic, "Survived"), (hair_eye_color, "Hair")])
def test_cross_validation_matches_scikit_learn(table, target):
    X, y = table().to_rows(target=target)
    cv = cross_validate_models(X, y, n_splits=5, seed=3)
    p_cat, p_pob = sklearn_oof(X, y, 5, 3)
    assert_allclose(cv.proba_categorical, p_cat, rtol=1e-9)
    assert_allclose(cv.proba_pob, p_pob, rtol=1e-9)
    assert_array_equal(np.bincount(cv.fold), np.full(5, len(y) // 5) + (np.arange(5) < len(y) % 5))


def test_cross_validation_summary_and_fold_losses():
    X, y = titanic().to_rows(target="Survived")
    cv = cross_validate_models(X, y, n_splits=4, seed=0)
    s = cv.summary()
    assert_allclose(s["categorical"]["log_loss"], sk_log_loss(y, cv.proba_categorical))
    assert_allclose(s["pob"]["accuracy"], (cv.proba_pob.argmax(1) == y).mean())
    folds = cv.fold_log_loss("pob")
    sizes = np.bincount(cv.fold)
    assert_allclose(np.sum(folds * sizes) / sizes.sum(), s["pob"]["log_loss"])
    assert_allclose(s["map_disagree"],
                    (cv.proba_pob.argmax(1) != cv.proba_categorical.argmax(1)).mean())
    with pytest.raises(ValueError, match="model must be"):
        cv.proba("bernoulli")


def test_cross_validation_rejects_bad_arguments():
    X, y = titanic().to_rows(target="Survived")
    with pytest.raises(ValueError, match="n_splits must be an integer >= 2"):
        cross_validate_models(X, y, n_splits=1)
    with pytest.raises(ValueError, match="smallest class"):
        cross_validate_models(X[:12], np.r_[np.zeros(10), np.ones(2)], n_splits=3)
    with pytest.raises(ValueError, match="y must have one label per row"):
        cross_validate_models(X, y[:-1])


def test_cross_validation_takes_the_library_seed_convention():
    X, y = hair_eye_color().to_rows(target="Hair")
    a = cross_validate_models(X, y, n_splits=5, seed=np.random.default_rng(3))
    b = cross_validate_models(X, y, n_splits=5, seed=np.random.SeedSequence(3))
    c = cross_validate_models(X, y, n_splits=5, seed=np.random.default_rng(3))
    assert_array_equal(a.fold, c.fold)
    assert_array_equal(a.proba_pob, c.proba_pob)
    assert b.fold.shape == a.fold.shape


def test_log_loss_of_log_odds_matches_log_loss_and_stays_finite():
    from scipy.special import expit

    from nbcourse.calibration import log_loss_of_log_odds

    rng = np.random.default_rng(7)
    y, g = rng.integers(0, 2, 200), rng.normal(0, 4, 200)
    p0 = expit(g)
    assert log_loss_of_log_odds(y, g) == pytest.approx(
        log_loss(y, np.column_stack([p0, 1 - p0])), rel=1e-12)
    # 1 - expit(40) rounds to a probability 4e-18 and expit(-800) to 0: the naive route is
    # inaccurate or infinite, log-sigmoid gives the loss itself
    assert log_loss_of_log_odds([1, 0], [40.0, -800.0]) == pytest.approx((40.0 + 800.0) / 2)
    assert log_loss(np.array([0]), np.array([[expit(-800.0), 1.0]])) == float("inf")


@pytest.mark.parametrize("y, g, message", [
    ([0, 2], [0.0, 0.0], "y must contain class codes 0 and 1, got 2"),
    ([0, 1], [0.0], r"g must have one log odds per case, shape \(2,\), got shape \(1,\)"),
    ([0, 1], [0.0, np.inf], "g must be finite log odds"),
    ([0, -1], [0.0, 0.0], "y"),
])
def test_log_loss_of_log_odds_names_bad_input(y, g, message):
    from nbcourse.calibration import log_loss_of_log_odds

    with pytest.raises(ValueError, match=message):
        log_loss_of_log_odds(y, g)
