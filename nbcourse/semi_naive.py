"""Semi-naive Bayes: classifiers that relax, or select from, naive Bayes's independence.

Each model takes category codes, like :class:`nbcourse.CategoricalNB`, and is fitted by the
shared ``fit`` of :mod:`nbcourse.naive_bayes` from the class memberships of the rows.

* :class:`TreeAugmentedNB` (TAN; Friedman, Geiger & Goldszmidt 1997): every feature but one
  has, besides the class, one other feature as a parent, the parents forming a tree.  The tree
  is the maximum spanning tree of the conditional mutual information ``I(x_i; x_j | y)``
  (the construction of Chow & Liu 1968, made conditional on the class), which maximises the
  likelihood among all such trees.
* :class:`AveragedOneDependenceNB` (AODE; Webb, Boughton & Wang 2005): the average, over every
  feature ``x_i`` taken in turn as the parent of all the others, of the joint
  ``P(y, x_i) Π_{j ≠ i} P(x_j | y, x_i)``; no structure is learned.
* :class:`SelectiveNB` (Langley & Sage 1994): naive Bayes on a subset of the features, grown
  greedily, one feature at a time, as long as the held-out score improves; here the score is
  the exact leave-one-out log loss (or error rate) of the counts.

and the parts of TAN:

* :func:`conditional_mutual_information`: ``I(x_i; x_j | y)`` of every pair of features, in
  nats, from the counts (Cover & Thomas 2006, §2.5);
* :func:`maximum_spanning_tree`: Kruskal's tree (Kruskal 1956) of largest total weight,
  computed by SciPy's ``minimum_spanning_tree``;
* :func:`tree_parents`: the tree directed away from a root.

Smoothing is Lidstone's ``(N + α)/(N' + αV)`` on every conditional table.  A table slice with no
rows at all (a parent value never seen in a class) and ``α = 0`` has no maximum-likelihood
estimate; it is given the uniform distribution ``1/V``, which changes no likelihood of the
training data.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._logspace import log, logsumexp
from ._validation import (
    _describe,
    as_real_array,
    check_codes,
    check_codes_below,
    check_labels,
    check_n_values,
)
from .naive_bayes import CategoricalNB, NaiveBayes, _refuse_negative

__all__ = [
    "AveragedOneDependenceNB",
    "SelectiveNB",
    "TreeAugmentedNB",
    "conditional_mutual_information",
    "maximum_spanning_tree",
    "tree_parents",
]


# --- counts and information -------------------------------------------------------------------


def _offsets(n_values):
    """Start of each feature's block in the one-hot columns: ``[0, V_0, V_0 + V_1, ...]``."""
    return np.concatenate([[0], np.cumsum(n_values)]).astype(np.int64)


def _pair_counts(X, Y, n_values):
    """``N[c, (i, a), (j, b)] = Σ_n Y_nc [x_ni = a][x_nj = b]``, shape (C, M, M), ``M = Σ_j V_j``.

    Block ``(i, j)`` is the class-``c`` table of features ``i`` and ``j``; block ``(j, j)``
    holds the counts ``N_cjv`` on its diagonal.
    """
    offsets = _offsets(n_values)
    H = np.zeros((X.shape[0], offsets[-1]))
    H[np.arange(X.shape[0])[:, None], offsets[:-1] + X] = 1.0
    return np.einsum("nc,na,nb->cab", Y, H, H)


def _block(P, offsets, i, j):
    return P[:, offsets[i]:offsets[i + 1], offsets[j]:offsets[j + 1]]


