"""How many cells a table of discrete features has, and how many a sample leaves empty
(Duda, Hart & Stork 2001, §2.9; Part I ch. 1).

Every function takes ``ax=None`` (drawing into ``ax`` when given, otherwise into a new
white-backed figure) and returns the Axes it drew on.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from .._validation import as_real_array, check_ndim
from ..sampling import expected_empty_cells, n_feature_vectors, n_parameters_naive
from .style import (
    SERIES_COLORS,
    get_axes,
)

__all__ = [
    "plot_empty_cells",
    "plot_table_growth",
]


def plot_table_growth(d_max=20, values=(2, 3, 5), *, ax=None):
    """Number of feature vectors ``V = v^d`` against ``d``, beside the naive Bayes count.

    Solid lines: ``V = prod_j V_j`` for ``d`` features that each take ``v`` values
    (the size of a full table ``P(x | omega)``).  Dashed lines: the ``d (v - 1)``
    free parameters per class of a naive Bayes model (Duda, Hart & Stork 2001,
    §2.9: ``O(V)`` against ``O(d V_bar)``).  Logarithmic y axis.

    Parameters
    ----------
    d_max : int, default 20
        Largest number of features; ``d`` runs over ``1 .. d_max``.
    values : sequence of int, default (2, 3, 5)
        Values per feature, one pair of lines each.
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        Lines ``2k`` (table size) and ``2k + 1`` (naive count) belong to ``values[k]``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_table_growth(10, (2, 3))
    >>> len(ax.lines), float(ax.lines[0].get_ydata()[-1])
    (4, 1024.0)
    >>> plt.close(ax.figure)
    """
    if isinstance(d_max, bool) or not isinstance(d_max, int | np.integer) or d_max < 1:
        raise ValueError(f"d_max must be an integer >= 1, got {d_max!r}")
    ax = get_axes(ax)
    d = np.arange(1, int(d_max) + 1)
    for k, v in enumerate(values):
        color = SERIES_COLORS[k % len(SERIES_COLORS)]
        V = [float(n_feature_vectors([v] * int(n))) for n in d]
        naive = [float(n_parameters_naive([v] * int(n), n_classes=1)) for n in d]
        ax.plot(d, V, "-o", ms=3, color=color, label=f"$V = {v}^d$ feature vectors")
        ax.plot(d, naive, "--", color=color, label=f"naive Bayes: $d\\,({v}-1)$ parameters")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("number of features $d$")
    ax.set_ylabel("count (log scale)")
    ax.set_title("Full table versus naive Bayes")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small")
    return ax


def plot_empty_cells(N, empty_fraction, n_cells, *, labels=None, ax=None):
    """Fraction of the ``V`` cells that a sample of size ``N`` leaves empty.

    Markers: simulated fractions (one row per ``V``).  Lines: the uniform-sampling
    expectation ``(1 - 1/V)^N`` from :func:`nbcourse.sampling.expected_empty_cells`
    on a fine grid of ``N``.  Logarithmic x axis.

    Parameters
    ----------
    N : array_like of int, shape (m,)
        Sample sizes (``>= 1``).
    empty_fraction : array_like, shape (k, m)
        Simulated fraction of empty cells for each ``n_cells[i]`` and ``N[j]``.
    n_cells : array_like, shape (k,)
        Number of cells ``V`` of each row.
    labels : sequence of str or None
        Legend text per row (default ``"V = ..."``).
    ax : matplotlib.axes.Axes or None

    Returns
    -------
    matplotlib.axes.Axes
        For row ``i``: line ``2i`` holds the simulated markers, line ``2i + 1``
        the expectation.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_empty_cells([1, 10], [[0.5, 0.01]], [2])
    >>> [len(line.get_xdata()) for line in ax.lines][0]
    2
    >>> plt.close(ax.figure)
    """
    n = as_real_array(N, "N")
    check_ndim(n, 1, "N")
    frac = np.atleast_2d(as_real_array(empty_fraction, "empty_fraction"))
    V = np.atleast_1d(as_real_array(n_cells, "n_cells"))
    if frac.shape != (V.size, n.size):
        raise ValueError(
            f"empty_fraction must have shape (len(n_cells), len(N)) = ({V.size}, {n.size}), "
            f"got {frac.shape}"
        )
    if (n < 1).any():
        raise ValueError(f"N must contain sample sizes >= 1, got {n.tolist()}")
    ax = get_axes(ax)
    grid = np.geomspace(n.min(), n.max(), 200)
    for i, v in enumerate(V):
        color = SERIES_COLORS[i % len(SERIES_COLORS)]
        label = labels[i] if labels is not None else f"$V = {v:,.0f}$"
        ax.plot(n, frac[i], "o", color=color, label=label)
        ax.plot(grid, expected_empty_cells(v, grid) / v, "-", color=color, lw=1,
                label="_nolegend_")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("sample size $N$ (log scale)")
    ax.set_ylabel("fraction of cells never seen")
    ax.set_title("Empty cells: simulated (dots) and $(1 - 1/V)^N$ (lines)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    return ax
