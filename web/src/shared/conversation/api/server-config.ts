// GET /api/config: which capabilities the server has switched on (the microphone needs "transcription")
// and whether offline providers stand in for an AI vendor.
import { type ConfigResponse, configResponseSchema } from "@storyverse/contract/system";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export const SERVER_CONFIG_KEY = ["server-config"] as const;

export function fetchServerConfig(signal?: AbortSignal): Promise<ConfigResponse> {
  return apiRequest("/api/config", { schema: configResponseSchema, signal, timeoutMs: 15_000 });
}

export const serverConfigQueryOptions = () =>
  queryOptions({
    queryKey: SERVER_CONFIG_KEY,
    queryFn: ({ signal }) => fetchServerConfig(signal),
    // The server's configuration does not change while it runs.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useServerConfig() {
  return useQuery(serverConfigQueryOptions());
}
