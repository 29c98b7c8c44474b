"""`make refresh` is deterministic: re-executing a notebook twice gives the same bytes."""

import shutil
import subprocess
import sys

import pytest

from conftest import ROOT


def refresh(*notebooks):
    """``make refresh`` on ``notebooks``, with this interpreter's environment."""
    return subprocess.run(["make", "--no-print-directory", "-s", "-o", f"{sys.prefix}/.installed",
                           "refresh", f"VENV={sys.prefix}",
                           f"NOTEBOOKS={' '.join(map(str, notebooks))}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["part1/04_explore_binary_discriminant.ipynb",
                                  "part2/02_q_minus_j.ipynb"])
@pytest.mark.notebooks
def test_second_refresh_changes_nothing(tmp_path, name):
    copy = tmp_path / "nb.ipynb"
    shutil.copy(ROOT / "book" / name, copy)
    snapshots = []
    for _ in range(2):
        done = refresh(copy)
        assert done.returncode == 0, done.stderr[-3000:]
        snapshots.append(copy.read_bytes())
    assert snapshots[0] == snapshots[1]
    assert b"application/vnd.jupyter.widget-view+json" not in snapshots[1]
    assert b'"execution": {' not in snapshots[1], "timing recorded"


@pytest.mark.notebooks
def test_refresh_names_the_failing_notebook_and_cell(tmp_path):
    nb = tmp_path / "broken.ipynb"
    nb.write_text('{"cells": [{"cell_type": "code", "execution_count": null, "id": "a",'
                  ' "metadata": {}, "outputs": [], "source": ["1 + 1"]},'
                  ' {"cell_type": "code", "execution_count": null, "id": "b", "metadata": {},'
                  ' "outputs": [], "source": ["1 / 0"]}],'
                  ' "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",'
                  ' "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}')
    before = nb.read_bytes()
    done = refresh(nb)
    assert done.returncode != 0
    assert "broken.ipynb" in done.stderr and "ZeroDivisionError" in done.stderr
    assert "1 / 0" in done.stderr, "the failing cell's source"
    assert nb.read_bytes() == before, "a failed run leaves the notebook as it was"
