"""The site builds strictly, and a reference that does not resolve stops the build naming page and id."""
import os
import re
import shutil
import subprocess
from html import unescape
import sys
from pathlib import Path

import pytest

from scripts.common import course

pytestmark = pytest.mark.slow  # every test here builds in a subprocess: make test only

ROOT = Path(__file__).resolve().parent.parent


def build(docs: Path | None, out: Path) -> subprocess.CompletedProcess:
    cfg = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_DIR=str(out))
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml")]
    if docs is not None:  # a copy of the project with altered docs, same stages and data
        tmp_cfg = docs.parent / "mkdocs.yml"
        tmp_cfg.write_text(cfg.replace("docs_dir: docs", f"docs_dir: {docs}"), encoding="utf-8")
        for d in ("course_build", "overrides", "generated", "scripts", "node_modules", "tools"):
            if not (docs.parent / d).exists():
                (docs.parent / d).symlink_to(ROOT / d)
        cmd[-1] = str(tmp_cfg)
    # from the copy's folder: Python imports the plugin (course_build/) from there, and it reads that project
    cwd = ROOT if docs is None else docs.parent
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)


def test_strict_build_passes_without_warnings(tmp_path):
    proc = build(None, tmp_path / "site")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "WARNING" not in proc.stderr, proc.stderr
    assert (tmp_path / "site/index.html").exists() and (tmp_path / "site/fa/index.html").exists()


# A broken page is the default language's home: its build comes first and stops at its first page (about
# 1 s against 6 s when the broken page waits for the other languages' build); a rule of one language
# (Persian plural forms) breaks that language's home.
HOME = f"{course.default_language().code}/index.md"
RTL_HOME = next(f"{lang.code}/index.md" for lang in course.languages() if lang.rtl)


@pytest.mark.parametrize("bad,named,page", [
    ("{{ chart: no_such_chart }}", "no_such_chart", HOME),
    ("{{ v: scaling/at.999.raw | .2f }}", "scaling/at.999.raw", HOME),
    ("{{ v: no_such_data/x }}", "no_such_data", HOME),
    ("{{ table: scaling/curve | d:d nope:.2f }}", "nope", HOME),
    ("{{ v: scaling/uniform | .2x }}", ".2x", HOME),
    ("{{ frobnicate: x }}", "frobnicate", RTL_HOME),      # and in a language built after the first
    ("{{ v: scaling/n_keys | plural: گام,گام‌ها }}", "takes 1 form", RTL_HOME),   # Persian: one form after a number
])
def test_unresolved_reference_fails_naming_page_and_id(tmp_path, bad, named, page):
    docs, _ = copy_docs(tmp_path, bad, page)
    proc = build(docs, tmp_path / "site")
    assert proc.returncode != 0, f"{bad!r} should fail the build"
    assert f"docs/{page}" in proc.stderr and named in proc.stderr, proc.stderr[-2000:]


def copy_docs(tmp_path, extra: str, page: str = HOME) -> tuple[Path, int]:
    """A copy of docs/ with `extra` appended to one page; returns the docs folder and extra's first line."""
    docs = tmp_path / "proj" / "docs"
    shutil.copytree(ROOT / "docs", docs)
    target = docs / page
    text = target.read_text(encoding="utf-8") + "\n\n"
    target.write_text(text + extra + "\n", encoding="utf-8")
    return docs, text.count("\n") + 1


@pytest.mark.parametrize("bad,named", [
    ("{{ v: sa_scaling/by_d.3.pmax_raw | .1% }}", "by_d[d=256]"),          # a row of records by position
    ("{{ table: sa_scaling/by_d.0 | d:d }}", "sa_scaling/by_d.0"),
    ("{{ v: sa_scaling/by_d[d=7].pmax_raw }}", "matches 0 rows"),          # no such row
    ("{{ v: sa_heads/by_heads[d=16].heads }}", "matches 4 rows"),           # not one row
])
def test_row_of_records_is_chosen_by_meaning_not_position(tmp_path, bad, named):
    docs, _ = copy_docs(tmp_path, bad)
    proc = build(docs, tmp_path / "site")
    assert proc.returncode != 0, f"{bad!r} should fail the build"
    assert f"docs/{HOME}" in proc.stderr and named in proc.stderr, proc.stderr[-2000:]


@pytest.mark.parametrize("bad,named", [
    ("Text {{ v: sa_scaling/uniform | .3f and more", "unclosed reference"),
    ("Text {{ v sa_scaling/uniform }} more", "malformed reference"),
    ("Text {{ v: a | b | c }} more", "malformed reference"),
])
def test_unclosed_or_malformed_reference_fails_naming_page_and_line(tmp_path, bad, named):
    docs, line = copy_docs(tmp_path, "Intro line.\n\n" + bad)
    proc = build(docs, tmp_path / "site")
    assert proc.returncode != 0, f"{bad!r} should fail the build"
    assert f"docs/{HOME}" in proc.stderr and f"line {line + 2}" in proc.stderr and named in proc.stderr, \
        proc.stderr[-2000:]


