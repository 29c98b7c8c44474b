"""Figures of the chapter on dependent features.

* :func:`plot_dependence_tree`: the features on a circle, every pair joined by a line as thick
  as its conditional mutual information, and the edges of a tree drawn over them (the chapter's
  learning curves are :func:`nbcourse.plots.learning.plot_learning_curves`).

The numbers come from :mod:`nbcourse.semi_naive` and scikit-learn; this module only draws.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_real_array
from .style import COLORS, get_axes

__all__ = ["plot_dependence_tree"]


def plot_dependence_tree(names, weights, edges, *, root=None, ax=None, title=None):
    """Features on a circle: all pairs faint, width ∝ weight; the tree's edges bold.

    Parameters
    ----------
    names : sequence of str, length d
    weights : array_like, shape (d, d)
        Symmetric non-negative weights (the conditional mutual information); the diagonal is
        ignored.
    edges : array_like of int, shape (d - 1, 2)
        The tree.
    root : int, optional
        A node to mark as the root.
    ax : matplotlib.axes.Axes or None
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines`` hold the tree's edges, in the order given, after the faint pairs.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> W = np.array([[0, 1, 0.1], [1, 0, 0.5], [0.1, 0.5, 0]])
    >>> ax = plot_dependence_tree(["a", "b", "c"], W, [[0, 1], [1, 2]], root=0)
    >>> len(ax.lines)
    5
    >>> plt.close(ax.figure)
    """
    labels = [str(n) for n in names]
    d = len(labels)
    W = as_real_array(weights, "weights")
    if W.shape != (d, d) or not np.isfinite(W).all() or (W < 0).any():
        raise ValueError(f"weights must be a ({d}, {d}) array of finite non-negative numbers, "
                         f"got shape {W.shape}")
    E = np.asarray(edges, dtype=int).reshape(-1, 2)
    if E.shape[0] != d - 1 or ((E < 0) | (E >= d)).any():
        raise ValueError(f"edges must be {d - 1} pairs of nodes 0..{d - 1}, got {edges!r:.60}")
    ax = get_axes(ax, figsize=(5.0, 5.0))
    angle = np.pi / 2 - 2 * np.pi * np.arange(d) / d
    xy = np.column_stack([np.cos(angle), np.sin(angle)])
    off = W[~np.eye(d, dtype=bool)]
    scale = 6.0 / off.max() if off.size and off.max() > 0 else 0.0
    for i in range(d):
        for j in range(i + 1, d):
            ax.plot(*xy[[i, j]].T, color="0.75", lw=max(0.3, W[i, j] * scale), zorder=1,
                    solid_capstyle="round")
    for i, j in E:
        ax.plot(*xy[[i, j]].T, color=COLORS["vermillion"], lw=1.5 + W[i, j] * scale, zorder=2,
                solid_capstyle="round")
    ax.scatter(*xy.T, s=36, color=COLORS["blue"], zorder=3)
    if root is not None:
        ax.scatter(*xy[int(root)], s=140, facecolors="none", edgecolors="black", zorder=4)
    for k, (x, y) in enumerate(xy):
        ax.annotate(labels[k], (x, y), xytext=(1.16 * x, 1.16 * y), ha="center", va="center",
                    fontsize=8)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.4, 1.4)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    return ax
