"""Tests of nbcourse.missing: marginalising missing values, the baselines and the holes.

Oracles: the brute-force sum of the joint p(x, c) over every completion of the missing
values, computed from the fitted parameters with an explicit loop; scikit-learn's
CategoricalNB and BernoulliNB when nothing is missing, or fitted on the available cases of
one feature; counts by explicit loops.
"""

import itertools

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.naive_bayes import BernoulliNB
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB

from nbcourse import CategoricalNB, one_hot
from nbcourse.missing import (
    MissingCategoricalNB,
    MissingProductOfBernoullisNB,
    compare_missing_strategies,
    complete_cases,
    impute_mode,
    missing_as_category,
    one_hot_missing,
    remove_values,
)

V = np.array([3, 2, 4])


def _data(seed, n=60, rate=0.25):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.column_stack([(y + rng.integers(0, 2, n)) % 3, rng.integers(0, 2, n),
                         rng.integers(0, 4, n)])
    holes = np.where(rng.random(X.shape) < rate, -1, X)
    return X, holes, y


def _brute_force_posterior(model, x):
    """Σ over the completions of the missing entries of π_c Π_j θ_{j,x_j,c}, normalised."""
    theta = [np.exp(lp) for lp in model.feature_log_prob_]
    prior = np.exp(model.class_log_prior_)
    gaps = [j for j, v in enumerate(x) if v == -1]
    joint = np.zeros(prior.size)
    for fill in itertools.product(*(range(model.n_categories_[j]) for j in gaps)):
        full = list(x)
        for j, v in zip(gaps, fill, strict=True):
            full[j] = v
        for c in range(prior.size):
            p = prior[c]
            for j, v in enumerate(full):
                p *= theta[j][c, v]
            joint[c] += p
    return joint / joint.sum()


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("alpha", [0.5, 1.0])
def test_categorical_marginal_equals_brute_force_sum(seed, alpha):
    _, holes, y = _data(seed)
    model = MissingCategoricalNB(alpha=alpha, n_values=V).fit(holes, y)
    queries = np.array(list(itertools.product([-1, 0, 2], [-1, 1], [-1, 0, 3])))
    proba = model.predict_proba(queries)
    expected = np.array([_brute_force_posterior(model, q) for q in queries])
    assert_allclose(proba, expected, rtol=1e-12)
    assert_allclose(model.predict_proba([[-1, -1, -1]])[0],
                    np.bincount(y, minlength=3) / y.size, rtol=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_categorical_without_missing_values_is_the_ordinary_model(seed):
    X, _, y = _data(seed)
    ours = MissingCategoricalNB(alpha=1.0, n_values=V).fit(X, y)
    plain = CategoricalNB(alpha=1.0, n_values=V).fit(X, y)
    sk = SkCategoricalNB(alpha=1.0, force_alpha=True, min_categories=V).fit(X, y)
    assert_allclose(ours.predict_proba(X), plain.predict_proba(X), rtol=1e-12)
    assert_allclose(ours.predict_proba(X), sk.predict_proba(X), rtol=1e-10)


@pytest.mark.parametrize("seed", [0, 3])
def test_categorical_counts_come_from_the_available_cases(seed):
    _, holes, y = _data(seed)
    model = MissingCategoricalNB(alpha=1.0, n_values=V).fit(holes, y)
    for j in range(3):
        counts = np.zeros((3, V[j]))
        for row, c in zip(holes, y, strict=True):
            if row[j] != -1:
                counts[c, row[j]] += 1
        assert_array_equal(model.category_count_[j], counts)
        seen = holes[:, j] != -1     # scikit-learn fitted on the rows that observe feature j
        sk = SkCategoricalNB(alpha=1.0, force_alpha=True, min_categories=V[j]).fit(
            holes[seen, j:j + 1], y[seen])
        assert_allclose(model.feature_log_prob_[j], sk.feature_log_prob_[0], rtol=1e-12)
    assert_allclose(np.exp(model.class_log_prior_), np.bincount(y) / y.size, rtol=1e-12)


def _brute_force_pob(model, b):
    """Σ over all 0/1 fillings of the missing bits of π_c Π_i p^b (1 - p)^(1 - b), normalised."""
    p, prior = np.exp(model.feature_log_prob_), np.exp(model.class_log_prior_)
    gaps = [i for i, v in enumerate(b) if v == -1]
    joint = np.zeros(prior.size)
    for fill in itertools.product([0, 1], repeat=len(gaps)):
        full = list(b)
        for i, v in zip(gaps, fill, strict=True):
            full[i] = v
        for c in range(prior.size):
            joint[c] += prior[c] * np.prod([p[c, i] if v else 1 - p[c, i] for i, v in enumerate(full)])
    return joint / joint.sum()


@pytest.mark.parametrize("seed", [0, 1])
def test_pob_marginal_over_a_missing_group_equals_brute_force_sum(seed):
    X, holes, y = _data(seed)
    B = one_hot_missing(holes, V)
    model = MissingProductOfBernoullisNB(alpha=1.0).fit(B, y)
    queries = one_hot_missing(np.array([[-1, 0, 3], [2, -1, -1], [-1, -1, -1], [1, 1, 0]]), V)
    expected = np.array([_brute_force_pob(model, q) for q in queries])
    assert_allclose(model.predict_proba(queries), expected, rtol=1e-12)
    # counts of each bit over the rows that observe it
    for c in range(3):
        seen = (B != -1) & (y == c)[:, None]
        assert_array_equal(model.observed_count_[c], seen.sum(axis=0))
        assert_array_equal(model.feature_count_[c], ((B == 1) & seen).sum(axis=0))


def test_pob_without_missing_bits_is_bernoulli_nb():
    X, _, y = _data(4)
    B = one_hot(X, n_values=V)
    ours = MissingProductOfBernoullisNB(alpha=0.7).fit(B, y)
    sk = BernoulliNB(alpha=0.7, force_alpha=True).fit(B, y)
    assert_allclose(ours.predict_proba(B), sk.predict_proba(B), rtol=1e-10)


def test_one_hot_missing_matches_one_hot_on_observed_rows():
    X, holes, _ = _data(5)
    B = one_hot_missing(holes, V)
    full = one_hot(X, n_values=V)
    starts = np.concatenate([[0], np.cumsum(V)[:-1]])
    for j in range(3):
        cols = slice(starts[j], starts[j] + V[j])
        gone = holes[:, j] == -1
        assert (B[gone, cols] == -1).all()
        assert_array_equal(B[~gone, cols], full[~gone, cols])


def test_impute_mode_uses_the_overall_training_mode():
    train = np.array([[0, 1], [2, 1], [2, -1], [-1, 0], [1, 0], [2, 0]])
    filled = impute_mode(train, [[-1, -1], [1, -1]])
    assert_array_equal(filled, [[2, 0], [1, 0]])   # modes 2 (three 2s) and 0 (three 0s)
    assert_array_equal(impute_mode(train)[:, 1], [1, 1, 0, 0, 0, 0])


def test_complete_cases_and_missing_category():
    X = np.array([[0, 1], [-1, 1], [1, -1], [1, 0]])
    Xc, yc = complete_cases(X, [0, 1, 1, 0])
    assert_array_equal(Xc, [[0, 1], [1, 0]])
    assert_array_equal(yc, [0, 0])
    Xm, Vm = missing_as_category(X, [2, 2])
    assert_array_equal(Xm, [[0, 1], [2, 1], [1, 2], [1, 0]])
    assert_array_equal(Vm, [3, 3])


def test_mcar_removes_about_rate_of_every_value():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(40_000, 2))
    holes = remove_values(X, 0.2, seed=1)
    gone = holes == -1
    assert_array_equal(holes[~gone], X[~gone])
    for v in range(3):       # the same share of each value: 5 standard errors at most
        share = gone[X == v].mean()
        se = np.sqrt(0.2 * 0.8 / (X == v).sum())
        assert abs(share - 0.2) < 5 * se
    assert_array_equal(remove_values(X, 0.2, seed=1), holes)


