"""Figures for Part II: Williams (2024), naive Bayes and one-hot encoding.

Each function draws one figure of the book into ``ax`` (a new white-backed figure
when ``ax`` is None) and returns the Axes.  Functions that reproduce a figure of
the paper say which.  Quantities of the paper are computed by :mod:`nbcourse.bounds`;
figures that show simulation results take the arrays computed elsewhere
(:mod:`nbcourse.experiments`, :mod:`nbcourse.calibration`) so they stay cheap to test.

Index convention: ``j`` is 0-based (the paper's ``j = 1, ..., K``).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch
from matplotlib.tri import Triangulation

from .._validation import as_real_array, check_n_categories, check_probabilities, check_simplex
from ..bounds import (
    MORE_EXTREME,
    RATIO_CHANGES,
    REVERSED,
    WEAKENED,
    lower_bound,
    q_minus_j,
    q_minus_j_at_centre,
    upper_bound,
)
from .style import COLORS, get_axes

__all__ = [
    "plot_bounds",
    "plot_discriminant_weights",
    "plot_guarantee_region",
    "plot_log_ratio_scatter",
    "plot_max_posterior",
    "plot_posteriors",
    "plot_q_simplex",
    "plot_q_star",
    "plot_rate_curves",
    "plot_reliability",
    "plot_sampling_distribution",
    "plot_sampling_grid",
    "simplex_grid",
]

#: Corners of the equilateral triangle used for ternary plots (theta_1, theta_2, theta_3).
TRIANGLE = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3.0) / 2.0]])
AGREE_COLOR = COLORS["blue"]
DISAGREE_COLOR = COLORS["vermillion"]


# ----------------------------------------------------------------- helpers
def simplex_grid(n: int):
    """Barycentric lattice on the 2-simplex and its triangles.

    Parameters
    ----------
    n : int
        Number of subdivisions of each edge (``n >= 1``).

    Returns
    -------
    bary : numpy.ndarray, shape ((n + 1)(n + 2) / 2, 3)
        Points ``(a, b, c) / n`` with non-negative integers ``a + b + c = n``.
    triangles : numpy.ndarray of int, shape (n**2, 3)
        Vertex indices of the small triangles tiling the simplex.

    Examples
    --------
    >>> bary, tri = simplex_grid(2)
    >>> bary.shape, tri.shape
    ((6, 3), (4, 3))
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise ValueError(f"n must be an integer >= 1 (edge subdivisions), got {n!r}")
    index = {}
    points = []
    for a in range(n + 1):
        for b in range(n + 1 - a):
            index[a, b] = len(points)
            points.append((a, b, n - a - b))
    triangles = []
    for a in range(n):
        for b in range(n - a):
            triangles.append((index[a, b], index[a + 1, b], index[a, b + 1]))
            if b + 1 <= n - a - 1:
                triangles.append((index[a + 1, b], index[a + 1, b + 1], index[a, b + 1]))
    return np.array(points, dtype=float) / n, np.array(triangles, dtype=int)


def _finish(ax, xlabel, ylabel, title=None):
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax


# ------------------------------------------------------------- Figure 1(a)
def plot_q_simplex(theta_j: float = 0.0, *, n: int = 48, ax=None, cmap: str = "viridis",
                   colorbar: bool = True):
    """Ternary heat map of ``Q^{-4}(theta)`` for ``K = 4``: Williams (2024), Fig. 1(a).

    The three free probabilities ``theta_1, theta_2, theta_3`` (0-based positions
    0, 1, 2) range over the simplex ``theta_1 + theta_2 + theta_3 = 1 - theta_j``,
    with the fourth entry fixed at ``theta_j``.  The paper's figure is ``theta_j = 0``.

    Parameters
    ----------
    theta_j : float, default 0.0
        Fixed value of the fourth probability, in ``[0, 1)``.
    n : int, default 48
        Subdivisions per edge of the plotting lattice.
    ax : matplotlib.axes.Axes or None
    cmap : str
        Colour map of the heat map.
    colorbar : bool, default True
        Whether to add a colour bar.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.collections[0]`` is the ``tripcolor`` mesh; its array holds
        ``Q^{-4}`` at the lattice points (Gouraud shading).

    Examples
    --------
    >>> ax = plot_q_simplex(0.0, n=3)  # the lattice contains the centre (1/3, 1/3, 1/3)
    >>> round(float(ax.collections[0].get_array().max()), 4)  # (2/3)**3, eq. 8
    0.2963
    >>> plt.close(ax.figure)
    """
    t = float(check_probabilities(theta_j, "theta_j"))
    if t >= 1.0:
        raise ValueError(f"theta_j must be < 1 so that a simplex remains, got {t!r}")
    bary, triangles = simplex_grid(n)
    theta = np.concatenate([bary * (1.0 - t), np.full((len(bary), 1), t)], axis=1)
    q = q_minus_j(theta, 3)
    xy = bary @ TRIANGLE
    ax = get_axes(ax, figsize=(5.2, 4.4))
    mesh = ax.tripcolor(Triangulation(xy[:, 0], xy[:, 1], triangles), q, shading="gouraud",
                        cmap=cmap)
    ax.plot(*np.vstack([TRIANGLE, TRIANGLE[:1]]).T, color="black", lw=0.8)
    offsets = [(-0.04, -0.05, "right"), (0.04, -0.05, "left"), (0.0, 0.04, "center")]
    for k, ((x, y), (dx, dy, ha)) in enumerate(zip(TRIANGLE, offsets, strict=True)):
        ax.text(x + dx, y + dy, rf"$\theta_{k + 1}$", ha=ha, va="center", fontsize=12)
    ax.set_aspect("equal")
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.12, 0.98)
    ax.axis("off")
    ax.set_title(rf"$Q^{{-4}}(\theta)$ on the simplex, $\theta_4 = {t:g}$")
    if colorbar:
        ax.figure.colorbar(mesh, ax=ax, shrink=0.8, label=r"$Q^{-4}$")
    return ax


