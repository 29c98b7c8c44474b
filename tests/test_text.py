"""Tests of nbcourse.text and the Austen passages: scikit-learn as the oracle for counts and
both event models, brute-force sums for the vocabulary and the multinomial likelihood."""

import hashlib
from collections import Counter
from importlib import resources

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import BernoulliNB
from sklearn.naive_bayes import MultinomialNB as SkMultinomialNB

from nbcourse.datasets import AUSTEN_NOVELS, austen_passages
from nbcourse.naive_bayes import ProductOfBernoullisNB
from nbcourse.text import (
    MultinomialNB,
    build_vocabulary,
    count_matrix,
    presence_mutual_information,
    tokenize,
)

AUSTEN_SHA256 = "2aa5a803bcb181d44bc0864081be0771182e09f7a522598d21d2213595a37d60"


@pytest.fixture(scope="module")
def austen():
    return austen_passages()


@pytest.fixture(scope="module")
def austen_counts(austen):
    vocab = build_vocabulary(austen.texts, max_size=1000)
    return count_matrix(austen.texts, vocab), austen.y


# --- tokens, vocabulary, counts ------------------------------------------------------------

def test_tokenize_keeps_inner_apostrophes_and_drops_the_rest():
    assert tokenize("Don't _SAY_ it--Mr. Darcy's 2 dogs'") == ["don't", "say", "it", "mr",
                                                                "darcy's", "dogs"]


def test_tokenize_refuses_a_non_string():
    with pytest.raises(TypeError, match="text must be a str"):
        tokenize(["a", "b"])


def test_vocabulary_is_the_brute_force_ranking(austen):
    docs = austen.texts[:200]
    counts = Counter(w for d in docs for w in d.split())
    vocab = build_vocabulary(docs, max_size=300)
    assert len(vocab) == 300
    got = [counts[w] for w in vocab]
    assert got == sorted(got, reverse=True)  # by decreasing count
    for a, b in zip(vocab, vocab[1:], strict=False):
        assert counts[a] > counts[b] or a < b  # ties alphabetical
    left_out = set(counts) - set(vocab)
    assert max(counts[w] for w in left_out) <= counts[vocab[-1]]


def test_vocabulary_min_count_and_errors():
    assert build_vocabulary(["a a b", "c a b"], min_count=2) == ("a", "b")
    with pytest.raises(ValueError, match="max_size must be an integer >= 1"):
        build_vocabulary(["a"], max_size=0)
    with pytest.raises(TypeError, match="docs must be a sequence of documents"):
        build_vocabulary("a b c")
    with pytest.raises(TypeError, match=r"docs\[1\] must be a str or a sequence of str"):
        build_vocabulary(["a", 3])


def test_count_matrix_agrees_with_countvectorizer(austen):
    docs = austen.texts[::7]
    vocab = build_vocabulary(docs, max_size=500)
    sk = CountVectorizer(vocabulary=list(vocab), tokenizer=str.split, token_pattern=None,
                         lowercase=False)
    assert_array_equal(count_matrix(docs, vocab), sk.transform(docs).toarray())


def test_count_matrix_takes_token_lists_and_refuses_bad_vocabularies():
    assert_array_equal(count_matrix([["x", "y", "x"]], ["x", "z"]), [[2, 0]])
    with pytest.raises(ValueError, match="distinct words, got 'x' more than once"):
        count_matrix(["x"], ["x", "x"])
    with pytest.raises(TypeError, match="vocabulary must be a non-empty sequence"):
        count_matrix(["x"], [])


# --- the two event models against scikit-learn -------------------------------------------

@pytest.mark.parametrize("alpha", [0.01, 0.5, 1.0, 3.0])
def test_multinomial_agrees_with_sklearn(austen_counts, alpha):
    X, y = austen_counts
    ours = MultinomialNB(alpha=alpha).fit(X[::2], y[::2])
    theirs = SkMultinomialNB(alpha=alpha, force_alpha=True).fit(X[::2], y[::2])
    assert_allclose(ours.feature_log_prob_, theirs.feature_log_prob_, rtol=1e-12)
    assert_allclose(ours.predict_proba(X[1::2]), theirs.predict_proba(X[1::2]),
                    rtol=1e-9, atol=1e-12)
    assert_array_equal(ours.predict(X[1::2]), theirs.predict(X[1::2]))


@pytest.mark.parametrize("alpha", [0.1, 1.0])
def test_bernoulli_event_model_agrees_with_sklearn(austen_counts, alpha):
    X, y = austen_counts
    ours = ProductOfBernoullisNB(alpha=alpha, binarize=0).fit(X[::2], y[::2])
    theirs = BernoulliNB(alpha=alpha, binarize=0, force_alpha=True).fit(X[::2], y[::2])
    assert_allclose(ours.predict_proba(X[1::2]), theirs.predict_proba(X[1::2]),
                    rtol=1e-9, atol=1e-12)


