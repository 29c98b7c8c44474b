"""The book's one stylesheet (nbcourse_book.stylesheet): linked by every page, complete, purged."""

import re
import subprocess

import pytest

from conftest import toc_files
from nbcourse_book import stylesheet as bookcss

STYLESHEET = re.compile(r'<link\b[^>]*\brel="stylesheet"[^>]*>')
URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")


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
    urls = {m.group(2) for m in URL.finditer(text)}
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


@pytest.mark.book  # Node and the packages of nbcourse_book/package-lock.json
def test_imports_are_inlined_urls_made_relative_and_unused_rules_dropped(tmp_path):
    (tmp_path / "_static" / "styles").mkdir(parents=True)
    (tmp_path / "_static" / "base.css").write_text(".a{background:url(file.png)}\n.gone{x:y}")
    (tmp_path / "_static" / "styles" / "theme.css").write_text(
        '@import "../base.css";\n.b{src:url(\'../vendor/x.woff2\') url("data:,x")}')
    (tmp_path / "_static" / "last.css").write_text(".c{color:red}")
    (tmp_path / "index.html").write_text('<p class="a b c">')
    out = tmp_path / "_static" / bookcss.BUNDLE
    subprocess.run(["node", str(bookcss.BUNDLER), str(tmp_path), str(out),
                    "_static/styles/theme.css", "_static/last.css"], check=True)
    text = out.read_text(encoding="utf-8")
    assert [m.group(2) for m in URL.finditer(text)] == ["file.png", "vendor/x.woff2", "data:,x"]
    assert "@import" not in text and ".gone" not in text
    assert text.index(".a{") < text.index(".b{") < text.index(".c{")
