"""The shared look of the book's figures.

Figures are drawn on an opaque white background so that they stay readable when the
book is switched to its dark theme, and with a colour-blind-safe palette (Okabe & Ito).
"""

import matplotlib.pyplot as plt

__all__ = ["COLORS", "get_axes"]

COLORS = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
    "grey": "#7F7F7F",
}
"""Named colours of the Okabe-Ito palette used throughout the book."""


def get_axes(ax=None, *, figsize=(5.5, 4.0), projection=None):
    """Return ``ax`` if given, else the Axes of a new white-backed figure.

    Parameters
    ----------
    ax : matplotlib.axes.Axes or None
        Axes to draw into.  ``None`` creates a new figure.
    figsize : tuple of float
        Size in inches of a new figure.
    projection : str or None
        Passed to ``add_subplot`` for a new figure (for example ``"3d"``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = get_axes()
    >>> ax.figure.get_facecolor()
    (1.0, 1.0, 1.0, 1.0)
    >>> plt.close(ax.figure)
    """
    if ax is not None:
        return ax
    fig = plt.figure(figsize=figsize, facecolor="white", layout="constrained")
    return fig.add_subplot(projection=projection)
