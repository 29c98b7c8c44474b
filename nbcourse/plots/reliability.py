"""Reliability diagrams and rates against a parameter: how often a stated probability comes
true, and how a rate moves along a grid.  Every function takes ``ax=None`` and returns its Axes.
"""

from __future__ import annotations

from .._validation import as_real_array, check_probabilities
from .style import (
    COLORS,
    get_axes,
    label_axes,
)

__all__ = [
    "plot_rate_curves",
    "plot_reliability",
]


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
    >>> import matplotlib.pyplot as plt
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
    return label_axes(ax, "confidence (max posterior)", "observed accuracy", title)


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
    >>> import matplotlib.pyplot as plt
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
    return label_axes(ax, xlabel, ylabel, title)
