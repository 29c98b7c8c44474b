"""One stylesheet for every HTML page, holding only the rules the book's markup can use.

The themes and extensions load ten stylesheets (about 520 KB, 90 KB compressed), most of
it Bootstrap and pydata-sphinx-theme rules for components the book never shows, which the
browser still matches against every element of a long chapter.  Each page gets instead one
``_static/nbcourse-bundle.css`` (pages that add a stylesheet of their own keep its link):
when the build has finished, the theme's stylesheets (``styles/theme.css``, which imports
``basic.css``, and ``styles/pydata-sphinx-theme.css``) and every stylesheet the extensions
and ``_static/nbcourse.css`` add are joined in the order the pages loaded them, with their
``url()`` and ``@import`` paths made relative to ``_static``, and PurgeCSS (pinned by
``tools/package.json``) drops the rules whose selectors name a class, id, element or
attribute value found in no built page and in no script of ``_static`` (the scripts name
the classes they add: the sidebar's, dark mode's, the dropdowns', search's).  Custom
properties, ``@font-face`` and ``@keyframes`` are kept.

The layout template leaves out the theme's two stylesheet links when ``nbcourse_css_bundle``
is set in the page context.  Built pages are not rewritten.
"""

import os
import posixpath
import re
import subprocess
from pathlib import Path

from sphinx.builders.html._assets import _CascadingStyleSheet
from sphinx.errors import ExtensionError

TOOLS = Path(__file__).resolve().parents[2]  # the project folder: package.json, node_modules
BUNDLE = "nbcourse-bundle.css"
# what pydata-sphinx-theme's head_pre_assets() links, before the other stylesheets
THEME_CSS = ("_static/styles/theme.css", "_static/styles/pydata-sphinx-theme.css")
_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
_IMPORT = re.compile(r"""@import\s+['"]([^'"]+)['"]\s*;""")  # as theme.css imports basic.css
_PURGE = """
const {PurgeCSS} = require("purgecss");
const [css, out, root] = process.argv.slice(1);
new PurgeCSS().purge({content: [root + "/**/*.html", root + "/_static/**/*.js"],
                      skippedContentGlobs: [root + "/_static/searchindex.js"], css: [css]})
  .then(r => require("fs").writeFileSync(out, r[0].css))
  .catch(e => { console.error(e.message); process.exit(1); });
"""


def _bundled(app):
    """The stylesheets (paths in the output folder) joined into the bundle, in the pages' order."""
    files = sorted(app.builder._css_files, key=lambda css: css.priority)
    return [*THEME_CSS, *(os.fspath(css.filename) for css in files)]


def link_bundle(app, pagename, templatename, context, doctree):
    """The page links the bundle in place of the stylesheets it holds."""
    if app.builder.format != "html":
        return
    bundled = set(_bundled(app))
    own = [css for css in context.get("css_files", []) if os.fspath(css.filename) not in bundled]
    context["css_files"] = [_CascadingStyleSheet(f"_static/{BUNDLE}", priority=0), *own]
    context["nbcourse_css_bundle"] = True


def _inline(outdir, name, seen):
    """A stylesheet's text with its imports inlined and its URLs relative to ``_static``."""
    folder = posixpath.dirname(name)
    text = (outdir / name).read_text(encoding="utf-8")

    def imported(match):
        target = posixpath.normpath(posixpath.join(folder, match.group(1)))
        return "" if target in seen else _inline(outdir, target, seen | {target})

    def url(match):
        ref = match.group(2)
        if ref.startswith(("data:", "#", "/")) or "://" in ref:
            return match.group(0)
        return f'url("{posixpath.relpath(posixpath.join(folder, ref), "_static")}")'

    return _IMPORT.sub(imported, _URL.sub(url, text))


def write_bundle(app, exception):
    if exception or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    static = outdir / "_static"
    joined = static / "nbcourse-bundle.src.css"
    joined.write_text("\n".join(_inline(outdir, name, {name}) for name in _bundled(app)),
                      encoding="utf-8")
    proc = subprocess.run(["node", "-e", _PURGE, str(joined), str(static / BUNDLE), str(outdir)],
                          cwd=TOOLS, capture_output=True, text=True)
    joined.unlink()
    if proc.returncode != 0:
        raise ExtensionError(f"PurgeCSS failed on the book's stylesheets ({proc.stderr.strip()}); "
                             f"is it installed? run `npm ci` in {TOOLS}")


def remove_stale_bundle(app):
    """No page links an earlier build's bundle with its checksum: it is written at the end."""
    if app.builder.format == "html":
        (Path(app.outdir) / "_static" / BUNDLE).unlink(missing_ok=True)


def setup(app):
    app.connect("builder-inited", remove_stale_bundle)
    app.connect("html-page-context", link_bundle, priority=995)
    app.connect("build-finished", write_bundle, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
