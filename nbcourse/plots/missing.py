"""Figures for the chapter on missing values.

The scores come from :func:`nbcourse.missing.compare_missing_strategies`; this module only draws.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import as_real_array
from .style import COLORS, get_axes

__all__ = ["plot_missing_strategies"]

#: Colour, marker and line style of each series, so they stay apart in grey print too.
_SERIES = ((COLORS["blue"], "o", "-"), (COLORS["vermillion"], "s", "--"),
           (COLORS["green"], "^", "-."), (COLORS["purple"], "D", ":"))


def _with_gaps(values, name):
    """``values`` as floats, NaN kept as a gap; anything else that is not a number refused."""
    arr = np.asarray(values)
    if arr.dtype.kind != "f":
        return as_real_array(arr, name)
    gaps = np.isnan(arr)
    return np.where(gaps, np.nan, as_real_array(np.where(gaps, 0.0, arr), name))


def plot_missing_strategies(rates, curves, *, spread=None, ax=None,
                            ylabel: str = "held-out log loss", title: str | None = None,
                            ylim=None):
    """A score of each way of handling missing values against the rate of missing values.

    Parameters
    ----------
    rates : array_like, shape (R,)
        Intended shares of missing values, in [0, 1] (drawn as percentages).
    curves : Mapping[str, array_like of shape (R,)]
        Legend label to the mean score at each rate (at most four series).  NaN marks a rate
        at which the strategy has no score (no model could be fitted); it is drawn as a gap.
    spread : Mapping[str, array_like of shape (R,)] or None
        Half-widths of error bars (for instance two standard errors of the mean), by label.
    ax : matplotlib.axes.Axes or None
    ylabel : str, default "held-out log loss"
    title : str or None
    ylim : (float, float) or None
        Fixed limits of the score axis, so that the frames of an explorable figure compare.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[k]`` is the ``k``-th series of ``curves`` (error bars come after).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_missing_strategies([0, 0.2], {"a": [0.5, 0.6], "b": [0.5, 0.7]})
    >>> ax.lines[1].get_ydata().tolist()
    [0.5, 0.7]
    >>> plt.close(ax.figure)
    """
    r = as_real_array(rates, "rates")
    if r.ndim != 1 or r.size == 0 or (r < 0).any() or (r > 1).any():
        raise ValueError(f"rates must be a non-empty 1-d array of shares in [0, 1], got {rates!r:.60}")
    if not isinstance(curves, Mapping) or not 1 <= len(curves) <= len(_SERIES):
        raise TypeError(f"curves must be a mapping of 1 to {len(_SERIES)} labels to arrays, "
                        f"got {curves!r:.60}")
    ys = {k: _with_gaps(v, f"curves[{k!r}]") for k, v in curves.items()}
    for k, v in ys.items():
        if v.shape != r.shape:
            raise ValueError(f"curves[{k!r}] must have one value per rate ({r.size}), got shape {v.shape}")
    spread = {} if spread is None else spread
    ax = get_axes(ax, figsize=(6.0, 4.0))
    x = 100 * r
    for (label, y), (colour, marker, style) in zip(ys.items(), _SERIES, strict=False):
        ax.plot(x, y, color=colour, marker=marker, ls=style, lw=1.8, label=label)
    for (label, y), (colour, _, _) in zip(ys.items(), _SERIES, strict=False):
        if label in spread:
            ax.errorbar(x, y, yerr=_with_gaps(spread[label], f"spread[{label!r}]"),
                        fmt="none", ecolor=colour, elinewidth=1.0, capsize=3)
    ax.set_xlabel(r"share $\bar\eta$ of each feature removed (%)")
    ax.set_ylabel(ylabel)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xticks(x)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    if title:
        ax.set_title(title)
    return ax