def test_mnar_removes_only_the_chosen_value():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(40_000, 2))
    holes = remove_values(X, 0.1, mechanism="mnar", values=[3, 0], seed=2)
    gone = holes == -1
    assert (X[gone[:, 0], 0] == 3).all() and (X[gone[:, 1], 1] == 0).all()
    se = np.sqrt(0.1 * 0.9 / X.shape[0])
    assert abs(gone.mean(axis=0) - 0.1).max() < 5 * se
    # more than the value's own share: every entry with that value goes, no other
    all_gone = remove_values(X, 0.9, mechanism="mnar", seed=3)
    assert_array_equal(all_gone == -1, X == 3)


def test_partial_mnar_makes_the_chosen_value_twice_as_likely_to_go():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(40_000, 2))
    holes = remove_values(X, 0.2, mechanism="mnar-partial", values=[3, 0], seed=4)
    gone = holes == -1
    assert_array_equal(holes[~gone], X[~gone])
    N = X.shape[0]
    for j, u in enumerate([3, 0]):
        chosen = X[:, j] == u
        other = 0.2 * N / (N + chosen.sum())          # 2 q n + q (N - n) = rate N
        for rows, expected in ((chosen, 2 * other), (~chosen, other)):
            se = np.sqrt(expected * (1 - expected) / rows.sum())
            assert abs(gone[rows, j].mean() - expected) < 5 * se
        se_all = np.sqrt(0.2 * 0.8 / N)
        assert abs(gone[:, j].mean() - 0.2) < 5 * se_all     # a share rate of the feature


