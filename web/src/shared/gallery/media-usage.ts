// GET /api/media/usage: the bytes the account keeps in media storage and its quota (null: unlimited). The
// account page shows it; the Gallery refreshes it after a delete.
import { type MediaUsage, mediaUsageSchema } from "@storyverse/contract/media";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const MEDIA_USAGE_KEY = ["media-usage"] as const;

export function fetchMediaUsage(signal?: AbortSignal): Promise<MediaUsage> {
  return apiRequest("/api/media/usage", { schema: mediaUsageSchema, signal, timeoutMs: 15_000 });
}

export const mediaUsageQueryOptions = () =>
  queryOptions({ queryKey: MEDIA_USAGE_KEY, queryFn: ({ signal }) => fetchMediaUsage(signal) });

export function useMediaUsage() {
  return useQuery(mediaUsageQueryOptions());
}
