"""Tests of assignment 16: priors that move (Duda, Hart & Stork 2001, §2.2; Elkan 2001;
Saerens, Latinne & Decaestecker 2002; Manning, Raghavan & Schütze 2008, §13.6).

Every expected value is computed here, in the grader's process, by an independent route: the
threshold by ``nbcourse.decisions.posterior_threshold`` and the decisions by
``minimum_risk_decision``, the adjusted posteriors and the EM estimate by
``nbcourse.prior_shift``, the confusion matrix and the averages by ``nbcourse.evaluation``
(scikit-learn confirms them in ``tests/test_evaluation_multiclass.py``).
"""

import numpy as np

from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    Verdict,
    close,
    equal,
    error_verdict,
    student_id_is_set,
)

P_SCREEN = [0.05, 0.08, 0.12, 0.3, 0.55, 0.09, 0.92, 0.11]
LOSS_SCREEN = [[0, 1], [9, 0]]
PROBA_EXAMPLE = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.4, 0.2, 0.4]]
PROBA_SHELF = [[0.91, 0.00, 0.09], [0.80, 0.07, 0.13], [0.83, 0.04, 0.13], [0.72, 0.27, 0.01],
               [0.73, 0.19, 0.08], [0.79, 0.09, 0.12], [0.68, 0.10, 0.22], [0.02, 0.78, 0.20],
               [0.01, 0.90, 0.09], [0.05, 0.85, 0.10], [0.06, 0.00, 0.94], [0.00, 0.08, 0.92]]
Y_SHELF = [0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 2, 2]
THIRDS = [1 / 3, 1 / 3, 1 / 3]


def _threshold(loss):
    def value():
        from nbcourse.decisions import posterior_threshold

        return posterior_threshold(loss)
    return value


def _decisions(p0, loss):
    def value():
        from nbcourse.decisions import minimum_risk_decision

        p = np.asarray(p0, dtype=float)
        return minimum_risk_decision(np.column_stack([p, 1 - p]), loss).tolist()
    return value


def _adjusted(proba, train, new):
    def value():
        from nbcourse.prior_shift import adjust_posteriors

        return adjust_posteriors(proba, train, new)
    return value


def _em(proba, train, n_steps):
    def value():
        from nbcourse.prior_shift import em_priors

        # tol below any change: exactly n_steps steps, as the question asks
        return em_priors(proba, train, max_iter=n_steps, tol=1e-300).priors
    return value


def _averages(y, proba):
    def value():
        from nbcourse.evaluation import class_scores

        s = class_scores(y, np.asarray(proba).argmax(axis=1), labels=np.arange(len(proba[0])))
        return [s.macro["f1"], s.micro["f1"]]
    return value


def _confusion(y, pred, C):
    def value():
        from nbcourse.evaluation import confusion_matrix

        return confusion_matrix(y, pred, labels=np.arange(C)).tolist()
    return value


def _as_ints(check):
    """``check`` applied to a (nested) list of numbers read as integers."""
    def to_ints(v):
        if isinstance(v, list):
            return [to_ints(x) for x in v]
        if isinstance(v, int | float) and not isinstance(v, bool) and float(v).is_integer():
            return int(v)
        raise ValueError

    def wrapped(result):
        if not result["ok"]:
            return error_verdict(result)
        try:
            value = to_ints(result["value"])
        except ValueError:
            return Verdict(False, "expected integers")
        return check({"ok": True, "value": value})
    return wrapped


def _changed(proba, new):
    """How many decisions change when equal-prior posteriors are adjusted to ``new``."""
    def value():
        from nbcourse.prior_shift import adjust_posteriors

        p = np.asarray(proba, dtype=float)
        return int(np.sum(adjust_posteriors(p, THIRDS, new).argmax(axis=1) != p.argmax(axis=1)))
    return value


PROBA_STRONG = [[0.97, 0.02, 0.01], [0.01, 0.98, 0.01], [0.02, 0.03, 0.95], [0.10, 0.88, 0.02],
                [0.96, 0.02, 0.02], [0.02, 0.01, 0.97], [0.05, 0.93, 0.02], [0.90, 0.05, 0.05],
                [0.03, 0.06, 0.91], [0.02, 0.96, 0.02]]
PROBA_WEAK = [[0.45, 0.30, 0.25], [0.30, 0.40, 0.30], [0.30, 0.30, 0.40], [0.35, 0.45, 0.20],
              [0.50, 0.30, 0.20], [0.25, 0.30, 0.45], [0.30, 0.50, 0.20], [0.40, 0.35, 0.25],
              [0.20, 0.35, 0.45], [0.35, 0.40, 0.25]]
NEW_PRIORS = [0.6, 0.3, 0.1]


# --- q6: every student's own shelf (nbcourse.grading.variants) ------------------------------

def my_proba(seed):
    """The posteriors the notebook draws for a student whose seed is ``seed``."""
    rng = np.random.default_rng(seed)
    return np.array([rng.dirichlet(1 + 8 * np.eye(3)[k]) for k in np.repeat([0, 1, 2], [9, 6, 5])])


def _priors_form(result):
    """Shape (3,), non-negative, summing to 1: form only, not the numbers."""
    if not result["ok"]:
        return error_verdict(result)
    v = np.asarray(result["value"], dtype=float) if isinstance(result["value"], list) else None
    if v is None or v.shape != (3,):
        return Verdict(False, "my_priors must have shape (3,), one prior per class")
    if not (np.all(np.isfinite(v)) and np.all(v >= 0) and np.isclose(v.sum(), 1.0)):
        return Verdict(False, "my_priors must hold probabilities that sum to 1")
    return Verdict(True, "correct")


ASSIGNMENT = Assignment(
    name="16-priors-that-move",
    title="Priors that move",
    questions=[
        Question("q1", "the Bayes threshold", 2, [
            Test("tau_screen", Value("tau_screen"), close(_threshold(LOSS_SCREEN))),
            Test("screen_decisions", Value("screen_decisions"),
                 _as_ints(equal(_decisions(P_SCREEN, LOSS_SCREEN)))),
        ]),
        Question("q2", "posteriors under new priors", 2, [
            Test("adjusted_example", Value("adjusted_example"),
                 close(_adjusted(PROBA_EXAMPLE, [0.5, 0.3, 0.2], [0.2, 0.3, 0.5]))),
        ]),
        Question("q3", "new priors by EM", 2, [
            Test("one step", Call("em_priors", PROBA_SHELF, THIRDS, 1),
                 close(_em(PROBA_SHELF, THIRDS, 1))),
            Test("shelf_priors", Value("shelf_priors"), close(_em(PROBA_SHELF, THIRDS, 500),
                                                              rtol=1e-6, atol=1e-9)),
        ]),
        Question("q4", "the confusion matrix and the averages", 2, [
            Test("confusion matrix", Call("confusion", Y_SHELF, [0, 0, 1, 0, 0, 0, 0, 1, 1, 2, 2, 1], 3),
                 _as_ints(equal(_confusion(Y_SHELF, [0, 0, 1, 0, 0, 0, 0, 1, 1, 2, 2, 1], 3)))),
            Test("shelf_f1", Value("shelf_f1"), close(_averages(Y_SHELF, PROBA_SHELF))),
        ]),
        Question("q5", "strong and weak evidence", 2, [
            Test("changed_strong", Value("changed_strong"),
                 _as_ints(equal(_changed(PROBA_STRONG, NEW_PRIORS)))),
        ]),
        Question("q6", "your own shelf", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_priors: form", Value("my_priors"), _priors_form, weight=0.5),
        ]),
    ],
)
