"""Tests of assignment 06: the experiments of Williams (2024), §3.

Every expected value is computed here, in the grader's process: posteriors and the two
experiment statistics by nbcourse (``log_posteriors``, ``compare_observations``), the
points of Fig. 2 by ``log_f_j``, more extreme or reversed (signed, as in eq. 13) by
``ratio_change``, the eq. 13 condition by ``guaranteed_more_extreme``, and the seeded Dirichlet draws by numpy's own generator with the seed the notebook states.
The classifiers are drawn by ``sample_log_classifiers``. Value indices ``j`` and class
codes are 0-based, as in nbcourse.
"""

import numpy as np

from nbcourse import (
    MORE_EXTREME,
    REVERSED,
    compare_observations,
    log_f_j,
    log_posteriors,
    ratio_change,
    sample_log_classifiers,
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

# --- classifiers for q1-q3 ---------------------------------------------------------------


def _well_conditioned(pi, theta, gap=1e-9):
    """Which classifiers a careful float implementation cannot get wrong: no theta within
    1e-6 of 1, and no near-tie between the two models' maximum posteriors or between the
    two best classes of either model. Returns a boolean array of shape (n,)."""
    cat, pob = (np.exp(p) for p in log_posteriors(pi, theta))  # (n, K, C)
    top_cat, top_pob = np.sort(cat, axis=-1), np.sort(pob, axis=-1)
    separated = ((np.abs(top_pob[..., -1] - top_cat[..., -1]) > gap)
                 & (top_cat[..., -1] - top_cat[..., -2] > gap)
                 & (top_pob[..., -1] - top_pob[..., -2] > gap))
    return separated.all(axis=-1) & (theta.max(axis=(-2, -1)) < 1 - 1e-6)


def _classifiers(K, alpha, n, seed, C=4):
    """The first n well-conditioned classifiers of the paper's protocol (pi, theta) as lists."""
    log_pi, log_theta = sample_log_classifiers(K, alpha, 3 * n, C=C, seed=seed)
    pi, theta = np.exp(log_pi), np.exp(log_theta)
    keep = np.flatnonzero(_well_conditioned(pi, theta))[:n]
    if keep.size < n:
        raise RuntimeError(f"only {keep.size} well-conditioned classifiers for K={K}")
    return pi[keep].tolist(), theta[keep].tolist()


PI_ONE = [[0.6, 0.4]]
THETA_ONE = [[[0.5, 0.3, 0.2], [0.1, 0.45, 0.45]]]
PI_TWO = [[0.5, 0.3, 0.2], [0.25, 0.25, 0.5]]
THETA_TWO = [[[0.7, 0.3], [0.4, 0.6], [0.1, 0.9]], [[0.2, 0.8], [0.5, 0.5], [0.35, 0.65]]]
PI_SMALL, THETA_SMALL = _classifiers(3, 1.0, 5, seed=52, C=3)
PI_SPLIT = [[0.6, 0.4]]
THETA_SPLIT = [[[0.3, 0.7, 0.0], [0.4, 0.3, 0.3]]]  # the MAP classes differ at j = 0


def _posteriors(pi, theta):
    return lambda: tuple(np.exp(p) for p in log_posteriors(pi, theta))


def _pob_higher(pi, theta):
    return lambda: compare_observations(pi, theta).pob_higher.mean()


def _map_disagree(pi, theta):
    return lambda: compare_observations(pi, theta).map_disagree.mean()


# --- Fig. 2 points (q4, q5) ----------------------------------------------------------------


def _dirichlet_pairs(seed, K, n, alpha):
    """theta_c, theta_d of shape (n, K) as the notebook draws them (no exact zeros)."""
    pairs = np.random.default_rng(seed).dirichlet(np.full(K, alpha), size=(n, 2))
    pairs = pairs[(pairs > 0).all(axis=(1, 2))]
    return pairs[:, 0], pairs[:, 1]


def _points(theta_c, theta_d):
    """x = log(theta_jc / theta_jd) and y = log(f_j(theta_c) / f_j(theta_d)), shape (n, K)."""
    theta_c, theta_d = np.asarray(theta_c), np.asarray(theta_d)
    K = theta_c.shape[-1]
    x = np.log(theta_c) - np.log(theta_d)
    y = np.stack([log_f_j(theta_c, j) - log_f_j(theta_d, j) for j in range(K)], axis=-1)
    return x, y


TC_SMALL, TD_SMALL = [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], [[0.4, 0.4, 0.2], [0.1, 0.1, 0.8]]

SEED_FIG2, N_FIG2, K_FIG2 = 2024, 500, 3  # as stated in the notebook


def _fig2_seeded():
    theta_c, theta_d = _dirichlet_pairs(SEED_FIG2, K_FIG2, N_FIG2, 1.0)
    assert theta_c.shape == (N_FIG2, K_FIG2)  # no draw was dropped
    x, y = _points(theta_c, theta_d)
    return theta_c, theta_d, x, y


def _frac_more_extreme():
    _, _, x, y = _fig2_seeded()
    return np.mean(ratio_change(x, y) == MORE_EXTREME)


def _frac_reversed():
    _, _, x, y = _fig2_seeded()
    return np.mean(ratio_change(x, y) == REVERSED)


def _largest_exception():
    _, _, x, y = _fig2_seeded()
    return x[(x > 0) & (y < x)].max()


# --- eq. 14 (q6) and a point below the diagonal (q7) --------------------------------------

EQ14_C, EQ14_D, EQ14_J = [0.9, 0.099, 0.001], [0.05, 0.949, 0.001], 0


def _below_diagonal(theta_c_r, theta_d_r, j_r):
    """Reasoning check: log(theta_jc/theta_jd) > 0 but log(f_j ratio) < log(theta_jc/theta_jd)."""
    for name, result in zip(("q7_theta_c", "q7_theta_d", "q7_j"), (theta_c_r, theta_d_r, j_r),
                            strict=True):
        if not result["ok"]:
            return error_verdict(result, f"{name}: ")
    j = j_r["value"]
    if isinstance(j, bool) or not isinstance(j, int):
        return Verdict(False, f"q7_j must be an int, got {j!r}")
    try:
        theta = np.array([theta_c_r["value"], theta_d_r["value"]], dtype=float)
        if theta.ndim != 2 or not 0 <= j < theta.shape[1]:
            return Verdict(False, "q7_theta_c and q7_theta_d need the same number K of values, "
                                  "and q7_j must lie in range(K)")
        log_f = [float(log_f_j(theta[0], j)), float(log_f_j(theta[1], j))]
    except (ValueError, TypeError) as exc:
        return Verdict(False, f"not two probability vectors: {exc}")
    if not (theta[0, j] > 0 and theta[1, j] > 0 and np.isfinite(log_f).all()):
        return Verdict(False, "theta_j and f_j must be positive under both classes")
    x, y = float(np.log(theta[0, j] / theta[1, j])), log_f[0] - log_f[1]
    if x <= 1e-9:
        return Verdict(False, f"log(theta_jc / theta_jd) = {x:.4g} is not positive")
    if y < x - 1e-9:
        return Verdict(True, f"correct: x = {x:.4f} > 0 and y = {y:.4f} < x")
    return Verdict(False, f"x = {x:.4f} > 0 but y = {y:.4f} is not below it")


ASSIGNMENT = Assignment(
    name="06-experiments",
    title="The experiments: how often the two models disagree",
    questions=[
        Question("q1", "posteriors of a batch of classifiers", 2, [
            Test("one classifier, two classes", Call("posteriors", PI_ONE, THETA_ONE),
                 close(_posteriors(PI_ONE, THETA_ONE))),
            Test("two classifiers, K = 2", Call("posteriors", PI_TWO, THETA_TWO),
                 close(_posteriors(PI_TWO, THETA_TWO))),
        ]),
        Question("q2", "how often PoB is more confident", 2, [
            Test("five classifiers, K = 3, C = 3", Call("pob_higher_fraction", PI_SMALL, THETA_SMALL),
                 close(_pob_higher(PI_SMALL, THETA_SMALL))),
        ]),
        Question("q3", "how often the MAP classes differ", 2, [
            Test("one classifier, two classes", Call("map_disagree_fraction", PI_SPLIT, THETA_SPLIT),
                 close(_map_disagree(PI_SPLIT, THETA_SPLIT))),
            Test("five classifiers, K = 3, C = 3",
                 Call("map_disagree_fraction", PI_SMALL, THETA_SMALL),
                 close(_map_disagree(PI_SMALL, THETA_SMALL))),
        ]),
        Question("q4", "the points of Fig. 2", 2, [
            Test("two pairs, K = 3", Call("fig2_points", TC_SMALL, TD_SMALL),
                 close(lambda: _points(TC_SMALL, TD_SMALL))),
        ]),
        Question("q5", "500 seeded pairs", 2, [
            Test("frac_more_extreme", Value("frac_more_extreme"), close(_frac_more_extreme)),
            Test("frac_reversed", Value("frac_reversed"), close(_frac_reversed)),
            Test("largest_exception", Value("largest_exception"),
                 close(_largest_exception, rtol=1e-6)),
        ]),
        Question("q6", "the slope-2 approximation of eq. 14", 1, [
            Test("eq14_exact", Value("eq14_exact"),
                 close(lambda: log_f_j(EQ14_C, EQ14_J) - log_f_j(EQ14_D, EQ14_J), rtol=1e-6)),
            Test("eq14_approx", Value("eq14_approx"),
                 close(2 * np.log(EQ14_C[EQ14_J] / EQ14_D[EQ14_J]), rtol=1e-6)),
        ]),
        Question("q7", "a point below the diagonal", 2, [
            Test("log ratio positive, PoB ratio less extreme",
                 (Value("q7_theta_c"), Value("q7_theta_d"), Value("q7_j")), _below_diagonal),
        ]),
        Question("q8", "your own classifier", 2, [
            Test("STUDENT_ID", Value("STUDENT_ID"), student_id_is_set, weight=0.5),
            Test("my_pob: form", Value("my_pob"), has_form("my_pob", (3, 2), 0, 1, rows_sum_to_one=True), weight=0.5),
        ]),
    ],
)
