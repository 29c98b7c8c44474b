"""One stylesheet for every HTML page (``nbcourse_css_bundle: true``): once the pages are
written, the theme's and extensions' stylesheets joined in the pages' order (imports inlined,
URLs relative to ``_static``), and PurgeCSS drops the rules that name nothing in a page or a
script of ``_static`` (``bundle.js``, ``docs/building.md``).
"""

import os
import subprocess
from pathlib import Path

from sphinx.builders.html._assets import _CascadingStyleSheet
from sphinx.errors import ExtensionError

PROJECT = Path(__file__).resolve().parents[2]  # package.json and node_modules
BUNDLE = "nbcourse-bundle.css"
# what pydata-sphinx-theme's head_pre_assets() links, before the other stylesheets
THEME_CSS = ("_static/styles/theme.css", "_static/styles/pydata-sphinx-theme.css")
BUNDLER = PROJECT / "bundle.js"  # PostCSS and PurgeCSS, run by Node


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


def write_bundle(app, exception):
    if exception or not bundling(app):
        return
    out = Path(app.outdir, "_static", BUNDLE)
    proc = subprocess.run(["node", str(BUNDLER), str(app.outdir), str(out), *_bundled(app)],
                          cwd=PROJECT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ExtensionError(f"the book's stylesheets could not be joined and purged "
                             f"({proc.stderr.strip()}); run `npm ci` in {PROJECT}")


def remove_stale_bundle(app):
    """No page links an earlier build's bundle with its checksum: it is written at the end."""
    if bundling(app):
        (Path(app.outdir) / "_static" / BUNDLE).unlink(missing_ok=True)
