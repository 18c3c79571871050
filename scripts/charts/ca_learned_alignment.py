"""The trained translator's cross-attention (from ca_trained): pick a sentence; rows the English words it
writes, columns the Persian words (glossed on pages whose strings give glosses), the gold alignment
outlined; hovering a row reads where that word draws from and whether it is the gold word."""
import json
import math
import re

import altair as alt

from scripts.common.numfmt import fmt

from scripts.charts._kit import BREAK, CHAR_EM, MENU_HEIGHT, fit, lines_count, SUBTITLE_CHARS, TITLE_CHARS, bidi_lines, two_lines, align, anchor, bidi, js, num, rtl, say

DATA = ["ca_trained"]
FILL = "#5c6bc0"
GOLD = "#ff9800"
FIT = alt.ExprRef(expr="width")  # lines under the matrix end at its edge, or a phone's matrix shrinks to fit them


def _cells(ca: dict, ids: list[str], glosses: dict) -> list[dict]:
    out = []
    for sid in ids:
        s = ca["sentences"][sid]
        for i, row in enumerate(s["matrix"]):
            for j, w in enumerate(row):
                word = s["source"][j]
                out.append({"sid": sid, "row": i, "col": j, "weight": w, "gold": s["gold"][i] == j,
                            "target": s["target"][i], "source": word,
                            "top": s["argmax"][i] == j, "hit": s["gold"][i] == s["argmax"][i],
                            "content": s["gold"][i] is not None})
    for c in out:
        c["source_label"] = f"{c['source']} ({glosses[c['source']]})" if glosses.get(c["source"]) else c["source"]
    return out


def _wrote(ca: dict, ids: list[str], t: dict) -> str:
    """A Vega expression: under the matrix, what the model wrote for the row's sentence and whether it
    is right, in as many lines as the width needs."""
    out = js("")
    for sid in reversed(ids):
        s = ca["sentences"][sid]
        output = "`" + " ".join(s["output"]) + "`"       # English words: a left-to-right island
        line = t["wrote"].format(output=output, verdict=t["verdict"][str(s["correct"]).lower()])
        out = f"(datum.sid == {js(sid)} ? {fit(line, 13)} : {out})"
    return out


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    ca = data["ca_trained"]
    ids = list(t["sentences"])                        # the strings name the sentences offered, in order
    glosses = t.get("glosses") or {}
    sentence = alt.param(name="sentence", value=ids[0], bind=alt.binding_select(
        options=ids, labels=[t["sentences"][s] for s in ids], name=bidi(t["pick"]) + " "))
    pick = alt.selection_point(name="row_pick", fields=["row"], on="pointerover", clear=False,
                               value=[{"row": 1}], empty=False)
    cells = alt.Chart(alt.Data(values=_cells(ca, ids, glosses)))     # every sentence's
    base = cells.transform_filter(f"datum.sid == {sentence.name}")
    x = _columns(ca, ids, glosses, t, sentence.name)
    counts = {sid: len(ca["sentences"][sid]["target"]) for sid in ids}
    rows = max(counts.values())                       # row slots for the longest sentence
    y = alt.Y("row:O", title=bidi(t["y"]), scale=alt.Scale(domain=list(range(rows)), paddingInner=0.06),
              # one width for the word column whatever the sentence: the lines under the matrix wrap at the
              # matrix's width, and Vega lays a view out again only once after it changes; its title beside
              # the picked sentence's rows, not the free slots below them
              axis=alt.Axis(labelFontSize=13, ticks=False, domain=False, minExtent=48, maxExtent=48,
                            titleY={"expr": f"height * {js(counts)}[{sentence.name}] / {rows} / 2"},
                            labelExpr=f"{json.dumps({s: ca['sentences'][s]['target'] for s in ids})}"
                                      f"[{sentence.name}][datum.value] || ''"))   # a shorter sentence's free slots
    tip = [alt.Tooltip("target:N", title=t["target"]), alt.Tooltip("source_label:N", title=t["source"]),
           alt.Tooltip("weight:Q", title=t["weight"], format=".3f")]
    heat = base.mark_rect(fill=FILL, cornerRadius=2).encode(
        x=x, y=y, tooltip=tip,
        fillOpacity=alt.FillOpacity("weight:Q", scale=alt.Scale(domain=[0, 1], range=[0.05, 0.55]), legend=None),
        stroke=alt.condition(pick, alt.value("#333"), alt.value(None)),
        strokeWidth=alt.value(2)).add_params(pick).properties(name="cells")
    gold = base.transform_filter("datum.gold").mark_rect(fill=None, stroke=GOLD, strokeWidth=3,
                                                         strokeDash=[6, 3]).encode(x=x, y=y)
    numbers = base.mark_text(fontSize=12).encode(
        x=x, y=y, text=alt.Text("weight:Q", format=".2f"))  # page text colour: cells stay light enough for it
    # the lines under the matrix start under the picked sentence's last row
    under = f"height * {js(counts)}[datum.sid] / {rows}"
    readout = _readout(base, cells, pick, t, _wrote(ca, ids, t), under)
    return (heat + gold + numbers + readout).add_params(sentence).properties(
        width="container", height=alt.Step(34),
        title=alt.Title(bidi_lines(t["title"], TITLE_CHARS),   # a phone: a subtitle line per clause
                        subtitle=[bidi(line) for part in re.split("[;\u061b] ", t["subtitle"].format(seed=fmt(ca["seed"], "d", lang)))
                                  for line in ([part] if isinstance(two_lines(part, SUBTITLE_CHARS), str)
                                               else two_lines(part, SUBTITLE_CHARS))],
                        anchor=anchor(t["title"])),
        padding={"top": MENU_HEIGHT, "left": 5, "right": 5, "bottom": 5}, description=t["description"]
    ).configure_view(stroke=None)   # no frame around a shorter sentence's free row slots


