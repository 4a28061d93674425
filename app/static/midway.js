/* Midway Online: the seat page's own script (no build step).
 *
 * 1. The seat token: read from the link's fragment (#token=...), kept in sessionStorage,
 *    removed from the address bar; sent as "Authorization: Bearer" on htmx requests and
 *    as the first websocket message. The server never gets it from the URL.
 * 2. Live: the regions load once over HTTP, then the htmx websocket extension keeps them
 *    fresh; every region carries the view version it shows (data-v) and an older one
 *    never replaces a newer one; so does each area of the Operations Cards, which may
 *    be pushed alone. On a dropped connection htmx reconnects and the socket
 *    resyncs from the version the page has.
 * 3. Clicks: pick a counter (on a board, a card or in the prompt), then a hex or a box;
 *    the matching legal action from the prompt is posted. Keyboard: Tab to counters and
 *    choices, arrow keys across a board's hexes, Enter or Space to click, Esc to drop.
 */
(function () {
  "use strict";
  var body = document.body;
  var game = body.dataset.game;
  var seat = body.dataset.seat;
  var storeKey = "midway:" + game + ":" + seat;
  var selected = null;
  var wsOpen = false;

  // -- 1. the token ---------------------------------------------------------------------
  var match = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (match) {
    sessionStorage.setItem(storeKey, decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  var token = sessionStorage.getItem(storeKey);

  function ours(path) {
    return typeof path === "string" && path.indexOf("/games/" + game + "/") === 0;
  }

  // A move's answer brings the fresh prompt only when no socket will push it (the server
  // renders it once, not twice); should the socket drop meanwhile, its resync brings it.
  var MOVES = /\/(act|takeback|standing)$/;
  document.addEventListener("htmx:configRequest", function (e) {
    if (token && ours(e.detail.path)) {
      e.detail.headers["Authorization"] = "Bearer " + token;
      if (wsOpen && MOVES.test(e.detail.path)) e.detail.headers["Midway-Live"] = "1";
    }
  });

  function flash(text, level) {
    var f = document.getElementById("flash");
    f.className = "flash " + (level || "info");
    f.setAttribute("role", level === "error" ? "alert" : "status");
    f.textContent = text;
  }

  function setConn(state, text) {
    var c = document.getElementById("conn");
    c.dataset.state = state;
    c.textContent = text;
  }

  function pageVersion() {
    var p = document.getElementById("r-prompt");
    var v = p && p.getAttribute("data-v");
    return v === null || v === undefined ? null : parseInt(v, 10);
  }

  // -- 2. live ----------------------------------------------------------------------------
  // Reconnect soon after a drop, then back off: 0.25-0.5 s, 0.5-1 s, ... at most 8 s.
  htmx.config.wsReconnectDelay = function (retries) {
    return Math.min(500 * Math.pow(2, retries), 8000) * (0.5 + Math.random() / 2);
  };

  function connect() {
    var live = document.getElementById("live");
    if (live.hasAttribute("ws-connect")) return;
    live.setAttribute("ws-connect", "/games/" + game + "/live");
    htmx.process(live);
  }

  document.addEventListener("htmx:wsOpen", function (e) {
    wsOpen = true;
    e.detail.socketWrapper.sendImmediately(
      JSON.stringify({ token: token, version: pageVersion() })
    );
    setConn("live", "Live");
  });
  document.addEventListener("htmx:wsClose", function (e) {
    wsOpen = false;
    var code = e.detail.event && e.detail.event.code;
    if (code >= 4000) setConn("closed", "Disconnected");
    else setConn("reconnecting", "Connection lost: reconnecting…");
  });

  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail.elt;
    if (elt.id === "loader") {
      if (e.detail.xhr && e.detail.xhr.status === 200) connect();
      else setConn("closed", "Not connected");
    } else if (elt.id === "act" || elt.id === "takeback" || elt.id === "stand" || elt.id === "stand-off") {
      if (!wsOpen) refresh(); // no socket now: fetch the regions instead of waiting for a push
    }
  });
  // A move clears the selection (issue 13); a refused one (a stale view) keeps it. The
  // answer is watched on the request itself: by then the form may have been replaced by
  // the pushed regions, and htmx's own events from a detached form reach nobody.
  document.addEventListener("htmx:beforeSend", function (e) {
    if (e.detail.elt.id !== "act") return;
    var moving = selected;
    e.detail.xhr.addEventListener("load", function () {
      if (this.status < 300 && moving && selected === moving) {
        selected = null;
        applySelection();
      }
    });
  });
  document.addEventListener("htmx:sendError", function () {
    flash("The server could not be reached. Your click was not sent; try again.", "error");
  });

  function refresh() {
    htmx.ajax("GET", "/games/" + game + "/regions", { source: "#loader", swap: "none" });
  }

  function versionOf(el) {
    if (!el || !el.getAttribute) return null;
    var v = el.getAttribute("data-v");
    return v === null ? null : parseInt(v, 10);
  }

  // Issue 34: what changed in a region comes as <template>s (app/web/patches.py), each an
  // element of it to replace by its id, to delete, or to put after or before one, and
  // saying which region (or part of the Operations Cards) it changes, from which version
  // to which: applied only to that region as the socket left it (all of one message's
  // together), skipped where the page already shows that version or a later one; a page
  // that holds a version in between (brought by an answer over HTTP) fetches its regions
  // whole. A template parses what it holds as the page would (SVG within <svg>), which a
  // fragment of a websocket message does not.
  // A template names its unit only when the one before it is of another, and its
  // versions only as its unit's first: the others are applied where that one was.
  var patching = {};
  var kept = {}; // elements a message deleted to put them in again (moved), by id
  var lastUnit = null;
  var inMessage = false; // the page is made up again once a message is all swapped in
  document.addEventListener("htmx:wsBeforeMessage", function () {
    patching = {};
    kept = {};
    lastUnit = null;
    inMessage = true;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    inMessage = false;
    afterSwap();
  });

  function patchSwap(e) {
    var fragment = e.detail.fragment;
    var t = fragment && fragment.nodeType === 11 ? fragment.firstElementChild : fragment;
    if (!t || t.tagName !== "TEMPLATE") return false; // htmx took its hx-swap-oob off
    var id = t.getAttribute("data-in") || lastUnit;
    lastUnit = id;
    if (!id) return false;
    if (!t.hasAttribute("data-to")) { // a later swap of its unit
      if (!(id in patching)) {
        e.detail.shouldSwap = false;
        return true;
      }
    }
    var unit = document.getElementById(id);
    var to = t.hasAttribute("data-to") ? parseInt(t.getAttribute("data-to"), 10) : patching[id];
    var from = t.hasAttribute("data-from") ? parseInt(t.getAttribute("data-from"), 10) : to;
    var have = versionOf(unit);
    if (patching[id] !== to) {
      if (have === null || have > from) {
        e.detail.shouldSwap = false;
        if (have === null || have < to) refresh();
        return true;
      }
      patching[id] = to;
      unit.setAttribute("data-v", String(to));
    }
    if (t.hasAttribute("data-keep")) kept[t.id] = e.detail.target; // deleted, then moved
    var nodes = document.importNode(t.content, true);
    if (t.hasAttribute("data-svg")) {
      var svg = nodes.firstElementChild;
      nodes = document.createDocumentFragment();
      while (svg.firstChild) nodes.appendChild(svg.firstChild);
    }
    var moving = all("[data-move]", nodes);
    for (var i = 0; i < moving.length; i++) {
      var held = kept[moving[i].getAttribute("data-move")];
      if (!held) {
        e.detail.shouldSwap = false;
        refresh();
        return true;
      }
      moving[i].replaceWith(held);
    }
    if (fragment.nodeType === 11) fragment.replaceChildren(nodes);
    else t.replaceChildren(nodes);
    return true;
  }

  var refocus = null;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target;
    if (patchSwap(e)) {
      if (e.detail.shouldSwap && target.contains(document.activeElement)) {
        refocus = focusSelector(document.activeElement);
      }
      return;
    }
    var fresh = e.detail.fragment;
    if (fresh && fresh.nodeType !== 1) fresh = fresh.firstElementChild;
    var have = versionOf(target);
    var got = versionOf(fresh);
    if (have !== null && got !== null && got < have) e.detail.shouldSwap = false;
    // A region in parts (the Operations Cards: an area each) may hold a part newer than
    // the region itself, pushed alone: a whole region older than it keeps that part.
    if (e.detail.shouldSwap && fresh && fresh.querySelectorAll) {
      all("[id][data-v]", fresh).forEach(function (part) {
        var held = document.getElementById(part.id);
        var v = versionOf(held);
        if (held && target.contains(held) && v !== null && v > versionOf(part)) {
          part.replaceWith(held.cloneNode(true));
        }
      });
    }
    if (e.detail.shouldSwap && target.contains(document.activeElement)) {
      refocus = focusSelector(document.activeElement);
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (!inMessage) afterSwap();
  });
  document.addEventListener("htmx:afterSettle", afterSwap);

  function focusSelector(el) {
    var attrs = ["id", "data-key", "data-tkey"];
    for (var i = 0; i < attrs.length; i++) {
      var v = el.getAttribute && el.getAttribute(attrs[i]);
      if (v) return "[" + attrs[i] + '="' + CSS.escape(v) + '"]';
    }
    if (el.name === "action") return 'button[name="action"][value="' + CSS.escape(el.value) + '"]';
    return null;
  }

  // Issue 30: a folded list of choices or counters the player opened stays open when the
  // prompt is replaced after an action, until he closes it.
  var openFolds = {};
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.matches || !d.matches("#act details.all-choices[data-fold]")) return;
    if (d.open) openFolds[d.dataset.fold] = true;
    else delete openFolds[d.dataset.fold];
  }, true);

  function reopenFolds() {
    all("#act details.all-choices[data-fold]").forEach(function (d) {
      if (openFolds[d.dataset.fold] && !d.open) d.open = true;
    });
  }

  // Issue 30: the Battleboard is a tall field; when a battle's units first stand on it,
  // the page scrolls them into sight (once a battle, never again against the player).
  var battleSeen = null;
  function battleInView(battle) {
    var pieces = battle.hidden ? [] : all("svg .piece", battle);
    var title = battle.querySelector("h2");
    var key = pieces.length && title ? title.textContent.split(";")[0] : null;
    if (!key || key === battleSeen) return;
    battleSeen = key;
    var top = Infinity, bottom = -Infinity;
    pieces.forEach(function (p) {
      var r = p.getBoundingClientRect();
      top = Math.min(top, r.top);
      bottom = Math.max(bottom, r.bottom);
    });
    var prompt = document.getElementById("r-prompt");
    var above = prompt && getComputedStyle(prompt).position === "sticky"
      ? prompt.getBoundingClientRect().bottom : 0;
    // one column: the bar is fixed at the bottom of the screen
    var below = prompt && getComputedStyle(prompt).position === "fixed"
      ? prompt.getBoundingClientRect().top : innerHeight;
    // on a wide screen the board's column scrolls in its own box, below the bar
    var column = battle.closest(".col-board");
    var own = column && column.scrollHeight > column.clientHeight
      && /(auto|scroll)/.test(getComputedStyle(column).overflowY);
    if (own) {
      var box = column.getBoundingClientRect();
      above = Math.max(above, box.top);
      below = Math.min(below, box.bottom);
    }
    if (top >= above && bottom <= below) return; // already in sight
    var by = (top + bottom) / 2 - (above + below) / 2;
    if (own) column.scrollBy(0, by);
    else window.scrollBy(0, by);
  }

  function afterSwap() {
    reopenFolds();
    var victory = document.getElementById("r-victory");
    if (victory) victory.hidden = !victory.querySelector("h2");
    var battle = document.getElementById("r-battle");
    if (battle) battle.hidden = !battle.querySelector("svg");
    if (battle) battleInView(battle);
    if (selected && !choicesFor(selected).length && !reachOf(selected) && !surfaceOf(selected)) {
      selected = null;
    }
    applySelection();
    flagLosses();
    announce();
    if (refocus) {
      var el = document.querySelector(refocus);
      refocus = null;
      if (el && el.getAttribute("tabindex") !== null) el.setAttribute("tabindex", "0");
      if (el) el.focus({ preventScroll: true });
    }
    keepFocus();
  }

  // After every action the keyboard focus is on the board or the prompt, never lost on
  // <body> when what had it was replaced (issue 13).
  var lastZone = "prompt";
  document.addEventListener("focusin", function (e) {
    lastZone = e.target.closest && e.target.closest("svg.board, .board-scroll") ? "board" : "prompt";
  });

  function keepFocus(moving) {
    var active = document.activeElement;
    if (!moving && active && active !== body && document.contains(active)) return;
    var hex = lastZone === "board" && document.querySelector('svg.board [data-hex][tabindex="0"]');
    var to = hex || document.querySelector("#r-prompt .done") || document.getElementById("prompt-text");
    if (to) to.focus({ preventScroll: true });
  }

  // -- 3. clicks --------------------------------------------------------------------------
  function all(sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  }

  function choicesFor(key) {
    var group = document.querySelector('#act .choices[data-for="' + CSS.escape(key) + '"]');
    return group ? all("button", group) : [];
  }

  function generalChoices() {
    return all("#act .general button[data-target]");
  }

  function select(key) {
    selected = selected === key ? null : key;
    applySelection();
    revealTargets();
    var group = selected && document.querySelector('#act .choices[data-for="' + CSS.escape(selected) + '"]');
    // nothing to do with it now: the rules say why - also beside its reach shading when
    // the seat is asked something (Bombers 8: a land bomber not yet ready says till when)
    var asked = !!document.querySelector("#r-prompt .prompt-text.mine");
    if (selected && !group && !surfaceOf(selected) && (!reachOf(selected) || asked)) {
      whyNot(null, selected);
    } else {
      flash("", "info");
    }
  }

  function applySelection() {
    all(".selected").forEach(function (el) { el.classList.remove("selected"); });
    all(".target").forEach(function (el) { el.classList.remove("target"); });
    all(".box[role=button]").forEach(function (el) {
      el.removeAttribute("role");
      el.removeAttribute("tabindex");
    });
    all(".reach-home, .reach-only").forEach(function (el) {
      el.classList.remove("reach-home", "reach-only");
    });
    clearSurface();
    all("#act .choices").forEach(function (g) { g.hidden = true; });
    all("#act .subject").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    var picked = document.querySelector("#act .picked");
    var buttons = selected ? choicesFor(selected) : generalChoices();
    if (selected) {
      all('[data-key="' + CSS.escape(selected) + '"]').forEach(function (el) {
        el.classList.add("selected");
        if (el.classList.contains("subject")) el.setAttribute("aria-pressed", "true");
      });
      var group = document.querySelector('#act .choices[data-for="' + CSS.escape(selected) + '"]');
      if (group) group.hidden = false;
      shadeReach(selected);
      shadeSurface(selected);
    }
    all(".approach-mod").forEach(function (g) { // 4d3: what each approach hex will do
      g.classList.toggle("on", g.getAttribute("data-for") === selected);
    });
    if (picked) picked.hidden = !(selected && buttons.length);
    buttons.forEach(function (b) {
      var t = b.getAttribute("data-target");
      if (!t) return;
      all('[data-tkey="' + CSS.escape(t) + '"], [data-key="' + CSS.escape(t) + '"]').forEach(
        function (el) {
          el.classList.add("target");
          if (el.classList.contains("box")) { // a lit box can be reached with Tab
            el.setAttribute("role", "button");
            el.setAttribute("tabindex", "0");
          }
        }
      );
    });
    rove();
  }

  // On a narrow screen a board scrolls sideways: bring the first lit hex into sight.
  function revealTargets() {
    all(".board-scroll").forEach(function (box) {
      var lit = box.querySelector(".target[data-hex]");
      if (!lit) return;
      var b = box.getBoundingClientRect();
      var r = lit.getBoundingClientRect();
      if (r.left < b.left || r.right > b.right) {
        box.scrollLeft += r.left - b.left - (b.width - r.width) / 2;
      }
    });
  }

  function targetKey(el) {
    return el.getAttribute("data-tkey") || el.getAttribute("data-key");
  }

  function perform(key) {
    var pool = selected ? choicesFor(selected) : generalChoices();
    var hits = pool.filter(function (b) { return b.getAttribute("data-target") === key; });
    if (hits.length === 1) {
      hits[0].click();
      return true;
    }
    if (hits.length > 1) {
      hits.forEach(function (b) {
        b.classList.add("ambiguous");
        var fold = b.closest("details");
        if (fold) fold.open = true; // a folded list opens to show the choices there
      });
      hits[0].focus();
      flash("More than one choice there: pick one in the prompt.", "info");
      return true;
    }
    return false;
  }

  // -- stacks: one counter with a count; a click opens the list beside it (issue 13) ------
  function closeStacks(except) {
    all(".stack-pop").forEach(function (pop) {
      if (pop === except) return;
      pop.hidden = true;
      var opener = document.querySelector('[data-stack="' + CSS.escape(pop.dataset.stackOf) + '"]');
      if (opener) opener.setAttribute("aria-expanded", "false");
    });
  }

  function openStack(opener) {
    // no id: htmx would copy its style attribute onto the next one (refused by the CSP)
    var pop = document.querySelector('.stack-pop[data-stack-of="' + CSS.escape(opener.getAttribute("data-stack")) + '"]');
    if (!pop) return;
    closeStacks(pop);
    if (!pop.hidden) {
      pop.hidden = true;
      opener.setAttribute("aria-expanded", "false");
      return;
    }
    pop.hidden = false;
    opener.setAttribute("aria-expanded", "true");
    var host = pop.offsetParent ? pop.offsetParent.getBoundingClientRect() : { left: 0, top: 0, width: innerWidth };
    var hex = document.querySelector('[data-tkey="' + CSS.escape(opener.getAttribute("data-at")) + '"]');
    var r = (hex || opener).getBoundingClientRect(); // beside the hex, never over its neighbours
    var left = r.right - host.left + 6;
    if (left + pop.offsetWidth > host.width) left = Math.max(0, r.left - host.left - pop.offsetWidth - 6);
    pop.style.left = left + "px";
    pop.style.top = (r.top - host.top) + "px";
    var first = pop.querySelector(".stack-item");
    if (first) first.focus({ preventScroll: true });
  }

  // -- big news (a carrier sunk, Midway's base eliminated, the end): a banner read out,
  // once per entry of this seat's own log (issue 13) --------------------------------------
  var newsKey = storeKey + ":news";

  function announce() {
    var seen = parseInt(sessionStorage.getItem(newsKey) || "-1", 10);
    var fresh = all("#r-log li[data-big]").filter(function (li) {
      return parseInt(li.getAttribute("data-big"), 10) > seen;
    });
    if (!fresh.length) return;
    var news = document.getElementById("news");
    var texts = fresh.slice(0, 3).map(function (li) {
      var t = li.querySelector(".t");
      return li.textContent.replace(t ? t.textContent : "", "").trim();
    });
    news.querySelector(".news-text").textContent = texts.reverse().join(" · ");
    news.hidden = false;
    var top = Math.max.apply(null, fresh.map(function (li) { return parseInt(li.getAttribute("data-big"), 10); }));
    sessionStorage.setItem(newsKey, String(top));
  }

  // -- a Done that loses air units (5) asks first, in the page (issue 13) --------------
  function confirmLoss(open) {
    var panel = document.getElementById("confirm-loss");
    var ask = document.querySelector("#act .done.ask");
    if (!panel || !ask) return;
    panel.hidden = !open;
    ask.setAttribute("aria-expanded", open ? "true" : "false");
    (open ? panel.querySelector(".confirm-done") : ask).focus();
  }

  function flagLosses() {
    all(".at-risk-unit").forEach(function (el) { el.classList.remove("at-risk-unit"); });
    var note = document.querySelector("#r-prompt .at-risk[data-lost]");
    if (!note) return;
    note.getAttribute("data-lost").split(" ").forEach(function (key) {
      if (!key) return;
      all('[data-key="' + CSS.escape(key) + '"]').forEach(function (el) {
        if (!el.classList.contains("subject")) el.classList.add("at-risk-unit");
      });
    });
  }

  document.addEventListener("click", function (e) {
    if (e.target.closest("#act .done.ask")) { confirmLoss(true); return; }
    if (e.target.closest("#news .news-close")) {
      document.getElementById("news").hidden = true;
      keepFocus(true); // back to the board or the prompt
      return;
    }
    if (e.target.closest("#confirm-loss .keep")) { confirmLoss(false); return; }
    if (e.target.closest(".stack-close")) {
      var pop = e.target.closest(".stack-pop");
      closeStacks();
      var back = pop && document.querySelector('[data-stack="' + CSS.escape(pop.dataset.stackOf) + '"]');
      if (back) back.focus();
      return;
    }
    var opener = e.target.closest("[data-stack]");
    if (opener) {
      var hex = opener.getAttribute("data-at"); // a stack in a lit hex: the hex
      var lit = document.querySelector('[data-tkey="' + CSS.escape(hex) + '"].target');
      if (!(lit && perform(hex))) openStack(opener);
      return;
    }
    if (e.target.closest(".to-board")) {
      var first = document.querySelector("svg.board .target[data-hex]");
      if (first) first.focus();
      return;
    }
    var el = e.target.closest("[data-key], [data-tkey]");
    if (!el || el.closest("#act .choices, #act .general")) return;
    var lit = e.target.closest(".target"); // a lit box wins over a counter lying in it
    if (lit && perform(targetKey(lit))) return;
    var key = el.getAttribute("data-key");
    var at = el.getAttribute("data-at"); // a counter standing in a lit hex: the hex,
    var under = at && document.querySelector('[data-tkey="' + CSS.escape(at) + '"].target');
    var own = key && key !== selected && selectable(key); // unless it is one's own to pick
    if (under && !own && perform(at)) return;
    if (key) select(key);
    else whyNot(el);
  });

  function selectable(key) {
    return choicesFor(key).length > 0 || !!reachOf(key) || !!surfaceOf(key);
  }

  // An illegal click says why, with the rule (issue 13): the server asks the rules engine
  // what the click would be and why it is not legal (the words of the 422 for it).
  function clickOf(key) {
    var parts = (key || "").split(":");
    return { kind: parts[0], side: parts[1], name: parts[parts.length === 2 ? 1 : 2] };
  }

  function whyNot(el, subject) {
    var values = {};
    var who = subject !== undefined ? subject : selected;
    if (who) {
      var s = clickOf(who);
      values.subject = s.name;
      values.owner = s.side;
    }
    var t = el && targetKey(el);
    if (t && t !== who) {
      var c = clickOf(t);
      if (c.kind === "sb" || c.kind === "bb") values.hex = c.side;
      else if (c.kind === "box" || c.kind === "u") values.unit = c.name;
    }
    htmx.ajax("POST", "/games/" + game + "/why", { values: values, swap: "none", source: "#why" });
  }

  document.addEventListener("keydown", function (e) {
    var asking = document.querySelector("#confirm-loss:not([hidden])");
    if (e.key === "Escape" && asking) {
      confirmLoss(false);
      return;
    }
    var open = document.querySelector(".stack-pop:not([hidden])");
    if (e.key === "Escape" && open) {
      closeStacks();
      var back = document.querySelector('[data-stack="' + CSS.escape(open.dataset.stackOf) + '"]');
      if (back) back.focus();
      return;
    }
    if (e.key === "Escape" && selected) {
      select(selected);
      return;
    }
    var el = e.target;
    if (!(el instanceof Element)) return;
    var isSvgButton = el.getAttribute("role") === "button" && !(el instanceof HTMLButtonElement);
    if (isSvgButton && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return;
    }
    var board = el.closest("svg.board");
    if (board && el.hasAttribute("data-hex") && arrows[e.key]) {
      e.preventDefault();
      step(board, el, arrows[e.key]);
    }
  });

  // -- boards: roving focus over the hexes (or zones), arrow keys -------------------------
  var arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  // A cell's column and row as drawn: the server's data-xy (the Searchboard, hexes or the
  // theatre map's zones), else read from a hex code "K11" (the Battleboard).
  function position(el) {
    var xy = el.getAttribute("data-xy");
    if (xy) return xy.split(",").map(Number);
    var name = el.getAttribute("data-hex");
    return ["ABCDEFGHIJKLMNOPQRSTUVWXYZ".indexOf(name[0]), parseInt(name.slice(1), 10)];
  }

  function step(board, el, d) {
    var at = position(el);
    var col = at[0] + d[0], row = at[1] + d[1];
    var next = el.hasAttribute("data-xy")
      ? board.querySelector('[data-xy="' + col + "," + row + '"]')
      : col >= 0 && board.querySelector('[data-hex="' + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[col] + row + '"]');
    if (!next) return;
    el.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  }

  function rove() {
    all("svg.board").forEach(function (board) {
      var hexes = all("[data-hex]", board);
      if (!hexes.length) return;
      var current = hexes.filter(function (h) { return h.getAttribute("tabindex") === "0"; });
      var targets = hexes.filter(function (h) { return h.classList.contains("target"); });
      hexes.forEach(function (h) { h.setAttribute("tabindex", "-1"); });
      var keep = targets.length ? targets[0] : current[0] || hexes[0];
      keep.setAttribute("tabindex", "0");
    });
  }

  // -- reach: where a selected air unit can fly and still land (3d1, 5a2) --------------
  // The reach data is in parts (issue 34: what changed is sent alone): the landing
  // sites, where each carrier or base is, and each unit's members (app/web/searchboard.py).
  function idpart(key) { return key.replace(/[^A-Za-z0-9_-]/g, "-"); }
  function reachPart(id, attr) {
    var el = document.getElementById(id);
    var holder = document.getElementById("r-reach");
    if (!el || !holder || !holder.contains(el)) return null;
    return JSON.parse(el.getAttribute(attr));
  }
  function reachOf(key) {
    var unit = reachPart("ru-" + idpart(key), "data-r");
    if (!unit) return null;
    var by = document.getElementById("ru-" + idpart(key)).getAttribute("data-by");
    if (by !== null) unit.from = reachPart("rf-" + by, "data-from");
    var sites = reachPart("reach-sites", "data-sites");
    return unit.from && sites ? { unit: unit, sites: sites } : null;
  }

  // Each cell carries its coordinates (data-c: a hex's cube coordinates, a zone's x,y);
  // the distance between two cells is their largest difference, on either board. A place
  // is a cell's code, or [code, n]: a marked edge square n zones from an off-board base.
  function distances(cells) {
    var at = {};
    cells.forEach(function (cell) {
      at[cell.getAttribute("data-hex")] = cell.getAttribute("data-c").split(",").map(Number);
    });
    return function (h, place) {
      var far = 0, extra = 0;
      if (Array.isArray(place)) { extra = place[1]; place = place[0]; }
      var p = at[h], q = at[place];
      if (!p || !q) return Infinity;
      for (var i = 0; i < p.length; i++) far = Math.max(far, Math.abs(p[i] - q[i]));
      return far + extra;
    };
  }

  function nearest(distance, h, places) { // the nearest of a place or a list of places
    var list = Array.isArray(places) && Array.isArray(places[0]) ? places : [places];
    return Math.min.apply(null, list.map(function (p) { return distance(h, p); }));
  }

  function shadeReach(key) {
    var found = reachOf(key);
    if (!found) return;
    var cells = all('svg[data-board="sb"] [data-hex][data-c]');
    var distance = distances(cells);
    cells.forEach(function (cell) {
      var h = cell.getAttribute("data-hex");
      var from = nearest(distance, h, found.unit.from);
      var reachers = found.unit.members.filter(function (m) { return from <= m.left; });
      if (!reachers.length) return;
      var home = reachers.every(function (m) {
        return (found.sites[m.basing] || []).some(function (s) { return distance(h, s) <= m.move; });
      });
      cell.classList.add(home ? "reach-home" : "reach-only");
    });
  }

  // -- surface combat: a selected ship's gun range, half range, sectors, torpedo lines (16)
  var SURFACE = [
    ["torpedo", "torpedo-line", "T"],
    ["rear", "sector-rear", "R"],
    ["front", "sector-front", "F"],
    ["gun", "gun-range", "G"],
    ["half", "half-range", "½"]
  ];

  function surfaceOf(key) {
    var board = document.querySelector("#r-battle svg.board[data-surface]");
    if (!board || !key) return null;
    var data = JSON.parse(board.getAttribute("data-surface"));
    return data[key] || null;
  }

  function clearSurface() {
    all("#r-battle .hex.lit").forEach(function (cell) {
      cell.classList.remove("lit");
      SURFACE.forEach(function (s) { cell.classList.remove(s[1]); });
      var tag = cell.querySelector(".hl");
      if (tag) tag.textContent = "";
    });
    all("#r-battle [data-info]").forEach(function (p) { p.hidden = true; });
    var hint = document.querySelector("#r-battle .ship-info .hint");
    if (hint) hint.hidden = false;
  }

  function shadeSurface(key) {
    var found = surfaceOf(key);
    if (!found) return;
    var board = document.querySelector("#r-battle svg.board[data-surface]");
    var tags = {};
    SURFACE.forEach(function (s) {
      (found[s[0]] || []).forEach(function (h) {
        var cell = board.querySelector('[data-hex="' + CSS.escape(h) + '"]');
        if (!cell) return;
        cell.classList.add("lit", s[1]);
        tags[h] = (tags[h] || "") + s[2];
      });
    });
    Object.keys(tags).forEach(function (h) {
      var tag = board.querySelector('[data-hex="' + CSS.escape(h) + '"] .hl');
      // The half range implies the gun range: show the nearer one, then sector and line.
      if (tag) tag.textContent = tags[h].replace("G½", "½");
    });
    var info = document.querySelector('#r-battle [data-info="' + CSS.escape(key) + '"]');
    if (info) info.hidden = false;
    var hint = document.querySelector("#r-battle .ship-info .hint");
    if (hint && info) hint.hidden = true;
  }

  // -- the sticky prompt's room ------------------------------------------------------------
  // What the page scrolls to - a zone or hex stepped to with the arrow keys, a region
  // scrolled into view - stops below the sticky prompt bar, not under it (issue 30): the
  // page's scroll-padding-top is the bar's height while the bar sticks to the top.
  function promptRoom() {
    var bar = document.getElementById("r-prompt");
    var sticky = bar && getComputedStyle(bar).position === "sticky";
    var room = sticky ? Math.ceil(bar.getBoundingClientRect().height) + 8 : 0;
    document.documentElement.style.setProperty("--prompt-room", room + "px");
  }
  document.addEventListener("htmx:oobAfterSwap", promptRoom);
  document.addEventListener("htmx:afterSettle", promptRoom);
  window.addEventListener("resize", promptRoom);
  document.addEventListener("DOMContentLoaded", promptRoom);

  // -- start ------------------------------------------------------------------------------
  document.addEventListener("DOMContentLoaded", function () {
    if (!token) {
      flash(
        "This page needs its seat link: open the link you were given (with #token=… at the end).",
        "error"
      );
      setConn("closed", "Not connected");
      return;
    }
    htmx.trigger(body, "midway:load");
  });
})();
