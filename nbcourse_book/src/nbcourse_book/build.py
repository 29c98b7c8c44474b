"""Build the book with Sphinx warnings treated as errors: ``python -m tools.build_book``.

``--builder html`` (the default) writes the HTML book into ``_build/html``; ``--builder
pdflatex`` the PDF edition into ``_build/latex``.  The student notebooks are built through
the same entry (:func:`jupyter_book`, by ``tools.build_student_tree``).  Before calling
Jupyter Book, the table of contents is checked so that a broken entry fails with the file
name and line instead of a traceback.  Notebooks are rendered from their stored outputs
(``execute_notebooks: off`` in _config.yml).
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

import yaml
from sphinx_external_toc.parsing import MalformedError, parse_toc_yaml

ROOT = Path.cwd()  # the book: the commands run from the repository root
TOC = ROOT / "_toc.yml"
SUFFIXES = (".ipynb", ".md")
JUPYTER_BOOK_BUILDERS = ("html", "dirhtml", "singlehtml", "pdfhtml", "latex", "pdflatex",
                         "linkcheck")


def toc_documents(toc_path: Path = TOC) -> list[str]:
    """The documents of the table of contents in reading order, as paths without suffix.

    Read by sphinx-external-toc's parser, the one Jupyter Book builds the book with.
    """
    return list(parse_toc_yaml(toc_path))


def toc_problems(toc_path: Path = TOC) -> list[str]:
    """Return a list of messages, one per missing or unparsable _toc.yml entry."""
    try:
        documents = toc_documents(toc_path)
    except (yaml.YAMLError, MalformedError) as err:
        return [f"{toc_path.name}: not a table of contents Jupyter Book reads: {err}"]
    lines = toc_path.read_text(encoding="utf-8").splitlines()
    problems = []
    for entry in documents:
        base = ROOT / entry
        candidates = [base.with_name(base.name + s) for s in SUFFIXES]
        if not any(c.is_file() for c in candidates):
            lineno = next((i for i, line in enumerate(lines, 1) if entry in line), "?")
            problems.append(f"{toc_path.name}:{lineno}: entry '{entry}' names no file "
                            f"(looked for {', '.join(c.relative_to(ROOT).as_posix() for c in candidates)})")
    return problems


def jupyter_book(builder: str = "html", *options: str, root: Path = ROOT) -> list[str]:
    """The ``jupyter-book build`` command for ``builder``, warnings as errors.

    ``builder`` is one of Jupyter Book's builders (``html``, ``pdflatex``) or the name of a
    Sphinx builder that an extension of the book registers (``studentnb``).
    """
    named = (["--builder", builder] if builder in JUPYTER_BOOK_BUILDERS
             else ["--builder", "custom", "--custom-builder", builder])
    return [str(Path(sys.executable).parent / "jupyter-book"), "build", str(root), *named,
            *options, "-W", "-n", "--keep-going"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builder", default="html", choices=["html", "pdflatex"],
                        help="html: the HTML book (default); pdflatex: the PDF edition")
    args = parser.parse_args(argv)
    problems = toc_problems(TOC)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    start = time.perf_counter()
    code = subprocess.call(jupyter_book(args.builder), cwd=ROOT)
    print(f"book build ({args.builder}): exit {code} in {time.perf_counter() - start:.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())
