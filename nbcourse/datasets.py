"""Small real data sets: two contingency tables of counts and one table of e-mails.

The first two come from R's ``datasets`` package and are small enough to type in full:

* :func:`titanic` -- the 2,201 people aboard the Titanic, cross-classified by
  ``Class`` (1st, 2nd, 3rd, Crew), ``Sex`` (Male, Female), ``Age`` (Child, Adult)
  and ``Survived`` (No, Yes).
* :func:`hair_eye_color` -- 592 statistics students cross-classified by ``Hair``
  (Black, Brown, Red, Blond), ``Eye`` (Brown, Blue, Hazel, Green) and ``Sex``
  (Male, Female).  Eye colour is the categorical variable Williams (2024) uses as
  his running example.

Each is returned as a :class:`CountTable`: an integer array of counts with one
named axis per factor and the level names of every factor.  Counts are expanded
into one row per person (integer codes, the form the classifiers take) by
:meth:`CountTable.to_rows` or :func:`expand_counts`.

The third, :func:`email_table`, is the ``email`` data set of the R package
``openintro`` (3,921 e-mails, spam or not), read from a gzipped CSV file shipped in
``nbcourse/data/`` (see the README there for its provenance and licence);
:func:`email_features` turns it into yes/no features.

Examples
--------
>>> t = titanic()
>>> t.total
2201
>>> t.margin("Survived")
array([1490,  711])
>>> X, y = t.to_rows(target="Survived")
>>> X.shape, y.shape
((2201, 3), (2201,))
"""

from __future__ import annotations

import csv
import gzip
import io
from dataclasses import dataclass
from importlib import resources

import numpy as np

__all__ = ["AUSTEN_NOVELS", "EMAIL_FEATURES", "CountTable", "Passages", "austen_passages",
           "email_features", "email_table", "expand_counts", "hair_eye_color", "titanic"]


@dataclass(frozen=True)
class CountTable:
    """A contingency table: counts with named axes and named levels.

    Attributes
    ----------
    name : str
        Short name of the data set.
    counts : numpy.ndarray of int64, shape (n_levels[0], ..., n_levels[d-1])
        ``counts[i0, i1, ...]`` is the number of cases with level ``i0`` of the
        first factor, level ``i1`` of the second, and so on (0-based codes).
    factors : tuple of str, length d
        Factor (axis) names, in axis order.
    levels : tuple of tuple of str, length d
        ``levels[a][i]`` is the name of code ``i`` on axis ``a``.

    Examples
    --------
    >>> t = hair_eye_color()
    >>> t.factors
    ('Hair', 'Eye', 'Sex')
    >>> t.levels_of("Eye")
    ('Brown', 'Blue', 'Hazel', 'Green')
    """

    name: str
    counts: np.ndarray
    factors: tuple[str, ...]
    levels: tuple[tuple[str, ...], ...]

    def __post_init__(self):
        counts = np.asarray(self.counts)
        if counts.dtype.kind not in "iu" or (counts < 0).any():
            raise ValueError(f"counts must be non-negative integers, got dtype {counts.dtype}")
        shape = tuple(len(lv) for lv in self.levels)
        if len(self.factors) != counts.ndim or shape != counts.shape:
            raise ValueError(
                f"counts of shape {counts.shape} must have one axis per factor with one entry "
                f"per level; factors {self.factors} have {shape} levels"
            )
        counts = counts.astype(np.int64)
        counts.setflags(write=False)
        object.__setattr__(self, "counts", counts)

    @property
    def total(self) -> int:
        """Number of cases (sum of all counts)."""
        return int(self.counts.sum())

    def axis(self, factor: str) -> int:
        """Axis number of ``factor``; raises ValueError naming the valid factors."""
        if factor not in self.factors:
            raise ValueError(f"factor must be one of {self.factors}, got {factor!r}")
        return self.factors.index(factor)

    def levels_of(self, factor: str) -> tuple[str, ...]:
        """Level names of ``factor``, in code order."""
        return self.levels[self.axis(factor)]

    def margin(self, *factors: str) -> np.ndarray:
        """Counts summed over every factor not named, axes in the order named.

        Parameters
        ----------
        *factors : str
            Factors to keep (none: the grand total as a 0-d array).

        Returns
        -------
        numpy.ndarray of int64, shape (n_levels of each named factor)

        Examples
        --------
        >>> hair_eye_color().margin("Sex", "Eye")
        array([[ 98, 101,  47,  33],
               [122, 114,  46,  31]])
        """
        axes = [self.axis(f) for f in factors]
        if len(set(axes)) != len(axes):
            raise ValueError(f"factors must be distinct, got {factors}")
        drop = tuple(a for a in range(self.counts.ndim) if a not in axes)
        kept = self.counts.sum(axis=drop)
        order = np.argsort(np.argsort(axes))  # positions of the kept axes after summing
        return np.asarray(np.transpose(kept, order) if kept.ndim > 1 else kept)

    def to_rows(self, target: str | None = None):
        """Expand the counts into one row of integer codes per case.

        Parameters
        ----------
        target : str or None
            Factor to return separately as the class label.

        Returns
        -------
        X : numpy.ndarray of int64, shape (N, d) or (N, d - 1)
            Codes of the (remaining) factors, columns in axis order.
        y : numpy.ndarray of int64, shape (N,)
            Codes of ``target``; only returned when ``target`` is given.

        Examples
        --------
        >>> X, y = titanic().to_rows(target="Survived")
        >>> int(y.sum())
        711
        """
        rows = expand_counts(self.counts)
        if target is None:
            return rows
        a = self.axis(target)
        return np.delete(rows, a, axis=1), rows[:, a]

    def feature_names(self, target: str | None = None) -> tuple[str, ...]:
        """Names of the columns of ``X`` returned by :meth:`to_rows` with this ``target``."""
        if target is None:
            return self.factors
        a = self.axis(target)
        return self.factors[:a] + self.factors[a + 1:]


