// GET /api/credit-history: the ledger, newest first, a page at a time (`before` = the last id shown).
import {
  CREDIT_HISTORY_DEFAULT_LIMIT,
  type CreditHistoryResponse,
  creditHistoryResponseSchema,
} from "@storyverse/contract/billing";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { CREDIT_HISTORY_KEY } from "../../../shared/credits/credit-balance";

export function fetchCreditHistory(
  before: string | undefined,
  signal?: AbortSignal,
  limit: number = CREDIT_HISTORY_DEFAULT_LIMIT,
): Promise<CreditHistoryResponse> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (before) params.set("before", before);
  return apiRequest(`/api/credit-history?${params}`, {
    schema: creditHistoryResponseSchema,
    signal,
    timeoutMs: 15_000,
  });
}

export const creditHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: CREDIT_HISTORY_KEY,
    queryFn: ({ pageParam, signal }) => fetchCreditHistory(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.transactions.at(-1)?.id : undefined),
  });

export function useCreditHistory() {
  return useInfiniteQuery(creditHistoryQueryOptions());
}
