"""Tests of assignment 04: the categorical and product-of-Bernoullis models (Williams 2024).

Every expected value is computed here, in the grader's process, by nbcourse (``one_hot``,
``n_parameters_naive``, ``CategoricalNB``, ``pob_linear_weights``, ``posterior_table``,
``find_one_hot_groups``) and its two data sets (``hair_eye_color``, ``titanic``); the
student's kernel only supplies plain values. Value indices ``j`` and class codes are
0-based, as in nbcourse; ``theta`` has one row per class, shape (C, K).
"""

import numpy as np

from nbcourse import (
    CategoricalNB,
    find_one_hot_groups,
    hair_eye_color,
    n_parameters_naive,
    one_hot,
    pob_linear_weights,
    posterior_table,
)
from nbcourse.grading import (
    Assignment,
    Call,
    Question,
    Test,
    Value,
    Verdict,
    close,
    error_verdict,
    has_form,
    student_id_is_set,
)

# --- q1: one-hot codes ------------------------------------------------------------------

CODES_SMALL = [0, 2, 1, 2]


def _one_hot(x, K):
    return lambda: one_hot(np.asarray(x, dtype=int)[:, None], n_values=K)


# --- q2: parameter counts ---------------------------------------------------------------


def _counts(C, K):
    """C(K - 1) free parameters for one K-valued feature, CK for K independent bits."""
    return lambda: [n_parameters_naive([K], n_classes=C), n_parameters_naive([2] * K, n_classes=C)]


# --- q3: fitting the categorical model by counting -------------------------------------

X_TOY, Y_TOY = [0, 1, 1, 2, 0, 0, 2, 2, 2, 1], [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]


def _rows(table, feature, target):
    X, y = table.to_rows(target=target)
    remaining = [f for f in table.factors if f != target]
    return X[:, remaining.index(feature)].tolist(), y.tolist()


def _fit(x, y, K, alpha):
    """(pi, theta) of nbcourse.CategoricalNB with n_values = K."""

    def fitted():
        model = CategoricalNB(alpha=alpha, n_values=K).fit(np.asarray(x)[:, None], y)
        return np.exp(model.class_log_prior_), np.exp(model.feature_log_prob_[0])

    return fitted


# --- q4 and q5: HairEyeColor, hair colour from eye colour -------------------------------


def _hair_eye():
    """ML estimates pi (4,) and theta (4, 4) from the Hair x Eye margin of HairEyeColor."""
    table = hair_eye_color()
    counts = table.margin("Hair", "Eye")
    return counts.sum(axis=1) / counts.sum(), counts / counts.sum(axis=1, keepdims=True)


PI_HE, THETA_HE = (a.tolist() for a in _hair_eye())
BLUE = hair_eye_color().levels_of("Eye").index("Blue")
BLOND = hair_eye_color().levels_of("Hair").index("Blond")
PI2, THETA2 = [0.6, 0.4], [[0.5, 0.3, 0.2], [0.1, 0.45, 0.45]]


def _weights(pi, theta):
    return lambda: pob_linear_weights(pi, theta)


def _blue_blond(model):
    return lambda: posterior_table(PI_HE, THETA_HE, model)[BLUE, BLOND]


# --- q6: one-hot groups hidden in a bare 0/1 table -------------------------------------

BARE = [
    [0, 1, 1, 1, 0, 0, 0],
    [1, 0, 0, 1, 1, 1, 0],
    [1, 0, 0, 0, 0, 1, 1],
    [0, 1, 1, 0, 0, 0, 0],
    [0, 0, 1, 1, 0, 0, 1],
    [1, 0, 0, 0, 1, 1, 0],
    [0, 1, 1, 0, 0, 0, 0],
    [1, 1, 0, 0, 0, 1, 0],
    [0, 0, 0, 1, 1, 1, 0],
    [0, 0, 1, 1, 0, 0, 1],
    [1, 0, 0, 0, 1, 1, 0],
    [1, 1, 1, 0, 0, 0, 0],
]


