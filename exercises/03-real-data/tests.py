"""Tests of assignment 03: naive Bayes on the e-mail data (Duda, Hart & Stork 2001, §2.9.1).

Every expected value is computed here, in the grader's process: the e-mails and their split by
``nbcourse.datasets.email_features`` and scikit-learn's ``train_test_split`` with the seed of the
chapter *Binary features in real data* (the notebook's first cells hold the same e-mails as
pattern counts), the estimates by ``estimate_binary(alpha=1)``, the weights by
``two_class_discriminant``, the decisions by ``decide``, the log loss by scipy's
``log_expit`` (exact for large ``|g|``) and the correlations by ``numpy.corrcoef``. Classes are
0-based: class 0 is omega_1 (spam).
"""

from functools import cache

import numpy as np

from nbcourse import decide, estimate_binary, linear_discriminant, two_class_discriminant
from nbcourse.datasets import email_features
from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    close,
    equal,
    has_form,
    student_id_is_set,
)

SPLIT_SEED, TEST_SIZE = 2012, 0.3  # as in the chapter


@cache
def _email():
    """(X_train, y_train, X_test, y_test, names) with label 0 = spam."""
    from sklearn.model_selection import train_test_split

    X, spam, names = email_features()
    y = 1 - spam
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=TEST_SIZE, stratify=y,
                                                        random_state=SPLIT_SEED)
    return X_train, y_train, X_test, y_test, names


def _estimates(X, y):
    P, priors = estimate_binary(X, y, alpha=1.0)
    return P[0], P[1], float(priors[0])


def _email_fit():
    X_train, y_train, *_ = _email()
    return two_class_discriminant(*_estimates(X_train, y_train))


def _error(X, y, w, w0):
    return lambda: float(np.mean(decide(X, w, w0) != np.asarray(y)))


def _loss(X, y, w, w0):
    def loss():  # -ln sigma(g) for class 0 and -ln sigma(-g) for class 1, by scipy
        from scipy.special import log_expit

        g = linear_discriminant(X, w, w0)
        return float(-np.mean(np.where(np.asarray(y) == 0, log_expit(g), log_expit(-g))))

    return loss


def _max_correlation(X):
    def best():
        r = np.corrcoef(np.asarray(X, dtype=float), rowvar=False)
        i, j = np.triu_indices(r.shape[0], 1)
        k = int(np.argmax(np.abs(r[i, j])))
        return [float(r[i[k], j[k]]), int(i[k]), int(j[k])]

    return best


def _email_value(compute):
    """Expected value on the e-mails: compute(X_train, y_train, X_test, y_test, w, w0, names)."""
    def value():
        X_train, y_train, X_test, y_test, names = _email()
        w, w0 = _email_fit()
        return compute(X_train, y_train, X_test, y_test, w, w0, names)

    return value


# A small hand-made sample: class 0 in the first four rows; feature 2 never 1 in class 0.
X_SMALL = [[1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 1], [1, 0, 1]]
Y_SMALL = [0, 0, 0, 0, 1, 1, 1]
P_SMALL, Q_SMALL, PRIOR_SMALL = [0.7, 0.4, 0.1], [0.2, 0.5, 0.6], 0.3
W_SMALL, W0_SMALL = [1.5, -0.5, -2.0], 0.25
X_CORR = [[1, 0, 1, 0], [1, 1, 1, 0], [0, 0, 0, 1], [0, 1, 0, 1], [1, 0, 0, 0], [0, 1, 1, 1]]

ASSIGNMENT = Assignment(
    name="03-real-data",
    title="Naive Bayes on real e-mail",
    questions=[
        Question("q1", "Laplace estimates", 2, [
            Test("a small sample", Call("laplace_estimates", X_SMALL, Y_SMALL),
                 close(lambda: _estimates(X_SMALL, Y_SMALL))),
            Test("p_hat", Value("p_hat"), close(_email_value(
                lambda Xt, yt, *_: _estimates(Xt, yt)[0]), rtol=1e-6)),
            Test("q_hat", Value("q_hat"), close(_email_value(
                lambda Xt, yt, *_: _estimates(Xt, yt)[1]), rtol=1e-6)),
        ]),
        Question("q2", "weights and bias", 2, [
            Test("three features", Call("discriminant", P_SMALL, Q_SMALL, PRIOR_SMALL),
                 close(lambda: two_class_discriminant(P_SMALL, Q_SMALL, PRIOR_SMALL))),
            Test("w", Value("w"), close(lambda: _email_fit()[0], rtol=1e-6)),
            Test("most_negative", Value("most_negative"), equal(_email_value(
                lambda Xt, yt, Xs, ys, w, w0, names: names[int(np.argmin(w))]))),
        ]),
        Question("q3", "error rate", 2, [
            Test("a small sample", Call("error_rate", X_SMALL, Y_SMALL, W_SMALL, W0_SMALL),
                 close(_error(X_SMALL, Y_SMALL, W_SMALL, W0_SMALL))),
            Test("baseline_error", Value("baseline_error"), close(_email_value(
                lambda Xt, yt, Xs, ys, *_: float(np.mean(ys == 0))), rtol=1e-9)),
        ]),
        Question("q4", "log loss", 2, [
            Test("a small sample", Call("log_loss", X_SMALL, Y_SMALL, W_SMALL, W0_SMALL),
                 close(_loss(X_SMALL, Y_SMALL, W_SMALL, W0_SMALL))),
        ]),
        Question("q5", "correlation within a class", 2, [
            Test("four features", Call("max_correlation", X_CORR),
                 close(_max_correlation(X_CORR))),
        ]),
        Question("q6", "your own e-mail", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_g: form", Value("my_g"), has_form("my_g", ()), weight=0.5),
        ]),
    ],
)
