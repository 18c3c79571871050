"""Every computed number on a page says where it comes from, and the page shows that code (site and offline copy)."""
import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scripts.common import course

from conftest import LANGS, ROOT, page_citing, pages

OFFLINE = ROOT / "build" / "offline" / "attention-course"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Numbers(HTMLParser):
    """Collects .num elements without a data-source on themselves or an ancestor, links and ids."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.nums = 0
        self.unsourced: list[str] = []
        self.ids: set[str] = set()
        self.src_links: list[tuple[str, str, str]] = []  # (href, data-source, data-tip)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        sourced = "data-source" in a or bool(self.stack and self.stack[-1][1])
        if "id" in a:
            self.ids.add(a["id"])
        if "num" in (a.get("class") or "").split():
            self.nums += 1
            if not sourced:
                self.unsourced.append(self.getpos())
        if tag == "a" and "src" in (a.get("class") or "").split():
            self.src_links.append((a.get("href", ""), a.get("data-source", ""), a.get("data-tip", "")))
        if tag not in VOID:
            self.stack.append((tag, sourced))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def page_file(root: Path, lang: str, page: str, offline: bool) -> Path:
    if offline:
        return root / course.offline_path(lang, page)
    return root / course.page_path(lang, page) / "index.html"


def experiment_code_shown(text: str, exp: str, page_path: Path) -> bool:
    """The entry's <details> holds the experiment file as it is (its last code line, escaped, tags removed),
    in the page (offline copy) or in the script its listing loads from when opened (site, course_build/code_listings.py)."""
    src = (ROOT / "scripts/experiments" / f"{exp}.py").read_text(encoding="utf-8")
    last = [l for l in src.splitlines() if l.strip()][-1].strip()
    entry = text.split(f'id="src-{exp}"', 1)[1].split("</section>", 1)[0]
    box = re.search(r'<div class="code-listing" data-code="([\w-]+)" data-src="([^"]+)">', entry)
    if box:
        assert box.group(1) == exp, f"{page_path}: the entry for {exp} loads {box.group(1)}'s code"
        script = (page_path.parent / html.unescape(box.group(2))).resolve()
        assert script.exists(), f"{page_path}: {box.group(2)} is missing"
        body = script.read_text(encoding="utf-8")
        prefix = f'courseCode.define("{exp}",'
        assert body.startswith(prefix), f"{script}: not a listing of {exp}"
        entry += json.loads(body[len(prefix):].rstrip().removesuffix(");"))
    shown = html.unescape(re.sub(r"<[^>]+>", "", entry))
    return "<details" in entry and last in shown


@pytest.mark.parametrize("offline", [False, True], ids=["site", "offline"])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", pages())
def test_every_number_carries_its_source(site_dir, page, lang, offline):
    if offline:
        from conftest import require_fresh
        require_fresh(site_dir, "offline")
    root = OFFLINE if offline else site_dir
    path = page_file(root, lang, page, offline)
    assert path.exists(), f"{path} is missing: run `make site`"
    text = path.read_text(encoding="utf-8")
    p = Numbers()
    p.feed(text)
    assert not p.unsourced, f"{path}: numbers without data-source at (line, col) {p.unsourced[:5]}"
    if not p.nums:
        return
    assert "provenance" in p.ids, f"{path}: numbers but no 'How these numbers were computed' part"
    assert p.src_links, f"{path}: no number links to its source"
    for href, source, tip in p.src_links:
        exp = source.split("/", 1)[0].split(":")[-1]
        assert href == f"#src-{exp}" and f"src-{exp}" in p.ids, f"{path}: {source} links to {href}, not its entry"
        assert exp in tip and source.split("/", 1)[1] in tip, f"{path}: tooltip {tip!r} does not name {source}"
    for exp in sorted({h[len("#src-"):] for h, _, _ in p.src_links}):
        assert experiment_code_shown(text, exp, path), f"{path}: the entry for {exp} does not show its code"


@pytest.mark.parametrize("lang", LANGS)
def test_provenance_part_is_in_the_page_language(site_dir, lang):
    import yaml
    heading = yaml.safe_load((ROOT / "scripts/i18n" / lang / "site.yml").read_text(encoding="utf-8"))["ui"]["provenance"]["heading"]
    text = page_file(site_dir, lang, page_citing("sa_scaling/by_d[d=256].pmax_raw"), False).read_text(encoding="utf-8")
    assert re.search(rf'<h2[^>]*\bid="provenance"[^>]*>{re.escape(heading)}', text)
    assert 'data-source="sa_scaling/by_d[d=256].pmax_raw"' in text  # a row chosen by meaning, as written


ENTRY_TITLE = re.compile(r'<h3 id="src-([\w-]+)-title">(.*?)</h3>', re.S)


@pytest.mark.parametrize("lang", LANGS)
def test_every_experiment_on_a_page_has_a_title_in_every_language(site_dir, lang):
    """The provenance headings are in the page's language (they are in the side contents too), never the
    module's English docstring: every experiment any page uses has ui.provenance.titles in every language."""
    import yaml
    used = {exp for other in LANGS for page in pages()
            for exp, _ in ENTRY_TITLE.findall(page_file(site_dir, other, page, False).read_text(encoding="utf-8"))}
    assert used, "no provenance entries found in the built pages"
    titles = yaml.safe_load((ROOT / "scripts/i18n" / lang / "site.yml").read_text(encoding="utf-8"))["ui"]["provenance"].get("titles") or {}
    missing = sorted(exp for exp in used if not titles.get(exp))
    assert not missing, f"scripts/i18n/{lang}/site.yml: ui.provenance.titles has no title for {missing}"
    for page in pages():
        for exp, heading in ENTRY_TITLE.findall(page_file(site_dir, lang, page, False).read_text(encoding="utf-8")):
            heading = re.sub(r'<a class="headerlink".*?</a>', "", heading)
            assert html.unescape(re.sub(r"<[^>]+>", "", heading)) == titles[exp], \
                f"{lang}/{page}: the heading for {exp} is not ui.provenance.titles.{exp}"
            # formulas and names (√d, Q = K = V, ViT-B/16) are isolated in <bdi>; the rest is the page's language
            words = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<bdi\b.*?</bdi>", "", heading)))
            assert any(c.isalpha() and not c.isascii() for c in words), \
                f"{lang}/{page}: provenance heading for {exp} is Latin only: {words!r}"


