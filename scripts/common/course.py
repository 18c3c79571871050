"""The course model: which languages and lessons exist, and each language's conventions.

Declared once, read everywhere (scripts, course_build, tools, tests; charts.js through data the page carries):
- languages: the i18n plugin's `languages` in mkdocs.yml (order, default, name), each with one metadata
  block in `scripts/i18n/<code>/language.yml` (direction, fonts, numerals, separators, calendar);
- lessons (chapters): the pages of the nav whose front matter says `lesson: true`, in nav order. A chapter is a
  folder: its overview `<chapter>/index.md` (the front matter) and its section pages `<chapter>/<section>.md`,
  listed under it in the nav (a nav section). `pages()` names every page by its URL path without language:
  'index', 'self-attention' (the overview), 'self-attention/formula' (a section), 'glossary'.
No other module names a language code or a lesson slug.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "scripts" / "i18n"
REQUIRED = ("direction", "numerals", "decimal", "thousands", "percent", "minus", "calendar", "font")


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    default: bool
    direction: str            # "ltr" | "rtl"
    numerals: str             # ten digits, 0 to 9
    decimal: str
    thousands: str
    percent: str              # what follows the number, spaces included ("\u00a0%", "٪")
    minus: str
    list_separator: str       # between the parts of a vector written in text: "[1,94; 1,03]"
    times: str                # the product sign of scientific notation: 1,8·10⁻⁷, ۱٫۸×۱۰⁻⁷
    calendar: str             # "gregorian" | "persian": dates on the PDF cover
    font: dict = field(default_factory=dict)   # {"page": css family, "chart": pinned family, "files": folder, "faces": [...]}
    typed_numerals: tuple = ()  # other sets of ten digits this language's readers type (exercise answers)
    plural: str = ""            # how a noun agrees with a number before it (numfmt.PLURAL_RULES); "" = not declared
    power_of_ten: str = ""      # 10ᵏ as one line of text (a chart's log axis): {ten}, {exp} or {sup}; numfmt.power_of_ten
    list_separator_in_formulas: bool = False   # a comma a formula writes is drawn as list_separator (course_build/katex.py)

    @property
    def prefix(self) -> str:
        """The language's folder in the site: '' for the default language, 'fa/' for the others."""
        return "" if self.default else f"{self.code}/"

    @property
    def rtl(self) -> bool:
        return self.direction == "rtl"


def mkdocs_config(path: Path | None = None) -> dict:
    """mkdocs.yml read with mkdocs' own loader (it understands !ENV)."""
    from mkdocs.utils import yaml_load
    with open(path or ROOT / "mkdocs.yml", encoding="utf-8") as f:
        return yaml_load(f)


def _i18n_plugin(config: dict) -> dict:
    for plugin in config.get("plugins", []):
        if isinstance(plugin, dict) and "i18n" in plugin:
            return plugin["i18n"]
    raise SystemExit("mkdocs.yml: the i18n plugin (mkdocs-static-i18n) is not configured")


@lru_cache(maxsize=None)
def languages(root: Path = ROOT) -> tuple[Language, ...]:
    out = []
    for entry in _i18n_plugin(mkdocs_config(root / "mkdocs.yml"))["languages"]:
        code = entry["locale"]
        meta_file = root / "scripts" / "i18n" / code / "language.yml"
        if not meta_file.exists():
            raise SystemExit(f"mkdocs.yml names language {code!r} but {meta_file.relative_to(root)} is missing: "
                             "copy scripts/i18n/<another language>/language.yml and adapt it")
        meta = (yaml.safe_load(meta_file.read_text(encoding="utf-8")) or {}).get("language") or {}
        missing = [k for k in REQUIRED if k not in meta]
        if missing:
            raise SystemExit(f"{meta_file.relative_to(root)}: language: needs {missing}")
        if len(meta["numerals"]) != 10:
            raise SystemExit(f"{meta_file.relative_to(root)}: numerals must be ten digits, 0 to 9")
        out.append(Language(code=code, name=entry.get("name", code), default=bool(entry.get("default")),
                            direction=meta["direction"], numerals=meta["numerals"], decimal=meta["decimal"],
                            thousands=meta["thousands"], percent=meta["percent"], minus=meta["minus"],
                            list_separator=meta.get("list_separator", ", "), times=_times(meta),
                            calendar=meta["calendar"],
                            font=dict(meta["font"]), typed_numerals=tuple(meta.get("typed_numerals") or ()),
                            plural=meta.get("plural", ""), power_of_ten=meta.get("power_of_ten", ""),
                            list_separator_in_formulas=bool(meta.get("list_separator_in_formulas", False))))
    if sum(lang.default for lang in out) != 1:
        raise SystemExit("mkdocs.yml: exactly one language of the i18n plugin must be `default: true`")
    return tuple(out)


def _times(meta: dict) -> str:
    """The language file's `times` sign; unnamed, a middle dot, except where the script's zero is
    itself a dot (۰, ٠): "۳٫۶·۱۰" would read as ۳٫۶۰۱۰, so the cross stands there."""
    if "times" in meta:
        return meta["times"]
    return "×" if meta["numerals"][0] in "\u06f0\u0660" else "·"


