"""Mathematics typeset when the book is built: sphinxcontrib-katex with the pinned KaTeX.

sphinxcontrib-katex (``katex_prerender``) hands every equation to KaTeX running in Node
while Sphinx writes the pages, so a page arrives with its mathematics typeset (HTML for
the eye, MathML for screen readers) and loads no math script.  Sphinx still numbers the
equations and resolves ``{eq}`` references, as before.

This module points the extension at the KaTeX that ``tools/package.json`` pins (installed
by ``make book`` with ``npm ci`` into ``tools/node_modules``) instead of the copy bundled
with the extension, and serves KaTeX's stylesheet and fonts from the book itself
(the extension's default stylesheet address is a CDN):

- ``_static/katex/katex-swap.min.css``: KaTeX's stylesheet with ``font-display: swap``,
  so text is never hidden while a math font loads;
- ``_static/katex/fonts/``: the fonts that stylesheet names;
- ``_static/katex/copy-tex.min.js``: KaTeX's copy-tex, deferred, so that copying typeset
  mathematics puts its TeX source on the clipboard.

The extension starts its KaTeX process on first use and connects once the process's Unix
socket file appears, but Node creates that file a moment before it accepts connections, so
on a busy machine the connection can be refused and the build stops.  The process is
therefore started here, before the pages are written, and the connection is retried
until the process accepts it (or a minute has passed).

The LaTeX builder does not use any of this: the PDF typesets the same TeX with xelatex.
"""

import atexit
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from sphinx.errors import ConfigError, ExtensionError

TOOLS = Path(__file__).resolve().parent
KATEX = TOOLS / "node_modules" / "katex" / "dist"
STYLESHEET = "katex-swap.min.css"
COPY_TEX = "contrib/copy-tex.min.js"
STARTUP_SECONDS = 60


def katex_dist():
    """The ``dist`` folder of the pinned KaTeX, or a ConfigError that says how to get it."""
    if not (KATEX / "katex.min.js").is_file():
        raise ConfigError(f"KaTeX is not installed at {KATEX}: run `make book`, or "
                          f"`npm ci` in {TOOLS} (package.json pins it)")
    return KATEX


def use_pinned_katex(app):
    """Render with the pinned KaTeX and serve its stylesheet, fonts and copy-tex locally."""
    if app.builder.format != "html":
        return
    dist = katex_dist()
    config = app.config
    config.katex_js_path = str(dist / "katex.min.js")
    config.katex_css_path = f"katex/{STYLESHEET}"
    static = Path(tempfile.mkdtemp(prefix="nbcourse-katex-"))
    app.connect("build-finished", lambda app, exc: shutil.rmtree(static, ignore_errors=True))
    target = static / "katex"
    target.mkdir()
    shutil.copy2(dist / STYLESHEET, target / STYLESHEET)
    shutil.copy2(dist / COPY_TEX, target / Path(COPY_TEX).name)
    shutil.copytree(dist / "fonts", target / "fonts")
    config.html_static_path = [*config.html_static_path, str(static)]
    app.add_js_file(f"katex/{Path(COPY_TEX).name}", loading_method="defer")


def start_katex(app):
    """Start sphinxcontrib-katex's render process now and connect once it accepts."""
    if app.builder.format != "html" or not app.config.katex_prerender:
        return
    from sphinxcontrib import katex

    if katex.KaTeXServer.katex_server is not None:
        return
    rundir = Path(tempfile.mkdtemp(prefix="nbcourse-katex-run-"))
    path = rundir / "katex.sock"
    process = subprocess.Popen(katex.KaTeXServer.build_command(socket=path),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=rundir)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            break
        except (FileNotFoundError, ConnectionRefusedError):
            sock.close()
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise ExtensionError(f"KaTeX did not start ({' '.join(process.args)})")
        time.sleep(0.01)
    server = katex.KaTeXServer(rundir, process, sock)
    atexit.register(katex.KaTeXServer.terminate, server)
    katex.KaTeXServer.katex_server = server


def setup(app):
    # before sphinxcontrib-katex's own builder-inited handler (priority 500) reads the paths
    app.connect("builder-inited", use_pinned_katex, priority=400)
    # after it has set the path of the KaTeX to run
    app.connect("builder-inited", start_katex, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