# ---------------------------------------------------------------- eq. 8
def plot_q_star(Ks=(3, 4, 6, 10), *, ax=None):
    """``Q^{-j}(theta*)`` of eq. 8 against ``theta_j`` for several K, with the diagonal.

    The maximum of ``Q^{-j}`` over the simplex (attained at the centre ``theta*``)
    lies above ``theta_j`` (the minimum, attained at the corners) for every
    ``theta_j < 1``; the two meet at ``theta_j = 1``.

    Parameters
    ----------
    Ks : sequence of int
        Numbers of categories, one curve each.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        One line per K (labelled ``K = ...``), then the diagonal (label ``theta_j``).

    Examples
    --------
    >>> ax = plot_q_star([3])
    >>> [line.get_label() for line in ax.lines]
    ['$K = 3$', '$\\\\theta_v$ (corners)']
    >>> plt.close(ax.figure)
    """
    ax = get_axes(ax)
    t = np.linspace(0.0, 1.0, 201)
    colours = [COLORS[c] for c in ("blue", "orange", "green", "purple", "sky", "vermillion")]
    for i, K in enumerate(Ks):
        K = check_n_categories(K)
        ax.plot(t, q_minus_j_at_centre(t, K), color=colours[i % len(colours)],
                label=rf"$K = {K}$")
    ax.plot(t, t, color="black", ls="--", label=r"$\theta_v$ (corners)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(loc="lower right", title=r"$Q^{-v}(\theta^*)$ at the centre", fontsize=9)
    return _finish(ax, r"$\theta_v$", r"range of $Q^{-v}(\theta)$")


# ------------------------------------------------------------- Figure 1(b)
def plot_bounds(K: int = 6, *, theta_j: float | None = None, points=None, ax=None):
    """Bounds ``l(theta_j) <= f_j(theta) <= u(theta_j)``: Williams (2024), Fig. 1(b).

    Draws eq. 9 (``theta_j**2``) and eq. 10 against ``theta_j`` on ``[0, 1]``,
    shades the band between them (with its own legend entry) and, optionally,
    marks one ``theta_j`` and overlays sampled values of ``f_j``.  The legend
    names the curves rather than the paper's equation numbers, which differ
    from the book's.

    Parameters
    ----------
    K : int, default 6
        Number of categories (the paper's figure uses 6).
    theta_j : float or None
        If given, a vertical segment shows the interval ``[l(theta_j), u(theta_j)]``.
    points : tuple of array_like (theta_j values, f_j values) or None
        Sampled ``(theta_j, f_j(theta))`` pairs drawn as small grey dots.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` is the upper bound, ``ax.lines[1]`` the lower bound and
        ``ax.collections[0]`` the shaded band between them.

    Examples
    --------
    >>> ax = plot_bounds(6)
    >>> [line.get_label() for line in ax.lines]
    ['upper bound $u(\\\\theta_v)$', 'lower bound $\\\\ell(\\\\theta_v) = \\\\theta_v^2$']
    >>> ax.collections[0].get_label()
    'possible values of $f_v(\\\\theta)$'
    >>> plt.close(ax.figure)
    """
    K = check_n_categories(K)
    t = np.linspace(0.0, 1.0, 201)
    up, low = upper_bound(t, K), lower_bound(t)
    ax = get_axes(ax)
    ax.plot(t, up, color=COLORS["vermillion"], label=r"upper bound $u(\theta_v)$")
    ax.plot(t, low, color=COLORS["blue"], label=r"lower bound $\ell(\theta_v) = \theta_v^2$")
    ax.fill_between(t, low, up, color=COLORS["orange"], alpha=0.25, lw=0,
                    label=r"possible values of $f_v(\theta)$")
    if points is not None:
        px = check_probabilities(points[0], "points[0]")
        py = check_probabilities(points[1], "points[1]")
        ax.scatter(px, py, s=4, color=COLORS["grey"], alpha=0.5, lw=0,
                   label=r"$f_v(\theta)$, sampled $\theta$")
    if theta_j is not None:
        tj = float(check_probabilities(theta_j, "theta_j"))
        lo, hi = float(lower_bound(tj)), float(upper_bound(tj, K))
        ax.vlines(tj, lo, hi, color="black", lw=2.5,
                  label=rf"$\theta_v = {tj:.2f}$: $f_v \in [{lo:.3f}, {hi:.3f}]$")
        ax.plot([tj, tj], [lo, hi], ls="none", marker="_", ms=10, color="black")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=9)
    return _finish(ax, r"$\theta_v$", r"$f_v(\theta) = \theta_v\,Q^{-v}(\theta)$",
                   rf"Bounds on $f_v$ for $K = {K}$")


