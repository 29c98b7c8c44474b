"""TAN, AODE and selective naive Bayes, each against an exact oracle.

* the conditional mutual information against scikit-learn's ``mutual_info_score`` per class;
* the maximum spanning tree against every spanning tree of small graphs (Prüfer sequences);
* TAN's tree against the log likelihood of every tree-augmented model on small data, computed
  by counting (Friedman, Geiger & Goldszmidt 1997);
* AODE against its definition (Webb, Boughton & Wang 2005), evaluated row by row with loops;
* the leave-one-out scores of selective naive Bayes against refitting without each row.
"""

import itertools
from collections import Counter

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import mutual_info_score

from nbcourse import (
    AveragedOneDependenceNB,
    CategoricalNB,
    FullJointNB,
    SelectiveNB,
    TreeAugmentedNB,
    conditional_mutual_information,
    maximum_spanning_tree,
    tree_parents,
)
from nbcourse.datasets import email_features, titanic


def codes(seed, n=80, V=(2, 3, 2, 4), C=2):
    """Dependent category codes: each feature copies the previous one now and then."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, C, size=n)
    y[:C] = np.arange(C)
    X = np.zeros((n, len(V)), dtype=np.int64)
    for j, v in enumerate(V):
        fresh = (rng.integers(0, v, size=n) + y) % v
        if j:
            fresh = np.where(rng.random(n) < 0.5, X[:, j - 1] % v, fresh)
        X[:, j] = fresh
    X[: max(V), :] = np.arange(max(V))[:, None] % np.array(V)   # every value occurs
    return X, y


def all_spanning_trees(d):
    """Every spanning tree of the complete graph on d nodes, from its Prüfer sequence."""
    if d == 2:
        yield [(0, 1)]
        return
    for seq in itertools.product(range(d), repeat=d - 2):
        degree = [1] * d
        for i in seq:
            degree[i] += 1
        edges = []
        for i in seq:
            leaf = min(j for j in range(d) if degree[j] == 1)
            edges.append(tuple(sorted((leaf, i))))
            degree[leaf] -= 1
            degree[i] -= 1
        u, v = [j for j in range(d) if degree[j] == 1]
        edges.append((u, v))
        yield sorted(edges)


# --- information and trees ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_conditional_mutual_information_is_the_class_weighted_mutual_information(seed):
    X, y = codes(seed, C=3)
    cmi = conditional_mutual_information(X, y)
    for i, j in itertools.product(range(X.shape[1]), repeat=2):
        expected = sum(np.mean(y == c) * mutual_info_score(X[y == c, i], X[y == c, j])
                       for c in np.unique(y))
        assert_allclose(cmi[i, j], expected, rtol=1e-10, atol=1e-14)


def test_conditional_mutual_information_refuses_codes_above_n_values():
    with pytest.raises(ValueError, match=r"X\[0, 1\] = 2 is not a valid code for feature 1, which has 2 categories"):
        conditional_mutual_information([[0, 2], [1, 0]], [0, 1], n_values=2)


def test_cayley_count_of_the_enumeration():
    for d in (2, 3, 4, 5):
        trees = {tuple(t) for t in all_spanning_trees(d)}
        assert len(trees) == d ** (d - 2)


@pytest.mark.parametrize("seed", range(30))
def test_the_maximum_spanning_tree_is_the_heaviest_of_all_trees(seed):
    rng = np.random.default_rng(seed)
    d = 2 + seed % 5
    W = rng.random((d, d))
    if seed % 3 == 0:
        W = np.round(W, 1)                       # ties, and weights of exactly 0
    W = (W + W.T) / 2
    total = {tuple(t): sum(W[i, j] for i, j in t) for t in all_spanning_trees(d)}
    best = max(total.values())
    found = [tuple(e) for e in maximum_spanning_tree(W).tolist()]
    assert_allclose(total[tuple(found)], best, rtol=1e-12)
    winners = [t for t, w in total.items() if np.isclose(w, best, rtol=1e-12)]
    if len(winners) == 1:
        assert list(found) == list(winners[0])


def test_tree_parents_orients_every_edge_away_from_the_root():
    edges = [(0, 1), (1, 2), (1, 3), (3, 4)]
    for root in range(5):
        parents = tree_parents(edges, 5, root)
        assert parents[root] == -1
        assert {tuple(sorted((j, int(p)))) for j, p in enumerate(parents) if p >= 0} == set(edges)
    with pytest.raises(ValueError, match="edges must connect all 4 nodes into one tree"):
        tree_parents([(0, 1), (0, 1), (2, 3)], 4)
    with pytest.raises(ValueError, match="root must be a node 0..2, got 3"):
        tree_parents([(0, 1), (1, 2)], 3, root=3)
    with pytest.raises(ValueError, match="weights must be symmetric"):
        maximum_spanning_tree([[0, 1], [2, 0]])


# --- TAN ------------------------------------------------------------------------------------------


def tree_log_likelihood(X, y, parents):
    """Σ_n ln P̂(y_n) + Σ_j ln P̂(x_nj | x_n,pa(j), y_n), maximum likelihood, by counting."""
    n = len(y)
    total = 0.0
    prior = Counter(y.tolist())
    total += sum(np.log(prior[c] / n) for c in y.tolist())
    for j, p in enumerate(parents):
        if p < 0:
            joint = Counter(zip(y.tolist(), X[:, j].tolist(), strict=True))
            total += sum(np.log(joint[(c, v)] / prior[c])
                         for c, v in zip(y.tolist(), X[:, j].tolist(), strict=True))
        else:
            triples = list(zip(y.tolist(), X[:, p].tolist(), X[:, j].tolist(), strict=True))
            joint, pairs = Counter(triples), Counter((c, u) for c, u, _ in triples)
            total += sum(np.log(joint[t] / pairs[t[:2]]) for t in triples)
    return total


def training_log_likelihood(model, X, y):
    jll = model._joint_log_likelihood(X)
    return float(jll[np.arange(len(y)), np.searchsorted(model.classes_, y)].sum())


@pytest.mark.parametrize("seed", range(6))
def test_tans_tree_has_the_largest_likelihood_of_all_trees(seed):
    X, y = codes(seed, n=60, V=(2, 3, 2, 3, 2)[: 3 + seed % 3])
    d = X.shape[1]
    tan = TreeAugmentedNB(alpha=0.0).fit(X, y)
    ll_tan = training_log_likelihood(tan, X, y)
    assert_allclose(ll_tan, tree_log_likelihood(X, y, tan.parent_), rtol=1e-10)
    every = [tree_log_likelihood(X, y, tree_parents(t, d, 0)) for t in all_spanning_trees(d)]
    assert ll_tan >= max(every) - 1e-8 * abs(max(every))
    assert ll_tan >= training_log_likelihood(CategoricalNB(alpha=0.0).fit(X, y), X, y) - 1e-9


def test_the_root_does_not_change_the_fitted_distribution():
    X, y = codes(1, V=(2, 3, 2, 4))
    probe = np.array(list(itertools.product(range(2), range(3), range(2), range(4))))
    base = TreeAugmentedNB(alpha=0.0).fit(X, y)
    for root in range(1, 4):
        other = TreeAugmentedNB(alpha=0.0, root=root).fit(X, y)
        assert_array_equal(other.edges_, base.edges_)
        assert other.parent_[root] == -1
        assert_allclose(other._joint_log_likelihood(probe), base._joint_log_likelihood(probe),
                        rtol=1e-10)


def test_tan_with_two_features_is_the_full_joint_and_with_one_is_naive_bayes():
    X, y = titanic().to_rows(target="Survived")
    two = X[:, :2]
    assert_allclose(TreeAugmentedNB(alpha=0.0).fit(two, y).predict_proba(two),
                    FullJointNB(alpha=0.0).fit(two, y).predict_proba(two), rtol=1e-12)
    one = X[:, :1]
    assert_allclose(TreeAugmentedNB(alpha=1.0).fit(one, y).predict_proba(one),
                    CategoricalNB(alpha=1.0).fit(one, y).predict_proba(one), rtol=1e-12)


def test_tan_smooths_every_table_with_lidstone():
    X, y = codes(2)
    tan = TreeAugmentedNB(alpha=0.5).fit(X, y)
    for j, p in enumerate(tan.parent_):
        N = tan.table_count_[j]
        expected = (N + 0.5) / (N.sum(axis=2, keepdims=True) + 0.5 * N.shape[2])
        assert_allclose(np.exp(tan.feature_log_prob_[j]), expected, rtol=1e-13)
        if p >= 0:
            for c in (0, 1):
                for u, v in itertools.product(range(X[:, p].max() + 1), range(X[:, j].max() + 1)):
                    assert N[c, u, v] == np.sum((y == c) & (X[:, p] == u) & (X[:, j] == v))


def test_an_empty_parent_slice_without_smoothing_is_uniform():
    X = [[0, 0], [0, 1], [1, 1], [1, 0], [1, 1], [0, 0]]
    y = [0, 0, 0, 1, 1, 1]
    m = TreeAugmentedNB(alpha=0.0, n_values=[3, 2]).fit(X, y)
    assert m.parent_[1] == 0
    assert_allclose(np.exp(m.feature_log_prob_[1][:, 2, :]), 0.5)     # value 2 never seen


# --- AODE ----------------------------------------------------------------------------------------


def aode_by_definition(X, y, x, alpha, m):
    """P(c | x) from Webb, Boughton & Wang's formula, with loops and Lidstone estimates."""
    X, y = np.asarray(X), np.asarray(y)
    n, d = X.shape
    V = X.max(axis=0) + 1
    classes = np.unique(y)
    C = classes.size
    parents = [i for i in range(d) if np.sum(X[:, i] == x[i]) >= m]
    joint = np.zeros(C)
    for k, c in enumerate(classes):
        in_c = y == c
        if not parents:
            p = in_c.mean()
            for j in range(d):
                p *= (np.sum(in_c & (X[:, j] == x[j])) + alpha) / (in_c.sum() + alpha * V[j])
            joint[k] = p
            continue
        for i in parents:
            with_parent = in_c & (X[:, i] == x[i])
            p = (with_parent.sum() + alpha) / (n + alpha * C * V[i])
            for j in range(d):
                if j != i:
                    p *= ((np.sum(with_parent & (X[:, j] == x[j])) + alpha)
                          / (with_parent.sum() + alpha * V[j]))
            joint[k] += p / len(parents)
    return joint / joint.sum()


