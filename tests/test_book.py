"""The built book: every page present, self-contained, light, with correct launch links."""

import html
import json
import re
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pygments.token import STANDARD_TYPES

from conftest import ROOT, toc_files

PAGE_BUDGET = 3_000_000


def pages(html_root):
    return [html_root / f"{doc}.html" for doc in toc_files()]


def test_every_toc_entry_has_a_page(built_book):
    missing = [p for p in pages(built_book) if not p.exists()]
    assert not missing, f"pages not built: {missing}"


class ResourceParser(HTMLParser):
    """Collect the URLs a page loads by itself (not the links a reader clicks)."""

    LOADING = {"script": "src", "img": "src", "iframe": "src", "source": "src",
               "video": "src", "audio": "src", "embed": "src"}

    def __init__(self):
        super().__init__()
        self.loaded = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and set((attrs.get("rel") or "").split()) & {"stylesheet", "preload",
                                                                      "icon", "modulepreload"}:
            self.loaded.append(attrs.get("href") or "")
        elif tag in self.LOADING and attrs.get(self.LOADING[tag]):
            self.loaded.append(attrs[self.LOADING[tag]])


def loaded_urls(page):
    parser = ResourceParser()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.loaded


def test_pages_load_nothing_from_the_network(built_book):
    offenders = {}
    for page in pages(built_book):
        remote = [u for u in loaded_urls(page) if re.match(r"(https?:)?//", u)]
        if remote:
            offenders[page.name] = remote
    assert not offenders, f"resources loaded from the network: {offenders}"


def test_mathematics_is_typeset_when_the_book_is_built(built_book):
    """Temml typesets every equation into the page once, as MathML Core: no HTML copy for
    the eye, no math script, stylesheet or font, the TeX kept for copying."""
    with_math = [p for p in pages(built_book) if 'class="math' in p.read_text(encoding="utf-8")]
    assert len(with_math) >= 10, f"only {len(with_math)} pages contain mathematics"
    for page in with_math:
        text = page.read_text(encoding="utf-8")
        assert "temml-error" not in text, f"{page.name}: Temml could not typeset an equation"
        # an inline formula is <math class="math ...">, or a <math> in <span class="math"
        # id=...> when it is a target; a display one <div class="math"> ... <math display=
        # "block">
        typeset = text.count("<math")
        assert typeset, f"{page.name}: mathematics but nothing typeset"
        assert typeset == len(re.findall(r'class="math[" ]', text)), \
            f"{page.name}: an element of class math without typeset mathematics, or MathML " \
            "outside one"
        assert not re.search(r'<span class="math">\s*<math', text), \
            f"{page.name}: an inline formula wrapped in a span that adds nothing"
        assert "katex" not in text, f"{page.name}: KaTeX's markup"
        maths = re.findall(r"<math\b.*?</math>", text, flags=re.S)
        assert len(maths) == typeset
        no_tex = [m[:120] for m in maths
                  if '<annotation encoding="application/x-tex">' not in m]
        assert not no_tex, f"{page.name}: MathML without its TeX, which copy-tex puts on " \
                           f"the clipboard: {no_tex[:3]}"
        # MathML Core: browsers ignore mathvariant other than "normal" and show the text of
        # a token element, not markup inside it
        styled = re.findall(r'mathvariant="(?!normal")[^"]*"', text)
        assert not styled, f"{page.name}: mathvariant that browsers ignore: {styled[:3]}"
        nested = re.findall(r"<(mi|mn|mo|mtext)\b[^>]*>\s*<m", text)
        assert not nested, f"{page.name}: markup inside a token element: {nested[:3]}"
        prose = re.sub(r"<(pre|script|annotation)\b.*?</\1>", "", text, flags=re.S)
        assert not re.search(r"\\\(|\\\[|<script[^>]*mathjax|mjx-container", prose, re.I), \
            f"{page.name}: TeX left for a browser to typeset"
        scripts = [u for u in loaded_urls(page) if re.search(r"temml|katex|mathjax", u, re.I)]
        assert all(u.split("?")[0].endswith("temml/copy-tex.min.js") for u in scripts), \
            f"{page.name}: loads {scripts}"
        for url in scripts:
            local = urllib.parse.urlparse(url).path
            assert (page.parent / local).resolve().is_file(), f"{page.name}: {url} missing"


