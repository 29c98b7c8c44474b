"""The print edition: the whole book built as a PDF with xelatex, then read back.

The book is built into a temporary folder (``jupyter-book build --builder pdflatex
--path-output``) so that it never shares Sphinx's environment with an HTML build running at
the same time.  The PDF is then checked with poppler's ``pdfinfo``, ``pdfimages`` and
``pdftotext`` and the LaTeX log is read for overfull lines and undefined references.
Without TeX (see the README) the tests are skipped with a message, unless
``NBCOURSE_REQUIRE_PDF`` is set, as CI sets it, in which case they fail.
"""

import html
import json
import os
import re
import shutil
import subprocess
import unicodedata

import pytest
from nbcourse_book.build import run_jupyter_book, student_notebooks

from conftest import ROOT, toc_files

pytestmark = pytest.mark.slow

TARGET = "nbcourse"  # latex.latex_documents.targetname in _config.yml, without ".tex"
TOOLS = ("xelatex", "latexmk", "pdfinfo", "pdfimages", "pdftotext")
MAX_OVERFULL_PT = 5.0  # widest line allowed past its box, in points
PAGES = (60, 560)  # a sensible length for 21 chapters with code, figures and appendices


def _missing_tools():
    return [tool for tool in TOOLS if shutil.which(tool) is None]


@pytest.fixture(scope="module")
def latex_dir(tmp_path_factory):
    missing = _missing_tools()
    if missing:
        reason = f"missing {', '.join(missing)} (TeX Live and poppler-utils, see the README)"
        if os.environ.get("NBCOURSE_REQUIRE_PDF"):
            pytest.fail(f"the PDF tests are required here but {reason}")
        pytest.skip(f"PDF tests skipped: {reason}")
    out = tmp_path_factory.mktemp("pdf")
    done = run_jupyter_book(ROOT, "pdflatex", "--path-output", str(out), capture=True)
    assert done.returncode == 0, f"PDF build failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return out / "_build" / "latex"


@pytest.fixture(scope="module")
def pdf(latex_dir):
    path = latex_dir / f"{TARGET}.pdf"
    assert path.is_file() and path.stat().st_size > 0, f"no PDF at {path}"
    return path


@pytest.fixture(scope="module")
def text(pdf):
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def latex_log(latex_dir):
    return (latex_dir / f"{TARGET}.log").read_text(encoding="utf-8", errors="replace")


def notebooks():
    return [ROOT / f"{doc}.ipynb" for doc in toc_files() if (ROOT / f"{doc}.ipynb").is_file()]


