"""Build the HTML book into ``_build/html`` with Sphinx warnings treated as errors.

Before calling Jupyter Book, the table of contents is checked so that a broken
entry fails with the file name and line instead of a traceback.  Notebooks are
rendered from their stored outputs (``execute_notebooks: off`` in _config.yml).
"""

import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".ipynb", ".md")


def toc_entries(node):
    """Yield every ``file:``/``root:`` value in a parsed _toc.yml."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in {"file", "root"} and isinstance(value, str):
                yield value
            else:
                yield from toc_entries(value)
    elif isinstance(node, list):
        for item in node:
            yield from toc_entries(item)


def toc_problems(toc_path):
    """Return a list of messages, one per missing or unparsable _toc.yml entry."""
    try:
        toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        return [f"{toc_path.name}: not valid YAML: {err}"]
    if not isinstance(toc, dict) or "root" not in toc:
        return [f"{toc_path.name}: expected a mapping with a 'root' entry"]
    lines = toc_path.read_text(encoding="utf-8").splitlines()
    problems = []
    for entry in toc_entries(toc):
        base = ROOT / entry
        if base.suffix in SUFFIXES:
            candidates = [base]
        else:
            candidates = [base.with_name(base.name + s) for s in SUFFIXES]
        if not any(c.is_file() for c in candidates):
            lineno = next((i for i, line in enumerate(lines, 1) if entry in line), "?")
            problems.append(f"{toc_path.name}:{lineno}: entry '{entry}' names no file "
                            f"(looked for {', '.join(c.relative_to(ROOT).as_posix() for c in candidates)})")
    return problems


def main():
    problems = toc_problems(ROOT / "_toc.yml")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    start = time.perf_counter()
    cmd = [str(Path(sys.executable).parent / "jupyter-book"), "build", str(ROOT), "-W", "-n", "--keep-going"]
    code = subprocess.call(cmd, cwd=ROOT)
    print(f"book build: exit {code} in {time.perf_counter() - start:.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())
