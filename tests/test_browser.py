"""Every page of the built book, loaded in headless Chromium with the network cut off.

Drives Debian's Chromium (``/usr/bin/chromium``) with Playwright.  Only requests to the
local server are allowed.  For every page: no console errors, no failed requests, every
image decoded, mathematics typeset when the book was built (Temml's MathML Core, for the
eye and the accessibility tree alike, no math script in the page), and on pages with
interactive figures, moving a control changes the displayed image.  A screenshot of each page is
saved in ``_build/screenshots`` for a person to look at.
"""

import json
import re
import shutil

import pytest
from pages import PageVisit

from conftest import ROOT, toc_files

SHOTS = ROOT / "_build" / "screenshots"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def screenshots():
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    print(f"\nscreenshots of every page: {SHOTS}")
    return SHOTS


@pytest.mark.parametrize("doc", toc_files())
def test_page_renders_offline(browser, server, screenshots, doc):
    visit = PageVisit(browser, server, doc)
    try:
        page = visit.page
        assert not visit.errors, f"console errors: {visit.errors}"
        assert not visit.blocked, f"requests to the network: {visit.blocked}"
        assert not visit.failed, f"failed requests: {visit.failed}"
        icon_fonts = [u for u in visit.requested if re.search(r"fontawesome|/fa-[a-z]+-\d+\.", u)]
        assert not icon_fonts, f"icon font or script loaded: {icon_fonts}"
        # images below the first screen load lazily: load them all now to check them
        page.eval_on_selector_all("img[loading=lazy]", "imgs => imgs.forEach(i => i.loading = 'eager')")
        page.wait_for_function("() => [...document.images].every(i => i.complete)", timeout=20_000)
        broken = page.eval_on_selector_all(
            "img", "imgs => imgs.filter(i => !(i.complete && i.naturalWidth > 0))"
                   ".map(i => i.getAttribute('src').slice(0, 80))")
        assert not broken, f"images that did not load: {broken}"
        math = page.locator(".math").count()
        if math:
            mathml = page.locator("math.math, .math > math").count()
            assert mathml == math, "mathematics was not typeset as MathML"
            assert page.locator("math").count() == math, "mathematics typeset twice"
        assert not page.evaluate("() => 'MathJax' in window"), "MathJax was loaded"
        text = page.eval_on_selector(
            "body", "a => { const c = a.cloneNode(true);"
                       " c.querySelectorAll('pre, code, script, math, .highlight')"
                       ".forEach(e => e.remove()); return c.innerText; }")
        for raw in ("$$", "\\(", "\\["):
            assert raw not in text, f"raw mathematics {raw!r} left in the page text"
        page.screenshot(path=str(screenshots / f"{doc.replace('/', '__')}.png"), full_page=True)
    finally:
        visit.close()


def widget_pages():
    """Book pages whose notebook stores an interactive figure made by nbcourse.explore."""
    return [doc for doc in toc_files()
            if (ROOT / f"{doc}.ipynb").exists()
            and "nbcourse-explore" in (ROOT / f"{doc}.ipynb").read_text(encoding="utf-8")]


def test_some_page_has_an_interactive_figure():
    assert widget_pages(), "no page of the book carries an nbcourse.explore figure"


@pytest.mark.parametrize("doc", widget_pages())
def test_moving_a_control_changes_the_figure(browser, server, doc):
    visit = PageVisit(browser, server, doc)
    try:
        page = visit.page
        figures = page.locator("figure.nbcourse-explore")
        assert figures.count() > 0, "no static interactive figure on the page"
        for k in range(figures.count()):
            figure = figures.nth(k)
            figure.scroll_into_view_if_needed()  # frames load when they near the screen
            image = figure.locator("img.nbcourse-explore-frame")
            for c in range(figure.locator("[data-control]").count()):
                control = figure.locator("[data-control]").nth(c)
                before = image.get_attribute("src")
                if control.evaluate("e => e.tagName") == "SELECT":
                    options = control.locator("option")
                    current = control.evaluate("e => e.selectedIndex")
                    control.select_option(index=(current + 1) % options.count())
                else:
                    control.evaluate("e => { e.value = e.value === e.max ? e.min : e.max;"
                                     " e.dispatchEvent(new Event('input', {bubbles: true})); }")
                after = image.get_attribute("src")
                name = control.get_attribute("data-control")
                assert after != before, f"figure {k}: moving {name!r} left the image unchanged"
                # the new frame is a separate file: wait (bounded) until it has decoded
                page.wait_for_function("i => i.complete && i.naturalWidth > 0",
                                       arg=image.element_handle(), timeout=10_000)
        assert not visit.errors, f"console errors: {visit.errors}"
    finally:
        visit.close()


