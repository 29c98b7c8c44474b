"""The lecture slides (``make slides``): a deck for every meeting of the lecture outlines,
and every slide of every deck shown by headless Chromium with the network cut off, its
mathematics typeset when the decks were built and its figures loaded."""

import functools
import http.server
import re
import threading

import nbformat
import pytest
from bs4 import BeautifulSoup
from pages import PageVisit

from conftest import ROOT, QuietHandler
from nbcourse_book import slides

SHOTS = ROOT / "_build" / "slides-screenshots"


def outline_meetings():
    """(section heading, meeting heading) of every meeting of the outlines, read line by line."""
    found, section = [], None
    for line in (ROOT / "instructor" / "lecture_outlines.md").read_text("utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("### "):
            found.append((section, line[4:].strip()))
    return found


def decks(folder):
    return sorted(p for p in folder.rglob("*.html")
                  if p.parent != folder and "_static" not in p.parts)


MEETING = """\
### Week 6, meeting 1: a meeting added later

- **Chapters:** `book/extra/01_chapter`
- **Aims:** the aims, on two
  lines.
- **Plan:** 10 min one step; 40 min another step with $x^2$.
- **At the board:** $a = b$.
- **Explore:** the figure.
- **Quiz:** q-one, q-two
- **Homework:** none.
"""
CHAPTER = """# The chapter

## A section

Text, then an unlabelled equation

$$ c = d $$

and a labelled one:

$$ a = b $$ (eq-a)
"""
BANK = "- id: q-one\n  question: First?\n- id: q-two\n  question: Second?\n"


def project(tmp_path, outlines, bank=BANK):
    (tmp_path / "instructor").mkdir()
    (tmp_path / "instructor" / "lecture_outlines.md").write_text(outlines, encoding="utf-8")
    (tmp_path / "instructor" / "question_bank.yml").write_text(bank, encoding="utf-8")
    (tmp_path / "book" / "extra").mkdir(parents=True)
    chapter = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(CHAPTER)])
    nbformat.write(chapter, tmp_path / "book" / "extra" / "01_chapter.ipynb")
    return tmp_path


def test_a_meeting_added_to_the_outlines_gets_a_deck(tmp_path):
    root = project(tmp_path, "# Outlines\n\n## Part IV, an optional extension\n\n" + MEETING)
    assert slides.write_sources(root, tmp_path / "src") == ["part-iv/week-6-meeting-1"]
    deck = (tmp_path / "src" / "part-iv" / "week-6-meeting-1.md").read_text(encoding="utf-8")
    assert "# Week 6, meeting 1: a meeting added later\n\nPart IV, an optional extension" in deck
    assert "## Aims\n\nthe aims, on two lines." in deck
    assert "- 10 min one step\n- 40 min another step with $x^2$." in deck
    assert "## A section\n\n$$\na = b\n$$" in deck and "c = d" not in deck
    assert "## Quiz: q-one\n\nFirst?" in deck and "## Quiz: q-two\n\nSecond?" in deck
    index = (tmp_path / "src" / "index.md").read_text(encoding="utf-8")
    assert "- [Week 6, meeting 1: a meeting added later](part-iv/week-6-meeting-1.md)" in index


@pytest.mark.parametrize(("outlines", "bank", "message"), [
    ("# Outlines\n", BANK, "found none"),
    (MEETING, BANK, "a '## ' section heading before"),
    ("## A\n\n" + MEETING + "\n" + MEETING, BANK, "2 named 'a/week-6-meeting-1'"),
    ("## A\n\n" + MEETING.replace("- **Explore:** the figure.\n", ""), BANK, "missing Explore"),
    ("## A\n\n" + MEETING, BANK.replace("q-two", "q-three"), "got 'q-two'"),
    ("## A\n\n" + MEETING.replace("01_chapter", "02_chapter"), BANK, "02_chapter.ipynb, found none"),
])
def test_outlines_that_name_no_deck_or_material_are_refused(tmp_path, outlines, bank, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        slides.write_sources(project(tmp_path, outlines, bank), tmp_path / "src")


def test_slides_are_not_built_over_a_folder_of_something_else(tmp_path):
    root = project(tmp_path, "## A\n\n" + MEETING)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("kept", encoding="utf-8")
    with pytest.raises(ValueError, match="--out: expected a new folder or earlier slides"):
        slides.build(root, tmp_path / "out")
    assert (tmp_path / "out" / "notes.txt").read_text(encoding="utf-8") == "kept"


@pytest.mark.book  # Temml from npm typesets the mathematics
def test_a_rebuild_leaves_no_deck_of_a_renamed_meeting(tmp_path):
    root = project(tmp_path, "## A\n\n" + MEETING)
    slides.build(root, tmp_path / "out")
    assert (tmp_path / "out" / "a" / "week-6-meeting-1.html").is_file()
    (root / "instructor" / "lecture_outlines.md").write_text(
        "## B\n\n" + MEETING.replace("meeting 1", "meeting 2"), encoding="utf-8")
    slides.build(root, tmp_path / "out")
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in decks(tmp_path / "out")) \
        == ["b/week-6-meeting-2.html"]


