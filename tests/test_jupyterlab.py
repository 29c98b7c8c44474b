"""The student tree as a student meets it: JupyterLab in headless Chromium, network off.

JupyterLab comes from the project's environment (``requirements-dev.txt``); nothing is installed
while the test runs.  The server listens on 127.0.0.1 with a token, in a temporary folder holding
the student tree (``nbcourse_book.student_tree``); the browser may reach only 127.0.0.1.  One
chapter with interactive figures and one student notebook are opened and run with "Run All
Cells", then checked: rendered Markdown carries no MyST source, exercises carry a note instead
of their solution, the live controls redraw their figure, the figure is still there when the
saved notebook is opened again without running it, and ``check("q1")`` prints its feedback.
Screenshots go to ``_build/screenshots/jupyterlab`` for a person to look at.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import BROWSER_ARGS, CHROMIUM, skip_or_fail_without_browser
from nbcourse_book import build as bst

ROOT = Path(__file__).resolve().parent.parent

SHOTS = ROOT / "_build" / "screenshots" / "jupyterlab"
CHAPTER = "book/part1/04_explore_binary_discriminant.ipynb"
ASSIGNMENT = "exercises/02-binary-discriminant/02-binary-discriminant.ipynb"
ARGS = [*BROWSER_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
MYST_LEFT = ("{glue", "```{", ":::{", "{doc}", "{eq}", "{numref}", "{cite", "{prf:",
             "{assignment}", ":label:", ":class: dropdown")

pytestmark = [pytest.mark.slow, pytest.mark.browser]

# Lab settings for a quiet, complete page: every cell stays in the DOM (no windowing), and
# nothing asks the network for news or updates.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    skip_or_fail_without_browser("jupyterlab")
    base = tmp_path_factory.mktemp("lab")
    tree = bst.build_student_tree(base / "student", ROOT)
    settings = base / "settings"
    for name, value in SETTINGS.items():
        (settings / name).parent.mkdir(parents=True, exist_ok=True)
        (settings / name).write_text(json.dumps(value))
    env = {**os.environ, "HOME": str(base / "home"), "JUPYTER_CONFIG_DIR": str(base / "config"),
           "JUPYTER_RUNTIME_DIR": str(base / "runtime"), "JUPYTERLAB_SETTINGS_DIR": str(settings),
           "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
           "PYTHONPATH": ""}
    env.pop("NBCOURSE_FIGURES", None)  # live figures, as a student's kernel shows them
    token, port = secrets.token_hex(16), _free_port()
    log = (base / "lab.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--ServerApp.root_dir={tree}", f"--IdentityProvider.token={token}",
         "--ServerApp.open_browser=False", "--LabApp.news_url=", "--ServerApp.port_retries=0",
         "--LabApp.extension_manager=readonly",
         *(["--allow-root"] if os.geteuid() == 0 else [])],
        cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"JupyterLab did not start:\n{(base / 'lab.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield url, token, tree
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright

    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


class Notebook:
    """A notebook opened in JupyterLab in a fresh browser context that may reach only 127.0.0.1."""

    def __init__(self, browser, lab, path):
        url, token, _ = lab
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.blocked = []
        self.context.route("**/*", self._only_local)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)
        # ?reset: a clean workspace, so the tab of an earlier test is not restored here
        self.page.goto(f"{url}/lab/tree/{path}?reset&token={token}")
        self.page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        self.page.wait_for_function(
            "() => { const cells = [...document.querySelectorAll('.jp-MarkdownCell')];"
            " return cells.length > 0 && cells.every(c => {"
            " const r = c.querySelector('.jp-RenderedMarkdown');"
            " return r && r.textContent.trim().length > 0; }); }", timeout=60_000)
        self.wait_idle(timeout=90)

    def _only_local(self, route):
        host = re.match(r"^[a-z]+://([^/:]+)", route.request.url)
        if host and host.group(1) != "127.0.0.1":
            self.blocked.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    def status(self) -> str:
        return self.page.evaluate(
            "() => { const e = document.querySelector('.jp-Notebook-ExecutionIndicator');"
            " return e ? (e.getAttribute('data-status') || '') : ''; }")

    def wait_idle(self, timeout: float) -> None:
        deadline, calm = time.monotonic() + timeout, 0
        while time.monotonic() < deadline:
            busy = self.page.locator(".jp-InputPrompt", has_text="[*]").count()
            calm = calm + 1 if busy == 0 and self.status() in ("idle", "") else 0
            if calm >= 3:
                return
            time.sleep(0.5)
        raise AssertionError(f"kernel still busy after {timeout} s (status {self.status()!r})")

    def menu(self, menu: str, item: str) -> None:
        self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
        self.page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{item}$")).click()

    def run_all(self, timeout: float) -> None:
        """Clear the stored outputs (and their prompt numbers), then run every cell."""
        self.menu("Edit", "Clear Outputs of All Cells")
        self.page.wait_for_function(
            "() => ![...document.querySelectorAll('.jp-InputPrompt')]"
            ".some(e => /\\[(\\d+|\\*)\\]/.test(e.textContent))", timeout=30_000)
        self.menu("Run", "Run All Cells")
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('.jp-InputPrompt')]"
            ".some(e => /\\[(\\d+|\\*)\\]/.test(e.textContent))", timeout=30_000)
        self.wait_idle(timeout)

    def markdown_text(self) -> str:
        return "\n".join(self.page.locator(".jp-MarkdownCell .jp-RenderedMarkdown").all_inner_texts())

    def shot(self, name: str) -> Path:
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=False)
        return path

    def close(self):
        self.context.close()


SOLUTION_NOTE = re.compile(r"Solution to Exercise \d+: not in this notebook; it is on the "
                           r"Solutions page of the HTML book and in the Solutions appendix of "
                           r"the PDF edition\.")


def assert_solutions_removed(nb, text):
    """Every exercise shown is followed by the note that says where its solution is."""
    exercises = re.findall(r"Exercise (\d+)[ .(]", text)
    notes = re.findall(r"Solution to Exercise (\d+): not in this notebook", text)
    assert notes and sorted(set(notes)) == sorted(set(exercises)), (exercises, notes)
    assert len(SOLUTION_NOTE.findall(text)) == len(notes)
    folded = nb.page.locator(".jp-RenderedMarkdown details > summary").filter(
        has_text=re.compile(r"^\s*Solution"))
    assert folded.count() == 0, "a solution is folded in"


def test_chapter_reads_right_and_its_widget_responds(browser, lab):
    nb = Notebook(browser, lab, CHAPTER)
    try:
        nb.shot("chapter-opened")
        nb.run_all(timeout=150)
        nb.shot("chapter-after-run-all")
        text = nb.markdown_text()
        assert len(text) > 1000, "rendered markdown is missing"
        left = [raw for raw in MYST_LEFT if raw in text]
        assert not left, f"MyST source shown in the rendered chapter: {left}"
        assert nb.page.locator(".jp-RenderedMarkdown mjx-container").count() > 0, "no typeset maths"
        assert_solutions_removed(nb, text)
        errors = nb.page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]')
        assert errors.count() == 0, errors.all_inner_texts()

        cell = nb.page.locator(".jp-CodeCell").filter(has=nb.page.locator(".widget-vbox")).first
        cell.scroll_into_view_if_needed()
        figure = cell.locator(".jp-RenderedImage img").first
        figure.wait_for(state="visible", timeout=30_000)
        before = figure.get_attribute("src")
        nb.shot("widget-before")
        widget = cell.locator(".widget-vbox").first
        for k in range(widget.locator(".slider-container").count()):
            track = widget.locator(".slider-container").nth(k).bounding_box()
            assert track and track["width"] >= 150, f"slider {k}: its track is {track} wide"
        select = widget.locator("select").first
        if select.count():
            options = select.locator("option").all_inner_texts()
            select.select_option(index=(len(options) - 1))
        else:
            widget.locator(".noUi-handle").first.focus()
            nb.page.keyboard.press("ArrowRight")
        nb.page.wait_for_function(
            "([el, before]) => { const i = el.querySelector('.jp-RenderedImage img');"
            " return i && i.src !== before; }",
            arg=[cell.element_handle(), before], timeout=30_000)
        after = figure.get_attribute("src")
        nb.shot("widget-after")
        assert not nb.blocked, f"the page asked the network for {nb.blocked[:5]}"
        nb.menu("File", "Save Notebook")
        nb.page.wait_for_function(
            "() => !document.querySelector('.jp-mod-dirty')", timeout=30_000)
        nb.menu("Kernel", "Shut Down Kernel")
    finally:
        nb.close()
    # Opened again with a new kernel and nothing run: the controls have no model, the figure
    # is an ordinary image output saved in the state the reader left it.
    nb = Notebook(browser, lab, CHAPTER)
    try:
        cell = nb.page.locator(".jp-CodeCell").filter(
            has=nb.page.locator(".jp-RenderedImage img[src='" + after + "']")).first
        cell.scroll_into_view_if_needed()
        assert cell.locator(".jp-RenderedImage img").first.is_visible()
        nb.shot("widget-reopened")
    finally:
        nb.close()


def test_student_notebook_check_prints_feedback(browser, lab):
    nb = Notebook(browser, lab, ASSIGNMENT)
    try:
        nb.run_all(timeout=120)
        cell = nb.page.locator(".jp-CodeCell").filter(
            has=nb.page.locator(".jp-InputArea", has_text='check("q1")')).first
        cell.scroll_into_view_if_needed()
        nb.shot("assignment-check-q1")
        output = cell.locator(".jp-OutputArea-output").all_inner_texts()
        feedback = "\n".join(output)
        assert "q1" in feedback, f"check('q1') printed no feedback: {output!r}"
        assert "Traceback" not in feedback and "Error" not in feedback.split("\n")[0], feedback
        text = nb.markdown_text()
        assert not [raw for raw in MYST_LEFT if raw in text]
        assert not nb.blocked, f"the page asked the network for {nb.blocked[:5]}"
    finally:
        nb.close()


@pytest.mark.parametrize("path", ["book/part1/02_linear_discriminant.ipynb",
                                  "book/part2/04_experiments.ipynb"])
def test_chapter_renders_without_running(browser, lab, path):
    """Opened as stored: numbers, references, theorems, notes for the solutions, no MyST source."""
    nb = Notebook(browser, lab, path)
    try:
        text = nb.markdown_text()
        assert len(text) > 1000, "rendered markdown is missing"
        assert not [raw for raw in MYST_LEFT if raw in text], text[:2000]
        assert re.search(r"Fig\. \d+", text) and re.search(r"\(\d+\)", text)
        assert "Exercise " in text
        assert nb.page.locator(".jp-RenderedMarkdown mjx-container").count() > 0
        assert_solutions_removed(nb, text)
        stem = Path(path).stem
        note = nb.page.locator(".jp-RenderedMarkdown em", has_text=SOLUTION_NOTE).first
        note.scroll_into_view_if_needed()
        note.locator("xpath=ancestor::div[contains(@class, 'jp-Cell')][1]").screenshot(
            path=str(SHOTS / f"{stem}-solution-note.png"))
        quote = nb.page.locator(".jp-RenderedMarkdown blockquote").first
        if quote.count():
            quote.scroll_into_view_if_needed()
            quote.screenshot(path=str(SHOTS / f"{stem}-blockquote.png"))
        nb.shot(stem)
        assert not nb.blocked, f"the page asked the network for {nb.blocked[:5]}"
    finally:
        nb.close()
