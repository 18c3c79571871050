"""Material's page chrome in the page's own language, and small typography fixes around its markup.

- The light/dark toggle: mkdocs.yml names each palette option once for every language; its name
  (tooltip and accessible name) comes from scripts/i18n/<lang>/site.yml `ui.palette.<scheme>`,
  keyed by the scheme the option shows (default = light, slate = dark). Material's automatic option
  is refused: the course's toggle does not handle it (overrides/partials/palette.html).
- The header's and footer's accessible names (aria-label of their nav landmarks): Material's own
  strings borrow English («Хедер», «Футер») or say something else (fa «پاورقی», a footnote); the page's
  language names them in scripts/i18n/<lang>/site.yml `ui.landmarks`.
- Search counts in the language's digits: Material's script puts a Latin number in place of "#" in
  «# نتیجه یافت شد»; partials/search.html gives the search box the language's ten digits
  (`data-course-numerals`) and overrides/assets/js/search-on-demand.js writes the counts with them.
- A page's <title> joins the page's and the site's names as the language writes it (`ui.page_title`: uk with
  an em dash, «Формула крок за кроком — Увага в числах»; Material joins them with a hyphen in every language).
- Each heading's ¶ link is titled in the page's language (`ui.permalink`); Markdown's toc writes «Permanent
  link» in every language.
- Punctuation right after inline code («`Conv1d`،»): the code box's padding reads as a space
  before the comma, most visibly in Persian; the mark gets a class that pulls it in (course.css).
- Every page in every language: a page missing from one language's folder stops the build naming the file
  to add. Without it, mkdocs-static-i18n publishes another language's text under that language's path and
  in its nav and language switcher, silently, even under --strict.
Runs after static-i18n has switched the config to the language being built (its on_config runs
at priority -100).
"""
import html
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from scripts.common import course  # the languages and the nav's pages, declared once
from course_build.texts import strings


def check_pages(docs: Path) -> None:
    """Each page of the nav, and each page any language's folder holds, exists in every language's folder."""
    langs = course.codes()
    pages = {course.page_file(p) for p in course.pages()} | {f.relative_to(docs / lang).as_posix()
                                                             for lang in langs for f in (docs / lang).rglob("*.md")}
    missing = [(lang, page) for page in sorted(pages) for lang in langs if not (docs / lang / page).is_file()]
    if missing:
        def one(lang: str, page: str) -> str:
            there = [f"{docs.name}/{other}/{page}" for other in langs if (docs / other / page).is_file()]
            return (f"{docs.name}/{lang}/{page} is missing: add it" +
                    (f", translating {there[0]}" if there else f" (the nav of mkdocs.yml names {page})"))
        raise PluginError("every page must exist in every language (mkdocs-static-i18n would publish another "
                          "language's text in its place): " + "; ".join(one(*m) for m in missing))


@event_priority(-110)
def on_config(config, **kwargs):
    lang = config["theme"]["language"]
    names = strings(lang)["ui"].get("palette") or {}
    for option in config["theme"].get("palette") or []:
        if option.get("media") == "(prefers-color-scheme)":  # Material's automatic option
            raise PluginError("mkdocs.yml: a palette option with media \"(prefers-color-scheme)\" (automatic) is not "
                              "supported by the course's toggle (overrides/partials/javascripts/palette.html): "
                              "give each option the light or dark media query; with no stored choice the page "
                              "follows the reader's system setting already")
        if "toggle" not in option:
            continue
        scheme = option.get("scheme", "default")
        if scheme not in names:
            raise PluginError(f"no name for the {scheme!r} palette toggle in scripts/i18n/{lang}/site.yml "
                              f"(ui: palette: {scheme}: …)")
        option["toggle"]["name"] = names[scheme]
    # words that templates in overrides/ show (partials/search.html: the search dialog's name)
    # and the language's digits, for the counts Material's script writes in Latin digits (search-on-demand.js)
    # and the form of a page's <title> (main.html: «Формула крок за кроком — Увага в числах»)
    config["extra"]["course_ui"] = {"search_dialog": strings(lang)["ui"]["search_dialog"],
                                    "numerals": course.language(lang).numerals,
                                    "page_title": strings(lang)["ui"]["page_title"]}
    # The footer: licence and a plain link to the source repository, in the page's language
    foot, url = strings(lang)["ui"]["footer"], (config.get("extra") or {}).get("source_url")
    if not url:
        raise PluginError("mkdocs.yml: extra.source_url (the source repository the footer links to) is missing")
    config["copyright"] = (f'<span class="course-licence">{html.escape(foot["licence"])}</span> · '
                           f'<a class="course-source" href="{html.escape(url)}">{html.escape(foot["source"])}</a>')
    check_pages(Path(config["docs_dir"]))
    # each page's Markdown is made from mdx_configs, so this titles every heading link of this language
    config["mdx_configs"].setdefault("toc", {})["permalink_title"] = strings(lang)["ui"]["permalink"]
    return config


PUNCT_AFTER_CODE = re.compile(r"</code>([,.;:!?،؛])")


def on_page_content(html: str, **kwargs) -> str:
    return PUNCT_AFTER_CODE.sub(r'</code><span class="after-code">\1</span>', html)


LANDMARK = re.compile(r'(<nav class="md-(header|footer)__inner md-grid" aria-label=")[^"]*(")')


def landmarks(output: str, config) -> str:
    names = strings(config["theme"]["language"])["ui"]["landmarks"]
    return LANDMARK.sub(lambda m: m.group(1) + html.escape(names[m.group(2)]) + m.group(3), output)


def on_post_page(output: str, page, config, **kwargs) -> str:
    return landmarks(output, config)


@event_priority(10)   # before course_build/notfound.py keeps the 404 page it writes for each language
def on_post_template(output: str, template_name: str, config, **kwargs) -> str:
    return landmarks(output, config) if template_name == "404.html" else output
