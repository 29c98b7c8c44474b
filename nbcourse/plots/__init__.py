"""Figure functions for the book.

Every function takes ``ax=None`` (it draws into ``ax`` when given, otherwise into a new
figure) and returns the Axes it drew on, so tests can inspect it and exercises reuse it.
``duda.py`` holds Part I's figures and ``realdata.py`` those of its real-data chapter;
``williams.py`` holds Part II's, ``smoothing.py`` and ``sklearn.py`` those of its estimation
and scikit-learn chapters; ``text.py`` those of Part III's text chapter; ``style.py`` the
shared look.
"""

from . import duda, realdata, sklearn, smoothing, style, text, williams
from .duda import *  # noqa: F403  (re-exports duda.__all__)
from .realdata import *  # noqa: F403
from .sklearn import *  # noqa: F403
from .smoothing import *  # noqa: F403
from .style import *  # noqa: F403
from .text import *  # noqa: F403
from .williams import *  # noqa: F403

__all__ = [*style.__all__, *duda.__all__, *realdata.__all__, *williams.__all__,
           *smoothing.__all__, *sklearn.__all__, *text.__all__]
