"""Figures for the chapter on estimation and smoothing.

The estimates themselves come from :mod:`nbcourse.smoothing`; these functions only draw.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_real_array, check_alpha
from ..smoothing import lidstone, pob_bit_probabilities
from .style import COLORS, get_axes

__all__ = ["plot_smoothed_estimates", "plot_smoothing_path"]

_PALETTE = (COLORS["blue"], COLORS["orange"], COLORS["green"], COLORS["purple"])


def plot_smoothed_estimates(counts, alpha, *, values=None, ax=None, title: str | None = None,
                            ymax: float = 1.0):
    """Categorical ``θ_vc`` and PoB bit probabilities ``θ̃_vc`` of one class ``c``, smoothed with ``α``.

    Side-by-side bars per value ``j``: the categorical estimate
    ``(N_vc + α) / (N_c + Kα)`` (:func:`nbcourse.smoothing.lidstone`) and the PoB
    estimate of bit ``v``, ``(N_vc + α) / (N_c + 2α)``
    (:func:`nbcourse.smoothing.pob_bit_probabilities`); black diamonds mark the
    maximum-likelihood estimate ``N_vc / N_c`` shared by both.  The legend gives the
    sum of each set of bars.

    Parameters
    ----------
    counts : array_like, shape (K,)
        Counts ``N_vc`` of the ``K`` values in one class ``c`` (positive total ``N_c``).
    alpha : float
        Smoothing constant ``>= 0``.
    values : sequence of str, optional
        Names of the values (default ``"1"``, ..., ``"K"``).
    ax : matplotlib.axes.Axes or None
    title : str or None
    ymax : float, default 1.0
        Upper limit of the probability axis (fixed, so frames of an animation compare).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers[0]`` holds the categorical bars, ``ax.containers[1]`` the PoB bars.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_smoothed_estimates([3, 1, 0], 1.0)
    >>> [round(float(b.get_height()), 4) for b in ax.containers[1]]
    [0.6667, 0.3333, 0.1667]
    >>> plt.close(ax.figure)
    """
    alpha = check_alpha(alpha)
    N = as_real_array(counts, "counts")
    if N.ndim != 1 or N.size < 2 or N.sum() <= 0:
        raise ValueError(f"counts must be a 1-d array of K >= 2 counts with a positive total, "
                         f"got shape {N.shape} and total {float(N.sum())!r}")
    K = N.size
    names = [str(j + 1) for j in range(K)] if values is None else [str(v) for v in values]
    if len(names) != K:
        raise ValueError(f"values must name the {K} values, got {len(names)} names")
    theta, bits = lidstone(N, alpha), pob_bit_probabilities(N, alpha)
    ax = get_axes(ax, figsize=(6.0, 3.75))
    x = np.arange(K)
    ax.bar(x - 0.2, theta, width=0.4, color=_PALETTE[0],
           label=rf"categorical $\theta_{{vc}}$ (sum {theta.sum():.3f})")
    ax.bar(x + 0.2, bits, width=0.4, color=_PALETTE[1],
           label=rf"PoB bit probabilities $\tilde\theta_{{vc}}$ (sum {bits.sum():.3f})")
    ax.plot(x, N / N.sum(), ls="none", marker="D", color=COLORS["black"], ms=5, clip_on=False,
            zorder=3, label="maximum likelihood $N_{vc} / N_c$")
    ax.set_xticks(x, names)
    ax.set_ylim(0, ymax)
    ax.set_xlabel("value $v$")
    ax.set_ylabel("estimated probability")
    ax.legend(fontsize=8, loc="upper right")
    if title:
        ax.set_title(title)
    return ax


def plot_smoothing_path(alphas, curves, *, ylabel: str, best=None, ax=None,
                        title: str | None = None):
    """A score of each model against the smoothing constant ``α`` (log axis).

    Parameters
    ----------
    alphas : array_like, shape (m,)
        Grid of ``α``, all ``> 0`` (the axis is logarithmic).
    curves : mapping of str to array_like, shape (m,)
        One score per model and ``α``, e.g. the out-of-fold log loss of
        :func:`nbcourse.model_selection.cross_validate_alpha`.
    ylabel : str
    best : mapping of str to float, optional
        For some curves, an ``α`` of the grid to mark with a ring (the chosen ``α``).
    ax : matplotlib.axes.Axes or None
    title : str or None

    Returns
    -------
    matplotlib.axes.Axes
        One line per curve, in order, then one ring per entry of ``best``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_smoothing_path([0.1, 1, 10], {"a": [0.5, 0.4, 0.6]}, ylabel="log loss",
    ...                          best={"a": 1})
    >>> ax.lines[1].get_xdata().tolist()
    [1.0]
    >>> plt.close(ax.figure)
    """
    grid = as_real_array(alphas, "alphas")
    if grid.ndim != 1 or grid.size == 0 or not (np.isfinite(grid).all() and (grid > 0).all()):
        raise ValueError(f"alphas must be a non-empty 1-d array of finite numbers > 0, got {grid!r:.80}")
    ax = get_axes(ax)
    colour = {}
    for i, (name, values) in enumerate(curves.items()):
        y = as_real_array(values, f"curves[{name!r}]")
        if y.shape != grid.shape:
            raise ValueError(f"curves[{name!r}] must have shape {grid.shape} like alphas, "
                             f"got shape {y.shape}")
        colour[name] = _PALETTE[i % len(_PALETTE)]
        ax.plot(grid, y, color=colour[name], marker="o", ms=4, label=name)
    for name, a in (best or {}).items():
        if name not in colour:
            raise ValueError(f"best must name curves of {list(curves)}, got {name!r}")
        k = np.flatnonzero(np.isclose(grid, a))
        if k.size == 0:
            raise ValueError(f"best[{name!r}] must be an alpha of the grid, got {a!r}")
        y = as_real_array(curves[name], "curves")[k[0]]
        ax.plot([grid[k[0]]], [y], ls="none", marker="o", ms=12, mfc="none", mew=2,
                color=colour[name])
    ax.set_xscale("log")
    ax.set_xlabel(r"smoothing $\alpha$ (log scale)")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    if title:
        ax.set_title(title)
    return ax
