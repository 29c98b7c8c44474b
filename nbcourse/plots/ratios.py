"""How one-hot encoding changes the likelihood ratio between two classes: the region where
Williams (2024) guarantees the direction of the change (eq. 13), and the log-ratio scatter
of his Figure 2.  ``j`` is 0-based; every function takes ``ax=None`` and returns its Axes.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_real_array, check_n_categories, check_probabilities
from ..bounds import (
    MORE_EXTREME,
    RATIO_CHANGES,
    REVERSED,
    WEAKENED,
    q_minus_j_at_centre,
)
from .style import (
    AGREE_COLOR,
    COLORS,
    DISAGREE_COLOR,
    get_axes,
    label_axes,
)

__all__ = [
    "plot_guarantee_region",
    "plot_log_ratio_scatter",
]


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
    >>> import matplotlib.pyplot as plt
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
    return label_axes(ax, r"$\theta_{vc'}$", r"$\theta_{vc}$", rf"Guaranteed more extreme, $K = {K}$")


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
    >>> import matplotlib.pyplot as plt
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
    return label_axes(ax, r"$\log(\theta_{vc}/\theta_{vc'})$",
                   r"$\log(f_v(\theta_c)/f_v(\theta_{c'}))$", title)
