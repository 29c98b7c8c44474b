"""The agreement claims of the scikit-learn chapter (book/part2/08_scikit_learn.ipynb).

nbcourse's estimators against scikit-learn's on seeded random data, at several alphas, and
the relations between scikit-learn's own naive Bayes estimators that the chapter states
(a single bit is a two-valued categorical variable; a one-hot binary feature doubles its log
odds; MultinomialNB on one one-hot feature is CategoricalNB, and on several it differs by a
class-only factor given here in closed form).  Expected values come from scikit-learn or from
closed forms, never from the nbcourse code under test.
"""

import numpy as np
import pytest
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, MultinomialNB
from sklearn.preprocessing import OneHotEncoder

import nbcourse

ALPHAS = [0.01, 0.5, 1.0, 3.0]
SEEDS = [0, 1, 2]


def random_codes(seed, n=120, n_values=(4, 2, 3), n_classes=3):
    """Codes with every value of every feature present, and labels with every class present."""
    rng = np.random.default_rng(seed)
    V = np.asarray(n_values)
    X = rng.integers(0, V, size=(n, V.size))
    X[: V.max()] = np.arange(V.max())[:, None] % V  # each value appears at least once
    y = rng.integers(0, n_classes, size=n)
    y[:n_classes] = np.arange(n_classes)
    return X, y


def one_hot_sklearn(X):
    return OneHotEncoder(sparse_output=False).fit_transform(X)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("alpha", ALPHAS)
def test_categorical_nb_agrees_with_scikit_learn(seed, alpha):
    X, y = random_codes(seed)
    ours = nbcourse.CategoricalNB(alpha=alpha).fit(X, y)
    theirs = CategoricalNB(alpha=alpha, force_alpha=True).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X), atol=1e-12)
    for mine, sk in zip(ours.feature_log_prob_, theirs.feature_log_prob_, strict=True):
        np.testing.assert_allclose(mine, sk, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("alpha", ALPHAS)
def test_product_of_bernoullis_agrees_with_bernoulli_nb_on_one_hot_codes(seed, alpha):
    X, y = random_codes(seed)
    B = one_hot_sklearn(X)
    np.testing.assert_array_equal(nbcourse.one_hot(X), B)  # same columns, same order
    ours = nbcourse.ProductOfBernoullisNB(alpha=alpha).fit(B, y)
    theirs = BernoulliNB(alpha=alpha, force_alpha=True).fit(B, y)
    np.testing.assert_allclose(ours.predict_proba(B), theirs.predict_proba(B), rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.feature_log_prob_, theirs.feature_log_prob_, atol=1e-12)


@pytest.mark.parametrize("alpha", ALPHAS)
def test_n_values_equals_min_categories_when_it_is_at_least_the_observed_number(alpha):
    X, y = random_codes(5, n_values=(3, 2))
    ours = nbcourse.CategoricalNB(alpha=alpha, n_values=[5, 4]).fit(X, y)
    theirs = CategoricalNB(alpha=alpha, min_categories=[5, 4]).fit(X, y)
    np.testing.assert_array_equal(ours.n_categories_, theirs.n_categories_)
    probe = [[4, 3], [0, 1], [2, 0]]  # includes the reserved, never-seen codes
    np.testing.assert_allclose(ours.predict_proba(probe), theirs.predict_proba(probe), atol=1e-12)


def test_where_the_input_contracts_differ():
    X, y = random_codes(7, n_values=(4,), n_classes=2)
    # fewer categories than observed: a minimum for scikit-learn, an error for nbcourse
    assert CategoricalNB(min_categories=2).fit(X, y).n_categories_.tolist() == [4]
    with pytest.raises(ValueError, match="n_values"):
        nbcourse.CategoricalNB(n_values=2).fit(X, y)
    # category codes given to the Bernoulli model: binarized by scikit-learn, refused by nbcourse
    sk = BernoulliNB().fit(X, y)
    np.testing.assert_allclose(sk.predict_proba([[1]]), sk.predict_proba([[3]]))
    with pytest.raises(ValueError, match="only 0 and 1"):
        nbcourse.ProductOfBernoullisNB().fit(X, y)
    # a code beyond those learned: IndexError inside scikit-learn, a named ValueError here
    seen = X[:, 0] < 3
    with pytest.raises(IndexError):
        CategoricalNB().fit(X[seen], y[seen]).predict([[3]])
    with pytest.raises(ValueError, match="not a valid code for feature 0"):
        nbcourse.CategoricalNB().fit(X[seen], y[seen]).predict([[3]])


@pytest.mark.parametrize("alpha", ALPHAS)
def test_a_single_bit_is_a_two_valued_categorical_variable(alpha):
    X, y = random_codes(11, n_values=(2,), n_classes=2)
    bern = BernoulliNB(alpha=alpha).fit(X, y).predict_proba(X)
    cat = CategoricalNB(alpha=alpha).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(bern, cat, atol=1e-12)


@pytest.mark.parametrize("alpha", ALPHAS)
def test_one_hot_encoding_a_binary_feature_doubles_its_log_odds(alpha):
    X, y = random_codes(12, n_values=(2,), n_classes=2)
    prior_odds = np.log(np.mean(y == 1) / np.mean(y == 0))
    cat = CategoricalNB(alpha=alpha).fit(X, y).predict_log_proba([[0], [1]])
    pob = BernoulliNB(alpha=alpha).fit(one_hot_sklearn(X), y).predict_log_proba([[1, 0], [0, 1]])
    term_cat = cat[:, 1] - cat[:, 0] - prior_odds
    term_pob = pob[:, 1] - pob[:, 0] - prior_odds
    np.testing.assert_allclose(term_pob, 2 * term_cat, atol=1e-12)


@pytest.mark.parametrize("alpha", ALPHAS)
def test_multinomial_nb_on_one_one_hot_feature_is_the_categorical_model(alpha):
    X, y = random_codes(13, n_values=(5,))
    multi = MultinomialNB(alpha=alpha).fit(one_hot_sklearn(X), y).predict_proba(one_hot_sklearn(X))
    ours = nbcourse.CategoricalNB(alpha=alpha).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(multi, ours, atol=1e-12)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 3.0])
