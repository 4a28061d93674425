// The replay page (issue: the page as a wargame table): its links step through a finished
// game without script; with it, a step is fetched and swapped in place, the address bar
// follows (every step its own URL: a reload lands on the same step, Back goes back), the
// keys shown on the page step by action, step, battle and Turn, and Play steps on by
// itself at the chosen speed and grain until Pause or the end.
(function () {
  "use strict";
  var playing = false, timer = null;
  var speed = "800", grain = "action";

  function nav() { return document.querySelector(".replay-nav"); }

  function syncControls() {
    var box = document.querySelector(".replay-nav .autoplay");
    if (!box) return;
    box.hidden = false;
    var button = box.querySelector("button.play");
    button.textContent = playing ? "Pause" : "Play";
    button.setAttribute("aria-pressed", playing ? "true" : "false");
    box.querySelector("select.speed").value = speed;
    box.querySelector("select.play-grain").value = grain;
  }

  function focusKey() {
    var el = document.activeElement;
    if (!el || !nav() || !nav().contains(el)) return null;
    if (el.dataset.keys) return "[data-keys='" + el.dataset.keys + "']";
    if (el.dataset.seat) return "a.switch[data-seat='" + el.dataset.seat + "']";
    if (el.classList.contains("play")) return "button.play";
    return null;
  }

  function swap(html, url, push) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var refocus = focusKey();
    document.title = doc.title;
    Array.prototype.slice.call(document.body.attributes).forEach(function (a) {
      document.body.removeAttribute(a.name);
    });
    Array.prototype.slice.call(doc.body.attributes).forEach(function (a) {
      document.body.setAttribute(a.name, a.value);
    });
    document.body.innerHTML = doc.body.innerHTML;
    if (push) history.pushState({ replay: true }, "", url);
    syncControls();
    var again = refocus && document.querySelector(".replay-nav " + refocus);
    if (again) again.focus();
    else if (refocus) {
      var here = document.getElementById("replay-at");
      here.setAttribute("tabindex", "-1");
      here.focus();
    }
  }

  function go(url, push) {
    return fetch(url, { headers: { Accept: "text/html" } }).then(function (r) {
      if (!r.ok) { window.location.assign(url); return; }
      return r.text().then(function (html) { swap(html, url, push); });
    }, function () { window.location.assign(url); });
  }

  function nextLink() {
    return document.querySelector(".replay-nav tr[data-grain='" + grain + "'] td:nth-of-type(2) a");
  }

  function tick() {
    timer = null;
    if (!playing) return;
    var link = nextLink();
    if (!link) { playing = false; syncControls(); return; }
    go(link.href, true).then(function () { if (playing) timer = setTimeout(tick, Number(speed)); });
  }

  function setPlaying(on) {
    playing = on;
    if (timer) { clearTimeout(timer); timer = null; }
    syncControls();
    if (on) timer = setTimeout(tick, Number(speed));
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!(t instanceof Element)) return;
    if (t.closest(".replay-nav button.play")) { setPlaying(!playing); return; }
    var a = t.closest(".replay-nav a[data-at], .replay-nav a.switch");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    go(a.href, true);
  });

  document.addEventListener("change", function (e) {
    var t = e.target;
    if (!(t instanceof Element)) return;
    if (t.matches(".replay-nav select.speed")) speed = t.value;
    if (t.matches(".replay-nav select.play-grain")) grain = t.value;
  });

  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (t instanceof Element && t.closest("input, select, textarea, [contenteditable]")) return;
    if (e.key === "p" || e.key === "P") { e.preventDefault(); setPlaying(!playing); return; }
    var key = (e.shiftKey && e.key.indexOf("Arrow") === 0 ? "Shift+" : "") + e.key;
    var n = nav();
    var link = n && n.querySelector("a[data-keys='" + key.replace(/'/g, "\\'") + "']");
    if (!link) return;
    e.preventDefault();
    go(link.href, true);
  });

  window.addEventListener("popstate", function () { go(window.location.href, false); });
  document.addEventListener("DOMContentLoaded", syncControls);
})();
