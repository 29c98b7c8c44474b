"""Why naive Bayes classifies well, and comparing classifiers on held-out data.

* :func:`copies_boundary` and :func:`copies_disagreement`: the example of Domingos &
  Pazzani (1997) of a feature counted several times, where naive Bayes's decision
  differs from the optimal one only in a small part of the space of posteriors;
* :func:`disagreement_table` and :func:`mcnemar_test`: McNemar's test of two classifiers
  scored on the same test set (McNemar 1947; Dietterich 1998), with the exact binomial
  p-value and the continuity-corrected chi-square;
* :func:`fold_t_interval`: a t-interval for the mean difference of two models over
  resampled train/test splits or cross-validation folds, naive or with the correction of
  Nadeau & Bengio (2003) for the overlap of the training sets;
* :func:`roc_curve`, :func:`roc_auc`: the ROC curve of a score and the area under it,
  which equals the Mann-Whitney probability that a positive outscores a negative
  (Hanley & McNeil 1982; Fawcett 2006); :func:`ranking_pairs` counts the (positive,
  negative) pairs a score orders rightly, ties and orders wrongly;
* :func:`precision_recall_curve`, :func:`average_precision`: precision against recall,
  the curve to read when positives are rare (Davis & Goadrich 2006; Saito & Rehmsmeier 2015);
* :func:`confusion_matrix` and :func:`class_scores`: with several classes, the table of true
  against predicted classes and each class's precision, recall and F1 with their macro and
  micro averages (Manning, Raghavan & Schütze 2008, §13.6; Sokolova & Lapalme 2009);
* :func:`holm`: p-values of several tests adjusted for their number (Holm 1979).

The curves take binary labels (1 or True marks the positive class) and a real score (a
probability or a log odds); larger scores mean "more likely positive".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._validation import _describe, as_real_array, check_int, check_positive

__all__ = [
    "ClassScores",
    "McNemar",
    "RankingPairs",
    "TInterval",
    "average_precision",
    "class_scores",
    "confusion_matrix",
    "copies_boundary",
    "copies_disagreement",
    "disagreement_table",
    "fold_t_interval",
    "holm",
    "mcnemar_test",
    "precision_recall_curve",
    "ranking_pairs",
    "roc_auc",
    "roc_curve",
]


# ----------------------------------------------------------------- helpers
def _check_labels_1d(y, name: str) -> np.ndarray:
    arr = np.asarray(y)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d array, got {_describe(arr)}")
    return arr


def _check_binary_labels(y, name: str = "y") -> np.ndarray:
    """Labels 0/1 or bool as a bool array, with both classes present."""
    arr = _check_labels_1d(y, name)
    if arr.dtype != bool:
        values = as_real_array(arr, name)
        if not np.all((values == 0) | (values == 1)):
            raise ValueError(f"{name} must contain only 0 and 1 (1 = positive), "
                             f"got {_describe(np.unique(values))}")
        arr = values == 1
    if arr.all() or not arr.any():
        raise ValueError(f"{name} must contain both a positive (1) and a negative (0) case, "
                         f"got {int(arr.sum())} positives among {arr.size}")
    return arr


def _check_score(score, n: int, name: str = "score") -> np.ndarray:
    s = as_real_array(score, name)
    if s.ndim != 1 or s.size != n:
        raise ValueError(f"{name} must be a 1-d array with one score per label ({n}), "
                         f"got shape {s.shape}")
    if not np.isfinite(s).all():
        raise ValueError(f"{name} must contain finite numbers, got {_describe(s)}")
    return s


def _counts_by_threshold(y, score):
    """Cumulative true and false positives at each distinct score, from the largest down."""
    y = _check_binary_labels(y)
    s = _check_score(score, y.size)
    order = np.argsort(-s, kind="mergesort")
    s, y = s[order], y[order]
    last = np.r_[np.flatnonzero(np.diff(s)), s.size - 1]   # last row of each run of ties
    tp = np.cumsum(y)[last]
    fp = (last + 1) - tp
    return tp.astype(float), fp.astype(float), s[last]


# ------------------------------------------------- a feature counted m times
def copies_boundary(p, copies):
    """Where naive Bayes that counts the evidence of feature x_1 ``copies`` times changes its mind.

    Take two classes with equal priors and two features x_1 and x_2 independent within each
    class, and let ``P_1 = P(+ | x_1)`` (the argument ``p``) and ``P_2 = P(+ | x_2)`` be the
    posteriors each gives alone. The Bayes rule decides + when ``P_1 P_2 > (1 - P_1)(1 - P_2)``,
    that is ``P_2 > 1 - P_1``. A naive Bayes model fed x_1 together with ``copies - 1`` exact
    copies of it decides + when ``P_1^m P_2 > (1 - P_1)^m (1 - P_2)`` with ``m = copies``, that
    is when ``P_2`` exceeds the value returned here (Domingos & Pazzani 1997, section 4, for
    ``m = 2``; they call the features A and B).

    Parameters
    ----------
    p : array_like of float in [0, 1]
    copies : int >= 1

    Returns
    -------
    numpy.ndarray
        ``(1 - p)^m / (p^m + (1 - p)^m)``, the same shape as ``p``; ``1 - p`` for ``m = 1``.

    Examples
    --------
    >>> copies_boundary([0.25, 0.5], 2).tolist()
    [0.9, 0.5]
    """
    from ._validation import check_probabilities

    p = check_probabilities(p, "p")
    m = check_int(copies, "copies", 1)
    a, b = (1 - p) ** m, p ** m      # for m up to a few dozen neither underflows to 0 together
    return a / (a + b)


def copies_disagreement(copies, n_grid=20_000) -> float:
    """Share of the unit square of ``(p, q)`` where the m-copy rule and the Bayes rule disagree.

    The area between the curves ``q = 1 - p`` and :func:`copies_boundary`, by the midpoint
    rule on ``n_grid`` columns. With ``(p, q)`` uniform on the square it is the probability
    that counting A ``copies`` times changes the decision (Domingos & Pazzani 1997).

    Examples
    --------
    >>> copies_disagreement(1)
    0.0
    >>> round(copies_disagreement(2), 3)
    0.097
    """
    m = check_int(copies, "copies", 1)
    n = check_int(n_grid, "n_grid", 10)
    p = (np.arange(n) + 0.5) / n
    return float(np.abs(copies_boundary(p, m) - (1 - p)).mean())


# ------------------------------------------------------------------ McNemar
def disagreement_table(y, pred_a, pred_b) -> np.ndarray:
    """The 2x2 table of right and wrong decisions of two classifiers on the same cases.

    Parameters
    ----------
    y : array_like, shape (N,)
        True labels (any type that compares with ``==``).
    pred_a, pred_b : array_like, shape (N,)
        Decisions of classifiers A and B on the same N cases.

    Returns
    -------
    numpy.ndarray of int, shape (2, 2)
        ``table[i, k]``: the number of cases where A is right (``i = 0``) or wrong
        (``i = 1``) and B is right (``k = 0``) or wrong (``k = 1``). The discordant cells
        ``table[0, 1]`` (only A right) and ``table[1, 0]`` (only B right) drive McNemar's test.

    Examples
    --------
    >>> disagreement_table([0, 0, 1, 1, 1], [0, 1, 1, 1, 0], [0, 0, 0, 1, 1]).tolist()
    [[2, 1], [2, 0]]
    """
    y = _check_labels_1d(y, "y")
    a, b = (_check_labels_1d(p, name) for p, name in ((pred_a, "pred_a"), (pred_b, "pred_b")))
    for p, name in ((a, "pred_a"), (b, "pred_b")):
        if p.size != y.size:
            raise ValueError(f"{name} must have one decision per label ({y.size}), got {p.size}")
    right_a, right_b = a == y, b == y
    return np.array([[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                     [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]], dtype=int)


@dataclass(frozen=True)
class McNemar:
    """McNemar's test of two classifiers on one test set (see :func:`mcnemar_test`).

    Attributes
    ----------
    table : numpy.ndarray of int, shape (2, 2)
        The disagreement table (:func:`disagreement_table`).
    only_a, only_b : int
        Cases that only A, respectively only B, classifies correctly.
    p_exact : float
        Two-sided exact p-value: twice the smaller binomial tail of ``only_a`` among
        ``only_a + only_b`` trials with probability 1/2, capped at 1.
    statistic : float
        ``max(|only_a - only_b| - 1, 0)² / (only_a + only_b)``, the chi-square statistic
        with continuity correction (0 when there is no discordant case).
    p_chi2 : float
        Its p-value under the chi-square distribution with one degree of freedom.
    """

    table: np.ndarray
    only_a: int
    only_b: int
    p_exact: float
    statistic: float
    p_chi2: float


def mcnemar_test(y, pred_a, pred_b) -> McNemar:
    """McNemar's test that two classifiers have the same error rate on the cases' population.

    Only the cases on which exactly one classifier is right carry information. If both have
    the same error rate, each such case is equally likely to favour A or B, so the number
    ``b`` favouring A among the ``n = b + c`` discordant cases is Binomial(n, 1/2)
    (McNemar 1947). The exact p-value is ``min(1, 2 P(X <= min(b, c)))``; the large-sample
    version compares ``(|b - c| - 1)² / (b + c)`` with the chi-square distribution with one
    degree of freedom, the form Dietterich (1998) recommends for comparing classifiers.

    Parameters
    ----------
    y, pred_a, pred_b : array_like, shape (N,)
        True labels and the decisions of classifiers A and B on the same N cases.

    Returns
    -------
    McNemar

    Examples
    --------
    >>> result = mcnemar_test([1] * 10, [1] * 9 + [0], [1] * 3 + [0] * 7)
    >>> result.only_a, result.only_b, round(result.p_exact, 4)
    (6, 0, 0.0312)
    """
    table = disagreement_table(y, pred_a, pred_b)
    b, c = int(table[0, 1]), int(table[1, 0])
    n = b + c
    if n == 0:
        return McNemar(table, b, c, 1.0, 0.0, 1.0)
    tail = Fraction(sum(math.comb(n, k) for k in range(min(b, c) + 1)), 2 ** n)
    p_exact = float(min(Fraction(1), 2 * tail))
    statistic = max(abs(b - c) - 1, 0) ** 2 / n
    p_chi2 = math.erfc(math.sqrt(statistic / 2))   # chi-square(1) survival function
    return McNemar(table, b, c, p_exact, float(statistic), p_chi2)


# ------------------------------------------------------ fold t-intervals
@dataclass(frozen=True)
class TInterval:
    """A t-interval for the mean difference over resampled splits (see :func:`fold_t_interval`).

    Attributes
    ----------
    mean : float
        Mean of the differences.
    se : float
        Standard error used: ``s / sqrt(J)`` (naive) or ``s · sqrt(1/J + n_test/n_train)``
        (corrected).
    low, high : float
        Ends of the interval ``mean ± t · se``.
    df : int
        Degrees of freedom, ``J - 1``.
    confidence : float
    corrected : bool
    """

    mean: float
    se: float
    low: float
    high: float
    df: int
    confidence: float
    corrected: bool

    def excludes_zero(self) -> bool:
        """Whether 0 lies outside the interval."""
        return bool(self.low > 0 or self.high < 0)


def fold_t_interval(differences, *, n_train=None, n_test=None, confidence=0.95,
                    corrected=True) -> TInterval:
    """A t-interval for the mean of per-split differences of two models' scores.

    With ``J`` train/test splits of one data set the differences ``d_1, ..., d_J`` are not
    independent: the training sets overlap, and so do the test sets of repeated splits. The
    naive interval ``mean ± t_{J-1} s / sqrt(J)`` treats them as independent and is too
    narrow (Dietterich 1998). Nadeau & Bengio (2003) replace the variance factor ``1/J`` by
    ``1/J + n_test/n_train``; for k-fold cross-validation ``n_test/n_train = 1/(k - 1)``.

    Parameters
    ----------
    differences : array_like, shape (J,)
        Score of model A minus score of model B on each split (J >= 2).
    n_train, n_test : int, optional
        Sizes of each split's training and test sets; required when ``corrected``.
    confidence : float, default 0.95
        In (0, 1).
    corrected : bool, default True
        False gives the naive interval.

    Returns
    -------
    TInterval

    Examples
    --------
    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02]
    >>> naive = fold_t_interval(d, corrected=False)
    >>> fixed = fold_t_interval(d, n_train=80, n_test=20)
    >>> round(naive.mean, 3), naive.excludes_zero(), fixed.excludes_zero()
    (0.016, True, False)
    """
    from scipy.stats import t as student_t

    d = as_real_array(differences, "differences")
    if d.ndim != 1 or d.size < 2 or not np.isfinite(d).all():
        raise ValueError(f"differences must be a 1-d array of at least 2 finite numbers, "
                         f"got {_describe(d)}")
    confidence = check_positive(confidence, "confidence")
    if confidence >= 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    J = d.size
    factor = 1.0 / J
    if corrected:
        if n_train is None or n_test is None:
            raise ValueError("n_train and n_test must be given for the corrected interval, "
                             f"got n_train={n_train!r}, n_test={n_test!r}")
        factor += check_int(n_test, "n_test", 1) / check_int(n_train, "n_train", 1)
    se = float(np.sqrt(factor * d.var(ddof=1)))
    half = float(student_t.ppf(0.5 + confidence / 2, J - 1)) * se
    mean = float(d.mean())
    return TInterval(mean, se, mean - half, mean + half, J - 1, confidence, bool(corrected))


# --------------------------------------------------------------- ROC, PR
def roc_curve(y, score):
    """The ROC curve: false and true positive rates as the threshold on ``score`` falls.

    The classifier "positive when score >= threshold" is evaluated at every distinct score,
    from the largest down (Fawcett 2006). The curve starts at (0, 0) with threshold +inf.
    This is ``sklearn.metrics.roc_curve(y, score, drop_intermediate=False)``.

    Parameters
    ----------
    y : array_like of {0, 1} or bool, shape (N,)
        1 marks a positive case; both classes must occur.
    score : array_like of float, shape (N,)
        Larger means more likely positive.

    Returns
    -------
    fpr, tpr, thresholds : numpy.ndarray, shape (T + 1,)
        T is the number of distinct scores.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    """
    tp, fp, thresholds = _counts_by_threshold(y, score)
    return (np.r_[0.0, fp / fp[-1]], np.r_[0.0, tp / tp[-1]], np.r_[np.inf, thresholds])


def roc_auc(y, score) -> float:
    """Area under the ROC curve (trapezoids between its points).

    It equals the probability that a randomly chosen positive case has a larger score than a
    randomly chosen negative one, ties counting one half: the Mann-Whitney statistic divided
    by the number of pairs (Hanley & McNeil 1982).

    Examples
    --------
    >>> roc_auc([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4])
    0.875
    """
    fpr, tpr, _ = roc_curve(y, score)
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


@dataclass(frozen=True)
class RankingPairs:
    """How a score orders the (positive, negative) pairs (see :func:`ranking_pairs`).

    Attributes
    ----------
    right, tied, wrong : int
        Pairs whose positive has the larger score, an equal score, the smaller score.
    """

    right: int
    tied: int
    wrong: int

    @property
    def total(self) -> int:
        """Number of (positive, negative) pairs."""
        return self.right + self.tied + self.wrong

    @property
    def auc(self) -> float:
        """``(right + tied / 2) / total``: the area under the ROC curve (eq. ww-auc)."""
        return (self.right + self.tied / 2) / self.total


def ranking_pairs(y, score) -> RankingPairs:
    """Count the (positive, negative) pairs that ``score`` orders rightly, ties and orders wrongly.

    The AUC is ``(right + tied / 2) / total`` (Hanley & McNeil 1982), so a map of the scores
    changes it only through these counts: a strictly increasing map changes none of them,
    while a non-decreasing step map, such as an isotonic recalibration, turns pairs of
    different scores into ties, and each tie counts one half whether the pair was ordered
    rightly or wrongly before.

    Parameters
    ----------
    y : array_like of {0, 1} or bool, shape (N,)
        1 marks a positive case; both classes must occur.
    score : array_like of float, shape (N,)
        Larger means more likely positive.

    Returns
    -------
    RankingPairs

    Examples
    --------
    >>> pairs = ranking_pairs([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4])
    >>> pairs
    RankingPairs(right=3, tied=1, wrong=0)
    >>> pairs.auc
    0.875
    """
    y = _check_binary_labels(y)
    s = _check_score(score, y.size)
    negatives = np.sort(s[~y])
    below = np.searchsorted(negatives, s[y], side="left")   # negatives scored lower
    not_above = np.searchsorted(negatives, s[y], side="right")
    right = int(below.sum())
    tied = int((not_above - below).sum())
    return RankingPairs(right, tied, int(y.sum()) * negatives.size - right - tied)


def precision_recall_curve(y, score):
    """Precision and recall of "positive when score >= threshold" at every distinct score.

    Returned in the order of ``sklearn.metrics.precision_recall_curve``: thresholds
    increasing, and a last point with precision 1 and recall 0 that belongs to no
    threshold. Precision is the share of positives among the cases flagged; recall the
    share of positives flagged (Davis & Goadrich 2006).

    Parameters
    ----------
    y : array_like of {0, 1} or bool, shape (N,)
        1 marks a positive case; both classes must occur.
    score : array_like of float, shape (N,)

    Returns
    -------
    precision, recall : numpy.ndarray, shape (T + 1,)
    thresholds : numpy.ndarray, shape (T,)

    Examples
    --------
    >>> precision, recall, thr = precision_recall_curve([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4])
    >>> precision.tolist(), recall.tolist(), thr.tolist()
    ([0.5, 0.6666666666666666, 1.0, 1.0], [1.0, 1.0, 0.5, 0.0], [0.1, 0.4, 0.8])
    """
    tp, fp, thresholds = _counts_by_threshold(y, score)
    precision = tp / (tp + fp)
    recall = tp / tp[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def average_precision(y, score) -> float:
    """Average precision: the precision at each threshold weighted by the recall it adds.

    ``AP = sum_k (R_k - R_{k-1}) P_k`` over the thresholds from the largest score down, a step
    area under the precision-recall curve without interpolation (the definition of
    ``sklearn.metrics.average_precision_score``). A classifier that ranks at random has an
    expected AP near the share of positives, the baseline Saito & Rehmsmeier (2015) recommend
    reading it against.

    Examples
    --------
    >>> round(average_precision([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.4]), 4)
    0.8333
    """
    precision, recall, _ = precision_recall_curve(y, score)
    return float(-np.sum(np.diff(recall) * precision[:-1]))


# ------------------------------------------------------- several classes
def _check_class_labels(y, pred, labels):
    """True and predicted labels as arrays, and the class labels in order."""
    y = _check_labels_1d(y, "y")
    pred = _check_labels_1d(pred, "pred")
    if pred.shape != y.shape:
        raise ValueError(f"pred must have one label per entry of y ({y.size}), got {pred.size}")
    if labels is None:
        labels = np.unique(np.concatenate([y, pred]))
    else:
        labels = _check_labels_1d(labels, "labels")
        if np.unique(labels).size != labels.size:
            raise ValueError(f"labels must be distinct, got {_describe(labels)}")
        unknown = np.setdiff1d(np.concatenate([y, pred]), labels)
        if unknown.size:
            raise ValueError(f"labels must include every label of y and pred; "
                             f"missing {_describe(unknown)}")
    return y, pred, labels


def confusion_matrix(y, pred, labels=None) -> np.ndarray:
    """Counts of the cases of each true class (rows) given each predicted class (columns).

    ``M[i, j]`` is the number of cases of class ``labels[i]`` predicted as ``labels[j]``: the
    diagonal holds the right decisions, row ``i`` sums to the number of cases of class ``i``
    and column ``j`` to the number of predictions of class ``j``.  The layout of
    ``sklearn.metrics.confusion_matrix``.

    Parameters
    ----------
    y, pred : array_like, shape (N,)
        True and predicted labels.
    labels : array_like or None, default None
        The classes, in the order of the rows and columns; ``None`` takes the sorted labels
        that occur in ``y`` or ``pred``.

    Returns
    -------
    numpy.ndarray of int64, shape (C, C)

    Examples
    --------
    >>> confusion_matrix(["a", "a", "b", "c", "c"], ["a", "b", "b", "c", "a"])
    array([[1, 1, 0],
           [0, 1, 0],
           [1, 0, 1]])
    """
    y, pred, labels = _check_class_labels(y, pred, labels)
    sorter = np.argsort(labels)
    rows = sorter[np.searchsorted(labels, y, sorter=sorter)]      # position of y in labels
    cols = sorter[np.searchsorted(labels, pred, sorter=sorter)]
    C = labels.size
    return np.bincount(rows * C + cols, minlength=C * C).reshape(C, C).astype(np.int64)


@dataclass(frozen=True)
class ClassScores:
    """Precision, recall and F1 of each class and their averages (see :func:`class_scores`).

    Attributes
    ----------
    labels : numpy.ndarray, shape (C,)
    precision, recall, f1 : numpy.ndarray, shape (C,)
        Per class; a class never predicted has precision 0, a class with no case recall 0.
    support : numpy.ndarray of int64, shape (C,)
        Cases of each class.
    macro : dict
        ``{"precision", "recall", "f1"}``: the unweighted means over the classes.
    micro : dict
        ``{"precision", "recall", "f1"}`` from the decisions pooled over the classes; each is
        the accuracy when every case has one label and one prediction.
    """

    labels: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    support: np.ndarray
    macro: dict
    micro: dict


def _ratio(num, den):
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


def class_scores(y, pred, labels=None) -> ClassScores:
    """Per-class precision, recall and F1, with their macro and micro averages.

    For class ``c`` with ``TP_c`` cases of ``c`` predicted as ``c``, ``FP_c`` cases of other
    classes predicted as ``c`` and ``FN_c`` cases of ``c`` predicted as another class:
    ``precision_c = TP_c / (TP_c + FP_c)``, ``recall_c = TP_c / (TP_c + FN_c)`` and
    ``F1_c = 2 TP_c / (2 TP_c + FP_c + FN_c)``, the harmonic mean of the two.  The *macro*
    average gives every class the same weight; the *micro* average pools the counts of all
    classes before dividing, so it weights every case alike (Manning, Raghavan & Schütze 2008,
    §13.6; Sokolova & Lapalme 2009).  The macro F1 is the mean of the classes' F1, as in
    ``sklearn.metrics.f1_score(average="macro")``, not the F1 of the macro precision and recall;
    the macro recall is the *balanced accuracy*.  A ratio whose denominator is 0 is 0, as
    scikit-learn's ``zero_division=0``.

    Parameters
    ----------
    y, pred : array_like, shape (N,)
    labels : array_like or None, default None
        As in :func:`confusion_matrix`.

    Returns
    -------
    ClassScores

    Examples
    --------
    >>> s = class_scores(["a", "a", "b", "c", "c"], ["a", "b", "b", "c", "a"])
    >>> s.precision.round(3).tolist(), s.recall.round(3).tolist()
    ([0.5, 0.5, 1.0], [0.5, 1.0, 0.5])
    >>> round(s.macro["f1"], 4), s.micro["f1"]
    (0.6111, 0.6)
    """
    y, pred, labels = _check_class_labels(y, pred, labels)
    M = confusion_matrix(y, pred, labels)
    tp = np.diag(M).astype(float)
    fp, fn = M.sum(axis=0) - tp, M.sum(axis=1) - tp
    precision, recall, f1 = _ratio(tp, tp + fp), _ratio(tp, tp + fn), _ratio(2 * tp,
                                                                          2 * tp + fp + fn)
    macro = {"precision": float(precision.mean()), "recall": float(recall.mean()),
             "f1": float(f1.mean())}
    TP, FP, FN = tp.sum(), fp.sum(), fn.sum()
    micro = {"precision": float(_ratio(TP, TP + FP)), "recall": float(_ratio(TP, TP + FN)),
             "f1": float(_ratio(2 * TP, 2 * TP + FP + FN))}
    return ClassScores(labels, precision, recall, f1, M.sum(axis=1).astype(np.int64), macro,
                       micro)
# ------------------------------------------------------------- multiplicity
def holm(p_values) -> np.ndarray:
    """P-values adjusted for the number of tests by Holm's step-down method (Holm 1979).

    Sort the ``m`` p-values increasingly, multiply the ``i``-th smallest (from ``i = 1``) by
    ``m - i + 1``, carry the running maximum forward so that the adjusted values keep the
    order of the raw ones, and cap at 1.  Rejecting every test whose adjusted p-value is
    below ``a`` keeps the probability of any false rejection among the ``m`` at most ``a``,
    whatever the dependence between the tests; it never rejects less than Bonferroni's
    ``m · p``.

    Parameters
    ----------
    p_values : array_like of float in [0, 1], shape (m,)

    Returns
    -------
    numpy.ndarray, shape (m,)
        The adjusted p-values, in the order given.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = as_real_array(p_values, "p_values")
    if p.ndim != 1 or p.size == 0 or not np.all((p >= 0) & (p <= 1)):
        raise ValueError(f"p_values must be a non-empty 1-d array of numbers in [0, 1], "
                         f"got {_describe(p)}")
    order = np.argsort(p, kind="mergesort")
    scaled = p[order] * (p.size - np.arange(p.size))
    adjusted = np.empty_like(p, dtype=float)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted
