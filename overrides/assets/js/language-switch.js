// Switching language keeps the reader's place (issue 25): docs/<lang>/ mirror each other and their
// headings share anchors, so the other language's link is given the section the reader is in (the last
// heading above the top of the window) as it is followed. The link itself is Material's language menu.
(function () {
  "use strict";
  var TOP = 120;  // px: below Material's header and tabs, a heading counts as "the one being read"

  function section() {
    var heads = document.querySelectorAll(".md-content h2[id], .md-content h3[id]");
    var id = "";
    for (var i = 0; i < heads.length; i++) {
      if (heads[i].getBoundingClientRect().top > TOP) break;
      id = heads[i].id;
    }
    return id;
  }

  // capture: before Material's own handlers follow the link (a click, or Enter on a focused link)
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a.md-select__link[hreflang]") : null;
    var id = link && section();
    if (id) link.setAttribute("href", link.getAttribute("href").split("#")[0] + "#" + id);
  }, true);
})();