def test_numbered_equations_keep_their_numbers_and_references(built_book):
    page = (built_book / "book" / "part2" / "03_bounds.html").read_text(encoding="utf-8")
    equation = re.search(r'<div class="math[^"]*" id="equation-eq-w-9">(.*?)</div>', page, re.S)
    assert equation, "equation eq-w-9 is not on its page"
    assert re.match(r'\s*<span class="eqno">\(24\)<a class="headerlink" '
                    r'href="#equation-eq-w-9"', equation.group(1)), equation.group(1)[:200]
    assert '</span><math display="block" class="tml-display"' in equation.group(1)
    assert '<a class="reference internal" href="#equation-eq-w-9">Eq. 24</a>' in page, \
        "no reference to equation 24 on its page"


def test_pages_name_math_fonts_that_browsers_have(built_book):
    """No math font is downloaded: the book's stylesheet asks for the reader's math font."""
    css = (built_book / "_static" / "nbcourse.css").read_text(encoding="utf-8")
    rule = re.search(r"(?m)^math \{\s*font-family:([^;]*);", css)
    assert rule, "nbcourse.css does not set the font of MathML"
    families = [f.strip().strip('"') for f in rule.group(1).split(",")]
    assert families[-1] == "math" and "Latin Modern Math" in families, families
    temml = [f.name for f in (built_book / "_static" / "temml").iterdir()]
    assert temml == ["copy-tex.min.js"], f"more of Temml than copy-tex is built: {temml}"
    assert not (built_book / "_static" / "katex").exists(), "KaTeX is built"


def test_icons_are_inline_svg_without_an_icon_font_or_script(built_book):
    for page in pages(built_book):
        text = page.read_text(encoding="utf-8")
        left = re.findall(r'<(?:i|span) class="[^"]*\bfa[srb]?[- ][^"]*"', text)
        assert not left, f"{page.name}: icons left for an icon font: {left[:3]}"
        assert 'class="svg-inline--fa' in text, f"{page.name}: no icons"
        fonts = [u for u in loaded_urls(page) if "fontawesome" in u]
        assert not fonts, f"{page.name}: loads {fonts}"
        head = text.split("</head>")[0]
        assert not re.search(r"<script[^>]*(searchindex|searchtools|language_data)", head) \
            or page.name == "search.html", f"{page.name}: search scripts block the first paint"


def test_every_page_has_a_description_and_a_favicon(built_book):
    generated = [built_book / f"{name}.html" for name in ("genindex", "search", "prf-prf")]
    assert all(page.is_file() for page in generated)
    for page in pages(built_book) + generated:
        text = page.read_text(encoding="utf-8")
        found = re.findall(r'<meta name="description" content="([^"]+)"', text)
        assert len(found) == 1 and len(found[0]) > 40, f"{page.name}: no meta description"
        assert "\\" not in found[0], f"{page.name}: TeX in the description: {found[0]}"
        assert not re.search(r"[\[(] | [\])]", found[0]), \
            f"{page.name}: spaces misplaced around brackets: {found[0]}"
        assert len(re.findall(r'<meta name="viewport"', text)) == 1, page.name
        icon = re.search(r'<link rel="icon" href="([^"]+)"', text)
        assert icon and (page.parent / icon.group(1)).resolve().is_file(), f"{page.name}: favicon"


def test_the_front_page_links_the_pdf_at_the_site_root(built_book, book_config):
    """The front page's link to the print edition opens the PDF that ``make book`` and
    ``make pdf`` copy to the site's root, named by ``latex_documents``."""
    name = Path(book_config["latex"]["latex_documents"]["targetname"]).with_suffix(".pdf").name
    intro = built_book / "book" / "intro.html"
    links = re.findall(r'href="([^"#]*\.pdf)"', intro.read_text(encoding="utf-8"))
    assert links, "no link to the PDF on the front page"
    assert {(intro.parent / link).resolve() for link in links} == {(built_book / name).resolve()}


