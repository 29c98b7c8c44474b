"""Hidden tests of assignment 12-missing-values: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, close, personal

PI_3 = [0.2, 0.5, 0.3]
THETA_3 = [[[0.6, 0.4], [0.3, 0.7], [0.5, 0.5]],
           [[0.1, 0.9], [0.8, 0.2], [0.4, 0.6]],
           [[0.25, 0.75], [0.5, 0.5], [0.9, 0.1]],
           [[0.7, 0.3], [0.2, 0.8], [0.35, 0.65]]]
X_H = [[0, 1, -1], [1, 1, 0], [-1, 0, 0], [2, -1, 1], [2, 2, 2], [0, 0, -1], [1, -1, 2],
       [2, 1, 1], [-1, 2, 2], [0, 2, 1], [1, 0, -1], [2, 2, 0]]
Y_H = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
X_TIE = [[0, 1], [1, 1], [1, -1], [0, 0], [-1, 0], [2, 2]]

HIDDEN = {
    "q1": [
        Test("everything missing is the prior", Call("marginal_posterior", PI_3, THETA_3,
                                                     [-1, -1, -1, -1]),
             close(_posterior(PI_3, THETA_3, [-1, -1, -1, -1])), hidden=True),
        Test("three classes, two missing", Call("marginal_posterior", PI_3, THETA_3, [1, -1, 0, -1]),
             close(_posterior(PI_3, THETA_3, [1, -1, 0, -1])), hidden=True),
        Test("nothing missing", Call("marginal_posterior", PI, THETA, [1, 2, 0]),
             close(_posterior(PI, THETA, [1, 2, 0])), hidden=True),
    ],
    "q2": [
        Test("three classes, three missing", Call("brute_force_posterior", PI_3, THETA_3,
                                                  [-1, 0, -1, -1]),
             close(_posterior(PI_3, THETA_3, [-1, 0, -1, -1])), hidden=True),
    ],
    "q3": [
        Test("three classes, alpha = 0.5", Call("available_estimates", X_H, Y_H, 3, 3, 0.5),
             close(_estimates(X_H, Y_H, 3, 0.5)), hidden=True),
        Test("three classes, priors", Call("priors", Y_H, 3), close(_priors(Y_H)), hidden=True),
    ],
    "q4": [
        Test("ties go to the smallest code", Call("training_modes", X_TIE), close(_modes(X_TIE)),
             hidden=True),
    ],
    "q5": [
        Test("another feature", Call("hole_probability", THETA[2], [0.1, 0.0, 0.8]),
             close(_holes(THETA[2], [0.1, 0.0, 0.8])), hidden=True),
    ],
    "q6": [
        Test("your own posterior", (Value("STUDENT_ID"), Value("my_post")),
             personal("12-missing-values", "q6", lambda seed: brute_force(*my_model(seed))),
             weight=3, hidden=True),
    ],
}