@pytest.mark.parametrize(("alpha", "min_count"), [(1.0, 0), (0.5, 5), (1.0, 30), (1.0, 1000)])
def test_aode_is_its_definition(alpha, min_count):
    X, y = codes(3, n=90, C=3)
    model = AveragedOneDependenceNB(alpha=alpha, min_count=min_count).fit(X, y)
    probe = np.array(list(itertools.product(*(range(v) for v in X.max(axis=0) + 1))))
    expected = np.array([aode_by_definition(X, y, x, alpha, min_count) for x in probe])
    assert_allclose(model.predict_proba(probe), expected, rtol=1e-11)


def test_aode_with_two_features_is_the_full_joint():
    X, y = titanic().to_rows(target="Survived")
    two = X[:, [0, 1]]
    assert_allclose(AveragedOneDependenceNB(alpha=0.0, min_count=0).fit(two, y).predict_proba(two),
                    FullJointNB(alpha=0.0).fit(two, y).predict_proba(two), rtol=1e-12)


def test_aode_refuses_a_bad_frequency_limit():
    with pytest.raises(ValueError, match="min_count must be a finite number >= 0, got -1"):
        AveragedOneDependenceNB(min_count=-1).fit([[0], [1]], [0, 1])


# --- selective naive Bayes -------------------------------------------------------------------------