# ---------------------------------------------------------------- eq. 13
def plot_guarantee_region(K: int = 3, *, points=None, ax=None):
    """Where the PoB ratio is guaranteed more extreme: Williams (2024), eqs. 12-13.

    In the ``(theta_jd, theta_jc)`` unit square, shades the region above the
    curve ``theta_jc = [(K - 2 + theta_jd) / (K - 1)]**(K - 1)`` (eq. 13), where
    ``f_j(theta_c) / f_j(theta_d) > theta_jc / theta_jd > 1`` holds whatever the
    other entries of ``theta_c`` and ``theta_d``, and its mirror image below the
    diagonal, where the ratio is guaranteed more extreme in favour of ``d``.

    Parameters
    ----------
    K : int, default 3
    points : tuple (theta_jd, theta_jc, change) of array_like or None
        Optional sampled pairs; ``change`` holds the codes of
        :func:`nbcourse.bounds.ratio_change` (1 more extreme, 0 weakened,
        -1 reversed), drawn as black dots, purple crosses and green triangles,
        with their counts in the legend.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` is the eq. 13 boundary, ``ax.lines[1]`` its mirror,
        ``ax.lines[2]`` the diagonal; with ``points``, the last three collections
        are the more extreme, weakened and reversed pairs, in that order.

    Examples
    --------
    >>> ax = plot_guarantee_region(3)
    >>> round(float(ax.lines[0].get_ydata()[0]), 4)  # ((K-2)/(K-1))**(K-1) at theta_jd = 0
    0.25
    >>> plt.close(ax.figure)
    """
    K = check_n_categories(K)
    x = np.linspace(0.0, 1.0, 401)
    boundary = q_minus_j_at_centre(x, K)
    ax = get_axes(ax, figsize=(7.0, 4.4))
    ax.fill_between(x, boundary, 1.0, color=COLORS["orange"], alpha=0.35, lw=0,
                    label="guaranteed more extreme for $c$")
    ax.fill_betweenx(x, boundary, 1.0, color=COLORS["sky"], alpha=0.35, lw=0,
                     label="guaranteed more extreme for $c'$")
    ax.plot(x, boundary, color=COLORS["vermillion"], lw=1.5)
    ax.plot(boundary, x, color=COLORS["blue"], lw=1.5)
    ax.plot([0, 1], [0, 1], color="black", ls="--", lw=1, label=r"$\theta_{vc} = \theta_{vc'}$")
    if points is not None:
        _scatter_ratio_changes(ax, *points)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8)
    return _finish(ax, r"$\theta_{vc'}$", r"$\theta_{vc}$", rf"Guaranteed more extreme, $K = {K}$")


_CHANGE_STYLES = {  # scatter style of each code of ratio_change, in drawing order
    MORE_EXTREME: {"s": 5, "color": COLORS["black"], "lw": 0, "alpha": 0.6},
    WEAKENED: {"s": 14, "color": COLORS["purple"], "marker": "x", "lw": 1.0},
    REVERSED: {"s": 16, "color": COLORS["green"], "marker": "v", "lw": 0},
}


def _scatter_ratio_changes(ax, theta_jd, theta_jc, change):
    """Scatter sampled pairs of the guarantee region, one collection per code of ratio_change."""
    d = check_probabilities(theta_jd, "points[0]")
    c = check_probabilities(theta_jc, "points[1]")
    codes = np.asarray(change)
    if codes.dtype.kind not in "iu" or not np.isin(codes, list(RATIO_CHANGES)).all():
        raise ValueError("points[2] must be codes of ratio_change (1, 0 or -1), "
                         f"got {codes.dtype} values {np.unique(codes)[:5]}")
    if not d.shape == c.shape == codes.shape:
        raise ValueError("points must be three arrays of one shape, "
                         f"got {d.shape}, {c.shape} and {codes.shape}")
    for code, style in _CHANGE_STYLES.items():
        at = codes == code
        ax.scatter(d[at], c[at], label=f"sampled: {RATIO_CHANGES[code]} ({int(at.sum()):,})",
                   **style)