def test_a_description_reads_as_the_page_does(built_book):
    """The description is the text of the page's first paragraph, citations and all."""
    text = (built_book / "book" / "notation.html").read_text(encoding="utf-8")
    described = html.unescape(re.search(r'<meta name="description" content="([^"]+)"',
                                        text).group(1)).removesuffix("...")
    first = re.search(r"<p>(.*?)</p>", text.split('role="main"')[1], re.S).group(1)
    shown = " ".join(html.unescape(re.sub(r"<[^>]+>", "", first)).split())
    assert "Duda et al. [2001] (§2.9)" in described  # the case under test
    assert shown.startswith(described), (described, shown)


def test_every_image_loads_lazily(built_book):
    """Every image of a page, the frames of explorable figures and the logos of the launch
    menu load when they near the screen: none shares the bandwidth of the first paint."""
    checked = frames = 0
    for page in pages(built_book):
        for image in re.findall(r"<img [^>]*>", page.read_text(encoding="utf-8")):
            assert 'loading="lazy"' in image, f"{page.name}: {image[:120]}"
            checked += 1
            frames += "nbcourse-explore-frame" in image
    assert checked >= 40 and frames >= 5, f"only {checked} images checked ({frames} frames)"


def test_no_page_loads_sphinx_design_or_thebe_and_each_script_loads_once(built_book):
    """The book loads neither sphinx-design nor sphinx-thebe (``_config.yml``), which no page
    uses, and no script twice."""
    from jupyter_book.config import get_final_config

    config, _ = get_final_config(user_yaml=ROOT / "_config.yml", sourcedir=ROOT,
                                 cli_config={"latex_individualpages": False})
    assert not {"sphinx_design", "sphinx_thebe"} & set(config["extensions"])
    assert {"sphinx_book_theme", "sphinxcontrib.bibtex", "nbcourse_book"} <= set(
        config["extensions"])
    for page in pages(built_book):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"sphinx-design|design-tabs|thebe", text), page.name
        scripts = re.findall(r"<script\b[^>]*>.*?</script>", text, re.S)
        assert len(scripts) == len(set(scripts)), [s for s in scripts if scripts.count(s) > 1]


def test_a_title_with_mathematics_reads_as_unicode_wherever_it_is_shown(built_book):
    """A chapter title with a formula is written in Unicode (``The factor Q⁻ᵛ``), so that the
    page title, og:title, the print header and the prev/next links of the pages around it,
    where HTML cannot typeset mathematics, read as the heading does."""
    part2 = built_book / "book" / "part2"
    page = (part2 / "02_q_minus_j.html").read_text(encoding="utf-8")
    assert "<title>The factor Q⁻ᵛ &#8212;" in page, re.search(r"<title>.*?</title>", page)
    assert '<meta property="og:title" content="The factor Q⁻ᵛ" />' in page
    assert "<h1>The factor Q⁻ᵛ</h1>" in page  # sphinx-book-theme's print header
    with_tex = []
    for doc in toc_files():
        path = next(p for p in (ROOT / f"{doc}.ipynb", ROOT / f"{doc}.md") if p.is_file())
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "".join(json.loads(text)["cells"][0]["source"])
        title = next(line for line in text.splitlines() if line.startswith("# "))
        with_tex += [title] if "$" in title or "\\(" in title else []
    assert not with_tex, f"titles with TeX, which <title> and og:title show raw: {with_tex}"
    for neighbour, rel in (("01_two_models", "next"), ("03_bounds", "prev")):
        text = (part2 / f"{neighbour}.html").read_text(encoding="utf-8")
        assert f'<link rel="{rel}" title="The factor Q⁻ᵛ" href="02_q_minus_j.html" />' in text, \
            re.findall(r'<link rel="(?:prev|next)"[^>]*>', text)


