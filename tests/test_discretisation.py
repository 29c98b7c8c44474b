"""The entropy-MDL discretisation of Fayyad & Irani (1993), against brute force.

scikit-learn has no supervised discretiser, so the oracle is exhaustive: every possible cut of
a small sample is scored from scratch with ``scipy.stats.entropy``, and the MDL test is written
out again here from the paper's inequality.
"""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import entropy

from nbcourse import MDLDiscretiser, class_entropy, mdl_accepts, mdl_cut_points


def ent(labels):
    _, counts = np.unique(labels, return_counts=True)
    return float(entropy(counts, base=2))


def passes(labels_all, labels_left, labels_right):
    """Fayyad & Irani's inequality, written out from scratch."""
    n = len(labels_all)
    gain = ent(labels_all) - (len(labels_left) * ent(labels_left)
                              + len(labels_right) * ent(labels_right)) / n
    k, k1, k2 = (len(set(v)) for v in (labels_all, labels_left, labels_right))
    delta = math.log2(3**k - 2) - (k * ent(labels_all) - k1 * ent(labels_left)
                                  - k2 * ent(labels_right))
    return gain > (math.log2(n - 1) + delta) / n


def brute_best_cut(x, y):
    """(cut point, weighted entropy) minimising the entropy over every midpoint, or None."""
    values = np.unique(x)
    best = None
    for a, b in zip(values[:-1], values[1:], strict=True):
        t = (a + b) / 2
        left, right = y[x < t], y[x >= t]
        e = (len(left) * ent(left) + len(right) * ent(right)) / len(y)
        if best is None or e < best[1] - 1e-12:
            best = (t, e)
    return best


def sample(seed, n=40, C=2):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=n), 1)                       # ties on purpose
    y = (x + rng.normal(scale=0.7, size=n) > 0).astype(int) + (C > 2) * (x > 1)
    return x, y


def test_class_entropy_is_scipys_in_bits():
    for counts in ([5, 5], [1, 2, 3], [7, 0, 1], [4]):
        assert_allclose(class_entropy(counts), entropy(counts, base=2), rtol=1e-14, atol=1e-15)
    assert class_entropy([3, 0]) == 0.0 and str(class_entropy([3, 0])) == "0.0"
    with pytest.raises(ValueError, match="counts must be a 1-d array of non-negative counts, "
                                         "not all zero"):
        class_entropy([0, 0])


@pytest.mark.parametrize("seed", range(12))
def test_the_mdl_test_is_the_papers_inequality(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=int(rng.integers(6, 60)))
    cut = int(rng.integers(1, y.size))
    left, right = y[:cut], y[cut:]
    counts = [np.bincount(v, minlength=3) for v in (y, left, right)]
    assert mdl_accepts(*counts) == passes(y, left, right)


def test_mdl_accepts_refuses_counts_that_do_not_add_up():
    with pytest.raises(ValueError, match="counts must equal counts_left \\+ counts_right"):
        mdl_accepts([3, 3], [1, 1], [1, 1])
    with pytest.raises(ValueError, match="both sides of a cut must hold rows"):
        mdl_accepts([3, 3], [3, 3], [0, 0])


@pytest.mark.parametrize("seed", range(20))
def test_the_first_cut_is_the_brute_force_best_and_every_cut_earns_its_place(seed):
    x, y = sample(seed, C=2 + seed % 2)
    cuts = mdl_cut_points(x, y)
    best = brute_best_cut(x, y)
    first = passes(y, y[x < best[0]], y[x >= best[0]])
    assert (cuts.size > 0) == first
    if first:
        assert best[0] in cuts
    # every final interval: its best cut (by brute force) fails the test
    edges = np.concatenate([[-np.inf], cuts, [np.inf]])
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        inside = (x >= lo) & (x < hi)
        found = brute_best_cut(x[inside], y[inside])
        if found is not None:
            t = found[0]
            xs, ys = x[inside], y[inside]
            assert not passes(ys, ys[xs < t], ys[xs >= t]), (lo, hi, t)


def test_clear_and_hopeless_cases():
    x = np.arange(40.0)
    assert_array_equal(mdl_cut_points(x, (x >= 20).astype(int)), [19.5])
    assert_array_equal(mdl_cut_points(x, np.digitize(x, [10, 30])), [9.5, 29.5])
    assert mdl_cut_points(x, x % 2).size == 0
    assert mdl_cut_points(x, np.zeros(40)).size == 0          # one class: nothing to cut
    assert mdl_cut_points(np.ones(10), np.arange(10) % 2).size == 0
    with pytest.raises(ValueError, match="x must be a non-empty 1-d array of finite numbers"):
        mdl_cut_points([0.0, np.inf], [0, 1])
    with pytest.raises(ValueError, match=r"y must be a 1-d array of class labels, one per value "
                                         r"of x \(2\)"):
        mdl_cut_points([0.0, 1.0], [0, 1, 1])


def test_the_transformer_codes_intervals_as_kbins_does():
    x, y = sample(3)
    X = np.column_stack([x, np.zeros_like(x), -x])
    d = MDLDiscretiser().fit(X, y)
    assert_array_equal(d.cut_points_[0], mdl_cut_points(x, y))
    assert d.n_bins_[1] == 1
    codes = d.transform(X)
    assert codes.dtype == np.int64
    assert_array_equal(codes[:, 0], np.searchsorted(d.cut_points_[0], x, side="right"))
    assert_array_equal(codes[:, 1], 0)
    on_a_cut = d.cut_points_[0][:1]
    if on_a_cut.size:          # a value equal to a cut point belongs to the interval above
        assert d.transform([[on_a_cut[0], 0.0, 0.0]])[0, 0] == 1
    with pytest.raises(ValueError, match="X has 2 features, but MDLDiscretiser is expecting 3"):
        d.transform(X[:, :2])
