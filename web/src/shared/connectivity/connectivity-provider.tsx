// The app's connection to its server: the store (connectivity.ts) fed by every API call and by the
// browser's online/offline events, the offline banner, and what coming back means: every view's data is
// read again (no reload) and listeners (a chat's stopped media checks) pick up where they left off.
// While offline, <html data-connection="offline"> lets the page mark what it shows as possibly stale.
import { healthResponseSchema } from "@storyverse/contract/system";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from "react";
import { apiRequest, setConnectionObserver } from "../../lib/api-client";
import { ApiError } from "../../lib/api-errors";
import { type ConnectionState, type Connectivity, createConnectivity } from "./connectivity";
import { OfflineBanner } from "./offline-banner";

const PROBE_TIMEOUT_MS = 5_000;

/** True when the server answered at all (even with an error status). */
async function probeServer(): Promise<boolean> {
  try {
    await apiRequest("/api/health", { schema: healthResponseSchema, timeoutMs: PROBE_TIMEOUT_MS });
    return true;
  } catch (error) {
    return error instanceof ApiError && error.status > 0;
  }
}

const ConnectivityContext = createContext<Connectivity | null>(null);

export function ConnectivityProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [connectivity] = useState(() => createConnectivity({ probe: probeServer }));

  useEffect(() => {
    setConnectionObserver({
      reachable: connectivity.reportReachable,
      unreachable: connectivity.reportUnreachable,
    });
    const online = () => connectivity.setBrowserOnline(true);
    const offline = () => connectivity.setBrowserOnline(false);
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    // Back: everything on screen is read again; queries not on screen are marked stale for their next use.
    const unfollow = connectivity.onReconnect(() => void queryClient.invalidateQueries());
    return () => {
      setConnectionObserver(null);
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      unfollow();
    };
  }, [connectivity, queryClient]);

  const state = useSyncExternalStore(connectivity.subscribe, connectivity.getState);
  useEffect(() => {
    const root = document.documentElement;
    if (state.online) delete root.dataset.connection;
    else root.dataset.connection = "offline";
  }, [state.online]);

  return (
    <ConnectivityContext value={connectivity}>
      {children}
      {state.online ? null : <OfflineBanner lostAt={state.lostAt} onRetry={connectivity.checkNow} />}
    </ConnectivityContext>
  );
}

const ALWAYS_ONLINE: ConnectionState = { online: true, lostAt: null };
const noop = () => () => {};

/** The connection as the page sees it (always online outside the provider, e.g. in a component test). */
export function useConnection(): ConnectionState {
  const connectivity = useContext(ConnectivityContext);
  return useSyncExternalStore(
    connectivity?.subscribe ?? noop,
    connectivity?.getState ?? (() => ALWAYS_ONLINE),
  );
}

/** Runs `listener` each time the server answers again after being lost. */
export function useOnReconnect(listener: () => void): void {
  const connectivity = useContext(ConnectivityContext);
  const [latest] = useState(() => ({ current: listener }));
  latest.current = listener;
  useEffect(() => connectivity?.onReconnect(() => latest.current()), [connectivity, latest]);
}