def test_multinomial_nb_on_several_features_shifts_the_log_odds_by_a_class_only_factor(alpha):
    V = np.array([4, 2, 3])
    X, y = random_codes(14, n=40, n_values=V, n_classes=2)
    B = one_hot_sklearn(X)
    multi = MultinomialNB(alpha=alpha).fit(B, y).predict_log_proba(B)
    cat = CategoricalNB(alpha=alpha).fit(X, y).predict_log_proba(X)
    shift = (multi[:, 1] - multi[:, 0]) - (cat[:, 1] - cat[:, 0])
    N = np.bincount(y).astype(float)
    d = V.size
    # log of prod_f (N_c + alpha V_f) / (d N_c + alpha sum V)^d, class 1 minus class 0
    log_factor = np.log(N[:, None] + alpha * V).sum(axis=1) - d * np.log(d * N + alpha * V.sum())
    np.testing.assert_allclose(shift, log_factor[1] - log_factor[0], atol=1e-12)
    assert abs(log_factor[1] - log_factor[0]) > 1e-4  # the factor is not negligible here


def test_multinomial_nb_is_the_categorical_model_when_all_features_have_equal_sizes():
    X, y = random_codes(15, n=50, n_values=(3, 3), n_classes=2)
    B = one_hot_sklearn(X)
    multi = MultinomialNB(alpha=1.0).fit(B, y).predict_proba(B)
    cat = CategoricalNB(alpha=1.0).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(multi, cat, atol=1e-12)


def test_separate_models_combined_with_the_prior_once_equal_one_joint_model():
    X, y = random_codes(16, n_values=(4, 3))
    log_prior = np.log(np.bincount(y) / y.size)
    parts = [CategoricalNB().fit(X[:, [i]], y) for i in range(2)]
    joint = sum(m.predict_joint_log_proba(X[:, [i]]) for i, m in enumerate(parts)) - log_prior
    combined = joint - np.logaddexp.reduce(joint, axis=1, keepdims=True)
    np.testing.assert_allclose(combined, CategoricalNB().fit(X, y).predict_log_proba(X), atol=1e-12)
