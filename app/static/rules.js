// Rules at hand: a rule number on the page (a.rule, made by app/web/rule_links.py) opens
// its short explanation in a popup beside it, taken from /rules (which the link opens
// without script). Enter on the focused number opens it too; Escape or Close shuts it and
// gives the focus back to the number.
(function () {
  "use strict";
  var help = null, pop = null, opener = null;

  function load() {
    if (!help) {
      help = fetch("/rules").then(function (r) { return r.text(); }).then(function (html) {
        return new DOMParser().parseFromString(html, "text/html");
      });
    }
    return help;
  }

  function close() {
    if (!pop) return;
    pop.remove();
    pop = null;
    if (opener) { opener.setAttribute("aria-expanded", "false"); opener.focus(); }
    opener = null;
  }

  function open(link) {
    var rule = link.dataset.rule;
    load().then(function (doc) {
      var entry = doc.getElementById("rule-" + rule);
      if (!entry) { window.location.assign(link.href); return; }
      close();
      opener = link;
      pop = document.createElement("div");
      pop.className = "rule-pop";
      pop.id = "rule-pop";
      pop.setAttribute("role", "dialog");
      pop.setAttribute("aria-labelledby", "rule-pop-h");
      var h = document.createElement("p");
      h.className = "rule-pop-h";
      h.id = "rule-pop-h";
      h.textContent = "Rule " + rule + ": " + entry.querySelector("dt").textContent.replace(rule, "").trim();
      var p = document.createElement("p");
      p.textContent = entry.querySelector("dd").textContent;
      var more = document.createElement("a");
      more.href = link.href;
      more.textContent = "All the rules at hand";
      var shut = document.createElement("button");
      shut.type = "button";
      shut.className = "rule-pop-close";
      shut.textContent = "Close";
      shut.addEventListener("click", close);
      pop.append(h, p, more, " ", shut);
      document.body.appendChild(pop);
      var r = link.getBoundingClientRect();
      var width = Math.min(340, document.documentElement.clientWidth - 16);
      pop.style.width = width + "px";
      pop.style.left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8)) + "px";
      pop.style.top = (r.bottom + window.scrollY + 4) + "px";
      link.setAttribute("aria-expanded", "true");
      shut.focus();
    });
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!(t instanceof Element)) return;
    var link = t.closest("a.rule[data-rule]");
    if (link) {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      e.stopPropagation();
      open(link);
      return;
    }
    if (pop && !pop.contains(t)) close();
  }, true);

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && pop) { e.preventDefault(); e.stopPropagation(); close(); }
  }, true);
})();
