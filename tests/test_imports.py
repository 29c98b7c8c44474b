"""The library's modules import each other without a circle, lazy imports included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "nbcourse"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path) -> set[str]:
    """Modules of nbcourse that ``path`` imports anywhere in its body (functions included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "nbcourse"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.split(".")[0] != "nbcourse":
                continue
            for alias in node.names:
                # `from . import probe` imports the module nbcourse.grading.probe;
                # `from .assignment import RUBRIC` imports the module nbcourse.grading.assignment
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in MODULES else target)
    return found


def graph() -> dict[str, set[str]]:
    return {name: {t for t in imports_of(path) if t in MODULES and t != name}
            for name, path in MODULES.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_walk_finds_a_circle_where_there_is_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_relative_imports_resolve_to_modules_of_the_package():
    edges = graph()
    assert "nbcourse._validation" in edges["nbcourse.naive_bayes"]
    assert "nbcourse.grading.assignment" in edges["nbcourse.grading.check"]
    assert "nbcourse.grading.probe" in edges["nbcourse.grading.grader"]  # `from . import probe`
    assert "nbcourse.grading" not in edges["nbcourse.grading.grader"]
    assert "nbcourse.grading.check" in edges["nbcourse.grading.grader"]  # inside a function


def test_the_library_has_no_import_circle():
    # every edge counts, a package's own imports of its submodules included: a submodule that
    # imports a name from its package runs the package's __init__, which imports the submodules
    found = circles(graph())
    assert not found, f"modules that import each other, directly or in a circle: {found}"


# --- tests take only public names from the library ------------------------------------------

TESTS = Path(__file__).resolve().parent


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _declared(module: str) -> set[str] | None:
    """The names in ``module``'s ``__all__``, read from its source; None if it has none."""
    path = MODULES.get(module)
    if path is None:
        return None
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                 for t in node.targets)):
            return set(ast.literal_eval(node.value))
    return None


def private_uses(source: str) -> list[str]:
    """Where ``source`` takes a private name from nbcourse: an underscore name imported;
    an underscore attribute of something imported from nbcourse, read or given by name to
    ``setattr`` and the like; a dotted ``"nbcourse...._name"`` given to ``setattr``; or,
    from a module whose name starts with an underscore, a name outside its ``__all__``."""
    tree = ast.parse(source)
    bound, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "nbcourse":
                    bound.add(alias.asname or alias.name.split(".")[0])
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                node.module.split(".")[0] == "nbcourse"):
            private_module = any(_private(part) for part in node.module.split("."))
            public = _declared(node.module) if private_module else None
            for alias in node.names:
                bound.add(alias.asname or alias.name)
                if _private(alias.name) or (private_module and alias.name not in (public or ())):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in bound):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        elif (isinstance(node, ast.Call) and len(node.args) >= 2
              and isinstance(node.args[0], ast.Name) and node.args[0].id in bound
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _private(node.args[1].value)):
            found.append(f"line {node.lineno}: {node.args[0].id}, {node.args[1].value!r}")
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("setattr", "delattr")
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and node.args[0].value.split(".")[0] == "nbcourse"
              and any(_private(p) for p in node.args[0].value.split("."))):
            found.append(f"line {node.lineno}: {node.args[0].value!r}")
    return sorted(found, key=lambda where: int(where.split()[1].rstrip(":")))


def test_the_check_finds_private_names_taken_from_the_library():
    source = ("from nbcourse.grading.batch import _readline, grade_batch\n"
              "from nbcourse.grading import sandbox\n"
              "import nbcourse.grading._kernel\n"
              "from nbcourse._validation import check_alpha, _describe\n"
              "from nbcourse.__main__ import main\n"
              "sandbox._python_binds()\n"
              "monkeypatch.setattr(sandbox, '_python_binds', list)\n"
              "monkeypatch.setattr('nbcourse.grading.sandbox._own_cgroups', dict)\n"
              "grade_batch.__name__, sandbox.Sandbox, check_alpha\n")
    assert private_uses(source) == [
        "line 1: from nbcourse.grading.batch import _readline",
        "line 3: import nbcourse.grading._kernel",
        "line 4: from nbcourse._validation import _describe",
        "line 6: sandbox._python_binds",
        "line 7: sandbox, '_python_binds'",
        "line 8: 'nbcourse.grading.sandbox._own_cgroups'",
    ]


def test_tests_take_only_public_names_from_the_library():
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        uses = private_uses(path.read_text(encoding="utf-8"))
        if uses:
            found[str(path.relative_to(TESTS))] = uses
    assert not found, f"tests that take private names from nbcourse: {found}"
