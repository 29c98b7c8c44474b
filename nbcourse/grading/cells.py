"""The cells of an untrusted notebook, read with bounded memory.

A notebook of a few megabytes can hold millions of tiny JSON values (``[[],[],...]`` in its
metadata or a cell's outputs): parsed whole by :func:`json.loads` it takes hundreds of
megabytes. The grader needs only each cell's type, id and source. :func:`read_cells`
parses a notebook of at most ``IN_PROCESS_BYTES`` here (JSON takes at most some 32 bytes of
objects per byte of text, so at most some 40 MiB); a larger one in a process of its own
(``python -I -S``: the standard library only) whose address space and processor time are
capped, and which sends back those fields alone: a line of JSON naming each cell's type,
id and the length of its source, then the sources' UTF-8 bytes. A notebook that does not
fit is refused, with a reason, as one that is not JSON is.
"""

from __future__ import annotations

import json
import subprocess
import sys

from .files import MAX_NOTEBOOK_BYTES, NotebookError, clip, read_regular_file

__all__ = ["IN_PROCESS_BYTES", "MAX_CELLS", "PARSE_MB", "read_cells"]

PARSE_MB = 192  # the parsing process's address space beyond what it holds at its start
PARSE_SECONDS = 60  # its processor time
MAX_CELLS = 10_000
IN_PROCESS_BYTES = 1024 * 1024

# ``parse`` is run here for a small notebook; run as ``python -I -S -c PARSER CONFIG`` with
# the notebook on standard input, the whole text caps its memory and processor time first
PARSER = r"""
import json, sys


def parse(data, config):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return {"error": f"notebook is not UTF-8 text (byte {exc.start})"}, []
    del data
    try:
        nb = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return {"error": f"notebook is not valid JSON ({str(exc)[:120]})"}, []
    except MemoryError:
        return {"error": None}, []
    del text
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return {"error": "notebook has no list of cells (expected nbformat 4)"}, []
    if nb.get("nbformat") != 4:
        return {"nbformat": repr(nb.get("nbformat"))[:200]}, []
    if len(nb["cells"]) > config["max_cells"]:
        return {"error": f"notebook has {len(nb['cells'])} cells, more than "
                         f"{config['max_cells']}"}, []
    head, sources = [], []
    for cell in nb["cells"]:
        if not isinstance(cell, dict):
            head.append(None)
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else None
        kind, name = cell.get("cell_type"), cell.get("id")
        head.append([kind if isinstance(kind, str) else None,
                     name if isinstance(name, str) else None, -1 if data is None else len(data)])
        if data is not None:
            sources.append(data)
    return {"cells": head}, sources


if __name__ == "__main__":
    import resource

    config = json.loads(sys.argv[1])
    with open("/proc/self/status") as f:
        size = next(int(line.split()[1]) for line in f if line.startswith("VmSize:")) * 1024
    memory = size + config["memory_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (config["seconds"], config["seconds"] + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    head, sources = parse(sys.stdin.buffer.read(), config)
    out = sys.stdout.buffer
    out.write(json.dumps(head).encode() + b"\n")
    for data in sources:
        out.write(data)
"""
_HERE: dict = {"__name__": "nbcourse_cells"}
exec(compile(PARSER, "<nbcourse cells parser>", "exec"), _HERE)


def read_cells(path):
    """The cells of the nbformat 4 notebook at ``path``, each ``{"cell_type", "id",
    "source"}`` (a value that is not a string, or a source that is neither a string nor a
    list of strings, is None) or None where the cell is not a JSON object.

    Raises
    ------
    NotebookError
        If the notebook is not a regular file within the size cap, not UTF-8, not JSON,
        not nbformat 4, has more than ``MAX_CELLS`` cells, or takes more than ``PARSE_MB``
        MiB to parse.
    """
    raw = read_regular_file(path, MAX_NOTEBOOK_BYTES)
    config = {"memory_mb": PARSE_MB, "seconds": PARSE_SECONDS, "max_cells": MAX_CELLS}
    if len(raw) <= IN_PROCESS_BYTES:
        head, sources = _HERE["parse"](raw, config)
        return _cells(head, memoryview(b"".join(sources)))
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", PARSER, json.dumps(config)],
                              input=raw, capture_output=True, env={}, cwd="/",
                              timeout=PARSE_SECONDS * 2, check=False)
    except subprocess.TimeoutExpired:
        raise NotebookError("notebook took too long to read") from None
    del raw
    head, _, body = done.stdout.partition(b"\n")
    try:
        head = json.loads(head) if done.returncode == 0 else {"error": None}
    except ValueError:
        head = {"error": None}
    return _cells(head, memoryview(body))


def _cells(head, body):
    """The cells :func:`read_cells` returns, from the parser's ``head`` and the sources'
    bytes one after another in ``body``."""
    if "nbformat" in head:
        raise NotebookError(f"expected nbformat 4, got {clip(head['nbformat'], 60)}")
    if "error" in head or not isinstance(head.get("cells"), list):
        raise NotebookError(head.get("error") or f"notebook is too complex to read (its "
                                                  f"structure takes more than {PARSE_MB} MiB)")
    cells, at = [], 0
    for entry in head["cells"]:
        if entry is None:
            cells.append(None)
            continue
        kind, name, size = entry
        source = None
        if size >= 0:
            source = str(body[at:at + size], "utf-8", "surrogatepass")
            at += size
        cells.append({"cell_type": kind, "id": name, "source": source})
    return cells
