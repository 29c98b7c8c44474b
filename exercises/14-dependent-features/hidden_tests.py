"""Hidden tests of assignment 14-dependent-features: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, close, personal

X_H = [[0, 0, 0], [1, 1, 1], [2, 0, 2], [0, 0, 1], [0, 0, 2], [2, 0, 2], [2, 0, 2], [2, 0, 2],
       [2, 0, 2], [2, 0, 0], [0, 0, 0], [1, 1, 2], [0, 0, 2], [0, 0, 1], [1, 0, 2], [1, 1, 2],
       [2, 0, 2], [1, 1, 2], [2, 0, 2], [0, 0, 0], [2, 0, 1], [1, 1, 2], [0, 0, 0], [0, 0, 0],
       [2, 0, 2], [1, 1, 0], [1, 1, 0], [0, 0, 0], [0, 0, 2], [0, 0, 0]]
Y_H = [0] * 10 + [1] * 10 + [2] * 10
W_TIES = [[0, 3, 3, 1, 0], [3, 0, 3, 0, 2], [3, 3, 0, 2, 0], [1, 0, 2, 0, 4], [0, 2, 0, 4, 0]]

HIDDEN = {
    "q1": [
        Test("three classes", Call("cmi", [r[0] for r in X_H], [r[2] for r in X_H], Y_H),
             close(_cmi_pair(X_H, Y_H, 0, 2)), hidden=True),
        Test("a feature with itself", Call("cmi", [r[1] for r in X_H], [r[1] for r in X_H], Y_H),
             close(_cmi_pair(X_H, Y_H, 1, 1)), hidden=True),
    ],
    "q2": [
        Test("ties and zero weights", Call("max_spanning_tree", W_TIES), heaviest_tree(W_TIES),
             hidden=True),
        Test("three classes' information", Call("max_spanning_tree",
                                                [[0.0, 0.441, 0.351], [0.441, 0.0, 0.119],
                                                 [0.351, 0.119, 0.0]]),
             heaviest_tree([[0.0, 0.441, 0.351], [0.441, 0.0, 0.119], [0.351, 0.119, 0.0]]),
             hidden=True),
    ],
    "q3": [
        Test("three classes, root 0", Call("tan_posterior", X_H, Y_H, [-1, 0, 0], [1, 0, 2], 0.5),
             close(_tan(X_H, Y_H, [-1, 0, 0], [1, 0, 2], 0.5)), hidden=True),
        Test("another root", Call("tan_posterior", X_H, Y_H, [2, 0, -1], [2, 1, 0], 0.5),
             close(_tan(X_H, Y_H, [2, 0, -1], [2, 1, 0], 0.5)), hidden=True),
    ],
    "q4": [
        Test("three classes, m = 8", Call("aode_posterior", X_H, Y_H, [0, 0, 2], 1.0, 8),
             close(_aode(X_H, Y_H, [0, 0, 2], 1.0, 8)), hidden=True),
    ],
    "q5": [
        Test("three classes, all features", Call("loo_log_loss", X_H, Y_H, [0, 1, 2], 0.5),
             close(_loo(X_H, Y_H, [0, 1, 2], 0.5)), hidden=True),
    ],
    "q6": [
        Test("your own matrix", (Value("STUDENT_ID"), Value("my_cmi")),
             personal("14-dependent-features", "q6", lambda seed: _cmi_matrix(*my_table(seed))()),
             weight=3, hidden=True),
    ],
}
