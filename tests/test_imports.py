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
