/* The created page (issue 13): the seat tokens arrive in the fragment of the redirect
 * (#japan=...&usa=..., a pair per seat), are kept in this tab's sessionStorage and taken out of the address
 * bar, so a reload shows the links again and the page's URL carries no secret. */
(function () {
  "use strict";
  var root = document.querySelector("[data-created]");
  if (!root) {
    return;
  }
  var key = "midway-created:" + root.getAttribute("data-created");
  var TOKEN = /^[A-Za-z0-9_-]+$/;
  var seats = {}; // the game's seats, as the page lists them (the engine declares them)
  document.querySelectorAll("a.seat-link").forEach(function (a) {
    seats[a.getAttribute("data-seat")] = true;
  });
  var found = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
    var kv = pair.split("=");
    if (kv.length === 2 && seats[kv[0]] === true && TOKEN.test(kv[1])) {
      found[kv[0]] = kv[1];
    }
  });
  if (Object.keys(found).length) {
    sessionStorage.setItem(key, JSON.stringify(found));
    history.replaceState(null, "", location.pathname + location.search);
  }
  var tokens = {};
  try {
    tokens = JSON.parse(sessionStorage.getItem(key) || "{}") || {};
  } catch (e) {
    tokens = {};
  }
  var missing = false;
  document.querySelectorAll("a.seat-link").forEach(function (a) {
    var token = tokens[a.getAttribute("data-seat")];
    var li = a.closest("li");
    if (typeof token === "string" && TOKEN.test(token)) {
      var url = a.getAttribute("data-base") + "#token=" + token;
      a.href = url;
      a.textContent = a.href; // resolved: what a player pastes to another
    } else {
      missing = true;
      if (li) {
        li.hidden = true;
      }
    }
  });
  if (missing) {
    document.getElementById("links-missing").hidden = false;
  }

  function copied(button, words) {
    var out = button.parentNode.querySelector(".copied");
    if (out) {
      out.textContent = words;
    }
  }

  document.querySelectorAll("button.copy").forEach(function (button) {
    button.addEventListener("click", function () {
      var a = document.querySelector('a.seat-link[data-seat="' + button.getAttribute("data-seat") + '"]');
      if (!a) {
        return;
      }
      var url = a.href;
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(url).then(
          function () { copied(button, "Copied"); },
          function () { copied(button, "Select the link and copy it"); }
        );
      } else {
        var range = document.createRange();
        range.selectNodeContents(a);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        copied(button, "Selected: press Ctrl+C to copy");
      }
    });
  });
})();