def expand_counts(counts) -> np.ndarray:
    """Turn a d-way table of counts into one row of cell codes per counted case.

    Parameters
    ----------
    counts : array_like of non-negative int, shape (n_0, ..., n_{d-1})

    Returns
    -------
    numpy.ndarray of int64, shape (counts.sum(), d)
        Row ``r`` holds the 0-based index of the cell case ``r`` belongs to; cells
        appear in C (row-major) order, each repeated ``count`` times.

    Examples
    --------
    >>> expand_counts([[2, 0], [0, 1]])
    array([[0, 0],
           [0, 0],
           [1, 1]])
    """
    arr = np.asarray(counts)
    if arr.dtype.kind not in "biu" and not (
        arr.dtype.kind == "f" and np.isfinite(arr).all() and (arr == np.round(arr)).all()
    ):
        raise TypeError(f"counts must be an array of integer counts, got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError("counts must have at least one axis, got a scalar")
    if (arr < 0).any():
        raise ValueError(f"counts must be non-negative, got minimum {arr.min()!r}")
    arr = arr.astype(np.int64)
    cells = np.indices(arr.shape).reshape(arr.ndim, -1).T
    return np.repeat(cells, arr.ravel(), axis=0)


def _from_r_order(values, levels) -> np.ndarray:
    """Reshape a flat R table (first factor varying fastest) to axes in factor order."""
    shape = tuple(len(lv) for lv in levels)
    return np.asarray(values, dtype=np.int64).reshape(shape, order="F")


_TITANIC_LEVELS = (
    ("1st", "2nd", "3rd", "Crew"),
    ("Male", "Female"),
    ("Child", "Adult"),
    ("No", "Yes"),
)
# R's datasets::Titanic, listed with Class fastest, then Sex, Age and Survived.
_TITANIC_COUNTS = (
    0, 0, 35, 0, 0, 0, 17, 0, 118, 154, 387, 670, 4, 13, 89, 3,  # Survived = No
    5, 11, 13, 0, 1, 13, 14, 0, 57, 14, 75, 192, 140, 80, 76, 20,  # Survived = Yes
)

_HAIR_EYE_LEVELS = (
    ("Black", "Brown", "Red", "Blond"),
    ("Brown", "Blue", "Hazel", "Green"),
    ("Male", "Female"),
)
# R's datasets::HairEyeColor, listed with Hair fastest, then Eye and Sex.
_HAIR_EYE_COUNTS = (
    32, 53, 10, 3, 11, 50, 10, 30, 10, 25, 7, 5, 3, 15, 7, 8,  # Male
    36, 66, 16, 4, 9, 34, 7, 64, 5, 29, 7, 5, 2, 14, 7, 8,  # Female
)


def titanic() -> CountTable:
    """Survival of the 2,201 people aboard the Titanic (R ``datasets::Titanic``).

    R documents its source as Dawson (1995), "The 'Unusual Episode' Data Revisited", Journal of
    Statistics Education 3(3), from the British Board of Trade's inquiry into the sinking (1912;
    reprinted 1990).  ``nbcourse/data/README.md`` says what it means to use these counts.

    Returns
    -------
    CountTable
        Axes ``("Class", "Sex", "Age", "Survived")`` of sizes (4, 2, 2, 2).

    Examples
    --------
    >>> t = titanic()
    >>> int(t.counts[3, 0, 1, 0])  # adult male crew who died
    670
    """
    return CountTable("Titanic", _from_r_order(_TITANIC_COUNTS, _TITANIC_LEVELS),
                      ("Class", "Sex", "Age", "Survived"), _TITANIC_LEVELS)


def hair_eye_color() -> CountTable:
    """Hair colour, eye colour and sex of 592 students (R ``datasets::HairEyeColor``).

    The hair-by-eye table is Snee's (1974) survey of statistics students at the University of
    Delaware; R documents that the split by sex was added by Friendly (1992) for teaching, so
    results that involve sex illustrate methods only (``nbcourse/data/README.md``).

    Returns
    -------
    CountTable
        Axes ``("Hair", "Eye", "Sex")`` of sizes (4, 4, 2).

    Examples
    --------
    >>> int(hair_eye_color().counts[3, 1, 1])  # blond, blue-eyed women
    64
    """
    return CountTable("HairEyeColor", _from_r_order(_HAIR_EYE_COUNTS, _HAIR_EYE_LEVELS),
                      ("Hair", "Eye", "Sex"), _HAIR_EYE_LEVELS)


# ------------------------------------------------------------------ e-mail
#: Columns of ``email.csv.gz`` holding text (all others are integers).
_EMAIL_TEXT_COLUMNS = ("winner", "number")

#: The yes/no features of :func:`email_features`: name -> (column, rule, question).
#: Rule ``">0"`` turns a count into "at least one"; ``"=yes"`` / ``"!=none"`` compare text;
#: ``"as is"`` keeps a 0/1 indicator.
EMAIL_FEATURES = {
    "to_multiple": ("to_multiple", "as is", "addressed to more than one recipient"),
    "cc": ("cc", ">0", "someone cc'ed"),
    "sent_email": ("sent_email", "as is", "sender was sent an e-mail in the last 30 days"),
    "image": ("image", ">0", "an image attached"),
    "attach": ("attach", ">0", "a file attached"),
    "dollar": ("dollar", ">0", "a dollar sign or the word 'dollar'"),
    "winner": ("winner", "=yes", "the word 'winner'"),
    "inherit": ("inherit", ">0", "'inherit' or a word built on it"),
    "password": ("password", ">0", "the word 'password'"),
    "format": ("format", "as is", "written in HTML"),
    "re_subj": ("re_subj", "as is", "subject starts with 'Re:'"),
    "exclaim_subj": ("exclaim_subj", "as is", "'!' in the subject"),
    "urgent_subj": ("urgent_subj", "as is", "'urgent' in the subject"),
    "exclaim_mess": ("exclaim_mess", ">0", "'!' in the message"),
    "number": ("number", "!=none", "a number in the message"),
}


def email_table() -> dict[str, np.ndarray]:
    """The ``email`` data of the R package openintro: 3,921 e-mails, columns unchanged.

    E-mails received by one account in January to March 2012 (Çetinkaya-Rundel et al.,
    R package openintro, GPL-3; copy and provenance in ``nbcourse/data/README.md``).

    Returns
    -------
    dict of str to numpy.ndarray, each of shape (3921,)
        ``spam`` (1 for spam) and the 15 source columns of :data:`EMAIL_FEATURES`:
        counts and 0/1 indicators as int64, ``winner`` (``"no"``/``"yes"``) and ``number``
        (``"none"``/``"small"``/``"big"``) as str.

    Raises
    ------
    ValueError
        If a value in the shipped file is missing or not an integer where one is expected.

    Examples
    --------
    >>> t = email_table()
    >>> t["spam"].shape, int(t["spam"].sum())
    ((3921,), 367)
    """
    raw = resources.files("nbcourse").joinpath("data", "email.csv.gz").read_bytes()
    rows = list(csv.reader(io.StringIO(gzip.decompress(raw).decode("utf-8"))))
    header, body = rows[0], rows[1:]
    table = {}
    for j, name in enumerate(header):
        values = [r[j] for r in body]
        if name in _EMAIL_TEXT_COLUMNS:
            table[name] = np.array(values, dtype=str)
        elif all(v.isdigit() for v in values):
            table[name] = np.array(values, dtype=np.int64)
        else:
            bad = next(v for v in values if not v.isdigit())
            raise ValueError(f"email.csv.gz column {name} must hold non-negative integers, "
                             f"got {bad!r}")
    return table


def _binarise(values: np.ndarray, rule: str) -> np.ndarray:
    """Apply one rule of :data:`EMAIL_FEATURES` to a column."""
    if rule == "as is":
        return values.astype(np.int64)
    if rule == ">0":
        return (values > 0).astype(np.int64)
    if rule.startswith("="):
        return (values == rule[1:]).astype(np.int64)
    return (values != rule[2:]).astype(np.int64)


def email_features(names=None):
    """Yes/no features of the e-mails and their spam labels.

    Each feature answers one question of :data:`EMAIL_FEATURES` about an e-mail: counts
    become "at least one" (``count > 0``), ``winner`` becomes ``winner == "yes"``,
    ``number`` becomes ``number != "none"``, and 0/1 indicators are kept.

    Parameters
    ----------
    names : sequence of str or None
        Features to return, in this order (default: all of :data:`EMAIL_FEATURES`).

    Returns
    -------
    X : numpy.ndarray of int64, shape (3921, d)
        Bits 0/1.
    spam : numpy.ndarray of int64, shape (3921,)
        1 for spam, 0 otherwise.
    names : tuple of str, length d

    Examples
    --------
    >>> X, spam, names = email_features(["dollar", "winner"])
    >>> X.shape, names
    ((3921, 2), ('dollar', 'winner'))
    """
    names = tuple(EMAIL_FEATURES) if names is None else tuple(names)
    unknown = [n for n in names if n not in EMAIL_FEATURES]
    if unknown or not names:
        raise ValueError(f"names must be a non-empty selection of {tuple(EMAIL_FEATURES)}, "
                         f"got {names!r}")
    table = email_table()
    columns = [_binarise(table[EMAIL_FEATURES[n][0]], EMAIL_FEATURES[n][1]) for n in names]
    return np.column_stack(columns), table["spam"].copy(), names


#: The six novels of :func:`austen_passages`, in order of publication (the class codes 0..5).
AUSTEN_NOVELS = ("Sense & Sensibility", "Pride & Prejudice", "Mansfield Park", "Emma",
                 "Northanger Abbey", "Persuasion")


@dataclass(frozen=True)
class Passages:
    """Passages of text labelled with their source.

    Attributes
    ----------
    texts : tuple of str, length N
        Each passage's lower-case word tokens joined by single spaces.
    y : numpy.ndarray of int64, shape (N,)
        Class code of each passage: ``classes[y[i]]`` is its source.
    classes : tuple of str
        Names of the classes.
    position : numpy.ndarray of int64, shape (N,)
        Index of each passage among the consecutive passages of its source.
    """

    texts: tuple[str, ...]
    y: np.ndarray
    classes: tuple[str, ...]
    position: np.ndarray


def austen_passages() -> Passages:
    """1,500 passages of 100 words from Jane Austen's six novels, 250 from each.

    The novels' texts come from the R package janeaustenr (Silge, MIT licence; the
    texts are in the public domain).  Each passage is 100 consecutive word tokens
    (:func:`nbcourse.text.tokenize`) of a novel's text without chapter headings; the
    250 passages of a novel are evenly spaced through it.  Derivation, licence and
    checksum: ``nbcourse/data/README.md``.

    Returns
    -------
    Passages
        Classes :data:`AUSTEN_NOVELS`, passages in the order of the novels and, within
        a novel, of the text.

    Raises
    ------
    ValueError
        If the shipped file names a novel not in :data:`AUSTEN_NOVELS`.

    Examples
    --------
    >>> p = austen_passages()
    >>> len(p.texts), np.bincount(p.y).tolist()
    (1500, [250, 250, 250, 250, 250, 250])
    >>> p.texts[250].split()[:6]
    ['it', 'is', 'a', 'truth', 'universally', 'acknowledged']
    """
    raw = resources.files("nbcourse").joinpath("data", "austen.csv.gz").read_bytes()
    rows = list(csv.reader(io.StringIO(gzip.decompress(raw).decode("utf-8"))))
    if rows[0] != ["novel", "position", "text"]:
        raise ValueError(f"austen.csv.gz must have columns novel, position, text, got {rows[0]}")
    unknown = {r[0] for r in rows[1:]} - set(AUSTEN_NOVELS)
    if unknown:
        raise ValueError(f"austen.csv.gz names novels not in AUSTEN_NOVELS: {sorted(unknown)}")
    body = rows[1:]
    return Passages(
        texts=tuple(r[2] for r in body),
        y=np.array([AUSTEN_NOVELS.index(r[0]) for r in body], dtype=np.int64),
        classes=AUSTEN_NOVELS,
        position=np.array([int(r[1]) for r in body], dtype=np.int64),
    )
