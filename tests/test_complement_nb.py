"""Tests of Complement naive Bayes and the transforms of Rennie et al. (2003) in nbcourse.text:
scikit-learn's ComplementNB, TfidfTransformer and normalize as oracles, and the complement
counts summed by hand."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.naive_bayes import ComplementNB as SkComplementNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import normalize

from nbcourse.datasets import austen_passages
from nbcourse.text import (
    ComplementNB,
    MultinomialNB,
    RennieTransformer,
    build_vocabulary,
    count_matrix,
)


@pytest.fixture(scope="module")
def austen_split():
    p = austen_passages()
    train, test = np.r_[0:1500:2], np.r_[1:1500:4]
    vocab = build_vocabulary([p.texts[i] for i in train], max_size=800)
    return (count_matrix([p.texts[i] for i in train], vocab), p.y[train],
            count_matrix([p.texts[i] for i in test], vocab), p.y[test])


def test_complement_estimates_are_the_counts_of_the_other_classes():
    rng = np.random.default_rng(3)
    X = rng.poisson(1.5, size=(30, 7))
    y = rng.integers(0, 3, size=30)
    m = ComplementNB(alpha=0.5).fit(X, y)
    for c in range(3):
        other = X[y != c].sum(axis=0) + 0.5
        assert_allclose(np.exp(m.complement_log_prob_[c]), other / other.sum(), rtol=1e-12)
        assert_allclose(m.feature_log_prob_[c], -np.log(other / other.sum()), rtol=1e-12)
    # the score of a document is minus its log likelihood under the complement
    doc = X[:4]
    assert_allclose(m.predict_proba(doc),
                    np.exp(doc @ -m.complement_log_prob_.T)
                    / np.exp(doc @ -m.complement_log_prob_.T).sum(axis=1, keepdims=True))


@pytest.mark.parametrize("norm", [False, True])
@pytest.mark.parametrize("alpha", [1.0, 0.1])
def test_agrees_with_scikit_learn_on_the_austen_passages(austen_split, norm, alpha):
    X, y, X_test, _ = austen_split
    ours = ComplementNB(alpha=alpha, norm=norm).fit(X, y)
    theirs = SkComplementNB(alpha=alpha, norm=norm, force_alpha=True).fit(X, y)
    assert_allclose(ours.feature_log_prob_, theirs.feature_log_prob_, rtol=1e-12)
    assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-12)


def test_weight_normalisation_makes_every_class_weights_sum_to_one_in_absolute_value():
    rng = np.random.default_rng(4)
    X, y = rng.poisson(2.0, size=(40, 9)), rng.integers(0, 4, size=40)
    m = ComplementNB(norm=True).fit(X, y)
    assert_allclose(np.abs(m.feature_log_prob_).sum(axis=1), 1.0, rtol=1e-12)


def test_a_small_class_is_not_swamped_as_in_multinomial_naive_bayes(austen_split):
    """Rennie et al.'s skewed-data bias: with one class trained on far fewer passages, the
    multinomial model rarely picks it; the complement model is estimated from the others."""
    X, y, X_test, y_test = austen_split
    keep = np.flatnonzero((y != 5) | (np.cumsum(y == 5) <= 8))        # 8 Persuasion passages
    recall = {}
    for name, model in (("mnb", MultinomialNB()), ("cnb", ComplementNB())):
        pred = model.fit(X[keep], y[keep]).predict(X_test)
        recall[name] = np.mean(pred[y_test == 5] == 5)
    assert recall["cnb"] > recall["mnb"]


def test_rennie_transform_is_log_tf_times_idf_then_unit_length(austen_split):
    X, _, X_test, _ = austen_split
    t = RennieTransformer().fit(X)
    sk_idf = TfidfTransformer(smooth_idf=False, norm=None).fit(X).idf_ - 1.0   # theirs adds 1
    assert_allclose(t.idf_, sk_idf, rtol=1e-12)
    assert_allclose(t.idf_, np.log(X.shape[0] / (X > 0).sum(axis=0)), rtol=1e-12)
    assert_allclose(t.transform(X_test), normalize(np.log1p(X_test) * sk_idf), atol=1e-12)
    assert_allclose(RennieTransformer(idf=False, length=False).fit(X).transform(X_test),
                    np.log1p(X_test), rtol=1e-12)
    assert_allclose(RennieTransformer(tf=False, idf=False).fit(X).transform(X_test),
                    normalize(X_test.astype(float)), atol=1e-12)


def test_the_idf_comes_from_the_training_documents_and_unseen_words_count_as_rare():
    train = np.array([[1, 0, 0], [1, 1, 0], [1, 0, 0], [0, 1, 0]])
    t = RennieTransformer(tf=False, length=False).fit(train)
    assert_allclose(t.idf_, [np.log(4 / 3), np.log(2), np.log(4)])
    assert_allclose(t.transform([[2, 0, 1]]), [[2 * np.log(4 / 3), 0, np.log(4)]])
    assert t.transform([[0, 0, 0]]).tolist() == [[0.0, 0.0, 0.0]]


def test_transform_and_complement_in_a_pipeline(austen_split):
    X, y, X_test, _ = austen_split
    pipe = make_pipeline(RennieTransformer(), ComplementNB(norm=True)).fit(X, y)
    t = RennieTransformer().fit(X)
    by_hand = ComplementNB(norm=True).fit(t.transform(X), y)
    assert_array_equal(pipe.predict(X_test), by_hand.predict(t.transform(X_test)))


@pytest.mark.parametrize("call, error, message", [
    (lambda: ComplementNB(alpha=0.0).fit([[1, 0], [0, 1]], [0, 1]), ValueError,
     "alpha must be > 0 for ComplementNB"),
    (lambda: ComplementNB(norm="yes").fit([[1, 0], [0, 1]], [0, 1]), TypeError,
     "norm must be True or False"),
    (lambda: ComplementNB().fit([[1, -1], [0, 1]], [0, 1]), ValueError,
     "X must contain non-negative word counts"),
    (lambda: RennieTransformer().fit([[1, -2]]), ValueError, "non-negative word counts"),
    (lambda: RennieTransformer(idf=1).fit([[1, 2]]), TypeError, "idf must be True or False"),
    (lambda: RennieTransformer().fit([[1, 2]]).transform([[1, 2, 3]]), ValueError,
     "X has 3 features"),
    (lambda: RennieTransformer().transform([[1, 2]]), Exception, "not fitted yet"),
])
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
