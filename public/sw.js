// Rollsheet service worker: precache the whole app, answer every navigation with index.html,
// drop old caches on activate. VERSION and PRECACHE are written at build time by
// scripts/precache.mjs, so every new build is a byte-different worker and a new cache.
const VERSION = "__ROLLSHEET_VERSION__";
const PRECACHE = ["__ROLLSHEET_PRECACHE__"];
const CACHE = `rollsheet-${VERSION}`;

self.addEventListener("install", (event) => {
  // No skipWaiting here: the page asks for it when the player presses "Update now".
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("rollsheet-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});

// Opened once per worker, not once per request: a sheet opened from the cache asks for its
// system's module and some thirty small shared ones at once.
let opened;
const cache = () => (opened ||= caches.open(CACHE));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Any path of the app (/, /roller, /characters/…) is the single page.
    event.respondWith(cache().then((c) => c.match("/index.html")).then((hit) => hit || fetch(request)));
    return;
  }
  event.respondWith(cache().then((c) => c.match(request, { ignoreSearch: true })).then((hit) => hit || fetch(request)));
});
