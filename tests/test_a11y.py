"""Accessibility of every built page: axe-core in headless Chromium, light and dark schemes.

axe-core (pinned in ``tests/package.json``, installed with ``npm ci`` in ``tests/``) is
injected into each page of ``_build/html`` served locally with every other request blocked.
The audit runs the WCAG 2.0/2.1 A and AA rules and axe's best practices, once with the
colour scheme light and once dark (the theme's ``html[data-theme]``).  A page fails on any
critical or serious violation; the message lists each one with the offending elements.
The counts of every impact level are written to ``_build/a11y.json``.
"""

import json
import os
import re
from collections import Counter

import pytest
from pages import PageVisit

from conftest import HTML, ROOT

AXE = ROOT / "tests" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice", "experimental"]
FAILING = ("critical", "serious")
SCHEMES = ("light", "dark")

pytestmark = pytest.mark.browser


def built_pages():
    """Every HTML page of the built book (not the theme's assets or the sources)."""
    if not (HTML / "index.html").exists():
        return ["index"]
    skip = {"_static", "_sources", "_images", "_downloads"}
    return sorted(p.relative_to(HTML).with_suffix("").as_posix() for p in HTML.rglob("*.html")
                  if not skip & set(p.relative_to(HTML).parts))


@pytest.fixture(scope="module")
def axe_source():
    if not AXE.is_file():
        message = f"axe-core is not installed at {AXE} (run `npm ci` in tests/)"
        if os.environ.get("NBCOURSE_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def redirect_target(path):
    """The address a ``<meta http-equiv="Refresh">`` page sends the reader to, or None."""
    if not path.is_file():
        return None
    found = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"',
                      path.read_text(encoding="utf-8"), re.I)
    return found.group(1) if found else None


def test_redirect_page_has_a_language_a_title_and_a_link(built_book):
    page = (built_book / "index.html").read_text(encoding="utf-8")
    target = redirect_target(built_book / "index.html")
    assert target, "index.html is not a redirect page"
    assert re.search(r'<html lang="[a-z]{2}', page), "no lang on the redirect page"
    title = re.search(r"<title>([^<]+)</title>", page)
    assert title and title.group(1).strip(), "no title on the redirect page"
    assert f'<a href="{target}">' in page, "no link a reader can follow without the refresh"


def run_axe(page, source):
    """Inject axe-core into ``page`` and return its violations (list of dicts)."""
    page.add_script_tag(content=source)
    return page.evaluate(
        "async tags => (await axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => ({target: n.target.join(' '),"
        " summary: n.failureSummary}))}))", TAGS)


def describe(violations):
    lines = []
    for v in violations:
        lines.append(f"  {v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])} elements)")
        for n in v["nodes"][:4]:
            summary = " ".join(n["summary"].split())[:200]
            lines.append(f"      {n['target']}: {summary}")
    return "\n".join(lines)


COUNTS: dict = {}


@pytest.fixture(scope="module", autouse=True)
def write_counts():
    yield
    if COUNTS:
        total = Counter()
        for per_page in COUNTS.values():
            total.update(per_page)
        out = HTML.parent / "a11y.json"
        out.write_text(json.dumps({"total": dict(total), "pages": COUNTS}, indent=1,
                                  sort_keys=True), encoding="utf-8")
        print(f"\naxe-core findings over {len(COUNTS)} page x scheme: {dict(total)} ({out})")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("doc", built_pages())
def test_no_serious_accessibility_violation(browser, server, axe_source, doc, scheme):  # noqa: F811
    visit = PageVisit(browser, server, doc, color_scheme=scheme)
    try:
        page = visit.page
        target = redirect_target(HTML / f"{doc}.html")
        if target:  # audit the page the redirect leads to once it has settled
            page.wait_for_url(f"**/{target}")
            page.wait_for_load_state("load")
        if page.locator("html[data-theme]").count():
            page.wait_for_function(f"() => document.documentElement.dataset.theme === '{scheme}'",
                                   timeout=5_000)
        violations = run_axe(page, axe_source)
        COUNTS[f"{doc} {scheme}"] = dict(Counter(
            v["impact"] for v in violations for _ in v["nodes"]))
        assert not visit.blocked, f"requests to the network: {visit.blocked}"
        bad = [v for v in violations if v["impact"] in FAILING]
        assert not bad, f"{doc} ({scheme}): axe-core violations\n{describe(bad)}"
    finally:
        visit.close()


