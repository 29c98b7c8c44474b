"""Hidden tests of assignment 02-binary-discriminant: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

import numpy as np

from nbcourse import cube_corners, two_class_discriminant
from nbcourse.grading import Call, Test, Value, close, equal, personal

EX3B_P, EX3B_Q = [0.8, 0.8, 0.5], [0.5, 0.5, 0.5]


def _decisions(p, q, prior1=0.5):
    """1 where g(x) > 0 (decide ω_1), 2 otherwise, over the cube corners in order."""
    w, w0 = two_class_discriminant(p, q, prior1)
    return [1 if g > 0 else 2 for g in cube_corners(len(p)) @ w + w0]

X_BIG, Y_BIG = _data(11, 201, 8)
P6, Q6 = _random_pq(3, 6)
P4, Q4 = _random_pq(5, 4)


def _my_posterior(seed):
    """P(omega_1 | x) by Bayes' rule for the numbers the notebook draws from ``seed``."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.05, 0.95, 4).round(2)
    q = rng.uniform(0.05, 0.95, 4).round(2)
    prior1 = round(float(rng.uniform(0.2, 0.8)), 2)
    x = rng.integers(0, 2, 4)
    joint1 = prior1 * np.prod(np.where(x == 1, p, 1 - p))
    joint2 = (1 - prior1) * np.prod(np.where(x == 1, q, 1 - q))
    return joint1 / (joint1 + joint2)


HIDDEN = {
    'q1': [
        Test("six random features", Call("log_odds_weights", P6, Q6),
             close(_weights(P6, Q6)), hidden=True),
        Test("p equal to q gives zero weights", Call("log_odds_weights", [0.3, 0.7],
                                                     [0.3, 0.7]),
             close([0.0, 0.0]), hidden=True),
    ],
    'q2': [
        Test("four random features, prior 0.7", Call("bias", P4, Q4, 0.7),
             close(_bias(P4, Q4, 0.7)), hidden=True),
    ],
    'q3': [
        Test("ex3_decisions", Value("ex3_decisions"),
             close(lambda: _decisions(EX3_P, EX3_Q), atol=0.0), hidden=True),
        Test("ex3b_w0 (third feature uninformative)", Value("ex3b_w0"),
             close(_bias(EX3B_P, EX3B_Q, 0.5), rtol=0, atol=1e-4), hidden=True),
    ],
    'q4': [
        Test("201 samples, alpha = 0.5", Call("laplace_estimates", X_BIG, Y_BIG, 0.5),
             close(_estimates(X_BIG, Y_BIG, 0.5)), hidden=True),
    ],
    'q6': [
        Test("uninformative feature (0-based index)", Value("useless_feature"),
             equal(1), hidden=True),
    ],
    "q7": [
        Test("your own numbers", (Value("STUDENT_ID"), Value("my_posterior")),
             personal("02-binary-discriminant", "q7", _my_posterior, rtol=1e-6), weight=3, hidden=True),
    ],
}