def test_a_missing_title_stops_the_build_naming_language_and_experiment(monkeypatch):
    from mkdocs.exceptions import PluginError
    from course_build import refs
    lang = LANGS[-1]
    real = refs.strings(lang)
    ui = {**real["ui"], "provenance": {**real["ui"]["provenance"], "titles": {}}}
    monkeypatch.setattr(refs, "strings", lambda l: {**real, "ui": ui})
    with pytest.raises(PluginError, match=rf"'sa_toy'.*'{lang}'.*scripts/i18n/{lang}/site.yml"):
        refs.provenance_md(["sa_toy"], lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_contents_list_names_the_provenance_part_not_its_entries(site_dir, lang):
    """Each entry's long title made the page's contents list a dozen lines longer (issue 25)."""
    checked = 0
    for page in pages():
        text = (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")
        toc = re.search(r'<nav class="md-nav md-nav--secondary".*?</nav>\s*</div>', text, re.S)
        if not toc or 'href="#provenance"' not in toc.group(0):
            continue
        checked += 1
        assert 'href="#src-' not in toc.group(0), f"{lang}/{page}: provenance entries in the contents list"
    assert checked, "no page's contents list names its provenance part"


def test_search_finds_explanations_not_provenance_or_chart_data(site_dir):
    """Search for «softmax» once listed seeds and library versions first, and chart-data tables read as
    run-together text («the۱۴cat۲۴sat…»): both parts are out of every language's index, the lessons' own
    sections stay in (issue 25)."""
    indexes = sorted(site_dir.rglob("search_index.json"))
    assert len(indexes) == len(LANGS), indexes
    for path in indexes:
        docs = json.loads(path.read_text(encoding="utf-8"))["docs"]
        assert not [d["location"] for d in docs if "#provenance" in d["location"] or "#src-" in d["location"]], path
        from scripts.common.i18n import strings
        labels = [strings(lang)["ui"]["chart_data"] for lang in LANGS]  # each chart-data table's summary
        assert not [d["location"] for d in docs if any(label in d["text"] for label in labels)], path
        hits = [d["location"] for d in docs if "softmax" in d["text"].lower()]
        assert len(hits) >= 5, (path, hits)  # the explanations are still found


def test_search_snippets_keep_word_boundaries(site_dir):
    """Material's result list shows a section's text with its tags dropped: a block's end must be followed by
    a space, or two list items read as one word («≈ 3 хв читанняРолі з двох джерел», issue 25)."""
    import re
    for path in sorted(site_dir.rglob("search_index.json")):
        docs = json.loads(path.read_text(encoding="utf-8"))["docs"]
        joined = [(d["location"], m.group(0)) for d in docs
                  for m in re.finditer(r"\w(?:<[^>]+>)*</?(?:p|li|h[1-6]|td|th)\b[^>]*>(?:<[^>]+>)*\w", d["text"])]
        assert not joined, (path, joined[:5])
