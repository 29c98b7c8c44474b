"""Tests of assignment 15: text in practice (McCallum & Nigam 1998; Yang & Pedersen 1997;
Rennie et al. 2003).

Every expected value is computed here, in the grader's process, by an independent route: the
scores of a word's table by ``nbcourse.feature_selection`` (from rows expanded out of the
table), the complement estimates and decisions by ``nbcourse.text.ComplementNB`` and the
transforms by ``nbcourse.text.RennieTransformer`` (which scikit-learn and scipy confirm in
``tests/test_feature_selection.py`` and ``tests/test_complement_nb.py``).
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

X_TRAIN = [[3, 2, 2, 1, 0, 0, 0, 0], [2, 1, 1, 2, 0, 0, 0, 1], [4, 1, 2, 0, 0, 0, 0, 0],
           [2, 2, 1, 1, 0, 1, 0, 0], [3, 1, 0, 0, 2, 1, 1, 0], [2, 2, 0, 0, 1, 2, 1, 0],
           [3, 1, 0, 0, 1, 0, 2, 0], [2, 1, 0, 1, 2, 1, 0, 0], [1, 1, 1, 0, 0, 0, 0, 3]]
Y_TRAIN = [0, 0, 0, 0, 1, 1, 1, 1, 2]
X_NEW = [[2, 1, 0, 0, 0, 0, 0, 1], [2, 1, 0, 0, 1, 1, 0, 0], [1, 0, 1, 1, 0, 0, 0, 1]]
CAPTAIN = 5
TABLE_A = [[5, 1], [2, 6]]


def _rows(table):
    """A word's (C, 2) table as rows: one presence bit per document and its class."""
    table = np.asarray(table, dtype=int)
    bits, labels = [], []
    for c, (absent, present) in enumerate(table):
        bits += [0] * absent + [1] * present
        labels += [c] * (absent + present)
    return np.array(bits)[:, None], np.array(labels)


def _score(table, which):
    def value():
        from nbcourse.feature_selection import chi2_scores, mutual_information

        return float({"mi": mutual_information, "chi2": chi2_scores}[which](*_rows(table))[0])
    return value


def _table(X, y, v, C):
    present = np.asarray(X)[:, v] > 0
    y = np.asarray(y)
    return [[int(np.sum((y == c) & ~present)), int(np.sum((y == c) & present))] for c in range(C)]


def _ranking(X, y):
    """A check of a ranking of the words of ``X``: every word once, in decreasing order of the
    mutual information of its presence with the class.  Words whose scores are equal (to 1e-12)
    may come in either order, since which of two tied words a computation puts first depends on
    its rounding."""
    def check(result):
        from nbcourse.feature_selection import mutual_information

        scores = mutual_information(np.asarray(X), y)
        order = result["value"]
        if sorted(order) != list(range(scores.size)):
            return Verdict(False, f"expected each of the {scores.size} word indices once, "
                                  f"got {order}")
        if np.all(np.diff(scores[order]) <= 1e-12):
            return Verdict(True, "correct")
        return Verdict(False, "the words are not in decreasing order of mutual information")
    return check


def _log_theta(X, y, alpha):
    def value():
        from nbcourse.text import ComplementNB

        return ComplementNB(alpha=alpha).fit(X, y).complement_log_prob_
    return value


def _predict(X_new, X, y, alpha, which="complement"):
    def value():
        from nbcourse.text import ComplementNB, MultinomialNB

        make = ComplementNB if which == "complement" else MultinomialNB
        return make(alpha=alpha).fit(X, y).predict(X_new).tolist()
    return value


def _transform(X_fit, X):
    def value():
        from nbcourse.text import RennieTransformer

        return RennieTransformer().fit(np.asarray(X_fit, dtype=float)).transform(
            np.asarray(X, dtype=float))
    return value


def _as_ints(check):
    """``check`` applied to a list of numbers read as integers (class codes, indices)."""
    def wrapped(result):
        if not result["ok"]:
            return error_verdict(result)
        value = result["value"]
        if not isinstance(value, list) or not all(isinstance(v, int | float) and not isinstance(v, bool)
                                                  and float(v).is_integer() for v in value):
            return Verdict(False, "expected a 1-d array of integers")
        return check({"ok": True, "value": [int(v) for v in value]})
    return wrapped


def _found_ball(result):
    """Reasoning check: which model gives the first document of X_NEW class 2."""
    if not result["ok"]:
        return error_verdict(result)
    mnb = _predict(X_NEW[:1], X_TRAIN, Y_TRAIN, 1.0, "multinomial")()[0] == 2
    cnb = _predict(X_NEW[:1], X_TRAIN, Y_TRAIN, 1.0)()[0] == 2
    right = {(True, True): "both", (True, False): "multinomial", (False, True): "complement",
             (False, False): "neither"}[mnb, cnb]
    if result["value"] == right:
        return Verdict(True, "correct")
    return Verdict(False, 'found_ball must be "multinomial", "complement", "both" or "neither": '
                          "the model or models whose prediction for the first document is class 2")


# --- q6: every student's own corpus (nbcourse.grading.variants) -----------------------------

def my_corpus(seed):
    """The counts and classes the notebook draws for a student whose seed is ``seed``."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], 4)
    return rng.poisson(rng.uniform(0.1, 2.0, size=(3, 6))[y]), y


def _my_mi_form(result):
    """Shape (6,), finite, between 0 and ln 2: form only, not the numbers."""
    if not result["ok"]:
        return error_verdict(result)
    v = np.asarray(result["value"], dtype=float) if isinstance(result["value"], list) else None
    if v is None or v.shape != (6,):
        return Verdict(False, "my_mi must have shape (6,), one value per word")
    if not (np.all(np.isfinite(v)) and np.all(v >= -1e-12) and np.all(v <= np.log(2) + 1e-12)):
        return Verdict(False, "my_mi must hold mutual informations of a bit, between 0 and ln 2")
    return Verdict(True, "correct")


ASSIGNMENT = Assignment(
    name="15-text-in-practice",
    title="Text in practice",
    questions=[
        Question("q1", "mutual information and chi-square from a word's table", 2, [
            Test("mutual information, two classes", Call("presence_mi", TABLE_A),
                 close(_score(TABLE_A, "mi"))),
            Test("chi-square, two classes", Call("presence_chi2", TABLE_A),
                 close(_score(TABLE_A, "chi2"))),
            Test("table_captain", Value("table_captain"),
                 close(lambda: _table(X_TRAIN, Y_TRAIN, CAPTAIN, 3))),
        ]),
        Question("q2", "ranking the vocabulary", 2, [
            Test("ranking", Value("ranking"), _as_ints(_ranking(X_TRAIN, Y_TRAIN))),
        ]),
        Question("q3", "complement naive Bayes", 2, [
            Test("complement estimates, alpha = 1",
                 Call("complement_log_theta", X_TRAIN, Y_TRAIN, 1.0, 3),
                 close(_log_theta(X_TRAIN, Y_TRAIN, 1.0))),
            Test("pred_cnb", Value("pred_cnb"),
                 _as_ints(equal(_predict(X_NEW, X_TRAIN, Y_TRAIN, 1.0)))),
        ]),
        Question("q4", "the transforms", 2, [
            Test("T_new", Value("T_new"), close(_transform(X_TRAIN, X_NEW))),
        ]),
        Question("q5", "the small class", 2, [
            Test("found_ball", Value("found_ball"), _found_ball),
        ]),
        Question("q6", "your own corpus", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_mi: form", Value("my_mi"), _my_mi_form, weight=0.5),
        ]),
    ],
)
