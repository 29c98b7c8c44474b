"""Learning curves: a score of several classifiers against the number of training cases, each
with an optional band (an interval over resampled training sets) or error bars, and an optional
mark at one size.

Curves take the styles of :mod:`nbcourse.plots.text` in order: blue circles, vermillion
squares with a dashed line, green triangles, black diamonds, so that they stay apart in
greyscale print.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import _describe, as_real_array
from .style import get_axes
from .text import _STYLES

__all__ = ["plot_learning_curves"]


def _check_band(band, shape, label):
    band = as_real_array(band, f"bands[{label!r}]")
    if band.shape != (2, *shape) or not np.isfinite(band).all() or (band[0] > band[1]).any():
        raise ValueError(f"bands[{label!r}] must be finite (low, high) arrays of shape (2, "
                         f"{shape[0]}) with low <= high, got {band.shape}")
    return band


def _check_spread(spread, shape, label):
    spread = as_real_array(spread, f"spread[{label!r}]")
    if spread.shape != shape or not np.isfinite(spread).all() or (spread < 0).any():
        raise ValueError(f"spread[{label!r}] must be a finite array of half-widths >= 0 of shape "
                         f"{shape}, got {_describe(spread)}")
    return spread


def plot_learning_curves(sizes, curves, *, ylabel: str, bands=None, spread=None, at=None,
                         ax=None, xlabel: str = "training cases", title: str | None = None,
                         xscale: str = "log"):
    """A score of each classifier against the training-set size, with optional bands.

    Parameters
    ----------
    sizes : array_like, shape (S,)
        Training-set sizes (the x axis), increasing, and positive on a log axis.
    curves : Mapping[str, array_like of shape (S,)]
        Legend label to the score at each size (at most four).
    ylabel : str
    bands : Mapping[str, array_like of shape (2, S)] or None
        For some of the labels, the low and high ends of an interval at each size, drawn as a
        shaded band of the curve's colour.
    spread : Mapping[str, array_like of shape (S,)] or None
        For some of the labels, half-widths of error bars at each size, in the curve's colour.
    at : float or None
        A size to mark with a dotted vertical line (drawn last, so it is ``ax.lines[-1]``).
    ax : matplotlib.axes.Axes or None
    xlabel : str, default "training cases"
    title : str or None
    xscale : {"log", "linear"}, default "log"

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[k]`` is the curve of the ``k``-th entry of ``curves``; ``ax.collections``
        holds the bands in the order of ``curves``, then the error bars.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_learning_curves([5, 50], {"naive Bayes": [0.6, 0.2]}, ylabel="test error",
    ...                           bands={"naive Bayes": [[0.5, 0.15], [0.7, 0.25]]})
    >>> ax.lines[0].get_ydata().tolist(), len(ax.collections)
    ([0.6, 0.2], 1)
    >>> plt.close(ax.figure)
    >>> ax = plot_learning_curves([100, 1000], {"a": [0.4, 0.3], "b": [0.5, 0.25]},
    ...                           ylabel="held-out log loss", at=100)
    >>> [float(v) for v in ax.lines[-1].get_xdata()]
    [100.0, 100.0]
    >>> plt.close(ax.figure)
    """
    if xscale not in ("log", "linear"):
        raise ValueError(f"xscale must be 'log' or 'linear', got {xscale!r}")
    x = as_real_array(sizes, "sizes")
    if (x.ndim != 1 or x.size == 0 or not np.isfinite(x).all() or np.any(np.diff(x) <= 0)
            or (xscale == "log" and np.any(x <= 0))):
        raise ValueError(f"sizes must be increasing finite numbers, a non-empty 1-d array "
                         f"(positive on a log axis), got {_describe(x)}")
    if not isinstance(curves, Mapping) or not 1 <= len(curves) <= len(_STYLES):
        raise TypeError(f"curves must be a mapping of 1 to {len(_STYLES)} labels to arrays, "
                        f"got {curves!r:.60}")
    bands = {} if bands is None else dict(bands)
    spread = {} if spread is None else dict(spread)
    for name, given in (("bands", bands), ("spread", spread)):
        unknown = set(given) - set(curves)
        if unknown:
            raise ValueError(f"{name} must name labels of curves, got {sorted(unknown)}")
    ys = {}
    for label, y in curves.items():
        y = as_real_array(y, f"curves[{label!r}]")
        if y.shape != x.shape:
            raise ValueError(f"curves[{label!r}] must have the shape of sizes {x.shape}, "
                             f"got {y.shape}")
        ys[label] = y
    bands = {label: _check_band(band, x.shape, label) for label, band in bands.items()}
    spread = {label: _check_spread(half, x.shape, label) for label, half in spread.items()}
    ax = get_axes(ax, figsize=(5.5, 3.8))
    for (label, y), style in zip(ys.items(), _STYLES, strict=False):
        ax.plot(x, y, label=label, lw=1.8, ms=5, **style)
        if label in bands:
            low, high = bands[label]
            ax.fill_between(x, low, high, color=style["color"], alpha=0.15, lw=0)
    for (label, y), style in zip(ys.items(), _STYLES, strict=False):
        if label in spread:
            ax.errorbar(x, y, yerr=spread[label], fmt="none", ecolor=style["color"],
                        elinewidth=1.0, capsize=3)
    if at is not None:
        ax.axvline(float(at), color="0.4", lw=1.0, ls=":")
    ax.set_xscale(xscale)
    if xscale == "log":
        ax.set_xticks(x, [f"{v:,.0f}" if float(v).is_integer() else f"{v:g}" for v in x])
        ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    return ax
