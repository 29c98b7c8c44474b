"""Recalibration: temperature, Platt and isotonic maps against scikit-learn and exact oracles."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.optimize import minimize_scalar
from scipy.special import expit, log_softmax, softmax
from sklearn.calibration import CalibratedClassifierCV
from sklearn.frozen import FrozenEstimator
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss
from sklearn.model_selection import StratifiedKFold, train_test_split

import nbcourse
from nbcourse.naive_bayes import CategoricalNB
from nbcourse.recalibration import (
    IsotonicCalibration,
    PlattScaling,
    TemperatureScaling,
    brier_score,
    calibrate_held_out,
    cross_fit,
    pava,
)


class LogOddsNB(CategoricalNB):
    """CategoricalNB with a decision_function, so that scikit-learn calibrates the log odds:
    ln(p1 / p0) with two classes, each class's one-vs-rest log odds with more."""

    def decision_function(self, X):
        lp = self.predict_log_proba(X)
        if lp.shape[1] == 2:
            return lp[:, 1] - lp[:, 0]
        rest = np.log1p(-np.exp(lp))
        return lp - rest


def _split(X, y, seed=3):
    return train_test_split(X, y, test_size=0.5, stratify=y, random_state=seed)


@pytest.fixture(scope="module")
def email():
    X, spam, _ = nbcourse.email_features()
    X_fit, X_cal, y_fit, y_cal = _split(X, spam)
    model = LogOddsNB(alpha=1.0, n_values=[2] * X.shape[1]).fit(X_fit, y_fit)
    return model, X_cal, y_cal


@pytest.fixture(scope="module")
def hair():
    X, y = nbcourse.hair_eye_color().to_rows(target="Hair")
    X_fit, X_cal, y_fit, y_cal = _split(X, y)
    model = LogOddsNB(alpha=1.0, n_values=[4, 2]).fit(X_fit, y_fit)
    return model, X_cal, y_cal


def _g(model, X):
    lp = model.predict_log_proba(X)
    return lp[:, 0] - lp[:, 1]


# ------------------------------------------------------------------ PAVA
@pytest.mark.parametrize("seed", range(8))
def test_pava_agrees_with_sklearn_isotonic_regression(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    values = rng.normal(size=n).cumsum() * rng.choice([-1, 1]) + rng.normal(size=n)
    weights = rng.uniform(0.1, 3.0, size=n)
    expected = IsotonicRegression().fit_transform(np.arange(n), values, sample_weight=weights)
    assert_allclose(pava(values, weights), expected, atol=1e-12)


def test_pava_is_the_least_squares_monotone_fit_by_brute_force():
    # For 0/1 values the best non-decreasing fit takes values that are block means; compare
    # with the minimum over every split point of the 0/1 sequence into constant blocks.
    values = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1], dtype=float)
    fit = pava(values)
    assert np.all(np.diff(fit) >= 0)
    best = np.inf
    for mask in range(1 << (values.size - 1)):
        cuts = [0] + [k + 1 for k in range(values.size - 1) if mask >> k & 1] + [values.size]
        f = np.concatenate([np.full(b - a, values[a:b].mean())
                            for a, b in zip(cuts, cuts[1:], strict=False)])
        if np.all(np.diff(f) >= -1e-12):
            best = min(best, float(((values - f) ** 2).sum()))
    assert float(((values - fit) ** 2).sum()) == pytest.approx(best, abs=1e-12)


def test_pava_rejects_bad_input():
    with pytest.raises(ValueError, match="values must be a non-empty 1-d array"):
        pava([[1.0, 2.0]])
    with pytest.raises(ValueError, match="weights must be 2 finite positive numbers"):
        pava([1.0, 2.0], [1.0, 0.0])


# ------------------------------------------------------------------ against scikit-learn
def test_isotonic_agrees_with_calibrated_classifier_cv_binary(email):
    model, X_cal, y_cal = email
    ref = CalibratedClassifierCV(FrozenEstimator(model), method="isotonic").fit(X_cal, y_cal)
    ours = IsotonicCalibration().fit(_g(model, X_cal), y_cal)
    X_new = np.array(list(np.ndindex(*(2,) * X_cal.shape[1]))[::97])  # unseen rows too
    for X in (X_cal, X_new):
        assert_allclose(ours.predict_proba(_g(model, X)), ref.predict_proba(X), atol=1e-10)


