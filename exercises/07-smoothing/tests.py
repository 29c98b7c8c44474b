"""Tests of assignment 07: estimation and smoothing (Lidstone 1920; Williams 2024).

Every expected value is computed here, in the grader's process: estimates by
``nbcourse.smoothing`` (``lidstone``, ``pob_bit_probabilities``), posteriors and the
leave-one-out log loss by refitting ``nbcourse.CategoricalNB`` (a route independent of the
count arithmetic the notebook asks for). Values and classes are 0-based; count tables have
one row per class.
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
from nbcourse.smoothing import lidstone, pob_bit_probabilities

# --- q1-q3: estimates from counts ---------------------------------------------------------

COUNTS = [[3, 1, 0], [2, 2, 4]]
EYE_COUNTS = [[8, 0, 2, 0], [4, 5, 6, 2], [1, 1, 1, 1], [2, 6, 0, 1]]  # as in the notebook


def _lidstone(counts, alpha):
    return lambda: lidstone(counts, alpha)


def _bits(counts, alpha):
    return lambda: pob_bit_probabilities(counts, alpha)


def _bit_sums(counts, alpha):
    return lambda: pob_bit_probabilities(counts, alpha).sum(axis=1)


# --- q4, q5: posteriors and leave-one-out log loss ----------------------------------------

X_TRAIN = [0, 0, 0, 1, 2, 0, 1, 1, 3, 1, 2, 3, 3, 2, 0, 3, 3, 1]  # as in the notebook
Y_TRAIN = [0] * 6 + [1] * 5 + [2] * 7
ALPHAS = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]


def _fit(x_train, y_train, alpha, K):
    from nbcourse import CategoricalNB  # scikit-learn is loaded only when grading needs it

    return CategoricalNB(alpha=alpha, n_values=K).fit(np.asarray(x_train)[:, None], y_train)


def _posterior(x_train, y_train, x, alpha, K):
    return lambda: _fit(x_train, y_train, alpha, K).predict_proba([[x]])[0]


def _loo(x_train, y_train, alpha, K):
    """Mean of -log p(y_n | x_n) with the model refitted without case n."""

    def loss():
        x, y = np.asarray(x_train), np.asarray(y_train)
        total = 0.0
        for n in range(x.size):
            keep = np.arange(x.size) != n
            model = _fit(x[keep], y[keep], alpha, K)
            p = model.predict_proba([[x[n]]])[0]
            total -= np.log(p[list(model.classes_).index(y[n])])
        return total / x.size

    return loss


# --- q6: every student's own counts (nbcourse.grading.variants) ------------------------------

def my_counts(seed):
    """The counts the notebook draws for a student whose seed is ``seed``."""
    return np.random.default_rng(seed).integers(0, 8, size=(2, 5))


def _rows_sum_to_one(result):
    """Shape (2, 5), entries in (0, 1), each row summing to 1: form only, not the numbers."""
    if not result["ok"]:
        return error_verdict(result)
    theta = np.asarray(result["value"], dtype=float) if isinstance(result["value"], list) else None
    if theta is None or theta.shape != (2, 5):
        return Verdict(False, "my_theta must have shape (2, 5), one row per class")
    if not (np.all((theta > 0) & (theta < 1)) and np.allclose(theta.sum(axis=1), 1.0)):
        return Verdict(False, "each row of my_theta must be probabilities in (0, 1) summing to 1")
    return Verdict(True, "correct")


ASSIGNMENT = Assignment(
    name="07-smoothing",
    title="Estimation and smoothing",
    questions=[
        Question("q1", "maximum likelihood from counts", 2, [
            Test("two classes, K = 3", Call("ml_estimates", COUNTS), close(_lidstone(COUNTS, 0.0))),
        ]),
        Question("q2", "the Lidstone estimate", 2, [
            Test("alpha = 1 (Laplace)", Call("lidstone", COUNTS, 1.0), close(_lidstone(COUNTS, 1.0))),
            Test("alpha = 0.5", Call("lidstone", EYE_COUNTS, 0.5), close(_lidstone(EYE_COUNTS, 0.5))),
        ]),
        Question("q3", "smoothing the one-hot bits", 2, [
            Test("alpha = 1", Call("pob_bits", COUNTS, 1.0), close(_bits(COUNTS, 1.0))),
            Test("bit_sums", Value("bit_sums"), close(_bit_sums(EYE_COUNTS, 1.0), rtol=1e-6)),
        ]),
        Question("q4", "a zero count vetoes a class", 2, [
            Test("post_ml", Value("post_ml"),
                 close(_posterior(X_TRAIN, Y_TRAIN, 0, 0.0, 4), rtol=1e-6, atol=1e-9)),
            Test("x = 1, alpha = 1", Call("posterior", X_TRAIN, Y_TRAIN, 1, 1.0, 4, 3),
                 close(_posterior(X_TRAIN, Y_TRAIN, 1, 1.0, 4))),
        ]),
        Question("q5", "choosing alpha by leave-one-out log loss", 2, [
            Test("alpha = 1", Call("loo_log_loss", X_TRAIN, Y_TRAIN, 1.0, 4, 3),
                 close(_loo(X_TRAIN, Y_TRAIN, 1.0, 4))),
        ]),
        Question("q6", "your own counts", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_theta: shape and rows", Value("my_theta"), _rows_sum_to_one, weight=0.5),
        ]),
    ],
)
