"""Mathematics typeset by Temml when the book is built, as MathML Core only: the HTML math
renderer ``bookmath`` (``docs/building.md``).  Temml runs in sphinxcontrib-katex's render
process, which this module starts itself: upstream connects to it only once, before it may
listen (``docs/upstream/sphinxcontrib-katex.patch``)."""

import atexit
import html
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from docutils import nodes
from sphinx.errors import ConfigError, ExtensionError
from sphinx.locale import _

NAME = "bookmath"
PROJECT = Path(__file__).resolve().parents[2]  # package.json and node_modules
TEMML = PROJECT / "node_modules" / "temml"
LIBRARY = "dist/temml.cjs"
COPY_TEX = "contrib/copy-tex/copy-tex.min.js"
STARTUP_SECONDS = 60
OPTIONS = {"annotate": True, "throwOnError": True}  # the TeX as an <annotation>, for copy-tex


def temml(path=LIBRARY):
    """``path`` in the pinned Temml package, or a ConfigError that says how to get it."""
    if not (TEMML / path).is_file():
        raise ConfigError(f"Temml is not installed at {TEMML}: run `make book`, or "
                          f"`npm ci` in {PROJECT} (package.json pins it)")
    return TEMML / path


def render(latex, display, where="", classes=""):
    """``latex`` typeset by Temml as MathML Core: a ``<math>`` element, of class ``classes``
    if given (inline only: Temml gives a display its own class)."""
    from sphinxcontrib import katex

    try:
        out = katex.render_latex(latex, {**OPTIONS, "displayMode": display}).strip()
    except katex.KaTeXError as err:
        raise ExtensionError(f"{where}: Temml cannot typeset {latex!r}: {err}") from None
    if not re.fullmatch(r"<math\b.*</math>", out, re.S):
        raise ExtensionError(f"{where}: Temml returned no MathML for {latex!r}: {out[:200]}")
    return out.replace("<math", f'<math class="{classes}"', 1) if classes else out


def _where(self, node):
    return f"{self.builder.current_docname}:{node.line or '?'}"


def visit_math(self, node):
    if node.get("ids"):  # an anchor: the formula in a span that carries it
        self.body.append(self.starttag(node, "span", "", CLASS="math"))
        self.body.append(render(node.astext(), False, _where(self, node)))
        self.body.append("</span>")
    else:
        self.body.append(render(node.astext(), False, _where(self, node),
                                " ".join(["math", *node.get("classes", [])])))
    raise nodes.SkipNode


def visit_displaymath(self, node):
    self.body.append(self.starttag(node, "div", CLASS="math"))
    if node["number"]:
        number = self.builder.fignumbers.get("displaymath", {}).get(node["ids"][0], ())
        number = ".".join(map(str, number)) or str(node["number"])
        self.body.append(f'<span class="eqno">({html.escape(number)})')
        self.add_permalink_ref(node, _("Permalink to this equation"))
        self.body.append("</span>")
    self.body.append(render(node.astext(), True, _where(self, node)))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def start_temml(app):
    """Start the render process with Temml now and connect once it accepts."""
    if getattr(app.builder, "math_renderer_name", None) != NAME:
        return
    from sphinxcontrib import katex

    if katex.KaTeXServer.katex_server is not None:
        return
    rundir = Path(tempfile.mkdtemp(prefix="nbcourse-temml-run-"))
    path = rundir / "render.sock"
    process = subprocess.Popen([katex.NODEJS_BINARY, katex.SCRIPT_PATH, "--socket", str(path),
                                "--katex", str(temml())],
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
            raise ExtensionError(f"Temml did not start ({' '.join(process.args)})")
        time.sleep(0.01)
    server = katex.KaTeXServer(rundir, process, sock)
    atexit.register(katex.KaTeXServer.terminate, server)
    katex.KaTeXServer.katex_server = server


def add_assets(app):
    """Temml's copy-tex (copying a formula gives its TeX), deferred, on HTML pages."""
    if getattr(app.builder, "math_renderer_name", None) == NAME:
        (Path(app.outdir) / "_static" / "temml").mkdir(parents=True, exist_ok=True)
        shutil.copy2(temml(COPY_TEX), Path(app.outdir) / "_static" / "temml")
        app.add_js_file(f"temml/{Path(COPY_TEX).name}", loading_method="defer")
