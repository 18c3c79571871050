"""Chart captions and page text name the strongest weight by its colour's strength, not by dark or light:
in the dark palette the strongest cell of a heatmap is the lightest (issue 25)."""
import re

from conftest import ROOT

# "dark cell(s)" / "darkest cell" in Ukrainian, "dark cell(s)" / "darkest cell" in Persian
DARK_CELL = re.compile(r"(?i)(темн\w*|найтемніш\w*)\s+клітин|клітин\w*\s+темн|خانه(‌ها)?(ی|ٔ)?\s+تیره|تیره‌ترین\s+خانه")
PLACES = [*(ROOT / "scripts" / "i18n").rglob("*.yml"), *(ROOT / "docs").rglob("*.md"),
          *(ROOT / "generated" / "charts").rglob("*.vg.json")]


def test_no_text_calls_the_strongest_cell_dark():
    found = [f"{p.relative_to(ROOT)}: «{m.group(0)}»" for p in PLACES
             for m in DARK_CELL.finditer(p.read_text(encoding="utf-8").replace("\n", " ").replace("  ", " "))]
    assert not found, found
