// The service worker (decision 0139). Built on its own into web/dist/sw.js by vite-plugin.ts, which writes
// the version and the list of files to keep from the install on into the string below. What it answers, and
// what it leaves alone, is decided by routes.ts; this file only carries the decisions out:
// - install: keeps the shell (the entry script, its imports and styles) and the offline page's files;
// - activate: deletes the caches of older versions and takes over the open pages;
// - a page load goes to the network, and when that fails the offline page answers (a page is never stored);
// - a static file comes from the cache, else from the network and is then kept (hashed names never change);
// - everything else (API answers, media, other origins) is not answered here at all.
// A new version waits until the player chooses "Reload" in the app's update prompt (skip-waiting message).
import { CACHE_PREFIX, cacheName, mayKeep, OFFLINE_PAGE, routeFor, SKIP_WAITING } from "./routes";

// The DOM library has no service worker types; the few this file uses, declared here.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface WorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}
const worker = self as unknown as WorkerScope;

// Replaced at build time by vite-plugin.ts with {"version": "...", "precache": ["/...", ...]}.
const manifest = JSON.parse("__STORYVERSE_SW_MANIFEST__") as { version: string; precache: string[] };
const CACHE = cacheName(manifest.version);
const precached: ReadonlySet<string> = new Set(manifest.precache);

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(manifest.precache)));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
          .map((name) => caches.delete(name)),
      );
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener("message", (event) => {
  if (event.data === SKIP_WAITING) void worker.skipWaiting();
});

async function page(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(OFFLINE_PAGE, { cacheName: CACHE })) ?? Response.error();
  }
}

async function staticFile(event: FetchEvent): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request);
  if (kept) return kept;
  const response = await fetch(event.request);
  // Kept while the answer already streams to the page.
  if (mayKeep(response)) event.waitUntil(cache.put(event.request, response.clone()));
  return response;
}

worker.addEventListener("fetch", (event) => {
  const route = routeFor(event.request, worker.location.origin, precached);
  if (route === "page") event.respondWith(page(event.request));
  else if (route === "static") event.respondWith(staticFile(event));
});
