"""«Намалюй сам» / «خودت بکش» (issue 26) in Debian's chromium, in both languages: a ring drawn with pointer
events is read as a ring, and what the page computed (tiny-models.js with the shipped weights,
generated/models/sa_trained.js) is torch's: logits and every attention weight within 1e-4. The keyboard path
changes the drawing, and on a 390 px phone the widget stays inside the page and a finger draws too."""
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from conftest import AXE, LANGS, NO_TRANSITIONS, assert_fits_the_screen, open_page, palette_context
from tools.browser import NEXT_FRAME
from scripts.common import weights
from scripts.common.i18n import strings
from scripts.common.shapes import patches, standardize
from scripts.common.training import float64
from scripts.experiments import sa_trained as sa

ROOT = Path(__file__).resolve().parent.parent
PAGE = "self-attention/training"
WIDGET = "#widget-draw_shape"
TOLERANCE = 1e-4
STATE = f"() => document.querySelector('{WIDGET} .widget-view').courseState"


def ready(p):
    """The widget started and its first drawing computed: draw-shape.js computes (and sets courseState) in the
    frame after it starts, so a test reading the state as soon as `data-ready` is set could read nothing (a flake
    under load)."""
    p.locator(WIDGET).scroll_into_view_if_needed()
    p.wait_for_function(f"() => document.querySelector('{WIDGET}').dataset.ready === '1' && !!({STATE})()",
                        timeout=30000)


def torch_model():
    """The shipped weights in the experiment's own class, in float64."""
    tensors = weights.read(ROOT / "generated" / "models" / "sa_trained.js")["tensors"]
    with float64():
        model = sa.TinyViT()
        with torch.no_grad():
            for name, p in model.named_parameters():
                p.copy_(torch.from_numpy(tensors[name].astype(np.float64)))
    return model.eval()


def draw_ring(p):
    """A ring drawn in one stroke with the mouse (pointer events): centre of the grid, the lesson's radius."""
    box = p.locator(f"{WIDGET} canvas.ds-grid").bounding_box()
    cell = box["width"] / 28

    def at(x, y):
        return box["x"] + x * cell, box["y"] + y * cell
    p.mouse.move(*at(14 + 9.1, 14))
    p.mouse.down()
    for i in range(1, 61):
        a = 2 * math.pi * i / 60
        p.mouse.move(*at(14 + 9.1 * math.cos(a), 14 + 9.1 * math.sin(a)))
    p.mouse.up()


@pytest.mark.parametrize("lang", LANGS)
def test_a_drawn_ring_is_a_ring_and_the_attention_is_torchs(context, base_url, lang):
    p = open_page(context, base_url, lang, PAGE)
    ready(p)
    p.locator(f"{WIDGET} .ds-clear").click()
    p.wait_for_function(f"() => ({STATE})().grid.every(v => v === 0)")     # computed after the next frame
    draw_ring(p)
    p.wait_for_function(f"() => ({STATE})().grid.reduce((a, b) => a + b) > 100")
    p.evaluate(NEXT_FRAME)
    p.evaluate(NEXT_FRAME)
    state = p.evaluate(STATE)
    grid = np.array(state["grid"]).reshape(28, 28)
    assert grid.sum() > 100, "the stroke drew nothing"
    ring = sa.SHAPES.index("ring")
    said = p.locator(f"{WIDGET} .ds-pred").inner_text()
    words = strings(lang)["widgets"]["draw_shape"]["ui"]
    assert p.locator(f"{WIDGET} .ds-pred").get_attribute("aria-live") == "polite"
    assert int(np.argmax(state["probabilities"])) == ring and words["shapes"]["ring"] in said, said
    assert state["probabilities"][ring] >= 0.8, state["probabilities"]
    model = torch_model()
    x = torch.tensor(patches(standardize(grid)))[None]
    with torch.no_grad():
        logits, w = model(x, weights=True)
    worst_logit = float(np.abs(np.array(state["logits"]) - logits[0].numpy()).max())
    worst_weight = float(np.abs(np.array(state["attention"]) - w[0, :, :, 1:].numpy()).max())
    print(f"\n{lang}: ring p = {state['probabilities'][ring]:.3f}; from torch: logits {worst_logit:.1e}, "
          f"attention {worst_weight:.1e} ({w.shape[1]} heads × 50 rows × 49)")
    assert worst_logit < TOLERANCE and worst_weight < TOLERANCE
    assert not p.errors, p.errors
    p.close()


