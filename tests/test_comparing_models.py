"""Tests for comparing classifiers: the full joint (saturated) model, the deviance test of
conditional independence, cross-validation of any classifier on given folds, and the paired
bootstrap of a score difference.

The oracles are exact counts made with plain Python loops, scikit-learn's CategoricalNB on the
cell index, SciPy's G² test of independence in a two-way table, SciPy's paired bootstrap, and
the normal interval of a mean.
"""

from collections import Counter

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import chi2, chi2_contingency
from sklearn.exceptions import NotFittedError
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB

from nbcourse.calibration import log_loss, paired_bootstrap
from nbcourse.datasets import titanic
from nbcourse.model_selection import (
    cross_validate_models,
    fold_log_loss,
    out_of_fold_proba,
    stratified_folds,
)
from nbcourse.naive_bayes import (
    CategoricalNB,
    FullJointNB,
    conditional_independence_test,
)


def random_table(seed, n=300, n_values=(3, 2, 4), C=3):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, V, size=n) for V in n_values])
    y = rng.integers(0, C, size=n)
    y[:C] = np.arange(C)
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_unsmoothed_posterior_is_the_share_of_each_class_in_the_cell(seed):
    X, y = random_table(seed)
    model = FullJointNB(alpha=0).fit(X, y)
    cell_class = Counter((tuple(row), c) for row, c in zip(X.tolist(), y.tolist(), strict=True))
    cell = Counter(tuple(row) for row in X.tolist())
    expected = np.array([[cell_class[tuple(row), c] / cell[tuple(row)] for c in range(3)]
                         for row in X.tolist()])
    assert_allclose(model.predict_proba(X), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("alpha", [1e-6, 0.5, 1.0, 3.0])
def test_agrees_with_scikit_learn_categorical_nb_on_the_cell_index(alpha):
    X, y = random_table(4, n_values=(2, 3, 2))
    model = FullJointNB(alpha=alpha, n_values=[2, 3, 2]).fit(X, y)
    cells = np.ravel_multi_index(tuple(X.T), (2, 3, 2))[:, None]
    sk = SkCategoricalNB(alpha=alpha, force_alpha=True, min_categories=12).fit(cells, y)
    grid = np.array(np.unravel_index(np.arange(12), (2, 3, 2))).T
    assert_allclose(model.predict_proba(grid), sk.predict_proba(np.arange(12)[:, None]),
                    rtol=1e-10)
    assert_allclose(np.exp(model.cell_log_prob_), np.exp(sk.feature_log_prob_[0]), rtol=1e-10)


def test_cell_counts_are_exact_counts():
    X, y = random_table(5)
    model = FullJointNB().fit(X, y)
    counts = Counter((np.ravel_multi_index(tuple(row), (3, 2, 4)), c)
                     for row, c in zip(X.tolist(), y.tolist(), strict=True))
    expected = np.zeros((3, 24))
    for (m, c), n in counts.items():
        expected[c, m] = n
    assert_array_equal(model.cell_count_, expected)


def test_with_one_feature_it_is_categorical_naive_bayes():
    X, y = random_table(6, n_values=(5,))
    full = FullJointNB(alpha=0.7).fit(X, y)
    nb = CategoricalNB(alpha=0.7).fit(X, y)
    assert_allclose(full.predict_proba(X), nb.predict_proba(X), rtol=1e-12)


def test_sees_an_interaction_that_naive_bayes_cannot():
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]] * 5)
    y = np.array([0, 0, 1, 1] * 5)
    assert_array_equal(FullJointNB(alpha=0).fit(X, y).predict(X), y)
    assert_allclose(CategoricalNB(alpha=0).fit(X, y).predict_proba(X), 0.5)


def test_bad_input_is_named():
    X, y = random_table(7)
    with pytest.raises(ValueError, match="n_values must give at most"):
        FullJointNB(n_values=[10_000, 10_000]).fit(X[:, :2], y)
    with pytest.raises(NotFittedError):
        FullJointNB().predict(X)
    model = FullJointNB().fit(X, y)
    with pytest.raises(ValueError, match=r"X\[0, 0\] = 3 is not a valid code"):
        model.predict([[3, 0, 0]])
    with pytest.raises(ValueError, match=r"X must contain non-negative"):
        model.predict([[-1, 0, 0]])


# --- the deviance test ---------------------------------------------------------------------


