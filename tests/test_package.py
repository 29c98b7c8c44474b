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
