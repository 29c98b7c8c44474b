"""Tests for nbcourse.evaluation: McNemar's test, fold t-intervals, ROC and precision-recall,
the pairs a score orders, and Holm's adjustment.

Oracles: scipy.stats (binomtest, chi2, t, ttest_1samp), scikit-learn's metrics, a
2x2 table built by hand, and the Mann-Whitney count of pairs written here as a double loop.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn import metrics

import nbcourse
from nbcourse.evaluation import (
    average_precision,
    copies_boundary,
    copies_disagreement,
    disagreement_table,
    fold_t_interval,
    holm,
    mcnemar_test,
    precision_recall_curve,
    ranking_pairs,
    roc_auc,
    roc_curve,
)


def scores_with_ties(seed, n=200, share=0.1):
    """Binary labels and a score rounded to few values, so that ties occur."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    y[:2] = [0, 1]
    score = np.round(rng.normal(size=n) + 1.2 * y, 1)
    return y, score


# ---------------------------------------------------------------- McNemar
def test_disagreement_table_by_hand():
    y = ["s", "s", "o", "o", "o", "s"]
    a = ["s", "o", "o", "o", "s", "s"]   # right, wrong, right, right, wrong, right
    b = ["s", "s", "s", "o", "s", "o"]   # right, right, wrong, right, wrong, wrong
    assert_array_equal(disagreement_table(y, a, b), [[2, 2], [1, 1]])


@pytest.mark.parametrize("seed", range(6))
def test_mcnemar_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 150)
    a = np.where(rng.random(150) < 0.8, y, 1 - y)
    b = np.where(rng.random(150) < 0.7 + 0.02 * seed, y, 1 - y)
    result = mcnemar_test(y, a, b)
    only_a = int(np.sum((a == y) & (b != y)))
    only_b = int(np.sum((a != y) & (b == y)))
    assert (result.only_a, result.only_b) == (only_a, only_b)
    n = only_a + only_b
    assert_allclose(result.p_exact, stats.binomtest(only_a, n, 0.5).pvalue, rtol=1e-10)
    chi2 = max(abs(only_a - only_b) - 1, 0) ** 2 / n
    assert_allclose(result.statistic, chi2, rtol=1e-12)
    assert_allclose(result.p_chi2, stats.chi2.sf(chi2, 1), rtol=1e-10)


def test_mcnemar_symmetric_in_the_two_classifiers():
    y, a, b = [1] * 12, [1] * 9 + [0] * 3, [1] * 4 + [0] * 8
    ab, ba = mcnemar_test(y, a, b), mcnemar_test(y, b, a)
    assert (ab.only_a, ab.only_b) == (ba.only_b, ba.only_a)
    assert ab.p_exact == ba.p_exact and ab.p_chi2 == ba.p_chi2


def test_mcnemar_without_discordant_cases():
    result = mcnemar_test([0, 1, 1], [0, 1, 0], [0, 1, 0])
    assert (result.p_exact, result.statistic, result.p_chi2) == (1.0, 0.0, 1.0)


def test_mcnemar_rejects_length_mismatch():
    with pytest.raises(ValueError, match="pred_b must have one decision per label"):
        mcnemar_test([0, 1, 1], [0, 1, 1], [0, 1])


# ---------------------------------------------------------- t-intervals
def test_naive_interval_matches_scipy():
    d = np.random.default_rng(3).normal(0.01, 0.02, size=10)
    naive = fold_t_interval(d, corrected=False, confidence=0.9)
    expected = stats.ttest_1samp(d, 0.0).confidence_interval(0.9)
    assert_allclose([naive.low, naive.high], [expected.low, expected.high], rtol=1e-10)
    assert naive.df == 9 and not naive.corrected


def test_corrected_interval_is_nadeau_bengio():
    d = np.random.default_rng(4).normal(0.01, 0.02, size=10)
    fixed = fold_t_interval(d, n_train=900, n_test=100)
    se = np.sqrt((1 / 10 + 100 / 900) * np.var(d, ddof=1))
    half = stats.t.ppf(0.975, 9) * se
    assert_allclose([fixed.se, fixed.low, fixed.high], [se, d.mean() - half, d.mean() + half],
                    rtol=1e-10)
    assert fixed.high - fixed.low > fold_t_interval(d, corrected=False).high - \
        fold_t_interval(d, corrected=False).low


