// Registers the service worker (web/src/sw/sw.ts, built to /sw.js) and tells the page when a new version of
// the app is ready (decision 0139). A new worker installs in the background and then waits; the update prompt
// offers a reload, which lets the waiting worker take over and loads the page again on the new version.
// Nothing reloads on its own: a player in the middle of writing decides when.
import { useSyncExternalStore } from "react";

/**
 * The message that lets a waiting worker take over (routes.ts's SKIP_WAITING, which the worker reads). Written
 * out here rather than imported: the worker is built to stand alone, and a module both import would be split
 * into a chunk of its own (service-worker.test.ts checks the two agree).
 */
export const SKIP_WAITING = "skip-waiting";

/** How often an open tab looks for a new version (besides each time the tab is shown again). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** What a waiting worker needs from us; a ServiceWorker has it. */
interface WaitingWorker {
  postMessage(message: unknown): void;
}

type Container = Pick<ServiceWorkerContainer, "register" | "addEventListener" | "controller">;

export interface UpdateState {
  /** A new version is ready: the prompt shows. */
  ready: boolean;
}

let state: UpdateState = { ready: false };
let waiting: WaitingWorker | null = null;
let reloadAsked = false;
const listeners = new Set<() => void>();

function setReady(worker: WaitingWorker | null) {
  waiting = worker;
  state = { ready: true };
  for (const listener of listeners) listener();
}

/** Loads the page again on the new version: the waiting worker takes over first, then the page reloads. */
export function reloadIntoNewVersion(reload: () => void = () => window.location.reload()): void {
  reloadAsked = true;
  // The controller has already changed (another tab chose to reload): a plain reload loads the new version.
  if (!waiting) reload();
  else waiting.postMessage(SKIP_WAITING);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUpdateState(): UpdateState {
  return useSyncExternalStore(subscribe, () => state);
}

/** Only for tests: back to a page that has seen no new version. */
export function resetUpdateState(): void {
  state = { ready: false };
  waiting = null;
  reloadAsked = false;
}

/**
 * Registers /sw.js and watches for a new version. `container` and `reload` are the browser's unless a test
 * passes its own.
 */
export async function registerServiceWorker(
  container: Container | undefined = navigator.serviceWorker,
  reload: () => void = () => window.location.reload(),
): Promise<void> {
  if (!container) return;
  // The worker this page runs under; none at the very first install, which is no "new version".
  let current = container.controller;
  container.addEventListener("controllerchange", () => {
    // A worker claiming the page it already runs changes nothing.
    if (container.controller === current) return;
    const before = current;
    current = container.controller;
    if (reloadAsked) reload();
    // Another tab let the new version take over: this page still runs the old code.
    else if (before !== null) setReady(null);
  });

  const registration = await container.register("/sw.js", { scope: "/" });
  const watch = (worker: ServiceWorker | null) => {
    if (!worker) return;
    const check = () => {
      if (worker.state === "installed" && container.controller) setReady(worker);
    };
    check();
    worker.addEventListener("statechange", check);
  };
  // A version that arrived while this tab was closed, or that another open tab keeps waiting.
  watch(registration.waiting);
  watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));

  const lookForUpdate = () => void registration.update().catch(() => {});
  setInterval(lookForUpdate, UPDATE_CHECK_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") lookForUpdate();
  });
}
