"""A KV-cache calculator: bytes per token = 2 × layers × key/value heads × head size × bytes per number,
times context and batch, set against the model's own weights; published configurations as presets.

Everything is computed in the browser from the reader's controls. A click on a preset's name sets
every control to that model's published numbers (sc_cache_size, scripts/common/published_models.py);
the weights bar shows while the controls describe a published model (its parameter count in the chosen
number format), since a changed architecture has no published parameter count.
"""
import altair as alt

from scripts.charts._kit import BREAK, align, bidi, fit, js, label, lines_below, num, rtl, single

from scripts.common import numfmt

DATA = ["sc_cache_size"]
CACHE, WEIGHTS = "#3f7fc6", "#d0603a"
ROW = 1.0                 # y units between preset names
FIELDS = ["layers", "heads", "kv_heads", "head_size", "bytes", "context"]     # the order of the controls

# The one formula of the page, as the browser evaluates it (tests/test_scale_claims.py evaluates this
# string against the experiment's bytes per token for every preset).
BYTES_PER_TOKEN = "2 * cfg_layers * cfg_kv_heads * cfg_head_size * cfg_bytes"

# An empty last line under the readout: a phone's narrow chart wraps a readout into more lines only on
# the run after the one that sized the view, and this slack keeps the last wrapped line inside it.
SPACER = (" ", dict(fontSize=28))


def controls(cache: dict, t: dict, lang: str) -> alt.Parameter:
    """One point selection over the six fields, each bound to its own control; a click on a preset sets them all."""
    first = cache["presets"][0]
    sizes = sorted({r["bytes"] for r in cache["formats"]}, reverse=True)
    names = {b: " / ".join(r["format"] for r in cache["formats"] if r["bytes"] == b) for b in sizes}
    c = t["controls"]
    fmt = lambda v: numfmt.fmt(v, ",d", lang)  # noqa: E731
    contexts = sorted(set(cache["contexts"]) | {p["context"] for p in cache["presets"]})
    bind = {
        "layers": alt.binding_range(min=1, max=96, step=1, name=label(c["layers"])),
        "heads": alt.binding_range(min=1, max=128, step=1, name=label(c["heads"])),
        "kv_heads": alt.binding_range(min=1, max=128, step=1, name=label(c["kv_heads"])),
        "head_size": alt.binding_range(min=16, max=256, step=16, name=label(c["head_size"])),
        "bytes": alt.binding_select(options=sizes, name=label(c["bytes"]),
                                    labels=[c["format"].format(name=names[b], bytes=fmt(b)) for b in sizes]),
        "context": alt.binding_select(options=contexts, labels=[fmt(x) for x in contexts], name=label(c["context"])),
    }
    value = {"layers": first["layers"], "heads": first["heads"], "kv_heads": first["kv_heads"],
             "head_size": first["head_size"], "bytes": first["bytes_per_number"], "context": first["context"]}
    # only a click on a preset's name (its datum has the fields) sets the controls; a click elsewhere does nothing
    # the controls show in the order of the selection's fields, reversed
    return alt.selection_point(name="cfg", fields=FIELDS[::-1], value=[value], bind=bind, clear=False,
                               on="click[event.item && event.item.datum && event.item.datum.layers]", toggle=False)


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    cache = data["sc_cache_size"]
    presets = cache["presets"]
    for p in presets:          # the formula the browser applies is the experiment's
        assert p["bytes_per_token"] == 2 * p["layers"] * p["kv_heads"] * p["head_size"] * p["bytes_per_number"]
    cfg = controls(cache, t, lang)
    batch = alt.param(name="batch", value=1, bind=alt.binding_range(min=1, max=64, step=1,
                                                                   name=label(t["controls"]["batch"])))
    # the published model the controls describe, if any: its parameter count and name
    same = lambda p: " && ".join(f"cfg_{f} == {p[f]}" for f in ("layers", "heads", "kv_heads", "head_size"))  # noqa: E731
    params = " : ".join(f"{same(p)} ? {p['params']:.0f}" for p in presets) + " : 0"
    name = " : ".join(f"{same(p)} ? {js(p['name'])}" for p in presets) + " : ''"
    rows = [{"row": (i + 1) * ROW, "id": p["id"], "name": p["name"], "layers": p["layers"], "heads": p["heads"],
             "kv_heads": p["kv_heads"], "head_size": p["head_size"], "bytes": p["bytes_per_number"],
             "context": p["context"]} for i, p in enumerate(presets)]
    top = (len(presets) + 1) * ROW + 0.4
    y = alt.Scale(domain=[-0.6, top + 2.4], nice=False, zero=False, reverse=True)
    base = alt.Chart(alt.Data(values=[{"one": 1}])).transform_calculate(
        bpt=BYTES_PER_TOKEN).transform_calculate(
        total="datum.bpt * cfg_context * batch", params=params, model=name).transform_calculate(
        weights="datum.params * cfg_bytes", gib="datum.total / pow(2, 30)")
    chart = alt.layer(*_presets(rows, t, y, params), *_bars(base, t, y, top), *_readout(base, t))
    return single(chart.add_params(cfg, batch).properties(height=250), t)


