"""Hidden tests of assignment 13-continuous-features: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, close, equal, personal

X_H = [[0.5, 2.0, -1.0], [0.7, 2.5, -0.4], [0.2, 1.7, -1.3], [1.9, 0.4, 0.8], [2.3, 0.9, 0.1],
       [1.6, 0.2, 0.5], [2.8, 0.6, 0.9], [-0.4, 3.1, 2.2], [-0.9, 2.8, 1.7], [-0.1, 3.6, 2.9]]
Y_H = [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]
SKEWED = [0.1, 0.15, 0.2, 0.3, 0.35, 0.5, 0.8, 1.4, 2.9, 6.0, 11.0]

HIDDEN = {
    "q1": [
        Test("three classes, three features", Call("gaussian_estimates", X_H, Y_H, 3),
             close(_estimates(X_H, Y_H)), hidden=True),
    ],
    "q2": [
        Test("three classes", Call("gaussian_log_posterior", [0.2, 0.5, 0.3],
                                   [[0.0, 1.0, 2.0], [1.0, 1.0, 0.0], [2.0, -1.0, 1.0]],
                                   [[1.0, 0.5, 2.0], [2.0, 1.0, 1.0], [0.3, 0.8, 1.5]],
                                   [0.5, 0.2, 1.1]),
             close(_log_posterior([0.2, 0.5, 0.3],
                                  [[0.0, 1.0, 2.0], [1.0, 1.0, 0.0], [2.0, -1.0, 1.0]],
                                  [[1.0, 0.5, 2.0], [2.0, 1.0, 1.0], [0.3, 0.8, 1.5]],
                                  [0.5, 0.2, 1.1])), hidden=True),
    ],
    "q3": [
        Test("three classes pooled", Call("pooled_variance", X_H, Y_H, 3), close(_pooled(X_H, Y_H)),
             hidden=True),
        Test("a skewed prior", Call("linear_weights", [[0.2, -1.0, 3.0], [1.2, 0.5, 2.0]],
                                    [0.7, 1.3, 2.2], 0.85),
             close(_weights([[0.2, -1.0, 3.0], [1.2, 0.5, 2.0]], [0.7, 1.3, 2.2], 0.85)),
             hidden=True),
    ],
    "q4": [
        Test("a skewed feature, width", Call("equal_width_edges", SKEWED, 5),
             close(_edges(SKEWED, 5, "uniform")), hidden=True),
        Test("a skewed feature, frequency", Call("equal_frequency_edges", SKEWED, 4),
             close(_edges(SKEWED, 4, "quantile")), hidden=True),
        Test("codes beyond the range", Call("interval_codes", [-5.0, 0.3, 2.0, 99.0],
                                            [0.0, 0.3, 1.0, 3.0]),
             close([0, 1, 2, 2]), hidden=True),
    ],
    "q5": [
        Test("a pure split of 6", Call("mdl_accepts", [3, 3], [3, 0], [0, 3]),
             equal(_accepts([3, 3], [3, 0], [0, 3])), hidden=True),
        Test("three classes", Call("mdl_accepts", [20, 15, 5], [18, 2, 1], [2, 13, 4]),
             equal(_accepts([20, 15, 5], [18, 2, 1], [2, 13, 4])), hidden=True),
        Test("a balanced split", Call("mdl_accepts", [40, 40], [20, 20], [20, 20]),
             equal(_accepts([40, 40], [20, 20], [20, 20])), hidden=True),
    ],
    "q6": [
        Test("your own posterior", (Value("STUDENT_ID"), Value("my_post")),
             personal("13-continuous-features", "q6", lambda seed: posterior(*my_model(seed))),
             weight=3, hidden=True),
    ],
}
