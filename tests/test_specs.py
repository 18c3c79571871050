"""Every chart builder (one per file, like altair's gallery) yields a valid, accessible spec per language."""
import json
from pathlib import Path

import jsonschema
import pytest

from scripts.common.i18n import languages

ROOT = Path(__file__).resolve().parent.parent
CHARTS = sorted(p.stem for p in (ROOT / "scripts/charts").glob("*.py") if not p.stem.startswith("_"))
LANGS = languages()


@pytest.fixture(scope="module")
def validator():
    import altair
    schema = json.loads((Path(altair.__file__).parent / "vegalite/v6/schema/vega-lite-schema.json").read_text())
    return jsonschema.Draft7Validator(schema)


def test_charts_exist():
    assert CHARTS, "no chart builders found in scripts/charts/"


@pytest.mark.parametrize("chart", CHARTS)
def test_builder_has_title_docstring_and_data(chart):
    import importlib
    mod = importlib.import_module(f"scripts.charts.{chart}")
    assert mod.__doc__ and mod.__doc__.strip(), f"scripts/charts/{chart}.py needs a docstring title"
    assert mod.DATA and all((ROOT / f"generated/data/{d}.json").exists() for d in mod.DATA)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chart", CHARTS)
def test_spec_validates_and_is_named(chart, lang, validator):
    spec = json.loads((ROOT / f"generated/charts/{lang}/{chart}.json").read_text(encoding="utf-8"))
    errors = sorted(validator.iter_errors(spec), key=lambda e: e.path)
    assert not errors, f"{lang}/{chart}: {errors[0].message} at {list(errors[0].path)}"
    assert spec.get("description"), "a chart needs a description: its accessible name"
    assert spec.get("title")
    vega = json.loads((ROOT / f"generated/charts/{lang}/{chart}.vg.json").read_text(encoding="utf-8"))
    assert vega["$schema"].startswith("https://vega.github.io/schema/vega/")
    svg = (ROOT / f"generated/charts/{lang}/{chart}.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg")


@pytest.mark.parametrize("chart", CHARTS)
def test_persian_spec_carries_persian_text_and_font(chart):
    fa = json.loads((ROOT / f"generated/charts/fa/{chart}.json").read_text(encoding="utf-8"))
    assert fa["config"]["font"] == "Vazirmatn"
    assert any("\u0600" <= ch <= "\u06ff" for ch in json.dumps(fa["title"], ensure_ascii=False))
    svg = (ROOT / f"generated/charts/fa/{chart}.svg").read_text(encoding="utf-8")
    assert any(ch in svg for ch in "۰۱۲۳۴۵۶۷۸۹"), "the static SVG should show Persian digits"
