"""Figures of the recalibration chapter (Part III): calibration maps and reliability under a
temperature.

A recalibration map turns a classifier's log odds ``g`` into a probability; drawn against ``g``
beside the observed share of class 0 among the cases with similar ``g``, it shows what each
remedy (temperature, Platt, isotonic) does to the scores.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy.special import expit

from .._validation import as_real_array, check_codes, check_int, check_positive
from ..calibration import expected_calibration_error, log_loss_of_log_odds, reliability_bins
from .style import COLORS, get_axes

__all__ = ["plot_calibration_maps", "plot_reliability_at_temperature"]

_STYLES = [(COLORS["blue"], "-"), (COLORS["vermillion"], "--"), (COLORS["green"], "-."),
           (COLORS["purple"], ":")]


def _check_g_and_y(g, y):
    scores = as_real_array(g, "g")
    labels = check_codes(y, "y", ndim=1)
    if scores.shape != labels.shape:
        raise ValueError(f"g must have one log odds per label, shape {labels.shape}, "
                         f"got shape {scores.shape}")
    if not np.all(np.isfinite(scores)):
        raise ValueError("g must be finite log odds, got inf")
    if labels.max() > 1:
        raise ValueError(f"y must contain class codes 0 and 1, got {int(labels.max())}")
    return scores, labels


def plot_calibration_maps(g, y, maps, *, n_bins: int = 10, ax=None, title: str | None = None):
    """Recalibration maps ``P(class 0 | g)`` against the log odds, with the observed shares.

    The cases are cut into ``n_bins`` groups of about equal size by ``g``; a grey square marks
    each group's mean ``g`` and its share of class 0, the target every map aims at.  The
    uncalibrated map ``sigma(g)`` is drawn in black.

    Parameters
    ----------
    g : array_like, shape (N,)
        Log odds of class 0 against class 1 on held-out cases.
    y : array_like of int, shape (N,)
        Their classes, 0 or 1.
    maps : Mapping[str, callable]
        Label to a function of an array of log odds returning ``P(class 0 | g)``
        (at most four), for example ``lambda t: platt.predict_proba(t)[:, 0]``.
    n_bins : int, default 10
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` is ``sigma(g)``, then one line per map in order, then the squares.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_calibration_maps([-2.0, -1.0, 1.0, 2.0], [1, 1, 0, 1],
    ...                            {"T = 2": lambda t: 1 / (1 + np.exp(-t / 2))}, n_bins=2)
    >>> [line.get_label() for line in ax.lines[:2]]
    ['uncalibrated σ(g)', 'T = 2']
    >>> ax.lines[2].get_ydata().tolist()                # shares of class 0 in the two halves
    [0.0, 0.5]
    >>> plt.close(ax.figure)
    """
    scores, labels = _check_g_and_y(g, y)
    if not isinstance(maps, Mapping) or not 1 <= len(maps) <= len(_STYLES) or not all(
            callable(f) for f in maps.values()):
        raise TypeError(f"maps must be a mapping of 1 to {len(_STYLES)} labels to callables, "
                        f"got {maps!r:.60}")
    n_bins = check_int(n_bins, "n_bins", 1)
    ax = get_axes(ax, figsize=(5.8, 4.2))
    grid = np.linspace(scores.min(), scores.max(), 400)
    ax.plot(grid, expit(grid), color="black", lw=1.2, label="uncalibrated σ(g)")
    for (label, f), (colour, ls) in zip(maps.items(), _STYLES, strict=False):
        ax.plot(grid, as_real_array(f(grid), f"maps[{label!r}](g)"), color=colour, ls=ls, lw=2,
                label=label)
    order = np.argsort(scores, kind="stable")
    groups = [part for part in np.array_split(order, n_bins) if part.size]
    ax.plot([scores[p].mean() for p in groups], [np.mean(labels[p] == 0) for p in groups],
            ls="none", marker="s", ms=6, color=COLORS["grey"], markeredgecolor="black",
            label="share of class 0 (groups of cases)")
    ax.set_ylim(-0.02, 1.02)
    ax.axhline(0.5, color=COLORS["grey"], lw=0.6, ls=":")
    ax.axvline(0.0, color=COLORS["grey"], lw=0.6, ls=":")
    ax.set_xlabel("log odds g of class 0 (naive Bayes)")
    ax.set_ylabel("P(class 0 | g)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")
    if title:
        ax.set_title(title)
    return ax


def plot_reliability_at_temperature(y, g, temperature, *, n_bins: int = 10, ax=None,
                                    title: str | None = None):
    """Reliability diagram of ``sigma(g)`` and of ``sigma(g / T)``, with their log loss and ECE.

    Parameters
    ----------
    y : array_like of int, shape (N,)
        Classes 0 or 1 of held-out cases.
    g : array_like, shape (N,)
        Their log odds of class 0 against class 1.
    temperature : float > 0
    n_bins : int, default 10
        Equal-width bins of the top probability (:func:`nbcourse.reliability_bins`).
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` is the diagonal, ``ax.lines[1]`` the scores as given (``T = 1``) and
        ``ax.lines[2]`` the scores divided by ``temperature``; their legend labels give the
        log loss and the expected calibration error.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_reliability_at_temperature([0, 1, 0, 1], [3.0, -3.0, 3.0, 3.0], 2.0, n_bins=5)
    >>> ax.lines[2].get_label().startswith("T = 2: log loss")
    True
    >>> plt.close(ax.figure)
    """
    scores, codes = _check_g_and_y(g, y)
    T = check_positive(temperature, "temperature")
    n_bins = check_int(n_bins, "n_bins", 1)
    ax = get_axes(ax, figsize=(5.4, 4.4))
    ax.plot([0, 1], [0, 1], color="black", ls="--", lw=1, label="perfect calibration")
    for t, name, (colour, ls), marker in ((1.0, "as fitted (T = 1)", _STYLES[1], "s"),
                                          (T, f"T = {T:g}", _STYLES[0], "o")):
        z = scores / t
        proba = np.column_stack([expit(z), expit(-z)])
        rel = reliability_bins(codes, proba, n_bins)
        loss = log_loss_of_log_odds(codes, z)
        ece = expected_calibration_error(codes, proba, n_bins)
        ax.plot(rel.confidence, rel.accuracy, color=colour, ls=ls, marker=marker, ms=4, lw=1.6,
                label=f"{name}: log loss {loss:.3f}, ECE {ece:.3f}")
        ax.scatter(rel.confidence, rel.accuracy, s=300 * rel.count / rel.count.max(),
                   color=colour, alpha=0.25, lw=0)
    ax.set_xlim(0.5, 1.0)
    ax.set_ylim(0.0, 1.02)
    ax.grid(alpha=0.3)
    ax.set_xlabel("stated probability of the chosen class")
    ax.set_ylabel("share of cases right")
    ax.legend(loc="lower right", fontsize="small")
    if title:
        ax.set_title(title)
    return ax
