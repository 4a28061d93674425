/* The create form (issue 13): optional rules that need another are ticked with it and
 * unticked without it (15b needs 14; 16f5 and 16k need 16), a scenario that brings an
 * option ticks and locks it (7e: Scenario Four brings 16), one a scenario is not played
 * with unticks and locks it (the expansion's scenarios have no scouts: 12d, 15b, 15c), and
 * the presets tick boxes.
 * The server checks the same (scenarios/options.toml): this only saves a refusal. */
(function () {
  "use strict";
  var form = document.querySelector("form.newgame");
  if (!form) {
    return;
  }
  function box(rule) {
    return form.querySelector('input[name=options][value="' + rule + '"]');
  }
  function boxes() {
    return Array.prototype.slice.call(form.querySelectorAll("input[name=options]"));
  }
  function words(el, name) {
    var raw = el && el.getAttribute(name);
    return raw ? raw.split(" ").filter(Boolean) : [];
  }
  function brought() {
    var scenario = form.querySelector("input[name=scenario]:checked");
    return words(scenario, "data-brings");
  }
  function refused() {
    var scenario = form.querySelector("input[name=scenario]:checked");
    return words(scenario, "data-refuses");
  }
  function settle(changed) {
    var locked = brought();
    var barred = refused();
    boxes().forEach(function (b) {
      var lock = locked.indexOf(b.value) >= 0;
      var bar = barred.indexOf(b.value) >= 0;
      if (lock) {
        b.checked = true;
      }
      if (bar) {
        b.checked = false;
      }
      b.disabled = lock || bar; // a disabled box is not sent: brought anyway, or refused
    });
    if (changed && changed.checked) {
      words(changed, "data-needs").forEach(function (rule) {
        var need = box(rule);
        if (need) {
          need.checked = true;
        }
      });
    }
    var again = true;
    while (again) {
      again = false;
      boxes().forEach(function (b) {
        if (!b.checked) {
          return;
        }
        var missing = words(b, "data-needs").some(function (rule) {
          var need = box(rule);
          return !need || !need.checked;
        });
        if (missing) {
          b.checked = false;
          again = true;
        }
      });
    }
  }
  form.addEventListener("change", function (e) {
    var t = e.target;
    if (t && t.name === "options") {
      settle(t);
    } else if (t && t.name === "scenario") {
      settle(null);
    }
  });
  form.querySelectorAll("button.preset").forEach(function (button) {
    button.addEventListener("click", function () {
      var rules = words(button, "data-preset");
      boxes().forEach(function (b) {
        b.checked = rules.indexOf(b.value) >= 0;
      });
      settle(null);
    });
  });
  settle(null);
})();