def test_multinomial_likelihood_is_the_brute_force_product_over_tokens():
    docs = [["a", "b", "a"], ["b", "c"], ["c", "c", "a"], ["b"]]
    y = [0, 0, 1, 1]
    vocab = ("a", "b", "c")
    m = MultinomialNB(alpha=1.0).fit(count_matrix(docs, vocab), y)
    # θ_cw by hand: class 0 counts a2 b2 c1 (5 tokens), class 1 a1 b1 c2 (4 tokens), + α = 1
    theta = np.array([[3 / 8, 3 / 8, 2 / 8], [2 / 7, 2 / 7, 3 / 7]])
    test = ["c", "a", "c", "b"]
    joint = [0.5 * np.prod([theta[c, vocab.index(w)] for w in test]) for c in range(2)]
    assert_allclose(m.predict_proba(count_matrix([test], vocab))[0],
                    np.array(joint) / sum(joint), rtol=1e-12)


def test_multinomial_with_alpha_zero_gives_exact_zeros_and_refuses_dead_rows():
    X = np.array([[2, 0], [0, 3]])
    m = MultinomialNB(alpha=0.0).fit(X, [0, 1])
    assert_array_equal(m.predict_proba([[1, 0]]), [[1.0, 0.0]])
    with pytest.raises(ValueError, match="posterior is undefined"):
        m.predict_proba([[1, 1]])


def test_multinomial_refuses_what_is_not_a_count():
    with pytest.raises(ValueError, match="Negative values in data"):
        MultinomialNB().fit([[1, -1], [0, 2]], [0, 1])
    with pytest.raises(ValueError, match=r"finite word counts; entry \(0, 1\) is inf"):
        MultinomialNB().fit([[1, np.inf], [0, 2]], [0, 1])
    with pytest.raises(ValueError, match="alpha"):
        MultinomialNB(alpha=-1).fit([[1, 0], [0, 2]], [0, 1])


def test_multinomial_takes_fractional_counts_as_sklearn_does():
    X = np.array([[0.5, 1.25, 0.0], [2.0, 0.0, 0.75], [0.1, 0.2, 3.0]])
    ours = MultinomialNB(alpha=0.5).fit(X, [0, 1, 1])
    theirs = SkMultinomialNB(alpha=0.5, force_alpha=True).fit(X, [0, 1, 1])
    assert_allclose(ours.predict_proba(X[::-1]), theirs.predict_proba(X[::-1]), rtol=1e-12)


# --- the shipped passages ----------------------------------------------------------------

def test_austen_file_is_the_documented_one():
    raw = resources.files("nbcourse").joinpath("data", "austen.csv.gz").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == AUSTEN_SHA256
    readme = resources.files("nbcourse").joinpath("data", "README.md").read_text("utf-8")
    assert AUSTEN_SHA256 in readme


def test_austen_passages_are_100_tokens_250_per_novel_in_text_order(austen):
    assert austen.classes == AUSTEN_NOVELS
    assert np.bincount(austen.y).tolist() == [250] * 6
    assert all(tokenize(t) == t.split() and len(t.split()) == 100 for t in austen.texts)
    for c in range(6):
        pos = austen.position[austen.y == c]
        assert pos[0] == 0 and np.all(np.diff(pos) > 0)


# --- figures ------------------------------------------------------------------------------

def test_vocabulary_curves_draw_the_given_scores_and_refuse_mismatched_shapes():
    import matplotlib.pyplot as plt

    from nbcourse.plots import plot_length_confidence, plot_vocabulary_curves

    ax = plot_vocabulary_curves([10, 100, 1000], {"multinomial": [0.2, 0.5, 0.8],
                                                  "Bernoulli": [0.3, 0.4, 0.9]}, ylabel="acc")
    assert [line.get_label() for line in ax.lines] == ["multinomial", "Bernoulli"]
    assert_array_equal(ax.lines[1].get_ydata(), [0.3, 0.4, 0.9])
    assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)
    plt.close(ax.figure)
    with pytest.raises(ValueError, match=r"curves\['m'\] must have the shape of sizes"):
        plot_vocabulary_curves([10, 100], {"m": [0.1]}, ylabel="acc")
    with pytest.raises(ValueError, match="lengths must be a non-empty 1-d array of positive"):
        plot_length_confidence([0, 10], [0.1, 0.2], [0.1, 0.2], [0.1, 0.2])


def test_austen_file_is_package_data():
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    config = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["nbcourse"]
    assert any(fnmatch("data/austen.csv.gz", p) for p in patterns)


# ---------------------------------------------------------------- mutual information
def test_presence_mutual_information_is_the_feature_selection_score(austen_counts):
    # one implementation, nbcourse.feature_selection.mutual_information, tested there against
    # scikit-learn's mutual_info_classif; the text module's name returns its values unchanged
    from nbcourse.feature_selection import mutual_information

    X, y = austen_counts
    assert_array_equal(presence_mutual_information(X[:, :300], y), mutual_information(X[:, :300], y))


def test_presence_mutual_information_rejects_bad_input():
    with pytest.raises(ValueError, match="X must be a non-empty 2-d array"):
        presence_mutual_information([[1, -1]], [0])
    with pytest.raises(ValueError, match="y must have one label per row"):
        presence_mutual_information([[1, 0], [0, 1]], [0])