def _cmi_from_pairs(P, n_values):
    """``I(x_i; x_j | y)`` in nats from the pair counts of :func:`_pair_counts`."""
    offsets = _offsets(n_values)
    d = len(n_values)
    total = P[:, :n_values[0], :n_values[0]].sum()
    cmi = np.zeros((d, d))
    for i in range(d):
        for j in range(i, d):
            N = _block(P, offsets, i, j)                               # (C, V_i, V_j)
            n_c = N.sum(axis=(1, 2), keepdims=True)
            n_ca, n_cb = N.sum(axis=2, keepdims=True), N.sum(axis=1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = np.where(N > 0, N * np.log(N * n_c / (n_ca * n_cb)), 0.0)
            cmi[i, j] = cmi[j, i] = max(float(terms.sum() / total), 0.0)
    return cmi


def conditional_mutual_information(X, y, n_values=None):
    """``I(x_i; x_j | y)`` for every pair of features, in nats, from the empirical distribution.

    ``I(x_i; x_j | y) = Σ_{c,a,b} P(a, b, c) ln[P(a, b | c) / (P(a | c) P(b | c))]``
    with every ``P`` a relative frequency of the rows (Cover & Thomas 2006, §2.5;
    Friedman, Geiger & Goldszmidt 1997): the mutual information of the two features within
    each class, averaged over the classes with weights ``N_c / N``.  It is 0 exactly when the
    two features are independent in every class of the sample, and the diagonal holds
    ``I(x_i; x_i | y) = H(x_i | y)``.

    Parameters
    ----------
    X : array_like of int, shape (N, d)
        Category codes.
    y : array_like, shape (N,)
        Class labels.
    n_values : int, sequence of int or None, default None
        ``V_j``; ``None`` takes ``max(X[:, j]) + 1``.

    Returns
    -------
    numpy.ndarray, shape (d, d)
        Symmetric, non-negative.

    Examples
    --------
    Two copies of a fair bit in each class share ln 2 nats; a bit and a constant share none.

    >>> X = [[0, 0, 1], [1, 1, 1], [0, 0, 1], [1, 1, 1]]
    >>> conditional_mutual_information(X, [0, 0, 1, 1]).round(4)
    array([[0.6931, 0.6931, 0.    ],
           [0.6931, 0.6931, 0.    ],
           [0.    , 0.    , 0.    ]])
    """
    X = check_codes(X, "X")
    labels = check_labels(y, X.shape[0])
    _, codes = np.unique(labels, return_inverse=True)
    V = check_n_values(n_values, X.shape[1])
    V = X.max(axis=0) + 1 if V is None else V
    check_codes_below(X, V, "X", "from n_values")
    return _cmi_from_pairs(_pair_counts(X, np.eye(codes.max() + 1)[codes], V), V)


# --- trees ------------------------------------------------------------------------------------


def maximum_spanning_tree(weights):
    """The spanning tree of largest total weight of the complete graph with these weights.

    Kruskal's algorithm (Kruskal 1956) as SciPy runs it
    (``scipy.sparse.csgraph.minimum_spanning_tree``), applied to ``w_max + 1 - W`` so that the
    smallest tree of the transformed weights is the largest of ``W`` (every spanning tree has
    ``d - 1`` edges, so a constant shift keeps the order of their totals) and no weight is 0,
    which SciPy would read as a missing edge.

    Parameters
    ----------
    weights : array_like, shape (d, d)
        Symmetric finite weights; the diagonal is ignored.

    Returns
    -------
    numpy.ndarray of int64, shape (d - 1, 2)
        The edges ``(i, j)`` with ``i < j``, sorted.  When several trees have the largest total,
        one of them.

    Examples
    --------
    >>> W = [[0, 5, 1], [5, 0, 2], [1, 2, 0]]
    >>> maximum_spanning_tree(W)
    array([[0, 1],
           [1, 2]])
    """
    from scipy.sparse.csgraph import minimum_spanning_tree

    W = as_real_array(weights, "weights")
    if W.ndim != 2 or W.shape[0] != W.shape[1] or W.shape[0] == 0:
        raise ValueError(f"weights must be a square (d, d) array with d >= 1, got {_describe(W)}")
    off = ~np.eye(W.shape[0], dtype=bool)
    if not np.isfinite(W[off]).all() or not np.allclose(W, W.T, rtol=1e-12, atol=1e-12):
        raise ValueError(f"weights must be symmetric and finite off the diagonal, "
                         f"got {_describe(W)}")
    d = W.shape[0]
    if d == 1:
        return np.zeros((0, 2), dtype=np.int64)
    cost = np.where(off, W[off].max() + 1.0 - W, 0.0)
    tree = minimum_spanning_tree(np.triu(cost)).tocoo()
    edges = np.sort(np.column_stack([tree.row, tree.col]), axis=1)
    return edges[np.lexsort((edges[:, 1], edges[:, 0]))].astype(np.int64)


def tree_parents(edges, d, root=0):
    """The parent of every node when the tree ``edges`` is directed away from ``root``.

    Parameters
    ----------
    edges : array_like of int, shape (d - 1, 2)
        The undirected edges of a spanning tree of the nodes ``0..d-1``.
    d : int
        Number of nodes.
    root : int, default 0

    Returns
    -------
    numpy.ndarray of int64, shape (d,)
        ``parents[j]`` is the node ``j`` hangs from; ``parents[root] = -1``.

    Examples
    --------
    >>> tree_parents([[0, 1], [1, 2]], 3, root=2)
    array([ 1,  2, -1])
    """
    if isinstance(d, bool) or not isinstance(d, numbers.Integral) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    if isinstance(root, bool) or not isinstance(root, numbers.Integral) or not 0 <= root < d:
        raise ValueError(f"root must be a node 0..{d - 1}, got {root!r}")
    E = np.asarray(edges, dtype=np.int64).reshape(-1, 2) if len(edges) else np.zeros((0, 2), int)
    if E.shape != (d - 1, 2) or ((E < 0) | (E >= d)).any():
        raise ValueError(f"edges must be {d - 1} pairs of nodes 0..{d - 1}, got {_describe(E)}")
    neighbours = [[] for _ in range(d)]
    for i, j in E:
        neighbours[i].append(int(j))
        neighbours[j].append(int(i))
    parents = np.full(d, -2, dtype=np.int64)
    parents[root] = -1
    queue = [int(root)]
    while queue:
        node = queue.pop(0)
        for other in sorted(neighbours[node]):
            if parents[other] == -2:
                parents[other] = node
                queue.append(other)
    if (parents == -2).any():
        raise ValueError(f"edges must connect all {d} nodes into one tree, got {E.tolist()}")
    return parents


# --- shared helpers of the models -------------------------------------------------------------


def _log_conditional(counts, alpha):
    """``ln[(N_v + α) / (Σ_v N_v + αV)]`` along the last axis; a slice with no weight (and
    ``α = 0``) gets ``ln(1/V)``."""
    V = counts.shape[-1]
    total = counts.sum(axis=-1, keepdims=True) + alpha * V
    empty = total <= 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = log(counts + alpha) - np.log(np.where(empty, 1.0, total))
    return np.where(empty, -np.log(V), out)


def _check_codes_entries(estimator, X, reset):
    _refuse_negative(X, "non-negative category codes 0, 1, 2, ...", "category codes")
    X = check_codes(X, "X")
    if not reset:
        check_codes_below(X, estimator.n_categories_, "X", "learned in fit")
    return X


class _CodesNB(NaiveBayes):
    """Shared input handling of the models on category codes."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True
        return tags

    def _check_entries(self, X, reset):
        return _check_codes_entries(self, X, reset)


# --- TAN --------------------------------------------------------------------------------------


class TreeAugmentedNB(_CodesNB):
    """Tree-augmented naive Bayes (TAN; Friedman, Geiger & Goldszmidt 1997).

    ``P(x | c) = Π_j P(x_j | x_{pa(j)}, c)``, where ``pa(j)`` is feature ``j``'s parent in a tree
    over the features and the root has no feature parent.  The tree is the maximum spanning
    tree (:func:`maximum_spanning_tree`) of the weights ``I(x_i; x_j | y)``
    (:func:`conditional_mutual_information`), directed away from ``root``
    (:func:`tree_parents`).  With ``alpha = 0`` this tree maximises the log likelihood of the
    training data among all tree-augmented models, whatever the root (Friedman, Geiger &
    Goldszmidt 1997, after Chow & Liu 1968).

    Parameters
    ----------
    alpha : float, default 1.0
        Lidstone smoothing of every conditional table, ``(N_{c,u,v} + α)/(N_{c,u} + α V_j)``.
    n_values : int, sequence of int or None, default None
        ``V_j``; ``None`` takes ``max(X[:, j]) + 1`` from the training data.
    root : int, default 0
        The feature at the root of the tree.

    Attributes
    ----------
    classes_, class_count_, class_log_prior_ : as in :class:`nbcourse.CategoricalNB`
    n_categories_ : ndarray of int64, shape (n_features,)
    cmi_ : ndarray, shape (n_features, n_features)
        ``I(x_i; x_j | y)`` in nats (weighted by the memberships).
    edges_ : ndarray of int64, shape (n_features - 1, 2)
        The tree's undirected edges.
    parent_ : ndarray of int64, shape (n_features,)
        Each feature's feature parent, ``-1`` for the root.
    table_count_ : list of ndarray, each shape (C, V_{pa(j)}, V_j)
        ``N_{c,v',v}``: class-``c`` rows with parent value ``v'`` and ``x_j = v`` (for the root,
        one parent value).
    feature_log_prob_ : list of ndarray, each shape (C, V_{pa(j)}, V_j)
        ``ln P(x_j = v | x_{pa(j)} = v', c)``.

    Examples
    --------
    In class 0 the two bits are equal, in class 1 they differ; the tree links them, and TAN
    sees what naive Bayes cannot.

    >>> X = [[0, 0], [1, 1], [0, 1], [1, 0]] * 5
    >>> y = [0, 0, 1, 1] * 5
    >>> TreeAugmentedNB(alpha=0).fit(X, y).predict_proba([[1, 1], [1, 0]])
    array([[1., 0.],
           [0., 1.]])
    """

    def __init__(self, alpha=1.0, n_values=None, root=0):
        self.alpha = alpha
        self.n_values = n_values
        self.root = root

    def _count(self, X, Y):
        """``cmi_``, the tree (``edges_``, ``parent_``) and ``table_count_``."""
        V = self._n_values_of(X).astype(np.int64)
        d = V.size
        root = self.root
        if isinstance(root, bool) or not isinstance(root, numbers.Integral) or not 0 <= root < d:
            raise ValueError(f"root must be a feature 0..{d - 1}, got {root!r}")
        self.n_categories_ = V
        P = _pair_counts(X, Y, V)
        offsets = _offsets(V)
        self.cmi_ = _cmi_from_pairs(P, V)
        self.edges_ = maximum_spanning_tree(self.cmi_)
        self.parent_ = tree_parents(self.edges_, d, int(root))
        self.table_count_ = [
            np.einsum("cvv->cv", _block(P, offsets, j, j))[:, None, :] if p < 0
            else _block(P, offsets, p, j).copy()
            for j, p in enumerate(self.parent_)]

    def _update_feature_log_prob(self, alpha):
        """``feature_log_prob_``: Lidstone estimates of every conditional table."""
        self.feature_log_prob_ = [_log_conditional(N, alpha) for N in self.table_count_]

    def _joint_log_likelihood(self, X):
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for j, (p, lp) in enumerate(zip(self.parent_, self.feature_log_prob_, strict=True)):
            u = np.zeros(X.shape[0], dtype=np.int64) if p < 0 else X[:, p]
            jll = jll + lp[:, u, X[:, j]].T
        return jll


# --- AODE -------------------------------------------------------------------------------------


class AveragedOneDependenceNB(_CodesNB):
    """Averaged one-dependence estimators (AODE; Webb, Boughton & Wang 2005).

    ``P(y = c, x) ≈ (1/|S(x)|) Σ_{i ∈ S(x)} P(c, x_i) Π_{j ≠ i} P(x_j | c, x_i)``,

    where ``S(x)`` holds the features whose value ``x_i`` was seen in at least ``min_count``
    training rows (the paper's frequency limit ``m``); when ``S(x)`` is empty the model falls
    back to naive Bayes, ``P(c) Π_j P(x_j | c)``.  The estimates are Lidstone's:
    ``P(c, x_i = a) = (N_{c,i,a} + α)/(N + α C V_i)`` and
    ``P(x_j = b | c, x_i = a) = (N_{c,i,a,j,b} + α)/(N_{c,i,a} + α V_j)``.  (The paper's product
    runs over every ``j``; its factor for ``j = i``, ``P(x_i | c, x_i)``, is 1 and is left out.)

    Parameters
    ----------
    alpha : float, default 1.0
    n_values : int, sequence of int or None, default None
    min_count : float, default 30
        ``m``: a feature value is a parent only if it occurs in at least ``m`` training rows;
        Webb, Boughton & Wang (2005) take 30.

    Attributes
    ----------
    classes_, class_count_, class_log_prior_ : as in :class:`nbcourse.CategoricalNB`
    n_categories_ : ndarray of int64, shape (n_features,)
    pair_count_ : ndarray, shape (C, M, M)
        ``N_{c,i,a,j,b}``, rows and columns in blocks of ``V_j`` (``M = Σ_j V_j``).
    value_count_ : ndarray, shape (M,)
        ``F(x_i = a)``, the rows with each value.
    parent_log_prob_ : ndarray, shape (C, M)
        ``ln P(c, x_i = a)``.
    feature_log_prob_ : ndarray, shape (C, M, M)
        ``ln P(x_j = b | c, x_i = a)`` at ``[c, (i, a), (j, b)]``.
    naive_log_prob_ : ndarray, shape (C, M)
        ``ln P(x_j = b | c)``, for the fall-back to naive Bayes.

    Examples
    --------
    >>> X = [[0, 0], [1, 1], [0, 1], [1, 0]] * 5
    >>> y = [0, 0, 1, 1] * 5
    >>> AveragedOneDependenceNB(alpha=0, min_count=1).fit(X, y).predict_proba([[1, 1]])
    array([[1., 0.]])
    """

    def __init__(self, alpha=1.0, n_values=None, min_count=30):
        self.alpha = alpha
        self.n_values = n_values
        self.min_count = min_count

    def _count(self, X, Y):
        """``pair_count_`` and ``value_count_``."""
        m = self.min_count
        if isinstance(m, bool) or not isinstance(m, numbers.Real) or not (np.isfinite(m) and m >= 0):
            raise ValueError(f"min_count must be a finite number >= 0, got {m!r}")
        V = self._n_values_of(X).astype(np.int64)
        self.n_categories_ = V
        self.pair_count_ = _pair_counts(X, Y, V)
        self.value_count_ = np.einsum("caa->a", self.pair_count_)

    def _update_feature_log_prob(self, alpha):
        """The Lidstone estimates of the parent, conditional and naive tables."""
        V = self.n_categories_
        offsets = _offsets(V)
        P = self.pair_count_
        C = P.shape[0]
        diag = np.einsum("caa->ca", P)                                          # N_{c,i,a}
        total = self.class_count_.sum()
        block_V = np.repeat(V, V)                                              # V_i per column
        with np.errstate(divide="ignore"):
            self.parent_log_prob_ = log(diag + alpha) - np.log(total + alpha * C * block_V)
        self.feature_log_prob_ = np.empty_like(P)
        self.naive_log_prob_ = np.empty_like(diag)
        for j in range(V.size):
            cols = slice(offsets[j], offsets[j + 1])
            self.feature_log_prob_[:, :, cols] = _log_conditional(P[:, :, cols], alpha)
            self.naive_log_prob_[:, cols] = _log_conditional(diag[:, cols], alpha)

    def _joint_log_likelihood(self, X):
        idx = _offsets(self.n_categories_)[:-1] + X                             # (N, d)
        L = self.feature_log_prob_[:, idx[:, :, None], idx[:, None, :]]          # (C, N, d, d)
        d = X.shape[1]
        off_diagonal = ~np.eye(d, dtype=bool)
        children = np.where(off_diagonal, L, 0.0).sum(axis=3)                    # (C, N, d)
        terms = self.parent_log_prob_[:, idx] + children                         # (C, N, d)
        parent_ok = self.value_count_[idx] >= self.min_count                     # (N, d)
        n_ok = parent_ok.sum(axis=1)
        averaged = (logsumexp(np.where(parent_ok[None], terms, -np.inf), axis=2)
                    - np.log(np.maximum(n_ok, 1)))
        naive = self.class_log_prior_[:, None] + self.naive_log_prob_[:, idx].sum(axis=2)
        return np.where(n_ok[None] > 0, averaged, naive).T


# --- selective naive Bayes --------------------------------------------------------------------


class SelectiveNB(CategoricalNB):
    """Naive Bayes on the features chosen by forward selection (Langley & Sage 1994).

    Starting from no feature (the prior alone), the feature whose addition gives the smallest
    leave-one-out score is added, as long as the score decreases.  The leave-one-out score is
    computed exactly from the counts: for row ``n`` of class ``c_n`` every estimate is made
    without it, ``θ^{-n}_{jvc} = (N_cjv - [c = c_n][x_nj = v] + α)/(N_c - [c = c_n] + α V_j)``,
    and the prior ``(N_c - [c = c_n] + α)/(N - 1 + αC)`` is smoothed the same way so that a
    class with a single row does not make every score infinite.  (With class memberships
    ``Y`` in place of labels, row ``n`` takes away ``Y_nc`` from each count of class ``c``.)

    Parameters
    ----------
    alpha : float, default 1.0
    n_values : int, sequence of int or None, default None
    criterion : {"log_loss", "error"}, default "log_loss"
        The leave-one-out score: mean log loss, or the share of rows whose maximum a posteriori
        class is wrong.

    Attributes
    ----------
    (those of :class:`nbcourse.CategoricalNB`, for every feature), and
    selected_ : ndarray of int64
        The chosen features, in the order they were added.
    selection_path_ : ndarray of float64, shape (len(selected_) + 1,)
        The leave-one-out score of the prior alone and after each addition.

    Examples
    --------
    The class copies feature 1; feature 0 is noise.

    >>> X = [[0, 0], [1, 0], [0, 1], [1, 1]] * 5
    >>> m = SelectiveNB().fit(X, [0, 0, 1, 1] * 5)
    >>> m.selected_
    array([1])
    """

    def __init__(self, alpha=1.0, n_values=None, criterion="log_loss"):
        self.alpha = alpha
        self.n_values = n_values
        self.criterion = criterion

    def _count(self, X, Y):
        """The counts of :class:`nbcourse.CategoricalNB`, and the rows' memberships and codes
        for the leave-one-out scores."""
        if self.criterion not in ("log_loss", "error"):
            raise ValueError(f"criterion must be 'log_loss' or 'error', got {self.criterion!r}")
        super()._count(X, Y)
        self._rows = (X, Y)

    def _loo_log_tables(self, alpha):
        """Leave-one-out log prior (N, C) and log ``θ`` of each feature, a list of (N, C)."""
        X, Y = self._rows
        N_c = self.class_count_
        C = N_c.size
        with np.errstate(divide="ignore", invalid="ignore"):
            prior = log(N_c - Y + alpha) - np.log(N_c.sum() - Y.sum(axis=1, keepdims=True)
                                                   + alpha * C)
            tables = []
            for j, N_cv in enumerate(self.category_count_):
                V = N_cv.shape[1]
                own = N_cv.T[X[:, j]] - Y                                       # (N, C)
                rest = N_c - Y + alpha * V
                tables.append(np.where(rest > 0, log(own + alpha) - np.log(np.where(
                    rest > 0, rest, 1.0)), -np.log(V)))
        return prior, tables

    def _score(self, log_joint):
        X, Y = self._rows
        weight = Y.sum()
        if self.criterion == "error":
            wrong = np.ones_like(Y)
            wrong[np.arange(Y.shape[0]), np.argmax(log_joint, axis=1)] = 0.0
            return float((Y * wrong).sum() / weight)
        post = log_joint - logsumexp(log_joint, axis=1, keepdims=True)
        with np.errstate(invalid="ignore"):
            return float(-np.sum(np.where(Y > 0, Y * post, 0.0)) / weight)

    def _update_feature_log_prob(self, alpha):
        """Every feature's estimates, and the forward selection (``selected_``)."""
        super()._update_feature_log_prob(alpha)
        current, tables = self._loo_log_tables(alpha)
        selected, path = [], [self._score(current)]
        remaining = list(range(len(tables)))
        while remaining:
            scores = [self._score(current + tables[j]) for j in remaining]
            best = int(np.argmin(scores))
            if not scores[best] < path[-1]:
                break
            j = remaining.pop(best)
            selected.append(j)
            path.append(scores[best])
            current = current + tables[j]
        self.selected_ = np.array(selected, dtype=np.int64)
        self.selection_path_ = np.array(path, dtype=np.float64)
        del self._rows

    def _joint_log_likelihood(self, X):
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for j in self.selected_:
            jll = jll + self.feature_log_prob_[j][:, X[:, j]].T
        return jll