def png_size(path):
    """(width, height) read from a PNG file's header."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_images_carry_their_files_size_as_attributes_and_are_not_links(built_book):
    """The browser reserves an image's place before it loads: ``width`` and ``height`` are
    the file's pixels, as attributes (a ``style`` would stop the image shrinking with the
    column), and sizing an image does not make it a link to its file."""
    checked = 0
    for page in pages(built_book):
        text = page.read_text(encoding="utf-8")
        for image in re.findall(r"<img [^>]*>", text):
            src = re.search(r'\bsrc="([^"]*_images/[^"]+\.png)"', image)
            if not src:
                continue
            attributes = dict(re.findall(r'\b(width|height|style)="([^"]*)"', image))
            path = (page.parent / urllib.parse.unquote(src.group(1))).resolve()
            expected = png_size(path)
            assert (attributes.get("width"), attributes.get("height")) == tuple(map(str, expected)), \
                f"{page.name}: {path.name} is {expected[0]} x {expected[1]}: {image[:160]}"
            assert not re.search(r"(?<![-\w])(width|height) *: *[0-9]", attributes.get("style", "")), \
                f"{page.name}: a fixed size in the style: {image[:160]}"
            checked += 1
        assert "image-reference" not in text, f"{page.name}: an image is a link to its file"
    assert checked >= 10, f"only {checked} images checked"


def page_weight(page):
    """Bytes of the page's HTML plus the images it references from the build."""
    html = page.read_text(encoding="utf-8")
    total = len(html.encode())
    for src in set(re.findall(r'<img[^>]*\bsrc="([^"]+)"', html)):
        if not src.startswith("data:"):
            path = (page.parent / urllib.parse.unquote(src)).resolve()
            total += path.stat().st_size if path.is_file() else 0
    return total


def test_no_page_is_over_budget(built_book):
    weights = {p.name: page_weight(p) for p in pages(built_book)}
    heavy = {name: w for name, w in weights.items() if w > PAGE_BUDGET}
    assert not heavy, f"pages over {PAGE_BUDGET} bytes: {heavy}"


def binder_links(page):
    return re.findall(r'href="(https://mybinder\.org/v2/gh/[^"]+)"',
                      page.read_text(encoding="utf-8"))


def repository_slug(book_config):
    url = book_config["repository"]["url"].rstrip("/")
    assert url.startswith("https://github.com/"), url
    return url.removeprefix("https://github.com/")


def interface_path(book_config):
    """Binder's ``urlpath`` prefix for the interface ``_config.yml`` names."""
    interface = book_config["launch_buttons"]["notebook_interface"]
    return {"jupyterlab": "urlpath=lab/tree/", "classic": "urlpath=tree/"}[interface]


def test_binder_links_open_the_pages_own_notebook(built_book, book_config):
    slug, branch = repository_slug(book_config), book_config["repository"]["branch"]
    prefix = interface_path(book_config)
    notebooks = [doc for doc in toc_files() if (ROOT / f"{doc}.ipynb").exists()]
    if not notebooks:
        pytest.fail("the table of contents lists no notebooks")
    for doc in notebooks:
        links = [link for link in binder_links(built_book / f"{doc}.html")
                 if "exercises/" not in urllib.parse.unquote(link)]
        assert links, f"{doc}: no Binder launch link"
        for link in links:
            parsed = urllib.parse.urlparse(link)
            assert parsed.path == f"/v2/gh/{slug}/{branch}", f"{doc}: {link}"
            query = urllib.parse.unquote(parsed.query)
            assert query == f"{prefix}{doc}.ipynb", f"{doc}: Binder opens {query}"


