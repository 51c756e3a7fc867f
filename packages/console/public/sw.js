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
      // No clients.claim(): a page opened without a worker keeps running as it is (claiming it
      // would fire controllerchange and reload it for nothing). When a new deployment's worker
      // replaces an active one, skipWaiting() hands it the open pages and they reload once.
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
