"""Sphinx extension for the print edition (the LaTeX/PDF build) and the solutions page.

- LaTeX class: sphinx-jupyterbook-latex sets ``latex_theme = "jupyterBook"``, whose class loads
  ``bbm.sty`` (Debian's 1.4 GB ``texlive-fonts-extra``).  The book uses the class
  ``tools/latex/nbcoursebook.cls`` instead, which keeps the code-cell environments and needs
  only the TeX packages listed in the README.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
LATEX_CLASS = HERE / "latex" / "nbcoursebook.cls"


def use_book_class(app, config):
    """Run after sphinx-jupyterbook-latex's own ``config-inited`` handler."""
    config.latex_theme = LATEX_CLASS.stem
    files = list(config.latex_additional_files)
    if str(LATEX_CLASS) not in files:
        files.append(str(LATEX_CLASS))
    config.latex_additional_files = files


def setup(app):
    app.connect("config-inited", use_book_class, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
