"""Mathematics typeset by KaTeX when the book is built, as MathML Core only: the HTML math
renderer ``bookmath`` (``docs/building.md``).  It starts sphinxcontrib-katex's render process
itself and renders with its own options until ``docs/upstream/sphinxcontrib-katex.patch``
is released."""

import atexit
import html
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

from docutils import nodes
from sphinx.errors import ConfigError, ExtensionError
from sphinx.locale import _

NAME = "bookmath"
PROJECT = Path(__file__).resolve().parents[2]  # package.json and node_modules
KATEX = PROJECT / "node_modules" / "katex" / "dist"
COPY_TEX = "contrib/copy-tex.min.js"
STARTUP_SECONDS = 60
OPTIONS = {"output": "mathml", "throwOnError": True}
_MATHML = re.compile(r'^<span class="katex">(<math\b.*</math>)</span>$', re.S)
MATHML_NS = "http://www.w3.org/1998/Math/MathML"
TOKENS = {f"{{{MATHML_NS}}}{t}" for t in ("mi", "mn", "mo", "mtext", "ms")}
ET.register_namespace("", MATHML_NS)
# Unicode's letter-like symbols that stand in for the gaps in its mathematical alphabets
_GAPS = {"ITALIC SMALL H": "PLANCK CONSTANT", "FRAKTUR CAPITAL": "BLACK-LETTER CAPITAL",
         "DOUBLE-STRUCK CAPITAL": "DOUBLE-STRUCK CAPITAL", "SCRIPT CAPITAL": "SCRIPT CAPITAL",
         "SCRIPT SMALL": "SCRIPT SMALL"}


def katex_dist():
    """The ``dist`` folder of the pinned KaTeX, or a ConfigError that says how to get it."""
    if not (KATEX / "katex.min.js").is_file():
        raise ConfigError(f"KaTeX is not installed at {KATEX}: run `make book`, or "
                          f"`npm ci` in {PROJECT} (package.json pins it)")
    return KATEX


def styled(char, variant):
    """``char`` in the mathematical alphabet that ``mathvariant="variant"`` names, if any:
    MathML Core styles letters by their code points (bold theta is U+1D73D) only."""
    words = {"bold-sans-serif": "SANS-SERIF BOLD", "sans-serif-bold-italic":
             "SANS-SERIF BOLD ITALIC"}.get(variant, variant.upper().replace("-", " "))
    words = words.replace("DOUBLE STRUCK", "DOUBLE-STRUCK").replace("SANS SERIF", "SANS-SERIF")
    name = unicodedata.name(char, "")
    letter = re.fullmatch(r"(?:LATIN|GREEK) (SMALL|CAPITAL) LETTER (\w+)", name)
    if letter:
        rest = f"{letter[1]} {letter[2]}"
    elif name.startswith("DIGIT ") or re.fullmatch(r"GREEK \w+ SYMBOL", name):
        rest = name.removeprefix("GREEK ")
    else:
        return char
    wanted = f"{words} {rest}"
    candidates = [f"MATHEMATICAL {wanted}"]
    candidates += [gap + wanted.removeprefix(key) for key, gap in _GAPS.items()
                   if wanted.startswith(key)]
    for candidate in candidates:
        try:
            return unicodedata.lookup(candidate)
        except KeyError:
            continue
    return char


def core_mathml(mathml):
    """KaTeX's MathML made MathML Core: styled letters as code points, a token holding
    elements (``\\stackrel``) an ``<mrow>``, no ``<mrow>`` around a formula of one element."""
    root = ET.fromstring(mathml)
    semantics = root[0] if len(root) and root[0].tag == f"{{{MATHML_NS}}}semantics" else None
    if semantics is not None and len(semantics) and semantics[0].tag == f"{{{MATHML_NS}}}mrow" \
            and len(semantics[0]) == 1 and not semantics[0].attrib:
        semantics[0] = semantics[0][0]  # an <mrow> around a single element adds nothing
    for element in root.iter():
        if element.tag not in TOKENS:
            continue
        if len(element):
            element.tag = f"{{{MATHML_NS}}}mrow"
            element.attrib.pop("stretchy", None)
            continue
        variant = element.attrib.get("mathvariant")
        if variant and variant != "normal":
            element.text = "".join(styled(c, variant) for c in element.text or "")
            del element.attrib["mathvariant"]
    return ET.tostring(root, encoding="unicode", short_empty_elements=False)


def render(latex, display, where="", classes="katex-mathml"):
    """``latex`` typeset by KaTeX as MathML: a ``<math>`` element of class ``classes``."""
    from sphinxcontrib import katex

    try:
        out = katex.render_latex(latex, {**OPTIONS, "displayMode": display})
    except katex.KaTeXError as err:
        raise ExtensionError(f"{where}: KaTeX cannot typeset {latex!r}: {err}") from None
    match = _MATHML.match(out.strip())
    if not match:
        raise ExtensionError(f"{where}: KaTeX returned no MathML for {latex!r}: {out[:200]}")
    mathml = core_mathml(match.group(1))
    return mathml.replace("<math ", f'<math class="{classes}" ', 1)


def _where(self, node):
    return f"{self.builder.current_docname}:{node.line or '?'}"


def visit_math(self, node):
    if node.get("ids"):  # an anchor: the formula in a span that carries it
        self.body.append(self.starttag(node, "span", "", CLASS="math"))
        self.body.append(render(node.astext(), False, _where(self, node), "katex katex-mathml"))
        self.body.append("</span>")
    else:
        self.body.append(render(node.astext(), False, _where(self, node),
                                " ".join(["math", *node.get("classes", []),
                                          "katex katex-mathml"])))
    raise nodes.SkipNode


def visit_displaymath(self, node):
    self.body.append(self.starttag(node, "div", CLASS="math"))
    if node["number"]:
        number = self.builder.fignumbers.get("displaymath", {}).get(node["ids"][0], ())
        number = ".".join(map(str, number)) or str(node["number"])
        self.body.append(f'<span class="eqno">({html.escape(number)})')
        self.add_permalink_ref(node, _("Permalink to this equation"))
        self.body.append("</span>")
    self.body.append('<span class="katex-display"><span class="katex">')
    self.body.append(render(node.astext(), True, _where(self, node)))
    self.body.append("</span></span></div>\n")
    raise nodes.SkipNode


def start_katex(app):
    """Start the KaTeX render process now and connect once it accepts."""
    if getattr(app.builder, "math_renderer_name", None) != NAME:
        return
    from sphinxcontrib import katex

    katex.KaTeXServer.katex_path = str(katex_dist() / "katex.min.js")
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


def add_assets(app):
    """KaTeX's copy-tex, deferred, on HTML pages."""
    if getattr(app.builder, "math_renderer_name", None) == NAME:
        (Path(app.outdir) / "_static" / "katex").mkdir(parents=True, exist_ok=True)
        shutil.copy2(katex_dist() / COPY_TEX, Path(app.outdir) / "_static" / "katex")
        app.add_js_file(f"katex/{Path(COPY_TEX).name}", loading_method="defer")
