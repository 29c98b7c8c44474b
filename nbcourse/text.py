"""Text as discrete features: tokens, a vocabulary, document-term counts, and the
multinomial event model of naive Bayes.

McCallum & Nigam (1998) name two ways of making naive Bayes generate a document
over a vocabulary of ``V`` words:

* the **multinomial** model (:class:`MultinomialNB`): a document is a sequence
  of tokens, each drawn independently from one categorical distribution
  ``θ_c`` over the vocabulary of its class, so only the counts ``x_w`` matter;
* the **multivariate Bernoulli** model: a document is the ``V`` presence bits
  of the vocabulary, each an independent Bernoulli variable given the class.
  It is :class:`nbcourse.naive_bayes.ProductOfBernoullisNB` with
  ``binarize=0`` applied to the counts (a count above 0 is a present word).

:func:`tokenize` turns a text into lower-case word tokens,
:func:`build_vocabulary` chooses the words of a fixed-size vocabulary by
frequency (ties alphabetically, so it is deterministic), and
:func:`count_matrix` gives the document-term counts both models take, and
:func:`presence_mutual_information` ranks words by what their presence says about
the class, the way McCallum & Nigam (1998) chose their vocabularies.

Examples
--------
>>> docs = ["the cat sat", "the dog sat on the dog"]
>>> vocab = build_vocabulary(docs)
>>> vocab
('the', 'dog', 'sat', 'cat', 'on')
>>> count_matrix(docs, vocab)
array([[1, 0, 1, 1, 0],
       [2, 2, 1, 0, 1]])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import _describe, as_real_array, check_int
from .feature_selection import mutual_information
from .naive_bayes import NaiveBayes, _as_table, _refuse_negative
from .smoothing import log_lidstone

__all__ = ["TOKEN_PATTERN", "ComplementNB", "MultinomialNB", "RennieTransformer", "build_vocabulary",
           "count_matrix", "presence_mutual_information", "tokenize"]

#: A word: letters a-z, with inner apostrophes kept (``elizabeth's``, ``don't``).
TOKEN_PATTERN = re.compile(r"[a-z]+(?:'[a-z]+)*")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens of ``text``, in order.

    A token is a run of the letters a-z, with apostrophes kept between letters
    (:data:`TOKEN_PATTERN`, applied to ``text.lower()``).  Digits, punctuation
    and the underscores of Project Gutenberg's italics separate tokens.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of str

    Raises
    ------
    TypeError
        If ``text`` is not a str.

    Examples
    --------
    >>> tokenize("It is a truth universally acknowledged, that _Mr._ Darcy's...")
    ['it', 'is', 'a', 'truth', 'universally', 'acknowledged', 'that', 'mr', "darcy's"]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {_describe(text)}")
    return TOKEN_PATTERN.findall(text.lower())


def _token_lists(docs, name: str = "docs") -> list[list[str]]:
    """Each document as a list of tokens: a str is tokenized, a sequence of str is taken as is."""
    if isinstance(docs, str) or not isinstance(docs, Iterable):
        raise TypeError(
            f"{name} must be a sequence of documents (each a str or a list of tokens), "
            f"got {_describe(docs)}"
        )
    out = []
    for i, doc in enumerate(docs):
        if isinstance(doc, str):
            out.append(tokenize(doc))
        elif isinstance(doc, Sequence) and all(isinstance(t, str) for t in doc):
            out.append(list(doc))
        else:
            raise TypeError(
                f"{name}[{i}] must be a str or a sequence of str tokens, got {_describe(doc)}"
            )
    return out


def build_vocabulary(docs, max_size: int | None = None, min_count: int = 1) -> tuple[str, ...]:
    """The words of ``docs`` by decreasing total count, ties in alphabetical order.

    Parameters
    ----------
    docs : sequence of str or of token lists
        Strings are split by :func:`tokenize`.
    max_size : int or None, default None
        Keep at most this many words (the most frequent); ``None`` keeps all.
    min_count : int, default 1
        Keep only words that occur at least this many times in all of ``docs``.

    Returns
    -------
    tuple of str
        The vocabulary; word ``w`` is column ``vocabulary.index(w)`` of
        :func:`count_matrix`.

    Raises
    ------
    TypeError, ValueError
        If ``docs`` is not a sequence of documents, or ``max_size`` /
        ``min_count`` is not an integer ``>= 1``.

    Examples
    --------
    >>> build_vocabulary(["b a b", "c a b"], max_size=2)
    ('b', 'a')
    """
    if max_size is not None:
        max_size = check_int(max_size, "max_size", 1)
    min_count = check_int(min_count, "min_count", 1)
    counts = Counter(t for doc in _token_lists(docs) for t in doc)
    ranked = sorted((w for w, n in counts.items() if n >= min_count), key=lambda w: (-counts[w], w))
    return tuple(ranked if max_size is None else ranked[:max_size])


def count_matrix(docs, vocabulary: Sequence[str]) -> np.ndarray:
    """Document-term counts: ``X[i, w]`` is how often word ``vocabulary[w]`` occurs in ``docs[i]``.

    Tokens outside the vocabulary are dropped.

    Parameters
    ----------
    docs : sequence of str or of token lists, length N
    vocabulary : sequence of str, length V
        Distinct words, e.g. from :func:`build_vocabulary`.

    Returns
    -------
    numpy.ndarray of int64, shape (N, V)

    Raises
    ------
    TypeError, ValueError
        If ``docs`` is not a sequence of documents, or ``vocabulary`` is empty,
        holds something other than str, or repeats a word.

    Examples
    --------
    >>> count_matrix(["to be or not to be"], ("be", "to", "is"))
    array([[2, 2, 0]])
    """
    if isinstance(vocabulary, str) or not isinstance(vocabulary, Sequence) or not vocabulary:
        raise TypeError(f"vocabulary must be a non-empty sequence of str, got {_describe(vocabulary)}")
    if not all(isinstance(w, str) for w in vocabulary):
        raise TypeError("vocabulary must contain only str words")
    column = {w: i for i, w in enumerate(vocabulary)}
    if len(column) != len(vocabulary):
        repeated = next(w for w, n in Counter(vocabulary).items() if n > 1)
        raise ValueError(f"vocabulary must hold distinct words, got {repeated!r} more than once")
    token_lists = _token_lists(docs)
    X = np.zeros((len(token_lists), len(vocabulary)), dtype=np.int64)
    for i, doc in enumerate(token_lists):
        for w, n in Counter(doc).items():
            if w in column:
                X[i, column[w]] = n
    return X


def presence_mutual_information(X, y) -> np.ndarray:
    """Mutual information, in nats, between the class and the presence of each word.

    ``I(C; b) = sum_c sum_{b in {0, 1}} P(c, b) ln[P(c, b) / (P(c) P(b))]`` for the presence bit
    ``b = [X[:, w] > 0]`` of each word ``w``, with the empirical frequencies of the training
    documents.  McCallum & Nigam (1998) chose the vocabulary of both event models by it.  The
    name the text chapters use for :func:`nbcourse.feature_selection.mutual_information`, which
    computes it (and documents it) for the library.

    Parameters
    ----------
    X : array_like of non-negative numbers, shape (N, V)
        Document-term counts (or presence bits), e.g. from :func:`count_matrix`.
    y : array_like, shape (N,)
        Class labels, at least two classes.

    Returns
    -------
    numpy.ndarray of float, shape (V,)

    Examples
    --------
    >>> X = [[1, 2], [3, 0], [0, 1], [0, 4]]
    >>> presence_mutual_information(X, [0, 0, 1, 1]).round(4).tolist()
    [0.6931, 0.2158]
    """
    return mutual_information(X, y)


def _check_word_counts(X):
    """``X`` as a float array of finite non-negative word counts (or weights)."""
    X = as_real_array(X, "X")
    if not np.isfinite(X).all():
        idx = tuple(int(i) for i in np.argwhere(~np.isfinite(X))[0])
        raise ValueError(f"X must contain finite word counts; entry {idx} is {X[idx].item()!r}")
    _refuse_negative(X, "non-negative word counts", "counts")
    return X


class MultinomialNB(NaiveBayes):
    """Naive Bayes with the multinomial event model over a vocabulary.

    A document of class ``c`` is a sequence of tokens drawn independently from
    one categorical distribution ``θ_c`` over the ``V`` words, so with counts
    ``x_w`` (McCallum & Nigam 1998)

    ``ln P(x | c) = Σ_w x_w ln θ_cw + (a term that does not depend on c)``,
    ``θ_cw = (N_cw + α) / (N_c + α V)``,

    where ``N_cw`` is the number of times word ``w`` occurs in the training
    documents of class ``c`` and ``N_c = Σ_w N_cw``.  The multinomial
    coefficient, the same for every class, is left out, so ``predict_proba``
    is the exact posterior.  It agrees with scikit-learn's
    ``MultinomialNB(alpha=α, force_alpha=True)``.

    ``X`` holds word counts (e.g. from :func:`count_matrix`); as in scikit-learn, any
    non-negative finite numbers are accepted, so fractional counts (tf-idf weights) give
    the same formula with real ``x_w``.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing, ``>= 0`` (``0`` is maximum likelihood).

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
        Number of training documents of each class.
    class_log_prior_ : ndarray, shape (C,)
        ``ln(n_c / n)``, the document frequencies of the classes.
    feature_count_ : ndarray, shape (C, V)
        ``N_cw``.
    feature_log_prob_ : ndarray, shape (C, V)
        ``ln θ_cw``; each row's exponentials sum to 1.
    n_features_in_ : int

    Examples
    --------
    >>> X = [[2, 0, 1], [3, 1, 0], [0, 2, 2]]
    >>> m = MultinomialNB(alpha=1.0).fit(X, [0, 0, 1])
    >>> np.exp(m.feature_log_prob_).round(3)
    array([[0.6  , 0.2  , 0.2  ],
           [0.143, 0.429, 0.429]])
    >>> m.predict([[0, 1, 1]])
    array([1])
    """

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags

    def _count(self, X, Y):
        """``feature_count_``: ``N_cw = Σ_i Y_ic x_iw``."""
        self.feature_count_ = Y.T @ X

    def _update_feature_log_prob(self, alpha):
        """``feature_log_prob_``: ``ln[(N_cw + α) / (N_c + α V)]``."""
        self.feature_log_prob_ = log_lidstone(self.feature_count_, alpha)

    def _check_entries(self, X, reset):
        return _check_word_counts(X)

    def _joint_log_likelihood(self, X):
        log_theta = self.feature_log_prob_
        if np.isfinite(log_theta).all():
            jll = X @ log_theta.T
        else:  # alpha = 0: a word never seen with a class counts only where it occurs
            with np.errstate(invalid="ignore"):  # 0 * -inf, masked by the where
                terms = np.where(X[:, None, :] > 0, X[:, None, :] * log_theta[None], 0.0)
            jll = terms.sum(axis=2)
        return jll + self.class_log_prior_


class ComplementNB(NaiveBayes):
    """Complement naive Bayes: each class scored by the word distribution of the *other*
    classes (Rennie, Shih, Teevan & Karger 2003, §3.1).

    For class ``c`` the multinomial parameters are estimated from the documents of every
    class but ``c``, its complement ``c̃``:

    ``θ̃_cw = (N_c̃w + α) / (N_c̃ + α V)``,  with ``N_c̃w = Σ_{c' ≠ c} N_c'w``

    (Rennie et al. 2003, eq. 4), and a document with counts ``x_w`` goes to the class whose
    complement explains it worst, the largest score ``-Σ_w x_w ln θ̃_cw``.  A class with few
    training documents still has a complement estimated from many, which is why the
    complement corrects the bias of :class:`MultinomialNB` towards the classes with the
    most training text.  With ``norm=True`` each class's weights ``w_cw = ln θ̃_cw`` are divided
    by ``Σ_w |w_cw|`` (their weight normalisation, §3.2), so that no class wins by the size of its
    weights; the score is then ``-Σ_w x_w w_cw / Σ_w' |w_cw'|``.  As in their algorithm (Table 4)
    the class prior is left out.  It agrees with scikit-learn's
    ``ComplementNB(alpha=α, force_alpha=True, norm=norm)``.

    The scores are not log probabilities: ``predict_proba`` normalises their exponentials, as
    scikit-learn's does, and is a ranking of the classes, not a calibrated posterior.

    ``X`` holds word counts or any non-negative weights, such as the output of
    :class:`RennieTransformer`.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing of the complement counts, ``> 0`` (with ``alpha = 0`` a word seen in
        one class only would get an infinite weight).
    norm : bool, default False
        Weight normalisation.

    Attributes
    ----------
    classes_ : ndarray, shape (C,)
    class_count_ : ndarray, shape (C,)
    class_log_prior_ : ndarray, shape (C,)
        Kept for the interface; the scores do not use it.
    feature_count_ : ndarray, shape (C, V)
        ``N_cw``.
    feature_all_ : ndarray, shape (V,)
        ``Σ_c N_cw``.
    complement_log_prob_ : ndarray, shape (C, V)
        ``ln θ̃_cw``.
    feature_log_prob_ : ndarray, shape (C, V)
        The weights of the score, ``score_c(x) = Σ_w x_w feature_log_prob_[c, w]``:
        ``-ln θ̃_cw``, or ``-ln θ̃_cw / Σ_w' |ln θ̃_cw'|`` with ``norm=True`` (scikit-learn's
        attribute of the same name).
    n_features_in_ : int

    Examples
    --------
    >>> X = [[3, 0, 1], [2, 1, 0], [0, 2, 2]]
    >>> m = ComplementNB(alpha=1.0).fit(X, [0, 0, 1])
    >>> np.exp(m.complement_log_prob_).round(3)       # class 0 read from class 1's document
    array([[0.143, 0.429, 0.429],
           [0.6  , 0.2  , 0.2  ]])
    >>> m.predict([[0, 1, 1], [4, 0, 0]])
    array([1, 0])
    """

    def __init__(self, alpha=1.0, norm=False):
        self.alpha = alpha
        self.norm = norm

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags

    def _count(self, X, Y):
        """``feature_count_``: ``N_cw = Σ_i Y_ic x_iw``, and ``feature_all_ = Σ_c N_cw``."""
        self.feature_count_ = Y.T @ X
        self.feature_all_ = self.feature_count_.sum(axis=0)

    def _update_feature_log_prob(self, alpha):
        """``ln θ̃_cw`` from the complement counts ``N_c̃w = Σ_c' N_c'w - N_cw``, and the weights."""
        if not isinstance(self.norm, bool | np.bool_):
            raise TypeError(f"norm must be True or False, got {_describe(self.norm)}")
        if alpha <= 0:
            raise ValueError(f"alpha must be > 0 for ComplementNB (a word seen in one class only "
                             f"would get an infinite weight), got {alpha!r}")
        self.complement_log_prob_ = log_lidstone(self.feature_all_ - self.feature_count_, alpha)
        weights = -self.complement_log_prob_
        if self.norm:
            weights = weights / np.abs(self.complement_log_prob_).sum(axis=1, keepdims=True)
        self.feature_log_prob_ = weights

    def _check_entries(self, X, reset):
        return _check_word_counts(X)

    def _joint_log_likelihood(self, X):
        return X @ self.feature_log_prob_.T


class RennieTransformer(TransformerMixin, BaseEstimator):
    """The transforms of word counts of Rennie, Shih, Teevan & Karger (2003, §4).

    Applied in this order to each document's counts ``f_w`` (their Table 4, steps 1-3):

    1. ``tf``: ``f_w ← ln(1 + f_w)`` (their eq. 6 with ``d = 1``), which discounts the second
       and later occurrences of a word, as the burstiness of words asks;
    2. ``idf``: ``f_w ← f_w ln(N / N_w)``, with ``N`` the number of training documents and
       ``N_w`` the number that contain ``w`` (eq. 7), which discounts words common to all
       documents; a word in no training document is weighted as one in a single document;
    3. ``length``: ``f_w ← f_w / sqrt(Σ_w' f_w'²)`` (eq. 8), so that every document has the
       same Euclidean length and long documents do not dominate the counts; an empty document
       stays zero.

    ``fit`` learns the document frequencies ``N_w`` from the training documents; ``transform``
    applies the chosen steps to any documents.  scikit-learn's ``TfidfTransformer`` differs in
    two places: its sublinear tf is ``1 + ln f_w`` for ``f_w > 0`` and its idf is
    ``ln(N / N_w) + 1``.

    Parameters
    ----------
    tf, idf, length : bool, default True
        Which of the three steps to apply.

    Attributes
    ----------
    document_frequency_ : ndarray of int64, shape (V,)
        ``N_w``.
    idf_ : ndarray, shape (V,)
        ``ln(N / max(N_w, 1))``.
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[2, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 3]])
    >>> t = RennieTransformer().fit(X)
    >>> t.idf_.round(3)                  # ln(4/2), ln(4/2), ln(4/3)
    array([0.693, 0.693, 0.288])
    >>> t.transform(X).round(3)
    array([[0.967, 0.   , 0.253],
           [0.   , 0.924, 0.383],
           [0.707, 0.707, 0.   ],
           [0.   , 0.   , 1.   ]])
    """

    def __init__(self, tf=True, idf=True, length=True):
        self.tf = tf
        self.idf = idf
        self.length = length

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        tags.input_tags.positive_only = True
        return tags

    def _check_counts(self, X, reset):
        arr = _as_table(X, "X", self)
        validate_data(self, X if hasattr(X, "columns") else arr, reset=reset,
                      skip_check_array=True)
        return _check_word_counts(arr)

    def fit(self, X, y=None):
        """Learn the document frequencies of the training documents ``X``, shape (N, V)."""
        for name in ("tf", "idf", "length"):
            if not isinstance(getattr(self, name), bool | np.bool_):
                raise TypeError(f"{name} must be True or False, "
                                f"got {_describe(getattr(self, name))}")
        X = self._check_counts(X, reset=True)
        self.document_frequency_ = (X > 0).sum(axis=0).astype(np.int64)
        self.idf_ = np.log(X.shape[0]) - np.log(np.maximum(self.document_frequency_, 1))
        return self

    def transform(self, X):
        """The transformed documents, shape (N, V), a new float array."""
        check_is_fitted(self, msg="this %(name)s instance is not fitted yet; call fit(X) first")
        X = self._check_counts(X, reset=False)
        if self.tf:
            X = np.log1p(X)
        if self.idf:
            X = X * self.idf_
        if self.length:
            norms = np.sqrt((X ** 2).sum(axis=1, keepdims=True))
            X = np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)
        return np.array(X, dtype=np.float64)
