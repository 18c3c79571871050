"""Serve site/ on 127.0.0.1 under site_url's path (e.g. /attention-course/), as GitHub Pages does.

    python -m tools.serve [--port 8000] [--dir site]
Anything outside the path answers 404, so a link that escapes the project path shows up here.
A missing path gets the site's 404 page in its language (status 404), as GitHub Pages would show
it: <root>/404.html for a path under a language folder that has one, else the root 404.html.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import io
import http.server
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
from scripts.common import course


def base_path() -> str:
    """site_url's path, from mkdocs.yml read by mkdocs' own loader (which resolves !ENV [SITE_URL, …])."""
    url = course.mkdocs_config()["site_url"]
    return "/" + urlparse(url).path.strip("/") + "/"


COMPRESSIBLE = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt"}
# path -> (mtime_ns, size, gzip body): each file is compressed once while it is unchanged (the test suite opens
# about two thousand pages, each asking again for the same scripts and styles).
_GZIPPED: dict[Path, tuple[int, int, bytes]] = {}


def gzipped(path: Path) -> bytes:
    st = path.stat()
    known = _GZIPPED.get(path)
    if known is None or known[:2] != (st.st_mtime_ns, st.st_size):
        known = _GZIPPED[path] = (st.st_mtime_ns, st.st_size, gzip.compress(path.read_bytes(), 6))
    return known[2]


class Handler(http.server.SimpleHTTPRequestHandler):
    base = "/"
    # GitHub Pages lets a browser keep every file 10 minutes (Cache-Control: max-age=600): a tab that opens the
    # next page reuses the scripts, styles and fonts it has, as a reader's does. `python -m tools.serve`, a
    # preview a maintainer rebuilds under, asks the browser to check each time (0: no-cache).
    max_age = 600

    def translate_path(self, path):
        p = urlparse(path).path
        if not p.startswith(self.base):
            return str(Path(self.directory) / "__outside_site_path__")
        return super().translate_path("/" + p[len(self.base):])

    def not_found_page(self) -> Path | None:
        """The 404 page for the requested path: the deepest folder on the way that has a 404.html."""
        p = urlparse(self.path).path
        site = Path(self.directory).resolve()
        if not p.startswith(self.base):  # outside the project path: the site's root 404 page
            return site / "404.html" if (site / "404.html").is_file() else None
        parts = [x for x in p[len(self.base):].split("/")[:-1] if x and x not in (".", "..")]
        for i in range(len(parts), -1, -1):
            page = site.joinpath(*parts[:i], "404.html")
            if page.is_file() and page.resolve().is_relative_to(site):
                return page
        return None

    def send_error(self, code, message=None, explain=None):
        page = self.not_found_page() if code == 404 else None
        if page is None:
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def end_headers(self):
        self.send_header("Cache-Control", f"max-age={self.max_age}" if self.max_age else "no-cache")
        super().end_headers()

    def log_message(self, *args):  # quiet: tests and bench read the page, not the log
        pass

    def send_head(self):
        """Text goes out gzip-compressed when the browser accepts it, as GitHub Pages serves it,
        so sizes and load times measured here are the ones readers get."""
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (path.suffix not in COMPRESSIBLE or not path.is_file()
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        if Path(self.translate_path(self.path)).is_dir() and not urlparse(self.path).path.endswith("/"):
            return super().send_head()  # let the base class redirect to the slash URL
        body = gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A reader (or a test's page) that leaves before a file is sent is no error: only other failures print."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def start(directory: Path, port: int = 0, handler_class=None, max_age: int = Handler.max_age):
    """Start a server in a thread; return (server, base URL). `handler_class`: a subclass of Handler (a test's);
    `max_age`: how many seconds a browser may keep a file without asking again (0: it asks every time)."""
    handler = functools.partial(type("H", (handler_class or Handler,), {"base": base_path(), "max_age": max_age}),
                                directory=str(directory))
    server = Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}{base_path()}"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--dir", default=str(ROOT / "site"))
    a = ap.parse_args()
    server, url = start(Path(a.dir), a.port, max_age=0)
    print(f"serving {a.dir} at {url}  (Ctrl-C stops)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