def test_class_mechanism_depends_on_the_class_only():
    rng = np.random.default_rng(1)
    y = (rng.random(40_000) < 0.25).astype(int) + 3        # labels 3 (three quarters) and 4
    X = rng.integers(0, 3, size=(40_000, 2))
    holes = remove_values(X, 0.2, mechanism="class", y=y, seed=5)
    gone = holes == -1
    first = y == 3
    other = 0.2 * y.size / (y.size + first.sum())
    for rows, expected in ((first, 2 * other), (~first, other)):
        se = np.sqrt(expected * (1 - expected) / rows.sum())
        assert abs(gone[rows].mean() - expected) < 5 * se
        for v in range(3):           # within a class, every value alike
            assert abs(gone[rows][X[rows] == v].mean() - expected) < 5 * se * np.sqrt(3)
    assert gone.mean() == pytest.approx(0.2, abs=0.01)


def test_twice_as_likely_is_capped_at_one():
    X = np.array([[1]] * 90 + [[0]] * 10)
    holes = remove_values(X, 1.0, mechanism="mnar-partial", values=1, seed=0)
    assert (holes[:90] == -1).all()           # 2 * 1.0 * 100 / 190 > 1: every chosen row goes


def test_remove_values_rejects_bad_arguments():
    X = [[0, 1], [1, 0]]
    with pytest.raises(ValueError, match="rate must be a number in"):
        remove_values(X, 1.5)
    with pytest.raises(ValueError, match="mechanism must be one of"):
        remove_values(X, 0.1, mechanism="mar")
    with pytest.raises(ValueError, match="values must be None, an int or 2 ints"):
        remove_values(X, 0.1, mechanism="mnar", values=[1, 1, 1])
    with pytest.raises(ValueError, match="missing must be a negative integer code"):
        remove_values(X, 0.1, missing=0)
    with pytest.raises(ValueError, match="y must give the class of each of the 2 rows"):
        remove_values(X, 0.1, mechanism="class")
    with pytest.raises(ValueError, match="y must give the class of each of the 2 rows"):
        remove_values(X, 0.1, mechanism="class", y=[0])
    with pytest.raises(ValueError, match="entries equal to missing=-1"):
        MissingCategoricalNB().fit([[0, -2], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="only 0, 1 and missing"):
        MissingProductOfBernoullisNB().fit([[0, 2], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="X_train must have an observed value in every feature"):
        impute_mode([[0, -1], [1, -1]])


def test_compare_strategies_agree_without_holes_and_are_seeded():
    X, _, y = _data(6, n=300)
    res = compare_missing_strategies(X, y, [0.0, 0.4], n_repeats=3, seed=5)
    for s in ("impute mode", "complete cases"):
        assert_allclose(res.log_loss[s][0], res.log_loss["marginalise"][0], rtol=1e-12)
    assert_array_equal(res.missing_share[0], 0.0)
    assert (np.abs(res.missing_share[1] - 0.4) < 0.05).all()
    again = compare_missing_strategies(X, y, [0.0, 0.4], n_repeats=3, seed=5)
    assert_array_equal(again.log_loss["marginalise"], res.log_loss["marginalise"])
    with pytest.raises(ValueError, match="alpha must be > 0"):
        compare_missing_strategies(X, y, [0.1], alpha=0)


def test_plot_missing_strategies_draws_each_series_and_checks_shapes():
    import matplotlib.pyplot as plt

    from nbcourse.plots import plot_missing_strategies

    ax = plot_missing_strategies([0, 0.1, 0.3], {"a": [1.0, 2.0, 3.0], "b": [1.0, 1.5, 2.5]},
                                 spread={"a": [0.1, 0.1, 0.2]})
    assert_allclose(ax.lines[0].get_xdata(), [0, 10, 30])
    assert_allclose(ax.lines[1].get_ydata(), [1.0, 1.5, 2.5])
    assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)
    plt.close(ax.figure)
    with pytest.raises(ValueError, match=r"curves\['a'\] must have one value per rate \(2\)"):
        plot_missing_strategies([0, 0.1], {"a": [1.0]})
    with pytest.raises(ValueError, match="rates must be a non-empty 1-d array of shares"):
        plot_missing_strategies([0, 1.5], {"a": [1.0, 2.0]})
    # a rate at which a strategy has no model is a gap in its line, not an error
    ax = plot_missing_strategies([0, 0.1, 0.3], {"a": [1.0, 2.0, float("nan")], "b": [1.0, 1.5, 2.5]},
                                 spread={"a": [0.1, 0.1, float("nan")]})
    assert np.isnan(ax.lines[0].get_ydata()[2]) and ax.lines[1].get_ydata()[2] == 2.5
    plt.close(ax.figure)
    with pytest.raises(TypeError):
        plot_missing_strategies([0, 0.1], {"a": ["x", "y"]})
