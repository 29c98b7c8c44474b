"""Figures of the chapter on priors that move: class priors side by side, a confusion matrix,
and the cost of a decision threshold.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import _describe, as_real_array
from .style import COLORS, SERIES_COLORS, get_axes

__all__ = ["plot_confusion_matrix", "plot_prior_bars", "plot_threshold_costs"]

_HATCHES = ["", "//", "..", "xx"]


def plot_prior_bars(classes, priors, *, ax=None, title: str | None = None):
    """Several sets of class priors as grouped bars, one group per class.

    Parameters
    ----------
    classes : sequence of str, length C
        Class names, the groups.
    priors : Mapping[str, array_like of shape (C,)]
        Legend label to a set of priors (at most four), e.g. ``{"training": ..., "true":
        ..., "estimated by EM": ...}``; bars of a set share a colour and a hatching.
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers[k]`` holds the bars of the ``k``-th set.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_prior_bars(["a", "b"], {"true": [0.7, 0.3], "estimated": [0.6, 0.4]})
    >>> [float(b.get_height()) for b in ax.containers[1]]
    [0.6, 0.4]
    >>> plt.close(ax.figure)
    """
    names = [str(c) for c in classes]
    if not isinstance(priors, Mapping) or not 1 <= len(priors) <= len(_HATCHES):
        raise TypeError(f"priors must be a mapping of 1 to {len(_HATCHES)} labels to arrays, "
                        f"got {priors!r:.60}")
    ax = get_axes(ax, figsize=(6.5, 3.6))
    width = 0.8 / len(priors)
    x = np.arange(len(names))
    for k, (label, values) in enumerate(priors.items()):
        v = as_real_array(values, f"priors[{label!r}]")
        if v.shape != (len(names),):
            raise ValueError(f"priors[{label!r}] must have one value per class ({len(names)}), "
                             f"got shape {v.shape}")
        ax.bar(x + (k - (len(priors) - 1) / 2) * width, v, width, label=label,
               color=SERIES_COLORS[k], hatch=_HATCHES[k], edgecolor="white", lw=0.5)
    ax.set_xticks(x, names, rotation=20, ha="right")
    ax.set_ylabel("prior probability of the class")
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize="small", loc="best")
    return ax


def plot_confusion_matrix(matrix, classes, *, normalise: bool = True, ax=None,
                          title: str | None = None):
    """A confusion matrix as a grey-scale table with its numbers written in the cells.

    Parameters
    ----------
    matrix : array_like of int, shape (C, C)
        ``matrix[i, j]`` cases of class ``i`` predicted as ``j``
        (:func:`nbcourse.evaluation.confusion_matrix`).
    classes : sequence of str, length C
    normalise : bool, default True
        Shade and label each row by its shares (the recall of the class on the diagonal);
        otherwise by the counts.
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0]`` holds the shaded values; ``ax.texts`` the numbers, row by row.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_confusion_matrix([[8, 2], [1, 9]], ["a", "b"])
    >>> [t.get_text() for t in ax.texts]
    ['0.80', '0.20', '0.10', '0.90']
    >>> plt.close(ax.figure)
    """
    M = as_real_array(matrix, "matrix")
    names = [str(c) for c in classes]
    if M.ndim != 2 or M.shape != (len(names), len(names)) or (M < 0).any():
        raise ValueError(f"matrix must be a ({len(names)}, {len(names)}) table of non-negative "
                         f"counts, one row and column per class, got {_describe(M)}")
    rows = M.sum(axis=1, keepdims=True)
    shown = np.divide(M, rows, out=np.zeros_like(M), where=rows > 0) if normalise else M
    ax = get_axes(ax, figsize=(5.4, 4.6))
    ax.imshow(shown, cmap="Greys", vmin=0, vmax=1 if normalise else max(M.max(), 1))
    top = 1 if normalise else max(M.max(), 1)
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            text = f"{shown[i, j]:.2f}" if normalise else f"{int(M[i, j])}"
            ax.text(j, i, text, ha="center", va="center", fontsize="small",
                    color="white" if shown[i, j] > 0.5 * top else "black")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    if title:
        ax.set_title(title)
    return ax


def plot_threshold_costs(thresholds, costs, *, marks=None, ax=None, title: str | None = None,
                         ylabel: str = "mean cost per test case"):
    """Mean cost of deciding by a threshold on a posterior, against the threshold.

    Parameters
    ----------
    thresholds : array_like, shape (S,)
        Thresholds in ``[0, 1]``, increasing.
    costs : Mapping[str, array_like of shape (S,)]
        Legend label to the mean cost at each threshold (at most four).
    marks : Mapping[str, float] or None
        Named thresholds to mark with a vertical line each (e.g. the Bayes threshold).
    ax : matplotlib.axes.Axes or None
    title : str or None
    ylabel : str

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[k]`` is the ``k``-th cost curve; the marks follow.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_threshold_costs([0.1, 0.5, 0.9], {"naive Bayes": [0.4, 0.2, 0.3]},
    ...                           marks={"Bayes threshold": 0.2})
    >>> len(ax.lines), [float(v) for v in ax.lines[1].get_xdata()]
    (2, [0.2, 0.2])
    >>> plt.close(ax.figure)
    """
    from .learning import plot_learning_curves

    t = as_real_array(thresholds, "thresholds")
    if t.ndim != 1 or t.size == 0 or (t < 0).any() or (t > 1).any() or (np.diff(t) <= 0).any():
        raise ValueError(f"thresholds must be increasing numbers in [0, 1], got {_describe(t)}")
    ax = get_axes(ax, figsize=(5.5, 3.8))
    plot_learning_curves(t, costs, ylabel=ylabel, ax=ax,
                         xlabel="threshold on the posterior", xscale="linear", title=title)
    for k, (label, value) in enumerate((marks or {}).items()):
        ax.axvline(float(value), color=COLORS["grey"], ls=[":", "-."][k % 2], lw=1.2,
                   label=label)
    ax.set_xlim(0, 1)
    ax.legend(fontsize="small", loc="best")
    return ax
