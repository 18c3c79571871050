// Check-yourself exercises (markup from course_build/exercises.py). Everything happens in the page: no
// fetch, so it works from file:// too. The answer is in data-answer; the verdict goes to the
// exercise's live region (role=status) in the page's language (words in data-ui). Exercises answered right
// are remembered in this browser (localStorage) and counted on the chapter's overview (progress, below).
(function () {
  "use strict";

  // ── Progress kept between visits (issue 25) ─────────────────────────────────────────────────────────
  // The ids of the exercises answered right in this browser, under one localStorage key: the same ids in
  // every language (an exercise solved on one language's page counts on the other's), served and from
  // file:// alike (the offline copy). Nothing leaves the browser. Storage may be off (a browser setting,
  // some private windows): then nothing is kept, and nothing breaks.
  var KEY = "attention-course.solved";

  function solved() {
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (x) { return typeof x === "string"; }) : [];
    } catch (e) { return []; }
  }

  function remember(id) {
    var list = solved();
    if (list.indexOf(id) >= 0) return;
    list.push(id);
    list.sort();
    try { window.localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* storage off: not kept */ }
  }

  function forget() {
    try { window.localStorage.removeItem(KEY); } catch (e) { /* storage off: nothing kept */ }
  }

  function exerciseId(ex) { return ex.id.replace(/^exercise-/, ""); }

  // «Solved» beside the exercise's title (words in data-ui, course_build/exercises.py)
  function markSolved(ex, yes) {
    var badge = ex.querySelector(".exercise-solved");
    var title = ex.querySelector(".exercise-title");
    if (!yes) {
      delete ex.dataset.solved;
      if (badge) badge.parentNode.removeChild(badge);
      return;
    }
    ex.dataset.solved = "true";
    if (badge || !title || !ex.dataset.ui) return;
    badge = document.createElement("span");
    badge.className = "exercise-solved";
    badge.textContent = JSON.parse(ex.dataset.ui).solved;
    title.appendChild(badge);
  }

  // A chapter's overview (course_build/chapters.py progress_html): «n of m solved» for its sections'
  // exercises, n written in the page's digits (data-digits), and the button that forgets.
  function showProgress() {
    var have = solved();
    document.querySelectorAll(".chapter-progress").forEach(function (box) {
      var ids = JSON.parse(box.dataset.exercises);
      var n = ids.filter(function (id) { return have.indexOf(id) >= 0; }).length;
      var digits = Array.from(box.dataset.digits);
      var count = String(n).replace(/[0-9]/g, function (d) { return digits[Number(d)]; });
      box.querySelector(".chapter-progress__count").textContent = box.dataset.template.replace("{n}", count);
      box.hidden = false;
    });
  }

  function showSolved() {
    var have = solved();
    document.querySelectorAll(".exercise[data-ui]").forEach(function (ex) {
      markSolved(ex, have.indexOf(exerciseId(ex)) >= 0);
    });
    showProgress();
  }

  function initProgress() {
    showSolved();
    document.querySelectorAll(".chapter-progress__forget").forEach(function (button) {
      button.addEventListener("click", function () { forget(); showSolved(); });
    });
    // another tab (or page) solved or forgot something
    window.addEventListener("storage", function (e) { if (e.key === KEY || e.key === null) showSolved(); });
  }

  // How the course's languages write numbers, from the page (data-read, course_build/exercises.py, from
  // scripts/i18n/<lang>/language.yml): sets of ten digits other than 0–9, and decimal and thousands
  // signs other than "." and ",". Read from the first exercise on init.
  var READ = { digits: [], decimal: [], thousands: [] };

  // every digit the course knows → ASCII; every decimal sign → "."; thousands signs dropped
  function asciiDigits(s) {
    var out = "";
    Array.from(s).forEach(function (c) {
      for (var i = 0; i < READ.digits.length; i++) {
        var k = Array.from(READ.digits[i]).indexOf(c);
        if (k >= 0) { out += String(k); return; }
      }
      if (READ.decimal.indexOf(c) >= 0) { out += "."; return; }
      if (READ.thousands.indexOf(c) >= 0) return;
      out += c;
    });
    return out;
  }

  // One number as readers write it (its digits and the languages' own signs already made ASCII):
  // «,» or «.» as the decimal sign, thousands separated by spaces, «'», or the other one of «,» «.»;
  // a leading minus or «−». Returns every reading (a lone "1,234" may be 1.234 or 1234), or []
  // when it is not a number.
  function readings(text) {
    var s = text.replace(/[\s\u00A0\u202F\u2009'’]/g, "")
                .replace(/^[\u2212\u2013\u2012-]/, "-").replace(/^\+/, "");
    if (!/^-?[0-9.,]*[0-9][0-9.,]*$/.test(s)) return [];
    var sign = s[0] === "-" ? -1 : 1;
    s = s.replace(/^-/, "");
    var dots = (s.match(/\./g) || []).length, commas = (s.match(/,/g) || []).length;
    var out = [];
    function push(str) {
      if (/^(\d+\.?\d*|\.\d+)$/.test(str)) out.push(sign * parseFloat(str));
    }
    if (dots && commas) {                     // the last one is the decimal sign
      var dec = s.lastIndexOf(".") > s.lastIndexOf(",") ? "." : ",";
      var grp = dec === "." ? "," : ".";
      if (s.indexOf(dec) !== s.lastIndexOf(dec)) return [];
      push(s.split(grp).join("").replace(dec, "."));
    } else if (dots + commas === 0) {
      push(s);
    } else {
      var sep = dots ? "." : ",";
      var once = dots + commas === 1;
      if (once) push(s.replace(sep, "."));       // decimal sign
      if (/^\d{1,3}([.,]\d{3})+$/.test(s)) push(s.split(sep).join(""));  // thousands
    }
    return out;
  }

  // A number or a fraction like 1/49 (each side read as above).
  function parse(text) {
    var t = asciiDigits(text.trim()).replace(/[\u2044\u2215]/g, "/");
    if (t.indexOf("/") < 0) return readings(t);
    var parts = t.split("/");
    if (parts.length !== 2) return [];
    var a = readings(parts[0]), b = readings(parts[1]), out = [];
    a.forEach(function (x) { b.forEach(function (y) { if (y !== 0) out.push(x / y); }); });
    return out;
  }

  function verdict(values, answer, right, close) {
    var best = Infinity;
    values.forEach(function (v) { best = Math.min(best, Math.abs(v - answer)); });
    var eps = 1e-9 * Math.max(1, Math.abs(answer));
    if (best <= right + eps) return "right";
    if (best <= close + eps) return "close";
    return "not_yet";
  }

  function setup(ex) {
    var form = ex.querySelector(".exercise-form");
    if (!form) return;
    var ui = JSON.parse(ex.dataset.ui);
    var live = ex.querySelector(".exercise-feedback");
    var hint = ex.querySelector(".exercise-hint");
    var misses = 0;
    form.hidden = false;

    function say(state, text) {
      ex.dataset.state = state;
      live.className = "exercise-feedback exercise-feedback--" + state;
      live.textContent = "";
      // a fresh text node each time, so a repeated verdict is announced again
      window.setTimeout(function () { live.textContent = text; }, 30);
    }

    function miss(state) {
      misses += 1;
      var first = misses === 1 && hint && hint.hidden;
      if (hint) hint.hidden = false;
      say(state, state === "close" ? ui.close : (first ? ui.not_yet_hint : ui.not_yet));
    }

    function solve() {
      say("right", ui.right);
      remember(exerciseId(ex));
      markSolved(ex, true);
      showProgress();
    }

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (ex.dataset.kind === "choice") {
        var picked = form.querySelector("input[type=radio]:checked");
        form.querySelectorAll(".exercise-option").forEach(function (o) {
          o.classList.remove("exercise-option--right", "exercise-option--wrong");
        });
        if (!picked) { say("empty", ui.choose_first); return; }
        var ok = picked.value === ex.dataset.answer;
        picked.closest(".exercise-option").classList.add(ok ? "exercise-option--right" : "exercise-option--wrong");
        if (ok) solve(); else miss("not_yet");
        return;
      }
      var input = form.querySelector("input[type=text]");
      var values = parse(input.value);
      if (!values.length) {
        input.setAttribute("aria-invalid", "true");
        say("unreadable", ui.unreadable);
        return;
      }
      input.removeAttribute("aria-invalid");
      var v = verdict(values, parseFloat(ex.dataset.answer), parseFloat(ex.dataset.right), parseFloat(ex.dataset.close));
      if (v === "right") solve(); else miss(v);
    });
  }

  // The form (answer box or options, and the button) waits in a <template> (course_build/exercises.py, controls())
  // and comes into the page when its exercise is within half a screen of the viewport, by when the exercise is
  // laid out (course.css: content-visibility; Chromium lays it out from a screen and a half away). A form control
  // in a block that skips its layout made Chromium's form autofill style and lay out that whole block at load. A choice's plain options
  // (paper, no script) step aside for the form.
  function place(ex) {
    var holder = ex.querySelector(".exercise-controls");
    var template = holder && holder.querySelector("template");
    if (!template) return;
    holder.appendChild(template.content);
    holder.removeChild(template);
    var plain = holder.querySelector(".exercise-choices");
    if (plain) plain.hidden = true;
    setup(ex);
  }

  var near = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting) return;
      near.unobserve(e.target);
      place(e.target);
    });
  }, { rootMargin: "50% 0px" }) : null;

  function init() {
    initProgress();
    var first = document.querySelector(".exercise[data-read]");
    if (first) READ = JSON.parse(first.dataset.read);
    document.querySelectorAll(".exercise").forEach(function (ex) {
      if (!ex.querySelector(".exercise-controls > template")) setup(ex);  // a derivation: nothing to place
      else if (near) near.observe(ex);
      else place(ex);
    });
  }
  // ── Worked solutions on demand (course_build/exercise_solutions.py) ─────────────────────────────────
  // On the site a solution's body waits in assets/solutions/<page>.js (named by the data-src of the
  // paragraph standing in for it); opening one loads that script once (a script, not a fetch, so file://
  // works too), which hands over every solution of the page. The offline copy has them in the page.
  var solutions = null;   // exercise element id → the solution's HTML, once the page's script ran
  var requested = {};     // script URL → true

  function fill(details) {
    var ex = details.closest(".exercise");
    if (!solutions || !ex || solutions[ex.id] == null) return;
    var summary = details.querySelector("summary");
    while (summary.nextSibling) details.removeChild(summary.nextSibling);
    summary.insertAdjacentHTML("afterend", solutions[ex.id]);
  }

  function waiting(details) {   // the paragraph standing in for a solution not loaded yet
    return details.matches && details.matches("details.exercise-solution") &&
           details.querySelector(":scope > .exercise-solution-elsewhere[data-src]");
  }

  function openSolution(details) {
    if (solutions) return fill(details);
    var src = waiting(details).dataset.src;
    if (requested[src]) return;
    requested[src] = true;
    var s = document.createElement("script");
    s.src = src;
    s.onerror = function () { requested[src] = false; console.error("could not load " + src); };
    document.head.appendChild(s);
  }

  window.courseSolutions = {
    define: function (bySolution) {
      solutions = bySolution;
      document.querySelectorAll("details.exercise-solution[open]").forEach(function (d) { if (waiting(d)) fill(d); });
    }
  };
  // toggle does not bubble; a capturing listener still hears every <details>
  document.addEventListener("toggle", function (e) {
    var details = e.target;
    if (details.open && waiting(details)) openSolution(details);
  }, true);

  // exposed for tests of the reading rules
  window.courseExercises = { parse: parse, verdict: verdict };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
