// «Write a sentence» (issue 26): the cross-attention lesson's trained translator on the reader's own Persian
// sentence, computed in the page by tiny-models.js with the exported weights (generated/models/ca_trained.js).
//
// The reader builds the sentence from the model's words (buttons grouped by word class, from the grammar the
// build exports with the model: scripts/experiments/ca_trained.py grammar()) or types it; a check names any
// word the model does not know and lists the ones it knows. The page then decodes greedily, as the lesson's
// translate() does: from <bos>, each step writes the word with the largest score and feeds it back. The
// English words appear one step at a time beside the cross-attention matrix: row i is the step that writes
// word i, its weights over the Persian words (columns right to left, as the lesson's figure has them).
// Where the grammar gives the right English (one of its sentence shapes), the page says whether the model
// wrote it, and whether the model saw that sentence in training; a sentence of no shape is translated all
// the same, and the page says it has nothing to check it against. A live region says the translation as soon
// as it is computed.
(function () {
  "use strict";
  var STEP_MS = 350;

  // the page's number conventions, {name} templates and element building: one copy, in widgets.js (loaded first)
  var kit = (typeof window !== "undefined" && window.courseWidgets && window.courseWidgets.kit) || {};
  var number = kit.number, fill = kit.fill, el = kit.el;

  // Persian as a reader may type it: Arabic yeh and kaf are the Persian ones, punctuation and the
  // zero-width non-joiner's neighbours' spaces go (the model's words hold neither).
  function words(text) {
    return text.replace(/\u064A/g, "\u06CC").replace(/\u0643/g, "\u06A9")
      .replace(/[.,!?;:«»"'()\u060C\u061B\u061F\u06D4]/g, " ").split(/\s+/).filter(Boolean);
  }

  // ── the grammar (exported with the model) ──
  function grammarOf(model) {
    var g = model.grammar, classOf = {}, index = {};
    Object.keys(g.classes).forEach(function (c) { g.classes[c].forEach(function (w) { classOf[w] = c; }); });
    function options(slot) {
      return slot.reduce(function (all, c) { return all.concat(g.classes[c]); }, []);
    }
    // the corpus in corpus() order: shape after shape, the last slot changing fastest (checked by the build)
    var bits = atob(g.held_out), n = 0;
    g.shapes.forEach(function (shape) {
      if (shape.probe) return;
      (function walk(prefix) {
        if (prefix.length === shape.slots.length) {
          if (shape.distinct.every(function (p) { return prefix[p[0]] !== prefix[p[1]]; })) index[prefix.join(" ")] = n++;
          return;
        }
        options(shape.slots[prefix.length]).forEach(function (w) { walk(prefix.concat([w])); });
      })([]);
    });
    function heldOut(i) { return (bits.charCodeAt(i >> 3) >> (7 - (i & 7))) & 1; }
    // {shape, target (English words), status}: status "trained", "held_out", "repeat" (a shape's sentence the
    // corpus leaves out), "probe" (a shape no training sentence has); null when no shape fits
    function match(ws) {
      for (var s = 0; s < g.shapes.length; s++) {
        var shape = g.shapes[s];
        if (ws.length !== shape.slots.length) continue;
        if (!shape.slots.every(function (slot, i) { return slot.indexOf(classOf[ws[i]]) >= 0; })) continue;
        var target = shape.target.map(function (t) { return typeof t === "number" ? g.english[ws[t]] : t; });
        var status = shape.probe ? "probe"
          : !shape.distinct.every(function (p) { return ws[p[0]] !== ws[p[1]]; }) ? "repeat"
          : heldOut(index[ws.join(" ")]) ? "held_out" : "trained";
        return { kind: shape.kind, target: target, status: status };
      }
      return null;
    }
    return { classes: g.classes, classOf: classOf, match: match, size: n };
  }

  function start(view, opts) {
    var model = globalThis.courseModels[opts.models[0]], ui = opts.ui, locale = opts.locale;
    var grammar = grammarOf(model), maxWords = model.config.max_src;
    var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    var result = null, shown = 0, timer = null, lastText = null, pageDir = getComputedStyle(view).direction;
    var source = opts.text.source, target = opts.text.target;   // {lang, dir} of the Persian and the English
    function marked(attrs, side) { attrs.lang = side.lang; attrs.dir = side.dir; return attrs; }

    // ── the controls ──
    var root = el("div", { class: "ws" }, view);
    el("label", { class: "ws-type-label", for: "ws-type-" + view.parentNode.id, text: ui.type_label }, root);
    var row = el("div", { class: "ws-type-row" }, root);
    var input = el("input", marked({ type: "text", class: "ws-type", id: "ws-type-" + view.parentNode.id, autocomplete: "off",
                                     spellcheck: "false", "aria-describedby": "ws-check-" + view.parentNode.id }, source), row);
    var back = el("button", { type: "button", class: "md-button ws-back", text: ui.back }, row);
    var clear = el("button", { type: "button", class: "md-button ws-clear", text: ui.clear }, row);
    var check = el("p", { class: "ws-check", id: "ws-check-" + view.parentNode.id }, root);

    var chips = el("div", { class: "ws-chips" }, root);
    var order = Object.keys(ui.classes).filter(function (c) { return c in grammar.classes; });   // the strings' order
    order.forEach(function (c) {
      var group = el("fieldset", { class: "ws-group", "data-class": c }, chips);
      el("legend", { text: ui.classes[c] }, group);
      var list = el("div", { class: "ws-words", dir: source.dir }, group);
      grammar.classes[c].forEach(function (w) {
        var b = el("button", { type: "button", class: "ws-chip", "data-word": w }, list);
        el("span", { lang: source.lang, text: w }, b);
        if (ui.glosses[w]) el("span", { class: "ws-gloss", text: ui.glosses[w] }, b);
        b.addEventListener("click", function () {
          var ws = words(input.value);
          if (ws.length >= maxWords) return;
          input.value = ws.concat([w]).join(" ");
          changed();
        });
      });
    });

    var out = el("div", { class: "ws-result" }, root);
    var wrote = el("p", { class: "ws-wrote" }, out);
    el("span", { class: "ws-wrote-label", text: ui.wrote + " " }, wrote);
    var english = el("span", marked({ class: "ws-english" }, target), wrote);
    var reference = el("p", { class: "ws-reference" }, out);
    var status = el("p", { class: "ws-status" }, out);
    var said = el("p", { class: "ws-said", "aria-live": "polite" }, out);
    var stepLabel = el("label", { class: "ws-step" }, out);
    var stepText = el("span", {}, stepLabel);
    var stepInput = el("input", { type: "range", min: 1, max: 1, step: 1, value: 1, dir: "ltr" }, stepLabel);
    // a long sentence's matrix scrolls sideways on a phone: the box takes the keyboard's focus to scroll it
    var matrixBox = el("div", { class: "ws-matrix-box", tabindex: "0", role: "region", "aria-label": ui.matrix }, out);

    // ── reading the sentence ──
    var queued = null;
    function changed() {
      if (queued) clearTimeout(queued);
      queued = setTimeout(function () { queued = null; run(); }, 0);
    }
    input.addEventListener("input", changed);
    input.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); run(); } });
    back.addEventListener("click", function () {
      input.value = words(input.value).slice(0, -1).join(" ");
      run();
    });
    clear.addEventListener("click", function () { input.value = ""; run(); input.focus(); });
    stepInput.addEventListener("input", function () { stop(); shown = +stepInput.value; draw(); });

    function knownList() {
      return order.map(function (c) { return grammar.classes[c].join(" "); }).join(ui.separator);
    }

    function run() {
      var ws = words(input.value), text = ws.join(" ");
      if (text === lastText) return;
      lastText = text;
      stop();
      var unknown = ws.filter(function (w) { return !(w in grammar.classOf); });
      view.dataset.unknown = unknown.join(" ");
      check.textContent = "";
      if (unknown.length) {
        check.appendChild(document.createTextNode(ui.unknown + " "));
        el("span", marked({ class: "ws-unknown", text: unknown.join(ui.separator) }, source), check);
        check.appendChild(document.createTextNode(". " + ui.known + " "));
        el("span", marked({ class: "ws-known", text: knownList() }, source), check);
        check.appendChild(document.createTextNode("."));
        return show(null, ui.fix);
      }
      if (ws.length > maxWords) {
        check.textContent = fill(ui.too_long, { n: number(maxWords, 0, locale) });
        return show(null, ui.fix);
      }
      if (!ws.length) return show(null, ui.empty);
      var r = tinyModels.translate(model, ws), m = grammar.match(ws);
      result = { source: ws, words: r.words, steps: r.steps, match: m,
                 correct: m ? r.words.join(" ") === m.target.join(" ") : null };
      view.courseState = {
        source: ws, words: r.words, reference: m && m.target, status: m ? m.status : "outside",
        correct: result.correct,
        cross: r.steps.map(function (s) { return Array.from(s.cross); }),
        ended: r.steps[r.steps.length - 1].word === null };
      show(result);
    }

    function show(r, message) {
      result = r;
      if (!r) {
        view.courseState = null;
        english.textContent = "";
        reference.textContent = status.textContent = "";
        said.textContent = message || "";
        matrixBox.textContent = "";
        stepLabel.hidden = true;
        return;
      }
      reference.textContent = "";
      if (r.match) {
        reference.appendChild(document.createTextNode(ui.reference + " "));
        el("span", marked({ text: r.match.target.join(" ") }, target), reference);
      }
      status.textContent = r.match ? ui.status[r.match.status] : ui.status.outside;
      // the live region says the whole translation at once; the page writes it one step at a time
      said.textContent = "";
      ui.announce.split(/(\{\w+\})/).forEach(function (part) {   // each sentence isolated in its direction
        if (part === "{source}") el("bdi", marked({ text: r.source.join(" ") }, source), said);
        else if (part === "{output}") el("bdi", marked({ text: r.words.join(" ") }, target), said);
        else if (part) said.appendChild(document.createTextNode(part));
      });
      if (r.match) said.appendChild(document.createTextNode(" " + (r.correct ? ui.right : ui.wrong)));
      stepInput.max = String(r.steps.length);
      stepLabel.hidden = false;
      shown = reduce ? r.steps.length : 1;
      draw();
      if (!reduce) timer = setInterval(function () {
        if (shown >= r.steps.length) return stop();
        shown += 1;
        draw();
      }, STEP_MS);
    }

    function stop() {
      if (timer) { clearInterval(timer); timer = null; }
    }

    // The written words up to the step shown, and the matrix of cross-attention rows up to it.
    function draw() {
      var r = result;
      if (!r) return;
      stepInput.value = String(shown);
      stepText.textContent = fill(ui.step, { i: number(shown, 0, locale), n: number(r.steps.length, 0, locale) }) + " ";
      english.textContent = "";
      r.steps.slice(0, shown).forEach(function (s, i) {
        if (s.word === null) return;
        el("span", { class: i === shown - 1 ? "ws-now" : "", text: s.word }, english);
        english.appendChild(document.createTextNode(" "));
      });
      var n = r.source.length, table = el("table", { class: "ws-matrix", dir: "ltr" });
      el("caption", { text: ui.matrix, dir: pageDir }, table);     // words in the page's direction
      var head = el("tr", {}, el("thead", {}, table));
      el("th", { scope: "col", class: "ws-corner", dir: pageDir, text: ui.written }, head);
      for (var j = n - 1; j >= 0; j--) {                  // right to left: the Persian sentence's order
        var th = el("th", { scope: "col" }, head);
        el("span", { lang: source.lang, text: r.source[j] }, th);
        if (ui.glosses[r.source[j]]) el("span", { class: "ws-gloss", text: ui.glosses[r.source[j]] }, th);
      }
      var body = el("tbody", {}, table);
      r.steps.slice(0, shown).forEach(function (s, i) {
        var tr = el("tr", { class: i === shown - 1 ? "ws-now" : "" }, body);
        var top = 0;
        for (var k = 1; k < n; k++) if (s.cross[k] > s.cross[top]) top = k;
        if (s.word === null) el("th", { scope: "row", text: ui.end }, tr);
        else el("th", { scope: "row", lang: target.lang, text: s.word }, tr);
        for (var j = n - 1; j >= 0; j--) {
          var w = s.cross[j], td = el("td", { class: j === top ? "ws-top" : "" }, tr);
          td.style.setProperty("--w", w.toFixed(3));
          td.textContent = number(w, 2, locale);
        }
      });
      matrixBox.textContent = "";
      matrixBox.appendChild(table);
      if (shown >= r.steps.length) view.dataset.translated = r.words.join(" ");   // every step drawn
    }

    input.value = ui.start || "";
    run();
  }

  if (typeof window !== "undefined") (window.courseWidgets = window.courseWidgets || {}).write_sentence = start;
  // tests/test_tiny_models.py runs the grammar under node against the experiment's corpus
  if (typeof module === "object" && module.exports) module.exports = { grammarOf: grammarOf, words: words };
})();
