/* Midway Online: between moves (no build step).
 *
 * Home page: "My games" (every seat link this browser opened, kept in localStorage, each
 * with its scenario, Turn and "your move / waiting / finished", a copy and a send button)
 * and the lobby (games opened to anyone; Join takes a free seat's link, once).
 * Seat page: the page remembers its seat link; every few seconds (and after each live
 * update) it sends its pulse and hears back whose move it is, who is online, and the new
 * chat. Your move shows in the tab title and favicon, with an optional sound and, if the
 * player asked for it by a click, the browser's notification. Chat is rendered as text.
 * A game with a pace shows each seat's due time and vacation left, and a Claim button
 * once the opponent is overdue; the seat can ask for your-move notices away from the page
 * (email, webhook, a reminder after some hours).
 */
(function () {
  "use strict";
  var MINE = "midway:mygames";
  var PULSE_MS = 2500;

  function all(sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text; // text only: never markup
    return e;
  }

  function myGames() {
    try {
      var list = JSON.parse(localStorage.getItem(MINE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (err) {
      return [];
    }
  }

  function remember(game, seat, token) {
    var list = myGames().filter(function (g) { return !(g.game === game && g.seat === seat); });
    list.unshift({ game: game, seat: seat, token: token, opened: new Date().toISOString() });
    localStorage.setItem(MINE, JSON.stringify(list.slice(0, 200)));
  }

  function forget(game, seat) {
    var list = myGames().filter(function (g) { return !(g.game === game && g.seat === seat); });
    localStorage.setItem(MINE, JSON.stringify(list));
  }

  function linkOf(g) {
    return location.origin + "/games/" + g.game + "/seat/" + g.seat + "#token=" + g.token;
  }

  function api(method, path, token, body) {
    var headers = { "Content-Type": "application/json" };
    if (token) headers["Authorization"] = "Bearer " + token;
    return fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    }).then(function (r) {
      return r.json().then(
        function (data) { return { ok: r.ok, status: r.status, data: data }; },
        function () { return { ok: false, status: r.status, data: {} }; }
      );
    });
  }

  function refusal(r, otherwise) { // the server's reason: a string, or FastAPI's list of errors
    var d = r.data.detail;
    if (typeof d === "string") return d;
    if (Array.isArray(d) && d.length && d[0].msg) return d[0].msg;
    return otherwise;
  }

  // -- the home page ----------------------------------------------------------------------

  function homePage() {
    var box = document.getElementById("my-games");
    if (box) showMyGames(box);
    var lobby = document.getElementById("lobby");
    if (lobby) showLobby(lobby);
    all("a.seat-link").forEach(function (a) { // the created page: its links are ours
      var m = a.href.match(/\/games\/([0-9a-f]{16})\/seat\/([\w-]+)#token=([\w-]+)/);
      if (m) a.addEventListener("click", function () { remember(m[1], m[2], m[3]); });
    });
  }

  function showMyGames(box) {
    var list = myGames();
    var rows = box.querySelector("tbody");
    rows.textContent = "";
    box.hidden = list.length === 0;
    list.forEach(function (g) {
      var tr = el("tr", { "data-game": g.game, "data-seat": g.seat });
      var open = el("a", { href: linkOf(g), class: "open-seat" }, "Open");
      var scenario = el("td", { class: "scenario" }, "…");
      var turn = el("td", { class: "turn" }, "");
      var state = el("td", { class: "state" }, "…");
      var tools = el("td", { class: "tools" });
      var copy = el("button", { type: "button", class: "copy" }, "Copy link");
      copy.addEventListener("click", function () {
        var done = function () { copy.textContent = "Copied"; };
        if (navigator.clipboard) navigator.clipboard.writeText(linkOf(g)).then(done, done);
      });
      var send = el("a", {
        class: "send",
        href: "mailto:?subject=" + encodeURIComponent("Midway Online: your seat link") +
          "&body=" + encodeURIComponent(linkOf(g)),
      }, "Send");
      var drop = el("button", { type: "button", class: "forget" }, "Forget");
      drop.addEventListener("click", function () { forget(g.game, g.seat); showMyGames(box); });
      tools.append(copy, " ", send, " ", drop);
      var seatCell = el("td", { class: "seat" }, g.seat);
      var first = el("td");
      first.append(open);
      tr.append(first, scenario, seatCell, turn, state, tools);
      rows.append(tr);
      api("GET", "/api/games/" + g.game + "/glance", g.token).then(function (r) {
        if (!r.ok) {
          state.textContent = r.status === 404 ? "gone" : "link no longer valid";
          return;
        }
        scenario.textContent = r.data.scenario_name;
        turn.textContent = "Turn " + r.data.turn;
        state.textContent = r.data.state;
        tr.dataset.state = r.data.state;
      });
    });
  }

  function showLobby(box) {
    var rows = box.querySelector("tbody");
    api("GET", "/api/lobby").then(function (r) {
      rows.textContent = "";
      var games = r.ok ? r.data : [];
      box.querySelector(".empty").hidden = games.length > 0;
      games.forEach(function (g) {
        var tr = el("tr", { "data-game": g.id });
        var join = el("td", { class: "join" });
        g.seats_free.forEach(function (seat) {
          var b = el("button", { type: "button", class: "join-seat", "data-seat": seat },
            "Join as " + seat);
          b.addEventListener("click", function () { joinGame(g.id, seat, b); });
          join.append(b, " ");
        });
        tr.append(
          el("td", {}, g.scenario_name),
          el("td", {}, g.options.length ? g.options.join(", ") : "basic game"),
          el("td", {}, g.mode),
          el("td", {}, g.pace || "no pace"),
          el("td", {}, g.seats_free.join(", ")),
          join
        );
        rows.append(tr);
      });
    });
  }

  function joinGame(game, seat, button) {
    button.disabled = true;
    api("POST", "/api/lobby/" + game + "/join", null, { seat: seat }).then(function (r) {
      if (!r.ok) {
        button.textContent = r.data.detail || "could not join";
        return;
      }
      var m = r.data.url.match(/#token=([\w-]+)/);
      remember(game, r.data.seat, m[1]);
      location.href = r.data.url;
    });
  }

  // -- the seat page ----------------------------------------------------------------------

  function seatPage() {
    var body = document.body;
    var game = body.dataset.game;
    var seat = body.dataset.seat;
    var token = sessionStorage.getItem("midway:" + game + ":" + seat);
    if (!token) return;
    remember(game, seat, token);
    var place = sessionStorage.getItem("midway:place");
    if (!place) {
      place = Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(8)), function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
      sessionStorage.setItem("midway:place", place);
    }
    var baseTitle = document.title;
    var since = 0;
    var yourMove = null;
    var shownPace = null;
    var panel = buildPanel();
    var waiting = null;

    function buildPanel() {
      var aside = el("aside", { id: "between", class: "region between", "aria-label": "Players and chat" });
      var presence = el("p", { id: "presence", role: "status" }, "");
      var twice = el("p", { id: "elsewhere", class: "flash stale", hidden: "" },
        "This seat is also open in another place.");
      var notices = el("p", { class: "notices" });
      var sound = el("input", { type: "checkbox", id: "sound" });
      sound.checked = localStorage.getItem("midway:sound") === "1";
      sound.addEventListener("change", function () {
        localStorage.setItem("midway:sound", sound.checked ? "1" : "0");
      });
      var soundLabel = el("label", { for: "sound" }, " sound on your move ");
      var ask = el("button", { type: "button", id: "notify" }, "Notify me on my move");
      ask.hidden = !("Notification" in window) || Notification.permission !== "default";
      ask.addEventListener("click", function () { // asked on a click, never on load
        Notification.requestPermission().then(function () { ask.hidden = true; });
      });
      notices.append(sound, soundLabel, ask);
      var log = el("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite" });
      var form = el("form", { id: "chat-form", class: "chat-form" });
      var input = el("input", { id: "chat-text", name: "text", maxlength: "500",
        autocomplete: "off", "aria-label": "Message" });
      var to = el("select", { id: "chat-to", name: "audience", "aria-label": "To" });
      var send = el("button", { type: "submit" }, "Send");
      var why = el("p", { id: "chat-why", class: "hint", role: "alert" }, "");
      var closed = el("p", { id: "chat-closed", class: "hint", hidden: "" }, "");
      form.append(el("label", { for: "chat-to" }, "To "), to, " ", input, " ", send);
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var text = input.value;
        if (!text.trim()) return;
        var audience = to.value || "all"; // before the first pulse: the server says if not
        api("POST", "/api/games/" + game + "/chat", token, { audience: audience, text: text })
          .then(function (r) {
            why.textContent = r.ok ? "" : r.data.detail || "not sent";
            if (r.ok) input.value = "";
            pulse();
          });
      });
      var pace = el("div", { id: "pace", class: "pace", hidden: "" });
      aside.append(el("h2", {}, "Players and chat"), presence, twice, pace, notices, log, form, closed,
        why, awayForm());
      var side = document.querySelector(".col-side") || document.getElementById("main") || body;
      side.append(aside);
      return { presence: presence, twice: twice, log: log, sound: sound, pace: pace, form: form,
        to: to, closed: closed };
    }

    function awayForm() { // your-move notices away from the page, opted into per seat
      var details = el("details", { id: "away", class: "away" });
      details.append(el("summary", {}, "Tell me of my move by email or webhook"));
      var form = el("form", { id: "away-form" });
      var fields = [
        ["away-email", "email", "Email", "email", "you@example.org"],
        ["away-webhook", "url", "Webhook (JSON POST)", "webhook", "https://chat.example/hook"],
        ["away-hours", "number", "Remind me after (hours)", "remind_hours", ""],
      ];
      var inputs = {};
      fields.forEach(function (f) {
        var input = el("input", { id: f[0], type: f[1], name: f[3], placeholder: f[4] });
        if (f[1] === "number") { input.min = "1"; input.max = "720"; }
        inputs[f[3]] = input;
        form.append(el("label", { for: f[0] }, f[2]), input);
      });
      var save = el("button", { type: "submit" }, "Save");
      var said = el("p", { id: "away-said", class: "hint", role: "status" }, "");
      form.append(save, said);
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var hours = inputs.remind_hours.value;
        api("PUT", "/api/games/" + game + "/notices", token, {
          email: inputs.email.value.trim() || null,
          webhook: inputs.webhook.value.trim() || null,
          remind_hours: hours ? parseInt(hours, 10) : null,
        }).then(function (r) {
          if (!r.ok) { said.textContent = refusal(r, "not saved"); return; }
          var how = [r.data.email ? "email" : "", r.data.webhook ? "webhook" : ""].filter(Boolean);
          said.textContent = how.length
            ? "Saved: notices by " + how.join(" and ") +
              (r.data.remind_hours ? ", a reminder after " + r.data.remind_hours + " h" : "") + "."
            : "Saved: no notices away from the page.";
        });
      });
      details.append(form);
      return details;
    }

    function showPace(p) {
      var box = panel.pace;
      var key = JSON.stringify(p || null);
      if (key === shownPace) return; // drawn again only when it changed
      shownPace = key;
      box.hidden = !p;
      if (!p) return;
      box.textContent = "";
      box.append(el("h3", {}, "Pace: " + p.days_per_move + " day" + (p.days_per_move === 1 ? "" : "s") +
        " a move, " + p.vacation_days + " days of vacation each"));
      var list = el("ul", { class: "pace-seats" });
      Object.keys(p.seats).sort().forEach(function (s) {
        var it = p.seats[s];
        var text = (s === seat ? "You" : s) + ": " +
          (it.due ? (it.overdue ? "overdue since " : "due ") + when(it.due) : "not to move") +
          "; vacation left " + it.vacation_left_hours + " h";
        list.append(el("li", { class: it.overdue ? "overdue" : "" }, text));
      });
      box.append(list);
      if (p.claimed_by) {
        box.append(el("p", { class: "flash" }, "The game was claimed by " +
          (p.claimed_by === seat ? "you" : p.claimed_by) + "."));
      } else if (p.may_claim) {
        var claim = el("button", { type: "button", id: "claim" }, "Claim the game (opponent overdue)");
        var said = el("p", { class: "hint", role: "alert" }, "");
        claim.addEventListener("click", function () {
          claim.disabled = true;
          api("POST", "/api/games/" + game + "/claim", token).then(function (r) {
            said.textContent = r.ok ? "" : refusal(r, "not claimed");
            pulse();
          });
        });
        box.append(claim, said);
      }
    }

    function when(iso) {
      var d = new Date(iso);
      return isNaN(d) ? iso : d.toLocaleString();
    }

    function showPresence(p) {
      var others = Object.keys(p.seats).filter(function (s) { return s !== seat; });
      var known = others.map(function (s) {
        var it = p.seats[s];
        return s + ": " + (it.online ? "online" : "last seen " + when(it.last_seen));
      });
      panel.presence.textContent = known.length ? known.join("; ") : "Your opponent has not opened the game yet.";
      panel.twice.hidden = p.elsewhere === 0;
    }

    var channelWords = {};

    function showChannels(c) { // the channels the server takes now (17c1, 17c3, 18a)
      var wanted = c.to.map(function (x) { return x.audience; }).join(" ");
      if (panel.to.dataset.offered !== wanted) {
        var kept = panel.to.value;
        panel.to.replaceChildren();
        c.to.forEach(function (x) {
          channelWords[x.audience] = x.label;
          panel.to.append(el("option", { value: x.audience }, x.label));
        });
        if (wanted.split(" ").indexOf(kept) >= 0) panel.to.value = kept;
        panel.to.dataset.offered = wanted;
      }
      panel.form.hidden = c.to.length === 0;
      panel.closed.hidden = c.to.length > 0;
      panel.closed.textContent = c.closed ? "No chat for you now: " + c.closed : "";
    }

    function whereTo(m) {
      if (m.audience === "all") return "";
      if (m.audience === "seat:" + seat) return " (to you)";
      if (m.audience === "side:" + seat.split("-")[0]) return " (to your side)";
      if (m.audience === "seat:umpire") return " (to the umpire)";
      return " (to " + (channelWords[m.audience] || m.audience.replace(/^(seat|side):/, "")) + ")";
    }

    function showChat(messages) {
      messages.forEach(function (m) {
        var li = el("li", { "data-seq": String(m.seq), class: "chat " + m.seat });
        li.append(el("strong", {}, m.seat + whereTo(m) + ": "), document.createTextNode(m.text));
        panel.log.append(li);
        since = Math.max(since, m.seq);
      });
    }

    function beep() {
      try {
        var ctx = new (window.AudioContext || window.webkitAudioContext)();
        var osc = ctx.createOscillator();
        osc.frequency.value = 660;
        osc.connect(ctx.destination);
        osc.start();
        osc.stop(ctx.currentTime + 0.15);
      } catch (err) { /* no sound here */ }
    }

    function favicon(on) {
      var link = document.querySelector("link[rel=icon]");
      if (!link) return;
      if (!link.dataset.idle) link.dataset.idle = link.getAttribute("href");
      link.href = on
        ? "data:image/svg+xml," + encodeURIComponent(
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#c0392b"/></svg>')
        : link.dataset.idle;
    }

    function showMove(g) {
      var now = !!g.your_move;
      document.title = (now ? "\u25cf Your move - " : g.state === "finished" ? "Finished - " : "") + baseTitle;
      favicon(now);
      body.dataset.yourMove = now ? "1" : "0";
      if (now && yourMove === false) {
        if (panel.sound.checked) beep();
        if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
          new Notification("Midway Online: your move", { body: baseTitle });
        }
      }
      yourMove = now;
    }

    function pulse() {
      api("POST", "/api/games/" + game + "/pulse", token, { place: place, since: since })
        .then(function (r) {
          if (!r.ok) return;
          showMove(r.data.glance);
          showPace(r.data.glance.pace);
          showPresence(r.data.presence);
          showChannels(r.data.channels);
          showChat(r.data.chat);
        }, function () { /* offline: the next pulse tries again */ });
    }

    function soon() { // after a live update: look again shortly, once
      if (waiting) return;
      waiting = setTimeout(function () { waiting = null; pulse(); }, 150);
    }

    document.addEventListener("htmx:wsAfterMessage", soon);
    pulse();
    setInterval(pulse, PULSE_MS);
  }

  if (document.body.classList.contains("seat-page")) seatPage();
  else homePage();
})();
