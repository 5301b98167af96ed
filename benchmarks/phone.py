"""First visit on a throttled phone: bytes, requests and time until the page is readable.

Serves a built site (``site/`` by default) on 127.0.0.1 under the path prefix of `site_url`,
gzip-compressing text the way GitHub Pages does, and opens every page in both languages in
a fresh Chromium context (empty cache: a first visit) on a phone profile:

  viewport 412×823 at 1.75×, touch;  CPU 4× slower (Emulation.setCPUThrottlingRate);
  1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip (Network.emulateNetworkConditions).

For each page it reports the bytes transferred (compressed, as on the wire; and raw, after
decompression), the number of requests, and the seconds from navigation start until

  * the math is typeset: no ``.arithmatex`` element is left without MathML or MathJax output,
    MathJax (if the page loads it) has finished, and the web fonts in use have loaded; and
  * every image that is displayed in the first screen has loaded;

counted once the page has been parsed up to its footer (the article is all there).

Bytes are counted until the network is idle after that. Nothing may leave 127.0.0.1: the
browser resolves every other host to nothing, and a request to one is reported.

Run alone: ``python benchmarks/phone.py [--site site] [--pages index,en/] [--json out.json]``;
``benchmarks/bench.py`` calls :func:`measure_site`. ``--no-throttle`` measures bytes only,
quickly (the byte budget test uses :func:`first_visit` this way).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import io
import json
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

from attention_explained.edition import browser as sitebrowser
from attention_explained.edition.browser import CHROMIUM_ARGS as BASE_ARGS
from attention_explained.edition.browser import OFFLINE_ARGS

REPO = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [*BASE_ARGS, "--disable-quic", *OFFLINE_ARGS]
PHONE = {
    "viewport": {"width": 412, "height": 823},
    "device_scale_factor": 1.75,
    "is_mobile": True,
    "has_touch": True,
}
CPU_SLOWDOWN = 4
NETWORK = {  # bytes per second and milliseconds, as CDP takes them
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
BUDGET_BYTES = 200_000  # first visit, compressed, any page
BUDGET_SECONDS = 3.0  # throttled: math typeset and first-screen images loaded
# GitHub Pages compresses these with gzip; images other than SVG and fonts go as they are.
COMPRESSED_TYPES = (
    "text/",
    "application/javascript",
    "application/json",
    "image/svg+xml",
    "application/xml",
)

# Runs in the page from its very start; records when the page became readable.
READY_PROBE = """
(() => {
  const marks = window.__aeMarks = {};
  const mark = (name) => { if (!(name in marks)) marks[name] = Math.round(performance.now()); };
  const done = () => {
    // The article has been parsed once the page's footer exists (Material's sync
    // bundle.js after it may still be loading: the reader can already read).
    if (document.readyState === 'loading' && !document.querySelector('footer')) return false;
    mark('dom');
    const math = document.querySelectorAll('.arithmatex');
    for (const el of math) {
      if (!el.querySelector('math, mjx-container')) return false;
    }
    if (window.MathJax && window.MathJax.startup !== undefined) {
      if (!window.__aeMathJaxDone) {
        const startup = window.MathJax.startup;
        if (startup && startup.promise && !window.__aeMathJaxWaiting) {
          window.__aeMathJaxWaiting = true;
          startup.promise.then(() => { window.__aeMathJaxDone = true; });
        }
        return false;
      }
    } else if (window.MathJax && !window.__aeMathJaxDone && math.length) {
      return false;  // the config is there but MathJax itself has not started yet
    }
    mark('math');
    // Web fonts: none still loading, and build-time MathML drawn with its loaded math font.
    // (document.fonts.status also waits for unrelated late layout work, so it is not used.)
    const faces = [...document.fonts];
    if (window.MathJax) {  // MathJax's own fonts are requested as it typesets
      if (document.fonts.status !== 'loaded') return false;
    } else {
      if (faces.some(f => f.status === 'loading')) return false;
      if (document.querySelector('math')
          && !faces.some(f => f.family.includes('Math') && f.status === 'loaded')) return false;
    }
    mark('fonts');
    for (const sheet of document.querySelectorAll('link[rel="stylesheet"]')) {
      if (!sheet.sheet) return false;
    }
    mark('css');
    const height = window.innerHeight;
    for (const img of document.images) {
      const box = img.getBoundingClientRect();
      const shown = img.offsetParent !== null && box.width > 0 && box.height >= 0;
      if (shown && box.top < height && box.bottom > 0) {
        if (!(img.complete && img.naturalWidth > 0)) return false;
      }
    }
    return true;
  };
  const poll = () => {
    if (done()) { window.__aeReady = performance.now(); return; }
    setTimeout(poll, 10);
  };
  poll();
})();
"""


# --------------------------------------------------------------------------- server


def site_prefix(mkdocs_yml: Path = REPO / "mkdocs.yml") -> str:
    """The path of `site_url` in mkdocs.yml (its default when SITE_URL is unset)."""
    try:
        return sitebrowser.site_prefix(mkdocs_yml)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None


class PagesHandler(sitebrowser.PrefixHandler):
    """Serves the site under `prefix` like GitHub Pages: text gzip-compressed on request."""

    prefix = "/"
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "application/javascript",
        ".json": "application/json",
        ".svg": "image/svg+xml",
        ".woff2": "font/woff2",
        ".woff": "font/woff",
        ".ipynb": "application/json",
    }

    def send_head(self):
        if not urlsplit(self.path).path.startswith(self.prefix):
            self.send_error(404, "outside the site prefix")
            return None
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the folder
            path = path / "index.html"
        if not path.is_file():
            self.send_error(404, "not found")
            return None
        body = path.read_bytes()
        kind = self.guess_type(str(path))
        headers = {"Content-Type": kind}
        if kind.startswith(COMPRESSED_TYPES) and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = gzip_bytes(body)
            headers["Content-Encoding"] = "gzip"
            headers["Vary"] = "Accept-Encoding"
        self.send_response(200)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")  # what GitHub Pages sends
        self.end_headers()
        return io.BytesIO(body)


@functools.lru_cache(maxsize=512)
def _gzip_cached(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=6, mtime=0)


def gzip_bytes(body: bytes) -> bytes:
    return _gzip_cached(body)


def serve(site: Path, prefix: str, port: int = 0):
    """Serve `site` at http://127.0.0.1:<port><prefix>, gzip like GitHub Pages; yields the URL."""
    return sitebrowser.serve(site, prefix, port=port, handler=PagesHandler)


