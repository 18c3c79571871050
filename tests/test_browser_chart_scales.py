"""A chart's colour scale does not move with its controls (issue 25): a scale fitted to each setting
made the multi-head chart's near-uniform head (every weight ≈ 1/49) as dark as a sharp one."""
import pytest

from conftest import LANGS, VIEW, page_with_chart

# chart id → its colour scale's name in the Vega spec, and every setting of its controls to visit
FIXED = {"sa_heads": ("concat_1_fill", [("patch", v) for v in (0, 10, 48)] + [("heads", v) for v in (1, 2, 4, 8)])}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chart", FIXED)
def test_colour_domain_is_the_same_for_every_setting(shared_page, lang, chart):
    scale, settings = FIXED[chart]
    p = shared_page(lang, page_with_chart(chart))
    domains = {}
    for name, value in settings:
        domains[f"{name}={value}"] = p.evaluate(
            f"async ([id, s, n, v]) => {{ const view = ({VIEW})(id); view.signal(n, v); await view.runAsync();"
            " return view.scale(s).domain(); }", [chart, scale, name, value])
    assert len({tuple(d) for d in domains.values()}) == 1, f"{lang}/{chart}: colour domain moves: {domains}"


@pytest.mark.parametrize("lang", LANGS)
def test_heads_table_lists_what_the_chart_draws(lang):
    """The multi-head chart draws d = 32 only: its data table has no other width (it listed d = 768)."""
    from conftest import ROOT
    import json
    tab = json.loads((ROOT / "generated" / "charts" / lang / "sa_heads.table.json").read_text(encoding="utf-8"))
    assert tab["rows"] and {r["d"] for r in tab["rows"]} == {32}, tab["rows"]
