// GET /api/quota: the balance with the price list the server charges by.
import { type QuotaResponse, quotaResponseSchema } from "@storyverse/contract/credits";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { QUOTA_KEY } from "./credit-balance";

export function fetchQuota(signal?: AbortSignal): Promise<QuotaResponse> {
  return apiRequest("/api/quota", { schema: quotaResponseSchema, signal, timeoutMs: 15_000 });
}

export const quotaQueryOptions = () =>
  queryOptions({ queryKey: QUOTA_KEY, queryFn: ({ signal }) => fetchQuota(signal) });

export function useQuota() {
  return useQuery(quotaQueryOptions());
}
