// The web push service worker (notifications/channels/web_push.py sends, docs/notifications.md).
// Served at /push/worker.js with the scope "/" (notifications/push_views.py). A push carries
// JSON {title, body, url, tag}: a decision of the player's, in a few words, and the seat's page;
// a newer push of the same seat (same tag) replaces the older. A tap opens the seat's page, or
// brings forward a tab already on it.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var note = {};
  try { note = event.data ? event.data.json() : {}; } catch (e) { note = {}; }
  var title = note.title || "Inis";
  event.waitUntil(self.registration.showNotification(title, {
    body: note.body || "",
    tag: note.tag || "inis",
    renotify: true,
    data: { url: note.url || "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].url === url && "focus" in tabs[i]) return tabs[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});
