"""Tests for nbcourse.naive_bayes, with scikit-learn as the independent oracle.

scikit-learn's CategoricalNB / BernoulliNB (force_alpha=True so tiny alphas are kept) and
OneHotEncoder give the expected values; the one-hot analysis of Williams (2024) is checked
through nbcourse.onehot, which is tested separately against brute-force products.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.sparse import csr_matrix
from sklearn.exceptions import DataConversionWarning, NotFittedError
from sklearn.linear_model import LinearRegression
from sklearn.naive_bayes import BernoulliNB
from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
from sklearn.preprocessing import OneHotEncoder
from sklearn.utils import get_tags

from nbcourse.encoding import (
    find_one_hot_groups,
    one_hot,
    one_hot_groups,
    variance_inflation_factors,
)
from nbcourse.gaussian import GaussianNB
from nbcourse.missing import MissingCategoricalNB, MissingProductOfBernoullisNB
from nbcourse.naive_bayes import CategoricalNB, FullJointNB, NaiveBayes, ProductOfBernoullisNB
from nbcourse.posteriors import log_posterior_categorical, log_posterior_pob
from nbcourse.semi_naive import AveragedOneDependenceNB, SelectiveNB, TreeAugmentedNB
from nbcourse.text import MultinomialNB

ALPHAS = [1e-10, 1e-4, 0.3, 1.0, 2.5]
FAST = settings(max_examples=200, deadline=None)


def random_codes(rng, n, n_values, C):
    """Codes with every value of every feature present, and labels with every class present."""
    X = np.column_stack([rng.integers(0, V, size=n) for V in n_values])
    X[: max(n_values)] = np.array([np.arange(max(n_values)) % V for V in n_values]).T
    y = rng.integers(0, C, size=n)
    y[:C] = np.arange(C)
    return X, y


# --- agreement with scikit-learn ------------------------------------------------------------


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("seed", [0, 1])
def test_categorical_matches_sklearn(alpha, seed):
    rng = np.random.default_rng(seed)
    n_values = [2, 3, 5, 4]
    X, y = random_codes(rng, 120, n_values, C=4)
    X_test, _ = random_codes(rng, 300, n_values, C=4)
    ours = CategoricalNB(alpha=alpha).fit(X, y)
    sk = SkCategoricalNB(alpha=alpha, force_alpha=True).fit(X, y)
    assert_array_equal(ours.classes_, sk.classes_)
    assert_array_equal(ours.class_count_, sk.class_count_)
    assert_allclose(ours.class_log_prior_, sk.class_log_prior_, atol=1e-12)
    assert_array_equal(ours.n_categories_, sk.n_categories_)
    for a, b in zip(ours.feature_log_prob_, sk.feature_log_prob_, strict=True):
        assert_allclose(a, b, atol=1e-12)
    assert_allclose(ours.predict_log_proba(X_test), sk.predict_log_proba(X_test), atol=1e-10)
    assert_allclose(ours.predict_proba(X_test), sk.predict_proba(X_test), atol=1e-10)
    assert_array_equal(ours.predict(X_test), sk.predict(X_test))


@pytest.mark.parametrize("alpha", ALPHAS)
def test_pob_on_one_hot_bits_matches_sklearn_bernoulli(alpha):
    rng = np.random.default_rng(3)
    n_values = [3, 2, 4]
    X, y = random_codes(rng, 150, n_values, C=3)
    X_test, _ = random_codes(rng, 200, n_values, C=3)
    B, B_test = one_hot(X, n_values), one_hot(X_test, n_values)
    ours = ProductOfBernoullisNB(alpha=alpha).fit(B, y)
    sk = BernoulliNB(alpha=alpha, force_alpha=True, binarize=None).fit(B, y)
    assert_allclose(ours.feature_log_prob_, sk.feature_log_prob_, atol=1e-12)
    assert_allclose(ours.class_log_prior_, sk.class_log_prior_, atol=1e-12)
    assert_array_equal(ours.feature_count_, sk.feature_count_)
    assert_allclose(ours.predict_log_proba(B_test), sk.predict_log_proba(B_test), atol=1e-10)
    assert_array_equal(ours.predict(B_test), sk.predict(B_test))


@pytest.mark.parametrize("alpha", [1e-10, 1.0])
def test_pob_on_general_bits_matches_sklearn_bernoulli(alpha):
    rng = np.random.default_rng(4)
    B = rng.integers(0, 2, size=(80, 7))
    y = np.array(["x", "y", "z"])[rng.integers(0, 3, size=80)]
    B_test = rng.integers(0, 2, size=(50, 7))
    ours = ProductOfBernoullisNB(alpha=alpha).fit(B, y)
    sk = BernoulliNB(alpha=alpha, force_alpha=True, binarize=None).fit(B, y)
    assert_allclose(ours.predict_log_proba(B_test), sk.predict_log_proba(B_test), atol=1e-10)
    assert_array_equal(ours.predict(B_test), sk.predict(B_test))


def test_neg_log_prob_is_exact_complement():
    B = np.array([[1, 1], [1, 1], [1, 0], [0, 0]])
    m = ProductOfBernoullisNB(alpha=1e-3).fit(B, [0, 0, 0, 1])
    p = (np.array([[3, 2], [0, 0]]) + 1e-3) / (np.array([[3], [1]]) + 2e-3)
    assert_allclose(np.exp(m.feature_log_prob_), p, rtol=1e-14)
    assert_allclose(np.exp(m.feature_log_prob_neg_), 1 - p, rtol=1e-12)


# --- Williams (2024): the two models on one categorical feature --------------------------------


@FAST
@given(
    K=st.integers(2, 6),
    C=st.integers(2, 4),
    alpha=st.sampled_from([0.0, 1e-10, 0.5, 1.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_one_feature_models_are_eqs_2_and_3(K, C, alpha, seed):
    rng = np.random.default_rng(seed)
    X, y = random_codes(rng, 40, [K], C)
    cat = CategoricalNB(alpha=alpha).fit(X, y)
    pob = ProductOfBernoullisNB(alpha=alpha).fit(one_hot(X, K), y)
    pi = np.exp(cat.class_log_prior_)
    theta = np.exp(cat.feature_log_prob_[0])  # (C, K)
    if alpha == 0.0:
        # Williams (2024), §1: with maximum likelihood the PoB parameters equal the categorical ones
        assert_allclose(np.exp(pob.feature_log_prob_), theta, rtol=1e-13)
    assert_allclose(pob.class_log_prior_, cat.class_log_prior_, rtol=0, atol=0)
    for j in range(K):
        row = np.array([[j]])
        try:
            expected_cat = log_posterior_categorical(pi, theta, j)
        except ValueError:
            with pytest.raises(ValueError, match="undefined"):
                cat.predict_log_proba(row)
            continue
        assert_allclose(cat.predict_log_proba(row)[0], expected_cat, atol=1e-10)
        if alpha == 0.0:
            assert_allclose(
                pob.predict_log_proba(one_hot(row, K))[0],
                log_posterior_pob(pi, theta, j),
                atol=1e-10,
            )


def test_alpha_zero_unseen_value_gives_exact_zero_probability():
    X = [[0, 0], [1, 0], [1, 1], [2, 1]]
    y = [0, 0, 1, 1]
    m = CategoricalNB(alpha=0.0).fit(X, y)
    # x = (0, 1): class 0 never had x1 = 1, class 1 never had x0 = 0 -> undefined
    with pytest.raises(ValueError, match=r"posterior is undefined for X row\(s\) \[1\]"):
        m.predict_proba([[1, 0], [0, 1]])
    assert_array_equal(m.predict_proba([[0, 0]]), [[1.0, 0.0]])
    b = ProductOfBernoullisNB(alpha=0.0).fit(one_hot(X), y)
    assert_array_equal(b.predict_proba(one_hot([[0, 0]], [3, 2])), [[1.0, 0.0]])


def test_sklearn_conventions():
    X, y = [[0, 1], [1, 0], [1, 1]], ["u", "v", "v"]
    m = CategoricalNB(alpha=0.5)
    assert m.fit(X, y) is m
    assert m.get_params() == {"alpha": 0.5, "n_values": None}
    assert m.score(X, y) == pytest.approx(np.mean(m.predict(X) == np.array(y)))
    assert ProductOfBernoullisNB().get_params() == {"alpha": 1.0, "binarize": None}


def test_n_values_declares_unseen_categories():
    m = CategoricalNB(alpha=1.0, n_values=[4, 2]).fit([[0, 1], [1, 0]], [0, 1])
    assert_array_equal(m.n_categories_, [4, 2])
    assert m.feature_log_prob_[0].shape == (2, 4)
    # x0 = 3 was never seen but is declared: smoothed (0 + 1) / (1 + 4) in both classes
    assert_allclose(np.exp(m.feature_log_prob_[0][:, 3]), [0.2, 0.2])
    assert_allclose(m.predict_proba([[3, 1]]), [[2 / 3, 1 / 3]])


# --- one-hot encoding -------------------------------------------------------------------------


def test_one_hot_matches_sklearn_encoder():
    rng = np.random.default_rng(5)
    n_values = [3, 1, 4, 2]
    X, _ = random_codes(rng, 30, n_values, C=2)
    enc = OneHotEncoder(categories=[list(range(V)) for V in n_values], sparse_output=False)
    B, groups = one_hot(X, n_values, return_groups=True)
    assert_array_equal(B, enc.fit_transform(X))
    assert B.dtype == np.int64
    assert [g.tolist() for g in groups] == [[0, 1, 2], [3], [4, 5, 6, 7], [8, 9]]
    for i, g in enumerate(groups):
        assert_array_equal(B[:, g].sum(axis=1), 1)
        assert_array_equal(B[:, g].argmax(axis=1), X[:, i])
    assert_array_equal(one_hot(X), B)  # inferred n_values: every value appears
    assert [g.tolist() for g in one_hot_groups(n_values)] == [g.tolist() for g in groups]


def test_one_hot_int_n_values():
    assert_array_equal(one_hot([[1]], 3), [[0, 1, 0]])


# --- finding one-hot groups in a bare table ---------------------------------------------------


def test_find_one_hot_groups_recovers_shuffled_blocks():
    rng = np.random.default_rng(11)
    n = 200
    X = np.column_stack([rng.integers(0, 3, n), rng.integers(0, 4, n)])
    binary = rng.integers(0, 2, size=(n, 3))
    table = np.column_stack([one_hot(X, [3, 4]), binary])  # blocks 0-2, 3-6; bits 7-9
    perm = rng.permutation(table.shape[1])
    shuffled = table[:, perm]
    where = np.argsort(perm)  # original column -> new position
    expected = sorted([sorted(where[[0, 1, 2]].tolist()), sorted(where[[3, 4, 5, 6]].tolist())])
    got = [g.tolist() for g in find_one_hot_groups(shuffled)]
    assert got == expected


def test_find_one_hot_groups_none_in_random_bits():
    rng = np.random.default_rng(12)
    assert find_one_hot_groups(rng.integers(0, 2, size=(100, 6))) == []


def test_find_one_hot_groups_documented_limits():
    rng = np.random.default_rng(13)
    z = rng.integers(0, 2, size=60)
    other = rng.integers(0, 2, size=60)
    # a bit and its complement form a one-hot code of a two-valued variable
    got = find_one_hot_groups(np.column_stack([z, other, 1 - z]))
    assert [g.tolist() for g in got] == [[0, 2]]
    # an unobserved category (all-zero column) and a constant column are not reported
    B = np.column_stack([one_hot(rng.integers(0, 2, size=(60, 1)), 3), np.ones(60, int)])
    assert [g.tolist() for g in find_one_hot_groups(B)] == [[0, 1]]


def test_find_one_hot_groups_budget_warns():
    X = np.array([[0], [1], [2], [3]] * 5)
    with pytest.warns(UserWarning, match="search budget max_nodes=1 exhausted"):
        assert find_one_hot_groups(one_hot(X), max_nodes=1) == []


def test_variance_inflation_factors_against_sklearn_regression():
    rng = np.random.default_rng(14)
    B = rng.integers(0, 2, size=(300, 4))
    vif = variance_inflation_factors(B)
    for k in range(4):
        others = np.delete(B, k, axis=1)
        r2 = LinearRegression().fit(others, B[:, k]).score(others, B[:, k])
        assert vif[k] == pytest.approx(1 / (1 - r2), rel=1e-9)
    block = np.column_stack([B, one_hot(rng.integers(0, 3, size=(300, 1)))])
    vif2 = variance_inflation_factors(block)
    assert np.isinf(vif2[4:]).all() and np.isfinite(vif2[:4]).all()


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("X", "exc", "match"),
    [
        ([[0, 1.5], [0, 0]], ValueError, r"X must contain integer category codes.*\(0, 1\) is 1.5"),
        ([[0, -1], [0, 0]], ValueError, r"X must contain non-negative category codes.*is -1"),
        ([["a", "b"], ["a", "a"]], TypeError, "X must contain real numbers"),
        ([[0, np.nan], [0, 0]], ValueError, "X must not contain NaN"),
        ([0, 1], ValueError, r"X must be a 2-d array, got 1-d"),
    ],
)
def test_categorical_bad_codes(X, exc, match):
    with pytest.raises(exc, match=match):
        CategoricalNB().fit(X, [0, 1])
    with pytest.raises(exc, match=match):
        one_hot(X)


def test_categorical_predict_code_beyond_n_categories():
    m = CategoricalNB().fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(
        ValueError,
        match=r"X\[1, 0\] = 2 is not a valid code for feature 0, which has 2 categories "
        r"\(codes 0..1, learned in fit\)",
    ):
        m.predict([[0, 0], [2, 0]])
    with pytest.raises(
        ValueError, match=r"X has 3 features, but CategoricalNB is expecting 2 features as input"
    ):
        m.predict([[0, 0, 0]])
    with pytest.raises(ValueError, match="n_values"):
        CategoricalNB(n_values=[1, 2]).fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match=r"X\[0, 1\] = 3 is not a valid code.*from n_values"):
        one_hot([[0, 3]], n_values=[2, 3])
    with pytest.raises(ValueError, match=r"n_values must be an int >= 1 or a sequence of 2 ints "
                       r">= 1, the number of values of each feature, got array of shape \(2,\)"):
        one_hot([[0, 1]], n_values=[2.5, 3])


def test_bad_bits_labels_empty_alpha():
    with pytest.raises(ValueError, match=r"X must contain only 0 and 1; entry \(1, 0\) is 2"):
        ProductOfBernoullisNB().fit([[0, 1], [2, 0]], [0, 1])
    m = ProductOfBernoullisNB().fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="X must contain only 0 and 1"):
        m.predict_proba([[0.5, 1]])
    with pytest.raises(ValueError, match=r"X must contain only 0 and 1; entry \(0, 1\) is -1"):
        m.predict_proba([[0, -1]])
    with pytest.raises(
        ValueError, match=r"y must contain at least 2 distinct classes, got 1 class \(\['a'\]\)"
    ):
        CategoricalNB().fit([[0], [1]], ["a", "a"])
    with pytest.raises(ValueError, match="y must contain at least 2 distinct classes"):
        ProductOfBernoullisNB().fit([[0], [1]], [1, 1])
    with pytest.raises(ValueError, match="X must not be empty"):
        CategoricalNB().fit(np.zeros((0, 2), dtype=int), [])
    with pytest.raises(ValueError, match="X must not be empty"):
        ProductOfBernoullisNB().fit(np.zeros((0, 2)), [])
    with pytest.raises(ValueError, match=r"alpha must be a finite number >= 0, got -0.5"):
        CategoricalNB(alpha=-0.5).fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match=r"alpha must be a finite number >= 0"):
        ProductOfBernoullisNB(alpha=-1).fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="not fitted yet"):
        CategoricalNB().predict([[0]])
    with pytest.raises(ValueError, match=r"y must have one label per row of X \(2\), got 1"):
        CategoricalNB().fit([[0], [1]], [0])
    with pytest.raises(ValueError, match="B must contain only 0 and 1"):
        find_one_hot_groups([[0, 3]])
    with pytest.raises(ValueError, match=r"n_values must be an int >= 1 or a non-empty sequence "
                       r"of ints >= 1, the number of values of each feature, got \[2, 0\]"):
        one_hot_groups([2, 0])


# --- scikit-learn's estimator interface ------------------------------------------------------


@pytest.mark.parametrize("method", ["predict", "predict_proba", "predict_log_proba"])
@pytest.mark.parametrize("model", [CategoricalNB(), ProductOfBernoullisNB()])
def test_unfitted_estimators_raise_not_fitted_error(model, method):
    with pytest.raises(NotFittedError, match=r"this \w+ instance is not fitted yet; call fit"):
        getattr(model, method)([[0, 1]])
    assert issubclass(NotFittedError, ValueError)  # older callers catching ValueError still work


@pytest.mark.parametrize(
    ("X", "y", "exc", "match"),
    [
        (
            np.array([[1 + 1j], [0]]),
            [0, 1],
            ValueError,
            r"X must contain real numbers, got "
            r"complex dtype complex128 \(Complex data not supported\)",
        ),
        (
            csr_matrix(np.eye(2)),
            [0, 1],
            TypeError,
            r"X must be a dense array, got a sparse "
            r"csr_matrix",
        ),
        (
            np.array([[0, {"a": 1}], [1, 0]], dtype=object),
            [0, 1],
            TypeError,
            r"X must contain real numbers, got an object array .*not 'dict'",
        ),
        (
            np.zeros((3, 0)),
            [0, 1, 0],
            ValueError,
            r"X must have at least one feature, got 0 feature\(s\) \(shape=\(3, 0\)\)",
        ),
        ([[0], [1]], None, ValueError, r"y must be an array of class labels, got None"),
        (
            [[0], [1]],
            [0.5, 1.0],
            ValueError,
            r"y must contain class labels \(a discrete target\), got a continuous target with "
            r"values such as 0.5",
        ),
    ],
)
@pytest.mark.parametrize("model", [CategoricalNB(), ProductOfBernoullisNB()])
def test_bad_input_messages_name_argument_expected_and_got(model, X, y, exc, match):
    with pytest.raises(exc, match=match):
        model.fit(X, y)


def test_one_dimensional_X_at_predict_asks_for_a_reshape():
    m = CategoricalNB().fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(
        ValueError, match=r"X must be a 2-d array, got 1-d array of shape \(2,\)\. Reshape your"
    ):
        m.predict([0, 1])


def test_object_array_of_codes_fits_like_int_codes():
    X, y = [[0, 2], [1, 0], [1, 1]], [0, 1, 1]
    a = CategoricalNB().fit(np.array(X, dtype=object), y)
    b = CategoricalNB().fit(np.array(X), y)
    for la, lb in zip(a.feature_log_prob_, b.feature_log_prob_, strict=True):
        assert_array_equal(la, lb)


def test_column_vector_y_warns_and_is_raveled():
    X = [[0, 1], [1, 0], [1, 1]]
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed"):
        m = CategoricalNB().fit(X, [[0], [1], [1]])
    assert_array_equal(m.classes_, [0, 1])
    assert_array_equal(m.class_count_, [1, 2])


def test_dataframe_feature_names_are_kept_and_checked():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"eye": [0, 1, 2, 1], "sex": [1, 0, 0, 1]})
    m = CategoricalNB().fit(df, [0, 0, 1, 1])
    assert_array_equal(m.feature_names_in_, ["eye", "sex"])
    assert m.n_features_in_ == 2
    with pytest.raises(ValueError, match="feature names should match"):
        m.predict(df.rename(columns={"eye": "hair"}))


@pytest.mark.parametrize("threshold", [0.0, 0.5, 1.0])
def test_binarize_matches_sklearn_bernoulli(threshold):
    rng = np.random.default_rng(5)
    X, X_test = rng.normal(size=(60, 4)), rng.normal(size=(30, 4))
    y = rng.integers(0, 3, size=60)
    ours = ProductOfBernoullisNB(alpha=0.5, binarize=threshold).fit(X, y)
    sk = BernoulliNB(alpha=0.5, force_alpha=True, binarize=threshold).fit(X, y)
    assert_array_equal(ours.feature_count_, sk.feature_count_)
    assert_allclose(ours.predict_log_proba(X_test), sk.predict_log_proba(X_test), atol=1e-12)


def test_binarize_none_refuses_what_a_threshold_accepts():
    X, y = [[0, 2], [1, 0], [3, 1]], [0, 1, 1]
    with pytest.raises(ValueError, match=r"X must contain only 0 and 1; entry \(0, 1\) is 2"):
        ProductOfBernoullisNB().fit(X, y)
    m = ProductOfBernoullisNB(binarize=0.5).fit(X, y)
    assert_array_equal(m.feature_count_, [[0, 1], [2, 1]])  # bits [[0, 1], [1, 0], [1, 1]]
    with pytest.raises(ValueError, match=r"X must contain finite numbers; entry \(0, 0\) is inf"):
        m.predict([[np.inf, 0]])


@pytest.mark.parametrize(
    ("binarize", "exc", "match"),
    [
        ("0.5", TypeError, r"binarize must be None or a real number, got str '0.5'"),
        (True, TypeError, r"binarize must be None or a real number, got bool True"),
        (np.nan, ValueError, r"binarize must be None or a finite real number, got nan"),
    ],
)
def test_bad_binarize(binarize, exc, match):
    with pytest.raises(exc, match=match):
        ProductOfBernoullisNB(binarize=binarize).fit([[0], [1]], [0, 1])


def test_input_tags_as_scikit_learns_discrete_naive_bayes():
    sk_cat = get_tags(SkCategoricalNB()).input_tags
    cat = get_tags(CategoricalNB()).input_tags
    assert (
        (cat.categorical, cat.positive_only, cat.sparse)
        == (sk_cat.categorical, sk_cat.positive_only, sk_cat.sparse)
        == (True, True, False)
    )
    # a threshold reads any real number, as BernoulliNB does; a strict 0/1 table refuses
    # negative entries; neither takes sparse input (BernoulliNB does)
    assert get_tags(ProductOfBernoullisNB(binarize=0.0)).input_tags.positive_only is False
    assert get_tags(BernoulliNB()).input_tags.positive_only is False
    assert get_tags(ProductOfBernoullisNB()).input_tags.positive_only is True
    assert get_tags(ProductOfBernoullisNB()).input_tags.sparse is False
    for model in (CategoricalNB(), ProductOfBernoullisNB()):
        assert get_tags(model).classifier_tags.poor_score is True
        assert (
            get_tags(model).classifier_tags.poor_score
            == get_tags(BernoulliNB()).classifier_tags.poor_score
        )


# --- one fit: a model is its hooks ------------------------------------------------------------


class SharedVarianceGaussianNB(NaiveBayes):
    """Gaussian naive Bayes with one variance per feature shared by the classes, written as
    the hooks of the base: no fit of its own.  ``alpha`` is added to the variance."""

    def __init__(self, alpha=0.0):
        self.alpha = alpha

    def _check_entries(self, X, reset):
        return np.asarray(X, dtype=np.float64)

    def _count(self, X, Y):
        self.sum_, self.sum_sq_ = Y.T @ X, Y.T @ X**2

    def _update_feature_log_prob(self, alpha):
        self.theta_ = self.sum_ / self.class_count_[:, None]
        within = self.sum_sq_ - self.class_count_[:, None] * self.theta_**2  # Σ_i Y_ic (x - μ_c)²
        self.var_ = within.sum(axis=0) / self.class_count_.sum() + alpha

    def _joint_log_likelihood(self, X):
        sq = (X[:, None, :] - self.theta_[None]) ** 2 / self.var_
        return -0.5 * (sq + np.log(2 * np.pi * self.var_)).sum(axis=2) + self.class_log_prior_


def test_a_model_written_as_its_hooks_fits_and_predicts():
    # class a: 0, 2 (mean 1); class b: 4, 6, 5 (mean 5); squared deviations 1+1 and 1+1+0,
    # so the shared variance is 4/5, and 1 with alpha = 0.2; priors 2/5 and 3/5.
    # At x = 3 the likelihoods are equal: P(a | 3) = 2/5.  At x = 4 the log likelihood
    # ratio a : b is (-(4-1)² + (4-5)²) / 2 = -4: P(a | 4) = 1 / (1 + (3/2) e^4).
    assert "fit" not in vars(SharedVarianceGaussianNB)
    X, y = [[0.0], [2.0], [4.0], [6.0], [5.0]], ["a", "a", "b", "b", "b"]
    m = SharedVarianceGaussianNB(alpha=0.2)
    assert m.fit(X, y) is m
    assert_array_equal(m.classes_, ["a", "b"])
    assert_array_equal(m.class_count_, [2.0, 3.0])
    assert_allclose(m.theta_, [[1.0], [5.0]], rtol=1e-15)
    assert_allclose(m.var_, [1.0], rtol=1e-15)
    assert m.alpha_ == 0.2 and m.n_features_in_ == 1
    p_a = 1 / (1 + 1.5 * np.exp(4.0))
    assert_allclose(m.predict_proba([[3.0], [4.0]]), [[0.4, 0.6], [p_a, 1 - p_a]], rtol=1e-13)
    assert_array_equal(m.predict([[0.0], [3.0]]), ["a", "b"])
    with pytest.raises(ValueError, match="alpha must be a finite number >= 0, got -1.0"):
        SharedVarianceGaussianNB(alpha=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, but SharedVarianceGaussianNB is "
                                         "expecting 1 features as input"):
        m.predict([[0.0, 1.0]])


def test_fractional_memberships_weight_every_count():
    # rows x = 0, 1, 1 belong to classes (u, v) with weights (1, 0), (1/2, 1/2), (1/4, 3/4):
    # N_u = 1.75, N_v = 1.25; N_u0 = 1, N_u1 = 0.75, N_v0 = 0, N_v1 = 1.25.
    m = CategoricalNB(alpha=1.0).fit([[0], [1], [1]], ["u", "v", "v"])
    Y = [[1.0, 0.0], [0.5, 0.5], [0.25, 0.75]]
    assert m._fit_memberships(np.array([[0], [1], [1]]), Y, m.classes_) is m
    assert_array_equal(m.class_count_, [1.75, 1.25])
    assert_allclose(np.exp(m.class_log_prior_), [1.75 / 3, 1.25 / 3], rtol=1e-15)
    assert_array_equal(m.category_count_[0], [[1.0, 0.75], [0.0, 1.25]])
    assert_allclose(np.exp(m.feature_log_prob_[0]),
                    [[2 / 3.75, 1.75 / 3.75], [1 / 3.25, 2.25 / 3.25]], rtol=1e-15)
    # P(u | x = 0) = (1.75/3)(2/3.75) / [(1.75/3)(2/3.75) + (1.25/3)(1/3.25)]
    pu, pv = 1.75 * 2 / 3.75, 1.25 / 3.25
    assert_allclose(m.predict_proba([[0]]), [[pu / (pu + pv), pv / (pu + pv)]], rtol=1e-14)


@pytest.mark.parametrize(
    ("Y", "match"),
    [
        ([[1.0, 0.0], [0.0, 1.0]], r"Y must have shape \(3, 2\), a row per row of X and a "
                                   r"column per class, got shape \(2, 2\)"),
        ([[1.0], [0.0], [1.0]], r"Y must have shape \(3, 2\).*got shape \(3, 1\)"),
        ([[1.0, 0.0], [-0.5, 1.5], [0.0, 1.0]], "Y must contain finite memberships >= 0"),
        ([[1.0, 0.0], [np.nan, 1.0], [0.0, 1.0]], "Y must contain finite memberships >= 0"),
        (np.zeros((3, 2)), "Y must contain finite memberships >= 0, not all zero"),
    ],
)
def test_bad_memberships_are_refused_by_name(Y, match):
    m = CategoricalNB().fit([[0], [1], [1]], ["u", "v", "v"])
    with pytest.raises(ValueError, match=match):
        m._fit_memberships(np.array([[0], [1], [1]]), Y, m.classes_)


def test_fit_is_written_once():
    models = [CategoricalNB, ProductOfBernoullisNB, FullJointNB, MultinomialNB,
              MissingCategoricalNB, MissingProductOfBernoullisNB, GaussianNB, TreeAugmentedNB,
              AveragedOneDependenceNB, SelectiveNB]
    for model in models:
        assert issubclass(model, NaiveBayes)
        assert callable(model._count) and callable(model._update_feature_log_prob)
        for cls in model.__mro__[: model.__mro__.index(NaiveBayes)]:
            assert "fit" not in vars(cls), f"{cls.__name__} defines fit"
    assert "fit" in vars(NaiveBayes)
