// Render every course chart from its Vega runtime (its compiled spec parsed at build time,
// course_build/chart_scripts.py). Text and formulas come first: Vega and a
// chart's spec (a script beside the page, assets/charts/<lang>/<chart>.js — a script, not a fetch, so
// file:// works too) load when the chart nears the viewport (see "Loading" below).
// Language conventions (digits, separators, font, menu strings) come from the page in data-opts,
// computed by course_build/refs.py from scripts/common/numfmt.py. Charts follow Material's palette.
(function () {
  "use strict";
  var views = new Map();

  function cssVar(name, fallback) {
    var v = getComputedStyle(document.body).getPropertyValue(name).trim();
    return v || fallback;
  }

  // The chart design (scripts/charts/_palette.py) in the page's scheme: text in the page's colours, series
  // colours that keep 4.5:1 on this background (opts.palette), a plot frame as quiet as the grid. A chart's
  // script holds its Vega runtime, parsed at build time with this design as config (course_build/chart_scripts.py
  // chart_config: the bundle has no parser); each colour that follows the page is a placeholder there ("%fg%",
  // "%fg-light%", "%grid%", "%category-<i>%"), given its live value here before each render (a palette switch
  // renders again). A value is written into JSON strings and into code inside them: one holding a quote, a
  // backslash or a control character would break both, and falls back.
  var PLACEHOLDER = /%(fg-light|fg|grid|category-\d+)%/g;
  function colour(value, fallback) {
    return value && !/["\\\u0000-\u001f]/.test(value) ? value : fallback;
  }

  function liveColours(opts) {
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    var colours = {
      "fg": colour(cssVar("--md-default-fg-color", "#000"), "#000"),
      "fg-light": colour(cssVar("--md-default-fg-color--light", "#555"), "#555"),
      "grid": colour(cssVar("--md-default-fg-color--lightest", "#ddd"), "#ddd")
    };
    var palette = opts.palette || {};
    ((dark ? palette.dark : palette.light) || []).forEach(function (c, i) { colours["category-" + i] = colour(c, "#888"); });
    return colours;
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

  // ── Data loaded when a control asks for it (issue 12, lighter pages) ───────────────────────
  // A chart may split inline datasets by the values of bound controls (usermeta.parts.data: {dataset:
  // [signal, …]}, scripts/charts/_kit.py parts_by): its spec holds the rows for the initial values, and
  // course_build/refs.py writes the rows of every other combination as a script beside the spec (usermeta.parts.
  // files, a part named by its values joined with "."; a script, so file:// works). When the controls take
  // values whose rows a view lacks, their part is loaded and inserted into that view, which then runs again.
  // Each view asks for itself, so a re-render (light/dark, with the reader's choice restored) gets them too.
  var partData = {};  // data-key + " " + part → {dataset: rows}, filled by the part scripts

  function rowsOnDemand(el, view, spec) {
    var parts = spec && spec.usermeta && spec.usermeta.parts;
    if (!parts || !parts.files) return;
    var has = {};
    var ensure = function (part) {
      var file = parts.files[part];
      if (!file || has[part]) return;  // the initial values' rows are in the spec
      has[part] = true;
      var id = el.dataset.key + " " + part;
      loadScript(el.dataset.src.replace(/[^\/]*$/, file)).then(function () {
        if (!partData[id]) throw new Error(file + " held no rows for " + id);
        if (!views.get(el) || views.get(el).view !== view) return;  // re-rendered meanwhile: the new view asks
        Object.keys(partData[id]).forEach(function (name) {
          // copies: Vega marks the rows it takes in, and another view may take the same rows later
          view.insert(name, partData[id][name].map(function (row) { return Object.assign({}, row); }));
        });
        return view.runAsync();
      }).catch(function (err) {
        has[part] = false;
        console.error("chart " + el.dataset.chart + ": " + err);
      });
    };
    var check = function () {
      Object.keys(parts.data).forEach(function (name) {
        ensure(parts.data[name].map(function (signal) { return String(view.signal(signal)); }).join("."));
      });
    };
    var signals = {};
    Object.keys(parts.data).forEach(function (name) {
      parts.data[name].forEach(function (signal) { signals[signal] = true; });
    });
    Object.keys(signals).forEach(function (signal) { view.addSignalListener(signal, check); });
    check();
  }

  // SVG unless the chart asks for a canvas on screen (usermeta.renderer: a chart with thousands of marks
  // that a control recolours, scripts/charts/sa_patch_attention.py). Paper always gets SVG: vector in the
  // PDF (tools/pdf.py renders in print media).
  // A canvas wider than the column would be drawn again as SVG (render, below): when the static drawing's width
  // (data-width, course_build/refs.py) already says so, SVG at once, one drawing instead of two (a phone). The
  // element is measured with the classes the embed gives it (the menu's gutter, tools/vega/embed.js).
  function rendererFor(spec, el) {
    var wanted = spec && spec.usermeta && spec.usermeta.renderer;
    if (!wanted || window.matchMedia("print").matches) return "svg";
    el.classList.add("vega-embed", "has-actions");
    return wanted === "canvas" && Number(el.dataset.width) > room(el) ? "svg" : wanted;
  }

  // the width a chart's drawing has in its element (the menu's gutter left out: vega-embed's .has-actions)
  function room(el) {
    var box = getComputedStyle(el);
    return el.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
  }

  // The chart's runtime with the page's colours in place (a fresh copy each render: Vega takes the data rows in).
  // A canvas has no CSS: "currentColor" (the page's text colour in an SVG, scripts/charts/_render.py
  // follow_page_colours) would be painted black, unreadable on the dark page. A canvas chart gets the
  // colour itself, read when it is drawn (a palette switch draws it again); in the runtime it is a JSON
  // string or, inside an expression's code, an escaped one.
  function painted(spec, opts, renderer) {
    var colours = liveColours(opts);
    var text = JSON.stringify(spec.runtime).replace(PLACEHOLDER, function (all, name) {
      return Object.prototype.hasOwnProperty.call(colours, name) ? colours[name] : all;
    });
    if (renderer === "canvas") {
      text = text.replace(/(\\?")currentColor\1/g, function (all, quote) { return quote + colours.fg + quote; });
    }
    return JSON.parse(text);
  }

  // Vega measures chart text as it lays the chart out: the chart's font must be loaded by then. A page
  // loads a font only for text it lays out, and a chart is drawn before any text in its font may be,
  // so its font is asked for here.
  // Charts are drawn one at a time (inTurn): a font request that never ends must not hold back every chart,
  // so once FONT_WAIT has passed charts are drawn in the fallback font (one wait per font and page).
  var FONT_WAIT = 5000;
  var fontWaits = {};
  function fontReady(font) {
    if (!font || !document.fonts || !document.fonts.load) return Promise.resolve();
    var family = JSON.stringify(String(font).split(",")[0].trim().replace(/^["']|["']$/g, ""));
    if (!fontWaits[family]) fontWaits[family] = Promise.race([
      Promise.all([document.fonts.load("12px " + family), document.fonts.load("bold 12px " + family)]),
      new Promise(function (resolve) { setTimeout(resolve, FONT_WAIT); })
    ]).catch(function () {});
    return fontWaits[family];
  }

  function render(el) {
    var spec = specs[el.dataset.key];
    var opts = JSON.parse(el.dataset.opts);
    var old = views.get(el);
    var state = old ? chosenState(el, old.view) : null;
    if (old) old.finalize();
    el.dataset.rendered = "";
    var embed = function (renderer) {
      return vegaEmbed(el, painted(spec, opts, renderer), {
        renderer: renderer,
        formatLocale: opts.locale,
        i18n: Object.assign({ CLICK_TO_VIEW_ACTIONS: opts.menu }, opts.actions),  // the menu's tooltip in the page's language
        actions: { export: true, source: false, compiled: false, editor: false },
        downloadFileName: el.dataset.chart
      });
    };
    // in several tasks (issue 25, total blocking time): the colours, the parse and first run (sliced by the
    // bundle, tools/vega/vega.js), the readouts, the second run each give the page a turn first. A stock Vega
    // has no nextTask (make bench's stock copy): the chart then draws in one go, as Vega draws it.
    var turn = function (value) {
      var next = vegaEmbed.vega.nextTask;
      return next ? next().then(function () { return value; }) : Promise.resolve(value);
    };
    return fontReady(opts.font).then(turn).then(function () {
      return embed(rendererFor(spec, el));
    }).then(turn).then(function (res) {
      // A canvas wider than the column (a phone) cannot shrink as an SVG does: Vega would map the pointer
      // to the wrong marks. Such a chart is drawn as SVG instead.
      var canvas = el.querySelector("canvas.marks");
      if (!canvas || canvas.getBoundingClientRect().width <= room(el) + 0.5) return res;
      res.finalize();
      return embed("svg");
    }).then(function (res) {
      views.set(el, res);
      // The drawing itself is hidden from screen readers: the figure is named (aria-label), described
      // (figcaption) and its data is the table under it; the controls stay reachable.
      var drawing = el.querySelector("svg.marks, canvas.marks");
      if (drawing) drawing.setAttribute("aria-hidden", "true");
      var summary = el.querySelector("details summary");  // the chart menu's button (tools/vega/embed.js): an icon only
      if (summary) summary.setAttribute("aria-label", opts.menu);
      ownReadouts(el, res.view, opts.locale);
      rowsOnDemand(el, res.view, spec);
      return turn(res);
    }).then(function (res) {
      // One more run: the first one fitted the width, and text that wraps at that width (scripts/charts/
      // _kit.py fit) is laid out again only on the next run (autosize resize, scripts/charts/_render.py).
      return (state ? res.view.setState(state) : res.view).runAsync().then(function () { return res; });
    }).then(function (res) {
      el.style.removeProperty("--chart-reserve");  // drawn: the chart's own height from now on (course.css)
      el.dataset.renderedAt = String(performance.now());  // read by tools/bench.py
      el.dataset.rendered = "1";
      el.dispatchEvent(new CustomEvent("chart-rendered", { bubbles: true }));
      return res;
    }).catch(function (err) {
      el.dataset.rendered = "error";
      console.error("chart " + el.dataset.chart + ": " + err);
    });
  }

  // ── Loading (issue 12, lighter pages) ──────────────────────────────────────────────────────
  // A chart is drawn when it comes within LOOKAHEAD of the viewport: first Vega (once per page), then
  // its spec. Until the reader first scrolls, only a chart on the screen is drawn: one just below it
  // waits for the first scroll, so a page whose first screen shows no chart loads no chart code before
  // the reader moves (issue 25: the first-view budget of tools/bench.py; the look-ahead still has Vega on
  // hand before such a chart shows, as it starts with the scroll). renderAll() draws every chart now:
  // before printing, for the PDF and the tests (tools/browser.py ALL_CHARTS_RENDERED calls it), and
  // wherever IntersectionObserver is missing.
  var LOOKAHEAD = "0px 0px 600px 0px";  // about a screen ahead: Vega is on hand before the chart shows
  var moved = false;  // has the reader scrolled yet?
  var me = document.currentScript;
  var specs = {};    // data-key → spec, filled by the spec scripts (courseCharts.define)
  var loaded = {};   // script URL → promise
  var drawn = new Map();  // chart element → promise of its first render
  var queue = Promise.resolve();

  function loadScript(url) {
    if (!loaded[url]) loaded[url] = new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = url;
      s.onload = resolve;
      s.onerror = function () { reject(new Error("could not load " + url)); };
      document.head.appendChild(s);
    });
    return loaded[url];
  }

  function loadVega() {
    return loadScript(me.dataset.vega);  // Vega and our embed in one script (tools/vega/)
  }

  // One chart per task: the page stays responsive while several render
  // (one long task for all charts blocked input for a third of a second).
  function inTurn(task) {
    var run = queue.then(function () {
      return new Promise(function (resolve) { setTimeout(function () { resolve(task()); }, 0); });
    });
    queue = run.catch(function () {});
    return run;
  }

  function draw(el) {
    if (!drawn.has(el)) {
      drawn.set(el, Promise.all([loadVega(), loadScript(el.dataset.src)]).then(function () {
        if (!specs[el.dataset.key]) throw new Error(el.dataset.src + " defined no chart " + el.dataset.key);
        return inTurn(function () { return render(el); });
      }).catch(function (err) {
        el.dataset.rendered = "error";
        console.error("chart " + el.dataset.chart + ": " + err);
      }));
    }
    return drawn.get(el);
  }

  function charts() { return Array.prototype.slice.call(document.querySelectorAll(".chart-view")); }

  // Every chart, those nearest the viewport first.
  function renderAll() {
    var h = window.innerHeight;
    var distance = function (el) { var r = el.getBoundingClientRect(); return r.bottom < 0 ? -r.bottom : Math.max(0, r.top - h); };
    return Promise.all(charts().sort(function (a, b) { return distance(a) - distance(b); }).map(draw));
  }

  function watch() {
    if (!("IntersectionObserver" in window)) return renderAll();
    var waiting = new Set();  // charts within LOOKAHEAD but off the screen, before the reader's first scroll
    var near = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) { waiting.delete(e.target); return; }
        if (!moved) { waiting.add(e.target); return; }
        near.unobserve(e.target);
        draw(e.target);
      });
    }, { rootMargin: LOOKAHEAD });
    // when each chart itself enters the viewport (tools/bench.py: chart shown this long after); a chart on
    // the screen is drawn whether or not the reader has scrolled
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        seen.unobserve(e.target);
        e.target.dataset.visibleAt = String(performance.now());
        near.unobserve(e.target);
        waiting.delete(e.target);
        draw(e.target);
      });
    });
    window.addEventListener("scroll", function () {
      moved = true;
      waiting.forEach(function (el) { near.unobserve(el); draw(el); });
      waiting.clear();
    }, { passive: true, once: true });
    charts().forEach(function (el) { near.observe(el); seen.observe(el); });
  }

  // Re-render drawn charts when the reader toggles light/dark, so axes and text keep their contrast
  // (charts still loading read the palette when they render).
  new MutationObserver(function () { views.forEach(function (_, el) { inTurn(function () { return render(el); }); }); })
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  // A window that changes size (a phone turned, a window dragged) refits each chart's width, and its text
  // wrapped at that width is laid out again only on the next run (as after the first render, above): one
  // more run once the size settles, or the last lines under a chart were cut off (issue 25).
  var settling = 0;
  window.addEventListener("resize", function () {
    clearTimeout(settling);
    settling = setTimeout(function () { views.forEach(function (res) { res.view.runAsync(); }); }, 150);
  });
  // Paper gets every chart. The browser does not wait for a promise here, so a print started at once
  // may miss charts that were far away; tools/pdf.py waits for ALL_CHARTS_RENDERED, which draws all.
  window.addEventListener("beforeprint", renderAll);

  window.courseCharts = {
    views: views, renderAll: renderAll,
    // once every chart asked for so far is drawn, how many were asked for (tests: the page has stopped moving)
    settled: function () {
      var asked = Array.from(drawn.values());
      return Promise.all(asked).then(function () { return asked.length; });
    },
    define: function (key, spec) { specs[key] = spec; },
    part: function (key, value, data) { partData[key + " " + value] = data; },
    specOf: function (el) { return JSON.stringify(specs[el.dataset.key] || null); }  // tools/bench.py
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
