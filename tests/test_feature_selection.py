"""Tests of nbcourse.feature_selection: scikit-learn and scipy as oracles for the mutual
information and the chi-square scores of word presence, entropies summed by hand for the
definition, and the ranking of the Austen passages' words."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import chi2_contingency
from sklearn.feature_selection import chi2, mutual_info_classif

from nbcourse.datasets import austen_passages
from nbcourse.feature_selection import (
    chi2_scores,
    mutual_information,
    presence_table,
    select_k_best,
)
from nbcourse.text import build_vocabulary, count_matrix


@pytest.fixture(scope="module")
def austen_counts():
    p = austen_passages()
    rows = np.r_[0:1500:3]                      # every third passage: all six novels
    docs = [p.texts[i] for i in rows]
    vocab = build_vocabulary(docs, max_size=400)
    return count_matrix(docs, vocab), p.y[rows], vocab


def random_counts(seed, n=60, v=12, c=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, c, size=n)
    rates = rng.uniform(0.05, 2.0, size=(c, v))
    return rng.poisson(rates[y]), y


def entropy(p):
    p = np.asarray(p, dtype=float)
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mutual_information_is_the_drop_in_the_entropy_of_the_class(seed):
    X, y = random_counts(seed)
    got = mutual_information(X, y)
    for w in range(X.shape[1]):
        b = X[:, w] > 0
        h_class = entropy(np.bincount(y) / y.size)
        h_given = sum(b_val.mean() * entropy(np.bincount(y[b_val], minlength=3) / b_val.sum())
                      for b_val in (b, ~b) if b_val.any())
        assert got[w] == pytest.approx(h_class - h_given, abs=1e-12)


def test_mutual_information_equals_scikit_learns_on_presence_bits(austen_counts):
    X, y, _ = austen_counts
    expected = mutual_info_classif(X > 0, y, discrete_features=True)
    assert_allclose(mutual_information(X, y), expected, atol=1e-12)


def test_twice_n_times_the_mutual_information_is_the_g_statistic(austen_counts):
    X, y, _ = austen_counts
    mi = mutual_information(X, y)
    _, table = presence_table(X, y)
    for w in range(0, X.shape[1], 17):
        if (table[w].sum(axis=0) == 0).any():  # a word in every passage: no G-test to compare
            continue
        g = chi2_contingency(table[w], correction=False, lambda_="log-likelihood").statistic
        assert 2 * y.size * mi[w] == pytest.approx(g, rel=1e-10)


def test_chi2_scores_equal_scipys_statistic_and_scikit_learns_summed_over_both_bits(
        austen_counts):
    X, y, _ = austen_counts
    got = chi2_scores(X, y)
    B = (X > 0).astype(float)
    both = chi2(np.hstack([B, 1 - B]), y)[0]
    V = X.shape[1]
    assert_allclose(got, np.nan_to_num(both[:V]) + np.nan_to_num(both[V:]), rtol=1e-10)
    _, table = presence_table(X, y)
    for w in range(0, V, 23):
        if (table[w].sum(axis=0) > 0).all():
            assert got[w] == pytest.approx(chi2_contingency(table[w], correction=False).statistic,
                                           rel=1e-10)


def test_a_word_in_every_document_or_in_none_scores_zero():
    X = np.array([[1, 0, 2], [3, 0, 0], [1, 0, 1], [2, 0, 0]])
    y = [0, 0, 1, 1]
    assert mutual_information(X, y)[:2].tolist() == [0.0, 0.0]
    assert chi2_scores(X, y)[:2].tolist() == [0.0, 0.0]


def test_a_word_that_names_the_class_scores_the_entropy_of_the_class():
    y = np.array([0, 0, 0, 1, 1])
    X = np.column_stack([(y == 0) * 3, (y == 1) * 1, np.ones_like(y)])
    h = entropy([0.6, 0.4])
    assert_allclose(mutual_information(X, y), [h, h, 0.0], atol=1e-12)
    # with three classes one bit holds at most ln 2 of the class's entropy
    y3 = np.array([0, 0, 1, 1, 2, 2])
    mi = mutual_information(np.column_stack([y3 == 0, y3 == 2]).astype(int), y3)
    assert_allclose(mi, [entropy([1 / 3, 2 / 3])] * 2, atol=1e-12)
    assert mi.max() < np.log(2) < entropy([1 / 3] * 3)


def test_counts_and_presence_bits_give_the_same_scores(austen_counts):
    X, y, _ = austen_counts
    assert_array_equal(mutual_information(X, y), mutual_information(X > 0, y))
    assert_array_equal(chi2_scores(X, y), chi2_scores((X > 0).astype(int), y))


def test_presence_table_counts_documents_by_class_and_presence(austen_counts):
    X, y, vocab = austen_counts
    classes, table = presence_table(X, y)
    assert classes.tolist() == list(range(6))
    w = vocab.index("emma")
    for c in range(6):
        assert table[w, c, 1] == np.sum((X[:, w] > 0) & (y == c))
        assert table[w, c, 0] == np.sum((X[:, w] == 0) & (y == c))
    assert_array_equal(table.sum(axis=(1, 2)), np.full(X.shape[1], y.size))


def test_the_names_of_the_heroines_rank_first(austen_counts):
    X, y, vocab = austen_counts
    top = {vocab[i] for i in select_k_best(mutual_information(X, y), 10)}
    assert {"emma", "elinor", "fanny", "anne"} <= top
    frequent = set(vocab[:10])                  # the most frequent words say little
    assert not top & frequent


def test_select_k_best_breaks_ties_by_column_and_caps_k():
    assert select_k_best([1.0, 3.0, 3.0, 2.0], 3).tolist() == [1, 2, 3]
    assert select_k_best([1.0, 3.0], 10).tolist() == [1, 0]


@pytest.mark.parametrize("call, error, message", [
    (lambda: mutual_information([[1, -1], [0, 2]], [0, 1]), ValueError, "X must be a non-empty"),
    (lambda: mutual_information([1, 0, 2], [0, 1, 1]), ValueError, "X must be a non-empty 2-d"),
    (lambda: chi2_scores([[1, 0], [0, 2]], [0, 1, 1]), ValueError, "y must have one label per"),
    (lambda: chi2_scores([[1, 0], [0, 2]], [0, 0]), ValueError, "at least 2 distinct classes"),
    (lambda: mutual_information([["a", "b"]], [0]), TypeError, "X must contain real numbers"),
    (lambda: select_k_best([0.1, np.inf], 1), ValueError, "scores must be a non-empty 1-d"),
    (lambda: select_k_best([0.1, 0.2], 0), ValueError, "k must be an integer >= 1, got 0"),
    (lambda: select_k_best([0.1, 0.2], 1.5), TypeError, "k must be an integer"),
])
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