def markdown_sources():
    """The markdown text of every document in the table of contents."""
    for doc in toc_files():
        nb, md = ROOT / f"{doc}.ipynb", ROOT / f"{doc}.md"
        if nb.is_file():
            cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
            yield from ("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        elif md.is_file():
            yield md.read_text(encoding="utf-8")


def expected_figures():
    """Images the book shows: stored PNG outputs plus images and figures written in markdown."""
    count = 0
    for nb in notebooks():
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            count += sum("image/png" in out.get("data", {}) for out in cell.get("outputs", []))
    for source in markdown_sources():
        count += len(re.findall(r"!\[[^\]]*\]\(|^[`:]{3,}\{(?:figure|image)\}", source, re.M))
    return count


def test_page_count_is_sensible(pdf):
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True,
                          text=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    assert PAGES[0] <= pages <= PAGES[1], f"{pages} pages, expected {PAGES[0]}-{PAGES[1]}"


def test_every_figure_is_in_the_pdf(pdf):
    listing = subprocess.run(["pdfimages", "-list", str(pdf)], check=True,
                             capture_output=True, text=True).stdout.splitlines()[2:]
    images = [line for line in listing if line.split()[2] == "image"]
    expected = expected_figures()
    assert expected > 0
    assert len(images) == expected, f"{len(images)} images in the PDF, the book has {expected}"


def test_text_is_extractable(text):
    assert "Naive Bayes with discrete features" in text
    # LaTeX prints a straight apostrophe as the typographic one, and the book's class the
    # Unicode superscript letters of a title (Q⁻ᵛ) as raised letters: compared in NFKC
    flat = unicodedata.normalize("NFKC", " ".join(text.replace("\u2019", "'").split())).casefold()
    for nb in notebooks():
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        title = next(line[2:] for c in cells if c["cell_type"] == "markdown"
                     for line in "".join(c["source"]).splitlines() if line.startswith("# "))
        if "$" not in title:
            shown = unicodedata.normalize("NFKC", " ".join(title.split())).casefold()
            assert shown in flat, f"{nb.name}: title {title!r}"


def test_no_unresolved_reference(text, latex_log):
    assert "??" not in text, [line for line in text.splitlines() if "??" in line][:5]
    undefined = re.findall(r"^LaTeX Warning: (?:Hyper r|R)eference .*", latex_log, re.M)
    assert not undefined, undefined[:5]
    assert "There were undefined references" not in latex_log


def test_no_overfull_line_past_its_box(latex_log):
    widths = [float(w) for w in re.findall(r"^Overfull \\hbox \(([\d.]+)pt too wide\)",
                                           latex_log, re.M)]
    too_wide = [w for w in widths if w > MAX_OVERFULL_PT]
    assert not too_wide, f"{len(too_wide)} lines wider than {MAX_OVERFULL_PT} pt: {too_wide[:10]}"


@pytest.mark.parametrize("marker", ["<div", "<table", "<figure", "<style", "</",
                                    "application/vnd.jupyter", "model_id",
                                    "run the cell in a live kernel"])
def test_no_raw_html_or_widget_json(text, marker):
    assert marker not in text


def test_numbered_chapters_and_equations(text):
    assert re.search(r"(?:^|\f)CHAPTER\s+ONE\s", text, re.M), "no chapter numbered ONE"
    assert re.search(r"(?:^|\f)CHAPTER\s+TEN\s", text, re.M), "no chapter numbered TEN"
    assert re.search(r"\(1\)", text), "no equation numbered (1)"
    assert re.search(r"\(24\)", text), "no equation numbered (24): numbers restart somewhere"


def test_the_front_page_is_the_chapter_introduction_after_the_contents(text):
    """The front page's text opens the book as the unnumbered chapter "Introduction" on page
    1, listed first in the contents (the book's LaTeX class)."""
    pages = text.split("\f")
    contents = next(page for page in pages if "CONTENTS" in page)
    assert re.match(r"CONTENTS\s+Introduction\s+1\s+Part I\b", contents), contents[:200]
    start = next(page for page in pages if "Who the book is for" in page)
    assert start.startswith("INTRODUCTION\n\nA naive Bayes classifier"), start[:200]


def test_solutions_are_in_the_appendix_only(text):
    n_solutions = sum(len(re.findall(r"^[`:]{3,}\{solution\}", source, re.M))
                      for source in markdown_sources())
    assert n_solutions > 0
    pointers = re.findall(r"Solution: appendix, page (\d+)\.", " ".join(text.split()))
    assert len(pointers) == n_solutions
    assert "APPENDIX" in text
    # The chapters print a pointer instead of each solution; the solutions print only once.
    assert len(re.findall(r"Solution to Exercise \d+", text)) == n_solutions
    pages = [int(p) for p in pointers]
    assert pages == sorted(pages), "the appendix does not follow the order of the chapters"


def selfcheck_keys():
    """The answer key of every self-check question stored in the book's chapters, in order.

    Read straight from the notebooks' HTML outputs (the ``data-key`` attribute), not through
    the code that prints the appendix.
    """
    keys = []
    for nb in notebooks():
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            for out in cell.get("outputs", []):
                page = "".join(out.get("data", {}).get("text/html", ""))
                for found in re.finditer(r'class="nbcourse-selfcheck"[^>]*data-kind="(\w+)" '
                                         r'data-key="([^"]*)"', page):
                    keys.append((found.group(1), json.loads(html.unescape(found.group(2)))))
    return keys


def test_every_self_check_answer_is_in_the_appendix(text):
    keys = selfcheck_keys()
    assert len(keys) >= 20, f"only {len(keys)} self-check questions found in the chapters"
    flat = " ".join(text.split())
    pointers = [int(p) for p in re.findall(r"Answer: appendix, page (\d+)\.", flat)]
    assert len(pointers) == len(keys), "a question without the page of its answer"
    assert pointers == sorted(pointers), "the answers do not follow the order of the chapters"
    appendix = flat[flat.rindex("SELF-CHECK ANSWERS"):]
    answers = re.findall(r"Answer: (?!appendix)(.{0,40})", appendix)
    assert len(answers) == len(keys)
    for (kind, key), answer in zip(keys, answers, strict=True):
        if kind == "number":
            assert answer.startswith(f"{key['value']:g}"), (key, answer)
    backlinks = re.findall(r"\(question on page (\d+)\)", appendix)
    assert [int(p) for p in backlinks] == sorted(int(p) for p in backlinks)
    assert len(backlinks) == len(keys)


def test_every_character_has_a_glyph(latex_log):
    missing = sorted(set(re.findall(r"^Missing character: There is no (.)", latex_log, re.M)))
    assert not missing, f"characters the fonts cannot print: {missing}"


STUDENT_FIGURE = re.compile(r'<a id="([^"]+)"></a>\*Fig\. (\d+)\.\*')
STUDENT_EQUATION = re.compile(r'<a id="equation-([^"]+)"></a>\s*\$\$.*?\\tag\{(\d+)\}\s*\$\$', re.S)


def test_equations_and_figures_carry_the_numbers_of_the_student_notebooks(latex_dir, tmp_path):
    """LaTeX's own numbers (read from the .aux file it writes) for every equation and figure
    equal the numbers the student notebooks show, which tests/test_student_tree.py ties to the
    HTML pages: Eq. 24 is Eq. 24 in every medium."""
    built = student_notebooks(ROOT, tmp_path / "studentnb")
    expected = {}
    for doc in toc_files():
        cells = json.loads((built / f"{doc}.ipynb").read_text(encoding="utf-8"))["cells"]
        md = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        # the notebooks' anchors are Sphinx's ids: labels in lower case
        expected |= {(doc, label): int(n) for label, n in STUDENT_EQUATION.findall(md)}
        expected |= {(doc, label): int(n) for label, n in STUDENT_FIGURE.findall(md)}
    aux = (latex_dir / f"{TARGET}.aux").read_text(encoding="utf-8", errors="replace")
    printed = {(doc, label.lower()): int(n) for doc, label, n in re.findall(
        r"\\newlabel\{equation:([^:}]+):([^}]+)\}\{\{(\d+)\}", aux)}
    printed |= {(doc, label.lower()): int(n) for doc, label, n in re.findall(
        r"\\newlabel\{([^:}]+):([^}:]+)\}\{\{(\d+)\}\{\d+\}\{[^}]", aux)
        if (doc, label.lower()) in expected}
    assert len(expected) >= 50, "the student notebooks lost their equations or figures"
    wrong = {key: (n, printed.get(key)) for key, n in expected.items() if printed.get(key) != n}
    assert not wrong, f"(document, label): (student notebook's number, PDF's number): {wrong}"


def _formula_sheet_page(text):
    """The 0-based page of the PDF that holds the formula sheet, from its first sentence to the
    first words of its last item, which must be on that same page."""
    source = (ROOT / "book" / "formula_sheet.md").read_text(encoding="utf-8")
    first = re.search(r"^The results of the book on one page", source, re.M).group(0)
    last = re.findall(r"^- ([A-Z][a-z]+ [a-z]+)", source, re.M)[-1]  # "Missing features"
    pages = text.split("\f")
    starts = [k for k, page in enumerate(pages) if first in " ".join(page.split())]
    ends = [k for k, page in enumerate(pages) if last in " ".join(page.split())]
    assert len(starts) == 1, f"{first!r} is on pages {starts}"
    assert starts[0] in ends, f"the sheet starts on page {starts[0] + 1}, ends on {ends}"
    return starts[0]


def test_the_formula_sheet_fits_one_page(text):
    """From its first sentence to its last formula, the sheet is on one page of the PDF."""
    _formula_sheet_page(text)


def test_the_formula_sheet_leaves_a_fifth_of_its_page_for_part_iv(pdf, text):
    """Parts I to III take at most 80 % of the page below the chapter title (from the sheet's
    first line to the footer), and Part IV's block, after them, ends above the footer of the same
    page."""
    page = _formula_sheet_page(text) + 1
    xhtml = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(pdf), "-"],
                           check=True, capture_output=True, text=True).stdout
    words = [(float(y0), float(y1), html.unescape(w)) for y0, y1, w in re.findall(
        r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', xhtml)]
    footer = max(words, key=lambda w: w[0])                     # the page number, lowest
    assert footer[2].strip().isdigit(), f"the lowest word of page {page} is {footer[2]!r}"
    top = min(y0 for y0, _, w in words if w == "results")       # "The results of the book ..."
    heads = [words[k][0] for k in range(1, len(words))
             if words[k - 1][2] == "Part" and words[k][2].startswith("IV")]
    assert len(heads) == 1, f"page {page} has {len(heads)} headings 'Part IV'"
    part3_bottom = max(y1 for y0, y1, _ in words if y0 < heads[0] - 1)
    share = (part3_bottom - top) / (footer[0] - top)
    assert share <= 0.8, f"Parts I to III take {share:.0%} of the formula sheet's page below the title"
    bottom = max(y1 for y0, y1, _ in words if y0 < footer[0] - 1)
    assert heads[0] < bottom < footer[0], (heads[0], bottom, footer[0])