@pytest.fixture(scope="module")
def slides_server(built_slides):
    handler = functools.partial(QuietHandler, directory=str(built_slides))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def deck_titles(folder):
    """``{(section heading, meeting heading): deck}`` from each built deck's title slide."""
    titles = {}
    for path in decks(folder):
        first = BeautifulSoup(path.read_text("utf-8"), "html.parser").select_one(
            ".reveal .slides > section")
        title = (first.find("p").get_text(strip=True), first.find("h1").get_text())
        titles[title] = path.relative_to(folder).with_suffix("").as_posix()
    return titles


def test_a_deck_for_every_meeting(built_slides):
    meetings = outline_meetings()
    assert len(meetings) >= 23, meetings  # Parts I-IV: 9 + 6 + 4 + 4 meetings at least
    assert sorted(deck_titles(built_slides)) == sorted(meetings)
    assert len(decks(built_slides)) == len(meetings)


def test_the_course_plan_links_every_deck(built_slides):
    plan = (ROOT / "book" / "course_plan.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\(slides:([\w/-]+)\)", plan)
    built = [p.relative_to(built_slides).with_suffix("").as_posix() for p in decks(built_slides)]
    assert sorted(linked) == sorted(built)


def test_the_built_course_plan_opens_the_decks_beside_the_book(built_book, built_slides):
    """The Pages workflow publishes the decks as ``slides/`` beside the book's pages."""
    page = (built_book / "book" / "course_plan.html").read_text(encoding="utf-8")
    hrefs = re.findall(r'href="\.\./slides/([\w/-]+)\.html"', page)
    built = [p.relative_to(built_slides).with_suffix("").as_posix() for p in decks(built_slides)]
    assert sorted(hrefs) == sorted(built)


def test_decks_hold_the_chapters_equations_and_figures(built_slides):
    """The deck of Part I's linear discriminant shows Duda, Hart & Stork's eq. 90 and the
    chapter's figures, stored in its notebook."""
    page = (built_slides / "three-week" / "week-1-meeting-2.html").read_text("utf-8")
    tex = [a.get_text() for a in BeautifulSoup(page, "html.parser").select("annotation")]
    assert any(r"w_j = \ln \frac{p_j (1 - q_j)}{q_j (1 - p_j)}" in t for t in tex)
    assert page.count('<img ') >= 3


def test_every_figure_has_alt_text_without_tex(built_slides):
    """The book's own alt text where the chapter gives one, else the figure's section."""
    alts = [img.get("alt", "") for path in decks(built_slides)
            for img in BeautifulSoup(path.read_text("utf-8"), "html.parser").select("img")]
    assert alts and all(alt and not re.search(r"[$\\]", alt) for alt in alts), alts
    assert any(alt.startswith("Ternary heat map on a triangle") for alt in alts)


@pytest.mark.parametrize("meeting", [*outline_meetings(), None],
                         ids=lambda m: " / ".join(m) if m else "index")
def test_every_slide_renders_offline(browser, built_slides, slides_server, meeting):
    deck = deck_titles(built_slides)[meeting] if meeting else "index"
    visit = PageVisit(browser, slides_server, deck)
    try:
        page = visit.page
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=20_000)
        indices = page.evaluate("""() => Array.from(Reveal.getHorizontalSlides(), (h, i) =>
            [i, Math.max(1, h.querySelectorAll(':scope > section').length)])""")
        seen = 0
        for h, count in indices:
            for v in range(count):
                page.evaluate(f"Reveal.slide({h}, {v})")
                slide = page.evaluate("""() => { const s = Reveal.getCurrentSlide();
                    const r = s.getBoundingClientRect();
                    const c = Reveal.getConfig();
                    return {width: r.width, height: r.height, text: s.innerText,
                            fits: s.offsetHeight <= c.height && s.scrollWidth <= c.width,
                            raw: s.querySelectorAll('.math:not(math):not(:has(math))').length}}""")
                where = f"{deck} slide {h}/{v}"
                assert slide["width"] > 0 and slide["height"] > 0, f"{where} is not shown"
                assert slide["text"].strip(), f"{where} is empty"
                assert slide["fits"], f"{where} is larger than the slide"
                assert not re.search(r"\$|\\[A-Za-z([]", slide["text"]), \
                    f"{where} shows TeX: {slide['text'][:200]}"
                assert not slide["raw"], f"{where}: mathematics without MathML"
                broken = page.evaluate("""async () => (await Promise.all(Array.from(
                    Reveal.getCurrentSlide().querySelectorAll('img'),
                    i => i.decode().then(() => null, () => i.src)))).filter(Boolean)""")
                assert not broken, f"{where}: figures that did not load: {broken}"
                seen += 1
        assert seen == page.evaluate(
            "document.querySelectorAll('.reveal .slides section:not(:has(section))').length")
        assert seen >= (6 if deck != "index" else 4), f"{deck}: only {seen} slides"
        assert page.evaluate("document.querySelectorAll('script[src*=\"mathjax\" i], "
                             "script[src*=\"temml\" i]').length") == 0
        assert not visit.errors, f"console errors: {visit.errors}"
        assert not visit.blocked, f"requests to the network: {visit.blocked}"
        assert not visit.failed, f"failed requests: {visit.failed}"
        if deck.endswith("meeting-2"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.evaluate("Reveal.slide(0, 0)")
            page.screenshot(path=SHOTS / f"{deck.replace('/', '-')}.png")
    finally:
        visit.close()
