// GET /api/health: the auth screen's connectivity probe.
import { healthResponseSchema } from "@storyverse/contract/system";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { ApiError } from "../../../lib/api-errors";

/** While the server cannot be reached, ask again this often (and whenever the browser comes online). */
export const OFFLINE_RETRY_MS = 10_000;

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: ["health"],
    queryFn: ({ signal }) =>
      apiRequest("/api/health", { schema: healthResponseSchema, signal, timeoutMs: 8_000 }),
    retry: false,
    staleTime: 0,
    refetchOnReconnect: true,
    refetchInterval: (query) => (query.state.status === "error" ? OFFLINE_RETRY_MS : false),
  });

/**
 * Probes the server once when the screen is shown: `offline` while no answer arrives (the network, or the
 * server itself, is gone), `unavailable` while the server answers that it cannot serve (its database is down:
 * 503).
 */
export function useConnectivity() {
  const query = useQuery(healthQueryOptions());
  const answered = query.error instanceof ApiError && query.error.status > 0;
  return { offline: query.isError && !answered, unavailable: answered, checking: query.isFetching };
}
