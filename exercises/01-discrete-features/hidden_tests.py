"""Hidden tests of assignment 01-discrete-features: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

import numpy as np

from nbcourse import expected_empty_cells
from nbcourse.grading import Call, Test, Value, Verdict, close, error_verdict, personal

TABLE3 = _random_table(61, 3, (2, 3, 2))
PRIOR3 = [0.5, 0.2, 0.3]


def _n_half(result):
    """Reasoning check: the smallest N with fewer than V/2 cells expected empty (V = 1000)."""
    if not result["ok"]:
        return error_verdict(result)
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


def _my_empty(seed):
    """Expected empty cells of 2**d cells after N draws, d and N drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    d = int(rng.integers(6, 12))
    N = int(rng.integers(50, 3000))
    return expected_empty_cells(2**d, N)


HIDDEN = {
    'q1': [
        Test("twelve five-valued features", Call("n_feature_vectors", [5] * 12),
             close(_n_vectors([5] * 12), rtol=0, atol=0), hidden=True),
        Test("a single feature", Call("n_feature_vectors", [7]),
             close(_n_vectors([7]), rtol=0, atol=0), hidden=True),
        Test("constant features", Call("n_feature_vectors", [1, 1, 1]),
             close(_n_vectors([1, 1, 1]), rtol=0, atol=0), hidden=True),
    ],
    'q2': [
        Test("eight features, three classes",
             Call("n_parameters", [2, 2, 3, 3, 4, 4, 5, 5], 3),
             close(_n_parameters([2, 2, 3, 3, 4, 4, 5, 5], 3), rtol=0, atol=0), hidden=True),
        Test("twenty binary features, two classes", Call("n_parameters", [2] * 20, 2),
             close(_n_parameters([2] * 20, 2), rtol=0, atol=0), hidden=True),
    ],
    'q3': [
        Test("three classes, three features",
             Call("posterior_pmf", TABLE3, PRIOR3, [0, 2, 1], arrays=False),
             close(_posterior_pmf(TABLE3, PRIOR3, [0, 2, 1])), hidden=True),
        Test("a cell with probability 0 under one class",
             Call("posterior_pmf", TABLE3, PRIOR3, [1, 2, 0], arrays=False),
             close(_posterior_pmf(TABLE3, PRIOR3, [1, 2, 0])), hidden=True),
    ],
    'q4': [
        Test("P_laplace", Value("P_laplace"), close(_estimate(1.0, 0)), hidden=True),
    ],
    'q5': [
        Test("post_laplace", Value("post_laplace"), close(_posterior(1.0), rtol=1e-6),
             hidden=True),
    ],
    'q6': [
        Test("a single cell", Call("expected_empty", 1, [0, 3]), close(_empty(1, [0, 3])),
             hidden=True),
        Test("several V at once", Call("expected_empty", [10, 100, 1000], 50),
             close(_empty([10, 100, 1000], 50)), hidden=True),
        Test("V = 10^12, N = 10^9 (accuracy)", Call("expected_empty", 1e12, 1e9),
             close(_empty(1e12, 1e9), rtol=1e-10), hidden=True),
    ],
    'q7': [
        Test("n_half", Value("n_half"), _n_half, hidden=True),
    ],
    "q8": [
        Test("your own numbers", (Value("STUDENT_ID"), Value("my_empty")),
             personal("01-discrete-features", "q8", _my_empty, rtol=1e-6), weight=3, hidden=True),
    ],
}
