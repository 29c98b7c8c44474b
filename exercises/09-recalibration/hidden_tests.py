"""Hidden tests of assignment 09-recalibration: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, close, personal


def _scores(seed, n, scale, shift):
    """Held-out log odds stretched by ``scale`` and shifted by ``shift``, labels from the truth."""
    rng = np.random.default_rng(seed)
    z = rng.normal(0.3, 1.4, size=n)
    g = np.round(scale * z + shift, 3)
    y = (rng.uniform(size=n) >= 1 / (1 + np.exp(-z))).astype(int)
    return g.tolist(), y.tolist()


G_OVER, Y_OVER = _scores(31, 80, 3.0, 0.0)      # over-confident: T near 3
G_UNDER, Y_UNDER = _scores(32, 80, 0.6, 0.0)    # under-confident: T below 1
G_SHIFT, Y_SHIFT = _scores(33, 60, 1.5, -1.2)   # stretched and shifted
LONG = [0.9, 0.2, 0.4, 0.4, 0.1, 0.8, 0.7, 0.75, 0.3, 1.0, 0.95, 0.5]
DECREASING = [5.0, 4.0, 3.0, 2.0, 1.0]

HIDDEN = {
    "q1": [
        Test("large log odds", Call("calibrated_proba", [-1000.0, 800.0, 40.0], 1.0),
             close(lambda: _proba([-1000.0, 800.0, 40.0], 1.0)), hidden=True),
        Test("T below 1", Call("calibrated_proba", [0.4, -1.1], 0.25),
             close(lambda: _proba([0.4, -1.1], 0.25)), hidden=True),
    ],
    "q2": [
        Test("over-confident scores", Call("fit_temperature", G_OVER, Y_OVER),
             close(_temperature(G_OVER, Y_OVER), rtol=1e-6), hidden=True),
        Test("under-confident scores", Call("fit_temperature", G_UNDER, Y_UNDER),
             close(_temperature(G_UNDER, Y_UNDER), rtol=1e-6), hidden=True),
    ],
    "q3": [
        Test("real values", Call("pava", LONG), close(_pava(LONG)), hidden=True),
        Test("decreasing", Call("pava", DECREASING), close(_pava(DECREASING)), hidden=True),
        Test("already sorted", Call("pava", sorted(LONG)), close(_pava(sorted(LONG))),
             hidden=True),
    ],
    "q4": [
        Test("stretched and shifted", Call("fit_platt", G_SHIFT, Y_SHIFT),
             close(_platt(G_SHIFT, Y_SHIFT), rtol=1e-6, atol=1e-8), hidden=True),
        Test("over-confident", Call("fit_platt", G_OVER, Y_OVER),
             close(_platt(G_OVER, Y_OVER), rtol=1e-6, atol=1e-8), hidden=True),
    ],
    "q5": [
        Test("5 bins, another model", Call("ece", Y_OVER, _proba(G_OVER, 1.0).tolist(), 5),
             close(_ece(Y_OVER, lambda: _proba(G_OVER, 1.0), 5)), hidden=True),
    ],
    "q7": [
        Test("my_T for your scores", (Value("STUDENT_ID"), Value("my_T")),
             personal("09-recalibration", "q7",
                      lambda seed: _temperature(*my_scores(seed))(), rtol=1e-6),
             weight=3, hidden=True),
    ],
}