@pytest.mark.parametrize("lang", LANGS)
def test_keyboard_places_moves_and_toggles(context, base_url, lang):
    p = open_page(context, base_url, lang, PAGE)
    ready(p)
    before = p.evaluate(STATE)["grid"]
    p.locator(f"{WIDGET} .ds-size").focus()
    p.keyboard.press("ArrowLeft")                       # smaller: the shape can now move
    p.locator(f"{WIDGET} .ds-across").focus()
    p.keyboard.press("ArrowRight")
    p.wait_for_function(f"(b) => ({STATE})().grid.join() !== b.join()", arg=before)
    # each key's change is computed in the next frame: under load the size's frame can come before the move's
    p.evaluate(NEXT_FRAME)
    p.evaluate(NEXT_FRAME)
    moved = p.evaluate(STATE)["grid"]
    p.locator(f"{WIDGET} canvas.ds-grid").focus()
    p.keyboard.press("ArrowUp")                         # the cursor starts at row 14, column 14
    p.keyboard.press("Space")
    p.wait_for_function(f"(b) => ({STATE})().grid.join() !== b.join()", arg=moved)
    toggled = p.evaluate(STATE)["grid"]
    assert [i for i, (a, b) in enumerate(zip(moved, toggled)) if a != b] == [13 * 28 + 14]
    assert p.locator(f"{WIDGET} .ds-pred").inner_text().strip()
    p.close()


def touch_ring(p):
    """The same ring drawn with a finger: touch events through the browser's input (CDP), which the page
    receives as pointer events of type touch."""
    box = p.locator(f"{WIDGET} canvas.ds-grid").bounding_box()
    cell = box["width"] / 28
    cdp = p.context.new_cdp_session(p)
    points = [(box["x"] + (14 + 9.1 * math.cos(2 * math.pi * i / 60)) * cell,
               box["y"] + (14 + 9.1 * math.sin(2 * math.pi * i / 60)) * cell) for i in range(61)]
    for i, (x, y) in enumerate(points):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart" if i == 0 else "touchMove",
                                              "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize("lang", LANGS)
def test_fits_a_390px_phone_and_draws_by_touch(browser, base_url, lang):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    p = open_page(ctx, base_url, lang, PAGE)
    ready(p)
    p.locator(f"{WIDGET} .ds-clear").tap()
    p.wait_for_function(f"() => ({STATE})().grid.every(v => v === 0)")
    touch_ring(p)
    p.wait_for_function(f"() => ({STATE})().grid.reduce((a, b) => a + b) > 100")
    p.wait_for_function(f"() => document.querySelector('{WIDGET} .widget-view').dataset.prediction === 'ring'")
    assert_fits_the_screen(p, WIDGET, 390)
    ctx.close()


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_the_tools_read_clearly_pressed_and_not_in_both_palettes(browser, base_url, scheme):
    """axe's colour-contrast rule on the tools, the eraser pressed and the clear button not (Material's accent under
    the pressed eraser read 4.3 : 1, its primary colour on the dark palette 2.3 : 1 under the others)."""
    ctx = palette_context(browser, base_url, scheme)
    p = open_page(ctx, base_url, LANGS[0], PAGE, charts=False)
    ready(p)
    p.locator(f"{WIDGET} .ds-eraser").click()
    p.mouse.move(1, 1)   # the pressed look, not the hover's
    assert p.locator(f"{WIDGET} .ds-eraser").get_attribute("aria-pressed") == "true"
    p.add_style_tag(content=NO_TRANSITIONS)
    p.add_script_tag(path=str(AXE))
    bad = p.evaluate("""async () => (await axe.run(document.querySelector('%s .ds-tools'),
        {runOnly: {type: 'rule', values: ['color-contrast']}})).violations.flatMap(v => v.nodes.map(n => n.target.join(' ')))""" % WIDGET)
    assert not bad, f"{scheme}: too little contrast in {bad}"
    ctx.close()
