/*
 * Vigil's service worker: shows browser notifications (Web Push) and opens the page they are about. Served from the
 * site root so its scope is the whole app; it caches nothing, so it never serves an old app. The payload is the
 * server's WebPushPayload (proto/src/web-push.ts): { title, body, url, tag, severity }.
 */
'use strict';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The payload as JSON, or a plain text message; never throws, so a bad push still shows something. */
function readPayload(data) {
  if (!data) return {};
  try {
    const payload = data.json();
    return payload && typeof payload === 'object' ? payload : {};
  } catch {
    return { body: data.text() };
  }
}

/** A path on this site: an address elsewhere is never opened from a notification. */
function sitePath(url) {
  try {
    const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
    return target.origin === self.location.origin ? target.pathname + target.search : '/';
  } catch {
    return '/';
  }
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'Vigil';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof payload.body === 'string' ? payload.body : '',
      icon: '/favicon.svg',
      badge: '/favicon.svg',
      tag: typeof payload.tag === 'string' && payload.tag ? payload.tag : undefined,
      // A newer alert under the same tag (the same monitor) is announced again rather than replaced silently.
      renotify: typeof payload.tag === 'string' && payload.tag !== '',
      requireInteraction: payload.severity === 'alert',
      data: { url: sitePath(payload.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = sitePath(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        // An open tab of the app is reused: it goes to the page and comes to the front.
        await open.focus();
        if ('navigate' in open) await open.navigate(path).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(path);
    })(),
  );
});