# ---------------------------------------------------------------- Figure 2
def plot_log_ratio_scatter(log_theta_ratio, log_f_ratio, *, slope2: bool = True,
                           log_rho: float | None = None, ax=None, title: str | None = None):
    """Scatter of ``log(f_j(theta_c)/f_j(theta_d))`` against ``log(theta_jc/theta_jd)``.

    Williams (2024), Fig. 2.  Draws the diagonal (slope 1: no change) and, if
    ``slope2``, the line of slope 2 that eq. 14 explains.  With ``log_rho`` the
    decision thresholds of the two-class analysis are added: class ``c`` wins
    under the categorical model right of the vertical line ``x = log rho`` and
    under PoB above the horizontal line ``y = log rho``; points in the two
    off-diagonal quadrants (where the models disagree) are drawn in vermillion.

    Parameters
    ----------
    log_theta_ratio, log_f_ratio : array_like, shape (n,)
        Horizontal and vertical coordinates (finite).
    slope2 : bool, default True
    log_rho : float or None
        ``log(pi_d / pi_c)``.
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.collections[0]`` holds the points that agree (all points when
        ``log_rho`` is None); with ``log_rho``, ``ax.collections[1]`` holds those
        that disagree.  Lines: diagonal, then slope 2, then the two thresholds.

    Examples
    --------
    >>> ax = plot_log_ratio_scatter([0.5, -0.5], [1.0, -1.0])
    >>> [round(float(np.polyfit(*l.get_data(), 1)[0]), 3) for l in ax.lines]
    [1.0, 2.0]
    >>> plt.close(ax.figure)
    """
    x = as_real_array(log_theta_ratio, "log_theta_ratio")
    y = as_real_array(log_f_ratio, "log_f_ratio")
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"log_theta_ratio and log_f_ratio must be 1-d arrays of the same "
                         f"length, got shapes {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("log_theta_ratio and log_f_ratio must be finite")
    ax = get_axes(ax, figsize=(4.8, 4.4))
    lim = max(1.0, float(np.abs(np.concatenate([x, y])).max(initial=0.0))) * 1.05
    if log_rho is None:
        ax.scatter(x, y, s=4, color=AGREE_COLOR, lw=0, alpha=0.6)
    else:
        r = float(log_rho)
        disagree = (x > r) != (y > r)
        ax.scatter(x[~disagree], y[~disagree], s=4, color=AGREE_COLOR, lw=0, alpha=0.6,
                   label="same winner")
        ax.scatter(x[disagree], y[disagree], s=8, color=DISAGREE_COLOR, lw=0,
                   label="winner changes")
    ax.plot([-lim, lim], [-lim, lim], color="black", lw=1, ls="--", label="slope 1")
    if slope2:
        ax.plot([-lim / 2, lim / 2], [-lim, lim], color=COLORS["orange"], lw=1.2,
                label="slope 2 (Williams' eq. 14)")
    if log_rho is not None:
        ax.axvline(r, color=COLORS["grey"], lw=1, label=r"$\log\rho$")
        ax.axhline(r, color=COLORS["grey"], lw=1)
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.legend(loc="upper left", fontsize=8, markerscale=2)
    return _finish(ax, r"$\log(\theta_{vc}/\theta_{vc'})$",
                   r"$\log(f_v(\theta_c)/f_v(\theta_{c'}))$", title)


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
    return _finish(ax, "max posterior, categorical (Williams' eq. 2)",
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
    return _finish(ax, "observed value", r"posterior $p(y \mid x)$")


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
    return _finish(ax, "one-hot bit", "weight")


# -------------------------------------------------------------- calibration
def plot_reliability(curves, *, ax=None, title: str | None = None):
    """Reliability diagram: observed accuracy against stated confidence, per model.

    Parameters
    ----------
    curves : mapping of str to (confidence, accuracy, count)
        For each model, three arrays of equal length (one entry per non-empty
        bin): mean predicted probability of the chosen class, fraction of those
        cases that were right, and number of cases.  Marker areas follow ``count``.
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` is the diagonal; then one line per model in order.

    Examples
    --------
    >>> ax = plot_reliability({"a": ([0.6, 0.9], [0.55, 0.8], [10, 30])})
    >>> ax.lines[1].get_label()
    'a'
    >>> plt.close(ax.figure)
    """
    ax = get_axes(ax, figsize=(4.8, 4.4))
    ax.plot([0, 1], [0, 1], color="black", ls="--", lw=1, label="perfect calibration")
    palette = [COLORS[c] for c in ("blue", "orange", "green", "purple")]
    for i, (name, (conf, acc, count)) in enumerate(curves.items()):
        conf = check_probabilities(conf, f"curves[{name!r}] confidence")
        acc = check_probabilities(acc, f"curves[{name!r}] accuracy")
        count = as_real_array(count, f"curves[{name!r}] count")
        if not conf.shape == acc.shape == count.shape:
            raise ValueError(f"curves[{name!r}] arrays must have equal shapes, got "
                             f"{conf.shape}, {acc.shape} and {count.shape}")
        colour = palette[i % len(palette)]
        ax.plot(conf, acc, color=colour, marker="o", ms=3, label=name)
        ax.scatter(conf, acc, s=200 * count / max(count.max(), 1), color=colour, alpha=0.3,
                   lw=0)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.legend(loc="upper left", fontsize=8)
    return _finish(ax, "confidence (max posterior)", "observed accuracy", title)


def plot_rate_curves(x, curves, *, xlabel: str, ylabel: str, ax=None, logx: bool = False,
                     title: str | None = None):
    """Rates with confidence intervals against a design variable, one line per curve.

    Parameters
    ----------
    x : array_like, shape (m,)
        Design values (for example the number of features).
    curves : mapping of str to (rate, lower, upper)
        Arrays of shape (m,): the estimate and its interval.
    xlabel, ylabel : str
    ax : matplotlib.axes.Axes or None
    logx : bool, default False
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        One line and one shaded band per curve.

    Examples
    --------
    >>> ax = plot_rate_curves([1, 2], {"r": ([0.1, 0.2], [0.05, 0.15], [0.15, 0.25])},
    ...                       xlabel="F", ylabel="rate")
    >>> ax.lines[0].get_ydata().tolist()
    [0.1, 0.2]
    >>> plt.close(ax.figure)
    """
    xs = as_real_array(x, "x")
    ax = get_axes(ax)
    palette = [COLORS[c] for c in ("blue", "vermillion", "green", "orange", "purple")]
    for i, (name, (rate, lo, hi)) in enumerate(curves.items()):
        rate, lo, hi = (as_real_array(a, f"curves[{name!r}]") for a in (rate, lo, hi))
        if not rate.shape == lo.shape == hi.shape == xs.shape:
            raise ValueError(f"curves[{name!r}] arrays must match x of shape {xs.shape}")
        colour = palette[i % len(palette)]
        ax.plot(xs, rate, color=colour, marker="o", ms=4, label=name)
        ax.fill_between(xs, lo, hi, color=colour, alpha=0.2, lw=0)
    if logx:
        ax.set_xscale("log")
    ax.legend(fontsize=8)
    return _finish(ax, xlabel, ylabel, title)


# ------------------------------------------------- sampling distributions
def _check_pmf_curve(name, fractions, pmf):
    fr = check_probabilities(fractions, f"curves[{name!r}] fractions")
    pm = check_probabilities(pmf, f"curves[{name!r}] pmf")
    if fr.shape != pm.shape or fr.ndim != 1:
        raise ValueError(f"curves[{name!r}] fractions and pmf must be 1-d of equal length, "
                         f"got shapes {fr.shape} and {pm.shape}")
    if abs(float(pm.sum()) - 1.0) > 1e-6:
        raise ValueError(f"curves[{name!r}] pmf must sum to 1, got {float(pm.sum())!r}")
    return fr, pm


def plot_sampling_distribution(curves, *, paper: float | None = None, ax=None,
                               title: str | None = None, legend: bool = True):
    """Distribution of a fraction over replicates, one curve per reading, the paper's value marked.

    Used for the tables of Williams (2024) §3: each curve is the distribution of a
    statistic (for example the fraction of observations where the PoB maximum
    posterior is higher) over replicates of the paper's protocol, under one
    reading of how the class prior was drawn; ``paper`` is the value the paper
    reports.  Fractions are shown in per cent.

    Parameters
    ----------
    curves : mapping of str to (fractions, pmf)
        For each reading, the attainable fractions (in [0, 1], increasing) and their
        probabilities (summing to 1), arrays of equal length.
    paper : float or None
        The reported fraction (in [0, 1]), drawn as a black vertical line.
    ax : matplotlib.axes.Axes or None
    title : str or None
    legend : bool, default True

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[i]`` is curve ``i`` (x in per cent, y the probability of each
        attainable fraction); with ``paper``, ``ax.lines[-1]`` is its vertical line.
        The view covers every fraction with probability above 1e-4 and the paper's value.

    Examples
    --------
    >>> ax = plot_sampling_distribution({"a": ([0.0, 0.5, 1.0], [0.25, 0.5, 0.25])}, paper=0.5)
    >>> ax.lines[0].get_xdata().tolist(), float(ax.lines[-1].get_xdata()[0])
    ([0.0, 50.0, 100.0], 50.0)
    >>> plt.close(ax.figure)
    """
    if not curves:
        raise ValueError("curves must name at least one distribution, got none")
    ax = get_axes(ax, figsize=(4.8, 3.4))
    palette = [COLORS[c] for c in ("blue", "vermillion", "green", "orange", "purple")]
    shown = []
    for i, (name, (fractions, pmf)) in enumerate(curves.items()):
        fr, pm = _check_pmf_curve(name, fractions, pmf)
        colour = palette[i % len(palette)]
        ax.plot(100 * fr, pm, color=colour, drawstyle="steps-mid", lw=1.2, label=name)
        ax.fill_between(100 * fr, pm, step="mid", color=colour, alpha=0.2, lw=0)
        shown.append(100 * fr[pm > 1e-4])
    if paper is not None:
        p = float(check_probabilities(paper, "paper"))
        ax.axvline(100 * p, color="black", lw=1.5, label="paper")
        shown.append(np.array([100 * p]))
    lo, hi = float(min(v.min() for v in shown)), float(max(v.max() for v in shown))
    pad = max(0.5, 0.08 * (hi - lo))
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(bottom=0)
    if legend:
        ax.legend(fontsize=8, loc="upper left")
    return _finish(ax, "fraction (%)", "probability", title)


def plot_sampling_grid(panels, *, ncols: int = 3, fig=None):
    """Several :func:`plot_sampling_distribution` panels in one figure.

    Parameters
    ----------
    panels : sequence of mapping
        Each with keys ``"curves"`` (as in :func:`plot_sampling_distribution`),
        ``"paper"`` (float or None) and ``"title"`` (str).
    ncols : int, default 3
        Panels per row.
    fig : matplotlib.figure.Figure or None
        An empty figure to draw into; ``None`` makes a white-backed one.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[i]`` is panel ``i``; only the first panel has a legend.

    Examples
    --------
    >>> panel = {"curves": {"a": ([0.0, 1.0], [0.5, 0.5])}, "paper": 0.0, "title": "t"}
    >>> fig = plot_sampling_grid([panel, panel], ncols=2)
    >>> len(fig.axes), fig.axes[1].get_legend() is None
    (2, True)
    >>> plt.close(fig)
    """
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one panel, got none")
    if isinstance(ncols, bool) or not isinstance(ncols, int | np.integer) or ncols < 1:
        raise ValueError(f"ncols must be an integer >= 1, got {ncols!r}")
    ncols = min(int(ncols), len(panels))
    nrows = -(-len(panels) // ncols)
    if fig is None:
        fig = plt.figure(figsize=(3.3 * ncols, 2.6 * nrows), facecolor="white",
                         layout="constrained")
    for i, panel in enumerate(panels):
        missing = {"curves", "paper", "title"} - set(panel)
        if missing:
            raise ValueError(f"panels[{i}] must have keys 'curves', 'paper' and 'title'; "
                             f"missing {sorted(missing)}")
        ax = fig.add_subplot(nrows, ncols, i + 1)
        plot_sampling_distribution(panel["curves"], paper=panel["paper"], ax=ax,
                                   title=panel["title"], legend=(i == 0))
        ax.title.set_fontsize(9)
        if i % ncols:
            ax.set_ylabel("")
    return fig
