"""Figure functions for the book.

Every function takes ``ax=None`` (it draws into ``ax`` when given, otherwise into a new
figure) and returns the Axes it drew on, so tests can inspect it and exercises reuse it.
``duda.py`` holds Part I's figures, ``williams.py`` Part II's; ``style.py`` the shared look.
"""

from . import duda, style, williams
from .duda import *  # noqa: F403  (re-exports duda.__all__)
from .sklearn import plot_posterior_pairs  # noqa: F401  (the scikit-learn chapter's figure)
from .smoothing import plot_smoothed_estimates, plot_smoothing_path  # noqa: F401  (chapter on smoothing)
from .style import *  # noqa: F403
from .williams import *  # noqa: F403

__all__ = [*style.__all__, *duda.__all__, *williams.__all__]
