"""Lighthouse scores and page weight of the built HTML book, optionally against an earlier build.

Serves the built book (``--html``, default ``_build/html``) with Python's ``http.server`` on
127.0.0.1 and runs Lighthouse against Debian's Chromium, headless, for the mobile (default)
and desktop presets and the categories performance, accessibility, best-practices and SEO.
For each page, preset and build it prints the median over ``--repeats`` runs of the four
category scores (0-100), of the total byte weight (KiB transferred while the page loads,
before any scrolling), of the Largest Contentful Paint and of the Total Blocking Time (ms,
Lighthouse's simulated mobile or desktop throttling), of the Cumulative Layout Shift, and of
the weight by kind of resource (HTML, JavaScript, CSS, images, fonts; KiB) with the number
of requests.

The pages measured are the front page, three chapters and, unless ``--no-heaviest``, the
heaviest page of the book: the one whose HTML (gzip-compressed) and images add up to the
most bytes in the build measured last.  ``--most-elements N`` adds the N pages with the most
HTML elements (where style and layout cost the most), and ``--pages all`` measures every
page of the book, and ``--reports DIR`` keeps each run's full Lighthouse report (JSON: the
main-thread breakdown, script boot-up, DOM size, LCP element and long tasks).
``--before DIR`` measures a second build (for example one made from an earlier commit) in
the same run, alternating between the two builds page by page so that
the load of a shared machine hits both, and adds the ratio after/before.  It asserts
nothing: the figures are for reading.

Text files (HTML, CSS, JavaScript, SVG, JSON) are sent gzip-compressed, as static hosts
such as GitHub Pages do, so the byte weight is what a reader downloads; ``--no-gzip``
serves every file as it is.  The pages are served from the root of the origin, so a
browser's request for ``/favicon.ico`` gets a 404 (a console error in best-practices) in
both builds alike when a build declares no favicon of its own.

Lighthouse (the npm package, version ``LIGHTHOUSE_VERSION``) is installed on first use with
``npm install --prefix`` into ``~/.cache/nbcourse-lighthouse`` (``NBCOURSE_LIGHTHOUSE_CACHE``
overrides), or taken from ``--lighthouse PATH`` (its ``cli/index.js`` or an executable).
Nothing is fetched from outside during a run; Chromium's background networking is off.

    .venv/bin/python benchmarks/bench_lighthouse.py [--html DIR] [--before DIR]
        [--repeats 3] [--presets mobile desktop] [--pages index.html book/part2/06_explore.html]
        [--most-elements 10] [--pages all] [--reports DIR]

A page given as ``index.html`` whose file only redirects (the root page of a Jupyter Book)
is measured at the page it redirects to.  One Lighthouse run takes about 20-40 s here.
"""

import argparse
import functools
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Lighthouse 13 needs Node >= 22.19; 12.8.2 (Node >= 18.16) runs on Debian 12's Node 20 too.
LIGHTHOUSE_VERSION = "12.8.2"
CACHE = Path(os.environ.get("NBCOURSE_LIGHTHOUSE_CACHE",
                            Path.home() / ".cache" / "nbcourse-lighthouse"))
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
DEFAULT_PAGES = ("index.html", "book/part1/04_explore_binary_discriminant.html",
                 "book/part2/04_experiments.html", "book/part2/07_smoothing.html")
# Lighthouse's resource-summary kinds, as columns
KINDS = (("document", "HTML"), ("script", "JS"), ("stylesheet", "CSS"), ("image", "img"),
         ("font", "font"))
# (key, column title, how to read it from a Lighthouse report, format)
METRICS = (
    ("performance", "perf", lambda r: _score(r, "performance"), "{:.0f}"),
    ("accessibility", "a11y", lambda r: _score(r, "accessibility"), "{:.0f}"),
    ("best-practices", "best-pr", lambda r: _score(r, "best-practices"), "{:.0f}"),
    ("seo", "SEO", lambda r: _score(r, "seo"), "{:.0f}"),
    ("weight", "KiB", lambda r: _audit(r, "total-byte-weight", 1 / 1024), "{:.0f}"),
    ("lcp", "LCP ms", lambda r: _audit(r, "largest-contentful-paint"), "{:.0f}"),
    ("tbt", "TBT ms", lambda r: _audit(r, "total-blocking-time"), "{:.0f}"),
    ("cls", "CLS", lambda r: _audit(r, "cumulative-layout-shift"), "{:.3f}"),
    *((kind, f"{title} KiB", lambda r, kind=kind: _kind(r, kind, "transferSize", 1 / 1024),
       "{:.0f}") for kind, title in KINDS),
    ("requests", "requests", lambda r: _kind(r, "total", "requestCount"), "{:.0f}"),
)
SCORES, TIMING, KIND_COLUMNS = METRICS[:4], METRICS[4:8], METRICS[8:]
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/xml",
                "image/svg+xml")
