"""Hidden tests of assignment 10-text: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, close, personal

X_H = [[3, 0, 1, 0], [0, 2, 0, 5], [1, 1, 1, 1], [0, 0, 4, 0], [2, 0, 0, 1], [0, 3, 0, 0]]
Y_H = [0, 1, 2, 2, 0, 1]
M_H = [2, 0, 3, 1]


def _gain():
    theta = _theta(X_TRAIN, Y_TRAIN, 1.0, 0)()
    k = VOCABULARY.index("sea")
    return float(np.log(theta[0, k] / theta[1, k]))


HIDDEN = {
    "q1": [
        Test("words outside the vocabulary, an empty document",
             Call("count_matrix", [["x", "y"], [], ["c", "c", "c"]], ["c", "d", "e"], arrays=False),
             close(lambda: _counts([["x", "y"], [], ["c", "c", "c"]], ["c", "d", "e"])),
             hidden=True),
        Test("m_passage", Value("m_passage"), close(lambda: _counts([PASSAGE])[0]), hidden=True),
    ],
    "q2": [
        Test("multinomial, three classes, alpha = 0.3",
             Call("multinomial_estimates", X_H, Y_H, 0.3, 3), close(_theta(X_H, Y_H, 0.3, 0)),
             hidden=True),
        Test("Bernoulli, three classes, alpha = 2.5",
             Call("bernoulli_estimates", X_H, Y_H, 2.5, 3), close(_theta(X_H, Y_H, 2.5, 1)),
             hidden=True),
    ],
    "q3": [
        Test("multinomial, three classes", Call("multinomial_log_posterior", M_H, X_H, Y_H, 0.5, 3),
             close(_log_post(M_H, X_H, Y_H, 0.5, 0)), hidden=True),
        Test("Bernoulli, three classes", Call("bernoulli_log_posterior", M_H, X_H, Y_H, 0.5, 3),
             close(_log_post(M_H, X_H, Y_H, 0.5, 1)), hidden=True),
    ],
    "q5": [
        Test("odds_bern", Value("odds_bern"), close(_odds([PASSAGE, LONGER], 1), rtol=1e-6),
             hidden=True),
        Test("odds_gain_per_sea", Value("odds_gain_per_sea"), close(_gain, rtol=1e-6),
             hidden=True),
    ],
    "q6": [
        Test("your own log posterior", (Value("STUDENT_ID"), Value("my_log_post")),
             personal("10-text", "q6",
                      lambda seed: _log_post(_counts([my_passage(seed)])[0].tolist(), X_TRAIN,
                                             Y_TRAIN, 0.5, 0)()),
             weight=3, hidden=True),
    ],
}
