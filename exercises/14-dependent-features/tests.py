"""Tests of assignment 14: dependent features (Friedman, Geiger & Goldszmidt 1997; Webb,
Boughton & Wang 2005; Langley & Sage 1994).

Every expected value is computed here, in the grader's process, by ``nbcourse.semi_naive``: the
conditional mutual information, the weight of the maximum spanning tree, TAN's posterior on the
tree the library learns (checked to be the tree the question gives) and AODE's posterior; the
leave-one-out score refits ``nbcourse.CategoricalNB`` without each case in turn. Values and
classes are 0-based codes.
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
    has_form,
    student_id_is_set,
)

X_TOY = [[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 2, 1, 1], [0, 0, 0, 1], [0, 0, 1, 1],
         [0, 0, 0, 1], [0, 1, 1, 1], [0, 2, 1, 0], [0, 0, 0, 0], [0, 2, 0, 1], [1, 1, 0, 0],
         [1, 1, 1, 1], [0, 1, 1, 1], [1, 2, 0, 1], [1, 2, 0, 0], [1, 2, 0, 1], [1, 2, 0, 0],
         [0, 1, 1, 1], [1, 0, 0, 1], [1, 1, 1, 0], [0, 1, 1, 0], [1, 2, 0, 1], [1, 0, 0, 0]]
Y_TOY = [0] * 12 + [1] * 12
PARENTS = [-1, 0, 1, 0]
CASE = [1, 0, 1, 1]


def _cmi_matrix(X, y):
    def expected():
        from nbcourse.semi_naive import conditional_mutual_information

        return conditional_mutual_information(X, y)

    return expected


def _cmi_pair(X, y, i, j):
    return lambda: _cmi_matrix(X, y)()[i, j]


def _columns(X, *cols):
    return [[row[c] for c in cols] for row in X]


def heaviest_tree(W):
    """Check: a spanning tree (pairs i < j) whose total weight is the largest possible."""
    def check(result):
        if not result["ok"]:
            from nbcourse.grading.assignment import error_verdict

            return error_verdict(result)
        from nbcourse.semi_naive import maximum_spanning_tree

        weights = np.asarray(W, dtype=float)
        d = weights.shape[0]
        value = result["value"]
        try:
            edges = [(int(i), int(j)) for i, j in value]
        except (TypeError, ValueError):
            return Verdict(False, "expected a list of pairs (i, j)")
        if len(edges) != d - 1 or len(set(edges)) != d - 1 or any(
                not 0 <= i < j < d for i, j in edges):
            return Verdict(False, f"expected {d - 1} distinct pairs (i, j) with 0 <= i < j < {d}, "
                                  f"got {value!r:.80}")
        group = list(range(d))
        for i, j in edges:
            if group[i] == group[j]:
                return Verdict(False, f"the edges {edges} contain a cycle")
            old = group[j]
            group = [group[i] if g == old else g for g in group]
        best = sum(weights[i, j] for i, j in maximum_spanning_tree(weights))
        got = sum(weights[i, j] for i, j in edges)
        if abs(got - best) <= 1e-9 * max(1.0, abs(best)):
            return Verdict(True, "correct")
        return Verdict(False, f"a spanning tree, but of total weight {got:.6f}; the heaviest "
                              f"weighs {best:.6f}")

    return check


def _toy_cmi():
    return _cmi_matrix(X_TOY, Y_TOY)()


def _tan(X, y, parents, x, alpha):
    def expected():
        from nbcourse.semi_naive import TreeAugmentedNB

        model = TreeAugmentedNB(alpha=alpha, root=list(parents).index(-1)).fit(X, y)
        if model.parent_.tolist() != list(parents):
            raise ValueError(f"the test's tree {parents} is not the tree learned from its data "
                             f"{model.parent_.tolist()}")
        return model.predict_proba([x])[0]

    return expected


def _aode(X, y, x, alpha, m):
    def expected():
        from nbcourse.semi_naive import AveragedOneDependenceNB

        return AveragedOneDependenceNB(alpha=alpha, min_count=m).fit(X, y).predict_proba([x])[0]

    return expected


def _loo(X, y, features, alpha):
    def expected():
        from nbcourse.naive_bayes import CategoricalNB

        X_, y_ = np.asarray(X), np.asarray(y)
        V, C = X_.max(axis=0) + 1, int(y_.max()) + 1
        loss = 0.0
        for n in range(len(y_)):
            keep = np.arange(len(y_)) != n
            counts = np.bincount(y_[keep], minlength=C)
            log_joint = np.log(counts + alpha) - np.log(keep.sum() + alpha * C)
            if features:
                model = CategoricalNB(alpha=alpha, n_values=V).fit(X_[keep], y_[keep])
                for j in features:
                    log_joint = log_joint + model.feature_log_prob_[j][:, X_[n, j]]
            loss -= log_joint[y_[n]] - np.logaddexp.reduce(log_joint)
        return loss / len(y_)

    return expected


# --- q6: every student's own table (nbcourse.grading.variants) --------------------------------

def my_table(seed):
    """The table and classes the notebook draws for a student whose seed is ``seed``."""
    rng = np.random.default_rng(seed)
    my_y = np.repeat([0, 1], 20)
    first = (rng.integers(0, 3, size=40) + my_y) % 3
    copy = np.where(rng.random(40) < 0.6, first, rng.integers(0, 3, size=40))
    my_X = np.column_stack([first, copy, rng.integers(0, 3, size=40)])
    my_X[:3] = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    return my_X, my_y


ASSIGNMENT = Assignment(
    name="14-dependent-features",
    title="Dependent features",
    questions=[
        Question("q1", "conditional mutual information", 2, [
            Test("cmi of columns 1 and 2", Call("cmi", [r[1] for r in X_TOY], [r[2] for r in X_TOY],
                                                Y_TOY),
                 close(_cmi_pair(X_TOY, Y_TOY, 1, 2))),
            Test("cmi_matrix", Value("cmi_matrix"), close(_toy_cmi)),
        ]),
        Question("q2", "the maximum spanning tree", 2, [
            Test("a small matrix", Call("max_spanning_tree", [[0, 5, 1], [5, 0, 2], [1, 2, 0]]),
                 heaviest_tree([[0, 5, 1], [5, 0, 2], [1, 2, 0]])),
            Test("tree_q2", Value("tree_q2"), lambda result: heaviest_tree(_toy_cmi())(result)),
        ]),
        Question("q3", "a TAN posterior", 2, [
            Test("post_q3", Value("post_q3"), close(_tan(X_TOY, Y_TOY, PARENTS, CASE, 1.0))),
            Test("another case", Call("tan_posterior", X_TOY, Y_TOY, PARENTS, [0, 2, 0, 1], 1.0),
                 close(_tan(X_TOY, Y_TOY, PARENTS, [0, 2, 0, 1], 1.0))),
        ]),
        Question("q4", "an AODE posterior", 2, [
            Test("post_q4", Value("post_q4"), close(_aode(X_TOY, Y_TOY, CASE, 1.0, 5))),
            Test("another case", Call("aode_posterior", X_TOY, Y_TOY, [0, 1, 1, 0], 0.5, 1),
                 close(_aode(X_TOY, Y_TOY, [0, 1, 1, 0], 0.5, 1))),
        ]),
        Question("q5", "selective naive Bayes's score", 2, [
            Test("loo_q5", Value("loo_q5"), close(_loo(X_TOY, Y_TOY, [0, 2], 1.0))),
            Test("the prior alone", Call("loo_log_loss", X_TOY, Y_TOY, [], 1.0),
                 close(_loo(X_TOY, Y_TOY, [], 1.0))),
        ]),
        Question("q6", "your own table", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_cmi: form", Value("my_cmi"), has_form("my_cmi", (3, 3), 0), weight=0.5),
        ]),
    ],
)
