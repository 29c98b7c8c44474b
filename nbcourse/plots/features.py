"""Named feature weights and correlations of a real data set (Part I ch. 5).

With a real data set the features have names, and a discriminant's weights (Duda, Hart &
Stork 2001, eq. 90) are read feature by feature; these figures put the names on the axis.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib
import numpy as np

from .._validation import as_real_array
from .style import COLORS, get_axes

__all__ = ["plot_feature_weights", "plot_feature_correlation"]

_SERIES = [(COLORS["blue"], ""), (COLORS["vermillion"], "//"), (COLORS["green"], ".."),
           (COLORS["orange"], "\\\\")]


def _check_names(feature_names, d: int) -> list[str]:
    names = [str(n) for n in feature_names] if feature_names is not None else []
    if len(names) != d:
        raise ValueError(f"feature_names must have one name per feature ({d}), "
                         f"got {len(names)}")
    return names


def plot_feature_weights(weights, feature_names, *, ax=None, xlabel: str = "weight"):
    """Horizontal grouped bars of weight vectors, one row per named feature.

    Parameters
    ----------
    weights : Mapping[str, array_like of shape (d,)]
        Legend label to weight vector (at most four), for example the ``w_i`` of eq. 90
        of Duda, Hart & Stork (2001) fitted by two methods.
    feature_names : sequence of str, length d
        Row labels, drawn top to bottom in this order.
    ax : matplotlib.axes.Axes or None
    xlabel : str, default "weight"

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers[k]`` holds the bars of the ``k``-th entry of ``weights``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_feature_weights({"a": [1.0, -2.0], "b": [0.5, 0.0]}, ["x", "y"])
    >>> [float(b.get_width()) for b in ax.containers[0]]
    [1.0, -2.0]
    >>> plt.close(ax.figure)
    """
    if not isinstance(weights, Mapping) or not 1 <= len(weights) <= len(_SERIES):
        raise TypeError(f"weights must be a mapping of 1 to {len(_SERIES)} labels to vectors, "
                        f"got {weights!r:.60}")
    arrays = {k: as_real_array(v, f"weights[{k!r}]") for k, v in weights.items()}
    shapes = {a.shape for a in arrays.values()}
    if len(shapes) != 1 or len(next(iter(shapes))) != 1:
        raise ValueError(f"weights must all be 1-d vectors of the same length, got shapes {shapes}")
    d = next(iter(shapes))[0]
    names = _check_names(feature_names, d)
    ax = get_axes(ax, figsize=(6.0, 1.2 + d * (0.22 + 0.1 * (len(arrays) - 1))))
    height = 0.8 / len(arrays)
    rows = np.arange(d)
    for k, (label, vec) in enumerate(arrays.items()):
        colour, hatch = _SERIES[k]
        ax.barh(rows + (k - (len(arrays) - 1) / 2) * height, vec, height, color=colour,
                hatch=hatch, edgecolor="black", linewidth=0.6, label=label)
    ax.set_yticks(rows, names)
    ax.set_ylim(d - 0.5, -0.5)  # first feature on top
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    return ax


def plot_feature_correlation(corr, feature_names, *, ax=None, title: str | None = None):
    """Heat map of a correlation matrix between named features, read with its colour bar.

    The cells carry no printed numbers: with a dozen or more features side by side they
    would be too small to read; the colour bar gives the scale.

    Parameters
    ----------
    corr : array_like, shape (d, d)
        Correlations in [-1, 1]; NaN cells (a feature constant in the sample) are drawn grey,
        so that an undefined correlation is not mistaken for a zero one (white).
    feature_names : sequence of str, length d
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0]`` is the heat map.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from matplotlib.colors import to_rgba
    >>> ax = plot_feature_correlation([[1.0, 0.3], [0.3, 1.0]], ["x", "y"])
    >>> ax.images[0].get_array().tolist()
    [[1.0, 0.3], [0.3, 1.0]]
    >>> len(ax.texts)
    0
    >>> ax.images[0].get_cmap().get_bad().tolist() == list(to_rgba(COLORS["grey"]))
    True
    >>> plt.close(ax.figure)
    """
    c = np.asarray(corr)
    if c.dtype.kind not in "biuf":
        raise TypeError(f"corr must be a real array of correlations, got dtype {c.dtype}")
    c = c.astype(np.float64)
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise ValueError(f"corr must be a square (d, d) matrix, got shape {c.shape}")
    known = c[~np.isnan(c)]  # NaN: undefined correlation, drawn grey
    if (np.abs(known) > 1 + 1e-12).any():
        raise ValueError(f"corr must hold correlations in [-1, 1] or NaN, got values from "
                         f"{known.min():g} to {known.max():g}")
    names = _check_names(feature_names, c.shape[0])
    ax = get_axes(ax, figsize=(0.45 * c.shape[0] + 2.5, 0.45 * c.shape[0] + 1.5))
    cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad=COLORS["grey"])
    image = ax.imshow(np.ma.masked_invalid(c), cmap=cmap, vmin=-1, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=90)
    ax.set_yticks(range(len(names)), names)
    ax.figure.colorbar(image, ax=ax, shrink=0.8, label="correlation")
    if title:
        ax.set_title(title)
    return ax
