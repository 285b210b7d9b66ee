// Whether the server can be reached, as one small store the app shares. Any answer from the server means
// it is there; a request that got no answer (network error, time-out) makes the store ask GET /api/health,
// and only a failed probe (or the browser saying it is offline) marks the app offline. While offline it
// probes again every few seconds; the first answer marks it online and tells the reconnect listeners, so
// views can read their data again without a reload.
import { createStore } from "../../lib/store";

export interface ConnectionState {
  online: boolean;
  /** When the connection was lost (ms since epoch), while offline. */
  lostAt: number | null;
}

export interface Connectivity {
  getState: () => ConnectionState;
  subscribe: (listener: () => void) => () => void;
  /** Called once each time the server answers again after being lost. */
  onReconnect: (listener: () => void) => () => void;
  /** A request got an answer (any status): the server is there. */
  reportReachable: () => void;
  /** A request got no answer: check whether the server is gone. */
  reportUnreachable: () => void;
  /** The browser says the network is gone (or back). */
  setBrowserOnline: (online: boolean) => void;
  /** Probe now (the banner's Try again). */
  checkNow: () => void;
  dispose: () => void;
}

export const PROBE_INTERVAL_MS = 3_000;

export interface ConnectivityOptions {
  /** Resolves true when the server answered, false when it could not be reached. */
  probe: () => Promise<boolean>;
  intervalMs?: number;
  now?: () => number;
}

export function createConnectivity({
  probe,
  intervalMs = PROBE_INTERVAL_MS,
  now = Date.now,
}: ConnectivityOptions): Connectivity {
  const state = createStore<ConnectionState>({ online: true, lostAt: null });
  let probing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  const reconnectListeners = new Set<() => void>();

  const goOnline = () => {
    clearTimeout(timer);
    timer = undefined;
    if (state.get().online) return;
    state.set({ online: true, lostAt: null });
    for (const listener of [...reconnectListeners]) listener();
  };

  const goOffline = () => {
    if (state.get().online) state.set({ online: false, lostAt: now() });
    clearTimeout(timer);
    if (!disposed) timer = setTimeout(() => void check(), intervalMs);
  };

  const check = async () => {
    if (probing || disposed) return;
    probing = true;
    let answered = false;
    try {
      answered = await probe();
    } catch {
      answered = false;
    } finally {
      probing = false;
    }
    if (disposed) return;
    if (answered) goOnline();
    else goOffline();
  };

  return {
    getState: state.get,
    subscribe: state.subscribe,
    onReconnect: (listener) => {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    reportReachable: () => {
      if (!state.get().online && !probing) goOnline();
    },
    reportUnreachable: () => {
      // Offline already: the scheduled probes are on it.
      if (state.get().online) void check();
    },
    setBrowserOnline: (online) => {
      if (online) void check();
      else goOffline();
    },
    checkNow: () => void check(),
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      reconnectListeners.clear();
    },
  };
}
