"""The book's build: Sphinx extensions and the commands the Makefile runs.

Extensions (loaded by Jupyter Book from ``_config.yml``): ``bookext`` (page assets, titles,
accessible markup, code highlighting), ``bookmath`` (mathematics typeset by KaTeX at build
time), ``bookcss`` (one purged stylesheet), ``printbook`` (the PDF edition) and
``studentnb`` (the student notebooks).  Commands, run from the repository root as
``python -m tools.<name>``: ``build_book`` (HTML book and PDF), ``build_student_tree`` (the
tree students open) and ``run_notebooks`` (re-execute notebooks in place).
"""