def test_isotonic_agrees_with_calibrated_classifier_cv_one_vs_rest(hair):
    model, X_cal, y_cal = hair
    ref = CalibratedClassifierCV(FrozenEstimator(model), method="isotonic").fit(X_cal, y_cal)
    ours = IsotonicCalibration().fit(model.predict_log_proba(X_cal), y_cal)
    assert_allclose(ours.predict_proba(model.predict_log_proba(X_cal)), ref.predict_proba(X_cal),
                    atol=1e-10)


def test_platt_agrees_with_calibrated_classifier_cv_sigmoid(email, hair):
    for model, X_cal, y_cal in (email, hair):
        ref = CalibratedClassifierCV(FrozenEstimator(model), method="sigmoid").fit(X_cal, y_cal)
        lp = model.predict_log_proba(X_cal)
        scores = lp[:, 0] - lp[:, 1] if lp.shape[1] == 2 else lp
        ours = PlattScaling().fit(scores, y_cal)
        # scikit-learn stops L-BFGS at a gradient of 1e-6; Newton's method goes to the optimum
        assert_allclose(ours.predict_proba(scores), ref.predict_proba(X_cal), atol=1e-5)


def test_platt_without_target_smoothing_is_logistic_regression_on_g(email):
    model, X_cal, y_cal = email
    g = _g(model, X_cal)
    ours = PlattScaling(target_smoothing=False).fit(g, y_cal)
    ref = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(g[:, None], y_cal == 0)
    assert ours.a_[0] == pytest.approx(ref.coef_[0, 0], rel=1e-6)
    assert ours.b_[0] == pytest.approx(ref.intercept_[0], rel=1e-6, abs=1e-8)


def test_temperature_agrees_with_calibrated_classifier_cv(email, hair):
    for model, X_cal, y_cal in (email, hair):
        # the same fitted model without decision_function: scikit-learn takes the log of
        # predict_proba (plus 1e-12) as its logits
        plain = CategoricalNB()
        plain.__dict__.update(model.__dict__)
        ref = CalibratedClassifierCV(FrozenEstimator(plain), method="temperature").fit(X_cal, y_cal)
        ours = TemperatureScaling().fit(model.predict_log_proba(X_cal), y_cal)
        assert_allclose(ours.predict_proba(model.predict_log_proba(X_cal)),
                        ref.predict_proba(X_cal), atol=1e-6)


# ------------------------------------------------------------------ exact oracles
def _scipy_temperature(s, y):
    def loss(log_w):
        return -log_softmax(np.exp(log_w) * s, axis=1)[np.arange(len(y)), y].mean()
    res = minimize_scalar(loss, bounds=(-8, 8), method="bounded", options={"xatol": 1e-12})
    return float(np.exp(-res.x))


@pytest.mark.parametrize("C", [2, 3, 5])
def test_temperature_minimises_the_log_loss(C):
    rng = np.random.default_rng(C)
    y = rng.integers(0, C, size=300)
    truth = rng.normal(size=(300, C)) + 1.5 * np.eye(C)[y]
    s = 3.0 * truth                                   # over-confident scores
    t = TemperatureScaling().fit(s, y)
    assert t.temperature_ == pytest.approx(_scipy_temperature(s, y), rel=1e-6)
    assert t.temperature_ > 1
    proba = t.predict_proba(s)
    assert_allclose(proba, softmax(s / t.temperature_, axis=1), atol=1e-14)
    assert nbcourse.log_loss(y, proba) < nbcourse.log_loss(y, softmax(s, axis=1))


def test_temperature_keeps_decisions_and_ranking():
    rng = np.random.default_rng(1)
    g = rng.normal(scale=4.0, size=200)
    y = (rng.uniform(size=200) > expit(g / 3)).astype(int)  # P(class 0) = sigma(g / 3)
    t = TemperatureScaling().fit(g, y)
    p0 = t.predict_proba(g)[:, 0]
    assert np.array_equal(p0 > 0.5, g > 0)
    assert np.array_equal(np.argsort(p0, kind="stable"), np.argsort(g, kind="stable"))
    assert t.temperature_ == pytest.approx(_scipy_temperature(np.column_stack([g, 0 * g]), y),
                                           rel=1e-6)


def test_binary_scores_as_log_odds_or_log_probabilities_give_the_same_maps(email):
    model, X_cal, y_cal = email
    lp = model.predict_log_proba(X_cal)
    for make in (TemperatureScaling, PlattScaling, IsotonicCalibration):
        a = make().fit(lp[:, 0] - lp[:, 1], y_cal).predict_proba(lp[:, 0] - lp[:, 1])
        b = make().fit(lp, y_cal).predict_proba(lp)
        assert_allclose(a, b, atol=1e-9)


