"""Hidden tests of assignment 16-priors-that-move: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, close, equal, personal

LOSS_H = [[1, 4], [7, 2]]                       # right decisions that cost something
P_H = [0.31, 0.52, 0.47, 0.66, 0.05]
PROBA_H = [[0.25, 0.25, 0.5, 0.0], [0.7, 0.1, 0.1, 0.1], [0.05, 0.05, 0.6, 0.3]]
TRAIN_H = [0.4, 0.3, 0.2, 0.1]
NEW_H = [0.1, 0.2, 0.3, 0.4]
Y_H = [0, 1, 2, 3, 3, 1, 0, 2, 2]
PRED_H = [0, 2, 2, 3, 1, 1, 3, 2, 0]


def _f1_pair(y, pred, C):
    def value():
        from nbcourse.evaluation import class_scores

        s = class_scores(y, pred, labels=np.arange(C))
        return [s.macro["f1"], s.micro["f1"]]
    return value


HIDDEN = {
    "q1": [
        Test("a loss with costs on the diagonal", Call("bayes_threshold", LOSS_H),
             close(_threshold(LOSS_H)), hidden=True),
        Test("decisions under it", Call("decide", P_H, LOSS_H),
             _as_ints(equal(_decisions(P_H, LOSS_H))), hidden=True),
    ],
    "q2": [
        Test("four classes, a zero posterior", Call("adjust", PROBA_H, TRAIN_H, NEW_H),
             close(_adjusted(PROBA_H, TRAIN_H, NEW_H)), hidden=True),
    ],
    "q3": [
        Test("unequal training priors, 40 steps", Call("em_priors", PROBA_H, TRAIN_H, 40),
             close(_em(PROBA_H, TRAIN_H, 40), rtol=1e-6, atol=1e-9), hidden=True),
    ],
    "q4": [
        Test("four classes", Call("f1_averages", Y_H, PRED_H, 4), close(_f1_pair(Y_H, PRED_H, 4)),
             hidden=True),
        Test("a class never decided", Call("f1_averages", [0, 1, 2, 2], [0, 0, 2, 2], 3),
             close(_f1_pair([0, 1, 2, 2], [0, 0, 2, 2], 3)), hidden=True),
    ],
    "q5": [
        Test("changed_weak", Value("changed_weak"), _as_ints(equal(_changed(PROBA_WEAK, NEW_PRIORS))),
             hidden=True),
    ],
    "q6": [
        Test("your own priors", (Value("STUDENT_ID"), Value("my_priors")),
             personal("16-priors-that-move", "q6",
                      lambda seed: _em(my_proba(seed), THIRDS, 500)(), rtol=1e-6, atol=1e-9),
             weight=3, hidden=True),
    ],
}
