"""Tests of assignment 05: discrete features (Duda, Hart & Stork 2001, §2.9, opening).

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
from nbcourse.grading import Assignment, Call, Question, Test, Value, Verdict, close

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


TABLE3 = _random_table(61, 3, (2, 3, 2))
PRIOR3 = [0.5, 0.2, 0.3]


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


def _n_half(result):
    """Reasoning check: the smallest N with fewer than V/2 cells expected empty (V = 1000)."""
    if not result["ok"]:
        return Verdict(False, f"your code raised {result['error']}")
    n = result["value"]
    if isinstance(n, bool) or not isinstance(n, int | float) or n != int(n) or n < 1:
        return Verdict(False, f"n_half must be a positive whole number, got {n!r}")
    n = int(n)
    below = expected_empty_cells(V_HALF, n) < V_HALF / 2
    if below and not expected_empty_cells(V_HALF, n - 1) < V_HALF / 2:
        return Verdict(True, "correct")
    if below:
        return Verdict(False, f"with N = {n} fewer than half the cells are expected empty, "
                              "but a smaller N already does it")
    return Verdict(False, f"with N = {n} at least half the cells are still expected empty")


ASSIGNMENT = Assignment(
    name="05-discrete-features",
    title="Discrete features: tables, counts and empty cells",
    questions=[
        Question("q1", "how many feature vectors", 1, [
            Test("V_j = 2, 3, 4", Call("n_feature_vectors", [2, 3, 4]),
                 close(_n_vectors([2, 3, 4]), rtol=0, atol=0)),
            Test("ten binary features", Call("n_feature_vectors", [2] * 10),
                 close(_n_vectors([2] * 10), rtol=0, atol=0)),
            Test("twelve five-valued features", Call("n_feature_vectors", [5] * 12),
                 close(_n_vectors([5] * 12), rtol=0, atol=0), hidden=True),
            Test("a single feature", Call("n_feature_vectors", [7]),
                 close(_n_vectors([7]), rtol=0, atol=0), hidden=True),
            Test("constant features", Call("n_feature_vectors", [1, 1, 1]),
                 close(_n_vectors([1, 1, 1]), rtol=0, atol=0), hidden=True),
        ]),
        Question("q2", "full tables against naive Bayes", 2, [
            Test("three binary features, one class", Call("n_parameters", [2, 2, 2], 1),
                 close(_n_parameters([2, 2, 2], 1), rtol=0, atol=0)),
            Test("V_j = 2, 3, 4, two classes", Call("n_parameters", [2, 3, 4], 2),
                 close(_n_parameters([2, 3, 4], 2), rtol=0, atol=0)),
            Test("eight features, three classes",
                 Call("n_parameters", [2, 2, 3, 3, 4, 4, 5, 5], 3),
                 close(_n_parameters([2, 2, 3, 3, 4, 4, 5, 5], 3), rtol=0, atol=0), hidden=True),
            Test("twenty binary features, two classes", Call("n_parameters", [2] * 20, 2),
                 close(_n_parameters([2] * 20, 2), rtol=0, atol=0), hidden=True),
        ]),
        Question("q3", "Bayes' rule with a table", 2, [
            Test("spam, x = (2, 1)", Call("posterior_pmf", SPAM_P, SPAM_PRIOR, [2, 1], arrays=False),
                 close(_posterior_pmf(SPAM_P, SPAM_PRIOR, [2, 1]))),
            Test("spam, x = (0, 0)", Call("posterior_pmf", SPAM_P, SPAM_PRIOR, [0, 0], arrays=False),
                 close(_posterior_pmf(SPAM_P, SPAM_PRIOR, [0, 0]))),
            Test("three classes, three features",
                 Call("posterior_pmf", TABLE3, PRIOR3, [0, 2, 1], arrays=False),
                 close(_posterior_pmf(TABLE3, PRIOR3, [0, 2, 1])), hidden=True),
            Test("spam_posterior", Value("spam_posterior"),
                 close(_posterior_pmf(SPAM_P, SPAM_PRIOR, [2, 1]))),
            Test("a cell with probability 0 under one class",
                 Call("posterior_pmf", TABLE3, PRIOR3, [1, 2, 0], arrays=False),
                 close(_posterior_pmf(TABLE3, PRIOR3, [1, 2, 0])), hidden=True),
        ]),
        Question("q4", "maximum likelihood and Laplace estimates", 2, [
            Test("P_ml", Value("P_ml"), close(_estimate(0.0, 0))),
            Test("priors_hat", Value("priors_hat"), close(_estimate(0.0, 1))),
            Test("P_laplace", Value("P_laplace"), close(_estimate(1.0, 0)), hidden=True),
        ]),
        Question("q5", "a zero count decides", 2, [
            Test("post_ml", Value("post_ml"), close(_posterior(0.0))),
            Test("post_laplace", Value("post_laplace"), close(_posterior(1.0), rtol=1e-6),
                 hidden=True),
        ]),
        Question("q6", "expected number of empty cells", 2, [
            Test("V = 4, N = 2", Call("expected_empty", 4, 2), close(_empty(4, 2))),
            Test("V = 1024, three sample sizes", Call("expected_empty", 1024, [0, 100, 1000]),
                 close(_empty(1024, [0, 100, 1000]))),
            Test("a single cell", Call("expected_empty", 1, [0, 3]), close(_empty(1, [0, 3])),
                 hidden=True),
            Test("several V at once", Call("expected_empty", [10, 100, 1000], 50),
                 close(_empty([10, 100, 1000], 50)), hidden=True),
            Test("V = 10^12, N = 10^9 (accuracy)", Call("expected_empty", 1e12, 1e9),
                 close(_empty(1e12, 1e9), rtol=1e-10), hidden=True),
        ]),
        Question("q7", "simulation and the half-empty sample", 2, [
            Test("empty_simulated", Value("empty_simulated"),
                 close(_empty_simulated, rtol=0, atol=0)),
            Test("empty_expected", Value("empty_expected"), close(_empty(2**D_SIM, N_SIM))),
            Test("n_half", Value("n_half"), _n_half, hidden=True),
        ]),
    ],
)