_REFRESH = re.compile(r'<meta\s+http-equiv="refresh"\s+content="\d+;\s*url=([^"]+)"', re.I)


def _score(report, category):
    score = report["categories"].get(category, {}).get("score")
    return None if score is None else 100 * score


def _audit(report, audit, scale=1.0):
    value = report["audits"].get(audit, {}).get("numericValue")
    return None if value is None else value * scale


def _kind(report, kind, field, scale=1.0):
    """A resource kind's ``transferSize`` or ``requestCount`` from resource-summary."""
    items = report["audits"].get("resource-summary", {}).get("details", {}).get("items", [])
    for item in items:
        if item.get("resourceType") == kind:
            return item.get(field, 0) * scale
    return 0 if items else None


def book_pages(html_root):
    """Every HTML page of a build (not the theme's files), as paths relative to it, sorted."""
    skip = {"_static", "_sources", "_images", "_downloads"}
    return sorted(page.relative_to(html_root).as_posix() for page in html_root.rglob("*.html")
                  if not skip & set(page.relative_to(html_root).parts))


def most_elements(html_root, count):
    """The ``count`` pages with the most HTML elements (start tags), most first."""
    sizes = {page: len(re.findall(rb"<[a-zA-Z]", (html_root / page).read_bytes()))
             for page in book_pages(html_root)}
    return sorted(sizes, key=lambda page: (-sizes[page], page))[:count]


def heaviest_page(html_root):
    """The page whose gzip-compressed HTML plus the images it shows weigh the most."""
    best, best_weight = None, -1
    for rel in book_pages(html_root):
        page = html_root / rel
        text = page.read_bytes()
        weight = len(gzip.compress(text, compresslevel=6))
        for src in set(re.findall(rb'<img[^>]*\bsrc="([^"]+)"', text)):
            path = (page.parent / src.decode()).resolve()
            if not src.startswith(b"data:") and path.is_file():
                weight += path.stat().st_size
        if weight > best_weight:
            best, best_weight = rel, weight
    return best


# --- serving a build ---------------------------------------------------------------------

class _Handler(SimpleHTTPRequestHandler):
    """Static files over HTTP/1.1 (keep-alive), text gzip-compressed when asked for."""

    protocol_version = "HTTP/1.1"
    use_gzip = True
    _compressed = {}
    _lock = threading.Lock()

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        body = self._gzip_body()
        if body is None:
            super().do_GET()
            return
        data, ctype, mtime = body
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Last-Modified", self.date_time_string(mtime))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(data)

    def _gzip_body(self):
        if not self.use_gzip or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return None
        path = self.translate_path(self.path)
        if not os.path.isfile(path):
            return None
        ctype = self.guess_type(path)
        if not ctype.startswith(COMPRESSIBLE):
            return None
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
        with self._lock:
            data = self._compressed.get(key)
        if data is None:
            data = gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)
            with self._lock:
                self._compressed[key] = data
        if ctype.startswith("text/"):
            ctype += "; charset=utf-8"
        return data, ctype, st.st_mtime


def serve(directory, use_gzip):
    """Start a server for ``directory`` on a free port of 127.0.0.1; return (server, base URL)."""
    handler = type("Handler", (_Handler,), {"use_gzip": use_gzip, "_compressed": {}})
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(handler, directory=str(directory)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def resolve_page(html_root, page):
    """The page as measured: a file that only redirects (meta refresh) is followed once."""
    path = html_root / page
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    match = _REFRESH.search(text)
    if match and len(text) < 2000:
        target = (path.parent / match.group(1).split("#")[0]).resolve()
        if target.is_file():
            return target.relative_to(html_root.resolve()).as_posix()
    return page


# --- Lighthouse --------------------------------------------------------------------------

def lighthouse_command(given):
    """The command that runs the Lighthouse CLI; install the pinned version if needed."""
    if given:
        path = Path(given)
        return ["node", str(path)] if path.suffix in {".js", ".mjs", ".cjs"} else [str(path)]
    cli = CACHE / "node_modules" / "lighthouse" / "cli" / "index.js"
    package = CACHE / "node_modules" / "lighthouse" / "package.json"
    installed = None
    if package.is_file():
        installed = json.loads(package.read_text(encoding="utf-8")).get("version")
    if installed != LIGHTHOUSE_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is needed to install Lighthouse (or give --lighthouse PATH)")
        print(f"installing lighthouse@{LIGHTHOUSE_VERSION} into {CACHE} ...", file=sys.stderr)
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund",
                        f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True,
                       stdout=subprocess.DEVNULL)
    return ["node", str(cli)]


