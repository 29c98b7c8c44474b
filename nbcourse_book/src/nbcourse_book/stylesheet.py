"""One stylesheet for every HTML page (``nbcourse_css_bundle: true``): once the pages are
written, the theme's and extensions' stylesheets joined in the pages' order, and PurgeCSS
drops the rules that name nothing in a page or a script of ``_static`` (``docs/building.md``).
"""

import os
import posixpath
import re
import subprocess
from pathlib import Path

from sphinx.builders.html._assets import _CascadingStyleSheet
from sphinx.errors import ExtensionError

PROJECT = Path(__file__).resolve().parents[2]  # package.json and node_modules
BUNDLE = "nbcourse-bundle.css"
# what pydata-sphinx-theme's head_pre_assets() links, before the other stylesheets
THEME_CSS = ("_static/styles/theme.css", "_static/styles/pydata-sphinx-theme.css")
_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
_IMPORT = re.compile(r"""@import\s+['"]([^'"]+)['"]\s*;""")  # as theme.css imports basic.css
PURGE = PROJECT / "purge.js"  # PurgeCSS, run by Node


def _bundled(app):
    """The stylesheets (paths in the output folder) joined into the bundle, in the pages' order."""
    files = sorted(app.builder._css_files, key=lambda css: css.priority)
    return [*THEME_CSS, *(os.fspath(css.filename) for css in files)]


def bundling(app):
    return app.builder.format == "html" and app.config.nbcourse_css_bundle


def link_bundle(app, pagename, templatename, context, doctree):
    """The page links the bundle in place of the stylesheets it holds."""
    if not bundling(app):
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
    if exception or not bundling(app):
        return
    outdir = Path(app.outdir)
    static = outdir / "_static"
    joined = static / "nbcourse-bundle.src.css"
    joined.write_text("\n".join(_inline(outdir, name, {name}) for name in _bundled(app)),
                      encoding="utf-8")
    proc = subprocess.run(["node", str(PURGE), str(joined), str(static / BUNDLE), str(outdir)],
                          cwd=PROJECT, capture_output=True, text=True)
    joined.unlink()
    if proc.returncode != 0:
        raise ExtensionError(f"PurgeCSS failed on the book's stylesheets ({proc.stderr.strip()}); "
                             f"is it installed? run `npm ci` in {PROJECT}")


def remove_stale_bundle(app):
    """No page links an earlier build's bundle with its checksum: it is written at the end."""
    if bundling(app):
        (Path(app.outdir) / "_static" / BUNDLE).unlink(missing_ok=True)