def hand_log_likelihoods(X, y):
    """Maximised joint log likelihoods of the full joint and of naive Bayes, by counting."""
    n = len(y)
    rows = [tuple(r) for r in X.tolist()]
    labels = y.tolist()
    n_c = Counter(labels)
    n_cell = Counter(zip(rows, labels, strict=True))
    n_civ = Counter((c, i, v) for r, c in zip(rows, labels, strict=True) for i, v in enumerate(r))
    full = sum(np.log(n_cell[r, c] / n) for r, c in zip(rows, labels, strict=True))
    naive = 0.0
    for r, c in zip(rows, labels, strict=True):
        naive += np.log(n_c[c] / n) + sum(np.log(n_civ[c, i, v] / n_c[c]) for i, v in enumerate(r))
    return full, naive


@pytest.mark.parametrize("seed", [0, 1])
def test_deviance_is_twice_the_gap_in_maximised_log_likelihood(seed):
    X, y = random_table(seed)
    full, naive = hand_log_likelihoods(X, y)
    result = conditional_independence_test(X, y)
    assert result.deviance == pytest.approx(2 * (full - naive), rel=1e-10)
    assert result.df == 3 * (24 - 1 - (2 + 1 + 3))
    assert result.p_value == pytest.approx(chi2.sf(2 * (full - naive), result.df), rel=1e-8)
    assert result.n_cells == 3 * 24
    assert result.observed.sum() == len(y)
    assert_allclose(result.expected.sum(axis=1), np.bincount(y))


def test_two_features_give_the_sum_of_the_g_tests_in_each_class():
    X, y = random_table(3, n=600, n_values=(3, 4), C=2)
    result = conditional_independence_test(X, y)
    g, df = 0.0, 0
    for c in (0, 1):
        table = np.zeros((3, 4))
        np.add.at(table, (X[y == c, 0], X[y == c, 1]), 1)
        stat, _, dof, _ = chi2_contingency(table, correction=False, lambda_="log-likelihood")
        g, df = g + stat, df + dof
    assert result.deviance == pytest.approx(g, rel=1e-10)
    assert result.df == df


def test_a_table_that_is_exactly_independent_in_each_class_has_deviance_zero():
    # in each class every combination of the two features appears equally often
    X = np.array([[a, b] for a in range(3) for b in range(2)] * 4)
    y = np.repeat([0, 1], 12)
    result = conditional_independence_test(X, y)
    assert result.deviance == pytest.approx(0.0, abs=1e-9)
    assert result.p_value == pytest.approx(1.0)


def test_titanic_counts_empty_cells_and_degrees_of_freedom():
    X, y = titanic().to_rows(target="Survived")
    result = conditional_independence_test(X, y)
    table = titanic()
    assert result.n_empty == int(np.sum(table.counts == 0))
    assert result.df == 2 * (4 * 2 * 2 - 1 - (3 + 1 + 1))


def test_deviance_test_refuses_a_single_feature():
    with pytest.raises(ValueError, match="at least 2 features"):
        conditional_independence_test([[0], [1], [1]], [0, 1, 0])


# --- cross-validation on given folds -------------------------------------------------------


def test_out_of_fold_proba_reproduces_cross_validate_models():
    X, y = titanic().to_rows(target="Survived")
    cv = cross_validate_models(X, y, n_splits=5, seed=1)
    p = out_of_fold_proba(CategoricalNB(alpha=1.0, n_values=X.max(axis=0) + 1), X, cv.y, cv.fold)
    assert_allclose(p, cv.proba("categorical"), rtol=1e-12)
    assert_allclose(fold_log_loss(cv.y, p, cv.fold), cv.fold_log_loss("categorical"), rtol=1e-12)


def test_stratified_folds_are_scikit_learns_and_spread_each_class():
    from sklearn.model_selection import StratifiedKFold

    rng = np.random.default_rng(3)
    y = rng.choice(["a", "b", "c"], size=103, p=[0.6, 0.3, 0.1])
    fold = stratified_folds(y, 5, seed=11)
    splits = StratifiedKFold(n_splits=5, shuffle=True, random_state=11).split(y[:, None], y)
    for k, (_, test) in enumerate(splits):
        assert_array_equal(np.flatnonzero(fold == k), test)
    for label in "abc":
        counts = np.bincount(fold[y == label], minlength=5)
        assert counts.max() - counts.min() <= 1
    assert_array_equal(stratified_folds(y, 5, seed=np.random.SeedSequence(4)),
                       stratified_folds(y, 5, seed=np.random.SeedSequence(4)))
    with pytest.raises(ValueError, match="n_splits must be"):
        stratified_folds(y, 1)
    with pytest.raises(ValueError, match=r"y must be a 1-d array of labels, got shape \(2, 1\)"):
        stratified_folds([[0], [1]], 2)


