"""Hidden tests of assignment 04-two-models: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

import numpy as np

from nbcourse import (
    hair_eye_color,
    n_feature_vectors,
    posterior_table,
    titanic,
)
from nbcourse.grading import Call, Test, Value, close, equal, personal, raises

CODES_RANDOM = np.random.default_rng(31).integers(0, 7, size=40).tolist()
X_GAP, Y_GAP = [0, 0, 1, 3, 3, 1, 0], [0, 1, 1, 1, 0, 0, 2]  # value 2 never occurs
X_TITANIC, Y_TITANIC = _rows(titanic(), "Class", "Survived")
X_EYE, Y_HAIR = _rows(hair_eye_color(), "Eye", "Hair")
PI3, THETA3_ZERO = [0.2, 0.3, 0.5], [[0.0, 0.25, 0.75], [0.6, 0.4, 0.0], [0.2, 0.2, 0.6]]


def _pob_more_confident():
    cat = posterior_table(PI_HE, THETA_HE, "categorical").max(axis=1)
    pob = posterior_table(PI_HE, THETA_HE, "pob").max(axis=1)
    return np.flatnonzero(pob > cat).tolist()


def _my_theta(seed):
    """Laplace estimates of the categorical model for the cases drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 3, 20)
    y = rng.integers(0, 2, 20)
    return _fit(x.tolist(), y.tolist(), 3, 1.0)()[1]


HIDDEN = {
    'q1': [
        Test("forty codes, K = 7", Call("one_hot", CODES_RANDOM, 7),
             close(_one_hot(CODES_RANDOM, 7), rtol=0, atol=0), hidden=True),
        Test("K = 2", Call("one_hot", [1, 1, 0], 2),
             close(_one_hot([1, 1, 0], 2), rtol=0, atol=0), hidden=True),
        Test("a code >= K raises ValueError", Call("one_hot", [0, 3], 3), raises("ValueError"),
             hidden=True),
        Test("a negative code raises ValueError", Call("one_hot", [0, -1], 3),
             raises("ValueError"), hidden=True),
    ],
    'q2': [
        Test("C = 3, K = 5", Call("parameter_counts", 3, 5), close(_counts(3, 5), rtol=0),
             hidden=True),
        Test("C = 2, K = 10", Call("parameter_counts", 2, 10), close(_counts(2, 10), rtol=0),
             hidden=True),
        Test("one_hot_share for K = 10", Value("one_hot_share"),
             close(lambda: 10 / n_feature_vectors([2] * 10)), hidden=True),
    ],
    'q3': [
        Test("three classes, an unseen value, alpha = 1",
             Call("fit_categorical", X_GAP, Y_GAP, 4, 3, 1.0),
             close(_fit(X_GAP, Y_GAP, 4, 1.0)), hidden=True),
        Test("Titanic: class given survival, maximum likelihood",
             Call("fit_categorical", X_TITANIC, Y_TITANIC, 4, 2, 0.0),
             close(_fit(X_TITANIC, Y_TITANIC, 4, 0.0)), hidden=True),
        Test("HairEyeColor: eye colour given hair colour, alpha = 0.5",
             Call("fit_categorical", X_EYE, Y_HAIR, 4, 4, 0.5),
             close(_fit(X_EYE, Y_HAIR, 4, 0.5)), hidden=True),
    ],
    'q4': [
        Test("HairEyeColor estimates", Call("pob_weights", PI_HE, THETA_HE),
             close(_weights(PI_HE, THETA_HE)), hidden=True),
        Test("theta = 0 gives a weight of -inf", Call("pob_weights", PI3, THETA3_ZERO),
             close(_weights(PI3, THETA3_ZERO)), hidden=True),
    ],
    'q5': [
        Test("pob_more_confident", Value("pob_more_confident"), equal(_pob_more_confident),
             hidden=True),
    ],
    "q7": [
        Test("your own numbers", (Value("STUDENT_ID"), Value("my_theta")),
             personal("04-two-models", "q7", _my_theta, rtol=1e-6), weight=3, hidden=True),
    ],
}
