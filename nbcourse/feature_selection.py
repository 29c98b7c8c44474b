"""Choosing a vocabulary: scores of how much a word's presence says about the class.

Each score is computed from one table per word, the counts of the training documents by class
``c`` and by the word's presence bit ``b = [x_w > 0]``:

* :func:`mutual_information`: ``I(C; B_w)``, in nats, the expected reduction of the entropy of
  the class by learning whether the word occurs (Cover & Thomas 2006, ch. 2).  McCallum &
  Nigam (1998) ranked the vocabulary of both event models of naive Bayes by it (their
  "average mutual information"); Yang & Pedersen (1997) call the same quantity *information
  gain*.  ``2 N I`` is the likelihood-ratio statistic ``G²`` of independence in the word's
  table (Agresti 2013, ch. 3).
* :func:`chi2_scores`: Pearson's ``χ²`` statistic of independence in the same table
  (Yang & Pedersen 1997; Manning, Raghavan & Schütze 2008, §13.5.2).
* :func:`select_k_best`: the columns of the ``k`` largest scores.

:func:`presence_table` returns the tables themselves.  The scores take the rows of a
document-term count table (:func:`nbcourse.text.count_matrix`) or of presence bits; they are
computed from training documents only, so that the choice of the vocabulary never sees a
test label.

Examples
--------
>>> X = [[2, 0, 1], [1, 0, 0], [0, 3, 1], [0, 1, 0]]
>>> y = [0, 0, 1, 1]
>>> mutual_information(X, y).round(4)           # word 0 and word 1 each name the class
array([0.6931, 0.6931, 0.    ])
>>> chi2_scores(X, y)
array([4., 4., 0.])
>>> select_k_best(mutual_information(X, y), 2)
array([0, 1])
"""

from __future__ import annotations

import numpy as np

from ._validation import _describe, as_real_array, check_int, check_labels

__all__ = ["chi2_scores", "mutual_information", "presence_table", "select_k_best"]


def _counts_and_classes(X, y):
    """``X`` checked as a count table, the sorted classes and the (N, C) one-hot class matrix."""
    counts = as_real_array(X, "X")
    if counts.ndim != 2 or 0 in counts.shape or not np.isfinite(counts).all() \
            or (counts < 0).any():
        raise ValueError("X must be a non-empty 2-d array of finite non-negative counts "
                         f"(documents by words), got {_describe(counts)}")
    labels = check_labels(y, counts.shape[0])
    classes, codes = np.unique(labels, return_inverse=True)
    return counts, classes, np.eye(classes.size)[codes]


def presence_table(X, y):
    """Counts of training documents by class and by the presence of each word.

    Parameters
    ----------
    X : array_like of non-negative numbers, shape (N, V)
        Document-term counts (or presence bits); a word is present in a document where its
        entry is above 0.
    y : array_like, shape (N,)
        Class labels, at least two classes.

    Returns
    -------
    classes : numpy.ndarray, shape (C,)
        The sorted class labels.
    table : numpy.ndarray of float64, shape (V, C, 2)
        ``table[w, c, 1]`` documents of class ``classes[c]`` that contain word ``w``,
        ``table[w, c, 0]`` those that do not; every ``table[w]`` sums to ``N``.

    Raises
    ------
    ValueError
        If ``X`` is not a non-empty 2-d array of finite non-negative numbers, or ``y`` has
        not one label per row of ``X`` or fewer than two classes.

    Examples
    --------
    >>> classes, table = presence_table([[1, 0], [2, 1], [0, 1]], ["a", "a", "b"])
    >>> table[0].tolist()        # word 0: in both "a" documents, not in the "b" one
    [[0.0, 2.0], [1.0, 0.0]]
    """
    counts, classes, Y = _counts_and_classes(X, y)
    present = Y.T @ (counts > 0).astype(np.float64)               # (C, V)
    absent = Y.sum(axis=0)[:, None] - present
    return classes, np.stack([absent, present], axis=-1).transpose(1, 0, 2)


