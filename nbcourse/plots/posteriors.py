"""Posteriors of the categorical and the product-of-Bernoullis models side by side: the
largest posterior of each (Williams 2024, Figure 3), the posteriors of every value, the two
models as linear discriminants, and two fitted models compared case by case (the models are
fitted elsewhere; these functions take posteriors as arrays, so they stay cheap to test).  Every function takes ``ax=None`` and returns its Axes.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch

from .._validation import as_real_array, check_probabilities, check_simplex, check_text
from .style import (
    AGREE_COLOR,
    COLORS,
    DISAGREE_COLOR,
    get_axes,
    label_axes,
)

__all__ = [
    "plot_discriminant_weights",
    "plot_posterior_pairs",
    "plot_max_posterior",
    "plot_posteriors",
]


# ---------------------------------------------------------------- Figure 3
def plot_max_posterior(max_categorical, max_pob, map_agree, *, ax=None,
                       title: str | None = None):
    """Maximum posterior under PoB against under the categorical model: Williams (2024), Fig. 3.

    Parameters
    ----------
    max_categorical, max_pob : array_like, shape (n,)
        Largest class posterior under eq. 2 and under eq. 3 for each case.
    map_agree : array_like of bool, shape (n,)
        Whether the two models pick the same MAP class.
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.collections[0]``: agreeing cases (blue); ``ax.collections[1]``:
        disagreeing cases (vermillion); ``ax.lines[0]``: the diagonal.

    Examples
    --------
    >>> ax = plot_max_posterior([0.5, 0.6], [0.7, 0.55], [True, False])
    >>> [len(c.get_offsets()) for c in ax.collections]
    [1, 1]
    >>> plt.close(ax.figure)
    """
    mc = check_probabilities(max_categorical, "max_categorical")
    mp = check_probabilities(max_pob, "max_pob")
    agree = np.asarray(map_agree)
    if agree.dtype != bool:
        raise TypeError(f"map_agree must be a boolean array, got dtype {agree.dtype}")
    if not (mc.shape == mp.shape == agree.shape) or mc.ndim != 1:
        raise ValueError(f"max_categorical, max_pob and map_agree must be 1-d of equal length, "
                         f"got shapes {mc.shape}, {mp.shape} and {agree.shape}")
    ax = get_axes(ax, figsize=(4.8, 4.4))
    ax.scatter(mc[agree], mp[agree], s=10, color=AGREE_COLOR, lw=0, alpha=0.7,
               label=f"same MAP class ({agree.sum()})")
    ax.scatter(mc[~agree], mp[~agree], s=14, color=DISAGREE_COLOR, lw=0,
               label=f"different MAP class ({(~agree).sum()})")
    ax.plot([0, 1], [0, 1], color="black", lw=1, ls="--")
    ax.set_xlim(0, 1.01)
    ax.set_ylim(0, 1.01)
    ax.set_aspect("equal")
    ax.legend(loc="lower right", fontsize=8)
    return label_axes(ax, "max posterior, categorical (Williams' eq. 2)",
                   "max posterior, PoB (Williams' eq. 3)", title)


# -------------------------------------------------------------- posteriors
def plot_posteriors(post_categorical, post_pob, *, class_names=None, value_names=None,
                    ax=None):
    """Both models' posteriors for every observed value, side by side.

    For each value ``j`` of ``x`` two stacked bars show ``p(y | x = j)`` under the
    categorical model (left, solid) and under PoB (right, hatched); a red
    triangle above ``j`` marks the values where the MAP classes differ.

    Parameters
    ----------
    post_categorical, post_pob : array_like, shape (K, C)
        Row ``j`` is the posterior over the C classes given ``x = j`` (rows sum to 1).
    class_names, value_names : sequence of str or None
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``2 * K * C`` bar patches come first in ``ax.patches`` (categorical
        bars, then PoB bars, class by class); ``ax.collections[0]`` holds the
        disagreement markers (one offset per disagreeing ``j``).

    Examples
    --------
    >>> ax = plot_posteriors([[0.6, 0.4], [0.45, 0.55]], [[0.7, 0.3], [0.55, 0.45]])
    >>> ax.collections[0].get_offsets().shape[0]  # models disagree for x = 2
    1
    >>> plt.close(ax.figure)
    """
    pc = check_simplex(post_categorical, "post_categorical", atol=1e-6)
    pp = check_simplex(post_pob, "post_pob", atol=1e-6)
    if pc.shape != pp.shape or pc.ndim != 2:
        raise ValueError(f"post_categorical and post_pob must both have shape (K, C), "
                         f"got {pc.shape} and {pp.shape}")
    K, C = pc.shape
    class_names = list(class_names) if class_names is not None else [f"$y={i + 1}$"
                                                                     for i in range(C)]
    value_names = list(value_names) if value_names is not None else [f"$x={j + 1}$"
                                                                     for j in range(K)]
    palette = [COLORS[c] for c in ("blue", "orange", "green", "purple", "sky", "vermillion",
                                   "yellow", "grey")]
    ax = get_axes(ax, figsize=(max(4.0, 1.1 * K + 2.0), 3.8))
    pos = np.arange(K)
    w = 0.38
    for offset, post, hatch in ((-w / 2, pc, None), (w / 2, pp, "//")):
        bottom = np.zeros(K)
        for i in range(C):
            ax.bar(pos + offset, post[:, i], w, bottom=bottom, color=palette[i % len(palette)],
                   hatch=hatch, edgecolor="white", lw=0.5)
            bottom += post[:, i]
    differ = pc.argmax(axis=1) != pp.argmax(axis=1)
    ax.scatter(pos[differ], np.full(differ.sum(), 1.06), marker="v", s=60,
               color=DISAGREE_COLOR, clip_on=False, zorder=3)
    handles = [Patch(color=palette[i % len(palette)], label=class_names[i]) for i in range(C)]
    handles += [Patch(facecolor="white", edgecolor="black", label="categorical (left)"),
                Patch(facecolor="white", edgecolor="black", hatch="//", label="PoB (right)")]
    if differ.any():
        handles.append(plt.Line2D([], [], ls="none", marker="v", color=DISAGREE_COLOR,
                                  label="MAP classes differ"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    ax.set_xticks(pos, value_names)
    ax.set_ylim(0, 1.12)
    ax.set_yticks(np.linspace(0, 1, 6))
    return label_axes(ax, "observed value", r"posterior $p(y \mid x)$")


# ------------------------------------------------- linear discriminant view
def plot_discriminant_weights(w_categorical, w_pob, *, value_names=None, ax=None):
    """Per-bit weights of the categorical and PoB linear discriminants, side by side.

    Parameters
    ----------
    w_categorical, w_pob : array_like, shape (K,)
        Weight on each one-hot bit (for one class, or a difference of two classes).
    value_names : sequence of str or None
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.patches[:K]`` are the categorical bars, ``ax.patches[K:2K]`` the PoB bars.

    Examples
    --------
    >>> ax = plot_discriminant_weights([-1.0, -0.5], [-1.2, 0.3])
    >>> [round(float(p.get_height()), 2) for p in ax.patches]
    [-1.0, -0.5, -1.2, 0.3]
    >>> plt.close(ax.figure)
    """
    wc = as_real_array(w_categorical, "w_categorical")
    wp = as_real_array(w_pob, "w_pob")
    if wc.shape != wp.shape or wc.ndim != 1:
        raise ValueError(f"w_categorical and w_pob must be 1-d of equal length, got shapes "
                         f"{wc.shape} and {wp.shape}")
    K = wc.size
    names = list(value_names) if value_names is not None else [f"bit {j + 1}" for j in range(K)]
    ax = get_axes(ax)
    pos = np.arange(K)
    ax.bar(pos - 0.2, wc, 0.4, color=COLORS["blue"], label="categorical")
    ax.bar(pos + 0.2, wp, 0.4, color=COLORS["orange"], hatch="//", edgecolor="white",
           label="PoB")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(pos, names)
    ax.legend(fontsize=9)
    return label_axes(ax, "one-hot bit", "weight")


# ------------------------------------------------- two fitted models, case by case
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
