"""Shared fixtures: the project root and the built HTML book."""

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tools.build_book import toc_documents

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def book_config():
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def toc_files():
    """The book's documents in table-of-contents order, as paths without suffix."""
    return toc_documents(ROOT / "_toc.yml")


@pytest.fixture(scope="session")
def built_book():
    """The ``_build/html`` folder, built now if ``make book`` has not built it."""
    if not (HTML / "index.html").exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "build_book.py")], cwd=ROOT,
                       check=True)
    return HTML


def pytest_terminal_summary(terminalreporter):
    """Say where the browser tests left their screenshots, so a person can look."""
    shots = HTML.parent / "screenshots"
    if shots.is_dir() and any(shots.glob("*.png")):
        count = len(list(shots.glob("*.png")))
        terminalreporter.write_line(f"browser screenshots ({count} pages): {shots}")
