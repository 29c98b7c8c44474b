"""The package root: lazy re-exports of every module's ``__all__``."""

import subprocess
import sys

import pytest

import nbcourse

HEAVY = ("sklearn", "scipy", "matplotlib")


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in out.stdout.split()}


@pytest.mark.parametrize("statement", [
    "import nbcourse",
    "from nbcourse.grading import check",
    "import nbcourse.grading",
])
def test_grading_and_the_root_load_without_heavy_libraries(statement):
    loaded = _modules_after(statement)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_probing_private_names_imports_nothing():
    loaded = _modules_after("import nbcourse; hasattr(nbcourse, '__wrapped__')")
    assert not loaded & set(HEAVY)


def test_a_light_module_stays_light():
    loaded = _modules_after("from nbcourse.bounds import q_minus_j")
    assert not loaded & {"sklearn", "matplotlib"}


def test_every_module_all_is_reexported_once():
    import importlib

    seen = {}
    for name in nbcourse.MODULES:
        module = importlib.import_module(f"nbcourse.{name}")
        for public in module.__all__:
            assert public not in seen, f"{public} exported by {seen.get(public)} and {name}"
            seen[public] = name
            assert getattr(nbcourse, public) is getattr(module, public)
    assert set(nbcourse.__all__) == set(seen) | {"__version__"}


def test_every_figure_module_all_is_reexported_once():
    import importlib
    import pkgutil

    import nbcourse.plots as plots

    seen = {}
    for info in pkgutil.iter_modules(plots.__path__):
        module = importlib.import_module(f"nbcourse.plots.{info.name}")
        for public in module.__all__:
            assert public not in seen, f"{public} exported by {seen.get(public)} and {info.name}"
            seen[public] = info.name
            assert getattr(plots, public) is getattr(module, public), public
    assert set(plots.__all__) == set(seen)


def test_unknown_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        nbcourse.no_such_name  # noqa: B018
    assert nbcourse.plots.plot_bounds is not None


BUILD_ONLY = ("sphinx", "docutils", "nbcourse_book", "jupyter_book", "sphinx_exercise", "sphinxcontrib")
"""What only the book's build imports (the chapters call myst_nb.glue, which students install)."""


def imported_modules(path):
    """The top-level names of the modules a Python file imports."""
    import ast

    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_what_students_install_holds_no_build_code():
    """The package the root pyproject.toml installs (in the student tree too) is nbcourse
    alone, and none of its modules imports the book's build or Sphinx."""
    import tomllib
    from pathlib import Path

    from setuptools import find_packages

    root = Path(__file__).resolve().parents[1]
    found = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"]["packages"]["find"]
    packages = find_packages(str(root), include=found["include"])
    assert packages and all(p == "nbcourse" or p.startswith("nbcourse.") for p in packages), \
        packages
    offenders = {path.relative_to(root).as_posix(): sorted(imported_modules(path) & set(BUILD_ONLY))
                 for path in (root / "nbcourse").rglob("*.py")
                 if imported_modules(path) & set(BUILD_ONLY)}
    assert not offenders, f"modules students install that import build code: {offenders}"
