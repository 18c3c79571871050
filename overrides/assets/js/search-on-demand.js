// The search index (the heaviest file after Vega) is requested when the reader opens search, not with
// every page (issue 12, lighter pages). Material asks for search/search_index.json with an
// XMLHttpRequest as it starts; that one request is held until search is opened (the search button,
// a focus on the query field, or a key Material opens search with). The offline copy reads the index
// from a script instead and is not affected. Loaded before Material's bundle (overrides/main.html).
(function () {
  "use strict";
  var proto = XMLHttpRequest.prototype, open = proto.open, send = proto.send;
  var held = [], wanted = false;
  proto.open = function (method, url) {
    this.courseSearchIndex = /\/search\/search_index\.json(\?|$)/.test(String(url));
    return open.apply(this, arguments);
  };
  proto.send = function () {
    if (this.courseSearchIndex && !wanted) { held.push([this, arguments]); return; }
    return send.apply(this, arguments);
  };
  function load() {
    if (wanted) return;
    wanted = true;
    held.splice(0).forEach(function (h) { send.apply(h[0], h[1]); });
  }
  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("[data-md-component=search-query]")) load();
  });
  document.addEventListener("change", function (e) { if (e.target.id === "__search") load(); });
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("label[for=__search]")) load();
  });
  document.addEventListener("keydown", function (e) {
    if (["/", "s", "f", "S", "F"].indexOf(e.key) >= 0) load();
  }, true);
  // a link that arrives with a search query (?q=) means search is wanted now
  if (/[?&]q=/.test(location.search)) load();
})();
