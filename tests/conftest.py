"""Shared fixtures: the project root, the built HTML book, a local server for it and headless
Chromium."""

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml
from sphinx_external_toc.parsing import parse_toc_yaml

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
    return list(parse_toc_yaml(ROOT / "_toc.yml"))


@pytest.fixture(scope="session")
def built_book():
    """The ``_build/html`` folder, built now if ``make book`` has not built it."""
    if not (HTML / "index.html").exists():
        subprocess.run([sys.executable, "-m", "nbcourse_book.build", "html"], cwd=ROOT,
                       check=True)
    return HTML


SLIDES = ROOT / "_build" / "slides"


@pytest.fixture(scope="session")
def built_slides():
    """The ``_build/slides`` folder, built now if ``make slides`` has not built it."""
    if not (SLIDES / "index.html").exists():
        subprocess.run([sys.executable, "-m", "nbcourse_book.slides"], cwd=ROOT, check=True)
    return SLIDES


CHROMIUM = Path(os.environ.get("NBCOURSE_CHROMIUM", "/usr/bin/chromium"))
# Chromium's own connections to the network (updates, sync, QUIC) are off: the machine's
# closed network would refuse them and a page would seem to make requests it does not make
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def browser_missing(*modules):
    """Why headless Chromium (and ``modules``) cannot be used here, or None."""
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    for module in ("playwright.sync_api", *modules):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (make .venv/.installed installs it)"
    return None


def skip_or_fail_without_browser(*modules):
    """Skip the test where Chromium is missing, saying what to install; fail instead where
    the browser tests are required (``NBCOURSE_REQUIRE_BROWSER``, set by CI)."""
    reason = browser_missing(*modules)
    if reason:
        if os.environ.get("NBCOURSE_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests are required here but {reason}")
        pytest.skip(f"browser tests skipped: {reason}")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium, driven by Playwright."""
    skip_or_fail_without_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=BROWSER_ARGS)
        yield b
        b.close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(built_book):
    """The built book served on 127.0.0.1; its address."""
    handler = functools.partial(QuietHandler, directory=str(built_book))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def pytest_terminal_summary(terminalreporter):
    """Say where the browser tests left their screenshots, so a person can look."""
    shots = HTML.parent / "screenshots"
    if shots.is_dir() and any(shots.glob("*.png")):
        count = len(list(shots.glob("*.png")))
        terminalreporter.write_line(f"browser screenshots ({count} pages): {shots}")


# The fixtures that need more than Python, and the marker (pyproject.toml) each gives every test
# that uses it, directly or through another fixture: the tiers of the Makefile select on these.
NEEDS = {"built_book": "book", "built_slides": "book", "tree": "book", "level": "sandbox", "normal_user": "sandbox",
         "browser": "browser", "lab": "browser", "pdf": "tex", "latex_dir": "tex",
         "executed_notebook": "notebooks", "live_notebook": "notebooks"}


def pytest_collection_modifyitems(items):
    for item in items:
        for fixture in NEEDS.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(NEEDS[fixture])


@pytest.fixture(autouse=True)
def _a_sandbox_only_where_marked(request, monkeypatch):
    """A test that starts a grading sandbox in this process says so with the ``sandbox``
    marker, so that ``make check`` (which deselects those) needs nothing but Python."""
    if request.node.get_closest_marker("sandbox") is not None:
        return

    def refuse(self):
        pytest.fail(f"{request.node.nodeid} starts a grading sandbox: mark it "
                    "@pytest.mark.sandbox", pytrace=False)

    from nbcourse.grading import sandbox

    monkeypatch.setattr(sandbox.Sandbox, "launch", refuse)
