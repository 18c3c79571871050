"""The course's one MkDocs plugin (course_build/plugin.py): every stage is listed once, in order, and a
build starts from nothing (what `mkdocs serve` needs: it rebuilds in one process)."""
import inspect
from importlib import import_module
from pathlib import Path

import yaml

from course_build import chapters, home, notfound, plugin

ROOT = Path(__file__).resolve().parent.parent


def test_every_module_with_a_handler_is_a_listed_stage():
    """A module with an `on_<event>` that is not in STAGES would silently never run."""
    with_handlers = set()
    for path in sorted((ROOT / "course_build").glob("*.py")):
        module = import_module(f"course_build.{path.stem}")
        if path.stem != "plugin" and any(n.startswith("on_") for n, _ in inspect.getmembers(module)):
            with_handlers.add(path.stem)
    assert with_handlers == set(plugin.STAGES)
    assert len(plugin.STAGES) == len(set(plugin.STAGES))


def test_mkdocs_names_the_plugin_once_and_no_hooks():
    class Loader(yaml.SafeLoader):
        pass
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    names = [p if isinstance(p, str) else next(iter(p)) for p in config["plugins"]]
    assert names[-1] == "course" and names.count("course") == 1
    assert "hooks" not in config


def test_the_outermost_build_resets_every_stage_and_a_nested_one_does_not():
    """static-i18n builds the other languages inside the first one's post_build: what the outer build
    gathered (the 404 pages, the chapters seen) must survive those, and be gone when the next build starts."""
    course = plugin.CoursePlugin()
    config = {}
    course._begin(config)
    notfound._pages["xx"] = "page"
    chapters._SEEN[("xx", "c")] = {}
    home._PAGES[("xx", "p")] = {}
    course._begin(config)  # a nested build
    assert notfound._pages and chapters._SEEN and home._PAGES
    course._end(config)
    course._end(config)
    course._begin(config)  # the next build, as `mkdocs serve` starts it
    assert not notfound._pages and not chapters._SEEN and not home._PAGES
    course._end(config)


def test_a_failed_build_does_not_leave_the_next_one_nested():
    course = plugin.CoursePlugin()
    course._begin({})
    course._failed(error=RuntimeError("x"))
    notfound._pages["xx"] = "page"
    course._begin({})
    assert not notfound._pages
    course._end({})
