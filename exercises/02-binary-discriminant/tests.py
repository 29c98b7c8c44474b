"""Tests of assignment 02: the two-class linear discriminant for independent binary features.

Duda, Hart & Stork (2001), §2.9.1. Every expected value is computed here, in the grader's
process, by nbcourse (``two_class_discriminant``, ``estimate_binary``, ``cube_corners``);
the student's kernel only supplies plain values.
"""

import numpy as np

from nbcourse import estimate_binary, two_class_discriminant
from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    Verdict,
    close,
    error_verdict,
    has_form,
    student_id_is_set,
)

EX3_P, EX3_Q = [0.8, 0.8, 0.8], [0.5, 0.5, 0.5]


def _random_pq(seed, d):
    rng = np.random.default_rng(seed)
    return (rng.uniform(0.02, 0.98, d).round(6).tolist(),
            rng.uniform(0.02, 0.98, d).round(6).tolist())


def _weights(p, q):
    return lambda: two_class_discriminant(p, q)[0]


def _bias(p, q, prior1):
    return lambda: two_class_discriminant(p, q, prior1)[1]


def _data(seed, n, d):
    rng = np.random.default_rng(seed)
    y = np.repeat([1, 2], [n // 2, n - n // 2])
    X = (rng.random((n, d)) < np.where(y[:, None] == 1, 0.7, 0.3)).astype(int)
    return X.tolist(), y.tolist()


def _estimates(X, y, alpha):
    return lambda: estimate_binary(X, y, alpha)


def _is_prior_for_omega2(result):
    """Reasoning check: a prior P(ω_1) in (0, 1) under which x = (1, 1, 0) goes to ω_2."""
    if not result["ok"]:
        return error_verdict(result)
    value = result["value"]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Verdict(False, "prior1_for_omega2 must be a number")
    if not 0.0 < value < 1.0:
        return Verdict(False, f"a prior must lie strictly between 0 and 1, got {value!r}")
    w, w0 = two_class_discriminant(EX3_P, EX3_Q, float(value))
    g = float(np.dot(w, [1, 1, 0]) + w0)
    if g < -1e-9:
        return Verdict(True, "correct: g(x) < 0, so x is assigned to ω_2")
    return Verdict(False, f"with P(ω_1) = {value!r}, g(1, 1, 0) = {g:.4g} ≥ 0: still ω_1")


X_SMALL, Y_SMALL = [[1, 0], [1, 1], [0, 0], [0, 1]], [1, 1, 2, 2]
X_MID, Y_MID = _data(7, 40, 5)

ASSIGNMENT = Assignment(
    name="02-binary-discriminant",
    title="A linear discriminant from independent binary features",
    questions=[
        Question("q1", "log-odds weights w_i", 2, [
            Test("Example 3 weights", Call("log_odds_weights", EX3_P, EX3_Q),
                 close(_weights(EX3_P, EX3_Q))),
            Test("two features", Call("log_odds_weights", [0.9, 0.2], [0.3, 0.6]),
                 close(_weights([0.9, 0.2], [0.3, 0.6]))),
        ]),
        Question("q2", "bias w_0", 2, [
            Test("Example 3 bias, equal priors", Call("bias", EX3_P, EX3_Q, 0.5),
                 close(_bias(EX3_P, EX3_Q, 0.5))),
            Test("unequal priors", Call("bias", [0.9, 0.2], [0.3, 0.6], 0.25),
                 close(_bias([0.9, 0.2], [0.3, 0.6], 0.25))),
        ]),
        Question("q3", "the numbers of Example 3", 2, [
            # printed to 4 decimals in the notebook: a value typed from there passes
            Test("ex3_w", Value("ex3_w"), close(_weights(EX3_P, EX3_Q), rtol=0, atol=1e-4)),
            Test("ex3_w0", Value("ex3_w0"), close(_bias(EX3_P, EX3_Q, 0.5), rtol=0, atol=1e-4)),
        ]),
        Question("q4", "Laplace estimates", 2, [
            Test("four samples, alpha = 1", Call("laplace_estimates", X_SMALL, Y_SMALL, 1.0),
                 close(_estimates(X_SMALL, Y_SMALL, 1.0))),
            Test("maximum likelihood, alpha = 0", Call("laplace_estimates", X_MID, Y_MID, 0.0),
                 close(_estimates(X_MID, Y_MID, 0.0))),
        ]),
        Question("q5", "a prior that changes the decision", 1, [
            Test("x = (1, 1, 0) is assigned to ω_2", Value("prior1_for_omega2"),
                 _is_prior_for_omega2),
        ]),
        Question("q6", "a feature that never matters", 1, [
        ]),
        Question("q7", "your own posterior, generative and discriminative", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_posterior: form", Value("my_posterior"), has_form("my_posterior", (), 0, 1), weight=0.5),
        ]),
    ],
)