def loo_score(X, y, features, alpha, criterion):
    """Refit without each row in turn; the prior smoothed as SelectiveNB documents."""
    X, y = np.asarray(X), np.asarray(y)
    V = X.max(axis=0) + 1
    C = np.unique(y).size
    loss, wrong = 0.0, 0
    for n in range(len(y)):
        keep = np.arange(len(y)) != n
        counts = np.bincount(y[keep], minlength=C)
        log_joint = np.log(counts + alpha) - np.log(keep.sum() + alpha * C)
        if features:
            model = CategoricalNB(alpha=alpha, n_values=V).fit(X[keep], y[keep])
            for j in features:
                log_joint = log_joint + model.feature_log_prob_[j][:, X[n, j]]
        post = log_joint - np.logaddexp.reduce(log_joint)
        loss -= post[y[n]]
        wrong += int(np.argmax(log_joint) != y[n])
    return loss / len(y) if criterion == "log_loss" else wrong / len(y)


@pytest.mark.parametrize(("seed", "criterion"), [(0, "log_loss"), (1, "log_loss"), (2, "error")])
def test_selection_is_greedy_on_the_exact_leave_one_out_score(seed, criterion):
    X, y = codes(seed, n=40)
    rng = np.random.default_rng(seed)
    X = np.column_stack([X, rng.integers(0, 3, size=40)])          # a noise feature
    X[:3, -1] = [0, 1, 2]
    m = SelectiveNB(alpha=1.0, criterion=criterion).fit(X, y)
    chosen = []
    assert_allclose(m.selection_path_[0], loo_score(X, y, [], 1.0, criterion), rtol=1e-10)
    for step, j in enumerate(m.selected_):
        rest = [k for k in range(X.shape[1]) if k not in chosen]
        scores = {k: loo_score(X, y, [*chosen, k], 1.0, criterion) for k in rest}
        assert_allclose(scores[j], min(scores.values()), rtol=1e-10)
        assert_allclose(m.selection_path_[step + 1], scores[j], rtol=1e-10)
        chosen.append(int(j))
    rest = [k for k in range(X.shape[1]) if k not in chosen]
    if rest:
        assert min(loo_score(X, y, [*chosen, k], 1.0, criterion) for k in rest) \
            >= m.selection_path_[-1] - 1e-12
    assert len(m.selected_) >= 1


