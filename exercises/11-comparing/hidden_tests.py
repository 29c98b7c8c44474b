"""Hidden tests of assignment 11-comparing: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, personal

Y_H = [1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0]
A_H = [1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0]
B_H = [0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]
S_H = [0.9, 0.2, 0.2, 0.4, 0.1, 0.9, 0.3, 0.5, 0.2, 0.6, 0.4, 0.0]
D_H = [0.03, -0.01, 0.02, 0.04, 0.0, 0.01, 0.025]


def _auc_hidden(seed):
    from nbcourse.evaluation import roc_auc

    return roc_auc(*my_draw(seed))


def _ap_hidden(seed):
    from nbcourse.evaluation import average_precision

    return average_precision(*my_draw(seed))


HIDDEN = {
    "q1": [
        Test("twelve cases", Call("disagreement_table", Y_H, A_H, B_H),
             close(_table(Y_H, A_H, B_H)), hidden=True),
    ],
    "q2": [
        Test("exact, equal counts", Call("mcnemar_exact", 7, 7), close(_exact(7, 7)), hidden=True),
        Test("exact, no discordant case", Call("mcnemar_exact", 0, 0), close(1.0), hidden=True),
        Test("exact, 30 against 11", Call("mcnemar_exact", 30, 11), close(_exact(30, 11)),
             hidden=True),
        Test("chi-square, 3 against 19", Call("mcnemar_chi2", 3, 19), close(_chi2(3, 19)),
             hidden=True),
    ],
    "q3": [
        Test("ROC points with ties", Call("roc_points", Y_H, S_H), close(_roc(Y_H, S_H)),
             hidden=True),
        Test("AUC with ties", Call("auc_by_pairs", Y_H, S_H), close(_auc(Y_H, S_H)), hidden=True),
        Test("ROC points, sixteen cases", Call("roc_points", Y_RANK, SCORE),
             close(_roc(Y_RANK, SCORE)), hidden=True),
    ],
    "q4": [
        Test("threshold 0.3", Call("precision_recall_at", Y_H, S_H, 0.3),
             close(_precision_recall(Y_H, S_H, 0.3)), hidden=True),
        Test("average precision with ties", Call("average_precision", Y_H, S_H),
             close(_ap(Y_H, S_H)), hidden=True),
        Test("average precision, sixteen cases", Call("average_precision", Y_RANK, SCORE),
             close(_ap(Y_RANK, SCORE)), hidden=True),
    ],
    "q5": [
        Test("seven differences, naive", Call("t_interval", D_H, 2.446911851144969),
             close(_interval(D_H, corrected=False)), hidden=True),
        Test("seven differences, corrected",
             Call("t_interval", D_H, 2.446911851144969, n_train=600, n_test=200),
             close(_interval(D_H, n_train=600, n_test=200)), hidden=True),
    ],
    "q6": [
        Test("your own AUC", (Value("STUDENT_ID"), Value("my_auc")),
             personal("11-comparing", "q6", _auc_hidden), weight=1.5, hidden=True),
        Test("your own average precision", (Value("STUDENT_ID"), Value("my_ap")),
             personal("11-comparing", "q6", _ap_hidden), weight=1.5, hidden=True),
    ],
}
