"""The √d chart's claims, read from the committed data (generated/data/scaling.json)."""
import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = json.loads((ROOT / "generated/data/scaling.json").read_text(encoding="utf-8"))


def series(name):
    return {r["d"]: r["pmax"] for r in DATA["curve"] if r["series"] == name}


def test_grid_spans_1_to_1024():
    ds = sorted(series("raw"))
    assert ds[0] == 1 and ds[-1] == 1024 and len(ds) >= 30


def test_without_division_one_key_takes_almost_all_weight():
    raw = series("raw")
    assert raw[1024] > 0.9 and raw[256] > 0.8
    # grows with d: each doubling or so raises it (allow sampling noise between neighbours)
    ds = sorted(raw)
    assert all(raw[b] > raw[a] for a, b in zip(ds[::5], ds[5::5]))


def test_with_division_the_row_stays_spread_out():
    scaled = series("scaled")
    assert all(0.1 < p < 0.15 for d, p in scaled.items() if d >= 4)


def test_same_at_d_equal_1():
    assert math.isclose(series("raw")[1], series("scaled")[1], rel_tol=1e-9)


def test_quoted_values_match_the_curve():
    for d, v in DATA["at"].items():
        assert v["raw"] == series("raw")[int(d)] and v["scaled"] == series("scaled")[int(d)]
    assert math.isclose(DATA["uniform"], 1 / 49, rel_tol=1e-5)


def test_curve_agrees_with_the_direct_measurement():
    """The curve draws rows as |q|·z (exact distribution of q·k given q); sa_scaling multiplies real
    random vectors. Two methods, one quantity: they must agree to sampling noise."""
    direct = json.loads((ROOT / "generated/data/sa_scaling.json").read_text(encoding="utf-8"))["by_d"]
    for row in direct:
        at = DATA["at"][str(row["d"])]
        assert abs(at["raw"] - row["pmax_raw"]) < 0.01, row["d"]
        assert abs(at["scaled"] - row["pmax_scaled"]) < 0.01, row["d"]
