"""Hidden tests of assignment 06-experiments: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

import numpy as np

from nbcourse import guaranteed_more_extreme
from nbcourse.grading import Call, Test, Value, close, personal

PI_ZERO = [[0.3, 0.3, 0.4]]
THETA_ZERO = [[[0.0, 0.5, 0.5], [0.6, 0.0, 0.4], [0.2, 0.3, 0.5]]]  # some theta_jc = 0
PI_K3, THETA_K3 = _classifiers(3, 1.0, 100, seed=43)
PI_K6, THETA_K6 = _classifiers(6, 1.0, 100, seed=46)
PI_K10, THETA_K10 = _classifiers(10, 1.0, 100, seed=410)
PI_SPARSE, THETA_SPARSE = _classifiers(6, 1 / 6, 100, seed=416)
TC_SPARSE, TD_SPARSE = (a.tolist() for a in _dirichlet_pairs(51, 3, 40, 1 / 3))
TC_K10, TD_K10 = (a.tolist() for a in _dirichlet_pairs(52, 10, 30, 1.0))


def _eq13_share():
    theta_c, theta_d, x, _ = _fig2_seeded()
    positive = x > 0
    return np.mean(guaranteed_more_extreme(theta_c, theta_d, K_FIG2)[positive])


def _my_pob(seed):
    """PoB posteriors, shape (K, C), of the classifier drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    pi = rng.dirichlet(np.ones(2))
    theta = rng.dirichlet(np.ones(3), size=2)
    return _posteriors([pi.tolist()], [theta.tolist()])()[1][0]


HIDDEN = {
    'q1': [
        Test("100 classifiers, K = 6", Call("posteriors", PI_K6, THETA_K6),
             close(_posteriors(PI_K6, THETA_K6)), hidden=True),
        Test("some theta_jc = 0", Call("posteriors", PI_ZERO, THETA_ZERO),
             close(_posteriors(PI_ZERO, THETA_ZERO)), hidden=True),
        Test("sparse classifiers, alpha = 1/6", Call("posteriors", PI_SPARSE, THETA_SPARSE),
             close(_posteriors(PI_SPARSE, THETA_SPARSE)), hidden=True),
    ],
    'q2': [
        Test("100 classifiers, K = 3", Call("pob_higher_fraction", PI_K3, THETA_K3),
             close(_pob_higher(PI_K3, THETA_K3)), hidden=True),
        Test("100 classifiers, K = 10", Call("pob_higher_fraction", PI_K10, THETA_K10),
             close(_pob_higher(PI_K10, THETA_K10)), hidden=True),
        Test("sparse classifiers, alpha = 1/6",
             Call("pob_higher_fraction", PI_SPARSE, THETA_SPARSE),
             close(_pob_higher(PI_SPARSE, THETA_SPARSE)), hidden=True),
    ],
    'q3': [
        Test("100 classifiers, K = 6", Call("map_disagree_fraction", PI_K6, THETA_K6),
             close(_map_disagree(PI_K6, THETA_K6)), hidden=True),
        Test("100 classifiers, K = 10", Call("map_disagree_fraction", PI_K10, THETA_K10),
             close(_map_disagree(PI_K10, THETA_K10)), hidden=True),
        Test("sparse classifiers, alpha = 1/6",
             Call("map_disagree_fraction", PI_SPARSE, THETA_SPARSE),
             close(_map_disagree(PI_SPARSE, THETA_SPARSE)), hidden=True),
    ],
    'q4': [
        Test("sparse pairs, alpha = 1/3", Call("fig2_points", TC_SPARSE, TD_SPARSE),
             close(lambda: _points(TC_SPARSE, TD_SPARSE), rtol=1e-6, atol=1e-8), hidden=True),
        Test("K = 10", Call("fig2_points", TC_K10, TD_K10),
             close(lambda: _points(TC_K10, TD_K10), rtol=1e-6, atol=1e-8), hidden=True),
    ],
    'q5': [
        Test("eq13_share", Value("eq13_share"), close(_eq13_share), hidden=True),
    ],
    "q8": [
        Test("your own numbers", (Value("STUDENT_ID"), Value("my_pob")),
             personal("06-experiments", "q8", _my_pob, rtol=1e-6), weight=3, hidden=True),
    ],
}