def mutual_information(X, y):
    """Mutual information, in nats, between the class and the presence of each word.

    With the empirical frequencies of the training documents, ``P(c, b)`` the share of
    documents of class ``c`` in which the word's presence bit is ``b``,

    ``I(C; B) = Σ_c Σ_{b ∈ {0, 1}} P(c, b) ln[P(c, b) / (P(c) P(b))]``,

    with ``0 ln 0 = 0`` (Cover & Thomas 2006, eq. 2.28).  It is 0 for a word whose presence is
    independent of the class in the training documents and at most the entropy of the class;
    McCallum & Nigam (1998) kept the words with the largest values.  ``2 N I(C; B)`` is the
    likelihood-ratio statistic ``G²`` of the word's (C, 2) table.  It equals
    ``sklearn.feature_selection.mutual_info_classif(X > 0, y, discrete_features=True)``.

    Parameters
    ----------
    X : array_like of non-negative numbers, shape (N, V)
        Document-term counts or presence bits.
    y : array_like, shape (N,)
        Class labels.

    Returns
    -------
    numpy.ndarray of float64, shape (V,)

    Examples
    --------
    >>> mutual_information([[1, 2], [3, 0], [0, 1], [0, 4]], [0, 0, 1, 1]).round(4)
    array([0.6931, 0.2158])
    """
    counts, _, Y = _counts_and_classes(X, y)
    joint_on = Y.T @ (counts > 0).astype(np.float64) / counts.shape[0]   # P(c, b = 1), (C, V)
    joint = np.stack([Y.mean(axis=0)[:, None] - joint_on, joint_on])     # P(c, b), (2, C, V)
    expected = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
    terms = np.zeros_like(joint)
    np.log(joint, out=terms, where=joint > 0)
    terms -= np.log(expected, out=np.zeros_like(expected), where=joint > 0)
    return np.maximum((joint * terms).sum(axis=(0, 1)), 0.0)


def chi2_scores(X, y):
    """Pearson's χ² statistic of independence between the class and each word's presence.

    For the (C, 2) table of a word with observed counts ``O_cb`` and the counts independence
    predicts, ``E_cb = N_c N_b / N``,

    ``χ² = Σ_c Σ_b (O_cb - E_cb)² / E_cb``

    (Yang & Pedersen 1997; Manning, Raghavan & Schütze 2008, eq. 13.18).  A word present in
    every document, or in none, has an empty column and a score of 0 (its cells with
    ``E_cb = 0`` are left out).  It equals ``scipy.stats.chi2_contingency(table,
    correction=False)``'s statistic, and the sum of ``sklearn.feature_selection.chi2`` over the
    presence bits and their complements.

    Parameters
    ----------
    X : array_like of non-negative numbers, shape (N, V)
        Document-term counts or presence bits.
    y : array_like, shape (N,)
        Class labels.

    Returns
    -------
    numpy.ndarray of float64, shape (V,)

    Examples
    --------
    >>> chi2_scores([[1, 1], [1, 0], [0, 1], [0, 0]], [0, 0, 1, 1])
    array([4., 0.])
    """
    _, table = presence_table(X, y)
    n = table[0].sum()
    expected = table.sum(axis=2, keepdims=True) * table.sum(axis=1, keepdims=True) / n
    seen = expected > 0
    terms = np.zeros_like(table)
    terms[seen] = (table[seen] - expected[seen]) ** 2 / expected[seen]
    return terms.sum(axis=(1, 2))


def select_k_best(scores, k):
    """Columns of the ``k`` largest scores, best first; equal scores in column order.

    Parameters
    ----------
    scores : array_like, shape (V,)
        One finite score per column, larger is better (e.g. :func:`mutual_information`).
    k : int
        How many columns to keep, ``1 <= k``; all ``V`` when ``k >= V``.

    Returns
    -------
    numpy.ndarray of int64, shape (min(k, V),)

    Raises
    ------
    ValueError, TypeError
        If ``scores`` is not a non-empty 1-d array of finite numbers, or ``k`` is not an
        integer ``>= 1``.

    Examples
    --------
    >>> select_k_best([0.1, 0.5, 0.1, 0.3], 3)
    array([1, 3, 0])
    """
    s = as_real_array(scores, "scores")
    if s.ndim != 1 or s.size == 0 or not np.isfinite(s).all():
        raise ValueError(f"scores must be a non-empty 1-d array of finite numbers, "
                         f"got {_describe(s)}")
    k = check_int(k, "k", 1)
    return np.argsort(-s, kind="stable")[:k].astype(np.int64)