find_chromium = sitebrowser.find_chromium


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    try:
        with sitebrowser.launch() as browser:
            yield browser
    except sitebrowser.NoChromium as exc:
        raise SystemExit(str(exc)) from None


@dataclass
class Visit:
    page: str
    lang: str
    compressed: int = 0  # bytes on the wire, headers included (CDP encodedDataLength)
    raw: int = 0  # bytes after decompression
    requests: int = 0
    seconds: float | None = None  # None when not measured (unthrottled) or never ready
    by_type: dict[str, int] = field(default_factory=dict)
    urls: list[tuple[str, int, int, int]] = field(default_factory=list)  # url, bytes, ms, ms
    off_machine: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    marks: dict[str, int] = field(default_factory=dict)  # ms when each readiness step held


def first_visit(browser, url: str, page_name: str, throttle: bool, timeout_s: float = 60):
    """Open `url` in a fresh context (empty cache) and measure it; returns a Visit."""
    lang = "en" if page_name == "en" or page_name.startswith("en/") else "ko"
    visit = Visit(page_name or "index", lang)
    context = browser.new_context(service_workers="block", **PHONE)
    finished = []  # every request, a web worker's too (the page's CDP session misses those)
    failed = []
    context.on("requestfinished", lambda request: finished.append(request))
    context.on("requestfailed", lambda request: failed.append(request))
    try:
        page = context.new_page()
        page.add_init_script(READY_PROBE)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
        if throttle:
            cdp.send("Network.emulateNetworkConditions", NETWORK)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        requests: dict[str, dict] = {}

        def on_request(event):
            request_url = event["request"]["url"]
            requests.setdefault(
                event["requestId"],
                {
                    "url": request_url,
                    "type": event.get("type", "?"),
                    "raw": 0,
                    "start": event["timestamp"],
                },
            )
            host = urlsplit(request_url).hostname
            if request_url.startswith(("http:", "https:", "ws")) and host != "127.0.0.1":
                visit.off_machine.append(request_url)

        def on_data(event):
            if event["requestId"] in requests:
                requests[event["requestId"]]["raw"] += event["dataLength"]

        def on_finished(event):
            if event["requestId"] in requests:
                requests[event["requestId"]]["wire"] = event["encodedDataLength"]
                requests[event["requestId"]]["end"] = event["timestamp"]

        def on_failed(event):
            entry = requests.get(event["requestId"], {})
            entry["failed"] = True
            visit.failed.append(f"{entry.get('url', '?')}: {event.get('errorText')}")

        cdp.on("Network.requestWillBeSent", on_request)
        cdp.on("Network.dataReceived", on_data)
        cdp.on("Network.loadingFinished", on_finished)
        cdp.on("Network.loadingFailed", on_failed)
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        page.wait_for_function("() => window.__aeReady !== undefined", timeout=timeout_s * 1000)
        ready_ms = page.evaluate("() => window.__aeReady")
        visit.marks = page.evaluate("() => window.__aeMarks")
        page.wait_for_load_state("networkidle", timeout=timeout_s * 1000)
        _await_request_ends(page, requests, (finished, failed), timeout_s)
        if throttle:
            visit.seconds = ready_ms / 1000
        origin = min((e["start"] for e in requests.values()), default=0)
        for entry in requests.values():
            if "wire" not in entry or not entry["url"].startswith("http"):
                continue  # data: URLs cost no transfer
            visit.requests += 1
            visit.compressed += int(entry["wire"])
            visit.raw += int(entry["raw"])
            visit.by_type[entry["type"]] = visit.by_type.get(entry["type"], 0) + int(entry["wire"])
            visit.urls.append(
                (
                    entry["url"],
                    int(entry["wire"]),
                    round((entry["start"] - origin) * 1000),
                    round((entry["end"] - origin) * 1000),
                )
            )
        _count_worker_requests(visit, finished)
    finally:
        context.close()
    return visit


