"""Print: a long chapter printed to PDF by Chromium keeps every code line on the page.

The chapter is printed from the dark colour scheme (the print stylesheet forces light
colours) on A4 with Chromium's default margins.  Two checks, one in the browser and one
in the PDF: under print media no ``<pre>`` block is wider than its box or reaches past
the text column, and the text of every code line is found in the PDF by ``pdftotext``
(poppler-utils), which a line cut at the right margin is not.  Interactive figure controls are not printed.
"""

import re
import shutil
import subprocess

import pytest
from pages import PageVisit

LONG_CHAPTER = "book/part2/04_experiments"
A4_WIDTH_PT = 595.28

pytestmark = pytest.mark.browser


def contrast_on_white(css_colour):
    """WCAG 2 contrast ratio of an ``rgb(r, g, b)`` colour against white."""
    channels = [int(v) / 255 for v in re.findall(r"\d+", css_colour)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def code_lines_missing_from(pdf_path, lines):
    """The code lines whose text is not in the PDF (cut at the margin rather than wrapped).

    Whitespace is ignored, so a line wrapped onto two printed lines still counts as present.
    """
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing (apt-get install poppler-utils)")
    text = subprocess.run(["pdftotext", "-layout", str(pdf_path), "-"], check=True,
                          capture_output=True, text=True).stdout
    printed = re.sub(r"\s+", "", text)
    return [line for line in lines if re.sub(r"\s+", "", line) not in printed]


def test_long_chapter_prints_with_every_code_line_on_the_page(browser, server, tmp_path):  # noqa: F811
    visit = PageVisit(browser, server, LONG_CHAPTER, color_scheme="dark")
    try:
        page = visit.page
        page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 px per inch
        page.emulate_media(media="print")
        blocks = page.eval_on_selector_all(
            "pre", "ps => ps.filter(p => p.offsetParent !== null).map(p => ({"
                   " wide: p.scrollWidth > p.clientWidth + 1,"
                   " right: p.getBoundingClientRect().right,"
                   " text: p.textContent}))")
        lines = [line for b in blocks for line in b["text"].splitlines() if line.strip()]
        assert len(blocks) > 15, f"expected a long chapter with many code blocks, got {len(blocks)}"
        column = page.evaluate("document.querySelector('main, .bd-main, body')"
                               ".getBoundingClientRect().right")
        wide = [b["text"][:60] for b in blocks if b["wide"] or b["right"] > column + 1]
        text_colour = page.evaluate("getComputedStyle(document.querySelector('main p, p')).color")
        controls = page.locator("form.nbcourse-explore-controls")
        for k in range(controls.count()):
            assert not controls.nth(k).is_visible(), "interactive figure controls are printed"
        pdf = tmp_path / "chapter.pdf"
        page.pdf(path=str(pdf), format="A4", print_background=True)
        assert pdf.stat().st_size > 10_000
        beyond = code_lines_missing_from(pdf, lines)
        dark_text = contrast_on_white(text_colour) >= 7
        assert not beyond and not wide and dark_text, (
            f"printed text colour {text_colour} "
            f"({contrast_on_white(text_colour):.1f} : 1 on white); {len(wide)} of {len(blocks)} code blocks are wider than the page: {wide[:3]}; "
            f"{len(beyond)} of {len(lines)} code lines are cut in the PDF: {beyond[:4]}")
    finally:
        visit.close()
