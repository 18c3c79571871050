// Render every course chart from its inlined Vega spec (no fetch: works from file:// too).
// Language conventions (digits, separators, font, menu strings) come from the page in data-opts,
// computed by hooks/refs.py from scripts/common/numfmt.py. Charts follow Material's palette.
(function () {
  "use strict";
  var views = new Map();

  function cssVar(name, fallback) {
    var v = getComputedStyle(document.body).getPropertyValue(name).trim();
    return v || fallback;
  }

  // The chart design (scripts/charts/_palette.py) in the page's scheme: text in the page's colours,
  // series colours that keep 4.5:1 on this background (opts.palette), a plot frame as quiet as the grid.
  function themeConfig(opts) {
    var font = opts.font;
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    var fg = cssVar("--md-default-fg-color", "#000");
    var fgLight = cssVar("--md-default-fg-color--light", "#555");
    var grid = cssVar("--md-default-fg-color--lightest", "#ddd");
    var palette = opts.palette || {};
    var config = {
      background: null,
      font: font,
      title: { color: fg, subtitleColor: fgLight, font: font },
      axis: { labelColor: fg, titleColor: fg, domainColor: fgLight, tickColor: fgLight, gridColor: grid, labelFont: font, titleFont: font },
      legend: { labelColor: fg, titleColor: fg, labelFont: font, titleFont: font },
      header: { labelColor: fg, titleColor: fg, labelFont: font, titleFont: font },
      text: { fill: fg, font: font },
      view: { stroke: grid }
    };
    var category = dark ? palette.dark : palette.light;
    if (category) config.range = { category: category };
    return config;
  }

  // ── Slider readouts (issue 12, defect 1) ───────────────────────────────────────────────────
  // Vega writes a range slider's value into the span after it, in Latin digits with a point, on
  // `input`, on `change` and whenever the signal is set. That span is hidden; the reader gets our own
  // <output>, written in the page's number conventions (scripts/common/numfmt.py → opts.locale) from
  // the signal itself, so drag, click, keyboard and a restored state all read the same.
  function localNumber(text, locale) {
    var numerals = locale.numerals;
    return String(text).replace(/[0-9.\-]/g, function (c) {
      if (c === ".") return locale.decimal;
      if (c === "-") return locale.minus;
      return numerals ? numerals[+c] : c;
    });
  }

  function stepDecimals(input) {
    var step = String(input.getAttribute("step") || "1");
    return step.indexOf(".") < 0 ? 0 : step.length - step.indexOf(".") - 1;
  }

  function ownReadouts(el, view, locale) {
    el.querySelectorAll(".vega-bind input[type=range]").forEach(function (input) {
      // Charts are drawn left to right (numbers grow to the right on every axis), so their sliders
      // run left to right in Persian pages too (issue 12, defect 3).
      input.setAttribute("dir", "ltr");
      var vegaSpan = input.nextElementSibling;
      if (vegaSpan && vegaSpan.tagName === "SPAN") vegaSpan.hidden = true;
      else vegaSpan = null;
      var out = document.createElement("output");
      out.className = "chart-readout";
      // slider and readout in one unbreakable pair, so a phone never puts the number on its own line
      var pair = document.createElement("span");
      pair.className = "chart-slider";
      input.insertAdjacentElement("beforebegin", pair);
      pair.appendChild(input);
      if (vegaSpan) pair.appendChild(vegaSpan);
      pair.appendChild(out);
      var digits = stepDecimals(input);
      var show = function (value) {
        var v = Number(value);
        var text = localNumber(isFinite(v) ? String(Number(v.toFixed(digits))) : String(value), locale);
        out.textContent = text;
        input.setAttribute("aria-valuetext", text);
      };
      input.addEventListener("input", function () { show(input.value); });
      input.addEventListener("change", function () { show(input.value); });
      view.addSignalListener(input.name, function (_, value) { show(value); });
      show(view.signal(input.name));
    });
  }

  // ── Chosen values across a re-render (issue 12, defect 4) ──────────────────────────────────
  // Switching light/dark re-embeds every chart with the new palette; the reader's slider, radio and
  // checkbox values (bound signals) and persistent hover picks (selection stores) are carried over.
  function chosenState(el, view) {
    var bound = {};
    el.querySelectorAll(".vega-bind [name]").forEach(function (input) { bound[input.name] = true; });
    return view.getState({
      signals: function (name) { return bound[name] === true; },
      data: function (name, data) { return /_store$/.test(name) && data.modified && Array.isArray(data.input.value); },
      recurse: true
    });
  }

  function render(el) {
    var spec = JSON.parse(el.dataset.spec);
    var opts = JSON.parse(el.dataset.opts);
    var old = views.get(el);
    var state = old ? chosenState(el, old.view) : null;
    if (old) old.finalize();
    el.dataset.rendered = "";
    return vegaEmbed(el, spec, {
      renderer: "svg",
      mode: "vega",
      config: themeConfig(opts),
      formatLocale: opts.locale,
      i18n: opts.actions,
      actions: { export: true, source: false, compiled: false, editor: false },
      downloadFileName: el.dataset.chart
    }).then(function (res) {
      views.set(el, res);
      // The drawing itself is hidden from screen readers: the figure is named (aria-label), described
      // (figcaption) and its data is the table under it; the controls stay reachable.
      var svg = el.querySelector("svg.marks");
      if (svg) svg.setAttribute("aria-hidden", "true");
      var summary = el.querySelector("details summary");  // vega-embed's menu button: an icon only
      if (summary) summary.setAttribute("aria-label", opts.menu);
      ownReadouts(el, res.view, opts.locale);
      if (state) return res.view.setState(state).runAsync().then(function () { return res; });
      return res;
    }).then(function (res) {
      el.dataset.renderedAt = String(performance.now());  // read by tools/bench.py
      el.dataset.rendered = "1";
      el.dispatchEvent(new CustomEvent("chart-rendered", { bubbles: true }));
      return res;
    }).catch(function (err) {
      el.dataset.rendered = "error";
      console.error("chart " + el.dataset.chart + ": " + err);
    });
  }

  // One chart per task, those on screen first: the page stays responsive while the rest render
  // (one long task for all charts blocked input for a third of a second).
  function renderAll() {
    var els = Array.prototype.slice.call(document.querySelectorAll(".chart-view"));
    var h = window.innerHeight;
    var distance = function (el) { var r = el.getBoundingClientRect(); return r.bottom < 0 ? -r.bottom : Math.max(0, r.top - h); };
    els.sort(function (a, b) { return distance(a) - distance(b); });
    return els.reduce(function (done, el) {
      return done.then(function () {
        return new Promise(function (resolve) { setTimeout(function () { resolve(render(el)); }, 0); });
      });
    }, Promise.resolve());
  }

  // Re-render when the reader toggles light/dark, so axes and text keep their contrast.
  new MutationObserver(function () { renderAll(); })
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  window.courseCharts = { views: views, renderAll: renderAll };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", renderAll);
  else renderAll();
})();