def selfcheck_pages():
    """Book pages whose notebook stores self-check questions made by nbcourse.selfcheck."""
    return [doc for doc in toc_files()
            if (ROOT / f"{doc}.ipynb").exists()
            and "nbcourse-selfcheck" in (ROOT / f"{doc}.ipynb").read_text(encoding="utf-8")]


def test_most_chapters_have_self_check_questions():
    assert len(selfcheck_pages()) >= 10, selfcheck_pages()


def _answer(page, form, kind, key, right):
    """Give the right answer (or a wrong one) to one question; return the status classes."""
    if kind == "choice":
        n = form.locator("input[type=radio]").count()
        pick = key["right"] if right else (key["right"] + 1) % n
        form.locator("input[type=radio]").nth(pick).check()
    else:
        value = key["value"] if right else key["value"] + 10 * key["tol"] + 1
        form.locator("input[type=text]").fill(repr(float(value)))
    form.locator("button[type=submit]").click()
    status = form.locator("[role=status]")
    page.wait_for_function("s => s.textContent.trim().length > 0", arg=status.element_handle(),
                           timeout=5_000)
    return status.get_attribute("class") or ""


@pytest.mark.parametrize("doc", selfcheck_pages())
def test_every_self_check_answers_right_and_wrong_offline(browser, server, doc):
    visit = PageVisit(browser, server, doc)
    try:
        page = visit.page
        forms = page.locator("form.nbcourse-selfcheck")
        assert forms.count() > 0, "no self-check question on the page"
        asking = page.locator(".cell_input").filter(
            has_text=re.compile(r"(?<![.\w])(choice|number)\("))  # not rng.choice(
        assert asking.count() == 0, "the page shows the code of a question, with its answer"
        assert page.locator(".nbcourse-inert").count() == 0, "a question was left inert"
        for k in range(forms.count()):
            form = forms.nth(k)
            kind = form.get_attribute("data-kind")
            key = json.loads(form.get_attribute("data-key"))
            assert "nbcourse-wrong" in _answer(page, form, kind, key, right=False), \
                f"question {k}: a wrong answer was not marked wrong"
            assert "nbcourse-right" in _answer(page, form, kind, key, right=True), \
                f"question {k}: the right answer was not marked right"
        assert not visit.errors, f"console errors: {visit.errors}"
        assert not visit.blocked, f"requests to the network: {visit.blocked}"
    finally:
        visit.close()


def test_equations_are_numbered_referenced_and_read_as_mathematics(browser, server):
    """A numbered equation shows its number at the right, its references link to it, and
    the one copy of it, MathML laid out by the browser, is what a screen reader gets (role
    math); copying it gives its TeX."""
    visit = PageVisit(browser, server, "book/part2/03_bounds")
    try:
        page = visit.page
        equation = page.locator("div.math#equation-eq-w-9")
        assert equation.locator(".eqno").text_content().startswith("(24)")
        spoken = equation.get_by_role("math")
        assert spoken.count() == 1, "the equation is not exposed to assistive technology as math"
        box = equation.locator("math").bounding_box()
        assert box and box["width"] > 50 and box["height"] > 10, f"equation not laid out: {box}"
        number = equation.locator(".eqno").bounding_box()
        assert number["x"] > box["x"] + box["width"], "the equation number is not at its right"
        # MathML Core lays the superscript out above the baseline of the theta it raises
        sub, sup = (equation.locator("msubsup > *").nth(k).bounding_box() for k in (1, 2))
        assert sup["y"] + sup["height"] < sub["y"] + sub["height"], "scripts not laid out"
        references = page.locator('a[href="#equation-eq-w-9"]:not(.headerlink)')
        assert references.count() > 0 and "Eq. 24" in references.first.text_content()
        copied = equation.locator("math").evaluate(
            "eq => { const range = document.createRange(); range.selectNode(eq);"
            " getSelection().removeAllRanges(); getSelection().addRange(range);"
            " const data = new DataTransfer(); eq.dispatchEvent(new ClipboardEvent('copy',"
            " {clipboardData: data, bubbles: true, cancelable: true}));"
            " return data.getData('text/plain'); }")
        assert "\\ell(\\theta_v) = \\theta_v^2" in copied, f"copying gives {copied!r}, not TeX"
        assert not visit.errors, f"console errors: {visit.errors}"
    finally:
        visit.close()


