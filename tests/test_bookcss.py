"""The book's one stylesheet (nbcourse_book.stylesheet): linked by every page, complete, purged."""

import re

from conftest import toc_files
from nbcourse_book import stylesheet as bookcss

STYLESHEET = re.compile(r'<link\b[^>]*\brel="stylesheet"[^>]*>')


def test_every_page_links_the_bundle_and_no_other_stylesheet(built_book):
    offenders = {}
    for doc in toc_files():
        links = STYLESHEET.findall((built_book / f"{doc}.html").read_text(encoding="utf-8"))
        hrefs = [re.search(r'href="([^"]*)"', link).group(1) for link in links]
        if [h.rsplit("/", 1)[-1].split("?")[0] for h in hrefs] != [bookcss.BUNDLE]:
            offenders[doc] = hrefs
    assert not offenders, f"pages whose stylesheets are not the bundle alone: {offenders}"


def test_every_url_in_the_bundle_names_a_file_of_the_build(built_book):
    static = built_book / "_static"
    text = (static / bookcss.BUNDLE).read_text(encoding="utf-8")
    urls = {m.group(2) for m in bookcss._URL.finditer(text)}
    files = {u for u in urls if not u.startswith("data:")}
    assert files, "the bundle names no file (the theme's icon font and basic.css's file.png)"
    missing = sorted(u for u in files if not (static / u.split("?")[0].split("#")[0]).is_file())
    assert not missing, f"URLs in {bookcss.BUNDLE} that name no file under _static: {missing}"
    assert "@import" not in text


def test_the_bundle_keeps_what_pages_and_scripts_use_and_drops_the_rest(built_book):
    text = (built_book / "_static" / bookcss.BUNDLE).read_text(encoding="utf-8")
    kept = ['html[data-theme=dark]',  # dark scheme, set by the theme's script
            '.pst-sidebar-hidden',  # added by sphinx-book-theme.js (sidebar button)
            '.bd-sidebar-primary',  # in the pages
            '.highlighted',  # search terms, marked by sphinx_highlight.js
            '.eqno:hover .headerlink']  # the book's own stylesheet, last
    assert [k for k in kept if k not in text] == []
    # Bootstrap components that no page shows
    dropped = ['.accordion-button', '.offcanvas-header', '.pagination', '.form-range']
    assert [d for d in dropped if d in text] == []
    assert text.index(".bd-sidebar-primary") < text.index(".eqno:hover .headerlink")


def test_imports_are_inlined_and_urls_made_relative_to_static(tmp_path):
    (tmp_path / "_static" / "styles").mkdir(parents=True)
    (tmp_path / "_static" / "base.css").write_text('.a{background:url(file.png)}')
    (tmp_path / "_static" / "styles" / "theme.css").write_text(
        '@import "../base.css";\n.b{src:url(\'../vendor/x.woff2\') url("data:,x")}')
    text = bookcss._inline(tmp_path, "_static/styles/theme.css", {"_static/styles/theme.css"})
    assert text == '.a{background:url("file.png")}\n.b{src:url("vendor/x.woff2") url("data:,x")}'