def test_out_of_fold_log_proba_is_the_log_of_the_proba():
    X, y = titanic().to_rows(target="Survived")
    codes = np.unique(y, return_inverse=True)[1]
    fold = stratified_folds(codes, 4, seed=2)
    model = CategoricalNB(alpha=1.0, n_values=X.max(axis=0) + 1)
    log_p = out_of_fold_proba(model, X, codes, fold, method="predict_log_proba")
    assert_allclose(np.exp(log_p), out_of_fold_proba(model, X, codes, fold), rtol=1e-12)
    with pytest.raises(ValueError, match="method must be 'predict_proba' or 'predict_log_proba'"):
        out_of_fold_proba(model, X, codes, fold, method="predict")


def test_fold_log_loss_is_the_log_loss_of_each_fold():
    rng = np.random.default_rng(0)
    p = rng.dirichlet([1, 1, 1], size=40)
    y = rng.integers(0, 3, size=40)
    fold = np.arange(40) % 4
    expected = [log_loss(y[fold == k], p[fold == k]) for k in range(4)]
    assert_allclose(fold_log_loss(y, p, fold), expected)


def test_folds_are_checked():
    with pytest.raises(ValueError, match="fold must number at least 2 folds"):
        fold_log_loss([0, 1], [[0.5, 0.5]] * 2, [0, 2])
    with pytest.raises(ValueError, match="fold must give one fold number per row"):
        fold_log_loss([0, 1], [[0.5, 0.5]] * 2, [0, 1, 1])
    with pytest.raises(TypeError, match="estimator must be a classifier"):
        out_of_fold_proba(object(), [[0], [1]], [0, 1], [0, 1])
    with pytest.raises(ValueError, match="fold 0 leaves a class out"):
        out_of_fold_proba(CategoricalNB(), [[0], [1], [1]], [0, 1, 1], [0, 1, 1])


# --- paired bootstrap of a score difference -------------------------------------------------


def two_classifiers(seed=0, n=800):
    rng = np.random.default_rng(seed)
    truth = rng.uniform(0.05, 0.95, size=n)
    y = (rng.uniform(size=n) > truth).astype(int)                  # class 0 with probability truth
    sharp = np.clip(truth + 0.25 * (truth - 0.5), 0.01, 0.99)      # over-confident
    as_proba = lambda q: np.column_stack([q, 1 - q])  # noqa: E731
    return y, as_proba(truth), as_proba(sharp)


def test_paired_bootstrap_of_the_log_loss_matches_the_normal_interval_of_a_mean():
    y, calibrated, sharp = two_classifiers()
    result = paired_bootstrap(y, sharp, calibrated, n_boot=4000, seed=1)
    per_case = (-np.log(sharp[np.arange(len(y)), y])) - (-np.log(calibrated[np.arange(len(y)), y]))
    assert result.difference == pytest.approx(per_case.mean(), rel=1e-12)
    half = 1.96 * per_case.std(ddof=1) / np.sqrt(len(y))
    assert result.low == pytest.approx(per_case.mean() - half, abs=0.1 * half)
    assert result.high == pytest.approx(per_case.mean() + half, abs=0.1 * half)


def test_paired_bootstrap_agrees_with_scipy_for_the_calibration_error():
    from scipy.stats import bootstrap

    from nbcourse.calibration import expected_calibration_error

    y, calibrated, sharp = two_classifiers(2, n=400)
    ours = paired_bootstrap(y, sharp, calibrated, expected_calibration_error, n_boot=3000, seed=3)

    def diff(yy, a, b):
        return (expected_calibration_error(yy, np.column_stack([a, 1 - a]))
                - expected_calibration_error(yy, np.column_stack([b, 1 - b])))

    ref = bootstrap((y, sharp[:, 0], calibrated[:, 0]), diff, paired=True, vectorized=False,
                    n_resamples=3000, method="percentile", random_state=4).confidence_interval
    width = ref.high - ref.low
    assert ours.low == pytest.approx(ref.low, abs=0.1 * width)
    assert ours.high == pytest.approx(ref.high, abs=0.1 * width)


def test_paired_bootstrap_of_a_classifier_against_itself_is_zero():
    y, calibrated, _ = two_classifiers(5, n=50)
    result = paired_bootstrap(y, calibrated, calibrated, n_boot=200)
    assert (result.difference, result.low, result.high) == (0.0, 0.0, 0.0)


def test_paired_bootstrap_checks_its_arguments():
    y, a, b = two_classifiers(6, n=20)
    with pytest.raises(ValueError, match="confidence must be a number strictly between 0 and 1"):
        paired_bootstrap(y, a, b, confidence=1.5)
    with pytest.raises(TypeError, match="statistic must be a callable"):
        paired_bootstrap(y, a, b, statistic="ece")
    with pytest.raises(ValueError, match="proba_b must have the shape of proba_a"):
        paired_bootstrap(y, a, np.column_stack([b, np.zeros(20)]))
