"""A system Chromium and a local server for the built site, shared by the PDF edition, the
phone bench and the browser tests: one list of flags, one way to find the browser, one server.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

# Debian's Chromium under Playwright: no sandbox (root, containers), and nothing that phones
# home (updates, sync, background fetches).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Every host but 127.0.0.1 resolves to nothing: no request can leave this machine.
OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """$CHROMIUM_PATH, a Chromium-family browser on PATH, or Debian's; None if there is none."""
    candidates = [os.environ.get("CHROMIUM_PATH")]
    candidates += [shutil.which(name) for name in BROWSER_NAMES]
    candidates.append("/usr/bin/chromium")
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


class NoChromium(RuntimeError):
    """No Chromium-family browser on this machine."""


@contextlib.contextmanager
def launch(extra_args: tuple[str, ...] = ()) -> Iterator[object]:
    """The system Chromium under Playwright with ``CHROMIUM_ARGS`` (+ ``extra_args``), closed
    afterwards; :class:`NoChromium` says where it was looked for."""
    executable = find_chromium()
    if executable is None:
        raise NoChromium(f"no Chromium found (CHROMIUM_PATH, {', '.join(BROWSER_NAMES)}, "
                         "/usr/bin/chromium)")  # fmt: skip
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=[*CHROMIUM_ARGS, *extra_args]
        )
        try:
            yield browser
        finally:
            browser.close()


def site_prefix(mkdocs_yml: Path) -> str:
    """The path of ``site_url`` in mkdocs.yml (its default when SITE_URL is unset)."""
    text = Path(mkdocs_yml).read_text(encoding="utf-8")
    match = re.search(r"""^site_url:\s*!ENV\s*\[\s*\w+\s*,\s*["']([^"']+)["']\s*\]""", text, re.M)
    match = match or re.search(r"""^site_url:\s*["']?([^"'\s]+)""", text, re.M)
    if not match:
        raise ValueError(f"no site_url in {mkdocs_yml}")
    path = urlsplit(match.group(1)).path or "/"
    return path if path.endswith("/") else path + "/"


class PrefixHandler(SimpleHTTPRequestHandler):
    """Serves the site folder under ``prefix``, like GitHub Pages does; anything else is a 404."""

    prefix = "/"

    def log_message(self, format, *args):
        pass

    def send_head(self):
        if not urlsplit(self.path).path.startswith(self.prefix):
            self.send_error(404, "outside the site prefix")
            return None
        return super().send_head()

    def translate_path(self, path):
        path = urlsplit(path).path
        return super().translate_path("/" + path[len(self.prefix) :])


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A page closed mid-download (BrokenPipe, reset) is normal; anything else is not.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(
    site: Path, prefix: str, *, port: int = 0, handler: type[PrefixHandler] = PrefixHandler
) -> Iterator[str]:
    """Serve ``site`` at http://127.0.0.1:<port><prefix>; yields that base URL."""
    bound = type("Handler", (handler,), {"prefix": prefix})
    httpd = QuietServer(("127.0.0.1", port), functools.partial(bound, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}{prefix}"
    finally:
        httpd.shutdown()
        httpd.server_close()
