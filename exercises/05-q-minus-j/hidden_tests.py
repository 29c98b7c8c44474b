"""Hidden tests of assignment 05-q-minus-j: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

import numpy as np

from nbcourse import (
    posterior_pob,
    q_minus_j,
    upper_bound,
)
from nbcourse.grading import Call, Test, close, personal, raises

BATCH = _dirichlet(1, 4, size=5)
BIG = _dirichlet(2, 400)
SPARSE = _dirichlet(3, 6, alpha=1 / 6)
VERTEX_J = [0.0, 0.0, 1.0]
PI4 = _dirichlet(4, 4)
THETA_C4 = _dirichlet(5, 5, size=4)


def _my_q(seed):
    """Q^{-v} for the codes j = 0..4 of v, of the theta the notebook draws from ``seed``."""
    theta = np.random.default_rng(seed).dirichlet(np.ones(5))
    return np.array([q_minus_j(theta, j) for j in range(5)])


HIDDEN = {
    'q1': [
        Test("a batch of five vectors", Call("q_minus_j", BATCH, 2), close(_q(BATCH, 2)),
             hidden=True),
        Test("theta_v = 1 (no 0/0)", Call("q_minus_j", VERTEX_J, 2),
             close(_q(VERTEX_J, 2)), hidden=True),
        Test("K = 400", Call("q_minus_j", BIG, 123), close(_q(BIG, 123), rtol=1e-9),
             hidden=True),
        Test("j out of range raises", Call("q_minus_j", THETA3, 3),
             raises("ValueError", "IndexError"), hidden=True),
    ],
    'q2': [
        Test("sparse theta, j = 1", Call("f_j", SPARSE, 1), close(_f(SPARSE, 1)),
             hidden=True),
        Test("a batch of five vectors", Call("f_j", BATCH, 0), close(_f(BATCH, 0)),
             hidden=True),
    ],
    'q3': [
        Test("upper bound, K = 2", Call("upper_bound", THETA_J, 2),
             close(lambda: upper_bound(THETA_J, 2)), hidden=True),
        Test("upper bound, K = 1000", Call("upper_bound", THETA_J, 1000),
             close(lambda: upper_bound(THETA_J, 1000), rtol=1e-9), hidden=True),
    ],
    'q5': [
        Test("four classes, five values", Call("posterior_pob", PI4, THETA_C4, 3),
             close(lambda: posterior_pob(PI4, THETA_C4, 3)), hidden=True),
        Test("a class with theta_v = 0 gets posterior 0",
             Call("posterior_pob", [0.5, 0.5], [[0.0, 0.5, 0.5], [0.2, 0.3, 0.5]], 0),
             close(lambda: posterior_pob([0.5, 0.5], [[0.0, 0.5, 0.5],
                                                      [0.2, 0.3, 0.5]], 0)), hidden=True),
    ],
    "q7": [
        Test("your own numbers", (Value("STUDENT_ID"), Value("my_q")),
             personal("05-q-minus-j", "q7", _my_q, rtol=1e-6), weight=3, hidden=True),
    ],
}
