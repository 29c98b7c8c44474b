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
from collections import Counter

import pytest
from conftest import HTML, ROOT
from test_browser import PageVisit, browser, server  # noqa: F401 - fixtures

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