def test_search_loads_when_used_and_finds_pages(browser, server):
    """A page loads no search script; a search from its dialog opens the search page, which
    loads the index and lists the chapters that match."""
    visit = PageVisit(browser, server, "book/part2/03_bounds")
    try:
        page = visit.page
        search_scripts = [u for u in visit.requested if re.search(r"searchindex|searchtools", u)]
        assert not search_scripts, f"search scripts loaded before a search: {search_scripts}"
        page.keyboard.press("Control+k")
        field = page.locator("#pst-search-dialog input[name=q]")
        field.wait_for(state="visible", timeout=5_000)
        field.fill("Bernoulli")
        field.press("Enter")
        page.wait_for_url("**/search.html?q=Bernoulli*", timeout=10_000)
        results = page.locator("#search-results li")
        results.first.wait_for(timeout=20_000)
        assert results.count() >= 3, f"only {results.count()} results for 'Bernoulli'"
        assert any("searchindex.js" in u for u in visit.requested)
        assert not visit.errors, f"console errors: {visit.errors}"
        assert not visit.blocked, f"requests to the network: {visit.blocked}"
    finally:
        visit.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_code_text_has_the_highlighting_styles_colour(browser, server, scheme):
    """Names and punctuation, written without a <span> (nbcourse_book.pages), take the text
    colour that pygments.css gives the code block, in either colour scheme, as a name
    inside a span of its own did."""
    visit = PageVisit(browser, server, "book/part2/04_experiments", color_scheme=scheme)
    try:
        colours = visit.page.locator("div.highlight > pre").first.evaluate(
            "pre => [getComputedStyle(pre).color, getComputedStyle(pre.parentElement).color,"
            " getComputedStyle(document.body).color]")
        pre, block, body = colours
        assert pre == block, f"code text {pre}, the highlighting style's text {block}"
        assert block != body, "the check cannot tell the two colours apart"
        assert not visit.errors, f"console errors: {visit.errors}"
    finally:
        visit.close()


def test_on_a_phone_the_navigation_button_opens_the_table_of_contents(browser, server):
    """At a phone's width the sidebars are drawers: the visible navigation button opens the
    one with the table of contents, and the contents button the one with the page's
    sections."""
    for button, drawer, link in ((".primary-toggle", "#pst-primary-sidebar-modal",
                                  "Two models for one categorical feature"),
                                 (".secondary-toggle", "#pst-secondary-sidebar-modal",
                                  "The protocol")):
        visit = PageVisit(browser, server, "book/part2/04_experiments", width=390)
        try:
            page = visit.page
            shown = [b for b in page.locator(button).all() if b.is_visible()]
            assert len(shown) == 1, f"{len(shown)} visible {button} buttons"
            assert not page.locator(drawer).evaluate("d => d.open")
            shown[0].click()
            page.wait_for_function(f"() => document.querySelector('{drawer}').open",
                                   timeout=10_000)
            assert page.locator(drawer).get_by_role("link", name=link).first.is_visible()
            assert not visit.errors, f"console errors: {visit.errors}"
        finally:
            visit.close()


