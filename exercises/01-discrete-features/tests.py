"""Tests of assignment 01: discrete features (Duda, Hart & Stork 2001, §2.9, opening).

Every expected value is computed here, in the grader's process: counts by nbcourse
(``n_feature_vectors``, ``n_parameters_joint``, ``n_parameters_naive``), estimates and
posteriors by ``estimate_binary`` and ``log_posterior_binary``, the expected number of
empty cells by ``expected_empty_cells``, the simulated sample by ``sample_uniform_codes``
(the same generator call as the notebook's) and ``count_empty_cells``, and the posterior
of a full table by Bayes' rule written out below. Feature values and classes are 0-based.
"""

import numpy as np

from nbcourse import (
    count_empty_cells,
    estimate_binary,
    expected_empty_cells,
    log_posterior_binary,
    n_feature_vectors,
    n_parameters_joint,
    n_parameters_naive,
    sample_uniform_codes,
)
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

# --- q1, q2: counting -------------------------------------------------------------------


def _n_vectors(V):
    return lambda: n_feature_vectors(V)


def _n_parameters(V, c):
    return lambda: [n_parameters_joint(V, n_classes=c), n_parameters_naive(V, n_classes=c)]


# --- q3: Bayes' rule with a full table --------------------------------------------------

SPAM_P = [  # P[c, links, attachment]; c = 0 spam, 1 ham; each class's table sums to 1
    [[0.05, 0.05], [0.15, 0.10], [0.40, 0.25]],
    [[0.35, 0.10], [0.25, 0.10], [0.15, 0.05]],
]
SPAM_PRIOR = [0.3, 0.7]


def _random_table(seed, c, V):
    """c class-conditional tables of shape V, each drawn from a flat Dirichlet; a zero cell."""
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(int(np.prod(V))), size=c).reshape(c, *V)
    P[0, 1, 2, 0] = 0.0
    P[0] /= P[0].sum()
    return P.round(12).tolist()


def _posterior_pmf(P, prior, x):
    """Bayes' rule: P(omega_i | x) = P(x | omega_i) P(omega_i) / sum_k P(x | omega_k) P(omega_k)."""

    def posterior():
        table = np.asarray(P, dtype=float)
        joint = table[(slice(None), *x)] * np.asarray(prior, dtype=float)
        return joint / joint.sum()

    return posterior


# --- q4, q5: maximum likelihood against Laplace ------------------------------------------

X_SMALL = [[1, 1, 0, 1], [1, 0, 1, 1], [1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1], [1, 1, 1, 1],
           [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 1], [0, 0, 0, 0]]
Y_SMALL = [0] * 6 + [1] * 6
X_NEW = [1, 1, 0, 0]


def _estimate(alpha, part):
    return lambda: estimate_binary(X_SMALL, Y_SMALL, alpha)[part]


def _posterior(alpha):
    def posterior():
        P, priors = estimate_binary(X_SMALL, Y_SMALL, alpha)
        return np.exp(log_posterior_binary([X_NEW], P, priors))[0]

    return posterior


# --- q6, q7: empty cells ---------------------------------------------------------------

SEED_SIM, N_SIM, D_SIM = 92, 1000, 10  # as stated in the notebook
V_HALF = 1000


def _empty(V, N):
    return lambda: expected_empty_cells(V, N)


def _empty_simulated():
    X = sample_uniform_codes([2] * D_SIM, N_SIM, seed=SEED_SIM)
    return count_empty_cells(X, [2] * D_SIM)


ASSIGNMENT = Assignment(
    name="01-discrete-features",
    title="Discrete features: tables, counts and empty cells",
    questions=[
        Question("q1", "how many feature vectors", 1, [
            Test("V_j = 2, 3, 4", Call("n_feature_vectors", [2, 3, 4]),
                 close(_n_vectors([2, 3, 4]), rtol=0, atol=0)),
            Test("ten binary features", Call("n_feature_vectors", [2] * 10),
                 close(_n_vectors([2] * 10), rtol=0, atol=0)),
        ]),
        Question("q2", "full tables against naive Bayes", 2, [
            Test("three binary features, one class", Call("n_parameters", [2, 2, 2], 1),
                 close(_n_parameters([2, 2, 2], 1), rtol=0, atol=0)),
            Test("V_j = 2, 3, 4, two classes", Call("n_parameters", [2, 3, 4], 2),
                 close(_n_parameters([2, 3, 4], 2), rtol=0, atol=0)),
        ]),
        Question("q3", "Bayes' rule with a table", 2, [
            Test("spam, x = (2, 1)", Call("posterior_pmf", SPAM_P, SPAM_PRIOR, [2, 1], arrays=False),
                 close(_posterior_pmf(SPAM_P, SPAM_PRIOR, [2, 1]))),
            Test("spam, x = (0, 0)", Call("posterior_pmf", SPAM_P, SPAM_PRIOR, [0, 0], arrays=False),
                 close(_posterior_pmf(SPAM_P, SPAM_PRIOR, [0, 0]))),
            Test("spam_posterior", Value("spam_posterior"),
                 close(_posterior_pmf(SPAM_P, SPAM_PRIOR, [2, 1]), rtol=1e-6)),  # printed to 8 digits
        ]),
        Question("q4", "maximum likelihood and Laplace estimates", 2, [
            Test("P_ml", Value("P_ml"), close(_estimate(0.0, 0), rtol=1e-6)),
            Test("priors_hat", Value("priors_hat"), close(_estimate(0.0, 1), rtol=1e-6)),
        ]),
        Question("q5", "a zero count decides", 2, [
            Test("post_ml", Value("post_ml"), close(_posterior(0.0), rtol=1e-6)),
        ]),
        Question("q6", "expected number of empty cells", 2, [
            Test("V = 4, N = 2", Call("expected_empty", 4, 2), close(_empty(4, 2))),
            Test("V = 1024, three sample sizes", Call("expected_empty", 1024, [0, 100, 1000]),
                 close(_empty(1024, [0, 100, 1000]))),
        ]),
        Question("q7", "simulation and the half-empty sample", 2, [
            Test("empty_simulated", Value("empty_simulated"),
                 close(_empty_simulated, rtol=0, atol=0)),
            Test("empty_expected", Value("empty_expected"), close(_empty(2**D_SIM, N_SIM), rtol=1e-6)),
        ]),
        Question("q8", "your own empty cells", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_empty: form", Value("my_empty"), has_form("my_empty", (), 0), weight=0.5),
        ]),
    ],
)
