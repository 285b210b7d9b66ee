// GET /api/health: the auth screen's connectivity probe.
import { healthResponseSchema } from "@storyverse/contract/system";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

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

/** Probes the server once when the screen is shown; `offline` while it cannot be reached. */
export function useConnectivity() {
  const query = useQuery(healthQueryOptions());
  return { offline: query.isError, checking: query.isFetching };
}