def _as_groups(value, n_columns):
    """The answer as a set of column tuples, or a message saying what is wrong with it."""
    if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
        return "groups must be a list of lists of column indices"
    seen = set()
    for group in value:
        if any(isinstance(c, bool) or not isinstance(c, int) for c in group):
            return "column indices must be ints"
        if any(not 0 <= c < n_columns for c in group):
            return f"column indices must lie in 0..{n_columns - 1}"
        if len(set(group)) != len(group) or seen & set(group):
            return "a column appears twice"
        seen |= set(group)
    return {tuple(sorted(g)) for g in value}


def _check_groups(result):
    """Reasoning check: the answer is the set of one-hot groups nbcourse finds in BARE."""
    if not result["ok"]:
        return error_verdict(result)
    bare = np.array(BARE)
    answer = _as_groups(result["value"], bare.shape[1])
    if isinstance(answer, str):
        return Verdict(False, answer)
    for group in sorted(answer):
        if len(group) < 2:
            return Verdict(False, f"{list(group)}: a group needs at least two columns")
        ones = bare[:, list(group)].sum(axis=1)
        bad = np.flatnonzero(ones != 1)
        if bad.size:
            return Verdict(False, f"{list(group)} is not a one-hot group: row {int(bad[0])} has "
                                  f"{int(ones[bad[0]])} ones in these columns")
    truth = {tuple(int(c) for c in g) for g in find_one_hot_groups(bare)}
    if answer == truth:
        return Verdict(True, "correct: every row has exactly one 1 in each of your groups, "
                             "and no other group exists")
    return Verdict(False, "each of your groups is a one-hot group, but your answer does not "
                          "list every one-hot group of the table")


ASSIGNMENT = Assignment(
    name="04-two-models",
    title="Two models for one categorical feature",
    questions=[
        Question("q1", "one-hot encoding", 2, [
            Test("four codes, K = 3", Call("one_hot", CODES_SMALL, 3),
                 close(_one_hot(CODES_SMALL, 3), rtol=0, atol=0)),
            Test("a value that never occurs (K = 4)", Call("one_hot", [1, 0, 1], 4),
                 close(_one_hot([1, 0, 1], 4), rtol=0, atol=0)),
        ]),
        Question("q2", "counting parameters", 1, [
            Test("C = 4, K = 3", Call("parameter_counts", 4, 3), close(_counts(4, 3), rtol=0)),
        ]),
        Question("q3", "fitting the categorical model by counting", 3, [
            Test("ten rows, maximum likelihood", Call("fit_categorical", X_TOY, Y_TOY, 3, 2, 0.0),
                 close(_fit(X_TOY, Y_TOY, 3, 0.0))),
            Test("ten rows, alpha = 1", Call("fit_categorical", X_TOY, Y_TOY, 3, 2, 1.0),
                 close(_fit(X_TOY, Y_TOY, 3, 1.0))),
        ]),
        Question("q4", "the PoB model as a linear discriminant", 2, [
            Test("two classes, three values", Call("pob_weights", PI2, THETA2),
                 close(_weights(PI2, THETA2))),
        ]),
        Question("q5", "hair colour from eye colour", 2, [
            Test("blue_blond_cat", Value("blue_blond_cat"),
                 close(_blue_blond("categorical"), rtol=1e-6)),
            Test("blue_blond_pob", Value("blue_blond_pob"),
                 close(_blue_blond("pob"), rtol=1e-6)),
        ]),
        Question("q6", "one-hot groups in a bare table", 2, [
            Test("the one-hot groups of the bare table", Value("groups"), _check_groups),
        ]),
        Question("q7", "your own categorical fit", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_theta: form", Value("my_theta"), has_form("my_theta", (2, 3), 0, 1, rows_sum_to_one=True), weight=0.5),
        ]),
    ],
)