def test_on_a_wide_screen_the_navigation_button_hides_the_sidebar(browser, server):
    visit = PageVisit(browser, server, "book/part2/04_experiments")
    try:
        page = visit.page
        sidebar = page.locator("#pst-primary-sidebar")
        assert sidebar.is_visible()
        shown = [b for b in page.locator(".primary-toggle").all() if b.is_visible()]
        assert len(shown) == 1, f"{len(shown)} visible navigation buttons"
        shown[0].click()
        page.wait_for_function("() => getComputedStyle("
                               "document.querySelector('#pst-primary-sidebar')).visibility"
                               " === 'hidden'", timeout=10_000)
        shown[0].click()
        page.wait_for_function("() => getComputedStyle("
                               "document.querySelector('#pst-primary-sidebar')).visibility"
                               " === 'visible'", timeout=10_000)
    finally:
        visit.close()


def _serve_offline(context, server, without=None):
    """Route the context's requests: the book's own files only, less the script ``without``
    (a page as drawn before that script has run); anything else is aborted."""
    context.unroute("**/*")
    context.route("**/*", lambda route: route.abort()
                  if not route.request.url.startswith(server)
                  or (without and without in route.request.url) else route.continue_())


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_first_visit_is_drawn_in_the_readers_colour_scheme_from_the_start(browser, server,
                                                                            scheme):
    """With nothing stored from an earlier visit, the page carries the scheme of the
    reader's system before the theme's script has run (the script would otherwise restyle
    every element once it had), and the script keeps it."""
    page_url = f"{server}/book/part2/04_experiments.html"
    context = browser.new_context(color_scheme=scheme)
    try:
        _serve_offline(context, server, without="pydata-sphinx-theme.js")
        page = context.new_page()
        page.goto(page_url, wait_until="load")
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        assert page.evaluate("document.documentElement.dataset.mode") == "auto"
        unscripted = page.locator("div.highlight span.k").first.evaluate(
            "s => getComputedStyle(s).color")
        page.close()
        _serve_offline(context, server)
        page = context.new_page()
        page.goto(page_url, wait_until="load")
        page.wait_for_function("() => localStorage.getItem('theme')", timeout=10_000)
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        scripted = page.locator("div.highlight span.k").first.evaluate(
            "s => getComputedStyle(s).color")
        assert scripted == unscripted, f"keywords {unscripted}, then {scripted}"
    finally:
        context.close()


def test_dropdowns_are_folded_before_their_script_runs(browser, server):
    """A dropdown admonition (a solution) is drawn folded from the first paint, so that
    sphinx-togglebutton folding it later moves nothing on the page; once the script has run,
    its button still opens it."""
    solutions = f"{server}/book/solutions.html"
    context = browser.new_context(viewport={"width": 390, "height": 800})
    try:
        # the page as drawn before togglebutton.js has run: the script never arrives
        _serve_offline(context, server, without="togglebutton.js")
        page = context.new_page()
        page.goto(solutions, wait_until="load")
        dropdown = page.locator(".admonition.dropdown").first
        assert "toggle" not in dropdown.get_attribute("class"), "togglebutton.js ran"
        unscripted = dropdown.evaluate("d => d.getBoundingClientRect().height")
        body = dropdown.locator(".admonition-title ~ *").first
        assert not body.is_visible(), "a dropdown is drawn open before its script runs"
        page.close()
        _serve_offline(context, server)
        page = context.new_page()
        page.goto(solutions, wait_until="load")
        dropdown = page.locator(".admonition.dropdown").first
        page.wait_for_function("() => document.querySelector('.admonition.dropdown.toggle')",
                               timeout=10_000)
        folded = dropdown.evaluate("d => d.getBoundingClientRect().height")
        assert folded == unscripted, f"folding moves the page: {unscripted} px, then {folded} px"
        body = dropdown.locator(".admonition-title ~ *").first
        assert not body.is_visible()
        dropdown.locator("button.toggle-button").click()
        page.wait_for_function("() => !document.querySelector('.admonition.dropdown')"
                               ".classList.contains('toggle-hidden')", timeout=10_000)
        assert body.is_visible(), "the title does not open the dropdown"
    finally:
        context.close()
