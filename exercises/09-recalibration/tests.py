"""Tests of assignment 09: remedies for over-confidence (Guo et al. 2017; Platt 1999;
Ayer et al. 1955).

Every expected value is computed here, in the grader's process, by
``nbcourse.recalibration`` (``TemperatureScaling``, ``PlattScaling`` and ``pava``, which
minimise the same losses by a different route: damped Newton steps and their own stopping
rules) and ``nbcourse.calibration.expected_calibration_error``. Class codes are 0-based:
code 0 is omega_1, whose probability is sigma(g).
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
    error_verdict,
    student_id_is_set,
)

# --- the held-out scores of the notebook ----------------------------------------------------

G_CAL = [4.14, -2.72, 3.38, -7.7, -2.87, -0.41, 4.39, -7.15, 4.02, -5.47,
         -5.24, 3.57, 3.67, 0.21, -2.78, 6.77, 6.64, -6.45, -0.42, 0.18,
         1.51, 0.63, -1.68, 1.88, -2.83, 0.55, 2.8, -3.63, 1.12, -2.72,
         -2.06, -2.22, -0.69, 0.61, -4.53, -1.33, 0.23, -0.93, -1.4, 1.92]  # as in the notebook
Y_CAL = [0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0,
         0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1]
G_TEST = [-3.35, -6.93, -3.91, -2.86, 5.73, -3.14, 0.14, 0.3, 3.98, 4.34,
          1.23, 0.72, 1.96, -0.88, -2.2, 0.56, -2.39, -3.59, -4.94, 3.01,
          -0.33, 0.3, -1.44, -2.73, -1.76, 4.28, -0.77, 3.51, -0.69, -1.48,
          3.83, 3.01, 0.59, 2.49, -0.69, -0.33, -1.96, 0.59, -2.41, 1.09]
Y_TEST = [1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0,
          1, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1]
SEQUENCE = [1, 0, 0, 1, 0, 1, 1]  # the example of question 3


def _proba(g, T):
    from scipy.special import expit

    z = np.asarray(g, dtype=float) / T
    return np.column_stack([expit(z), expit(-z)])


def _temperature(g, y):
    from nbcourse.recalibration import TemperatureScaling  # scipy is loaded only when needed

    return lambda: TemperatureScaling().fit(g, y).temperature_


def _platt(g, y):
    from nbcourse.recalibration import PlattScaling

    def fit():
        p = PlattScaling().fit(g, y)
        return float(p.a_[0]), float(p.b_[0])

    return fit


def _pava(values):
    from nbcourse.recalibration import pava

    return lambda: pava(values)


def _iso_fit():
    order = np.argsort(G_CAL, kind="stable")
    return _pava((np.asarray(Y_CAL)[order] == 0).astype(float))


def _ece(y, proba, n_bins=10):
    from nbcourse.calibration import expected_calibration_error

    return lambda: expected_calibration_error(y, proba(), n_bins)


def _ece_at(g, y, T_of):
    return _ece(y, lambda: _proba(g, T_of()))


def _pair(expected, **tolerance):
    """Check of two probes (a, b) against the pair ``expected()``."""

    def check(a, b):
        for result in (a, b):
            if not result["ok"]:
                return error_verdict(result)
        return close(expected, **tolerance)({"ok": True, "value": [a["value"], b["value"]]})

    return check


def _changed(result, expected, what):
    if not result["ok"]:
        return error_verdict(result)
    value = result["value"]
    if isinstance(value, bool) or not isinstance(value, int):
        return Verdict(False, f"{what} must be an int, got {value!r}")
    return Verdict(value == expected(), "correct" if value == expected() else
                   f"{what} is not the number of test e-mails whose decision changes")


def _changed_platt():
    a, b = _platt(G_CAL, Y_CAL)()
    g = np.asarray(G_TEST)
    return int(np.sum((a * g + b > 0) != (g > 0)))


# --- q7: every student's own scores (nbcourse.grading.variants) ------------------------------

def my_scores(seed):
    """The log odds and class codes the notebook draws for a student whose seed is ``seed``."""
    rng = np.random.default_rng(seed)
    z = rng.normal(-0.5, 1.5, size=60)
    g = np.round(rng.uniform(1.5, 3.0) * z, 2)
    y = (rng.uniform(size=60) >= 1 / (1 + np.exp(-z))).astype(int)
    return g, y


def _positive_number(result):
    """my_T is a finite number > 0: form only, not the number."""
    if not result["ok"]:
        return error_verdict(result)
    value = result["value"]
    if isinstance(value, bool) or not isinstance(value, int | float) or not np.isfinite(value) \
            or value <= 0:
        return Verdict(False, f"my_T must be a positive number, got {value!r}")
    return Verdict(True, "correct")


ASSIGNMENT = Assignment(
    name="09-recalibration",
    title="Remedies for over-confidence",
    questions=[
        Question("q1", "from log odds to probabilities", 2, [
            Test("T = 1", Call("calibrated_proba", [-2.0, 0.0, 3.5], 1.0),
                 close(lambda: _proba([-2.0, 0.0, 3.5], 1.0))),
            Test("T = 2.5", Call("calibrated_proba", G_TEST, 2.5),
                 close(lambda: _proba(G_TEST, 2.5))),
        ]),
        Question("q2", "a temperature by Newton's method", 2, [
            Test("T_cal", Value("T_cal"), close(_temperature(G_CAL, Y_CAL), rtol=1e-6)),
        ]),
        Question("q3", "pool adjacent violators", 2, [
            Test("the example", Call("pava", SEQUENCE), close(_pava(SEQUENCE))),
            Test("iso_fit", Value("iso_fit"), close(_iso_fit())),
        ]),
        Question("q4", "Platt's map by Newton's method", 2, [
            Test("a_cal, b_cal", (Value("a_cal"), Value("b_cal")),
                 _pair(_platt(G_CAL, Y_CAL), rtol=1e-6)),
        ]),
        Question("q5", "calibration error before and after", 2, [
            Test("ece_before", Value("ece_before"),
                 close(_ece_at(G_TEST, Y_TEST, lambda: 1.0))),
            Test("ece_after", Value("ece_after"),
                 close(_ece_at(G_TEST, Y_TEST, _temperature(G_CAL, Y_CAL)), rtol=1e-5)),
        ]),
        Question("q6", "when can recalibration change a decision?", 2, [
            Test("changed_temperature", Value("changed_temperature"),
                 lambda r: _changed(r, lambda: 0, "changed_temperature")),
            Test("changed_platt", Value("changed_platt"),
                 lambda r: _changed(r, _changed_platt, "changed_platt")),
        ]),
        Question("q7", "your own temperature", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_T is a positive number", Value("my_T"), _positive_number, weight=0.5),
        ]),
    ],
)
