"""Hidden tests of assignment 08-scikit-learn: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

import numpy as np

from nbcourse.grading import Call, Test, close, personal


def _data(seed, n, n_values, n_classes):
    """Random codes and labels (as lists) in which every value and every class occurs."""
    rng = np.random.default_rng(seed)
    V = np.asarray(n_values)
    X = rng.integers(0, V, size=(n, V.size))
    X[: V.max()] = np.arange(V.max())[:, None] % V
    y = rng.integers(0, n_classes, size=n)
    y[:n_classes] = np.arange(n_classes)
    test = rng.integers(0, V, size=(6, V.size))
    return X.tolist(), y.tolist(), test.tolist()


X3, Y3, T3 = _data(81, 40, [4, 2, 3], 3)      # three classes, features with 4, 2 and 3 values
X2, Y2, T2 = _data(82, 25, [2, 5, 2], 2)      # two binary features around a five-valued one
X1, Y1, T1 = _data(83, 30, [6], 2)            # a single feature


def _calls(name, cases, expected):
    return [Test(label, Call(name, *args), close(expected(*args)), hidden=True)
            for label, args in cases]


FOUR = [("three classes, alpha = 0.5", (X3, Y3, T3, 0.5)),
        ("two binary features, alpha = 2", (X2, Y2, T2, 2.0)),
        ("one feature, alpha = 0.1", (X1, Y1, T1, 0.1))]


def _my_post(seed):
    """Categorical posteriors (alpha = 1) for the records drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    X = np.vstack([[[0, 0], [1, 1], [2, 2]], rng.integers(0, 3, size=(9, 2))])
    y = np.concatenate([[0, 1], rng.integers(0, 2, 10)])
    X_new = rng.integers(0, 3, size=(2, 2))
    return _categorical(X.tolist(), y.tolist(), X_new.tolist(), 1.0)()


HIDDEN = {
    "q1": _calls("categorical_posterior", FOUR, _categorical),
    "q2": _calls("pob_posterior", FOUR, _pob),
    "q3": _calls("pob_posterior_if_binary", FOUR,
                 lambda *args: _pob(*args, drop_binary=True)),
    "q5": _calls("all_off_posterior", [(label, args[:2] + args[3:]) for label, args in FOUR],
                 _all_off),
    "q6": _calls("multinomial_posterior", FOUR, _multinomial),
    "q7": [
        Test("your own numbers", (Value("STUDENT_ID"), Value("my_post")),
             personal("08-scikit-learn", "q7", _my_post, rtol=1e-6), weight=3, hidden=True),
    ],
}
