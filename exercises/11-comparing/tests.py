"""Tests of assignment 11: comparing classifiers fairly (McNemar 1947; Hanley & McNeil 1982;
Davis & Goadrich 2006; Nadeau & Bengio 2003).

Every expected value is computed here, in the grader's process, by ``nbcourse.evaluation``
(``disagreement_table``, ``mcnemar_test``, ``roc_curve``, ``roc_auc``, ``average_precision``,
``fold_t_interval``), whose own tests compare it with scipy and scikit-learn. Labels of the
ranking questions are 0/1 with 1 the positive class.
"""

import numpy as np

from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    close,
    has_form,
    student_id_is_set,
)

# --- q1, q2: the disagreement table and McNemar's test -------------------------------------

Y_TEST = [0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1,
          1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1]   # as in the notebook
PRED_A = [1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1,
          1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1]
PRED_B = [0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1,
          1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1]
SMALL = ([2, 1, 0, 2], [2, 0, 0, 1], [1, 1, 0, 0])


def _table(y, a, b):
    from nbcourse.evaluation import disagreement_table

    return lambda: disagreement_table(y, a, b)


def _exact(n_a, n_b):
    from nbcourse.evaluation import mcnemar_test

    return lambda: mcnemar_test([1] * (n_a + n_b), [1] * n_a + [0] * n_b,
                                [0] * n_a + [1] * n_b).p_exact


def _chi2(n_a, n_b):
    from nbcourse.evaluation import mcnemar_test

    def both():
        t = mcnemar_test([1] * (n_a + n_b), [1] * n_a + [0] * n_b, [0] * n_a + [1] * n_b)
        return t.statistic, t.p_chi2

    return both


# --- q3, q4: ROC, AUC, precision and recall ------------------------------------------------

Y_RANK = [1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1]   # as in the notebook
SCORE = [0.6, 0.1, 0.5, 0.2, 0.0, 0.3, 0.6, 0.7, 0.3, 0.7, 0.5, 0.3, 0.5, 0.3, 0.7, 0.3]
Y_TINY, SCORE_TINY = [0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4]


def _roc(y, s):
    from nbcourse.evaluation import roc_curve

    return lambda: roc_curve(y, s)[:2]


def _auc(y, s):
    from nbcourse.evaluation import roc_auc

    return lambda: roc_auc(y, s)


def _precision_recall(y, s, threshold):
    flagged = np.asarray(s) >= threshold
    positive = np.asarray(y) == 1
    return lambda: (float(positive[flagged].mean()), float(flagged[positive].mean()))


def _ap(y, s):
    from nbcourse.evaluation import average_precision

    return lambda: average_precision(y, s)


# --- q5: intervals over folds --------------------------------------------------------------

DIFFS = [-0.0095, 0.013, -0.0009, 0.0108, 0.0104, 0.0182, 0.0131, 0.0152, 0.0039, -0.002]
T_975_9 = 2.262157162798205


def _interval(d, **kwargs):
    from nbcourse.evaluation import fold_t_interval

    def ends():
        iv = fold_t_interval(d, **kwargs)
        return iv.low, iv.high

    return ends


# --- q6: every student's own scores --------------------------------------------------------

def my_draw(seed):
    """The labels and scores the notebook draws for a student whose seed is ``seed``."""
    rng = np.random.default_rng(seed)
    y = (rng.random(30) < 0.3).astype(int)
    y[:2] = [1, 0]
    return y, np.round(rng.random(30) * 0.7 + 0.3 * y, 1)


ASSIGNMENT = Assignment(
    name="11-comparing",
    title="Comparing classifiers fairly",
    questions=[
        Question("q1", "the disagreement table", 2, [
            Test("four cases", Call("disagreement_table", *SMALL), close(_table(*SMALL))),
            Test("table_ab", Value("table_ab"), close(_table(Y_TEST, PRED_A, PRED_B))),
        ]),
        Question("q2", "McNemar's test", 2, [
            Test("exact, 12 against 5", Call("mcnemar_exact", 12, 5), close(_exact(12, 5))),
            Test("chi-square, 12 against 5", Call("mcnemar_chi2", 12, 5), close(_chi2(12, 5))),
            Test("p_ab", Value("p_ab"), close(_exact(12, 5))),
        ]),
        Question("q3", "ROC points and the AUC by counting pairs", 2, [
            Test("ROC points, four cases", Call("roc_points", Y_TINY, SCORE_TINY),
                 close(_roc(Y_TINY, SCORE_TINY))),
            Test("AUC, sixteen cases", Call("auc_by_pairs", Y_RANK, SCORE),
                 close(_auc(Y_RANK, SCORE))),
        ]),
        Question("q4", "precision, recall and average precision", 2, [
            Test("threshold 0.5", Call("precision_recall_at", Y_RANK, SCORE, 0.5),
                 close(_precision_recall(Y_RANK, SCORE, 0.5))),
            Test("average precision, four cases", Call("average_precision", Y_TINY, SCORE_TINY),
                 close(_ap(Y_TINY, SCORE_TINY))),
        ]),
        Question("q5", "intervals over folds", 2, [
            Test("naive_ci", Value("naive_ci"), close(_interval(DIFFS, corrected=False))),
            Test("corrected_ci", Value("corrected_ci"),
                 close(_interval(DIFFS, n_train=900, n_test=100))),
        ]),
        Question("q6", "your own scores", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_auc: a number in [0, 1]", Value("my_auc"), has_form("my_auc", (), 0, 1),
                 weight=0.25),
            Test("my_ap: a number in [0, 1]", Value("my_ap"), has_form("my_ap", (), 0, 1),
                 weight=0.25),
        ]),
    ],
)