CODE = '''Inline `{{ v: nope/inline }}` code, and a literal \\{\\{ in prose.

```python
print(f"{{x}}")  # {{ v: nope/fenced }}
```

~~~
{{ v: nope/tilde
~~~

    {{ v: nope/indented }}

- a list item

        {{ v: nope/in_list_code }}
'''


def test_references_in_code_stay_as_written(altered_site):
    html = (altered_site / "fa/index.html").read_text(encoding="utf-8")
    for literal in ("{{ v: nope/inline }}", "nope/fenced", "{{ v: nope/tilde", "{{ v: nope/indented }}",
                    "{{ v: nope/in_list_code }}"):
        assert literal in html, f"{literal!r} should be shown as written"
    assert "a literal {{ in prose" in html
    assert 'print(f"{{x}}")' in unescape(re.sub(r"<[^>]+>", "", html))


HOSTILE = "<img src=x onerror=alert(1)> | \"q\" 'a' <script>alert(2)</script>"


def hostile_project(tmp_path) -> Path:
    """A copy of the project whose strings hold markup: a table header, a chart title, ui strings."""
    import yaml
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "docs", proj / "docs")
    shutil.copytree(ROOT / "course_build", proj / "course_build")  # the stages find scripts/i18n next to themselves
    shutil.copytree(ROOT / "scripts", proj / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    for lang in sorted(p.name for p in (ROOT / "docs").iterdir() if p.is_dir()):
        for name, edit in (("tables-self-attention.yml", lambda s: s["tables"]["sa_scaling/by_d"].update(d=HOSTILE)),
                           ("charts-self-attention.yml", lambda s: s["charts"]["sa_heads"].update(title=HOSTILE)),
                           ("site.yml", lambda s: (s["ui"].update(search_dialog=HOSTILE, chart_data=HOSTILE),
                                                   s["ui"]["provenance"].update(tip=HOSTILE + " {experiment}",
                                                                                heading=HOSTILE)))):
            path = proj / "scripts/i18n" / lang / name
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            edit(data)
            path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return proj / "docs"


# One strict build of a copy altered three ways serves the three tests below (each a full build on its own):
# hostile strings, references inside code on the right-to-left home, and plural nouns after a number.
PLURAL = {"uk": "параметр,параметри,параметрів", "fa": "پارامتر"}


@pytest.fixture(scope="module")
def altered_site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("altered")
    docs = hostile_project(tmp)
    for page, extra in ((RTL_HOME, CODE), *((f"{lang}/index.md", "{{ v: sa_trained/params | ,d plural: %s }}" % forms)
                                           for lang, forms in PLURAL.items())):
        target = docs / page
        target.write_text(target.read_text(encoding="utf-8") + "\n\n" + extra + "\n", encoding="utf-8")
    proc = build(docs, tmp / "site")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return tmp / "site"


def test_strings_reach_html_escaped_for_their_place(altered_site):
    from conftest import page_citing, page_with_chart
    shown = (page_with_chart("sa_heads"), page_citing("table: sa_scaling/by_d"))  # the hostile title, header, tip
    for lang in course.codes():
        page = f"{lang}: {', '.join(shown)}"
        html = "".join((altered_site / course.page_path(lang, p) / "index.html").read_text(encoding="utf-8")
                       for p in dict.fromkeys(shown))
        assert "<img src=x" not in html and "<script>alert" not in html, f"{page}: a string went live as markup"
        assert "onerror=alert(1)" in html  # shown as text, escaped
        assert 'aria-label="&lt;img src=x onerror=alert(1)&gt; | &quot;q&quot;' in html  # search dialog, chart
        # the header with "|" is one cell: the by_d tables keep as many header cells as body cells
        for table in re.findall(r"<table>.*?</table>", html, re.S):
            if "onerror" in table:
                head = re.search(r"<thead>.*?</thead>", table, re.S).group(0)
                first_row = re.search(r"<tbody>\s*<tr>.*?</tr>", table, re.S).group(0)
                assert len(re.findall(r"<th[\s>]", head)) == len(re.findall(r"<td[\s>]", first_row)), table[:800]
        assert re.search(r'data-tip="&lt;img src=x onerror=alert\(1\)&gt; \| &quot;q&quot; &#x27;a&#x27;', html)


def test_a_noun_after_a_number_agrees_with_it_in_each_language(altered_site):
    """{{ v: … | plural: forms }}: the number, a no-break space and the form the language's rule picks."""
    import json
    from scripts.common import numfmt
    value = json.loads((ROOT / "generated/data/sa_trained.json").read_text(encoding="utf-8"))["params"]
    for lang, page in (("uk", altered_site / "index.html"), ("fa", altered_site / "fa/index.html")):
        noun = numfmt.plural(value, PLURAL[lang].split(","), lang)
        shown = numfmt.fmt(value, ",d", lang) + "</span></a>\u00a0" + noun
        assert shown in page.read_text(encoding="utf-8"), f"{lang}: {shown!r} not in the page"


# ---- refusals found without a build: the stages called directly (fast) ----------------------------

def page_through_stages(lang: str, name: str, source: str):
    """Run a page's source through the stages that read its Markdown, in the build's order (exercises,
    home, refs), as mkdocs hands it to them: front matter taken off, page.markdown the source."""
    from types import SimpleNamespace

    from mkdocs.utils import meta

    from course_build import exercises, home, refs
    markdown, front = meta.get_data(source)
    from scripts.common import course
    page = SimpleNamespace(file=SimpleNamespace(src_uri=f"{lang}/{course.page_file(name)}", content_string=source),
                           markdown=markdown, meta=dict(front), url=f"{name}/")
    config = {"theme": {"language": lang}, "extra": {}, "plugins": {}}
    for hook in (exercises, home, refs):
        markdown = hook.on_page_markdown(markdown, page=page, config=config, files=None)
    return markdown


def test_a_reference_error_names_the_line_of_the_pages_file():
    """Front matter and the exercises put in before it must not shift the line reported. Since the split,
    the front matter is a chapter overview's and the exercises are in its sections: the section with the most
    exercises is given its overview's front matter, as a page that has both."""
    from mkdocs.exceptions import PluginError

    from scripts.common import course
    from conftest import EXERCISE_PAGES
    lang = course.default_language().code
    count = lambda p: course.source(lang, p).read_text(encoding="utf-8").count("{{ exercise:")  # noqa: E731
    page = max(EXERCISE_PAGES, key=count)
    chapter = next(c for c in course.lessons() if page in course.sections(c))
    overview = course.source(lang, chapter).read_text(encoding="utf-8").split("\n")
    front = overview[:overview.index("---", 1) + 1]
    lines = front + course.source(lang, page).read_text(encoding="utf-8").split("\n")
    at = max(i for i, line in enumerate(lines) if line.startswith("{{ exercise:"))  # after every exercise but one
    lines[at:at] = ["Text {{ v: sa_scaling/uniform | .3f and more", ""]
    assert lines[0] == "---" and count(page) >= 2 and at > len(front) + 50
    with pytest.raises(PluginError) as err:
        page_through_stages(lang, page, "\n".join(lines))
    assert f"docs/{lang}/{course.page_file(page)}: line {at + 1}: unclosed reference" in str(err.value), str(err.value)


def test_a_missing_timings_file_names_its_path_and_make_timings(tmp_path, monkeypatch):
    """`make data` does not measure timings again: the advice is `make timings`, the path generated/timings/."""
    from mkdocs.exceptions import PluginError

    from course_build import datapath
    name = sorted((ROOT / "generated/timings").glob("*.json"))[0].stem
    shutil.copytree(ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("timings", ".lock"))
    monkeypatch.setattr(datapath, "GEN", tmp_path / "generated")
    datapath.dataset.cache_clear()
    try:
        with pytest.raises(PluginError) as err:
            datapath.lookup(f"timings:{name}/machine.measured", "docs/page.md")
    finally:
        datapath.dataset.cache_clear()  # the next user reads the real generated/
    message = str(err.value)
    assert f"generated/timings/{name}.json" in message and "make timings" in message, message
    assert "generated/data/timings" not in message and "make data" not in message, message


def test_a_page_missing_in_a_language_is_named_with_what_to_do(tmp_path):
    """mkdocs-static-i18n would publish the default language's page in its place, without a warning."""
    from mkdocs.exceptions import PluginError

    from course_build import chrome
    from scripts.common import course
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    chrome.check_pages(docs)  # the committed docs/ are whole
    default, other = course.default_language().code, course.codes()[-1]
    page = course.pages()[-1]
    (docs / other / course.page_file(page)).unlink()
    (docs / other / "only-here.md").write_text("# x\n", encoding="utf-8")  # a page the others lack
    with pytest.raises(PluginError) as err:
        chrome.check_pages(docs)
    message = str(err.value)
    assert (f"docs/{other}/{course.page_file(page)} is missing: add it, translating "
            f"docs/{default}/{course.page_file(page)}") in message, message
    assert f"docs/{default}/only-here.md is missing" in message, message


def test_a_build_with_a_page_missing_in_a_language_fails_and_publishes_nothing_in_its_place(tmp_path):
    from scripts.common import course
    docs = tmp_path / "proj" / "docs"
    shutil.copytree(ROOT / "docs", docs)
    other, page = course.codes()[-1], course.pages()[-1]
    (docs / other / course.page_file(page)).unlink()
    proc = build(docs, tmp_path / "site")
    assert proc.returncode != 0 and f"docs/{other}/{course.page_file(page)} is missing" in proc.stderr, proc.stderr[-2000:]
    assert not (tmp_path / "site" / course.page_path(other, page)).exists()