# a control's name read as code: a Greek letter spelled out, or words joined by underscores
RAW_NAME = re.compile(r"\b(alpha|beta|theta|omega|pi|lambda|sigma|mu)(_|\b)|[A-Za-z]{2,}_[A-Za-z]")


def widget_pages():
    from test_browser import widget_pages as pages

    return pages()


@pytest.mark.parametrize("doc", widget_pages())
def test_every_figure_control_works_by_keyboard_and_reads_sensibly(browser, server, doc):  # noqa: F811
    visit = PageVisit(browser, server, doc)
    try:
        page = visit.page
        figures = page.locator("figure.nbcourse-explore")
        assert figures.count() > 0, "no interactive figure on the page"
        for k in range(figures.count()):
            figure = figures.nth(k)
            image = figure.locator("img.nbcourse-explore-frame")
            assert image.get_attribute("width") and image.get_attribute("height"), \
                f"figure {k}: the image has no width and height"
            controls = figure.locator("[data-control]")
            for c in range(controls.count()):
                control = controls.nth(c)
                name = control.get_attribute("data-control")
                label = figure.locator(f'label[for="{control.get_attribute("id")}"]')
                spoken = label.text_content().strip() if label.count() else ""
                assert spoken and not RAW_NAME.search(spoken), \
                    f"figure {k}: control {name!r} is named {spoken!r}, not in words or symbols"
                tag = control.evaluate("e => e.tagName")
                control.focus()
                before = (image.get_attribute("src"), image.get_attribute("alt"))
                if tag == "SELECT":
                    first = control.evaluate("e => e.selectedIndex === 0")
                    page.keyboard.press("ArrowUp" if not first else "ArrowDown")
                else:
                    at_max = control.evaluate("e => e.value === e.max")
                    page.keyboard.press("Home" if at_max else "End")
                    readout = figure.locator(f'output[for="{control.get_attribute("id")}"]')
                    assert control.get_attribute("aria-valuetext") == readout.text_content(), \
                        f"figure {k}: {name!r} announces a value other than the one shown"
                after = (image.get_attribute("src"), image.get_attribute("alt"))
                assert after[0] != before[0], f"figure {k}: the key left {name!r}'s image unchanged"
                assert after[1] != before[1], f"figure {k}: the alt text did not follow {name!r}"
                assert image.evaluate("i => i.decode().then(() => i.naturalWidth > 0)")
        assert not visit.errors, f"console errors: {visit.errors}"
    finally:
        visit.close()


PHONE = {"width": 390, "height": 844}


def test_wide_equations_scroll_from_their_start_with_a_cue_on_a_phone(browser, server):  # noqa: F811
    """At 390 px, an equation wider than the column scrolls, starts at its left edge, shows a cue."""
    visit = PageVisit(browser, server, "book/part2/05_beyond_one_feature")
    try:
        page = visit.page
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(300)  # the layout settles after the resize
        wide = page.eval_on_selector_all(
            "div.math", "ds => ds.filter(d => d.scrollWidth > d.clientWidth + 2).map(d => {"
                        " const box = d.getBoundingClientRect();"
                        " const eq = d.querySelector('math').getBoundingClientRect();"
                        " return {cut_left: eq.left < box.left - 1,"
                        " scrolls: ['auto', 'scroll'].includes(getComputedStyle(d).overflowX),"
                        " cue: getComputedStyle(d).backgroundImage.includes('gradient')}; })")
        assert wide, "expected at least one equation wider than a phone's column on this page"
        assert all(w["scrolls"] for w in wide), f"an equation does not scroll: {wide}"
        assert not any(w["cut_left"] for w in wide), f"an equation's start is cut off: {wide}"
        assert all(w["cue"] for w in wide), f"no visible cue that an equation scrolls: {wide}"
    finally:
        visit.close()