def test_every_chapter_with_solutions_links_its_notebook_after_the_exercises(built_book,
                                                                             book_config):
    slug, branch = repository_slug(book_config), book_config["repository"]["branch"]
    prefix = interface_path(book_config)
    checked = 0
    for doc in toc_files():
        source = ROOT / f"{doc}.ipynb"
        if not source.is_file() or "{solution}" not in source.read_text(encoding="utf-8"):
            continue
        page = (built_book / f"{doc}.html").read_text(encoding="utf-8")
        links = re.findall(r'class="nbcourse-student-version">.*?href="([^"]+)"', page, re.S)
        assert len(links) == 1, f"{doc}: {len(links)} links to the chapter's notebook"
        parsed = urllib.parse.urlparse(links[0].replace("&amp;", "&"))
        assert parsed.path == f"/v2/gh/{slug}/{branch}", f"{doc}: {links[0]}"
        assert urllib.parse.unquote(parsed.query) == f"{prefix}{doc}.ipynb", links[0]
        assert "students/" not in links[0]
        checked += 1
    assert checked >= 8, f"only {checked} chapters with solutions"


def test_readme_badge_points_at_the_configured_repository(book_config):
    slug, branch = repository_slug(book_config), book_config["repository"]["branch"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    badges = re.findall(r"\(https://mybinder\.org/v2/gh/([^)?]+)", readme)
    assert badges, "README has no Binder badge"
    assert all(b == f"{slug}/{branch}" for b in badges), badges


class ImageParser(HTMLParser):
    """Collect the ``src`` and ``alt`` of every image in a page's article."""

    def __init__(self):
        super().__init__()
        self.images, self.depth = [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.depth += 1
        elif tag == "img" and self.depth:
            self.images.append((attrs.get("src", ""), (attrs.get("alt") or "").strip()))

    def handle_endtag(self, tag):
        if tag == "article":
            self.depth -= 1


def article_images(page):
    parser = ImageParser()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.images


def test_every_figure_has_alt_text(built_book):
    missing = {}
    for page in pages(built_book):
        bad = [src[:60] for src, alt in article_images(page)
               if not alt or alt.endswith((".png", ".svg", ".jpg")) or "_images/" in alt]
        if bad:
            missing[page.name] = bad
    assert not missing, f"images without real alt text: {missing}"


def test_every_notebook_figure_has_a_caption(built_book):
    uncaptioned = {}
    for doc in toc_files():
        if not (ROOT / f"{doc}.ipynb").exists():
            continue
        html = (built_book / f"{doc}.html").read_text(encoding="utf-8")
        outputs = re.findall(r'<div class="cell_output[^"]*">(.*?)</div>\s*</div>', html, re.S)
        bare = [o for o in outputs if "<img" in o and "<figcaption" not in o]
        if bare:
            uncaptioned[doc] = len(bare)
    assert not uncaptioned, f"figure outputs without a caption: {uncaptioned}"


def test_figures_are_opaque_so_they_read_in_dark_mode(built_book):
    import matplotlib.image as mpimg

    translucent = []
    for png in sorted((built_book / "_images").glob("*.png")):
        pixels = mpimg.imread(png)
        if pixels.ndim == 3 and pixels.shape[2] == 4 and float(pixels[..., 3].min()) < 1.0:
            translucent.append(png.name)
    assert not translucent, f"figures with transparent backgrounds: {translucent}"


def test_chapters_link_existing_assignments_on_binder(built_book, book_config):
    slug, branch = repository_slug(book_config), book_config["repository"]["branch"]
    linked = set()
    for page in pages(built_book):
        for link in binder_links(page):
            query = urllib.parse.unquote(urllib.parse.urlparse(link).query)
            if "exercises/" in query:
                assert link.startswith(f"https://mybinder.org/v2/gh/{slug}/{branch}?"), link
                prefix = interface_path(book_config)
                assert query.startswith(prefix), f"{page.name}: {link} is not {prefix}..."
                path = query.removeprefix(prefix)
                assert (ROOT / path).is_file(), f"{page.name} links a missing {path}"
                linked.add(Path(path).parent.name)
    assignments = {p.name for p in (ROOT / "exercises").iterdir() if (p / "tests.py").exists()}
    assert assignments, "no assignments in exercises/"
    assert assignments <= linked, f"assignments no chapter links: {sorted(assignments - linked)}"


def test_binder_url_opens_the_configured_branch_in_the_configured_interface():
    from nbcourse_book.launch import binder_url

    assert binder_url("https://github.com/org/course/", "student", "book/part1/a b.ipynb",
                      {"binderhub_url": "https://hub.example.org/",
                       "notebook_interface": "jupyterlab"}) == \
        "https://hub.example.org/v2/gh/org/course/student?urlpath=lab/tree/book/part1/a%20b.ipynb"
    assert binder_url("https://github.com/org/course", "main", "exercises/x/x.ipynb") == \
        "https://mybinder.org/v2/gh/org/course/main?urlpath=tree/exercises/x/x.ipynb"
    with pytest.raises(ValueError, match="notebook_interface: expected one of "
                                         r"\['classic', 'jupyterlab'\], got 'retro'"):
        binder_url("https://github.com/org/course", "main", "x.ipynb",
                   {"notebook_interface": "retro"})


def test_answers_page_lists_every_self_check_question_with_a_link_back(built_book):
    """Every self-check form in a chapter page has one entry on the answers page, in book
    order, whose link lands on that form."""
    forms = []
    for page in pages(built_book):
        if page.name != "answers.html":
            forms += [(page.resolve(), ident) for ident in
                      re.findall(r'<form class="nbcourse-selfcheck" id="([\w-]+)"',
                                 page.read_text(encoding="utf-8"))]
    assert len(forms) >= 20, f"only {len(forms)} self-check questions in the book"
    answers = built_book / "book" / "answers.html"
    text = answers.read_text(encoding="utf-8")
    links = re.findall(r'<a class="reference external" href="([^"#]+)#([\w-]+)">'
                       r'\(the question\)</a>', text)
    targets = [((answers.parent / urllib.parse.unquote(href)).resolve(), ident)
               for href, ident in links]
    assert targets == forms
    assert text.count("<strong>Answer: </strong>") == len(forms)


# --- code highlighting (nbcourse_book.pages) --------------------------------------------------

def test_code_carries_one_span_per_run_of_tokens_drawn_alike(built_book):
    """Names and punctuation, drawn in the code's text colour by both highlighting styles,
    are bare text; tokens both styles draw alike share one class, and a run of them one span;
    keywords and prompts keep their classes."""
    from nbcourse_book.pages import drawn_alike

    text = (built_book / "book" / "part2" / "04_experiments.html").read_text(encoding="utf-8")
    code = "".join(re.findall(r'<div class="highlight"><pre>(.*?)</pre>', text, re.S))
    assert code, "no highlighted code on the page"
    classes = re.findall(r'<span class="([^"]+)">', code)
    assert not {"n", "p", "w"} & set(classes), sorted(set(classes))
    assert "k" in classes, sorted(set(classes))
    written = {STANDARD_TYPES[t] for t in drawn_alike(
        ["a11y-high-contrast-light", "a11y-high-contrast-dark"]).values()}
    assert "s2" not in written and "o" in written
    assert set(classes) <= written | {"gp", "go"}, sorted(set(classes) - written)
    neighbours = re.findall(r'<span class="([^"]+)">[^<]*</span><span class="\1">', code)
    assert not neighbours, f"neighbouring tokens drawn alike in separate spans: {neighbours}"


def test_token_types_drawn_alike_by_both_styles_share_a_class():
    from nbcourse_book.pages import drawn_alike
    from pygments.token import Generic, Keyword, Name, Operator, Punctuation, String, Text

    drawn_as = drawn_alike(["a11y-high-contrast-light", "a11y-high-contrast-dark"])
    assert drawn_as[Name] is Text and drawn_as[Punctuation] is Text
    assert drawn_as[Keyword] is not Text and drawn_as[Name.Builtin] is not Text
    assert drawn_as[Keyword.Namespace] is drawn_as[Keyword]
    assert drawn_as[String.Double] is drawn_as[String.Interpol] is drawn_as[Operator]
    assert not any(t in Generic for t in drawn_as)
    # a style that colours names, strings and operators apart: each keeps its own class
    other = drawn_alike(["a11y-high-contrast-light", "tango"])
    assert other[Name] is not Text
    assert other[String.Double] is not other[Operator]
