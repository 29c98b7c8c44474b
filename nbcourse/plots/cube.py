"""Decisions on the corners of the cube {0, 1}^d and the plane of a linear discriminant
(Duda, Hart & Stork 2001, §2.9.1; Part I ch. 2 and 4).

Class indices are 0-based, as in :mod:`nbcourse.binary`: class ``0`` is Duda's ``omega_1``
(decided when ``g(x) > 0``) and class ``1`` is ``omega_2``; classes differ in marker shape as
well as colour.  :func:`plot_discriminant_panel` returns its Figure, the others their Axes.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

from .._validation import as_real_array
from ..binary import cube_corners, decide
from .style import (
    CLASS_COLORS,
    CLASS_MARKERS,
    COLORS,
    get_axes,
)

__all__ = [
    "CUBE_FONTSIZE",
    "plane_in_cube",
    "plot_cube_decisions",
    "plot_cube_multiclass",
    "plot_discriminant_panel",
]


def plane_in_cube(w, w0, *, tol=1e-12):
    """Vertices of the polygon where the plane ``w·x + w0 = 0`` cuts the unit cube.

    The plane is intersected with each of the cube's 12 edges; the points found
    are ordered around their centroid, so they can be drawn as a polygon.  A
    plane parallel to an axis (some ``w_i = 0``) is handled like any other.

    Parameters
    ----------
    w : array_like, shape (3,)
    w0 : float
    tol : float, default 1e-12
        Points closer than this are merged; ``|g| <= tol`` counts as on the plane.

    Returns
    -------
    numpy.ndarray, shape (k, 3)
        ``k = 0`` when the plane misses the cube (or ``w = 0``), ``k = 1`` or
        ``2`` when it only touches a corner or an edge, and ``3 <= k <= 6``
        for a true cross-section.

    Examples
    --------
    >>> plane_in_cube([1.0, 1.0, 1.0], -1.5).shape   # a regular hexagon
    (6, 3)
    >>> plane_in_cube([1.0, 1.0, 0.0], -1.5).shape   # parallel to the x3 axis
    (4, 3)
    >>> plane_in_cube([1.0, 1.0, 1.0], -4.0).shape   # misses the cube
    (0, 3)
    """
    w = as_real_array(w, "w")
    if w.shape != (3,):
        raise ValueError(f"w must have shape (3,) for the 3-d cube, got {w.shape}")
    b = float(as_real_array(w0, "w0"))
    if not (np.isfinite(w).all() and np.isfinite(b)) or not np.any(np.abs(w) > tol):
        return np.zeros((0, 3))
    corners = cube_corners(3).astype(float)
    g = corners @ w + b
    points = [corners[i] for i in np.flatnonzero(np.abs(g) <= tol)]
    for i in range(8):
        for k in range(3):
            j = i | (1 << (2 - k))  # flip the k-th coordinate (first feature most significant)
            if j == i or abs(g[i]) <= tol or abs(g[j]) <= tol or g[i] * g[j] > 0:
                continue
            t = g[i] / (g[i] - g[j])
            points.append(corners[i] + t * (corners[j] - corners[i]))
    return _order_polygon(_unique_points(points, tol), w)


def _unique_points(points, tol):
    """Drop points closer than ``tol`` to an earlier one."""
    kept = []
    for p in points:
        if all(np.max(np.abs(p - q)) > tol for q in kept):
            kept.append(p)
    return np.array(kept).reshape(-1, 3)


def _order_polygon(points, normal):
    """Sort coplanar points by angle around their centroid (plane with ``normal``)."""
    if len(points) < 3:
        return points
    n = normal / np.linalg.norm(normal)
    helper = np.eye(3)[np.argmin(np.abs(n))]
    u = np.cross(n, helper)
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    rel = points - points.mean(axis=0)
    return points[np.argsort(np.arctan2(rel @ v, rel @ u))]


#: Font size of the cube figures' corner labels, axis labels and legends.
CUBE_FONTSIZE = 11
# Drawing order of the cube figures (their depth sorting is switched off): edges, then the
# translucent plane, then the corners on top, so that a corner seen through the plane keeps
# its own colour instead of a blend with the plane's.
_Z_FRAME, _Z_PLANE, _Z_CORNERS, _Z_TEXT = 1, 2, 5, 6


def _draw_cube_frame(ax):
    """The 12 edges of the unit cube in light grey, and the axis labels.

    Tick labels are left out: every corner carries its coordinates as a label, and the
    tick labels of the three axes would collide at the corners where two axes meet.
    """
    ax.computed_zorder = False
    corners = cube_corners(3)
    for i in range(8):
        for k in range(3):
            j = i | (1 << (2 - k))
            if j != i:
                seg = np.stack([corners[i], corners[j]])
                ax.plot(*seg.T, color=COLORS["grey"], lw=0.8, alpha=0.6, zorder=_Z_FRAME)
    for set_label, name in ((ax.set_xlabel, "$x_1$"), (ax.set_ylabel, "$x_2$"),
                            (ax.set_zlabel, "$x_3$")):
        set_label(name, fontsize=CUBE_FONTSIZE, labelpad=-8)
    for set_ticks in (ax.set_xticks, ax.set_yticks, ax.set_zticks):
        set_ticks([0, 1], labels=["", ""])
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_zlim(0, 1)
    ax.set_box_aspect((1, 1, 1), zoom=0.88)
    ax.view_init(elev=18, azim=-32)


def _draw_corners(ax, decisions, class_names, annotate):
    """Scatter the 8 corners, one collection per class (label = class name)."""
    corners = cube_corners(3)
    for c in np.unique(decisions):
        pts = corners[decisions == c]
        ax.scatter(*pts.T, s=110, color=CLASS_COLORS[c % len(CLASS_COLORS)],
                   marker=CLASS_MARKERS[c % len(CLASS_MARKERS)], edgecolors="black",
                   depthshade=False, label=f"decide {class_names[c]}", zorder=_Z_CORNERS)
    if annotate:
        for x in corners:
            ax.text(*(x + np.array([0.05, 0.05, 0.06])), "".join(map(str, x)),
                    fontsize=CUBE_FONTSIZE - 1, zorder=_Z_TEXT)


def _draw_plane(ax, w, w0, label):
    """Draw the cross-section of ``w·x + w0 = 0`` with the cube; return its vertex count."""
    poly = plane_in_cube(w, w0)
    if len(poly) >= 3:
        face = Poly3DCollection([poly], alpha=0.35, facecolor=COLORS["sky"],
                                edgecolor=COLORS["black"], linewidths=1.0, label=label,
                                zorder=_Z_PLANE)
        ax.add_collection3d(face)
    return len(poly)


def _plane_note(n_vertices, label):
    """Second title line when the plane does not cut through the cube."""
    return "" if n_vertices >= 3 else f"\n({label} does not cut the cube)"


def plot_cube_decisions(w, w0, *, ax=None, class_names=("$\\omega_1$", "$\\omega_2$"),
                        title=None, annotate=True):
    """The unit cube with its 8 corners coloured by the two-class decision and ``g(x) = 0``.

    A corner ``x`` is given to ``omega_1`` (class 0) when ``g(x) = w·x + w0 > 0``
    and to ``omega_2`` otherwise (Duda, Hart & Stork 2001, eqs. 89–91); the plane
    ``g(x) = 0`` is drawn where it crosses the cube (see :func:`plane_in_cube`).
    When the plane misses the cube a note says so.

    Parameters
    ----------
    w : array_like, shape (3,)
    w0 : float
    ax : mpl_toolkits.mplot3d.axes3d.Axes3D or None
        A 3-d Axes; ``None`` makes a new figure.
    class_names : pair of str
    title : str or None
        Default: the weights and bias, rounded.
    annotate : bool, default True
        Write each corner's bits next to it.

    Returns
    -------
    mpl_toolkits.mplot3d.axes3d.Axes3D
        One scatter collection per class present, labelled ``"decide <name>"``;
        the plane (when drawn) is a ``Poly3DCollection``.

    Examples
    --------
    >>> ax = plot_cube_decisions([1.3863] * 3, -2.7489)
    >>> sorted(c.get_label() for c in ax.collections if c.get_label().startswith("decide"))
    ['decide $\\\\omega_1$', 'decide $\\\\omega_2$']
    >>> plt.close(ax.figure)
    """
    w = as_real_array(w, "w")
    if w.shape != (3,):
        raise ValueError(f"w must have shape (3,) for the 3-d cube, got {w.shape}")
    b = float(as_real_array(w0, "w0"))
    ax = get_axes(ax, figsize=(5.0, 4.6), projection="3d")
    _draw_cube_frame(ax)
    _draw_corners(ax, decide(cube_corners(3), w, b), class_names, annotate)
    n_vertices = _draw_plane(ax, w, b, "$g(\\mathbf{x}) = 0$")
    if title is None:
        ws = ", ".join(f"{v:.2f}" for v in w)
        title = f"$\\mathbf{{w}} = ({ws})$, $w_0 = {b:.2f}$"
    ax.set_title(title + _plane_note(n_vertices, "$g(\\mathbf{x}) = 0$"), fontsize=CUBE_FONTSIZE)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.04), ncol=4, fontsize=CUBE_FONTSIZE - 1,
              frameon=False, handletextpad=0.2, columnspacing=1.0)
    return ax


def plot_cube_multiclass(W, w0, *, pair=(0, 1), ax=None, class_names=None, annotate=True):
    """Corners of the cube coloured by the multi-class decision, with one pairwise boundary.

    Corner ``x`` goes to the class with the largest ``g_c(x) = W[c]·x + w0[c]``
    (:func:`nbcourse.binary.decide`).  The plane drawn is where classes
    ``pair = (i, k)`` tie, ``(W[i] - W[k])·x + (w0[i] - w0[k]) = 0``; only the
    part of it where ``i`` and ``k`` beat every other class is a real boundary.

    Parameters
    ----------
    W : array_like, shape (C, 3)
    w0 : array_like, shape (C,)
    pair : tuple of two ints, default (0, 1)
        0-based classes whose tie plane is drawn.
    ax : Axes3D or None
    class_names : sequence of str or None
        Default ``omega_1 .. omega_C``.
    annotate : bool, default True

    Returns
    -------
    mpl_toolkits.mplot3d.axes3d.Axes3D

    Examples
    --------
    >>> W = [[2.0, 0, 0], [0, 2.0, 0], [0, 0, 2.0]]
    >>> ax = plot_cube_multiclass(W, [0.0, 0.0, 0.0], pair=(0, 1))
    >>> len([c for c in ax.collections if c.get_label().startswith("decide")])
    3
    >>> plt.close(ax.figure)
    """
    W = as_real_array(W, "W")
    b = as_real_array(w0, "w0")
    if W.ndim != 2 or W.shape[1] != 3:
        raise ValueError(f"W must have shape (C, 3), got {W.shape}")
    if b.shape != (W.shape[0],):
        raise ValueError(f"w0 must have shape ({W.shape[0]},) (one bias per class), got {b.shape}")
    i, k = (int(c) for c in pair)
    if not (0 <= i < W.shape[0] and 0 <= k < W.shape[0] and i != k):
        raise ValueError(f"pair must name two different classes in range({W.shape[0]}), got {pair}")
    names = class_names or [f"$\\omega_{c + 1}$" for c in range(W.shape[0])]
    ax = get_axes(ax, figsize=(5.0, 4.6), projection="3d")
    _draw_cube_frame(ax)
    _draw_corners(ax, decide(cube_corners(3), W, b), names, annotate)
    label = f"$g_{i + 1} = g_{k + 1}$"
    n_vertices = _draw_plane(ax, W[i] - W[k], b[i] - b[k], label)
    ax.set_title(f"Tie plane of {names[i]} and {names[k]}" + _plane_note(n_vertices, label),
                 fontsize=CUBE_FONTSIZE)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.04), ncol=4, fontsize=CUBE_FONTSIZE - 1,
              frameon=False, handletextpad=0.2, columnspacing=1.0)
    return ax


def plot_discriminant_panel(w, w0, *, fig=None, title=None):
    """Two panels: the decision cube (left) and the weights ``w_1..w_3, w_0`` (right).

    Parameters
    ----------
    w : array_like, shape (3,)
    w0 : float
    fig : matplotlib.figure.Figure or None
        An empty figure to draw into; ``None`` makes one.
    title : str or None
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[0]`` is the cube, ``fig.axes[1]`` the bar chart.

    Examples
    --------
    >>> fig = plot_discriminant_panel([1.0, 1.0, 0.0], -1.5)
    >>> [round(float(p.get_height()), 2) for p in fig.axes[1].patches]
    [1.0, 1.0, 0.0, -1.5]
    >>> plt.close(fig)
    """
    w = as_real_array(w, "w")
    b = float(as_real_array(w0, "w0"))
    if fig is None:
        fig = plt.figure(figsize=(9.5, 4.2), facecolor="white", layout="constrained")
    grid = fig.add_gridspec(1, 2, width_ratios=(1.25, 1.0), wspace=0.12)
    ax3 = fig.add_subplot(grid[0], projection="3d")
    plot_cube_decisions(w, b, ax=ax3)
    ax = fig.add_subplot(grid[1])
    heights = np.append(w, b)
    names = [f"$w_{i + 1}$" for i in range(w.size)] + ["$w_0$"]
    colors = [COLORS["blue"] if h >= 0 else COLORS["vermillion"] for h in heights]
    ax.bar(names, heights, color=colors, edgecolor="black")
    ax.axhline(0, color="black", lw=0.8)
    for x, h in enumerate(heights):
        ax.annotate(f"{h:.3f}", (x, h), ha="center", va="bottom" if h >= 0 else "top",
                    fontsize=8, xytext=(0, 2 if h >= 0 else -2), textcoords="offset points")
    lim = max(6.5, 1.15 * float(np.max(np.abs(heights))))  # steady axis across states
    ax.set_ylim(-lim, lim)
    ax.set_ylabel("weight")
    ax.set_title("Weights of $g(\\mathbf{x}) = \\mathbf{w}^T\\mathbf{x} + w_0$", fontsize=10)
    if title:
        fig.suptitle(title)
    return fig
