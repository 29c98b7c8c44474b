"""Hidden tests of assignment 07-smoothing: instructor-only, never given to students.

``load_assignment`` runs this file in the namespace of ``tests.py`` (so it uses that file's
imports and helpers) and appends ``HIDDEN[question]`` to each question's public tests. The
inputs and expected values below appear nowhere in what students receive.
"""
# ruff: noqa: F821

from nbcourse.grading import Call, Test, Value, Verdict, close, error_verdict, personal

COUNTS_WIDE = [[0, 7, 1, 0, 2, 5], [9, 0, 0, 3, 1, 1], [4, 4, 4, 4, 4, 4]]
COUNTS_TWO = [[5, 1], [0, 6]]


def _sample(seed, n, K, C):
    """A seeded sample with every class at least twice (leave-one-out keeps all classes)."""
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.repeat(np.arange(C), 2), rng.integers(0, C, size=n - 2 * C)])
    x = rng.integers(0, K, size=n)
    return x.tolist(), y.tolist()


X_H, Y_H = _sample(17, 30, 5, 3)


def _best_alpha(result):
    """Reasoning check: best_alpha is the grid value with the lowest leave-one-out log loss."""
    if not result["ok"]:
        return error_verdict(result)
    a = result["value"]
    if isinstance(a, bool) or not isinstance(a, int | float):
        return Verdict(False, f"best_alpha must be a number, got {a!r}")
    losses = [_loo(X_TRAIN, Y_TRAIN, g, 4)() for g in ALPHAS]
    best = ALPHAS[int(np.argmin(losses))]
    if np.isclose(a, best, rtol=1e-9, atol=0):
        return Verdict(True, "correct")
    return Verdict(False, "best_alpha is not the grid value with the lowest leave-one-out log loss")


HIDDEN = {
    "q1": [
        Test("three classes, K = 6", Call("ml_estimates", COUNTS_WIDE),
             close(_lidstone(COUNTS_WIDE, 0.0)), hidden=True),
    ],
    "q2": [
        Test("alpha = 0 is maximum likelihood", Call("lidstone", COUNTS_WIDE, 0.0),
             close(_lidstone(COUNTS_WIDE, 0.0)), hidden=True),
        Test("large alpha", Call("lidstone", COUNTS_WIDE, 250.0),
             close(_lidstone(COUNTS_WIDE, 250.0)), hidden=True),
    ],
    "q3": [
        Test("K = 6, alpha = 2.5", Call("pob_bits", COUNTS_WIDE, 2.5),
             close(_bits(COUNTS_WIDE, 2.5)), hidden=True),
        Test("K = 2 equals the categorical estimate", Call("pob_bits", COUNTS_TWO, 1.0),
             close(_lidstone(COUNTS_TWO, 1.0)), hidden=True),
    ],
    "q4": [
        Test("post_laplace", Value("post_laplace"),
             close(_posterior(X_TRAIN, Y_TRAIN, 0, 1.0, 4), rtol=1e-6), hidden=True),
        Test("another sample, alpha = 0.5", Call("posterior", X_H, Y_H, 3, 0.5, 5, 3),
             close(_posterior(X_H, Y_H, 3, 0.5, 5)), hidden=True),
    ],
    "q5": [
        Test("alpha = 0.3", Call("loo_log_loss", X_TRAIN, Y_TRAIN, 0.3, 4, 3),
             close(_loo(X_TRAIN, Y_TRAIN, 0.3, 4)), hidden=True),
        Test("another sample, alpha = 2", Call("loo_log_loss", X_H, Y_H, 2.0, 5, 3),
             close(_loo(X_H, Y_H, 2.0, 5)), hidden=True),
        Test("best_alpha", Value("best_alpha"), _best_alpha, hidden=True),
    ],
    "q6": [
        Test("your own estimates", (Value("STUDENT_ID"), Value("my_theta")),
             personal("07-smoothing", "q6", lambda seed: lidstone(my_counts(seed), 0.5)),
             weight=3, hidden=True),
    ],
}