def _presets(rows: list[dict], t: dict, y: alt.Scale, params: str) -> list[alt.Chart]:
    """The published models, one name a row; the one the controls describe is bold and marked."""
    right = rtl(t["presets"])
    x = alt.value("width") if right else alt.value(0)
    heading = alt.Chart(alt.Data(values=[{"row": -0.1 * ROW, "text": bidi(t["presets"])}])).mark_text(
        align=align(t["presets"]), baseline="middle", fontSize=12, opacity=0.8).encode(
        x=x, y=alt.Y("row:Q", scale=y, axis=None), text="text:N")
    chosen = " && ".join(f"cfg_{f} == datum.{f}" for f in ("layers", "heads", "kv_heads", "head_size"))
    tip = [alt.Tooltip("name:N", title=t["model"]), alt.Tooltip("layers:Q", title=t["controls"]["layers"]),
           alt.Tooltip("heads:Q", title=t["controls"]["heads"]),
           alt.Tooltip("kv_heads:Q", title=t["controls"]["kv_heads"]),
           alt.Tooltip("head_size:Q", title=t["controls"]["head_size"]),
           alt.Tooltip("context:Q", title=t["controls"]["context"], format=",d")]
    names = alt.Chart(alt.Data(values=rows)).transform_calculate(on=chosen)
    names = [names.transform_filter(f"{'' if bold else '!'}datum.on").transform_calculate(
        mark=f"{js('● ' if bold else '○ ')} + datum.name").mark_text(
        align=align(t["presets"]), baseline="middle", fontSize=14, cursor="pointer",
        fontWeight="bold" if bold else "normal").encode(
        x=x, y=alt.Y("row:Q", scale=y, axis=None), text="mark:N", tooltip=tip) for bold in (True, False)]
    return [heading, *names]


def _bars(base: alt.Chart, t: dict, y: alt.Scale, top: float) -> list[alt.Chart]:
    """The cache and (for a published model) its weights, one bar each on one scale, labelled above."""
    x = alt.Scale(nice=False, zero=True)      # the longer bar takes the whole width
    parts = dict(gib=_gib("datum.gib"), w=_gib("datum.weights / pow(2, 30)"), model="datum.model")
    rows = [("total", top + 0.6, CACHE, t["cache_bar"]), ("weights", top + 1.9, WEIGHTS, t["weights_bar"])]
    layers = []
    for field, row, colour, text in rows:
        shown = base if field == "total" else base.transform_filter("datum.params > 0")
        layers.append(shown.transform_calculate(r=str(row)).mark_bar(height=14, color=colour, opacity=0.85).encode(
            x=alt.X(f"{field}:Q", scale=x, axis=None), x2=alt.X2(datum=0), y=alt.Y("r:Q", scale=y, axis=None)))
        word = text if field == "total" else t["weights_bar"]
        layers.append(shown.transform_calculate(r=str(row - 0.55), w_text=fit(word, 13, **parts)).mark_text(
            align=align(word), baseline="middle", fontSize=13, lineBreak=BREAK).encode(
            x=alt.value("width") if rtl(word) else alt.value(0), y=alt.Y("r:Q", scale=y, axis=None),
            text="w_text:N"))
    unknown = base.transform_filter("datum.params == 0").transform_calculate(
        r=str(top + 1.6), u_text=fit(t["weights_unknown"], 12)).mark_text(
        align=align(t["weights_unknown"]), baseline="middle", fontSize=12, opacity=0.8, lineBreak=BREAK).encode(
        x=alt.value("width") if rtl(t["weights_unknown"]) else alt.value(0), y=alt.Y("r:Q", scale=y, axis=None),
        text="u_text:N")
    return layers + [unknown]


def _gib(expr: str) -> str:
    """A size in GiB with as many decimals as it needs to show."""
    return f"format({expr}, {expr} < 1 ? '.3f' : {expr} < 100 ? ',.2f' : ',.0f')"


def _readout(base: alt.Chart, t: dict) -> list[alt.Chart]:
    parts = dict(layers=num("cfg_layers", "d"), kv=num("cfg_kv_heads", "d"), hs=num("cfg_head_size", "d"),
                 b=num("cfg_bytes", "d"), bpt=num("datum.bpt", ",d"), kib=num("datum.bpt / 1024", ",.1~f"),
                 context=num("cfg_context", ",d"), batch=num("batch", "d"), gib=_gib("datum.gib"),
                 heads=num("cfg_heads", "d"), factor=num("cfg_heads / cfg_kv_heads", ",.2~f"),
                 pct=num("datum.total / datum.weights", ".1%"), ratio=num("datum.total / datum.weights", ",.1f"), model="datum.model")
    head = [(t["line_token"], dict(fontSize=13)), (t["line_total"], dict(fontSize=13))]
    out = lines_below(base, head, parts, top=12)
    # the third line says how query heads share the key/value heads, or that they cannot share them evenly
    for cond, key in (("cfg_heads % cfg_kv_heads == 0", "line_groups"), ("cfg_heads % cfg_kv_heads != 0", "line_groups_bad")):
        items = head + [(t[key], dict(fontSize=12))]
        shown = base.transform_filter(cond)
        out += lines_below(shown, items + [SPACER], parts, top=12)[-2:]
        for op, ratio in (("<", "line_less"), (">=", "line_more")):
            out += lines_below(shown.transform_filter(f"datum.params > 0 && datum.total {op} datum.weights"),
                               items + [(t[ratio], dict(fontSize=13, fontWeight="bold")), SPACER], parts, top=12)[-2:]
    return out


def table(data: dict, t: dict, lang: str) -> dict:
    """The published configurations, their cache per token and at their own context, and their weights."""
    c = t["columns"]
    rows = [dict(p, kib=p["kib_per_token"]) for p in data["sc_cache_size"]["presets"]]
    return {"columns": [["name", c["model"], "s"], ["layers", c["layers"], "d"], ["heads", c["heads"], "d"],
                        ["kv_heads", c["kv_heads"], "d"], ["head_size", c["head_size"], "d"],
                        ["bytes_per_number", c["bytes"], "d"], ["kib", c["kib"], ",.0f"],
                        ["context", c["context"], ",d"], ["full_context_gib", c["gib"], ",.2f"],
                        ["weights_gib", c["weights_gib"], ",.1f"], ["full_context_over_weights", c["ratio"], ".1%"]],
            "rows": rows}
