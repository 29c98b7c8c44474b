"""Figures for the scikit-learn chapter of Part II: two fitted models, case by case.

The models are fitted elsewhere (in the chapter, with scikit-learn's pipelines);
these functions take their posteriors as arrays, so they stay cheap to test.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_real_array, check_probabilities, check_text
from .style import COLORS, get_axes

__all__ = ["plot_posterior_pairs"]


def _check_pairs(p_categorical, p_pob, counts):
    """The two posterior vectors and the counts as 1-d arrays of one length."""
    pc = check_probabilities(p_categorical, "p_categorical")
    pp = check_probabilities(p_pob, "p_pob")
    n = np.ones(pc.shape) if counts is None else as_real_array(counts, "counts")
    if not (pc.ndim == 1 and pc.shape == pp.shape == n.shape) or pc.size == 0:
        raise ValueError(f"p_categorical, p_pob and counts must be 1-d of one non-zero length, "
                         f"got shapes {pc.shape}, {pp.shape} and {n.shape}")
    if (n < 0).any() or not np.isfinite(n).all():
        raise ValueError(f"counts must be finite and non-negative, got {n.tolist()!r:.80}")
    return pc, pp, n


def plot_posterior_pairs(p_categorical, p_pob, *, counts=None, ax=None, title: str | None = None,
                         note: str | None = None):
    """Posterior of one class under PoB against the categorical model, one dot per case.

    A dot in the shaded triangles, above or below both diagonals, is a case whose
    PoB posterior (Williams 2024, eq. 3, with several features) is further from
    1/2 than its categorical posterior (eq. 2), ``|p_pob - 1/2| > |p_categorical - 1/2|``.
    The dot's area grows with ``counts``.

    Parameters
    ----------
    p_categorical, p_pob : array_like, shape (n,)
        Posterior probability of the same class under each model, one entry per case
        (for instance per distinct feature vector).
    counts : array_like, shape (n,), optional
        How many records each case stands for (default: 1 each).
    ax : matplotlib.axes.Axes or None
    title : str or None
    note : str or None
        A remark written in a box in the lower right corner of the axes, for
        instance that a setting shown in the title changes nothing for these data.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.patches[:2]``: the shaded triangles; ``ax.collections[0]``: the cases
        (one offset each); ``ax.lines[0]``: the diagonal; ``ax.texts[0]``: the note,
        if any.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_posterior_pairs([0.7, 0.2], [0.9, 0.1], counts=[10, 3], note="a remark")
    >>> ax.collections[0].get_offsets().shape
    (2, 2)
    >>> [t.get_text() for t in ax.texts]
    ['a remark']
    >>> plt.close(ax.figure)
    """
    pc, pp, n = _check_pairs(p_categorical, p_pob, counts)
    note = None if note is None else check_text(note, "note")
    ax = get_axes(ax, figsize=(4.8, 4.4))
    for corners in (([0, 1, 0.5], [1, 1, 0.5]), ([0, 1, 0.5], [0, 0, 0.5])):
        ax.fill(*corners, color=COLORS["orange"], alpha=0.2, lw=0)
    area = 12 + 300 * n / max(float(n.max()), 1e-300)
    ax.scatter(pc, pp, s=area, color=COLORS["blue"], edgecolor="black", lw=0.5, alpha=0.8,
               zorder=3, label="cases (area: number of records)")
    ax.plot([0, 1], [0, 1], color="black", lw=1, ls="--", label="equal posteriors")
    ax.plot([0, 1], [1, 0], color=COLORS["grey"], lw=0.8, ls=":")
    ax.fill([], [], color=COLORS["orange"], alpha=0.2, lw=0, label="PoB further from 1/2")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("posterior, categorical model (Williams' eq. 2)")
    ax.set_ylabel("posterior, PoB (Williams' eq. 3)")
    if title:
        ax.set_title(title)
    if note:
        ax.text(0.97, 0.03, note, transform=ax.transAxes, ha="right", va="bottom", fontsize=8,
                bbox={"boxstyle": "round", "facecolor": "white",
                                 "edgecolor": COLORS["grey"]})
    ax.legend(loc="upper left", fontsize=8, markerscale=0.6)
    return ax