def test_fold_t_interval_rejects_bad_input():
    with pytest.raises(ValueError, match="n_train and n_test must be given"):
        fold_t_interval([0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="differences must be a 1-d array of at least 2"):
        fold_t_interval([0.1], corrected=False)
    with pytest.raises(ValueError, match="confidence must be in"):
        fold_t_interval([0.1, 0.2], corrected=False, confidence=1.5)


# ------------------------------------------------------------- ROC, AUC
@pytest.mark.parametrize("seed", range(5))
def test_roc_curve_matches_scikit_learn(seed):
    y, score = scores_with_ties(seed)
    ours = roc_curve(y, score)
    theirs = metrics.roc_curve(y, score, drop_intermediate=False)
    for a, b in zip(ours, theirs, strict=True):
        assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_auc_is_the_mann_whitney_probability(seed):
    y, score = scores_with_ties(seed, n=120)
    pos, neg = score[y == 1], score[y == 0]
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    assert_allclose(roc_auc(y, score), wins / (pos.size * neg.size), rtol=1e-12)
    assert_allclose(roc_auc(y, score), metrics.roc_auc_score(y, score), rtol=1e-12)


def test_auc_accepts_bool_labels_and_is_invariant_to_monotone_maps():
    y, score = scores_with_ties(7)
    assert roc_auc(y == 1, score) == roc_auc(y, score)
    assert_allclose(roc_auc(y, np.exp(score)), roc_auc(y, score), rtol=1e-12)


def test_curves_reject_one_class_and_bad_scores():
    with pytest.raises(ValueError, match="y must contain both a positive"):
        roc_curve([1, 1, 1], [0.2, 0.4, 0.1])
    with pytest.raises(ValueError, match="y must contain only 0 and 1"):
        roc_auc([0, 2, 1], [0.2, 0.4, 0.1])
    with pytest.raises(ValueError, match="score must be a 1-d array with one score per label"):
        average_precision([0, 1, 1], [0.2, 0.4])
    with pytest.raises(ValueError, match="score must contain finite numbers"):
        precision_recall_curve([0, 1, 1], [0.2, np.inf, 0.1])


# ------------------------------------------------------ precision-recall
@pytest.mark.parametrize("seed", range(5))
def test_precision_recall_curve_matches_scikit_learn(seed):
    y, score = scores_with_ties(seed)
    ours = precision_recall_curve(y, score)
    theirs = metrics.precision_recall_curve(y, score)
    for a, b in zip(ours, theirs, strict=True):
        assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_average_precision_matches_scikit_learn(seed):
    y, score = scores_with_ties(seed)
    assert_allclose(average_precision(y, score), metrics.average_precision_score(y, score),
                    rtol=1e-12)


def test_average_precision_by_hand():
    # ranks: + (P 1, R 1/2), - , + (P 2/3, R 1): AP = 1/2 * 1 + 1/2 * 2/3
    assert_allclose(average_precision([1, 0, 1], [0.9, 0.5, 0.1]), 0.5 + 1 / 3, rtol=1e-12)


def test_exported_from_the_package():
    assert nbcourse.mcnemar_test is mcnemar_test
    assert nbcourse.roc_auc is roc_auc


# ------------------------------------------------------ a feature copied
@pytest.mark.parametrize("m", [1, 2, 3, 5])
def test_copies_boundary_is_where_the_m_copy_rule_ties(m):
    p = np.linspace(0.01, 0.99, 99)
    q = copies_boundary(p, m)
    assert_allclose(p ** m * q, (1 - p) ** m * (1 - q), atol=1e-14)


def test_one_copy_is_the_bayes_rule_and_disagreement_grows():
    p = np.linspace(0, 1, 11)
    assert_array_equal(copies_boundary(p, 1), 1 - p)
    assert copies_disagreement(1) == 0.0
    areas = [copies_disagreement(m) for m in (2, 3, 4, 8)]
    assert all(np.diff(areas) > 0)


@pytest.mark.parametrize("m", [2, 4])
def test_copies_disagreement_matches_quadrature(m):
    from scipy.integrate import quad

    area, _ = quad(lambda p: abs((1 - p) ** m / (p ** m + (1 - p) ** m) - (1 - p)), 0, 1,
                   points=[0.5])
    assert_allclose(copies_disagreement(m), area, rtol=1e-6)


def test_copies_reject_bad_input():
    with pytest.raises(ValueError, match="copies must be an integer >= 1"):
        copies_boundary(0.3, 0)
    with pytest.raises(ValueError, match="p must contain probabilities"):
        copies_boundary(1.3, 2)


# ----------------------------------------------------------- ranking pairs
@pytest.mark.parametrize("seed", range(6))
def test_ranking_pairs_counts_every_pair_as_a_double_loop_does(seed):
    y, score = scores_with_ties(seed, n=120, share=0.3)
    right = tied = wrong = 0
    for i in np.flatnonzero(y == 1):
        for k in np.flatnonzero(y == 0):
            right += score[i] > score[k]
            tied += score[i] == score[k]
            wrong += score[i] < score[k]
    pairs = ranking_pairs(y, score)
    assert (pairs.right, pairs.tied, pairs.wrong) == (right, tied, wrong)
    assert pairs.total == int((y == 1).sum() * (y == 0).sum())
    assert pairs.tied > 0
    assert pairs.auc == pytest.approx(metrics.roc_auc_score(y, score), abs=1e-12)


def test_a_step_map_moves_the_auc_through_the_pairs_it_ties():
    y = np.array([1, 0, 1, 0, 0, 1])
    score = np.array([6.0, 5.0, 4.0, 3.0, 2.0, 1.0])
    before = ranking_pairs(y, score)
    assert (before.right, before.tied, before.wrong) == (5, 0, 4)
    # merging the two top scores ties one rightly ordered pair: the AUC falls by 1/2 / 9
    top = ranking_pairs(y, np.where(score >= 5, 5.0, score))
    assert (top.right, top.tied, top.wrong) == (4, 1, 4)
    assert before.auc - top.auc == pytest.approx(0.5 / 9)
    # merging the two bottom scores ties one wrongly ordered pair: the AUC rises by 1/2 / 9
    bottom = ranking_pairs(y, np.where(score <= 2, 1.5, score))
    assert (bottom.right, bottom.tied, bottom.wrong) == (5, 1, 3)
    assert bottom.auc - before.auc == pytest.approx(0.5 / 9)
    # a strictly increasing map changes no pair
    assert ranking_pairs(y, np.exp(score) - 3) == before


def test_ranking_pairs_rejects_bad_input():
    with pytest.raises(ValueError, match="both a positive"):
        ranking_pairs([1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="score must be a 1-d array"):
        ranking_pairs([0, 1], [0.2])


# ------------------------------------------------------------ multiplicity
def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1: 0.03, 0.06, 0.04 -> running maximum 0.03, 0.06, 0.06
    assert_allclose(holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    assert_allclose(holm([0.5, 0.2]), [0.5, 0.4])
    assert_allclose(holm([0.6, 0.7, 0.01]), [1.0, 1.0, 0.03])
    assert_allclose(holm([0.0078]), [0.0078])


@pytest.mark.parametrize("seed", range(5))
def test_holm_is_the_step_down_maximum_and_between_raw_and_bonferroni(seed):
    p = np.random.default_rng(seed).random(7) ** 3
    m = p.size
    ordered = np.sort(p)
    expected_sorted = [min(1.0, max((m - j) * ordered[j] for j in range(i + 1))) for i in range(m)]
    adjusted = holm(p)
    assert_allclose(adjusted[np.argsort(p)], expected_sorted)   # each value in its place
    assert np.all(adjusted >= p) and np.all(adjusted <= np.minimum(1, m * p) + 1e-15)
    smaller = p[:, None] < p[None, :]
    assert np.all((adjusted[:, None] <= adjusted[None, :])[smaller])   # order kept


@pytest.mark.parametrize("bad", [[], [0.2, 1.5], [[0.1, 0.2]], [-0.1]])
def test_holm_rejects_bad_input(bad):
    with pytest.raises(ValueError, match="p_values must be"):
        holm(bad)
