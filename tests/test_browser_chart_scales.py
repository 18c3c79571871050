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
def test_heads_table_lists_what_the_chart_draws(shared_page, lang):
    """The multi-head chart's data table is its printed state's cells (it listed parameter counts, with
    d = 768 rows the chart never draws): every cell's weight, head by head, as the browser draws it."""
    import json
    from conftest import ITEMS, ROOT
    tab = json.loads((ROOT / "generated" / "charts" / lang / "sa_heads.table.json").read_text(encoding="utf-8"))
    p = shared_page(lang, page_with_chart("sa_heads"))
    # the printed state (the page is shared: a test before may have moved the controls)
    p.evaluate(f"async ([id]) => {{ const view = ({VIEW})(id); view.signal('patch', 10); view.signal('heads', 4);"
               " await view.runAsync(); }", ["sa_heads"])
    drawn = p.evaluate(f"([id, prefix]) => ({ITEMS})([id, prefix])", ["sa_heads", "cells"])
    cells = {(it["datum"]["h"], it["datum"]["j"]): it["datum"]["w"] for it in drawn}
    heads = [c[0] for c in tab["columns"] if c[0].startswith("w")]
    assert cells and len(cells) == len(heads) * len(tab["rows"]), (len(cells), len(heads), len(tab["rows"]))
    for row in tab["rows"]:
        for h, col in enumerate(heads):
            # generated/ keeps 6 significant digits; the table shows 3 decimals
            assert row[col] == pytest.approx(cells[(h, row["j"])], rel=1e-5, abs=1e-9), (lang, h, row["j"])