def test_selective_nb_predicts_from_the_chosen_features_only():
    X, spam, _ = email_features()
    m = SelectiveNB().fit(X, spam)
    full = CategoricalNB().fit(X[:, m.selected_], spam)
    assert_allclose(m.predict_proba(X), full.predict_proba(X[:, m.selected_]), rtol=1e-12)
    assert 0 < m.selected_.size < X.shape[1]
    assert np.all(np.diff(m.selection_path_) < 0)
    with pytest.raises(ValueError, match="criterion must be 'log_loss' or 'error', got 'auc'"):
        SelectiveNB(criterion="auc").fit(X, spam)


@pytest.mark.parametrize("model", [TreeAugmentedNB(alpha=1.0), AveragedOneDependenceNB(),
                                   SelectiveNB()], ids=repr)
def test_one_hot_memberships_give_the_fit_of_the_labels(model):
    X, y = codes(4)
    fitted = model.fit(X, y)
    proba = fitted.predict_proba(X)
    again = type(model)(**model.get_params())._fit_memberships(X, np.eye(2)[y], np.array([0, 1]))
    assert_allclose(again.predict_proba(X), proba, rtol=1e-13)


@pytest.mark.parametrize("model", [TreeAugmentedNB(), AveragedOneDependenceNB(), SelectiveNB()],
                         ids=repr)
def test_codes_above_those_seen_in_fit_are_refused(model):
    model.fit([[0, 1], [1, 0], [1, 1]], [0, 1, 1])
    with pytest.raises(ValueError, match=r"X\[0, 0\] = 2 is not a valid code for feature 0"):
        model.predict([[2, 0]])
