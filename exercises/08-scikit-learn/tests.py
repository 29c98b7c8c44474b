"""Tests of assignment 08: naive Bayes pipelines in scikit-learn (Williams 2024).

Every expected value is computed here, in the grader's process, without scikit-learn: the
categorical posteriors by ``nbcourse.CategoricalNB``, the PoB posteriors by
``nbcourse.ProductOfBernoullisNB`` on ``nbcourse.one_hot`` codes (with the first column of each
two-valued feature removed for ``drop="if_binary"``), the hair and eye colour table by
``nbcourse.hair_eye_color``, and MultinomialNB's posterior by its closed form written out
below.  Codes, classes and columns are 0-based; in every data set each value ``0..V_f-1`` of
each feature occurs in the training rows.
"""

import numpy as np

from nbcourse import CategoricalNB, ProductOfBernoullisNB, hair_eye_color, one_hot
from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    close,
    has_form,
    student_id_is_set,
)

X_PUB = [[0, 1], [1, 0], [2, 1], [0, 0], [1, 1], [2, 0], [0, 1], [2, 1], [1, 0]]
Y_PUB = [0, 0, 0, 0, 1, 1, 1, 1, 1]
X_NEW = [[0, 0], [2, 1], [1, 1]]


def _codes(X):
    return np.asarray(X, dtype=float).astype(np.int64)


def _bits(X_train, X, drop_binary=False):
    """One-hot code of X with the categories of X_train; drop_binary: as drop="if_binary"."""
    V = _codes(X_train).max(axis=0) + 1
    B = one_hot(_codes(X), n_values=V)
    if not drop_binary:
        return B
    start = np.concatenate([[0], np.cumsum(V)[:-1]])
    keep = [c for s, v in zip(start, V, strict=True) for c in range(s, s + v) if v != 2 or c == s + 1]
    return B[:, keep]


def _categorical(X_train, y_train, X_test, alpha):
    return lambda: CategoricalNB(alpha=alpha).fit(_codes(X_train), y_train).predict_proba(_codes(X_test))


def _pob(X_train, y_train, X_test, alpha, drop_binary=False):
    def posterior():
        model = ProductOfBernoullisNB(alpha=alpha).fit(_bits(X_train, X_train, drop_binary), y_train)
        return model.predict_proba(_bits(X_train, X_test, drop_binary))

    return posterior


def _all_off(X_train, y_train, alpha):
    def posterior():
        model = ProductOfBernoullisNB(alpha=alpha).fit(_bits(X_train, X_train), y_train)
        return model.predict_proba(np.zeros((1, model.n_features_in_), dtype=np.int64))[0]

    return posterior


def _multinomial(X_train, y_train, X_test, alpha):
    """MultinomialNB on one-hot codes: theta_cv = (N_cv + alpha) / (d N_c + alpha sum_f V_f)."""

    def posterior():
        B, T = _bits(X_train, X_train), _bits(X_train, X_test)
        y = np.asarray(y_train)
        classes = np.unique(y)
        counts = np.array([B[y == c].sum(axis=0) for c in classes], dtype=float)
        log_theta = np.log(counts + alpha) - np.log(counts.sum(axis=1, keepdims=True) + alpha * B.shape[1])
        log_prior = np.log([np.mean(y == c) for c in classes])
        joint = T @ log_theta.T + log_prior
        return np.exp(joint - np.logaddexp.reduce(joint, axis=1, keepdims=True))

    return posterior


def _hair_eye_pairs():
    """Posterior of Female for the 16 (hair, eye) records, categorical and PoB, alpha = 1."""
    X, y = hair_eye_color().to_rows(target="Sex")
    grid = np.array([[h, e] for h in range(4) for e in range(4)])
    return _categorical(X, y, grid, 1.0)()[:, 1], _pob(X, y, grid, 1.0)()[:, 1]


def _share_more_extreme():
    p_cat, p_pob = _hair_eye_pairs()
    return float(np.mean(np.abs(p_pob - 0.5) > np.abs(p_cat - 0.5)))


def _largest_gap():
    p_cat, p_pob = _hair_eye_pairs()
    return float(np.max(np.abs(p_pob - p_cat)))


ASSIGNMENT = Assignment(
    name="08-scikit-learn",
    title="Naive Bayes pipelines in scikit-learn",
    questions=[
        Question("q1", "the categorical model", 2, [
            Test("nine records, alpha = 1", Call("categorical_posterior", X_PUB, Y_PUB, X_NEW, 1.0),
                 close(_categorical(X_PUB, Y_PUB, X_NEW, 1.0))),
        ]),
        Question("q2", "the product of Bernoullis", 2, [
            Test("nine records, alpha = 1", Call("pob_posterior", X_PUB, Y_PUB, X_NEW, 1.0),
                 close(_pob(X_PUB, Y_PUB, X_NEW, 1.0))),
        ]),
        Question("q3", "one column for a binary feature", 2, [
            Test("nine records, alpha = 1", Call("pob_posterior_if_binary", X_PUB, Y_PUB, X_NEW, 1.0),
                 close(_pob(X_PUB, Y_PUB, X_NEW, 1.0, drop_binary=True))),
        ]),
        Question("q4", "more extreme posteriors on real records", 2, [
            Test("share_more_extreme", Value("share_more_extreme"), close(_share_more_extreme)),
            Test("largest_gap", Value("largest_gap"), close(_largest_gap, rtol=1e-6)),
        ]),
        Question("q5", "an unknown category, ignored by the encoder", 2, [
            Test("nine records, alpha = 1", Call("all_off_posterior", X_PUB, Y_PUB, 1.0),
                 close(_all_off(X_PUB, Y_PUB, 1.0))),
        ]),
        Question("q6", "MultinomialNB on one-hot codes", 2, [
            Test("nine records, alpha = 1", Call("multinomial_posterior", X_PUB, Y_PUB, X_NEW, 1.0),
                 close(_multinomial(X_PUB, Y_PUB, X_NEW, 1.0))),
        ]),
        Question("q7", "your own records", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_post: form", Value("my_post"), has_form("my_post", (2, 2), 0, 1, rows_sum_to_one=True), weight=0.5),
        ]),
    ],
)
