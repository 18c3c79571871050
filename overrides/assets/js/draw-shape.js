// «Draw it yourself» (issue 26): the self-attention lesson's trained vision transformer on the reader's own
// drawing, computed in the page by tiny-models.js with the exported weights (generated/models/sa_trained.js).
//
// The grid is the model's 28×28 input. Drawing uses the brush of scripts/common/strokes.py (the drawings the
// lesson measures the model on): a stroke sets to 1 every cell whose centre lies within BRUSH cells of the
// pointer's path; the eraser sets them to 0. Mouse, touch and pen are pointer events. Keyboard: arrows move a
// cursor over the grid and Space toggles its cell; the shape controls place one of the lesson's shapes
// (its outline, drawn with the same brush) and move and resize it.
// After each change: the four shapes' probabilities, and per head the attention of a query over the 49
// patches (the class token's row, the one the answer depends on, or a patch's row), each with its entropy as
// a share of ln 49. A live region announces the prediction. Words and number conventions come from the page.
(function () {
  "use strict";
  var SIZE = 28, PATCH = 4, GRID = 7, BRUSH = 1.5, LN49 = Math.log(49);
  // each shape's outline in its own box, u and v in [-1, 1] (v down): scripts/common/strokes.py OUTLINES
  function outline(kind) {
    if (kind === "ring") {
      var pts = [];
      for (var i = 0; i <= 24; i++) pts.push([0.65 * Math.cos(2 * Math.PI * i / 24), 0.65 * Math.sin(2 * Math.PI * i / 24)]);
      return [pts];
    }
    if (kind === "square") return [[[-0.6, -0.6], [0.6, -0.6], [0.6, 0.6], [-0.6, 0.6], [-0.6, -0.6]]];
    if (kind === "cross") return [[[0, -0.75], [0, 0.75]], [[-0.75, 0], [0.75, 0]]];
    return [[[0, -0.7], [0.7, 0.6], [-0.7, 0.6], [0, -0.7]]];          // triangle
  }

  // The brush: every cell whose centre is within BRUSH of the segment (x0, y0)–(x1, y1) gets `value`.
  function paint(grid, x0, y0, x1, y1, value) {
    var dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
    for (var r = 0; r < SIZE; r++) {
      for (var c = 0; c < SIZE; c++) {
        var cx = c + 0.5, cy = r + 0.5;
        var t = len2 ? Math.max(0, Math.min(1, ((cx - x0) * dx + (cy - y0) * dy) / len2)) : 0;
        if (Math.hypot(cx - (x0 + t * dx), cy - (y0 + t * dy)) <= BRUSH) grid[r * SIZE + c] = value;
      }
    }
  }

  // the page's number conventions, {name} templates and element building: one copy, in widgets.js (loaded first)
  var kit = (typeof window !== "undefined" && window.courseWidgets && window.courseWidgets.kit) || {};
  var number = kit.number, fill = kit.fill, el = kit.el;
  function percent(p, locale) { return number(100 * p, 0, locale) + locale.percent; }
  function css(name, fallback) {
    return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
  }

  function start(view, opts) {
    var model = globalThis.courseModels[opts.models[0]], ui = opts.ui, locale = opts.locale;
    var classes = model.config.classes;
    var grid = new Float32Array(SIZE * SIZE);
    var cursor = { r: 14, c: 14, shown: false }, erasing = false, query = 0, last = null;

    // ── the controls ──
    var root = el("div", { class: "ds" }, view);
    var left = el("div", { class: "ds-draw" }, root);
    var canvas = el("canvas", { class: "ds-grid", width: 280, height: 280, tabindex: "0", role: "img",
                                "aria-label": ui.grid_label, dir: "ltr" }, left);
    var tools = el("div", { class: "ds-tools" }, left);
    var eraser = el("button", { type: "button", class: "md-button ds-eraser", "aria-pressed": "false", text: ui.eraser }, tools);
    var clear = el("button", { type: "button", class: "md-button ds-clear", text: ui.clear }, tools);
    var place = el("fieldset", { class: "ds-place" }, left);
    el("legend", { text: ui.place }, place);
    var shapeLabel = el("label", {}, place);
    shapeLabel.appendChild(document.createTextNode(ui.shape + " "));
    var shapeSel = el("select", { class: "ds-shape" }, shapeLabel);
    classes.forEach(function (k) { el("option", { value: k, text: ui.shapes[k] }, shapeSel); });
    function slider(name, min, max, value) {
      var label = el("label", {}, place);
      label.appendChild(document.createTextNode(ui[name] + " "));
      return el("input", { type: "range", class: "ds-" + name, min: min, max: max, step: 1, value: value, dir: "ltr" }, label);
    }
    var size = slider("size", 12, SIZE, SIZE), across = slider("across", 0, 0, 0), down = slider("down", 0, 0, 0);

    var right = el("div", { class: "ds-out" }, root);
    var said = el("p", { class: "ds-pred", "aria-live": "polite" }, right);
    var probs = el("table", { class: "ds-probs" }, right);
    el("caption", { text: ui.probabilities }, probs);
    var bars = {};
    classes.forEach(function (k) {
      var tr = el("tr", { "data-shape": k }, probs);
      el("th", { scope: "row", text: ui.shapes[k] }, tr);
      var td = el("td", {}, tr), bar = el("span", { class: "ds-bar" }, td);
      bars[k] = { bar: bar, value: el("span", { class: "ds-value" }, td) };
    });
    var qLabel = el("label", { class: "ds-query" }, right);
    qLabel.appendChild(document.createTextNode(ui.query + " "));
    var qSel = el("select", {}, qLabel);
    el("option", { value: 0, text: ui.class_token }, qSel);
    for (var p = 1; p <= GRID * GRID; p++) el("option", { value: p, text: fill(ui.patch, { n: number(p, 0, locale) }) }, qSel);
    var maps = el("div", { class: "ds-maps", dir: "ltr" }, right), heads = [];
    for (var h = 0; h < model.config.heads; h++) {
      var fig = el("div", { class: "ds-map" }, maps);
      var c = el("canvas", { width: 112, height: 112, role: "img" }, fig);
      heads.push({ canvas: c, note: el("p", { class: "ds-entropy", dir: "auto" }, fig) });
      c.addEventListener("click", pickPatch);
    }

    // ── drawing ──
    function redrawShape() {
      var s = +size.value;
      across.max = down.max = SIZE - s;
      if (+across.value > SIZE - s) across.value = SIZE - s;
      if (+down.value > SIZE - s) down.value = SIZE - s;
      grid.fill(0);
      var half = s / 2, left0 = +across.value, top0 = +down.value;
      outline(shapeSel.value).forEach(function (line) {
        for (var i = 1; i < line.length; i++) {
          paint(grid, left0 + half * (1 + line[i - 1][0]), top0 + half * (1 + line[i - 1][1]),
                left0 + half * (1 + line[i][0]), top0 + half * (1 + line[i][1]), 1);
        }
      });
      update();
    }
    [shapeSel, size, across, down].forEach(function (e) { e.addEventListener("input", redrawShape); });

    var pen = null;
    function at(ev) {
      var box = canvas.getBoundingClientRect();
      return [(ev.clientX - box.left) / box.width * SIZE, (ev.clientY - box.top) / box.height * SIZE];
    }
    canvas.addEventListener("pointerdown", function (ev) {
      ev.preventDefault();
      canvas.setPointerCapture(ev.pointerId);
      pen = at(ev);
      paint(grid, pen[0], pen[1], pen[0], pen[1], erasing ? 0 : 1);
      update();
    });
    canvas.addEventListener("pointermove", function (ev) {
      if (!pen) return;
      var next = at(ev);
      paint(grid, pen[0], pen[1], next[0], next[1], erasing ? 0 : 1);
      pen = next;
      update();
    });
    function lift() { pen = null; }
    canvas.addEventListener("pointerup", lift);
    canvas.addEventListener("pointercancel", lift);
    canvas.addEventListener("keydown", function (ev) {
      var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (moves[ev.key]) {
        cursor.r = Math.max(0, Math.min(SIZE - 1, cursor.r + moves[ev.key][0]));
        cursor.c = Math.max(0, Math.min(SIZE - 1, cursor.c + moves[ev.key][1]));
      } else if (ev.key === " " || ev.key === "Enter") {
        var i = cursor.r * SIZE + cursor.c;
        grid[i] = grid[i] ? 0 : 1;
      } else return;
      ev.preventDefault();
      cursor.shown = true;
      update();
    });
    canvas.addEventListener("focus", function () { cursor.shown = true; drawGrid(); });
    canvas.addEventListener("blur", function () { cursor.shown = false; drawGrid(); });
    eraser.addEventListener("click", function () {
      erasing = !erasing;
      eraser.setAttribute("aria-pressed", String(erasing));
    });
    clear.addEventListener("click", function () { grid.fill(0); update(); });
    qSel.addEventListener("change", function () { query = +qSel.value; show(); });
    function pickPatch(ev) {
      var box = ev.currentTarget.getBoundingClientRect();
      var c = Math.floor((ev.clientX - box.left) / box.width * GRID), r = Math.floor((ev.clientY - box.top) / box.height * GRID);
      query = 1 + r * GRID + c;
      qSel.value = String(query);
      show();
    }

    // ── the model, and what it shows ──
    var queued = false;
    function update() {
      drawGrid();
      if (queued) return;
      queued = true;
      requestAnimationFrame(function () { queued = false; compute(); });
    }
    function compute() {
      last = tinyModels.vit(model, grid);
      view.courseState = { grid: Array.from(grid), logits: Array.from(last.logits),
                           probabilities: Array.from(last.probabilities),
                           attention: last.attention.map(function (h) { return h.map(function (r) { return Array.from(r); }); }) };
      show();
    }
    function show() {
      if (!last) return;
      var best = 0;
      classes.forEach(function (k, i) {
        var pr = last.probabilities[i];
        if (pr > last.probabilities[best]) best = i;
        bars[k].bar.style.inlineSize = "calc((100% - 3.5em) * " + pr.toFixed(4) + ")";
        bars[k].value.textContent = percent(pr, locale);
      });
      var text = fill(ui.prediction, { shape: ui.shapes[classes[best]], p: percent(last.probabilities[best], locale) });
      if (said.textContent !== text) said.textContent = text;
      view.dataset.prediction = classes[best];
      heads.forEach(function (hd, h) {
        var row = last.attention[h][query], entropy = 0;
        for (var j = 0; j < row.length; j++) if (row[j] > 0) entropy -= row[j] * Math.log(row[j]);
        drawMap(hd.canvas, row);
        var note = fill(ui.entropy, { h: number(h + 1, 0, locale), pct: percent(entropy / LN49, locale) });
        hd.note.textContent = note;
        hd.canvas.setAttribute("aria-label", note);
      });
    }

    function drawGrid() {
      var g = canvas.getContext("2d"), cell = canvas.width / SIZE;
      g.clearRect(0, 0, canvas.width, canvas.height);
      g.fillStyle = css("--md-default-fg-color", "#000");
      for (var i = 0; i < SIZE * SIZE; i++) {
        if (grid[i]) g.fillRect((i % SIZE) * cell, Math.floor(i / SIZE) * cell, cell, cell);
      }
      g.strokeStyle = css("--md-default-fg-color--lightest", "#ddd");
      g.lineWidth = 1;
      for (var k = 0; k <= GRID; k++) {            // the patch grid: 7×7 patches of 4×4 cells
        g.beginPath(); g.moveTo(k * PATCH * cell, 0); g.lineTo(k * PATCH * cell, canvas.height); g.stroke();
        g.beginPath(); g.moveTo(0, k * PATCH * cell); g.lineTo(canvas.width, k * PATCH * cell); g.stroke();
      }
      if (cursor.shown) {
        g.strokeStyle = css("--md-accent-fg-color", "#526cfe");
        g.lineWidth = 2;
        g.strokeRect(cursor.c * cell + 1, cursor.r * cell + 1, cell - 2, cell - 2);
      }
    }
    function drawMap(c, row) {
      var g = c.getContext("2d"), cell = c.width / GRID, px = c.width / SIZE, top = 0;
      for (var j = 0; j < row.length; j++) top = Math.max(top, row[j]);
      g.clearRect(0, 0, c.width, c.height);
      g.globalAlpha = 0.3;                          // the drawing, faint, under the weights
      g.fillStyle = css("--md-default-fg-color", "#000");
      for (var i = 0; i < SIZE * SIZE; i++) if (grid[i]) g.fillRect((i % SIZE) * px, Math.floor(i / SIZE) * px, px, px);
      g.fillStyle = css("--md-accent-fg-color", "#526cfe");
      for (var p = 0; p < row.length; p++) {         // each patch's weight, as a share of the row's largest
        g.globalAlpha = 0.85 * row[p] / top;
        g.fillRect((p % GRID) * cell, Math.floor(p / GRID) * cell, cell, cell);
      }
      g.globalAlpha = 1;
      if (query > 0) {
        g.strokeStyle = css("--md-default-fg-color", "#000");
        g.lineWidth = 2;
        g.strokeRect(((query - 1) % GRID) * cell + 1, Math.floor((query - 1) / GRID) * cell + 1, cell - 2, cell - 2);
      }
    }
    new MutationObserver(function () { drawGrid(); show(); })
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

    shapeSel.value = classes[0];                   // start from the lesson's first shape, the ring, at full size
    redrawShape();
  }

  (window.courseWidgets = window.courseWidgets || {}).draw_shape = start;
})();
