"""Tests of assignment 12: missing values (Duda, Hart & Stork 2001, §2.10; Rubin 1976).

Every expected value is computed here, in the grader's process: posteriors by the brute-force
sum of the joint over every completion of the missing entries (an exact oracle that never
drops a factor), estimates, imputed and marginal posteriors by ``nbcourse.missing``
(``MissingCategoricalNB``, ``impute_mode``). Values and classes are 0-based, a missing value
is the code -1, and ``theta`` has shape (d, C, K).
"""

import itertools

import numpy as np

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

# --- the model and the training table of the notebook -------------------------------------

PI = [0.6, 0.4]
THETA = [[[0.5, 0.3, 0.2], [0.1, 0.3, 0.6]],
         [[0.7, 0.2, 0.1], [0.4, 0.4, 0.2]],
         [[0.2, 0.2, 0.6], [0.5, 0.3, 0.2]]]
X_TRAIN = [[0, 0, 2], [0, -1, 2], [1, 0, 1], [-1, 0, 2], [0, 1, -1], [2, 0, 2], [0, 0, 0],
           [1, -1, 2],
           [2, 1, 0], [2, 2, -1], [-1, 1, 0], [1, 0, 0], [2, -1, 1], [2, 1, 0], [1, 2, -1],
           [-1, 0, 1]]
Y_TRAIN = [0] * 8 + [1] * 8
CASE_Q4 = [-1, 2, 0]


def brute_force(pi, theta, x):
    """Σ over the completions of the -1 entries of π_c Π_j θ[j, c, x_j], normalised."""
    pi, theta, x = np.asarray(pi, float), np.asarray(theta, float), list(x)
    gaps = [j for j, v in enumerate(x) if v == -1]
    total = np.zeros(pi.size)
    for fill in itertools.product(range(theta.shape[2]), repeat=len(gaps)):
        full = list(x)
        for j, v in zip(gaps, fill, strict=True):
            full[j] = v
        total += pi * np.prod([theta[j, :, v] for j, v in enumerate(full)], axis=0)
    return total / total.sum()


def _posterior(pi, theta, x):
    return lambda: brute_force(pi, theta, x)


def _fit(X, y, K, alpha):
    from nbcourse.missing import MissingCategoricalNB  # scikit-learn is loaded only when grading

    return MissingCategoricalNB(alpha=alpha, n_values=K).fit(X, y)


def _estimates(X, y, K, alpha):
    return lambda: np.stack([np.exp(lp) for lp in _fit(X, y, K, alpha).feature_log_prob_])


def _priors(y):
    return lambda: np.exp(_fit([[0]] * len(y), y, 1, 1.0).class_log_prior_)


def _modes(X):
    def modes():
        from nbcourse.missing import impute_mode

        return impute_mode(X, [[-1] * len(X[0])])[0]

    return modes


def _imputed(X, y, case, alpha):
    def post():
        from nbcourse.missing import impute_mode

        return _fit(X, y, 3, alpha).predict_proba(impute_mode(X, [case]))[0]

    return post


def _marginal(X, y, case, alpha):
    return lambda: _fit(X, y, 3, alpha).predict_proba([case])[0]


def _holes(theta_j, q):
    return lambda: np.asarray(theta_j, float) @ np.asarray(q, float)


# --- q6: every student's own model (nbcourse.grading.variants) --------------------------------

def my_model(seed):
    """The priors, probabilities and case the notebook draws for a student whose seed is ``seed``."""
    rng = np.random.default_rng(seed)
    my_pi = rng.dirichlet(np.ones(2))
    my_theta = rng.dirichlet(np.ones(4), size=(3, 2))
    my_x = rng.integers(0, 4, size=3)
    my_x[rng.integers(0, 3)] = -1
    return my_pi, my_theta, my_x


ASSIGNMENT = Assignment(
    name="12-missing-values",
    title="Missing values",
    questions=[
        Question("q1", "leaving the missing factors out", 2, [
            Test("post_q1", Value("post_q1"), close(_posterior(PI, THETA, [2, -1, 0]))),
            Test("one feature missing", Call("marginal_posterior", PI, THETA, [0, 1, -1]),
                 close(_posterior(PI, THETA, [0, 1, -1]))),
        ]),
        Question("q2", "the same by brute force", 2, [
            Test("two features missing", Call("brute_force_posterior", PI, THETA, [-1, 1, -1]),
                 close(_posterior(PI, THETA, [-1, 1, -1]))),
            Test("gap_q2", Value("gap_q2"), close(0.0, rtol=0, atol=1e-9)),
        ]),
        Question("q3", "fitting from the available cases", 2, [
            Test("alpha = 1", Call("available_estimates", X_TRAIN, Y_TRAIN, 2, 3, 1.0),
                 close(_estimates(X_TRAIN, Y_TRAIN, 3, 1.0))),
            Test("priors", Call("priors", Y_TRAIN, 2), close(_priors(Y_TRAIN))),
        ]),
        Question("q4", "mode imputation", 2, [
            Test("training_modes", Call("training_modes", X_TRAIN), close(_modes(X_TRAIN))),
            Test("post_imputed", Value("post_imputed"),
                 close(_imputed(X_TRAIN, Y_TRAIN, CASE_Q4, 1.0))),
            Test("post_marginal", Value("post_marginal"),
                 close(_marginal(X_TRAIN, Y_TRAIN, CASE_Q4, 1.0))),
        ]),
        Question("q5", "when a hole is evidence", 2, [
            Test("holes_mcar", Value("holes_mcar"), close(_holes(THETA[0], [0.3, 0.3, 0.3]))),
            Test("holes_mnar", Value("holes_mnar"), close(_holes(THETA[0], [0.0, 0.0, 0.5]))),
        ]),
        Question("q6", "your own case", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_post: form", Value("my_post"), has_form("my_post", (2,), 0, 1), weight=0.5),
        ]),
    ],
)
