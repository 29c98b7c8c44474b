"""`make refresh` is deterministic: re-executing a notebook twice gives the same bytes."""

import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

RUNNER = "nbcourse_book.run_notebooks"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["part1/04_explore_binary_discriminant.ipynb",
                                  "part2/02_q_minus_j.ipynb"])
@pytest.mark.notebooks
def test_second_refresh_changes_nothing(tmp_path, name):
    copy = tmp_path / "nb.ipynb"
    shutil.copy(ROOT / "book" / name, copy)
    snapshots = []
    for _ in range(2):
        subprocess.run([sys.executable, "-m", RUNNER, "--inplace", str(copy)], check=True,
                       capture_output=True, timeout=300)
        snapshots.append(copy.read_bytes())
    assert snapshots[0] == snapshots[1]
    assert b"application/vnd.jupyter.widget-view+json" not in snapshots[1]


@pytest.mark.notebooks
def test_runner_names_the_failing_notebook_and_cell(tmp_path):
    nb = tmp_path / "broken.ipynb"
    nb.write_text('{"cells": [{"cell_type": "code", "execution_count": null, "id": "a",'
                  ' "metadata": {}, "outputs": [], "source": ["1 + 1"]},'
                  ' {"cell_type": "code", "execution_count": null, "id": "b", "metadata": {},'
                  ' "outputs": [], "source": ["1 / 0"]}],'
                  ' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    run = subprocess.run([sys.executable, "-m", RUNNER, str(nb)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 1
    assert "broken.ipynb" in run.stdout and "cell 1: ZeroDivisionError" in run.stdout
