"""The shared look of the book's figures.

Figures are drawn on an opaque white background so that they stay readable when the
book is switched to its dark theme, and with a colour-blind-safe palette (Okabe & Ito).
"""

import matplotlib.pyplot as plt

__all__ = ["AGREE_COLOR", "CLASS_COLORS", "CLASS_MARKERS", "COLORS", "DISAGREE_COLOR",
           "SERIES_COLORS", "get_axes", "label_axes"]

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

#: Colour of class ``c`` (0-based) on every figure that tells classes apart.
CLASS_COLORS = [COLORS["blue"], COLORS["orange"], COLORS["green"], COLORS["purple"],
                COLORS["vermillion"], COLORS["sky"]]
#: Marker of class ``c`` (0-based), so that classes differ in shape as well as colour.
CLASS_MARKERS = ["o", "s", "^", "D", "v", "P"]
#: Colours of successive curves of one figure.
SERIES_COLORS = [COLORS["blue"], COLORS["vermillion"], COLORS["green"], COLORS["purple"],
                 COLORS["orange"], COLORS["sky"]]
#: Colour of points where the categorical and the product-of-Bernoullis models agree.
AGREE_COLOR = COLORS["blue"]
#: Colour of points where they disagree.
DISAGREE_COLOR = COLORS["vermillion"]


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


def label_axes(ax, xlabel, ylabel, title=None):
    """Set the axis labels (and the title, when given) of ``ax`` and return it.

    Examples
    --------
    >>> ax = label_axes(get_axes(), "x", "y", "a title")
    >>> ax.get_xlabel(), ax.get_ylabel(), ax.get_title()
    ('x', 'y', 'a title')
    >>> plt.close(ax.figure)
    """
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax
