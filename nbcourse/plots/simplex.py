"""Q^{-j} over the probability simplex, its extreme values and the bounds of Williams
(2024), Figure 1(a), eq. 8 and Figure 1(b).

Index convention: ``j`` is 0-based (the paper's ``j = 1, ..., K``).  Every function takes
``ax=None`` and returns the Axes it drew on.
"""

from __future__ import annotations

import numpy as np
from matplotlib.tri import Triangulation

from .._validation import check_n_categories, check_probabilities
from ..bounds import (
    lower_bound,
    q_minus_j,
    q_minus_j_at_centre,
    upper_bound,
)
from .style import (
    COLORS,
    get_axes,
    label_axes,
)

__all__ = [
    "TRIANGLE",
    "plot_bounds",
    "plot_q_simplex",
    "plot_q_star",
    "simplex_grid",
]


#: Corners of the equilateral triangle used for ternary plots (theta_1, theta_2, theta_3).
TRIANGLE = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3.0) / 2.0]])


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
    >>> import matplotlib.pyplot as plt
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
    >>> import matplotlib.pyplot as plt
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
    return label_axes(ax, r"$\theta_v$", r"range of $Q^{-v}(\theta)$")


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
    >>> import matplotlib.pyplot as plt
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
    return label_axes(ax, r"$\theta_v$", r"$f_v(\theta) = \theta_v\,Q^{-v}(\theta)$",
                   rf"Bounds on $f_v$ for $K = {K}$")