def _await_request_ends(
    page, requests: dict[str, dict], ended: tuple[list, ...], timeout_s: float
) -> None:
    """Wait until the end of every request the page made has been delivered here.

    After a quiet network every request has ended in the browser; the events saying so may
    still be on their way to this process. Playwright delivers events in the order the
    browser sent them, so a round trip (an evaluate) brings all of them in; a request still
    open after it is waited for, and one that never ends is named. A request ends on the
    page's CDP session (loadingFinished or loadingFailed) or, for a web worker's script,
    whose load the worker's own target reports, in the context's events (``ended``: its
    finished and failed requests, as they arrive). A data: URL costs no transfer and is not
    counted: not waited for."""
    deadline = time.monotonic() + timeout_s
    page.evaluate("() => 0")
    while True:
        done = {request.url for events in ended for request in events}
        still = [
            e["url"]
            for e in requests.values()
            if e["url"].startswith("http")
            and "wire" not in e
            and "failed" not in e
            and e["url"] not in done
        ]
        if not still:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"requests that never ended: {still[:5]}")
        page.wait_for_timeout(20)


def _count_worker_requests(visit: Visit, finished: list) -> None:
    """Add the requests that the page's CDP session did not see (a worker's) to `visit`.

    Chromium reports no body size for a worker's own script, so a response without one
    counts as what this server sends for it: the body, gzip-compressed if text.
    """
    counted = {url for url, *_ in visit.urls}
    for request in finished:
        if request.url in counted or not request.url.startswith("http"):
            continue
        response = request.response()
        if response is None:
            continue
        sizes = request.sizes()
        body = response.body()
        wire = sizes["responseBodySize"]
        if not wire and body:
            kind = response.headers.get("content-type", "")
            wire = len(gzip_bytes(body)) if kind.startswith(COMPRESSED_TYPES) else len(body)
        wire += sizes["responseHeadersSize"]
        visit.requests += 1
        visit.compressed += wire
        visit.raw += len(body)
        visit.by_type["worker"] = visit.by_type.get("worker", 0) + wire
        visit.urls.append((request.url, wire, -1, -1))


def site_pages(site: Path) -> list[str]:
    """Every built page as a site-relative folder ("" for the home page, "en/" ...)."""
    pages = []
    for index in sorted(site.rglob("index.html")):
        rel = index.relative_to(site).parent.as_posix()
        if "assets" in rel.split("/"):
            continue
        pages.append("" if rel == "." else rel + "/")
    return pages


