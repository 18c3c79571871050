"""The course's one MkDocs plugin: `plugins: - course` (mkdocs.yml; entry point in pyproject.toml).

STAGES below is the whole page assembly, in order: each stage is a module of this package with one
job, and its `on_<event>` functions are its handlers. Where two stages handle the same event, MkDocs
runs them by their `@event_priority` (higher first) and, at equal priority, in the order of STAGES;
the plugin is the last in mkdocs.yml's list, so at equal priority it runs after search and i18n.
`python -m course_build.plugin` prints every event's handlers in the order they run.

A build starts from nothing: every stage's `reset()` runs and the cached readers of generated/ and
the course model are cleared when the outermost build begins. static-i18n builds the other languages
inside the first language's post_build (mkdocs-static-i18n 1.3, plugin.py: `build(config)`), so a
nested build keeps what the outer one gathered (the 404 pages, the home page's chapter cards): the
depth of builds is counted. `mkdocs serve` rebuilds in this one process, which is why this matters.
"""
from __future__ import annotations

import inspect
import math
from importlib import import_module

from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from course_build import datapath, provenance, refs, texts
from scripts.common import course

STAGES = (
    "live_data",           # under `mkdocs serve`: recompute what changed in generated/ before each rebuild
    "chapters",            # a lesson is a chapter: overview + sections; nav titles, {{ sections }}, old anchors
    "exercises",           # {{ exercise: id }} → a checked exercise (before refs, leaves it {{ v: }})
    "pointer",             # {{ say: id }} → a sentence about a control in its hover, tap and print wordings
    "widgets",             # {{ widget: id }} → a figure computing in the page on the reader's input; models copied
    "home",                # {{ lessons }} → a card per lesson on the home page (before refs)
    "refs",                # {{ chart: }} {{ v: }} {{ table: }} from generated/ (numbers found by datapath.py)
    "chart_scripts",       # each chart's spec (and its data parts) as a script, its static SVG, in the site
    "code_comments",       # comments of the code a lesson shows, in the page's language
    "code_listings",       # provenance code listings load when opened (site; the offline copy keeps them)
    "exercise_solutions",  # worked solutions load when opened (site; the offline copy keeps them)
    "chart_fonts",         # a chart-only font served with just the characters the charts draw
    "katex",               # math rendered once at build time (no KaTeX script shipped)
    "worker_shim",         # the offline copy uses our local web-worker shim, never a CDN one
    "markup",              # small markup fixes (head alternates, a search index per language)
    "notfound",            # a 404 page per language; the root one switches by the missing path
    "chrome",              # Material's chrome in each language (toggle names, search dialog name)
    "print_pages",         # each lesson's final content and toc saved for the printed notes (tools/pdf.py)
    "minify",              # the course's own scripts and stylesheet served minified (sources keep their comments)
)

# readers that cache what they read from generated/, scripts/i18n/ or docs/: cleared per build
READERS = (texts.strings, datapath.dataset, provenance.seeds, provenance.libraries, provenance.title,
           provenance._tree, provenance._files, provenance._imports, provenance._file_seeds,
           course.languages, course.pages, course.lessons, course.sections, course._files)


def stages() -> list:
    return [import_module(f"course_build.{name}") for name in STAGES]


def handlers() -> dict[str, list]:
    """event → its handlers, in STAGES order (MkDocs then sorts them by priority, stably)."""
    events: dict[str, list] = {}
    for stage in stages():
        for name, fn in vars(stage).items():
            if not name.startswith("on_"):
                continue
            if isinstance(fn, CombinedEvent):  # a stage with two handlers of one event (chapters)
                events.setdefault(name[3:], []).extend(fn.methods)
            elif inspect.isfunction(fn) and fn.__module__ == stage.__name__:
                events.setdefault(name[3:], []).append(fn)
    return events


class CoursePlugin(BasePlugin):
    def __init__(self) -> None:
        super().__init__()
        self._depth = 0
        events = handlers()
        events.setdefault("config", []).insert(0, self._begin)
        events.setdefault("post_build", []).append(self._end)
        events.setdefault("build_error", []).append(self._failed)
        for event, fns in events.items():
            # an instance attribute: MkDocs registers each handler with its own priority
            setattr(self, f"on_{event}", CombinedEvent(*fns))

    @event_priority(math.inf)
    def _begin(self, config, **kwargs):
        if self._depth == 0:
            for reader in READERS:
                reader.cache_clear()
            for stage in stages():
                if hasattr(stage, "reset"):
                    stage.reset()
        self._depth += 1
        return config

    @event_priority(-math.inf)
    def _end(self, config, **kwargs) -> None:
        self._depth -= 1

    def _failed(self, error, **kwargs) -> None:
        self._depth = 0


if __name__ == "__main__":
    for event, fns in handlers().items():
        ordered = sorted(fns, key=lambda f: -getattr(f, "mkdocs_priority", 0))
        print(f"on_{event}:")
        for fn in ordered:
            print(f"  {getattr(fn, 'mkdocs_priority', 0):>6}  {fn.__module__.split('.')[-1]}.{fn.__name__}")