def run_lighthouse(command, url, preset, chrome, workdir, timeout):
    """One Lighthouse run; return (report, None) or (None, error text)."""
    out = Path(workdir) / "report.json"
    out.unlink(missing_ok=True)
    cmd = [*command, url, "--quiet", "--output=json", f"--output-path={out}",
           f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}",
           "--max-wait-for-load=90000"]
    if preset != "mobile":
        cmd.append(f"--preset={preset}")
    env = dict(os.environ, CHROME_PATH=chrome)
    try:
        proc = subprocess.run(cmd, env=env, cwd=workdir, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    if proc.returncode != 0 or not out.is_file():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return None, f"exit {proc.returncode}: " + " | ".join(tail)
    report = json.loads(out.read_text(encoding="utf-8"))
    error = report.get("runtimeError")
    if error:
        return None, f"{error.get('code')}: {error.get('message')}"
    return report, None


# --- the table ---------------------------------------------------------------------------

def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(value, spec="{:.0f}"):
    return "-" if value is None else spec.format(value)


def ratio(after, before):
    if after is None or before is None or before == 0:
        return "-"
    return f"{after / before:.2f}"


def print_table(title, metrics, rows, builds, repeats):
    """rows: (label, preset, {build: {metric: [values]}}).  One column group per metric.

    Return whether a row has fewer values than ``repeats`` (marked with a star).
    """
    compare = len(builds) == 2
    any_short = False
    sub = ("before", "after", "ratio") if compare else ("value",)
    widths = [max(len(s), 7) for s in sub]
    label_w = max([len("page"), *(len(r[0]) for r in rows)])
    group_w = sum(widths) + len(widths) - 1
    print(f"\n{title} (median of {repeats} runs; ratio = after/before)" if compare
          else f"\n{title} (median of {repeats} runs)")
    print(" " * (label_w + 10) + " | ".join(m[1].center(group_w) for m in metrics))
    print(f"{'page':<{label_w}}  {'preset':<8}"
          + " | ".join(" ".join(f"{s:>{w}}" for s, w in zip(sub, widths, strict=True))
                       for _ in metrics))
    for label, preset, values in rows:
        cells = []
        for key, _, _, spec in metrics:
            med = [median(values[b][key]) if b in values else None for b in builds]
            short = min((len([v for v in values[b][key] if v is not None])
                         for b in builds if b in values), default=0) < repeats
            parts = [fmt(m, spec) for m in med] + ([ratio(med[1], med[0])] if compare else [])
            if short:
                parts[-1] += "*"
                any_short = True
            cells.append(" ".join(f"{p:>{w}}" for p, w in zip(parts, widths, strict=True)))
        print(f"{label:<{label_w}}  {preset:<8}" + " | ".join(cells))
    return any_short


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html",
                        help="the built HTML book to measure (default: _build/html)")
    parser.add_argument("--before", type=Path,
                        help="an earlier build, measured in the same run for comparison")
    parser.add_argument("--pages", nargs="+", default=list(DEFAULT_PAGES),
                        help="pages relative to the HTML folder, or 'all' for every page")
    parser.add_argument("--most-elements", type=int, default=0, metavar="N",
                        help="also measure the N pages with the most HTML elements")
    parser.add_argument("--presets", nargs="+", default=["mobile", "desktop"],
                        choices=["mobile", "desktop"])
    parser.add_argument("--no-heaviest", action="store_true",
                        help="do not add the heaviest page of the book to --pages")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lighthouse", help="Lighthouse CLI to use instead of the pinned one")
    parser.add_argument("--chrome", default=os.environ.get("CHROME_PATH", "/usr/bin/chromium"),
                        help="the Chromium executable (default: $CHROME_PATH or /usr/bin/chromium)")
    parser.add_argument("--no-gzip", action="store_true",
                        help="serve text files uncompressed")
    parser.add_argument("--timeout", type=int, default=300, help="seconds for one run")
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    parser.add_argument("--reports", type=Path, metavar="DIR",
                        help="keep every run's full Lighthouse report (JSON) in DIR")
    args = parser.parse_args()

    builds = {}
    if args.before:
        builds["before"] = args.before
    builds["after" if args.before else "this"] = args.html
    for name, folder in builds.items():
        if not folder.is_dir():
            sys.exit(f"{name}: {folder} is not a built HTML folder")
    if not Path(args.chrome).is_file():
        sys.exit(f"no Chromium at {args.chrome} (--chrome PATH or CHROME_PATH)")
    command = lighthouse_command(args.lighthouse)

    last = list(builds.values())[-1]
    if args.pages == ["all"]:
        args.pages = book_pages(last)
    elif "all" in args.pages:
        sys.exit("--pages: give 'all' alone or a list of pages")
    if args.most_elements < 0:
        sys.exit(f"--most-elements: expected a number of pages >= 0, got {args.most_elements}")
    args.pages += [p for p in most_elements(last, args.most_elements) if p not in args.pages]
    if not args.no_heaviest:
        heaviest = heaviest_page(list(builds.values())[-1])
        print(f"heaviest page: {heaviest}", file=sys.stderr)
        if heaviest and heaviest not in args.pages:
            args.pages.append(heaviest)

    # page label -> {build: page path as measured in that build}
    pages = {}
    for page in args.pages:
        resolved = {b: resolve_page(folder, page) for b, folder in builds.items()}
        present = {b: p for b, p in resolved.items() if p is not None}
        if not present:
            print(f"skipped {page}: in no build", file=sys.stderr)
            continue
        for b in builds:
            if b not in present:
                print(f"{page}: not in the {b} build, measured in the other only",
                      file=sys.stderr)
        label = next(iter(present.values()))
        pages[label.removesuffix(".html")] = present

    servers = {}
    for name, folder in builds.items():
        servers[name] = serve(folder.resolve(), not args.no_gzip)
    results = {(label, preset): {b: {m[0]: [] for m in METRICS} for b in present}
               for label, present in pages.items() for preset in args.presets}
    raw, warnings, env_info = [], set(), {}
    names = list(builds)
    total = sum(len(p) for p in pages.values()) * len(args.presets) * args.repeats
    done, start = 0, time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as workdir:
            for rep in range(args.repeats):
                for preset in args.presets:
                    for i, (label, present) in enumerate(pages.items()):
                        # Alternate which build goes first, so drift on the machine is shared.
                        order = names if (rep + i) % 2 == 0 else names[::-1]
                        for b in order:
                            if b not in present:
                                continue
                            url = servers[b][1] + present[b]
                            t0 = time.perf_counter()
                            report, error = run_lighthouse(command, url, preset, args.chrome,
                                                           workdir, args.timeout)
                            done += 1
                            took = time.perf_counter() - t0
                            if error:
                                print(f"[{done}/{total}] {b} {preset} {label}: FAILED {error}",
                                      file=sys.stderr)
                                continue
                            if args.reports:
                                args.reports.mkdir(parents=True, exist_ok=True)
                                name = f"{b}-{preset}-{label.replace('/', '_')}-{rep}.json"
                                (args.reports / name).write_text(json.dumps(report),
                                                                 encoding="utf-8")
                            row = {m[0]: m[2](report) for m in METRICS}
                            for key, value in row.items():
                                results[label, preset][b][key].append(value)
                            warnings.update(report.get("runWarnings", []))
                            env_info.setdefault("lighthouse", report.get("lighthouseVersion"))
                            env_info.setdefault("browser", report["environment"].get(
                                "hostUserAgent", ""))
                            env_info.setdefault("benchmarkIndex", []).append(
                                report["environment"].get("benchmarkIndex"))
                            raw.append({"build": b, "preset": preset, "page": present[b],
                                        "repeat": rep, **row})
                            print(f"[{done}/{total}] {b} {preset} {label}: "
                                  + " ".join(f"{m[1]}={fmt(row[m[0]], m[3])}" for m in METRICS)
                                  + f" ({took:.0f} s)", file=sys.stderr)
    finally:
        for server, _ in servers.values():
            server.shutdown()
            server.server_close()

    browser = re.search(r"(HeadlessChrome|Chrome)/[\d.]+", env_info.get("browser", ""))
    print(f"Lighthouse {env_info.get('lighthouse', '?')}, "
          f"{browser.group(0) if browser else args.chrome}, "
          f"benchmarkIndex median {fmt(median(env_info.get('benchmarkIndex', [])))}, "
          f"text {'uncompressed' if args.no_gzip else 'gzip'}, "
          f"{done} runs in {(time.perf_counter() - start) / 60:.1f} min")
    for name, folder in builds.items():
        print(f"  {name}: {folder}")
    rows = [(label, preset, results[label, preset])
            for preset in args.presets for label in pages]
    short = print_table("Scores (0-100)", SCORES, rows, names, args.repeats)
    short |= print_table("Weight and timing", TIMING, rows, names, args.repeats)
    short |= print_table("Weight by kind and requests", KIND_COLUMNS, rows, names,
                         args.repeats)
    if short:
        print("* fewer runs than --repeats succeeded for this row")
    for warning in sorted(warnings):
        print("Lighthouse warned: " + re.sub(r"\s+", " ", warning.split(" Learn more")[0]))
    if args.json:
        args.json.write_text(json.dumps({"builds": {k: str(v) for k, v in builds.items()},
                                         "runs": raw}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