def measure_site(
    site: Path = REPO / "site",
    pages: list[str] | None = None,
    throttle: bool = True,
    repeat: int = 1,
    progress=None,
) -> list[Visit]:
    """Measure the first visit of each page (all by default); the median of `repeat` runs."""
    if not (site / "index.html").is_file():
        raise SystemExit(f"{site}: no built site (run `make build` first)")
    pages = site_pages(site) if pages is None else pages
    visits = []
    with serve(site, site_prefix()) as base, chromium() as browser:
        for name in pages:
            runs = []
            for _ in range(repeat):
                try:
                    runs.append(first_visit(browser, base + name, name, throttle))
                except Exception as exc:  # a page that never becomes ready is a miss, not a crash
                    if type(exc).__name__ != "TimeoutError":
                        raise
                    lang = "en" if name.startswith("en/") else "ko"
                    runs.append(Visit(name or "index", lang, failed=[f"not ready: {exc}"[:200]]))
            visit = runs[0]
            if throttle:
                times = [r.seconds for r in runs if r.seconds is not None]
                visit.seconds = statistics.median(times) if times else None
            visits.append(visit)
            if progress:
                progress(visit)
    return visits


def table(visits: list[Visit]) -> str:
    lines = [
        "| page | lang | KB compressed | KB raw | requests | throttled s |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for v in visits:
        seconds = "" if v.seconds is None else f"{v.seconds:.2f}"
        lines.append(
            f"| /{v.page if v.page != 'index' else ''} | {v.lang} | {v.compressed / 1000:.1f} | "
            f"{v.raw / 1000:.1f} | {v.requests} | {seconds} |"
        )
    return "\n".join(lines)


def summary(visits: list[Visit]) -> dict:
    out = {}
    for lang in sorted({v.lang for v in visits}):
        mine = [v for v in visits if v.lang == lang]
        times = [v.seconds for v in mine if v.seconds is not None]
        out[lang] = {
            "max_kb_compressed": max(v.compressed for v in mine) / 1000,
            "max_seconds": max(times) if times else None,
            "home_kb_compressed": next(
                (v.compressed / 1000 for v in mine if v.page in ("index", "en/")), None
            ),
        }
    return out


def check(visits: list[Visit]) -> list[str]:
    """Budget misses, one line each (empty when every page is within both budgets)."""
    problems = []
    for v in visits:
        if v.compressed > BUDGET_BYTES:
            problems.append(f"/{v.page}: {v.compressed / 1000:.1f} KB > {BUDGET_BYTES / 1000} KB")
        if v.seconds is not None and v.seconds > BUDGET_SECONDS:
            problems.append(f"/{v.page}: {v.seconds:.2f} s > {BUDGET_SECONDS} s")
        if v.failed:
            problems.append(f"/{v.page}: {v.failed[0]}")
        if v.off_machine:
            problems.append(f"/{v.page}: requests off 127.0.0.1: {v.off_machine[:3]}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--site", type=Path, default=REPO / "site", help="built site folder")
    parser.add_argument(
        "--pages", help='comma-separated page folders, e.g. ",en/,saturation/" ("" = home)'
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per page (median), >= 1")
    parser.add_argument("--no-throttle", action="store_true", help="bytes only, no timing")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--urls", action="store_true", help="list every request per page")
    parser.add_argument("--check", action="store_true", help="exit 1 if a budget is missed")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be >= 1, got {args.repeat}")
    pages = None if args.pages is None else [p.strip() for p in args.pages.split(",")]

    def progress(v: Visit) -> None:
        seconds = "" if v.seconds is None else f" {v.seconds:.2f} s"
        print(
            f"  /{v.page:32s} {v.compressed / 1000:7.1f} KB {v.requests:3d} req{seconds}",
            file=sys.stderr,
            flush=True,
        )
        if args.urls:
            print(f"      steps (ms): {v.marks}", file=sys.stderr)
            for url, size, start, end in sorted(v.urls, key=lambda u: u[2]):
                print(f"      {size / 1000:7.1f} KB {start:5d}-{end:5d} ms  {url}", file=sys.stderr)

    visits = measure_site(args.site, pages, not args.no_throttle, args.repeat, progress)
    print(table(visits))
    problems = check(visits)
    verdict = "all met" if not problems else "MISSED"
    print(f"\nBudgets (≤ {BUDGET_BYTES / 1000:.0f} KB, ≤ {BUDGET_SECONDS} s throttled): {verdict}")
    for line in problems:
        print("  " + line)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        data = {"visits": [asdict(v) for v in visits], "summary": summary(visits)}
        args.json.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
