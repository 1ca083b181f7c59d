/*
 * The service worker for Web Push (decision 0019), served at the app's root (/sw.js under the path
 * prefix) so that its scope covers every page. It only shows notifications: a push carries JSON
 * { title, body, url }; a click on the notification focuses a tab already on that address or opens
 * one. It never caches or intercepts requests.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : self.location.hostname;
  const options = { body: typeof data.body === 'string' ? data.body : '', data: { url: typeof data.url === 'string' ? data.url : '' } };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const raw = event.notification.data && event.notification.data.url;
  // Only our own pages: a push opens nothing elsewhere.
  let url = self.registration.scope;
  try {
    const target = new URL(raw, self.registration.scope);
    if (target.origin === self.location.origin) url = target.href;
  } catch {
    /* the scope, then */
  }
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) if (w.url === url && 'focus' in w) return w.focus();
      return self.clients.openWindow(url);
    }),
  );
});
