"""Figure functions for the book.

Every function takes ``ax=None`` (it draws into ``ax`` when given, otherwise into a new
figure) and returns the Axes it drew on, so tests can inspect it and exercises reuse it.
``duda.py`` holds Part I's figures, ``williams.py`` Part II's; ``style.py`` the shared look.
"""

from .style import COLORS, get_axes

__all__ = ["COLORS", "get_axes"]

# --- duda.py: Part I figures ---

# --- williams.py: Part II figures ---
