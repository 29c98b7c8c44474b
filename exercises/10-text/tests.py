"""Tests of assignment 10: text and the two event models (McCallum & Nigam 1998).

Every expected value is computed here, in the grader's process, by an independent route:
counts by ``nbcourse.text.count_matrix``, estimates and posteriors by refitting
``nbcourse.text.MultinomialNB`` and ``nbcourse.ProductOfBernoullisNB(binarize=0)`` (which
scikit-learn's ``MultinomialNB`` and ``BernoulliNB`` confirm in ``tests/test_text.py``).
Words, classes and columns are 0-based; parameter tables have one row per class.
"""

import numpy as np

from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    Verdict,
    close,
    error_verdict,
    student_id_is_set,
)

VOCABULARY = ["the", "anne", "captain", "navy", "sea", "emma", "ball", "party"]  # as in the notebook
TRAIN_DOCS = [
    ["the", "captain", "sea", "sea", "navy"],
    ["anne", "the", "captain", "navy"],
    ["the", "sea", "anne", "sea", "the"],
    ["emma", "ball", "the", "party"],
    ["the", "party", "party", "emma"],
    ["ball", "emma", "the", "the", "anne"],
    ["emma", "the", "party", "ball", "the"],
]
Y_TRAIN = [0, 0, 0, 1, 1, 1, 1]
PASSAGE = ["the", "captain", "emma", "party", "sea", "the"]


def _counts(docs, vocabulary=VOCABULARY):
    from nbcourse.text import count_matrix  # scikit-learn is loaded only when grading needs it

    return count_matrix(docs, vocabulary)


def _models(X, y, alpha):
    from nbcourse.naive_bayes import ProductOfBernoullisNB
    from nbcourse.text import MultinomialNB

    return (MultinomialNB(alpha=alpha).fit(X, y),
            ProductOfBernoullisNB(alpha=alpha, binarize=0).fit(X, y))


def _theta(X, y, alpha, which):
    return lambda: np.exp(_models(np.asarray(X), y, alpha)[which].feature_log_prob_)


def _log_post(m, X, y, alpha, which):
    return lambda: _models(np.asarray(X), y, alpha)[which].predict_log_proba([m])[0]


def _post(m, X, y, alpha, which):
    return lambda: np.exp(_log_post(m, X, y, alpha, which)())


def _odds(docs, which, alpha=1.0):
    def pair():
        X = _counts(TRAIN_DOCS)
        out = []
        for doc in docs:
            lp = _models(X, Y_TRAIN, alpha)[which].predict_log_proba(_counts([doc]))[0]
            out.append(float(lp[0] - lp[1]))
        return out
    return pair


LONGER = PASSAGE + ["sea"] * 3


def _more_confident(result):
    """Reasoning check: the name of the model whose largest posterior for PASSAGE is larger."""
    if not result["ok"]:
        return error_verdict(result)
    X, m = _counts(TRAIN_DOCS), _counts([PASSAGE])[0]
    tops = [np.exp(_log_post(m, X, Y_TRAIN, 1.0, k)()).max() for k in (0, 1)]
    right = "multinomial" if tops[0] > tops[1] else "Bernoulli"
    if result["value"] == right:
        return Verdict(True, "correct")
    return Verdict(False, 'more_confident must be "multinomial" or "Bernoulli": the model with the '
                          "larger top posterior for passage")


# --- q6: every student's own passage (nbcourse.grading.variants) ----------------------------

def my_passage(seed):
    """The passage the notebook draws for a student whose seed is ``seed``."""
    rng = np.random.default_rng(seed)
    return [VOCABULARY[k] for k in rng.integers(0, len(VOCABULARY), size=7)]


def _log_post_form(result):
    """Shape (2,), finite, non-positive, exponentials summing to 1: form only, not the numbers."""
    if not result["ok"]:
        return error_verdict(result)
    v = np.asarray(result["value"], dtype=float) if isinstance(result["value"], list) else None
    if v is None or v.shape != (2,):
        return Verdict(False, "my_log_post must have shape (2,), one log posterior per class")
    if not (np.all(np.isfinite(v)) and np.all(v <= 0) and np.isclose(np.exp(v).sum(), 1.0)):
        return Verdict(False, "my_log_post must hold logarithms of probabilities that sum to 1")
    return Verdict(True, "correct")


X_TRAIN = _counts(TRAIN_DOCS).tolist()
M_PASSAGE = _counts([PASSAGE])[0].tolist()

ASSIGNMENT = Assignment(
    name="10-text",
    title="Text and the two event models",
    questions=[
        Question("q1", "document-term counts", 2, [
            Test("two documents", Call("count_matrix", [["b", "a", "b", "z"], ["a"]], ["a", "b"],
                                       arrays=False),
                 close(lambda: _counts([["b", "a", "b", "z"], ["a"]], ["a", "b"]))),
            Test("X_train", Value("X_train"), close(lambda: _counts(TRAIN_DOCS))),
        ]),
        Question("q2", "the two models' estimates", 2, [
            Test("multinomial, alpha = 1", Call("multinomial_estimates", X_TRAIN, Y_TRAIN, 1.0, 2),
                 close(_theta(X_TRAIN, Y_TRAIN, 1.0, 0))),
            Test("Bernoulli, alpha = 1", Call("bernoulli_estimates", X_TRAIN, Y_TRAIN, 1.0, 2),
                 close(_theta(X_TRAIN, Y_TRAIN, 1.0, 1))),
        ]),
        Question("q3", "a passage's log posterior under each model", 2, [
            Test("post_mult", Value("post_mult"), close(_post(M_PASSAGE, X_TRAIN, Y_TRAIN, 1.0, 0),
                                                        rtol=1e-6)),
            Test("post_bern", Value("post_bern"), close(_post(M_PASSAGE, X_TRAIN, Y_TRAIN, 1.0, 1),
                                                        rtol=1e-6)),
        ]),
        Question("q4", "which model is more confident", 2, [
            Test("more_confident", Value("more_confident"), _more_confident),
        ]),
        Question("q5", "repeating a word", 2, [
            Test("odds_mult", Value("odds_mult"), close(_odds([PASSAGE, LONGER], 0), rtol=1e-6)),
        ]),
        Question("q6", "your own passage", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_log_post: form", Value("my_log_post"), _log_post_form, weight=0.5),
        ]),
    ],
)
