// GET /api/credit-balance: the one source of the balance the app shows (top bar, Credits page). Every
// feature that spends or adds credits calls refreshCreditBalance with the quota_info it was answered
// with, so the top bar moves at once and the billing queries catch up in the background.
import { type CreditBalance, creditBalanceSchema, UNLIMITED_CREDITS } from "@storyverse/contract/credits";
import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiRequest } from "../../lib/api-client";
import { useAuth } from "../auth";

export const CREDIT_BALANCE_KEY = ["credit-balance"] as const;
export const CREDIT_HISTORY_KEY = ["credit-history"] as const;
export const MONTHLY_ACTIVITY_KEY = ["monthly-activity"] as const;
export const SUBSCRIPTION_DETAILS_KEY = ["subscription-details"] as const;
export const QUOTA_KEY = ["quota"] as const;

/** Every query whose answer changes when credits are spent or added. */
export const CREDIT_QUERY_KEYS = [
  CREDIT_BALANCE_KEY,
  CREDIT_HISTORY_KEY,
  MONTHLY_ACTIVITY_KEY,
  SUBSCRIPTION_DETAILS_KEY,
  QUOTA_KEY,
] as const;

export function fetchCreditBalance(signal?: AbortSignal): Promise<CreditBalance> {
  return apiRequest("/api/credit-balance", { schema: creditBalanceSchema, signal, timeoutMs: 15_000 });
}

export const creditBalanceQueryOptions = () =>
  queryOptions({
    queryKey: CREDIT_BALANCE_KEY,
    queryFn: ({ signal }) => fetchCreditBalance(signal),
  });

export interface CreditBalanceView extends CreditBalance {
  /** True while the number shown is the stored user's, not yet confirmed by the server. */
  isPlaceholder: boolean;
}

/** The balance, from the server; the signed-in user's stored credits_remaining until it answers. */
export function useCreditBalance(): CreditBalanceView {
  const { user, updateUser } = useAuth();
  const query = useQuery(creditBalanceQueryOptions());
  const confirmed = query.data?.remaining;
  const stored = user?.credits_remaining;
  // Keep the stored user in step, so the next load starts from the last balance seen.
  useEffect(() => {
    if (confirmed !== undefined && stored !== undefined && confirmed !== stored) {
      updateUser({ credits_remaining: confirmed });
    }
  }, [confirmed, stored, updateUser]);
  if (query.data) return { ...query.data, isPlaceholder: false };
  const remaining = user?.credits_remaining ?? 0;
  return { remaining, unlimited: remaining === UNLIMITED_CREDITS, isPlaceholder: true };
}

/** The part of a quota_info (or verify-session answer) that says what the balance is now. */
export interface BalanceUpdate {
  remaining: number;
  unlimited: boolean;
}

/**
 * After a charge or a purchase: show the new balance at once (when the answer carried it) and refetch
 * the balance, the history, this month's activity and the subscription details.
 */
export function refreshCreditBalance(queryClient: QueryClient, quotaInfo?: BalanceUpdate): Promise<void> {
  if (quotaInfo) {
    const unlimited = quotaInfo.unlimited || quotaInfo.remaining === UNLIMITED_CREDITS;
    queryClient.setQueryData<CreditBalance>(CREDIT_BALANCE_KEY, {
      remaining: unlimited ? UNLIMITED_CREDITS : quotaInfo.remaining,
      unlimited,
    });
  }
  return Promise.all(CREDIT_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(
    () => undefined,
  );
}
