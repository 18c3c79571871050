"""Memory traffic of attention in a simple two-level memory model: numbers moved between slow memory
(HBM) and fast memory (SRAM) by standard attention and by the tiled loops, as the key block grows.

Counted by sc_online_softmax for N = 4 096 tokens of width d = 64: standard attention writes and reads
the N × N scores and weights whatever the fast memory; the tiled loops move Q, O and the running
statistics once per key block, so the bigger the block (the fast memory), the fewer numbers move. The
dashed lines are the paper's orders of growth, Nd + N² and N²d²/M, drawn without their constants.
"""
import altair as alt

from scripts.charts._kit import bidi, hue_scale, js, label, lines_below, num, pick, power_axis, single

from scripts.common import numfmt

DATA = ["sc_online_softmax"]
HUES = {"tiled": "blue", "standard": "red", "theta": "grey"}
# An empty last line under the readout: a phone's narrow chart wraps a readout into more lines only on
# the run after the one that sized the view, and this slack keeps the last wrapped line inside it.
SPACER = (" ", dict(fontSize=28))


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    traffic = data["sc_online_softmax"]["traffic"]
    rows = traffic["rows"]
    bcs = [r["bc"] for r in rows]
    pick_bc = alt.param(name="bc", value=rows[len(rows) // 2]["bc"], bind=alt.binding_select(
        options=bcs, labels=[numfmt.fmt(b, ",d", lang) for b in bcs], name=label(t["select"])))
    names = {k: bidi(t["series"][k]) for k in ("tiled", "standard", "theta_tiled", "theta_standard")}
    lines = [{"bc": r["bc"], "series": names[k], "kind": "theta" if k.startswith("theta") else k, "moved": r[k]}
             for r in rows for k in names]
    x = alt.X("bc:Q", title=t["x"], scale=alt.Scale(type="log", base=2, domain=[bcs[0], bcs[-1]], nice=False),
              axis=alt.Axis(values=bcs[::2], format=",d", grid=False, labelFlush=True, labelOverlap="greedy",
                                labelSeparation=6))
    y = alt.Y("moved:Q", title=t["y"], scale=alt.Scale(type="log", domain=[1e4, 1e9], nice=False),
              axis=power_axis(lang, range(4, 10), grid=True))
    # each line named where it has room (no legend: inside a phone's plot it covered the lines)
    colour = alt.Color("kind:N", legend=None, scale=hue_scale(HUES))    # the dark scheme swaps the hues
    dash = alt.StrokeDash("kind:N", legend=None, scale=alt.Scale(domain=["tiled", "standard", "theta"],
                                                                 range=[[1, 0], [1, 0], [5, 4]]))
    base = alt.Chart(alt.Data(values=lines))
    drawn = base.mark_line(strokeWidth=2.2, point=False).encode(x=x, y=y, color=colour, strokeDash=dash,
                                                               detail="series:N")
    dots = base.transform_filter("datum.kind != 'theta'").mark_point(filled=True, size=30, opacity=1).encode(
        x=x, y=y, color=colour, tooltip=[alt.Tooltip("series:N", title=t["kind"]),
                                         alt.Tooltip("bc:Q", title="Bc", format=",d"),
                                         alt.Tooltip("moved:Q", title=t["moved"], format=",d")])
    here = base.transform_filter("datum.bc == bc && datum.kind != 'theta'")
    ring = here.mark_point(size=150, strokeWidth=2, filled=False, opacity=1).encode(x=x, y=y, color=colour)
    rule = here.transform_filter("datum.kind == 'tiled'").mark_rule(strokeDash=[3, 3], opacity=0.6).encode(x=x)
    chart = alt.layer(drawn, dots, rule, ring, *_names(base, x, y, colour, names, bcs),
                      *_readout(traffic, t)).add_params(pick_bc)
    return single(chart.properties(height=280), t)


def _names(base: alt.Chart, x: alt.X, y: alt.Y, colour: alt.Color, names: dict, bcs: list) -> list[alt.Chart]:
    """The lines' names beside them: the falling ones at their left end, the flat ones at their right end."""
    place = {"tiled": (bcs[0], "left", 8, 0), "theta_standard": (bcs[0], "left", 4, 10),
             "standard": (bcs[-1], "right", -4, -10), "theta_tiled": (bcs[-1], "right", -4, -10)}
    return [base.transform_filter(f"datum.series == {js(names[key])} && datum.bc == {at}").mark_text(
        align=side, dx=dx, dy=dy, fontSize=12, baseline="middle").encode(x=x, y=y, color=colour, text="series:N")
        for key, (at, side, dx, dy) in place.items()]


def _readout(traffic: dict, t: dict) -> list[alt.Chart]:
    rows = traffic["rows"]
    at = lambda key: pick([str(r[key]) for r in rows], f"indexof({[r['bc'] for r in rows]}, bc)")  # noqa: E731
    one = alt.Chart(alt.Data(values=[{"one": 1}])).transform_calculate(
        tiled=at("tiled"), ratio=f"{traffic['standard']} / ({at('tiled')})")
    parts = dict(bc=num("bc", ",d"), br=num(at("br"), ",d"), m=num(at("sram"), ",d"), tc=num(at("tc"), ",d"),
                 tiled=num("datum.tiled", ",d"), std=num(str(traffic["standard"]), ",d"),
                 less=num("datum.ratio", ",.1f"), more=num("1 / datum.ratio", ",.1f"),
                 c=num(at("tiled_over_theta"), ",.1f"), n=num(str(traffic["n"]), ",d"), d=num(str(traffic["d"]), "d"))
    head = [(t["line_block"], dict(fontSize=13)), (t["line_counts"], dict(fontSize=13))]
    out = []
    for cond, key in (("datum.ratio >= 1", "line_less"), ("datum.ratio < 1", "line_more")):
        out += lines_below(one.transform_filter(cond), head + [(t[key], dict(fontSize=13, fontWeight="bold")),
                                                                (t["line_constant"], dict(fontSize=12)), SPACER],
                           parts, top=50)      # below the axis labels and title
    return out


def table(data: dict, t: dict, lang: str) -> dict:
    """Numbers moved at every block size of the grid, standard and tiled, with the orders of growth."""
    c = t["columns"]
    return {"columns": [["sram", c["sram"], ",d"], ["bc", "Bc", ",d"], ["br", "Br", ",d"], ["tc", c["tc"], ",d"],
                        ["tiled", c["tiled"], ",d"], ["standard", c["standard"], ",d"],
                        ["theta_tiled", "N²d²/M", ",d"], ["tiled_over_theta", c["constant"], ",.1f"]],
            "rows": data["sc_online_softmax"]["traffic"]["rows"]}