def _columns(ca: dict, ids: list[str], glosses: dict, t: dict, sentence: str) -> alt.X:
    """The Persian words across the top (`sentence`: the picked sentence's expression), level with their
    glosses below them, or upright on a phone whose columns are narrower than the widest label."""
    labels = _labels(ca, ids, glosses, lines=True)
    widest = {sid: max(len(x) for w in ws for x in ([w] if isinstance(w, str) else w)) for sid, ws in labels.items()}
    # Only a phone stands them upright: on a desktop the long sentence turned its headers 90° (issue 25)
    columns = {sid: len(ws) for sid, ws in labels.items()}

    def upright_at(sid):                              # a Vega expression: sid's headers stand upright
        return f"width < 480 && width / {js(columns)}[{sid}] < {js(widest)}[{sid}] * {13 * CHAR_EM}"
    upright = upright_at(sentence)
    # Vega draws a label's second line (the gloss) below the first whatever the baseline: lift level
    # labels by a line so the gloss clears the first row's cells
    glossed = any(not isinstance(w, str) for ws in labels.values() for w in ws)
    lift = 17 if glossed else 0
    # The headers' band is as tall as the tallest any sentence needs at this width, whichever is picked,
    # so the matrix does not move when the sentence changes (issue 25: the page jumped)
    level = 4 + lift + 17
    band = {"expr": "max(" + ", ".join(f"({upright_at(js(sid))} ? {4 + math.ceil(widest[sid] * 13 * CHAR_EM)} : {level})"
                                     for sid in ids) + ")"}
    return alt.X("col:O", title=bidi(t["x"]), scale=alt.Scale(reverse=True, paddingInner=0.06),
           axis=alt.Axis(orient="top", labelFontSize=13, ticks=False, domain=False,
                         labelAngle={"expr": f"{upright} ? -90 : 0"},
                         labelAlign={"expr": f"{upright} ? 'left' : 'center'"},
                         labelBaseline={"expr": f"{upright} ? 'middle' : 'bottom'"},
                         labelPadding={"expr": f"{upright} ? 4 : {4 + lift}"},
                         minExtent=band, maxExtent=band,
                         labelExpr=f"{json.dumps(_labels(ca, ids, glosses, lines=True), ensure_ascii=False)}"
                                   f"[{sentence}][datum.value]"))


