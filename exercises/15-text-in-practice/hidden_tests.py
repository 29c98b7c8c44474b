"""Hidden tests of assignment 15-text-in-practice: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, Verdict, close, equal, personal

TABLE_H = [[4, 3], [0, 9], [7, 0], [2, 2]]        # four classes, a word absent from class 2
TABLE_ALL = [[0, 5], [0, 7]]                      # a word in every document
X_H = [[0, 2, 1, 0, 5], [1, 0, 0, 3, 0], [0, 1, 1, 0, 2], [4, 0, 0, 1, 0], [0, 0, 3, 0, 1],
       [2, 1, 0, 0, 0], [0, 3, 2, 0, 4]]
Y_H = [0, 1, 0, 1, 2, 1, 0]
X_H_NEW = [[1, 1, 0, 0, 3], [0, 0, 4, 1, 0], [3, 0, 0, 2, 0]]


def _both_zero(mi, chi2):
    """Both scores of a word present in every document are 0."""
    for result in (mi, chi2):
        verdict = close(0.0, atol=1e-12)(result)
        if not verdict.passed:
            return verdict
    return Verdict(True, "correct")


def _my_mi(seed):
    from nbcourse.feature_selection import mutual_information

    X, y = my_corpus(seed)
    return mutual_information(X, y)


HIDDEN = {
    "q1": [
        Test("mutual information, four classes", Call("presence_mi", TABLE_H),
             close(_score(TABLE_H, "mi")), hidden=True),
        Test("chi-square, four classes", Call("presence_chi2", TABLE_H),
             close(_score(TABLE_H, "chi2")), hidden=True),
        Test("a word in every document", (Call("presence_mi", TABLE_ALL),
                                          Call("presence_chi2", TABLE_ALL)),
             _both_zero, hidden=True),
        Test("mi_captain", Value("mi_captain"),
             close(_score(_table(X_TRAIN, Y_TRAIN, CAPTAIN, 3), "mi")), hidden=True),
    ],
    "q2": [
        Test("another corpus, three classes", Call("rank_words", X_H, Y_H, 3),
             _as_ints(_ranking(X_H, Y_H)), hidden=True),
    ],
    "q3": [
        Test("complement estimates, alpha = 0.5", Call("complement_log_theta", X_H, Y_H, 0.5, 3),
             close(_log_theta(X_H, Y_H, 0.5)), hidden=True),
        Test("decisions on another corpus", Call("cnb_predict", X_H_NEW, X_H, Y_H, 0.5, 3),
             _as_ints(equal(_predict(X_H_NEW, X_H, Y_H, 0.5))), hidden=True),
    ],
    "q4": [
        Test("another corpus, with an empty document",
             Call("rennie_transform", X_H, X_H_NEW + [[0, 0, 0, 0, 0]]),
             close(_transform(X_H, X_H_NEW + [[0, 0, 0, 0, 0]])), hidden=True),
        Test("a word in no training document",
             Call("rennie_transform", [[1, 0, 2], [0, 0, 1]], [[1, 1, 1]]),
             close(_transform([[1, 0, 2], [0, 0, 1]], [[1, 1, 1]])), hidden=True),
    ],
    "q6": [
        Test("your own mutual informations", (Value("STUDENT_ID"), Value("my_mi")),
             personal("15-text-in-practice", "q6", _my_mi), weight=3, hidden=True),
    ],
}
