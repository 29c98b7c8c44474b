"""Sampling distributions of the share of classifiers in a random batch (Williams 2024, §3),
one panel or a grid of panels.  Every function takes ``ax=None`` (or ``fig=None``).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .._validation import check_probabilities
from .style import (
    COLORS,
    get_axes,
    label_axes,
)

__all__ = [
    "plot_sampling_distribution",
    "plot_sampling_grid",
]


# ------------------------------------------------- sampling distributions
def _check_pmf_curve(name, fractions, pmf):
    fr = check_probabilities(fractions, f"curves[{name!r}] fractions")
    pm = check_probabilities(pmf, f"curves[{name!r}] pmf")
    if fr.shape != pm.shape or fr.ndim != 1:
        raise ValueError(f"curves[{name!r}] fractions and pmf must be 1-d of equal length, "
                         f"got shapes {fr.shape} and {pm.shape}")
    if abs(float(pm.sum()) - 1.0) > 1e-6:
        raise ValueError(f"curves[{name!r}] pmf must sum to 1, got {float(pm.sum())!r}")
    return fr, pm


def plot_sampling_distribution(curves, *, paper: float | None = None, ax=None,
                               title: str | None = None, legend: bool = True):
    """Distribution of a fraction over replicates, one curve per reading, the paper's value marked.

    Used for the tables of Williams (2024) §3: each curve is the distribution of a
    statistic (for example the fraction of observations where the PoB maximum
    posterior is higher) over replicates of the paper's protocol, under one
    reading of how the class prior was drawn; ``paper`` is the value the paper
    reports.  Fractions are shown in per cent.

    Parameters
    ----------
    curves : mapping of str to (fractions, pmf)
        For each reading, the attainable fractions (in [0, 1], increasing) and their
        probabilities (summing to 1), arrays of equal length.
    paper : float or None
        The reported fraction (in [0, 1]), drawn as a black vertical line.
    ax : matplotlib.axes.Axes or None
    title : str or None
    legend : bool, default True

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[i]`` is curve ``i`` (x in per cent, y the probability of each
        attainable fraction); with ``paper``, ``ax.lines[-1]`` is its vertical line.
        The view covers every fraction with probability above 1e-4 and the paper's value.

    Examples
    --------
    >>> ax = plot_sampling_distribution({"a": ([0.0, 0.5, 1.0], [0.25, 0.5, 0.25])}, paper=0.5)
    >>> ax.lines[0].get_xdata().tolist(), float(ax.lines[-1].get_xdata()[0])
    ([0.0, 50.0, 100.0], 50.0)
    >>> plt.close(ax.figure)
    """
    if not curves:
        raise ValueError("curves must name at least one distribution, got none")
    ax = get_axes(ax, figsize=(4.8, 3.4))
    palette = [COLORS[c] for c in ("blue", "vermillion", "green", "orange", "purple")]
    shown = []
    for i, (name, (fractions, pmf)) in enumerate(curves.items()):
        fr, pm = _check_pmf_curve(name, fractions, pmf)
        colour = palette[i % len(palette)]
        ax.plot(100 * fr, pm, color=colour, drawstyle="steps-mid", lw=1.2, label=name)
        ax.fill_between(100 * fr, pm, step="mid", color=colour, alpha=0.2, lw=0)
        shown.append(100 * fr[pm > 1e-4])
    if paper is not None:
        p = float(check_probabilities(paper, "paper"))
        ax.axvline(100 * p, color="black", lw=1.5, label="paper")
        shown.append(np.array([100 * p]))
    lo, hi = float(min(v.min() for v in shown)), float(max(v.max() for v in shown))
    pad = max(0.5, 0.08 * (hi - lo))
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(bottom=0)
    if legend:
        ax.legend(fontsize=8, loc="upper left")
    return label_axes(ax, "fraction (%)", "probability", title)


def plot_sampling_grid(panels, *, ncols: int = 3, fig=None):
    """Several :func:`plot_sampling_distribution` panels in one figure.

    Parameters
    ----------
    panels : sequence of mapping
        Each with keys ``"curves"`` (as in :func:`plot_sampling_distribution`),
        ``"paper"`` (float or None) and ``"title"`` (str).
    ncols : int, default 3
        Panels per row.
    fig : matplotlib.figure.Figure or None
        An empty figure to draw into; ``None`` makes a white-backed one.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig.axes[i]`` is panel ``i``; only the first panel has a legend.

    Examples
    --------
    >>> panel = {"curves": {"a": ([0.0, 1.0], [0.5, 0.5])}, "paper": 0.0, "title": "t"}
    >>> fig = plot_sampling_grid([panel, panel], ncols=2)
    >>> len(fig.axes), fig.axes[1].get_legend() is None
    (2, True)
    >>> plt.close(fig)
    """
    panels = list(panels)
    if not panels:
        raise ValueError("panels must hold at least one panel, got none")
    if isinstance(ncols, bool) or not isinstance(ncols, int | np.integer) or ncols < 1:
        raise ValueError(f"ncols must be an integer >= 1, got {ncols!r}")
    ncols = min(int(ncols), len(panels))
    nrows = -(-len(panels) // ncols)
    if fig is None:
        fig = plt.figure(figsize=(3.3 * ncols, 2.6 * nrows), facecolor="white",
                         layout="constrained")
    for i, panel in enumerate(panels):
        missing = {"curves", "paper", "title"} - set(panel)
        if missing:
            raise ValueError(f"panels[{i}] must have keys 'curves', 'paper' and 'title'; "
                             f"missing {sorted(missing)}")
        ax = fig.add_subplot(nrows, ncols, i + 1)
        plot_sampling_distribution(panel["curves"], paper=panel["paper"], ax=ax,
                                   title=panel["title"], legend=(i == 0))
        ax.title.set_fontsize(9)
        if i % ncols:
            ax.set_ylabel("")
    return fig
