"""Every internal link and anchor resolves (site/ and the offline copy, both languages), and the
pages' HTML passes the Nu HTML Checker (vnu, from npm) apart from Material's own known quirks."""
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
OFFLINE = ROOT / "build" / "offline" / "attention-course"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
# Material's markup, not ours: its drawer/search toggles are checkboxes with autocomplete="off".
MATERIAL_KNOWN = [re.compile(r"Attribute “autocomplete” is only allowed when the input type is")]


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "name" in a:
            self.ids.add(a["name"])
        for key in ("href", "src"):
            if a.get(key) and not (tag == "link" and a.get("rel") in ("canonical", "alternate")):
                self.links.append(a[key])


def parse(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def check_tree(root: Path, site_path: str) -> list[str]:
    problems, cache = [], {}
    for page in sorted(root.rglob("*.html")):
        if page.name == "print.html" or (page.name == "404.html" and site_path == "/"):
            continue  # the PDF source; a 404 page is never opened from disk
        for link in parse(page).links:
            u = urlparse(link)
            if u.scheme in ("http", "https", "mailto", "data", "javascript") or link.startswith("//"):
                continue
            path = unquote(u.path)
            if path.startswith("/"):
                if not path.startswith(site_path):
                    problems.append(f"{page.relative_to(root)}: {link} leaves the site path")
                    continue
                target = root / path[len(site_path):]
            else:
                target = (page.parent / path) if path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(f"{page.relative_to(root)}: {link} → missing {target.relative_to(root) if root in target.parents else target}")
                continue
            if u.fragment and target.suffix == ".html":
                if target not in cache:  # parse each target once (setdefault would parse it for every link)
                    cache[target] = parse(target).ids
                if unquote(u.fragment) not in cache[target]:
                    problems.append(f"{page.relative_to(root)}: {link} → no anchor #{u.fragment}")
    return problems


def test_site_links_and_anchors_resolve(site_dir):
    from tools.serve import base_path
    problems = check_tree(site_dir, base_path())
    assert not problems, "\n".join(problems[:20])


def test_offline_copy_links_and_anchors_resolve(site_dir):
    from conftest import require_fresh
    require_fresh(site_dir, "offline")
    assert (OFFLINE / "index.html").exists(), "make site builds the offline copy in build/offline/"
    problems = check_tree(OFFLINE, "/")
    assert not problems, "\n".join(problems[:20])


def test_html_is_valid(site_dir):
    assert VNU.exists(), "npm ci installs vnu-jar (the Nu HTML Checker)"
    pages = sorted(str(p) for p in site_dir.rglob("*.html"))
    proc = subprocess.run(["java", "-jar", str(VNU), "--format", "gnu", "--errors-only", *pages],
                          capture_output=True, text=True)
    errors = [l for l in proc.stderr.splitlines() if l.strip() and not any(k.search(l) for k in MATERIAL_KNOWN)]
    assert not errors, "\n".join(errors[:20])
