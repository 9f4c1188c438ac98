// Turning web push on and off on this device (docs/notifications.md). The element
// [data-push] carries the server's VAPID public key (data-key), where to post the subscription
// (data-add, data-remove), where to ask whether this browser's subscription is one of the
// signed-in player's devices (data-known), the service worker's address (data-worker) and the
// words to show, in the page's language (data-on, data-off, data-done-on, data-done-off,
// data-denied, data-unsupported). The subscription is posted as the browser gives it
// (PushSubscription's JSON) with the page's CSRF token. Without JavaScript or without push, the
// button stays hidden.
// Push shows as on here only when the server knows this browser's subscription as a device of
// the signed-in player: signing out removes the device turned on in that browser while the
// browser keeps its subscription, and whoever signs in there next is offered "Turn on".
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box) return;
  var button = box.querySelector("button");
  var status = box.querySelector("[data-push-status]");
  function say(name) { if (status) status.textContent = box.getAttribute(name) || ""; }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) { say("data-unsupported"); return; }

  function key() {
    var text = box.getAttribute("data-key").replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(text + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.error || response.statusText);
        return answer;
      });
    });
  }
  function registration() {
    return navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; });
  }
  var on = false;
  function known(subscription) {
    var url = box.getAttribute("data-known");
    if (!subscription || !url) return Promise.resolve(!!subscription);
    return post(url, { endpoint: subscription.endpoint }).then(
      function (answer) { return !!answer.known; },
      function () { return true; }  // not answered: as before, the browser's word
    );
  }
  function show(now) {
    on = now;
    button.hidden = false;
    button.textContent = box.getAttribute(on ? "data-off" : "data-on");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
  function turnOn() {
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say("data-denied"); return; }
      return registration().then(function (reg) {
        return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key() });
      }).then(function (subscription) {
        var body = subscription.toJSON();
        body.device = navigator.userAgent.slice(0, 100);
        return post(box.getAttribute("data-add"), body);
      }).then(function () { show(true); say("data-done-on"); });
    });
  }
  function turnOff(subscription) {
    return post(box.getAttribute("data-remove"), { endpoint: subscription.endpoint })
      .then(function () { return subscription.unsubscribe(); })
      .then(function () { show(false); say("data-done-off"); });
  }
  registration().then(function (reg) { return reg.pushManager.getSubscription(); }).then(known).then(function (listed) {
    show(listed);
    button.onclick = function () {
      button.disabled = true;
      var done = function () { button.disabled = false; };
      registration().then(function (reg) { return reg.pushManager.getSubscription(); })
        .then(function (current) { return current && on ? turnOff(current) : turnOn(); })
        .catch(function (error) { if (status) status.textContent = error.message; })
        .then(done, done);
    };
  });
})();