def test_platt_reproduces_the_shares_at_two_scores():
    # two distinct scores: unsmoothed logistic regression fits the two class-0 shares exactly
    g = np.array([-1.0] * 5 + [2.0] * 8)
    y = np.array([0, 1, 1, 1, 1] + [0] * 6 + [1] * 2)
    p = PlattScaling(target_smoothing=False).fit(g, y).predict_proba([-1.0, 2.0])[:, 0]
    assert_allclose(p, [1 / 5, 6 / 8], atol=1e-10)


# ------------------------------------------------------------------ held-out fitting
def test_calibrate_held_out_matches_fitting_the_scores_by_hand(email):
    model, X_cal, y_cal = email
    r = calibrate_held_out(model, PlattScaling(), X_cal, y_cal)
    by_hand = PlattScaling().fit(_g(model, X_cal), y_cal)
    assert_allclose(r.predict_proba(X_cal), by_hand.predict_proba(_g(model, X_cal)), atol=0)
    assert np.array_equal(r.predict(X_cal), r.predict_proba(X_cal).argmax(axis=1))


def test_cross_fit_agrees_with_calibrated_classifier_cv_without_ensemble():
    X, spam, _ = nbcourse.email_features()
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=7)
    ref = CalibratedClassifierCV(LogOddsNB(alpha=1.0, n_values=[2] * 15), method="sigmoid", cv=cv,
                                 ensemble=False).fit(X, spam)
    ours = cross_fit(CategoricalNB(alpha=1.0, n_values=[2] * 15), PlattScaling(), X, spam,
                     n_splits=5, seed=7)
    assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-5)


# ------------------------------------------------------------------ Brier score
@pytest.mark.parametrize("C", [2, 4])
def test_brier_score_agrees_with_sklearn(C):
    rng = np.random.default_rng(C)
    proba = rng.dirichlet(np.ones(C), size=50)
    y = rng.integers(0, C, size=50)
    expected = brier_score_loss(y, proba, labels=list(range(C)), scale_by_half=False)
    assert brier_score(y, proba) == pytest.approx(expected, abs=1e-14)


def test_brier_score_is_finite_where_the_log_loss_is_not():
    proba = [[1.0, 0.0], [0.0, 1.0]]
    assert nbcourse.log_loss([1, 1], proba) == np.inf
    assert brier_score([1, 1], proba) == pytest.approx(1.0)


# ------------------------------------------------------------------ errors
def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="scores must be log odds g of shape"):
        TemperatureScaling().fit(np.zeros((3, 2, 2)), [0, 1, 0])
    with pytest.raises(ValueError, match="scores must be finite"):
        PlattScaling().fit([np.inf, 0.0], [0, 1])
    with pytest.raises(ValueError, match="y must have one label per row"):
        IsotonicCalibration().fit([0.0, 1.0], [0])
    with pytest.raises(ValueError, match=r"y must contain class codes in range\(2\)"):
        IsotonicCalibration().fit([0.0, 1.0], [0, 2])
    with pytest.raises(ValueError, match="scores must carry information about y"):
        TemperatureScaling().fit([2.0, -2.0, 2.0, -2.0], [0, 1, 1, 0])
    with pytest.raises(ValueError, match="not fitted yet"):
        PlattScaling().predict_proba([0.0])
    with pytest.raises(ValueError, match=r"scores must have shape \(N,\) as in fit"):
        TemperatureScaling().fit([1.0, -1.0, 1.0], [0, 1, 1]).predict_proba([[0.0, 1.0]])
    with pytest.raises(TypeError, match="target_smoothing must be True or False"):
        PlattScaling(target_smoothing="yes").fit([1.0, -1.0], [0, 1])
    with pytest.raises(TypeError, match="calibrator must be one of"):
        calibrate_held_out(CategoricalNB().fit([[0], [1]], [0, 1]), object(), [[0]], [0])
    with pytest.raises(TypeError, match="estimator must be a classifier with predict_log_proba"):
        cross_fit(object(), PlattScaling(), [[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="n_splits"):
        cross_fit(CategoricalNB(), PlattScaling(), [[0], [1]] * 3, [0, 1] * 3, n_splits=1)
