"""Estimated weights and estimation error against the sample size (Part I ch. 3 and 5):
naive Bayes and logistic regression side by side, and the sampling distribution of an
estimate.  Every function takes ``ax=None`` (or ``fig=None``) and returns what it drew on.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D

from .._validation import as_real_array, check_ndim, check_same_shape
from .style import (
    CLASS_MARKERS,
    COLORS,
    SERIES_COLORS,
    get_axes,
)

__all__ = [
    "METHOD_COLORS",
    "plot_estimate_distribution",
    "plot_estimation_error",
    "plot_weight_bars",
    "plot_weights_by_feature",
    "plot_weights_vs_n",
]


def _summary(w, name):
    """Median and interquartile range over repeats (axis 1) of a (m, r, d) array."""
    arr = as_real_array(w, name)
    if arr.ndim == 2:
        return arr, None, None
    if arr.ndim != 3:
        raise ValueError(f"{name} must have shape (m, d) or (m, repeats, d), got {arr.shape}")
    lo, mid, hi = np.percentile(arr, [25, 50, 75], axis=1)
    return mid, lo, hi


def _check_weight_curves(N, w_nb, w_lr, w_true):
    """Validate the inputs of the weights-against-N figures.

    Returns ``n`` (len(N),), ``truth`` (d,) and the summaries ``(mean, lo, hi)`` of
    ``w_nb`` and ``w_lr``, each of shape (len(N), d).
    """
    n = as_real_array(N, "N")
    check_ndim(n, 1, "N")
    nb, nb_lo, nb_hi = _summary(w_nb, "w_nb")
    lr, lr_lo, lr_hi = _summary(w_lr, "w_lr")
    truth = as_real_array(w_true, "w_true")
    check_same_shape(nb, lr, "w_nb (summarised)", "w_lr (summarised)")
    if nb.shape != (n.size, truth.size):
        raise ValueError(
            f"w_nb must have shape (len(N), len(w_true)) = ({n.size}, {truth.size}), "
            f"got {nb.shape}"
        )
    return n, truth, (nb, nb_lo, nb_hi), (lr, lr_lo, lr_hi)


def plot_weights_vs_n(N, w_nb, w_lr, w_true, *, ax=None, feature_names=None):
    """Fitted weights of naive Bayes and logistic regression against the sample size.

    Each feature has one colour: solid line and circles for naive Bayes, dashed
    line and squares for logistic regression, a dotted horizontal line at the
    true weight.  With repeated fits (3-d inputs) the lines are medians and the
    shaded bands interquartile ranges.  Logarithmic x axis.

    Parameters
    ----------
    N : array_like, shape (m,)
        Sample sizes.
    w_nb, w_lr : array_like, shape (m, d) or (m, repeats, d)
        Weights fitted at each sample size.
    w_true : array_like, shape (d,)
        Weights of the model the data came from.
    ax : matplotlib.axes.Axes or None
    feature_names : sequence of str or None

    Returns
    -------
    matplotlib.axes.Axes
        Lines ``3j, 3j + 1, 3j + 2`` are naive Bayes, logistic regression and
        the truth for feature ``j``.

    Examples
    --------
    >>> ax = plot_weights_vs_n([10, 100], [[1.0], [1.2]], [[0.5], [1.1]], [1.0])
    >>> ax.lines[1].get_ydata().tolist()
    [0.5, 1.1]
    >>> plt.close(ax.figure)
    """
    n, truth, (nb, nb_lo, nb_hi), (lr, lr_lo, lr_hi) = _check_weight_curves(
        N, w_nb, w_lr, w_true)
    ax = get_axes(ax, figsize=(6.0, 4.2))
    names = feature_names or [f"$w_{j + 1}$" for j in range(truth.size)]
    for j in range(truth.size):
        color = SERIES_COLORS[j % len(SERIES_COLORS)]
        ax.plot(n, nb[:, j], "-o", color=color, ms=4, label=f"{names[j]} naive Bayes")
        ax.plot(n, lr[:, j], "--s", color=color, ms=4, mfc="white",
                label=f"{names[j]} logistic regression")
        ax.axhline(truth[j], color=color, ls=":", lw=1.2)
        if nb_lo is not None:
            ax.fill_between(n, nb_lo[:, j], nb_hi[:, j], color=color, alpha=0.15, lw=0)
        if lr_lo is not None:
            ax.fill_between(n, lr_lo[:, j], lr_hi[:, j], color=color, alpha=0.08, lw=0)
    ax.set_xscale("log")
    ax.set_xlabel("training sample size $N$ (log scale)")
    ax.set_ylabel("fitted weight")
    ax.set_title("Two fits of the same linear family (dotted: true weights)", fontsize=10)
    ax.grid(True, alpha=0.3)
    # A compact legend: one entry per feature (colour) and one per method (line style).
    handles = [Line2D([], [], color=SERIES_COLORS[j % len(SERIES_COLORS)], lw=6, alpha=0.6,
                      label=names[j]) for j in range(truth.size)]
    handles += [Line2D([], [], color="black", ls="-", marker="o", ms=4, label="naive Bayes"),
                Line2D([], [], color="black", ls="--", marker="s", ms=4, mfc="white",
                       label="logistic regression"),
                Line2D([], [], color="black", ls=":", label="true weight")]
    ax.legend(handles=handles, fontsize=8, ncol=4, loc="upper center",
              bbox_to_anchor=(0.5, -0.16), frameon=False)
    return ax


#: Colours of the two fitting methods in :func:`plot_weights_by_feature`.
METHOD_COLORS = {"naive Bayes": COLORS["blue"], "logistic regression": COLORS["vermillion"]}


def plot_weights_by_feature(N, w_nb, w_lr, w_true, *, fig=None, feature_names=None, ncols=2):
    """Fitted weights against the sample size, one panel per feature.

    The same data as :func:`plot_weights_vs_n`, for weights whose true values are
    too close for their lines and bands to be told apart on one axis.  In every
    panel naive Bayes is blue (solid, circles), logistic regression vermillion
    (dashed, white squares), the true weight a dotted black line; with repeated
    fits (3-d inputs) the lines are medians and the shaded bands interquartile
    ranges.  Each panel has its own y range; the x axis (log scale) is shared.

    Parameters
    ----------
    N : array_like, shape (m,)
        Sample sizes.
    w_nb, w_lr : array_like, shape (m, d) or (m, repeats, d)
        Weights fitted at each sample size.
    w_true : array_like, shape (d,)
        Weights of the model the data came from.
    fig : matplotlib.figure.Figure or None
        An empty figure to draw into; ``None`` makes one.
    feature_names : sequence of str or None
        Panel titles (default ``$w_1$, $w_2$, ...``).
    ncols : int, default 2
        Panels per row.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[j]`` is feature ``j``; in it ``lines[0]`` is naive Bayes,
        ``lines[1]`` logistic regression and ``lines[2]`` the true weight.

    Examples
    --------
    >>> fig = plot_weights_by_feature([10, 100], [[1.0, 2.0], [1.2, 1.9]],
    ...                               [[0.5, 2.2], [1.1, 2.0]], [1.0, 2.0])
    >>> len(fig.axes), fig.axes[1].lines[1].get_ydata().tolist()
    (2, [2.2, 2.0])
    >>> plt.close(fig)
    """
    n, truth, (nb, nb_lo, nb_hi), (lr, lr_lo, lr_hi) = _check_weight_curves(
        N, w_nb, w_lr, w_true)
    if isinstance(ncols, bool) or not isinstance(ncols, int | np.integer) or ncols < 1:
        raise ValueError(f"ncols must be an integer >= 1, got {ncols!r}")
    d = truth.size
    ncols = min(int(ncols), d)
    nrows = -(-d // ncols)
    if fig is None:
        fig = plt.figure(figsize=(3.7 * ncols, 2.5 * nrows + 0.6), facecolor="white",
                         layout="constrained")
    axes = fig.subplots(nrows, ncols, sharex=True, squeeze=False).ravel()
    names = feature_names or [f"$w_{j + 1}$" for j in range(d)]
    nb_color, lr_color = METHOD_COLORS["naive Bayes"], METHOD_COLORS["logistic regression"]
    for j, ax in enumerate(axes[:d]):
        ax.plot(n, nb[:, j], "-o", color=nb_color, ms=4)
        ax.plot(n, lr[:, j], "--s", color=lr_color, ms=4, mfc="white")
        ax.axhline(truth[j], color="black", ls=":", lw=1.2)
        if nb_lo is not None:
            ax.fill_between(n, nb_lo[:, j], nb_hi[:, j], color=nb_color, alpha=0.18, lw=0)
        if lr_lo is not None:
            ax.fill_between(n, lr_lo[:, j], lr_hi[:, j], color=lr_color, alpha=0.12, lw=0)
        ax.set_xscale("log")
        ax.set_title(names[j], fontsize=11)
        ax.grid(True, alpha=0.3)
    for ax in axes[d:]:
        ax.remove()
    for j, ax in enumerate(axes[:d]):
        if j + ncols >= d:  # lowest panel of its column
            ax.set_xlabel("sample size $N$ (log scale)")
            ax.tick_params(labelbottom=True)
        if j % ncols == 0:
            ax.set_ylabel("fitted weight")
    handles = [Line2D([], [], color=nb_color, ls="-", marker="o", ms=4, label="naive Bayes"),
               Line2D([], [], color=lr_color, ls="--", marker="s", ms=4, mfc="white",
                      label="logistic regression"),
               Line2D([], [], color="black", ls=":", label="true weight")]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False)
    return fig


def plot_weight_bars(weights, *, ax=None, feature_names=None):
    """Grouped bar chart of several weight vectors, one group per feature.

    Parameters
    ----------
    weights : Mapping[str, array_like of shape (d,)]
        Legend label to weight vector; all the same length.
    ax : matplotlib.axes.Axes or None
    feature_names : sequence of str or None
        Tick labels (default ``w_1 .. w_d``).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers[k]`` holds the bars of the ``k``-th entry of ``weights``.

    Examples
    --------
    >>> ax = plot_weight_bars({"a": [1.0, 2.0], "b": [0.5, 0.5]})
    >>> [float(b.get_height()) for b in ax.containers[1]]
    [0.5, 0.5]
    >>> plt.close(ax.figure)
    """
    if not isinstance(weights, Mapping) or not weights:
        raise TypeError(f"weights must be a non-empty mapping label -> vector, got {weights!r:.60}")
    arrays = {k: as_real_array(v, f"weights[{k!r}]") for k, v in weights.items()}
    sizes = {a.shape for a in arrays.values()}
    if len(sizes) != 1 or len(next(iter(sizes))) != 1:
        raise ValueError(f"weights must all be 1-d vectors of the same length, got shapes {sizes}")
    d = next(iter(sizes))[0]
    ax = get_axes(ax, figsize=(6.0, 3.8))
    width = 0.8 / len(arrays)
    x = np.arange(d)
    for k, (label, vec) in enumerate(arrays.items()):
        ax.bar(x + (k - (len(arrays) - 1) / 2) * width, vec, width,
               color=SERIES_COLORS[k % len(SERIES_COLORS)], edgecolor="black", label=label)
    ax.set_xticks(x, feature_names or [f"$w_{j + 1}$" for j in range(d)])
    ax.axhline(0, color="black", lw=0.8)
    ax.set_ylabel("weight")
    ax.legend(fontsize="small")
    return ax


def plot_estimation_error(n, errors, *, expected=None, mark=None, ax=None,
                          ylabel="mean squared error of $\\hat p$"):
    """Estimation error against sample size for several estimators, log-log.

    Parameters
    ----------
    n : array_like, shape (m,)
        Sample sizes (per class).
    errors : Mapping[str, array_like of shape (m,)]
        Simulated error of each estimator (markers).
    expected : Mapping[str, array_like of shape (m,)] or None
        Closed-form error of each estimator (lines), same keys as ``errors``.
    mark : float or None
        Sample size to highlight with a vertical line.
    ax : matplotlib.axes.Axes or None
    ylabel : str

    Returns
    -------
    matplotlib.axes.Axes
        Line ``2k`` holds the markers of the ``k``-th estimator, line ``2k + 1``
        its closed form (when given).

    Examples
    --------
    >>> ax = plot_estimation_error([10, 100], {"MLE": [0.02, 0.002]})
    >>> ax.lines[0].get_ydata().tolist()
    [0.02, 0.002]
    >>> plt.close(ax.figure)
    """
    size = as_real_array(n, "n")
    check_ndim(size, 1, "n")
    if not isinstance(errors, Mapping) or not errors:
        raise TypeError(f"errors must be a non-empty mapping label -> values, got {errors!r:.60}")
    if expected is not None and set(expected) != set(errors):
        raise ValueError(
            f"expected must have the same keys as errors {sorted(errors)}, got {sorted(expected)}"
        )
    ax = get_axes(ax)
    for k, (label, err) in enumerate(errors.items()):
        e = as_real_array(err, f"errors[{label!r}]")
        if e.shape != size.shape:
            raise ValueError(f"errors[{label!r}] must have shape {size.shape}, got {e.shape}")
        color = SERIES_COLORS[k % len(SERIES_COLORS)]
        ax.plot(size, e, CLASS_MARKERS[k % len(CLASS_MARKERS)], color=color,
                label=f"{label} (simulated)")
        if expected is not None:
            ax.plot(size, as_real_array(expected[label], f"expected[{label!r}]"), "-",
                    color=color, lw=1, label=f"{label} (exact)")
    if mark is not None:
        ax.axvline(float(mark), color=COLORS["grey"], ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("samples per class $N_c$ (log scale)")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    return ax


def plot_estimate_distribution(estimates, p_true, *, bins=20, xmax=1.0, ax=None):
    """Histograms of estimates of one probability, with the truth and the share of 0s and 1s.

    An estimate of exactly 0 or 1 makes a weight of the linear discriminant
    infinite (Duda, Hart & Stork 2001, eqs. 90–91), so the legend reports the
    share of such estimates for each estimator.

    Parameters
    ----------
    estimates : Mapping[str, array_like of shape (r,)]
        Repeated estimates in ``[0, 1]`` from each estimator (for example ML and
        Laplace-smoothed).
    p_true : float
        The probability being estimated (a vertical dotted line).
    bins : int, default 20
        Equal-width bins over ``[0, xmax]``.
    xmax : float, default 1.0
        Right end of the histogram range (``0 < xmax <= 1``); estimates above it
        are counted in the last bin, so the shares still add up to 1.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.patches`` holds one step-histogram patch per estimator, in order;
        its legend label ends with the share of estimates equal to 0 or 1.

    Examples
    --------
    >>> ax = plot_estimate_distribution({"ML": [0.0, 0.5, 1.0, 0.5]}, 0.5)
    >>> ax.patches[0].get_label()
    'ML (50% at 0 or 1)'
    >>> plt.close(ax.figure)
    """
    if not isinstance(estimates, Mapping) or not estimates:
        raise TypeError(
            f"estimates must be a non-empty mapping label -> values, got {estimates!r:.60}"
        )
    truth = float(as_real_array(p_true, "p_true"))
    ax = get_axes(ax)
    top = float(xmax)
    if not 0 < top <= 1:
        raise ValueError(f"xmax must satisfy 0 < xmax <= 1, got {xmax!r}")
    edges = np.linspace(0.0, top, int(bins) + 1)
    for k, (label, values) in enumerate(estimates.items()):
        v = as_real_array(values, f"estimates[{label!r}]").ravel()
        if v.size == 0 or (v < 0).any() or (v > 1).any():
            raise ValueError(f"estimates[{label!r}] must be a non-empty array of values in [0, 1]")
        extreme = np.mean((v == 0) | (v == 1))
        weights = np.full(v.size, 1.0 / v.size)
        ax.hist(np.minimum(v, top), bins=edges, weights=weights, histtype="step", lw=2,
                color=SERIES_COLORS[k % len(SERIES_COLORS)],
                label=f"{label} ({extreme:.0%} at 0 or 1)")
    ax.axvline(truth, color=COLORS["black"], ls=":", lw=1.2, label=f"true $p = {truth:g}$")
    ax.set_xlim(-0.02 * top, 1.02 * top)
    ax.set_xlabel("estimate $\\hat p$")
    ax.set_ylabel("share of samples")
    ax.legend(fontsize="small", loc="upper right")
    return ax
