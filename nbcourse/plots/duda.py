"""Figures for Part I: Bayes decisions with discrete features (Duda, Hart & Stork 2001, §2.9).

Every function takes ``ax=None`` (drawing into ``ax`` when given, otherwise into
a new white-backed figure) and returns the Axes it drew on; the two-panel
:func:`plot_discriminant_panel` returns its Figure.  Colours come from the
Okabe-Ito palette in :mod:`nbcourse.plots.style`; classes are told apart by
marker shape as well as colour.

Class indices are 0-based, as in :mod:`nbcourse.binary`: class ``0`` is
Duda's ``omega_1`` (decided when ``g(x) > 0``) and class ``1`` is ``omega_2``.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

from .._validation import as_real_array, check_ndim, check_same_shape
from ..binary import cube_corners, decide
from ..sampling import expected_empty_cells, n_feature_vectors, n_parameters_naive
from .style import COLORS, get_axes

__all__ = [
    "CLASS_COLORS",
    "CLASS_MARKERS",
    "plane_in_cube",
    "plot_cube_decisions",
    "plot_cube_multiclass",
    "plot_discriminant_panel",
    "plot_empty_cells",
    "plot_estimate_distribution",
    "plot_estimation_error",
    "plot_table_growth",
    "plot_weight_bars",
    "plot_weights_by_feature",
    "plot_weights_vs_n",
]

#: Colour of class ``c`` (0-based) on every Part I figure.
CLASS_COLORS = [COLORS["blue"], COLORS["orange"], COLORS["green"], COLORS["purple"],
                COLORS["vermillion"], COLORS["sky"]]
#: Marker of class ``c`` (0-based), so that classes differ in shape as well as colour.
CLASS_MARKERS = ["o", "s", "^", "D", "v", "P"]

_SERIES_COLORS = [COLORS["blue"], COLORS["vermillion"], COLORS["green"], COLORS["purple"],
                  COLORS["orange"], COLORS["sky"]]


# --------------------------------------------------------------------------- sparsity


def plot_table_growth(d_max=20, values=(2, 3, 5), *, ax=None):
    """Number of feature vectors ``V = v^d`` against ``d``, beside the naive Bayes count.

    Solid lines: ``V = prod_j V_j`` for ``d`` features that each take ``v`` values
    (the size of a full table ``P(x | omega)``).  Dashed lines: the ``d (v - 1)``
    free parameters per class of a naive Bayes model (Duda, Hart & Stork 2001,
    §2.9: ``O(V)`` against ``O(d V_bar)``).  Logarithmic y axis.

    Parameters
    ----------
    d_max : int, default 20
        Largest number of features; ``d`` runs over ``1 .. d_max``.
    values : sequence of int, default (2, 3, 5)
        Values per feature, one pair of lines each.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        Lines ``2k`` (table size) and ``2k + 1`` (naive count) belong to ``values[k]``.

    Examples
    --------
    >>> ax = plot_table_growth(10, (2, 3))
    >>> len(ax.lines), float(ax.lines[0].get_ydata()[-1])
    (4, 1024.0)
    >>> plt.close(ax.figure)
    """
    if isinstance(d_max, bool) or not isinstance(d_max, int | np.integer) or d_max < 1:
        raise ValueError(f"d_max must be an integer >= 1, got {d_max!r}")
    ax = get_axes(ax)
    d = np.arange(1, int(d_max) + 1)
    for k, v in enumerate(values):
        color = _SERIES_COLORS[k % len(_SERIES_COLORS)]
        V = [float(n_feature_vectors([v] * int(n))) for n in d]
        naive = [float(n_parameters_naive([v] * int(n), n_classes=1)) for n in d]
        ax.plot(d, V, "-o", ms=3, color=color, label=f"$V = {v}^d$ feature vectors")
        ax.plot(d, naive, "--", color=color, label=f"naive Bayes: $d\\,({v}-1)$ parameters")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("number of features $d$")
    ax.set_ylabel("count (log scale)")
    ax.set_title("Full table versus naive Bayes")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def plot_empty_cells(N, empty_fraction, n_cells, *, labels=None, ax=None):
    """Fraction of the ``V`` cells that a sample of size ``N`` leaves empty.

    Markers: simulated fractions (one row per ``V``).  Lines: the uniform-sampling
    expectation ``(1 - 1/V)^N`` from :func:`nbcourse.sampling.expected_empty_cells`
    on a fine grid of ``N``.  Logarithmic x axis.

    Parameters
    ----------
    N : array_like of int, shape (m,)
        Sample sizes (``>= 1``).
    empty_fraction : array_like, shape (k, m)
        Simulated fraction of empty cells for each ``n_cells[i]`` and ``N[j]``.
    n_cells : array_like, shape (k,)
        Number of cells ``V`` of each row.
    labels : sequence of str or None
        Legend text per row (default ``"V = ..."``).
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        For row ``i``: line ``2i`` holds the simulated markers, line ``2i + 1``
        the expectation.

    Examples
    --------
    >>> ax = plot_empty_cells([1, 10], [[0.5, 0.01]], [2])
    >>> [len(line.get_xdata()) for line in ax.lines][0]
    2
    >>> plt.close(ax.figure)
    """
    n = as_real_array(N, "N")
    check_ndim(n, 1, "N")
    frac = np.atleast_2d(as_real_array(empty_fraction, "empty_fraction"))
    V = np.atleast_1d(as_real_array(n_cells, "n_cells"))
    if frac.shape != (V.size, n.size):
        raise ValueError(
            f"empty_fraction must have shape (len(n_cells), len(N)) = ({V.size}, {n.size}), "
            f"got {frac.shape}"
        )
    if (n < 1).any():
        raise ValueError(f"N must contain sample sizes >= 1, got {n.tolist()}")
    ax = get_axes(ax)
    grid = np.geomspace(n.min(), n.max(), 200)
    for i, v in enumerate(V):
        color = _SERIES_COLORS[i % len(_SERIES_COLORS)]
        label = labels[i] if labels is not None else f"$V = {v:,.0f}$"
        ax.plot(n, frac[i], "o", color=color, label=label)
        ax.plot(grid, expected_empty_cells(v, grid) / v, "-", color=color, lw=1,
                label="_nolegend_")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("sample size $N$ (log scale)")
    ax.set_ylabel("fraction of cells never seen")
    ax.set_title("Empty cells: simulated (dots) and $(1 - 1/V)^N$ (lines)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    return ax


# --------------------------------------------------------------------------- the cube


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


# --------------------------------------------------------------------------- estimation


def _summary(w, name):
    """Median and interquartile range over repeats (axis 1) of a (m, r, d) array."""
    arr = as_real_array(w, name)
    if arr.ndim == 2:
        return arr, None, None
    if arr.ndim != 3:
        raise ValueError(f"{name} must have shape (m, d) or (m, repeats, d), got {arr.shape}")
    lo, mid, hi = np.percentile(arr, [25, 50, 75], axis=1)
    return mid, lo, hi


def _check_weight_curves(N, w_nb, w_lr, w_true):
    """Validate the inputs of the weights-against-N figures.

    Returns ``n`` (len(N),), ``truth`` (d,) and the summaries ``(mean, lo, hi)`` of
    ``w_nb`` and ``w_lr``, each of shape (len(N), d).
    """
    n = as_real_array(N, "N")
    check_ndim(n, 1, "N")
    nb, nb_lo, nb_hi = _summary(w_nb, "w_nb")
    lr, lr_lo, lr_hi = _summary(w_lr, "w_lr")
    truth = as_real_array(w_true, "w_true")
    check_same_shape(nb, lr, "w_nb (summarised)", "w_lr (summarised)")
    if nb.shape != (n.size, truth.size):
        raise ValueError(
            f"w_nb must have shape (len(N), len(w_true)) = ({n.size}, {truth.size}), "
            f"got {nb.shape}"
        )
    return n, truth, (nb, nb_lo, nb_hi), (lr, lr_lo, lr_hi)


def plot_weights_vs_n(N, w_nb, w_lr, w_true, *, ax=None, feature_names=None):
    """Fitted weights of naive Bayes and logistic regression against the sample size.

    Each feature has one colour: solid line and circles for naive Bayes, dashed
    line and squares for logistic regression, a dotted horizontal line at the
    true weight.  With repeated fits (3-d inputs) the lines are medians and the
    shaded bands interquartile ranges.  Logarithmic x axis.

    Parameters
    ----------
    N : array_like, shape (m,)
        Sample sizes.
    w_nb, w_lr : array_like, shape (m, d) or (m, repeats, d)
        Weights fitted at each sample size.
    w_true : array_like, shape (d,)
        Weights of the model the data came from.
    ax : matplotlib.axes.Axes or None
    feature_names : sequence of str or None

    Returns
    -------
    matplotlib.axes.Axes
        Lines ``3j, 3j + 1, 3j + 2`` are naive Bayes, logistic regression and
        the truth for feature ``j``.

    Examples
    --------
    >>> ax = plot_weights_vs_n([10, 100], [[1.0], [1.2]], [[0.5], [1.1]], [1.0])
    >>> ax.lines[1].get_ydata().tolist()
    [0.5, 1.1]
    >>> plt.close(ax.figure)
    """
    n, truth, (nb, nb_lo, nb_hi), (lr, lr_lo, lr_hi) = _check_weight_curves(
        N, w_nb, w_lr, w_true)
    ax = get_axes(ax, figsize=(6.0, 4.2))
    names = feature_names or [f"$w_{j + 1}$" for j in range(truth.size)]
    for j in range(truth.size):
        color = _SERIES_COLORS[j % len(_SERIES_COLORS)]
        ax.plot(n, nb[:, j], "-o", color=color, ms=4, label=f"{names[j]} naive Bayes")
        ax.plot(n, lr[:, j], "--s", color=color, ms=4, mfc="white",
                label=f"{names[j]} logistic regression")
        ax.axhline(truth[j], color=color, ls=":", lw=1.2)
        if nb_lo is not None:
            ax.fill_between(n, nb_lo[:, j], nb_hi[:, j], color=color, alpha=0.15, lw=0)
        if lr_lo is not None:
            ax.fill_between(n, lr_lo[:, j], lr_hi[:, j], color=color, alpha=0.08, lw=0)
    ax.set_xscale("log")
    ax.set_xlabel("training sample size $N$ (log scale)")
    ax.set_ylabel("fitted weight")
    ax.set_title("Two fits of the same linear family (dotted: true weights)", fontsize=10)
    ax.grid(True, alpha=0.3)
    # A compact legend: one entry per feature (colour) and one per method (line style).
    handles = [Line2D([], [], color=_SERIES_COLORS[j % len(_SERIES_COLORS)], lw=6, alpha=0.6,
                      label=names[j]) for j in range(truth.size)]
    handles += [Line2D([], [], color="black", ls="-", marker="o", ms=4, label="naive Bayes"),
                Line2D([], [], color="black", ls="--", marker="s", ms=4, mfc="white",
                       label="logistic regression"),
                Line2D([], [], color="black", ls=":", label="true weight")]
    ax.legend(handles=handles, fontsize=8, ncol=4, loc="upper center",
              bbox_to_anchor=(0.5, -0.16), frameon=False)
    return ax


#: Colours of the two fitting methods in :func:`plot_weights_by_feature`.
METHOD_COLORS = {"naive Bayes": COLORS["blue"], "logistic regression": COLORS["vermillion"]}


def plot_weights_by_feature(N, w_nb, w_lr, w_true, *, fig=None, feature_names=None, ncols=2):
    """Fitted weights against the sample size, one panel per feature.

    The same data as :func:`plot_weights_vs_n`, for weights whose true values are
    too close for their lines and bands to be told apart on one axis.  In every
    panel naive Bayes is blue (solid, circles), logistic regression vermillion
    (dashed, white squares), the true weight a dotted black line; with repeated
    fits (3-d inputs) the lines are medians and the shaded bands interquartile
    ranges.  Each panel has its own y range; the x axis (log scale) is shared.

    Parameters
    ----------
    N : array_like, shape (m,)
        Sample sizes.
    w_nb, w_lr : array_like, shape (m, d) or (m, repeats, d)
        Weights fitted at each sample size.
    w_true : array_like, shape (d,)
        Weights of the model the data came from.
    fig : matplotlib.figure.Figure or None
        An empty figure to draw into; ``None`` makes one.
    feature_names : sequence of str or None
        Panel titles (default ``$w_1$, $w_2$, ...``).
    ncols : int, default 2
        Panels per row.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[j]`` is feature ``j``; in it ``lines[0]`` is naive Bayes,
        ``lines[1]`` logistic regression and ``lines[2]`` the true weight.

    Examples
    --------
    >>> fig = plot_weights_by_feature([10, 100], [[1.0, 2.0], [1.2, 1.9]],
    ...                               [[0.5, 2.2], [1.1, 2.0]], [1.0, 2.0])
    >>> len(fig.axes), fig.axes[1].lines[1].get_ydata().tolist()
    (2, [2.2, 2.0])
    >>> plt.close(fig)
    """
    n, truth, (nb, nb_lo, nb_hi), (lr, lr_lo, lr_hi) = _check_weight_curves(
        N, w_nb, w_lr, w_true)
    if isinstance(ncols, bool) or not isinstance(ncols, int | np.integer) or ncols < 1:
        raise ValueError(f"ncols must be an integer >= 1, got {ncols!r}")
    d = truth.size
    ncols = min(int(ncols), d)
    nrows = -(-d // ncols)
    if fig is None:
        fig = plt.figure(figsize=(3.7 * ncols, 2.5 * nrows + 0.6), facecolor="white",
                         layout="constrained")
    axes = fig.subplots(nrows, ncols, sharex=True, squeeze=False).ravel()
    names = feature_names or [f"$w_{j + 1}$" for j in range(d)]
    nb_color, lr_color = METHOD_COLORS["naive Bayes"], METHOD_COLORS["logistic regression"]
    for j, ax in enumerate(axes[:d]):
        ax.plot(n, nb[:, j], "-o", color=nb_color, ms=4)
        ax.plot(n, lr[:, j], "--s", color=lr_color, ms=4, mfc="white")
        ax.axhline(truth[j], color="black", ls=":", lw=1.2)
        if nb_lo is not None:
            ax.fill_between(n, nb_lo[:, j], nb_hi[:, j], color=nb_color, alpha=0.18, lw=0)
        if lr_lo is not None:
            ax.fill_between(n, lr_lo[:, j], lr_hi[:, j], color=lr_color, alpha=0.12, lw=0)
        ax.set_xscale("log")
        ax.set_title(names[j], fontsize=11)
        ax.grid(True, alpha=0.3)
    for ax in axes[d:]:
        ax.remove()
    for j, ax in enumerate(axes[:d]):
        if j + ncols >= d:  # lowest panel of its column
            ax.set_xlabel("sample size $N$ (log scale)")
            ax.tick_params(labelbottom=True)
        if j % ncols == 0:
            ax.set_ylabel("fitted weight")
    handles = [Line2D([], [], color=nb_color, ls="-", marker="o", ms=4, label="naive Bayes"),
               Line2D([], [], color=lr_color, ls="--", marker="s", ms=4, mfc="white",
                      label="logistic regression"),
               Line2D([], [], color="black", ls=":", label="true weight")]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False)
    return fig


def plot_weight_bars(weights, *, ax=None, feature_names=None):
    """Grouped bar chart of several weight vectors, one group per feature.

    Parameters
    ----------
    weights : Mapping[str, array_like of shape (d,)]
        Legend label to weight vector; all the same length.
    ax : matplotlib.axes.Axes or None
    feature_names : sequence of str or None
        Tick labels (default ``w_1 .. w_d``).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers[k]`` holds the bars of the ``k``-th entry of ``weights``.

    Examples
    --------
    >>> ax = plot_weight_bars({"a": [1.0, 2.0], "b": [0.5, 0.5]})
    >>> [float(b.get_height()) for b in ax.containers[1]]
    [0.5, 0.5]
    >>> plt.close(ax.figure)
    """
    if not isinstance(weights, Mapping) or not weights:
        raise TypeError(f"weights must be a non-empty mapping label -> vector, got {weights!r:.60}")
    arrays = {k: as_real_array(v, f"weights[{k!r}]") for k, v in weights.items()}
    sizes = {a.shape for a in arrays.values()}
    if len(sizes) != 1 or len(next(iter(sizes))) != 1:
        raise ValueError(f"weights must all be 1-d vectors of the same length, got shapes {sizes}")
    d = next(iter(sizes))[0]
    ax = get_axes(ax, figsize=(6.0, 3.8))
    width = 0.8 / len(arrays)
    x = np.arange(d)
    for k, (label, vec) in enumerate(arrays.items()):
        ax.bar(x + (k - (len(arrays) - 1) / 2) * width, vec, width,
               color=_SERIES_COLORS[k % len(_SERIES_COLORS)], edgecolor="black", label=label)
    ax.set_xticks(x, feature_names or [f"$w_{j + 1}$" for j in range(d)])
    ax.axhline(0, color="black", lw=0.8)
    ax.set_ylabel("weight")
    ax.legend(fontsize="small")
    return ax


def plot_estimation_error(n, errors, *, expected=None, mark=None, ax=None,
                          ylabel="mean squared error of $\\hat p$"):
    """Estimation error against sample size for several estimators, log-log.

    Parameters
    ----------
    n : array_like, shape (m,)
        Sample sizes (per class).
    errors : Mapping[str, array_like of shape (m,)]
        Simulated error of each estimator (markers).
    expected : Mapping[str, array_like of shape (m,)] or None
        Closed-form error of each estimator (lines), same keys as ``errors``.
    mark : float or None
        Sample size to highlight with a vertical line.
    ax : matplotlib.axes.Axes or None
    ylabel : str

    Returns
    -------
    matplotlib.axes.Axes
        Line ``2k`` holds the markers of the ``k``-th estimator, line ``2k + 1``
        its closed form (when given).

    Examples
    --------
    >>> ax = plot_estimation_error([10, 100], {"MLE": [0.02, 0.002]})
    >>> ax.lines[0].get_ydata().tolist()
    [0.02, 0.002]
    >>> plt.close(ax.figure)
    """
    size = as_real_array(n, "n")
    check_ndim(size, 1, "n")
    if not isinstance(errors, Mapping) or not errors:
        raise TypeError(f"errors must be a non-empty mapping label -> values, got {errors!r:.60}")
    if expected is not None and set(expected) != set(errors):
        raise ValueError(
            f"expected must have the same keys as errors {sorted(errors)}, got {sorted(expected)}"
        )
    ax = get_axes(ax)
    for k, (label, err) in enumerate(errors.items()):
        e = as_real_array(err, f"errors[{label!r}]")
        if e.shape != size.shape:
            raise ValueError(f"errors[{label!r}] must have shape {size.shape}, got {e.shape}")
        color = _SERIES_COLORS[k % len(_SERIES_COLORS)]
        ax.plot(size, e, CLASS_MARKERS[k % len(CLASS_MARKERS)], color=color,
                label=f"{label} (simulated)")
        if expected is not None:
            ax.plot(size, as_real_array(expected[label], f"expected[{label!r}]"), "-",
                    color=color, lw=1, label=f"{label} (exact)")
    if mark is not None:
        ax.axvline(float(mark), color=COLORS["grey"], ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("samples per class $N_c$ (log scale)")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    return ax


def plot_estimate_distribution(estimates, p_true, *, bins=20, xmax=1.0, ax=None):
    """Histograms of estimates of one probability, with the truth and the share of 0s and 1s.

    An estimate of exactly 0 or 1 makes a weight of the linear discriminant
    infinite (Duda, Hart & Stork 2001, eqs. 90–91), so the legend reports the
    share of such estimates for each estimator.

    Parameters
    ----------
    estimates : Mapping[str, array_like of shape (r,)]
        Repeated estimates in ``[0, 1]`` from each estimator (for example ML and
        Laplace-smoothed).
    p_true : float
        The probability being estimated (a vertical dotted line).
    bins : int, default 20
        Equal-width bins over ``[0, xmax]``.
    xmax : float, default 1.0
        Right end of the histogram range (``0 < xmax <= 1``); estimates above it
        are counted in the last bin, so the shares still add up to 1.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.patches`` holds one step-histogram patch per estimator, in order;
        its legend label ends with the share of estimates equal to 0 or 1.

    Examples
    --------
    >>> ax = plot_estimate_distribution({"ML": [0.0, 0.5, 1.0, 0.5]}, 0.5)
    >>> ax.patches[0].get_label()
    'ML (50% at 0 or 1)'
    >>> plt.close(ax.figure)
    """
    if not isinstance(estimates, Mapping) or not estimates:
        raise TypeError(
            f"estimates must be a non-empty mapping label -> values, got {estimates!r:.60}"
        )
    truth = float(as_real_array(p_true, "p_true"))
    ax = get_axes(ax)
    top = float(xmax)
    if not 0 < top <= 1:
        raise ValueError(f"xmax must satisfy 0 < xmax <= 1, got {xmax!r}")
    edges = np.linspace(0.0, top, int(bins) + 1)
    for k, (label, values) in enumerate(estimates.items()):
        v = as_real_array(values, f"estimates[{label!r}]").ravel()
        if v.size == 0 or (v < 0).any() or (v > 1).any():
            raise ValueError(f"estimates[{label!r}] must be a non-empty array of values in [0, 1]")
        extreme = np.mean((v == 0) | (v == 1))
        weights = np.full(v.size, 1.0 / v.size)
        ax.hist(np.minimum(v, top), bins=edges, weights=weights, histtype="step", lw=2,
                color=_SERIES_COLORS[k % len(_SERIES_COLORS)],
                label=f"{label} ({extreme:.0%} at 0 or 1)")
    ax.axvline(truth, color=COLORS["black"], ls=":", lw=1.2, label=f"true $p = {truth:g}$")
    ax.set_xlim(-0.02 * top, 1.02 * top)
    ax.set_xlabel("estimate $\\hat p$")
    ax.set_ylabel("share of samples")
    ax.legend(fontsize="small", loc="upper right")
    return ax