def number_reading(root: Path = ROOT) -> dict:
    """What a reader may type in a number, in any of the course's languages: each set of ten digits
    other than 0–9, and the decimal and thousands signs other than '.' and ','. Pages carry it
    (course_build/exercises.py → data-read) so overrides/assets/js/exercises.js names no script's digits."""
    langs = languages(root)
    digits = [d for lang in langs for d in (lang.numerals, *lang.typed_numerals) if d != "0123456789"]
    signs = lambda kind: sorted({getattr(lang, kind) for lang in langs} - {".", ","})  # noqa: E731
    return {"digits": list(dict.fromkeys(digits)), "decimal": signs("decimal"), "thousands": signs("thousands")}


def codes(root: Path = ROOT) -> list[str]:
    return [lang.code for lang in languages(root)]


def language(code: str, root: Path = ROOT) -> Language:
    for lang in languages(root):
        if lang.code == code:
            return lang
    raise KeyError(f"unknown language {code!r}: declare it in mkdocs.yml (i18n languages) and "
                   f"scripts/i18n/{code}/language.yml")


def default_language(root: Path = ROOT) -> Language:
    return next(lang for lang in languages(root) if lang.default)


def _front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return {}
    end = text.find("\n---", 4)
    return yaml.safe_load(text[4:end]) or {} if end > 0 else {}


def _nav_files(nav) -> list[str]:
    out = []
    for item in nav or []:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                out += _nav_files(value) if isinstance(value, list) else [value]
    return out


def page_name(src: str) -> str:
    """A page's name from its file under docs/<lang>/: 'self-attention/index.md' → 'self-attention',
    'self-attention/formula.md' → 'self-attention/formula', 'index.md' → 'index'."""
    stem = src[:-3] if src.endswith(".md") else src
    return stem[:-len("/index")] if stem.endswith("/index") else stem


def page_of(src_uri: str, lang: str) -> str | None:
    """The page a built file is (its src_uri 'uk/self-attention/formula.md', or without the language
    folder), or None when the nav does not list it."""
    if src_uri.startswith(lang + "/"):
        src_uri = src_uri[len(lang) + 1:]
    name = page_name(src_uri) if src_uri.endswith(".md") else None
    return name if name in pages() else None


@lru_cache(maxsize=None)
def _files(root: Path = ROOT) -> dict[str, str]:
    """page name -> its file under docs/<lang>/, in nav order."""
    files = [f for f in _nav_files(mkdocs_config(root / "mkdocs.yml").get("nav")) if f.endswith(".md")]
    return {page_name(f): f for f in files}


@lru_cache(maxsize=None)
def pages(root: Path = ROOT) -> tuple[str, ...]:
    """Every page of the nav, without its language, in nav order: ('index', 'self-attention',
    'self-attention/receptive-field', …, 'glossary')."""
    return tuple(_files(root))


def page_file(page: str, root: Path = ROOT) -> str:
    """The page's file under docs/<lang>/: 'self-attention/index.md', 'self-attention/formula.md', 'glossary.md'."""
    return _files(root)[page]


def source(lang: str, page: str, root: Path = ROOT) -> Path:
    """The page's Markdown source in one language."""
    return root / "docs" / lang / page_file(page, root)


@lru_cache(maxsize=None)
def lessons(root: Path = ROOT) -> tuple[str, ...]:
    """The chapters (lessons) in nav order: the pages whose front matter (default language) says `lesson: true`,
    each the overview of its chapter."""
    lang = default_language(root).code
    return tuple(p for p in pages(root) if _front_matter(source(lang, p, root)).get("lesson"))


@lru_cache(maxsize=None)
def sections(chapter: str, root: Path = ROOT) -> tuple[str, ...]:
    """A chapter's section pages in nav order (its overview not included): the pages in its folder."""
    if chapter not in lessons(root):
        raise KeyError(f"{chapter!r} is not a chapter (a page with front matter `lesson: true`)")
    if not page_file(chapter, root).endswith("/index.md"):
        return ()
    return tuple(p for p in pages(root) if p.startswith(chapter + "/"))


def chapter_of(page: str, root: Path = ROOT) -> str | None:
    """The chapter a page belongs to (its overview or one of its sections), or None."""
    for chapter in lessons(root):
        if page == chapter or page in sections(chapter, root):
            return chapter
    return None


def lesson_pages(root: Path = ROOT) -> tuple[str, ...]:
    """Every page of every chapter, in reading order: each overview, then its sections."""
    return tuple(p for c in lessons(root) for p in (c, *sections(c, root)))


def page_path(lang: str, page: str, root: Path = ROOT) -> str:
    """A page's URL path under the site root: '', 'fa/', 'self-attention/', 'fa/self-attention/'."""
    return language(lang, root).prefix + ("" if page == "index" else f"{page}/")


def offline_path(lang: str, page: str, root: Path = ROOT) -> str:
    """The page's file in the offline copy (no directory URLs): 'index.html', 'fa/self-attention/index.html',
    'self-attention/formula.html'."""
    return language(lang, root).prefix + page_file(page, root)[:-3] + ".html"
