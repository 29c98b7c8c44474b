"""Tests of assignment 05: Q^{-v}, f_v, its bounds and the PoB posterior (Williams 2024).

Expected values are computed here, in the grader's process, by nbcourse (``q_minus_j``,
``f_j``, ``upper_bound``, ``lower_bound``, ``posterior_categorical``, ``posterior_pob``);
indices ``j`` are 0-based, as in nbcourse.
"""

import numpy as np

from nbcourse import (
    f_j,
    lower_bound,
    posterior_categorical,
    posterior_pob,
    q_minus_j,
    upper_bound,
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


def _dirichlet(seed, K, size=None, alpha=1.0):
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.full(K, alpha), size=size).tolist()


THETA3 = [0.2, 0.3, 0.5]
CORNER = [0.0, 1.0, 0.0, 0.0]
THETA_J = [0.0, 0.1, 0.25, 0.5, 0.9, 1.0]


def _q(theta, j):
    return lambda: q_minus_j(theta, j)


def _f(theta, j):
    return lambda: f_j(theta, j)


def _map_differs(pi_r, theta_c_r, theta_d_r, j_r):
    """Reasoning check: the MAP class of eq. 2 differs from that of eq. 3 at x = j."""
    for name, result in zip(("q6_pi", "q6_theta_c", "q6_theta_d", "q6_j"),
                            (pi_r, theta_c_r, theta_d_r, j_r), strict=True):
        if not result["ok"]:
            return error_verdict(result, f"{name}: ")
    j = j_r["value"]
    if isinstance(j, bool) or not isinstance(j, int):
        return Verdict(False, f"q6_j must be an int, got {j!r}")
    try:
        pi = np.array(pi_r["value"], dtype=float)
        theta = np.array([theta_c_r["value"], theta_d_r["value"]], dtype=float)
        if pi.shape != (2,) or theta.ndim != 2:
            return Verdict(False, "q6_pi needs 2 numbers; q6_theta_c and q6_theta_d need "
                                  "the same number K of values")
        cat = posterior_categorical(pi, theta, j)
        pob = posterior_pob(pi, theta, j)
    except (ValueError, TypeError) as exc:
        return Verdict(False, f"not a valid classifier: {exc}")
    margin = 1e-9
    if abs(cat[0] - cat[1]) < margin or abs(pob[0] - pob[1]) < margin:
        return Verdict(False, "a tie in one of the models: make the winner clear")
    if np.argmax(cat) != np.argmax(pob):
        return Verdict(True, f"correct: categorical posterior {np.round(cat, 4).tolist()}, "
                             f"PoB posterior {np.round(pob, 4).tolist()}")
    return Verdict(False, f"both models pick class {'cd'[int(np.argmax(cat))]}: "
                          f"categorical {np.round(cat, 4).tolist()}, "
                          f"PoB {np.round(pob, 4).tolist()}")


ASSIGNMENT = Assignment(
    name="05-q-minus-j",
    title="Q^{-v}: what one-hot encoding does to naive Bayes",
    questions=[
        Question("q1", "Q^{-v}, computed carefully", 3, [
            Test("three values, j = 0", Call("q_minus_j", THETA3, 0), close(_q(THETA3, 0))),
            Test("a corner of the simplex", Call("q_minus_j", CORNER, 0), close(_q(CORNER, 0))),
        ]),
        Question("q2", "f_v = theta_v Q^{-v}", 2, [
            Test("three values, j = 2", Call("f_j", THETA3, 2), close(_f(THETA3, 2))),
        ]),
        Question("q3", "the bounds of eqs. 9 and 10", 2, [
            Test("lower bound", Call("lower_bound", THETA_J), close(lambda: lower_bound(THETA_J))),
            Test("upper bound, K = 6", Call("upper_bound", THETA_J, 6),
                 close(lambda: upper_bound(THETA_J, 6))),
        ]),
        Question("q4", "the threshold of eq. 13", 1, [
            Test("eq13_threshold for K = 6, theta_vc' = 0.1", Value("eq13_threshold"),
                 close(lambda: upper_bound(0.1, 6) / 0.1, rtol=0, atol=1e-4)),
        ]),
        Question("q5", "the PoB posterior, eq. 3", 2, [
            Test("two classes", Call("posterior_pob", [0.6, 0.4], [THETA3, [0.5, 0.25, 0.25]], 1),
                 close(lambda: posterior_pob([0.6, 0.4], [THETA3, [0.5, 0.25, 0.25]], 1))),
        ]),
        Question("q6", "the two models disagree", 2, [
            Test("MAP class differs between eq. 2 and eq. 3",
                 (Value("q6_pi"), Value("q6_theta_c"), Value("q6_theta_d"), Value("q6_j")),
                 _map_differs),
        ]),
        Question("q7", "your own Q^{-v}", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_q: form", Value("my_q"), has_form("my_q", (5,), 0, 1), weight=0.5),
        ]),
    ],
)
