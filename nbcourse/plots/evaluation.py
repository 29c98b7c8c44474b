"""Figures of the chapter on why naive Bayes works and on comparing classifiers fairly.

* :func:`plot_copies_square`: Domingos & Pazzani's square of posteriors ``(p, q)`` with the
  region where counting feature A ``m`` times changes the decision;
* :func:`plot_log_odds_shift`: log posterior odds of real cases before and after a feature is
  copied, with the quadrants where the decision flips;
* :func:`plot_copies_paths`: the stated probability of each case as a feature is counted
  ``m = 1, 2, ...`` times, coloured by the value of the copied feature;
* :func:`plot_roc_curves`, :func:`plot_precision_recall`: ROC and precision-recall curves of
  several scores, with their chance lines;
* :func:`plot_intervals`: intervals for a difference of two models, against zero.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import as_real_array, check_int
from ..evaluation import copies_boundary, copies_disagreement
from .style import COLORS, get_axes

__all__ = ["plot_copies_paths", "plot_copies_square", "plot_intervals", "plot_log_odds_shift",
           "plot_precision_recall", "plot_roc_curves"]

_LINES = [(COLORS["blue"], "-"), (COLORS["vermillion"], "--"), (COLORS["green"], "-."),
          (COLORS["purple"], ":")]


def _check_curves(curves, name: str) -> dict:
    if not isinstance(curves, Mapping) or not 1 <= len(curves) <= len(_LINES):
        raise TypeError(f"{name} must be a mapping of 1 to {len(_LINES)} labels to (x, y) pairs, "
                        f"got {curves!r:.60}")
    out = {}
    for label, pair in curves.items():
        if len(pair) != 2:
            raise ValueError(f"{name}[{label!r}] must be a pair (x, y), got {len(pair)} items")
        x, yv = (as_real_array(v, f"{name}[{label!r}]") for v in pair)
        if x.ndim != 1 or x.shape != yv.shape:
            raise ValueError(f"{name}[{label!r}] must be two 1-d arrays of one length, "
                             f"got shapes {x.shape} and {yv.shape}")
        out[label] = (x, yv)
    return out


def plot_copies_square(copies, *, ax=None):
    """The unit square of ``(P_1, P_2)`` with the Bayes boundary and the m-copy boundary.

    ``P_1 = P(+ | x_1)`` and ``P_2 = P(+ | x_2)``; the Bayes rule decides + above
    ``P_2 = 1 - P_1`` (dashed), naive Bayes with x_1 counted ``copies`` times above
    :func:`nbcourse.evaluation.copies_boundary` (solid). Between the two the decisions
    differ (shaded); the legend gives that area (Domingos & Pazzani 1997).

    Parameters
    ----------
    copies : int >= 1
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` is the Bayes boundary, ``ax.lines[1]`` the m-copy boundary.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_copies_square(3)
    >>> len(ax.lines), [float(v) for v in ax.get_xlim()]
    (2, [0.0, 1.0])
    >>> plt.close(ax.figure)
    """
    m = check_int(copies, "copies", 1)
    ax = get_axes(ax, figsize=(4.2, 4.2))
    p = np.linspace(0, 1, 401)
    bayes, naive = 1 - p, copies_boundary(p, m)
    ax.plot(p, bayes, color="black", ls="--", lw=1.5, label="Bayes rule: $P_2 = 1 - P_1$")
    ax.plot(p, naive, color=COLORS["blue"], lw=2.2,
            label=f"naive Bayes, $x_1$ counted {m} time{'s' if m > 1 else ''}")
    ax.fill_between(p, bayes, naive, color=COLORS["orange"], alpha=0.55, hatch="//",
                    edgecolor=COLORS["vermillion"], linewidth=0,
                    label=f"decisions differ: {copies_disagreement(m):.1%} of the square")
    ax.text(0.8, 0.85, "both: +", ha="center", fontsize=10)
    ax.text(0.2, 0.12, "both: −", ha="center", fontsize=10)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("$P_1 = P(+ \\mid x_1)$")
    ax.set_ylabel("$P_2 = P(+ \\mid x_2)$")
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.02), frameon=False)
    return ax


def plot_log_odds_shift(g_once, g_copies, positive, *, ax=None, limit: float = 8.0,
                        names=("spam", "other")):
    """Log odds of each case with a feature once (x) and copied (y), flips shaded.

    The cases whose point falls in the upper-left or lower-right quadrant change their
    decision; the others keep it, however far their log odds moved.

    Parameters
    ----------
    g_once, g_copies : array_like, shape (N,)
        Log posterior odds of the positive class before and after the copies.
    positive : array_like of bool, shape (N,)
        True for the cases of the positive class (drawn as filled circles).
    ax : matplotlib.axes.Axes or None
    limit : float, default 8.0
        Half-width of both axes; points beyond it are drawn at the edge.
    names : (str, str)
        Names of the positive and the other class in the legend.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.collections[-2:]`` are the two scatters (positive first).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_log_odds_shift([-1.0, 0.5, 2.0], [1.0, 1.5, 2.5], [True, False, True])
    >>> ax.get_title()
    '1 of 3 decisions change'
    >>> plt.close(ax.figure)
    """
    g1 = as_real_array(g_once, "g_once")
    gm = as_real_array(g_copies, "g_copies")
    pos = np.asarray(positive, dtype=bool)
    if g1.ndim != 1 or gm.shape != g1.shape or pos.shape != g1.shape:
        raise ValueError(f"g_once, g_copies and positive must be 1-d arrays of one length, "
                         f"got shapes {g1.shape}, {gm.shape} and {pos.shape}")
    ax = get_axes(ax, figsize=(4.4, 4.2))
    lim = float(limit)
    ax.fill_between([-lim, 0], 0, lim, color=COLORS["orange"], alpha=0.35, lw=0)
    ax.fill_between([0, lim], -lim, 0, color=COLORS["orange"], alpha=0.35, lw=0,
                    label="decision flips")
    ax.axhline(0, color="black", lw=0.8)
    ax.axvline(0, color="black", lw=0.8)
    ax.plot([-lim, lim], [-lim, lim], color=COLORS["grey"], lw=0.8, ls=":")
    x, yv = np.clip(g1, -lim, lim), np.clip(gm, -lim, lim)
    ax.scatter(x[pos], yv[pos], s=14, color=COLORS["vermillion"], marker="o", alpha=0.6,
               label=names[0])
    ax.scatter(x[~pos], yv[~pos], s=14, facecolors="none", edgecolors=COLORS["blue"],
               marker="s", alpha=0.5, linewidths=0.7, label=names[1])
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.set_xlabel("log odds, feature once")
    ax.set_ylabel("log odds, feature copied")
    flips = int(np.sum((g1 > 0) != (gm > 0)))
    ax.set_title(f"{flips} of {g1.size} decisions change")
    ax.legend(fontsize=8, loc="lower right")
    return ax


def plot_copies_paths(g_once, shift, value, copies, *, ax=None, labels=("x_j = 0", "x_j = 1")):
    """The probability ``σ(g + (m - 1) h)`` of each case against the number of copies ``m``.

    With feature ``j`` counted ``m`` times, naive Bayes's log odds are ``g + (m - 1) h_j(x_j)``
    (eq. ww-copies): the shift takes one value for the cases with ``x_j = 0`` and another for
    those with ``x_j = 1``.  Where ``h_j(x_j)`` has the sign of ``g`` the probability moves
    straight towards 0 or 1; where it has the opposite sign it first moves towards 1/2,
    crosses it when the decision flips, and only then runs to the other end.

    Parameters
    ----------
    g_once : array_like, shape (N,)
        Log odds of each case with the feature once.
    shift : array_like, shape (N,)
        ``h_j(x_j)`` of each case: the log likelihood ratio of its value of the feature.
    value : array_like of {0, 1}, shape (N,)
        The case's value of the copied feature (colour of its line).
    copies : array_like of int, shape (M,)
        The numbers of copies drawn on the horizontal axis, each at least 1.
    ax : matplotlib.axes.Axes or None
    labels : (str, str)
        Legend labels of the cases with value 0 and value 1.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[k]`` is the path of case ``k``; the last line is the level 1/2.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_copies_paths([1.0, -1.0], [0.5, 0.5], [1, 1], [1, 2, 3])
    >>> ax.lines[1].get_ydata().round(3).tolist()
    [0.269, 0.378, 0.5]
    >>> plt.close(ax.figure)
    """
    g = as_real_array(g_once, "g_once")
    h = as_real_array(shift, "shift")
    v = as_real_array(value, "value")
    m = as_real_array(copies, "copies")
    if g.ndim != 1 or h.shape != g.shape or v.shape != g.shape:
        raise ValueError(f"g_once, shift and value must be 1-d arrays of one length, "
                         f"got shapes {g.shape}, {h.shape} and {v.shape}")
    if not np.all((v == 0) | (v == 1)):
        raise ValueError(f"value must hold only 0 and 1, got {np.unique(v)!r:.60}")
    if m.ndim != 1 or m.size < 2 or np.any(m < 1) or np.any(m != np.round(m)):
        raise ValueError(f"copies must be at least two whole numbers >= 1, got {copies!r:.60}")
    ax = get_axes(ax, figsize=(5.2, 4.0))
    colours = (COLORS["blue"], COLORS["vermillion"])
    styles = ("-", "--")
    paths = 1.0 / (1.0 + np.exp(-(g[:, None] + (m[None, :] - 1) * h[:, None])))
    shown = set()
    for path, bit in zip(paths, v.astype(int), strict=True):
        ax.plot(m, path, color=colours[bit], ls=styles[bit], lw=1.0, alpha=0.75,
                label=None if bit in shown else labels[bit])
        shown.add(bit)
    ax.axhline(0.5, color="black", lw=0.8)
    ax.set_xticks(m, [f"{k:g}" for k in m])
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("copies m of the feature")
    ax.set_ylabel("stated probability")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    return ax


def plot_roc_curves(curves, *, ax=None):
    """ROC curves (false positive rate, true positive rate), with the chance diagonal.

    Parameters
    ----------
    curves : Mapping[str, (fpr, tpr)]
        One to four curves, for example from :func:`nbcourse.evaluation.roc_curve`; put the
        area in the label.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[k]`` is the k-th curve, the last line the diagonal.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_roc_curves({"a": ([0, 0.5, 1], [0, 0.9, 1])})
    >>> ax.lines[0].get_ydata().tolist()
    [0.0, 0.9, 1.0]
    >>> plt.close(ax.figure)
    """
    data = _check_curves(curves, "curves")
    ax = get_axes(ax, figsize=(4.4, 4.2))
    for (label, (fpr, tpr)), (colour, ls) in zip(data.items(), _LINES, strict=False):
        ax.plot(fpr, tpr, color=colour, ls=ls, lw=2, label=label, drawstyle="default")
    ax.plot([0, 1], [0, 1], color=COLORS["grey"], lw=1, ls=":", label="chance (AUC 0.5)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate (recall)")
    ax.legend(fontsize=8, loc="lower right")
    return ax


def plot_precision_recall(curves, *, prevalence=None, ax=None):
    """Precision-recall curves as steps, with the precision of a random ranking.

    Parameters
    ----------
    curves : Mapping[str, (recall, precision)]
        One to four curves, for example from :func:`nbcourse.evaluation.precision_recall_curve`.
    prevalence : float in (0, 1) or None
        Share of positives: the precision of a ranking at random, drawn as a dotted line.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_precision_recall({"a": ([1, 0.5, 0], [0.4, 0.8, 1])}, prevalence=0.1)
    >>> len(ax.lines)
    2
    >>> plt.close(ax.figure)
    """
    data = _check_curves(curves, "curves")
    ax = get_axes(ax, figsize=(4.4, 4.2))
    for (label, (recall, precision)), (colour, ls) in zip(data.items(), _LINES, strict=False):
        ax.plot(recall, precision, color=colour, ls=ls, lw=2, label=label, drawstyle="steps-post")
    if prevalence is not None:
        share = float(as_real_array(prevalence, "prevalence"))
        if not 0 < share < 1:
            raise ValueError(f"prevalence must be in (0, 1), got {share!r}")
        ax.axhline(share, color=COLORS["grey"], lw=1, ls=":",
                   label=f"random ranking ({share:.1%} positives)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.01)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.legend(fontsize=8, loc="upper right")
    return ax


def plot_intervals(intervals, *, ax=None, xlabel: str = "difference"):
    """Horizontal intervals with their centres, one row per label, against zero.

    Parameters
    ----------
    intervals : Mapping[str, (centre, low, high)]
        Drawn top to bottom in this order.
    ax : matplotlib.axes.Axes or None
    xlabel : str

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[k]`` is the k-th interval, ``ax.collections[k]`` its centre.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_intervals({"naive": (0.01, 0.005, 0.02), "corrected": (0.01, -0.001, 0.03)})
    >>> ax.lines[1].get_xdata().tolist()
    [-0.001, 0.03]
    >>> plt.close(ax.figure)
    """
    if not isinstance(intervals, Mapping) or not intervals:
        raise TypeError(f"intervals must be a non-empty mapping of labels to (centre, low, high), "
                        f"got {intervals!r:.60}")
    rows = {}
    for label, triple in intervals.items():
        c, lo, hi = as_real_array(triple, f"intervals[{label!r}]").tolist()
        if not lo <= c <= hi:
            raise ValueError(f"intervals[{label!r}] must satisfy low <= centre <= high, "
                             f"got {(c, lo, hi)}")
        rows[str(label)] = (c, lo, hi)
    ax = get_axes(ax, figsize=(6.0, 0.9 + 0.45 * len(rows)))
    for k, (c, lo, hi) in enumerate(rows.values()):
        ax.plot([lo, hi], [k, k], color=COLORS["blue"], lw=2.5, solid_capstyle="butt")
        ax.scatter([c], [k], marker="D", color="black", s=25, zorder=3)
    ax.axvline(0, color=COLORS["vermillion"], lw=1.2, ls="--")
    ax.set_yticks(range(len(rows)), list(rows))
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    return ax
