"""Figures of the text chapter (Part III): the two event models against vocabulary size, and
confidence against passage length.

The multinomial and the Bernoulli event models of naive Bayes (McCallum & Nigam 1998) are
drawn in the same two styles everywhere: blue circles for multinomial, vermillion squares
with a dashed line for Bernoulli, so the curves stay apart in greyscale print.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import as_real_array
from .style import COLORS, get_axes

__all__ = ["plot_length_confidence", "plot_vocabulary_curves"]

_STYLES = [dict(color=COLORS["blue"], marker="o", ls="-"),
           dict(color=COLORS["vermillion"], marker="s", ls="--"),
           dict(color=COLORS["green"], marker="^", ls="-."),
           dict(color=COLORS["black"], marker="D", ls=":")]


def _curves(x, curves, x_name):
    x = as_real_array(x, x_name)
    if x.ndim != 1 or x.size == 0 or np.any(x <= 0):
        raise ValueError(f"{x_name} must be a non-empty 1-d array of positive numbers, "
                         f"got shape {x.shape}")
    if not isinstance(curves, Mapping) or not 1 <= len(curves) <= len(_STYLES):
        raise TypeError(f"curves must be a mapping of 1 to {len(_STYLES)} labels to arrays, "
                        f"got {curves!r:.60}")
    out = {}
    for label, y in curves.items():
        y = as_real_array(y, f"curves[{label!r}]")
        if y.shape != x.shape:
            raise ValueError(f"curves[{label!r}] must have the shape of {x_name} {x.shape}, "
                             f"got {y.shape}")
        out[label] = y
    return x, out


def plot_vocabulary_curves(sizes, curves, *, ylabel: str, ax=None, title: str | None = None,
                           xlabel: str = "vocabulary size K"):
    """A score of each event model against the vocabulary size ``V`` (log axis).

    Parameters
    ----------
    sizes : array_like, shape (S,)
        Vocabulary sizes, positive.
    curves : Mapping[str, array_like of shape (S,)]
        Legend label to score at each size (at most four), e.g.
        ``{"multinomial": ..., "Bernoulli": ...}``.
    ylabel : str
    ax : matplotlib.axes.Axes or None
    title : str or None
    xlabel : str, default "vocabulary size K"
        Say how the words were chosen when it matters, e.g. "K most frequent words".

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[k]`` is the curve of the ``k``-th entry of ``curves``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_vocabulary_curves([10, 100], {"multinomial": [0.5, 0.8]}, ylabel="accuracy")
    >>> ax.lines[0].get_ydata().tolist(), ax.get_xscale()
    ([0.5, 0.8], 'log')
    >>> plt.close(ax.figure)
    """
    sizes, curves = _curves(sizes, curves, "sizes")
    ax = get_axes(ax, figsize=(5.5, 3.8))
    for (label, y), style in zip(curves.items(), _STYLES, strict=False):
        ax.plot(sizes, y, label=label, lw=1.8, ms=5, **style)
    ax.set_xscale("log")
    ax.set_xticks(sizes, [f"{v:g}" for v in sizes])
    ax.minorticks_off()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    return ax


def plot_length_confidence(lengths, accuracy, confidence, wrong_confidence, *, ax=None,
                           title: str | None = None):
    """Accuracy, mean top posterior, and mean top posterior of the wrong answers against length.

    Parameters
    ----------
    lengths : array_like, shape (S,)
        Passage lengths in words, positive.
    accuracy, confidence, wrong_confidence : array_like, shape (S,)
        At each length: the fraction of passages classified right, the mean largest
        posterior probability, and that mean over the misclassified passages only.
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines`` holds the three curves in the order of the arguments.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_length_confidence([10, 100], [0.4, 0.8], [0.5, 0.9], [0.4, 0.7])
    >>> [line.get_label() for line in ax.lines]
    ['accuracy', 'mean top posterior', 'mean top posterior, wrong answers']
    >>> plt.close(ax.figure)
    """
    lengths, curves = _curves(lengths, {"accuracy": accuracy, "mean top posterior": confidence,
                                        "mean top posterior, wrong answers": wrong_confidence},
                              "lengths")
    ax = get_axes(ax, figsize=(5.5, 3.8))
    styles = [_STYLES[3], _STYLES[0], _STYLES[1]]
    for (label, y), style in zip(curves.items(), styles, strict=True):
        ax.plot(lengths, y, label=label, lw=1.8, ms=5, **style)
    ax.set_xscale("log")
    ax.set_xticks(lengths, [f"{v:g}" for v in lengths])
    ax.minorticks_off()
    ax.set_ylim(0, 1)
    ax.set_xlabel("words in the passage")
    ax.set_ylabel("fraction / probability")
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")
    return ax
