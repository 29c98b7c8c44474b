"""Hidden tests of assignment 03-real-data: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

import numpy as np

from nbcourse.grading import Call, Test, Value, close, personal


def _random_bits(seed, n, d, share=0.4):
    """A seeded 0/1 sample with labels; every column varies and both classes occur."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < share).astype(int)
    X[0], X[1] = 1, 0  # no constant column
    y = np.r_[0, 1, rng.integers(0, 2, n - 2)]
    return X.tolist(), y.tolist()


X_H1, Y_H1 = _random_bits(6101, 40, 6)
X_H2, Y_H2 = _random_bits(6102, 25, 5, share=0.2)
P_H = [0.93, 0.05, 0.41, 0.62]
Q_H = [0.12, 0.33, 0.47, 0.018]
W_BIG, W0_BIG = [800.0, -750.0, 3.5, -2.25, 40.0], -20.0


def _my_g(seed):
    """g(x) of the training fit for the e-mail features drawn from ``seed``."""
    x = np.random.default_rng(seed).integers(0, 2, 15)
    w, w0 = _email_fit()
    return float(np.dot(w, x) + w0)


HIDDEN = {
    "q1": [
        Test("a random sample of six features", Call("laplace_estimates", X_H1, Y_H1),
             close(lambda: _estimates(X_H1, Y_H1)), hidden=True),
        Test("prior1_hat", Value("prior1_hat"), close(_email_value(
            lambda Xt, yt, *_: _estimates(Xt, yt)[2]), rtol=1e-9), hidden=True),
    ],
    "q2": [
        Test("four features, a small prior", Call("discriminant", P_H, Q_H, 0.085),
             close(lambda: two_class_discriminant(P_H, Q_H, 0.085)), hidden=True),
        Test("w0", Value("w0"), close(lambda: _email_fit()[1], rtol=1e-6), hidden=True),
    ],
    "q3": [
        Test("a random sample", Call("error_rate", X_H1, Y_H1, [0.7, -1.1, 0.4, 0.9, -0.3, 1.6],
                                     -0.45),
             close(_error(X_H1, Y_H1, [0.7, -1.1, 0.4, 0.9, -0.3, 1.6], -0.45)), hidden=True),
        Test("test_error", Value("test_error"), close(_email_value(
            lambda Xt, yt, Xs, ys, w, w0, names: _error(Xs, ys, w, w0)()), rtol=1e-9),
             hidden=True),
    ],
    "q4": [
        Test("large weights, no overflow", Call("log_loss", X_H2, Y_H2, W_BIG, W0_BIG),
             close(_loss(X_H2, Y_H2, W_BIG, W0_BIG), rtol=1e-9), hidden=True),
        Test("test_log_loss", Value("test_log_loss"), close(_email_value(
            lambda Xt, yt, Xs, ys, w, w0, names: _loss(Xs, ys, w, w0)()), rtol=1e-6),
             hidden=True),
    ],
    "q5": [
        Test("a random sample", Call("max_correlation", X_H1), close(_max_correlation(X_H1)),
             hidden=True),
        Test("corr_other", Value("corr_other"), close(_email_value(
            lambda Xt, yt, *_: _max_correlation(Xt[yt == 1])()), rtol=1e-6), hidden=True),
    ],
    "q6": [
        Test("your own numbers", (Value("STUDENT_ID"), Value("my_g")),
             personal("03-real-data", "q6", _my_g, rtol=1e-6), weight=3, hidden=True),
    ],
}
