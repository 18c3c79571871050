"""A 404 page per language, and a root 404.html that sends each reader to their language's.

GitHub Pages serves only the root 404.html for every missing path, and static-i18n writes that
file once per language (the last one wins, so it was Persian for everyone). Here every language
gets its own <root>/404.html with its strings (scripts/i18n/<lang>/site.yml `ui.not_found`), and
the root one is the default language's plus a tiny script: a missing path under <base><root>/
switches to that language's 404 page. tools/serve.py answers missing paths the same way (status 404).
"""
import html
import json
from pathlib import Path
from urllib.parse import urlparse

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from scripts.common import course
from course_build.texts import strings

MATERIAL_HEADING = "<h1>404 - Not found</h1>"
_pages: dict[str, str] = {}  # language -> its 404 page, gathered over static-i18n's per-language builds


def reset() -> None:
    """A new build starts from nothing (course_build/plugin.py calls this; `mkdocs serve` rebuilds in one process)."""
    _pages.clear()


def languages(config=None) -> tuple[str, list[str]]:
    """(default language, folders of the others) from the course model (scripts/common/course.py)."""
    return course.default_language().code, [lang.code for lang in course.languages() if not lang.default]


def base_path(config) -> str:
    return "/" + urlparse(config["site_url"] or "/").path.strip("/") + "/" if config["site_url"] else "/"


def switch_script(base: str, roots: list[str]) -> str:
    """Inline (works before anything loads): under <base><root>/ show that language's 404 page."""
    return ("<script>(function(){var b=%s,r=%s,p=location.pathname;for(var i=0;i<r.length;i++){"
            "var h=b+r[i]+'/';if(p.indexOf(h)===0&&p!==h+'404.html'){location.replace(h+'404.html');return;}}"
            "})();</script>") % (json.dumps(base), json.dumps(roots))


def on_post_template(output: str, template_name: str, config, **kwargs):
    if template_name != "404.html":
        return output
    lang = config["theme"]["language"]
    default, roots = languages(config)
    t = strings(lang)["ui"]["not_found"]
    if MATERIAL_HEADING not in output:
        raise PluginError("Material's 404 page changed (no '404 - Not found' heading): update course_build/notfound.py")
    home = base_path(config) + course.language(lang).prefix
    body = (f"<h1>{html.escape(t['title'])}</h1><p>{html.escape(t['text'])}</p>"
            f'<p><a href="{html.escape(home)}">{html.escape(t["home"])}</a></p>')
    output = output.replace(MATERIAL_HEADING, body, 1)
    _pages[lang] = output
    if lang == default:
        output = output.replace("<head>", "<head>" + switch_script(base_path(config), roots), 1)
    else:  # this language's search index (course_build/markup.py gives each language root its own)
        output = output.replace(f'"base": "{base_path(config)}"', f'"base": "{base_path(config)}{lang}/"', 1)
        target = Path(config["site_dir"]) / lang / "404.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(output, encoding="utf-8")
    return output


@event_priority(-200)  # after static-i18n built every language (each build rewrote the root 404.html)
def on_post_build(config, **kwargs) -> None:
    default, roots = languages(config)
    if default in _pages:
        page = _pages[default].replace("<head>", "<head>" + switch_script(base_path(config), roots), 1)
        (Path(config["site_dir"]) / "404.html").write_text(page, encoding="utf-8")