def _labels(ca: dict, ids: list[str], glosses: dict, lines: bool = False) -> dict:
    """Source words with their gloss, if any: "word (gloss)", or [word, "(gloss)"] as two axis lines."""
    def one(w):
        if not glosses.get(w):
            return w
        return [w, f"({glosses[w]})"] if lines else f"{w} ({glosses[w]})"
    return {s: [one(w) for w in ca["sentences"][s]["source"]] for s in ids}


def _readout(base, cells, pick, t: dict, wrote: str, under: str) -> alt.LayerChart:
    """Under the sentence's rows (`under`: an expression of datum.sid), the hovered row's pick, then what the
    model wrote: each in as many lines as the width needs; below them, room down to where the longest any
    sentence takes ends (an unseen rule), so the chart keeps its height whichever is picked."""
    right = rtl(t["readout"])
    verdict = (f"datum.content ? (datum.hit ? {js(bidi(t['hit']))} : {js(bidi(t['miss']))})"
               f" : {js(bidi(t['article']))}")
    tops = base.transform_filter("datum.top").transform_calculate(verdict=verdict)      # each row's pick
    line = fit(t["readout"], 13, target="datum.target", source_label="datum.source_label",
               weight=num("datum.weight", ".2f"), verdict="datum.verdict")
    x = alt.value("width") if right else alt.value(0)
    text = dict(align=align(t["readout"]), baseline="top", fontSize=13, lineHeight=17, lineBreak=BREAK, limit=FIT)
    readout = tops.transform_filter(pick).transform_calculate(line=line).mark_text(**text).encode(
        x=x, y=alt.value({"expr": f"{under} + 12"}), text="line:N").properties(name="readout")
    # what the model wrote stays put under the longest of the sentence's readouts, whichever row is picked
    said = (tops.transform_calculate(lines=lines_count(line)).transform_joinaggregate(most="max(lines)")
            .transform_filter("datum.row == 0").transform_calculate(wrote=wrote).mark_text(**text).encode(
                x=x, y=alt.value({"expr": f"{under} + 16 + datum.most * 17"}), text="wrote:N").properties(name="verdict"))
    room = (cells.transform_filter("datum.top").transform_calculate(verdict=verdict, line=line)
            .transform_calculate(lines=lines_count("datum.line"))
            .transform_joinaggregate(most="max(lines)", groupby=["sid"]).transform_filter("datum.row == 0")
            .transform_calculate(wrote=wrote)
            .transform_calculate(end=f"{under} + 16 + (datum.most + {lines_count('datum.wrote')}) * 17")
            .transform_aggregate(end="max(end)")
            .mark_rule(opacity=0).encode(x=alt.value(0), y=alt.value({"expr": "height"}),
                                          y2=alt.value({"expr": "datum.end"}))
            .properties(name="room"))
    return readout + said + room


def table(data: dict, t: dict, lang: str) -> dict:
    """Every offered sentence's rows: the written word, the Persian word it draws most from, its weight,
    and the gold word."""
    ca = data["ca_trained"]
    glosses = t.get("glosses") or {}
    c = t["columns"]
    rows = []
    for sid in t["sentences"]:
        s = ca["sentences"][sid]
        label = _labels(ca, [sid], glosses)[sid]
        for i, word in enumerate(s["target"]):
            g = s["gold"][i]
            rows.append({"sentence": t["sentences"][sid], "target": word, "pick": label[s["argmax"][i]],
                         "weight": s["matrix"][i][s["argmax"][i]], "gold": label[g] if g is not None else "—"})
    return {"columns": [["sentence", c["sentence"], "s"], ["target", c["target"], "s"],
                        ["pick", c["pick"], "s"], ["weight", c["weight"], ".2f"], ["gold", c["gold"], "s"]],
            "rows": rows}
