"""Figures of the chapter on continuous features.

* :func:`plot_class_densities`: each class's histogram of one feature on given intervals, with
  the normal densities Gaussian naive Bayes fits;
* :func:`plot_feature_posteriors`: the posterior of one class along one feature under several
  models, smooth curves and step functions, with the cut points;
* :func:`plot_boundaries`: the decision boundaries of several two-class models in the plane of
  two features, over the cases;
* :func:`plot_score_against_bins`: a held-out score against the number of intervals, with
  reference lines for models that have no such number.

The numbers come from :mod:`nbcourse.gaussian`, :mod:`nbcourse.discretisation` and
scikit-learn; this module only draws.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validation import as_real_array
from .style import CLASS_COLORS, CLASS_MARKERS, COLORS, SERIES_COLORS, get_axes

__all__ = ["plot_boundaries", "plot_class_densities", "plot_feature_posteriors",
           "plot_score_against_bins"]

_STYLES = ("-", "--", "-.", ":")
#: Boundary colours, none of them a class colour (blue, orange) of the scattered cases.
_BOUNDARY_COLORS = (COLORS["vermillion"], COLORS["green"], COLORS["purple"], COLORS["black"])


def _curves(curves, n, name, most=4):
    if not isinstance(curves, Mapping) or not 1 <= len(curves) <= most:
        raise TypeError(f"{name} must be a mapping of 1 to {most} labels to arrays, "
                        f"got {curves!r:.60}")
    out = {}
    for label, values in curves.items():
        v = as_real_array(values, f"{name}[{label!r}]")
        if v.shape != (n,):
            raise ValueError(f"{name}[{label!r}] must have shape ({n},), got {v.shape}")
        out[str(label)] = v
    return out


def plot_class_densities(x, y, edges, *, grid=None, densities=None, class_names=None, ax=None,
                         xlabel: str = "x"):
    """Histograms of one feature in each class on the intervals ``edges``, as densities.

    Parameters
    ----------
    x : array_like, shape (N,)
        The feature.
    y : array_like of int, shape (N,)
        Class codes ``0..C-1``.
    edges : array_like, shape (B + 1,)
        Increasing interval ends (the outer ends may be the range of ``x``).
    grid : array_like, shape (G,), optional
        Points at which ``densities`` are given.
    densities : array_like, shape (C, G), optional
        A fitted density of each class along ``grid``, drawn as a line.
    class_names : sequence of str, optional
    ax : matplotlib.axes.Axes or None
    xlabel : str

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.patches`` are the bars; ``ax.lines[c]`` is class ``c``'s density when given.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_class_densities([0.0, 1.0, 2.0, 3.0], [0, 0, 1, 1], [0.0, 1.5, 3.0])
    >>> len(ax.patches)
    4
    >>> plt.close(ax.figure)
    """
    x, e = as_real_array(x, "x"), as_real_array(edges, "edges")
    y = np.asarray(y)
    if x.ndim != 1 or y.shape != x.shape:
        raise ValueError(f"x and y must be 1-d arrays of one length, got shapes {x.shape} "
                         f"and {y.shape}")
    if e.ndim != 1 or e.size < 2 or not np.all(np.diff(e) > 0):
        raise ValueError(f"edges must be an increasing 1-d array of at least 2 ends, got {edges!r:.60}")
    classes = np.unique(y).astype(int)
    names = [f"class {c}" for c in classes] if class_names is None else list(class_names)
    ax = get_axes(ax, figsize=(6.0, 3.0))
    clipped = np.clip(x, e[0], e[-1])
    for k, c in enumerate(classes):
        ax.hist(clipped[y == c], bins=e, density=True, color=CLASS_COLORS[k], alpha=0.35,
                edgecolor=CLASS_COLORS[k], label=f"{names[k]}, share per unit of x")
    if densities is not None:
        g = as_real_array(grid, "grid")
        dens = as_real_array(densities, "densities")
        if dens.shape != (classes.size, g.size):
            raise ValueError(f"densities must have shape ({classes.size}, {g.size}), "
                             f"got {dens.shape}")
        for k in range(classes.size):
            ax.plot(g, dens[k], color=CLASS_COLORS[k], lw=2, ls=_STYLES[k % 4],
                    label=f"{names[k]}, normal density")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", loc="upper right")
    return ax


def plot_feature_posteriors(grid, curves, *, steps=None, cuts=None, x=None, y=None, positive=0,
                            ax=None, xlabel: str = "x", ylabel: str = "posterior"):
    """The posterior of one class along one feature: smooth curves, step functions, cut points.

    Parameters
    ----------
    grid : array_like, shape (G,)
    curves : Mapping[str, array_like of shape (G,)]
        Posteriors of models that vary smoothly with the feature (at most 2).
    steps : Mapping[str, array_like of shape (G,)], optional
        Posteriors of models that are constant on each interval (at most 2), drawn as steps.
    cuts : array_like, optional
        Cut points, drawn as dotted vertical lines.
    x, y : array_like, optional
        The cases and their class codes, drawn as a rug: the cases of class ``positive`` at 1,
        the others at 0.
    positive : int, default 0
        The class whose posterior the curves give.
    ax : matplotlib.axes.Axes or None
    xlabel, ylabel : str

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines`` start with the curves, then the steps.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> g = np.linspace(0, 1, 5)
    >>> ax = plot_feature_posteriors(g, {"a": g}, steps={"b": np.round(g)}, cuts=[0.5])
    >>> [line.get_label() for line in ax.lines[:2]]
    ['a', 'b']
    >>> plt.close(ax.figure)
    """
    g = as_real_array(grid, "grid")
    if g.ndim != 1 or g.size < 2:
        raise ValueError(f"grid must be a 1-d array of at least 2 points, got {grid!r:.60}")
    smooth = _curves(curves, g.size, "curves", most=2)
    stepped = {} if steps is None else _curves(steps, g.size, "steps", most=2)
    ax = get_axes(ax, figsize=(6.0, 3.0))
    for k, (label, p) in enumerate(smooth.items()):
        ax.plot(g, p, color=SERIES_COLORS[k], lw=2, ls=_STYLES[k], label=label)
    for k, (label, p) in enumerate(stepped.items()):
        ax.plot(g, p, color=SERIES_COLORS[2 + k], lw=2.2, ls=_STYLES[2 + k],
                drawstyle="steps-mid", label=label)
    for t in ([] if cuts is None else as_real_array(cuts, "cuts").ravel()):
        ax.axvline(t, color="0.45", lw=0.8, ls=":")
    if x is not None:
        xv, yv = as_real_array(x, "x"), np.asarray(y)
        for c in np.unique(yv).astype(int):
            ax.plot(xv[yv == c], np.full(np.sum(yv == c), float(c == positive)), ls="none",
                    marker="|", ms=7, color=CLASS_COLORS[c], alpha=0.35)
    ax.set_xlim(g[0], g[-1])
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", loc="center right")
    return ax


def plot_boundaries(x1, x2, log_odds, X, y, *, class_names=None, ax=None,
                    labels=("feature 1", "feature 2")):
    """The boundaries ``g = 0`` of several two-class models in a plane, over the cases.

    Parameters
    ----------
    x1, x2 : array_like, shapes (G1,) and (G2,)
        The grid along each axis.
    log_odds : Mapping[str, array_like of shape (G2, G1)]
        Each model's log posterior odds on the grid (rows follow ``x2``), at most 4.
    X : array_like, shape (N, 2)
        The cases.
    y : array_like of int, shape (N,)
        Their classes ``0`` or ``1``.
    class_names : sequence of str, optional
    ax : matplotlib.axes.Axes or None
    labels : (str, str)
        Axis labels.

    Returns
    -------
    matplotlib.axes.Axes
        One contour set per model, in order, in ``ax.collections`` after the two scatters.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> g = np.linspace(-1, 1, 5)
    >>> G1, G2 = np.meshgrid(g, g)
    >>> ax = plot_boundaries(g, g, {"line": G1 - G2}, [[0, 1], [1, 0]], [0, 1])
    >>> ax.get_xlabel()
    'feature 1'
    >>> plt.close(ax.figure)
    """
    g1, g2 = as_real_array(x1, "x1"), as_real_array(x2, "x2")
    if not isinstance(log_odds, Mapping) or not 1 <= len(log_odds) <= 4:
        raise TypeError(f"log_odds must be a mapping of 1 to 4 labels to grids, "
                        f"got {log_odds!r:.60}")
    P = as_real_array(X, "X")
    yv = np.asarray(y)
    if P.ndim != 2 or P.shape[1] != 2 or yv.shape != (P.shape[0],):
        raise ValueError(f"X must have shape (N, 2) and y shape (N,), got {P.shape} and {yv.shape}")
    names = ["class 0", "class 1"] if class_names is None else list(class_names)
    ax = get_axes(ax, figsize=(6.0, 4.6))
    for c in (0, 1):
        ax.scatter(P[yv == c, 0], P[yv == c, 1], s=10, marker=CLASS_MARKERS[c],
                   color=CLASS_COLORS[c], alpha=0.45, label=names[c])
    for k, (label, grid) in enumerate(log_odds.items()):
        G = as_real_array(grid, f"log_odds[{label!r}]")
        if G.shape != (g2.size, g1.size):
            raise ValueError(f"log_odds[{label!r}] must have shape ({g2.size}, {g1.size}), "
                             f"got {G.shape}")
        colour = _BOUNDARY_COLORS[k]
        ax.contour(g1, g2, G, levels=[0.0], colors=[colour], linewidths=2,
                   linestyles=[_STYLES[k]])
        ax.plot([], [], color=colour, lw=2, ls=_STYLES[k], label=label)  # the legend's entry
    ax.set_xlim(g1[0], g1[-1])
    ax.set_ylim(g2[0], g2[-1])
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.legend(fontsize="x-small", loc="upper left")
    return ax


def plot_score_against_bins(n_bins, curves, *, spread=None, references=None, ax=None,
                            ylabel: str = "held-out log loss"):
    """A held-out score against the number of intervals, one line per way of cutting.

    Parameters
    ----------
    n_bins : array_like of int, shape (B,)
    curves : Mapping[str, array_like of shape (B,)]
        At most 2 lines.
    spread : Mapping[str, array_like of shape (B,)], optional
        Half-widths of error bars, by label.
    references : Mapping[str, float], optional
        Scores of models without a number of intervals, drawn as horizontal lines (at most 2).
    ax : matplotlib.axes.Axes or None
    ylabel : str

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines`` start with the curves, then the references.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_score_against_bins([2, 4], {"width": [0.5, 0.4]}, references={"g": 0.45})
    >>> [float(v) for v in ax.lines[1].get_ydata()]
    [0.45, 0.45]
    >>> plt.close(ax.figure)
    """
    b = as_real_array(n_bins, "n_bins")
    if b.ndim != 1 or b.size == 0:
        raise ValueError(f"n_bins must be a non-empty 1-d array, got {n_bins!r:.60}")
    lines = _curves(curves, b.size, "curves", most=2)
    spread = {} if spread is None else spread
    references = {} if references is None else dict(references)
    if len(references) > 2:
        raise TypeError(f"references must map at most 2 labels to scores, got {len(references)}")
    ax = get_axes(ax, figsize=(6.0, 3.6))
    markers = ("o", "s")
    for k, (label, v) in enumerate(lines.items()):
        ax.plot(b, v, color=SERIES_COLORS[k], marker=markers[k], ls=_STYLES[k], lw=1.8,
                label=label)
    for k, (label, value) in enumerate(references.items()):
        ax.axhline(float(value), color=SERIES_COLORS[2 + k], ls=_STYLES[2 + k], lw=1.6,
                   label=label)
    for k, (label, v) in enumerate(lines.items()):
        if label in spread:
            ax.errorbar(b, v, yerr=as_real_array(spread[label], f"spread[{label!r}]"),
                        fmt="none", ecolor=SERIES_COLORS[k], elinewidth=1.0, capsize=3)
    ax.set_xlabel("number of intervals per feature")
    ax.set_ylabel(ylabel)
    ax.set_xticks(b)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", loc="best")
    return ax
