// What the service worker does with each request, as pure functions so a unit test can hold the worker to
// its promises (decision 0139): it keeps the app's own static files (the shell, the hashed assets, the offline
// page, the icons) and nothing else. API answers carry private data and media links are signed and expire,
// so every /api/ request, every request to another origin (an S3 store's presigned links) and every page the
// server renders itself (shared stories, the payment sandbox, metrics) goes to the network untouched: the worker
// does not even answer them, so the browser fetches them as if there were no worker.

/** What the worker does with a request. */
export type Route =
  /** A page load: from the network, and the offline page when the network cannot be reached. Never stored. */
  | "page"
  /** One of the app's own static files: from the cache, else from the network and then kept. */
  | "static"
  /** Not the worker's business: the browser fetches it as if there were no worker. */
  | "network";

/** The parts of a request the decision reads (a Request has them all). */
export interface RequestFacts {
  method: string;
  url: string;
  mode: string;
  headers: { has(name: string): boolean };
}

/** Paths the server answers itself, with private data or with pages of their own: never cached, never replaced. */
const SERVER_PREFIXES = ["/api/", "/s/", "/sandbox/"];
const SERVER_PATHS = new Set(["/api", "/metrics", "/robots.txt"]);

/** A path the server answers with data or a page of its own (API answers, media, shared stories...). */
export function isServerPath(pathname: string): boolean {
  return SERVER_PATHS.has(pathname) || SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/**
 * The route for one request. `origin` is the app's own origin; `precached` the paths the worker keeps from its
 * install on (the shell and the public files the offline page needs).
 */
export function routeFor(request: RequestFacts, origin: string, precached: ReadonlySet<string>): Route {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  // Presigned media links on an S3 store, and anything else elsewhere.
  if (url.origin !== origin) return "network";
  if (isServerPath(url.pathname)) return "network";
  // Byte ranges (clips, narration) and anything sent with a session are answers for one person.
  if (request.headers.has("range") || request.headers.has("authorization")) return "network";
  if (request.mode === "navigate") return "page";
  // A query string is where a signed link keeps its signature; the app's own files have none.
  if (url.search !== "") return "network";
  if (url.pathname.startsWith("/assets/") || precached.has(url.pathname)) return "static";
  return "network";
}

/** The parts of a response the decision to keep it reads. */
export interface ResponseFacts {
  status: number;
  type: string;
  headers: { get(name: string): string | null };
}

/**
 * Whether a static file's answer may be kept: a whole (200), same-origin answer that the server did not mark
 * private or not-to-be-stored. A second guard behind routeFor: should a private answer ever come back for a
 * static path, it is still not kept.
 */
export function mayKeep(response: ResponseFacts): boolean {
  if (response.status !== 200 || response.type !== "basic") return false;
  const cacheControl = (response.headers.get("cache-control") ?? "").toLowerCase();
  return !/\b(no-store|private)\b/.test(cacheControl);
}

/** The caches one version of the worker owns; older versions' caches are deleted when it takes over. */
export const CACHE_PREFIX = "storyverse-";
export const cacheName = (version: string) => `${CACHE_PREFIX}${version}`;

/** The page shown for a page load the network cannot answer. */
export const OFFLINE_PAGE = "/offline.html";

/** The message a page sends a waiting worker when the player chooses to reload into the new version. */
export const SKIP_WAITING = "skip-waiting";
