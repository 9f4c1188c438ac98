// Live pages (games/live.py): the element [data-live-head] asks its head address every few
// seconds; when the version it answers differs from the page's, the page is fetched again (its
// live part alone where the element gives that address, data-live-part: the game page's
// ?part=live; a spectator's, data-live-public, the same for every spectator) and that element is
// swapped for the new one. The tab title follows the page ("Your turn — ...").
// A decision form the player has begun to fill is kept as it is, with a note that the game moved.
// Browser notifications, when the player asked for them, say when a decision of theirs opens.
// A head that answers 429 (asked too often from this connection) is asked again after the
// Retry-After it gives, and after twice as long at each refusal in a row (at most 5 minutes).
// Without JavaScript nothing here runs and every page works as before.
// The words it shows come from the page, in the page's language (data-* attributes rendered by
// the templates: data-live-*, the notify button's data-start / data-stop, a builder total's
// data-of-one / data-of-many); English is the fallback.
(function () {
  "use strict";
  var STORE_KEY = "inis-notify";

  // -- notifications: opt-in button in the header ------------------------------------------
  function notifySupported() { return "Notification" in window; }
  function notifyWanted() {
    return notifySupported() && Notification.permission === "granted" && localStorage.getItem(STORE_KEY) === "1";
  }
  function words(element, name, fallback) {
    return (element && element.getAttribute(name)) || fallback;
  }
  function showNotifyButton() {
    var button = document.getElementById("notify-toggle");
    if (!button || !notifySupported() || Notification.permission === "denied") return;
    button.hidden = false;
    button.textContent = notifyWanted() ? words(button, "data-stop", "Stop notifications")
                                        : words(button, "data-start", "Notify me when it is my turn");
    button.setAttribute("aria-pressed", notifyWanted() ? "true" : "false");
    button.onclick = function () {
      if (notifyWanted()) {
        localStorage.removeItem(STORE_KEY);
        showNotifyButton();
        return;
      }
      Notification.requestPermission().then(function (permission) {
        if (permission === "granted") localStorage.setItem(STORE_KEY, "1");
        if (permission === "denied") {
          // Refused (now or before, in the browser's settings): say so rather than stay unchanged.
          button.textContent = words(button, "data-denied", "Notifications blocked in this browser");
          button.disabled = true;
          return;
        }
        showNotifyButton();
      });
    };
  }
  function notifyTurn(title) {
    if (!notifyWanted()) return;
    try {
      new Notification(words(live, "data-live-notify-title",
                            words(document.getElementById("notify-toggle"), "data-title", "Inis: your turn")),
                       { body: title, tag: "inis-turn" });
    } catch (e) { /* some browsers allow notifications only from a service worker */ }
  }

  // -- polling -------------------------------------------------------------------------------
  var live = document.querySelector("[data-live-head]");
  var every = 4000;
  var dirty = false;   // the player has begun to fill a decision form
  var timer = null;
  var backoff = 0;     // ms: the last wait after a refusal (429), 0 while the head answers
  var resumeAt = 0;    // Date.now() before which no head is asked (after a refusal)
  var MAX_BACKOFF = 5 * 60 * 1000;

  function markDirty(event) {
    if (event.target.closest && event.target.closest("#decision form")) dirty = true;
  }

  function schedule() {
    clearTimeout(timer);
    var wait = Math.max(document.hidden ? every * 3 : every, resumeAt - Date.now());
    timer = setTimeout(poll, wait);
  }

  function refused(response) {
    // Retry-After in seconds; twice the last wait when that is longer (several tabs refused in turn).
    var told = parseInt(response.headers.get("Retry-After"), 10) * 1000 || 0;
    backoff = Math.min(MAX_BACKOFF, Math.max(told, backoff * 2, every * 2));
    resumeAt = Date.now() + backoff;
  }

  function poll() {
    if (Date.now() < resumeAt) return schedule();
    var headUrl = live.getAttribute("data-live-head");
    var asked = { "Accept": "application/json" };
    // The token naming the page's viewer (web/head_viewer.py): the head reads no session.
    var viewer = live.getAttribute("data-live-viewer");
    if (viewer) asked["X-Inis-Viewer"] = viewer;
    fetch(headUrl, { credentials: "same-origin", cache: "no-store", headers: asked })
      .then(function (response) {
        if (response.status === 429) { refused(response); return null; }
        backoff = 0;
        return response.ok ? response.json() : null;
      })
      .then(function (head) {
        if (head && head.viewer) live.setAttribute("data-live-viewer", head.viewer);
        if (head && head.version !== live.getAttribute("data-live-version")) return refresh(head);
      })
      .catch(function () { /* offline for a moment: ask again later */ })
      .then(schedule);
  }

  function refresh(head) {
    var wasMyTurn = live.getAttribute("data-live-your-turn") === "1";
    // A spectator's page fetches the part every spectator shares, at the head's version, without
    // its cookies (web/spectator_part.py); a player's, their own live part.
    var shared = live.getAttribute("data-live-public");
    var address = shared ? shared + "?v=" + encodeURIComponent(head.version)
                         : live.getAttribute("data-live-part") || location.href;
    var asked = shared ? { credentials: "omit" } : { credentials: "same-origin", cache: "no-store" };
    return fetch(address, asked)
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-live-head]");
        if (!fresh) return;
        fresh = document.adoptNode(fresh);
        // The part every spectator shares names no viewer: the page keeps its own token.
        if (!fresh.hasAttribute("data-live-viewer") && live.getAttribute("data-live-viewer")) {
          fresh.setAttribute("data-live-viewer", live.getAttribute("data-live-viewer"));
        }
        var keep = dirty && document.getElementById("decision");
        var slot = keep && fresh.querySelector("#decision");
        if (slot) {
          var note = document.createElement("p");
          note.className = "notice bad";
          note.setAttribute("role", "status");
          note.textContent = words(live, "data-live-moved-on", "The game has moved on while you were choosing: check the island before you send, or reload the page for the new decision.");
          var old = keep.querySelector(".moved-on");
          if (old) old.remove();
          note.classList.add("moved-on");
          keep.insertBefore(note, keep.firstChild.nextSibling);
          slot.replaceWith(keep);
        } else {
          dirty = false;
        }
        // The island stays zoomed as it was (templates/games/_board.html).
        var zoom = document.getElementById("island-zoom");
        var freshZoom = fresh.querySelector("#island-zoom");
        if (zoom && freshZoom) freshZoom.checked = zoom.checked;
        live.replaceWith(fresh);
        live = fresh;
        builders(live);
        document.title = doc.title;
        var announce = document.getElementById("live-status");
        if (announce) announce.textContent = live.getAttribute("data-live-said") || words(live, "data-live-updated", "Updated.");
        var nowMyTurn = live.getAttribute("data-live-your-turn") === "1" || !!(head && head.your_turn);
        if (nowMyTurn && !wasMyTurn) notifyTurn(document.title);
      });
  }

  // -- decision builders: destinations narrowed by the origin, a running total ----------------
  // A builder form (games/decision_forms.py) may carry data-link: for each value of its choice
  // (a Migration's origin, a Conquest's territory), the keys that may be counted and how many.
  // The script hides the other keys' inputs (setting them to 0, so they are not sent) and says
  // "2 of 3 clans" as the player counts. The server checks everything again.
  function builderUpdate(form) {
    var link = null;
    try { link = JSON.parse(form.getAttribute("data-link") || "null"); } catch (e) { link = null; }
    var most = Number(form.getAttribute("data-max-total")) || 0;
    var countsName = link ? link.counts : null;
    var entry = null;
    if (link) {
      var select = form.querySelector("select[name='f:" + link.choice + "']");
      entry = select ? link.by_value[select.value] || null : null;
      if (entry) most = entry.max;
    }
    var total = 0;
    var inputs = form.querySelectorAll("input[type=number]");
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      var label = input.closest("label[data-key]");
      var parts = input.name.split(":");
      if (countsName && parts[1] === countsName && label && entry) {
        var key = label.getAttribute("data-key");
        var allowed = entry.keys.indexOf(key) >= 0;
        label.hidden = !allowed;
        if (!allowed) input.value = "0";
        input.max = String(allowed ? entry.per_key[key] : 0);
      }
      total += Math.max(0, parseInt(input.value, 10) || 0);
    }
    var out = form.querySelector(".total");
    if (out && most) {
      var text = most === 1 ? words(out, "data-of-one", "{total} of {most} clan") : words(out, "data-of-many", "{total} of {most} clans");
      out.textContent = text.replace("{total}", total).replace("{most}", most);
    }
  }
  function builders(root) {
    var forms = root.querySelectorAll("form[data-link], form[data-max-total]");
    for (var i = 0; i < forms.length; i++) builderUpdate(forms[i]);
  }
  function builderEvent(event) {
    var form = event.target.closest && event.target.closest("form[data-link], form[data-max-total]");
    if (form) builderUpdate(form);
  }
  document.addEventListener("input", builderEvent);
  document.addEventListener("change", builderEvent);
  builders(document);

  // -- a tapped territory shows its details (its SVG <title>, a tooltip only on hover) ---------
  function territoryDetails(event) {
    var target = event.target;
    var territory = target && target.closest && target.closest(".island-scroll g.territory");
    var box = document.getElementById("territory-details");
    if (!territory || !box) return;
    var title = territory.querySelector("title");
    if (!title) return;
    box.textContent = title.textContent.trim();
    box.hidden = false;
  }
  document.addEventListener("click", territoryDetails);

  // -- confirm a move that ends the turn or starts a fight (web/confirm.py) --------------------
  // A decision form with data-confirm, on a page whose #confirm-moves says the player wants it,
  // opens a dialog naming the move; "Confirm" sends the form with confirmed=1 (the server then
  // asks no more), "Go back" closes it. Without this script the server asks on a page instead.
  function moveWords(form, submitter) {
    var checked = form.querySelector("input[type=radio]:checked");
    var label = checked && checked.closest("label");
    if (label) return label.textContent.trim();
    if (submitter && submitter.name !== "confirmed" && form.querySelectorAll("button[type=submit]").length === 1 &&
        form.querySelector("input[type=hidden][name=choice]")) return submitter.textContent.trim();
    var legend = form.querySelector("legend");
    return legend ? legend.textContent.trim() : "";
  }
  function confirmMove(event) {
    var form = event.target;
    var settings = document.getElementById("confirm-moves");
    if (!form.matches || !form.matches("form[data-confirm]") || !settings ||
        settings.getAttribute("data-confirm-moves") !== "1" || form.querySelector("input[name=confirmed]")) return;
    if (!window.HTMLDialogElement) return;  // the server's confirm step asks instead
    event.preventDefault();
    var dialog = document.createElement("dialog");
    dialog.className = "confirm-move";
    dialog.setAttribute("aria-labelledby", "confirm-move-text");
    var text = document.createElement("p");
    text.id = "confirm-move-text";
    var move = document.createElement("strong");
    move.textContent = moveWords(form, event.submitter);
    text.appendChild(move);
    var ask = document.createElement("p");
    ask.textContent = form.getAttribute("data-confirm");
    var yes = document.createElement("button");
    yes.type = "button";
    yes.textContent = words(settings, "data-confirm-yes", "Confirm");
    var no = document.createElement("button");
    no.type = "button";
    no.className = "secondary";
    no.textContent = words(settings, "data-confirm-no", "Go back");
    dialog.appendChild(text);
    dialog.appendChild(ask);
    dialog.appendChild(yes);
    dialog.appendChild(document.createTextNode(" "));
    dialog.appendChild(no);
    document.body.appendChild(dialog);
    no.onclick = function () { dialog.close(); dialog.remove(); };  // at once: nothing of it lingers
    dialog.addEventListener("close", function () { dialog.remove(); });
    yes.onclick = function () {
      var confirmed = document.createElement("input");
      confirmed.type = "hidden";
      confirmed.name = "confirmed";
      confirmed.value = "1";
      form.appendChild(confirmed);
      dialog.close();
      if (event.submitter && event.submitter.name) {  // keep the pressed button's value
        var pressed = document.createElement("input");
        pressed.type = "hidden";
        pressed.name = event.submitter.name;
        pressed.value = event.submitter.value;
        form.appendChild(pressed);
      }
      form.submit();
    };
    dialog.showModal();
    yes.focus();
  }
  document.addEventListener("submit", confirmMove);

  // -- the countdown beside a deadline (web.pages.time_left: the same words) ------------------
  function countdowns() {
    var times = document.querySelectorAll("time.countdown[datetime]");
    for (var i = 0; i < times.length; i++) {
      var t = times[i];
      var minutes = Math.floor((Date.parse(t.getAttribute("datetime")) - Date.now()) / 60000);
      if (isNaN(minutes)) continue;
      var text;
      if (minutes < 1) text = words(t, "data-left-up", "the time is up");
      else if (minutes >= 1440) text = words(t, "data-left-days", "{days} d {hours} h left")
        .replace("{days}", Math.floor(minutes / 1440)).replace("{hours}", Math.floor(minutes % 1440 / 60));
      else if (minutes >= 60) text = words(t, "data-left-hours", "{hours} h {minutes} min left")
        .replace("{hours}", Math.floor(minutes / 60)).replace("{minutes}", minutes % 60);
      else text = words(t, "data-left-minutes", "{minutes} min left").replace("{minutes}", minutes);
      t.textContent = text;
    }
  }
  countdowns();
  setInterval(countdowns, 30000);

  showNotifyButton();
  if (live && window.fetch && window.DOMParser) {
    every = Number(live.getAttribute("data-live-every")) || every;
    document.addEventListener("input", markDirty);
    document.addEventListener("change", markDirty);
    // Back in view: ask at once rather than at the end of a long hidden-tab wait.
    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
    schedule();
  }
})();
