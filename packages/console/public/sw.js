// Wellrest service worker.
// It exists so the console can take control of its pages and drop stale caches on update.
// It never stores anything: API responses carry patient data (PHI) and must only ever come
// from the network, and the app shell is served with content-hashed file names.

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // API and widget traffic: network only, untouched by the worker.
  if (
    url.origin !== self.location.origin ||
    url.pathname.startsWith('/api/') ||
    url.pathname.startsWith('/widgets/')
  ) {
    return;
  }
  if (request.method !== 'GET') return;
  event.respondWith(fetch(request));
});
