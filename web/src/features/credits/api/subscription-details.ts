// GET /api/subscription-details: billing type, balance, lifetime credits and the last top-up.
import { type SubscriptionDetails, subscriptionDetailsSchema } from "@storyverse/contract/billing";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { SUBSCRIPTION_DETAILS_KEY } from "../../../shared/credits/credit-balance";

export function fetchSubscriptionDetails(signal?: AbortSignal): Promise<SubscriptionDetails> {
  return apiRequest("/api/subscription-details", {
    schema: subscriptionDetailsSchema,
    signal,
    timeoutMs: 15_000,
  });
}

export const subscriptionDetailsQueryOptions = () =>
  queryOptions({
    queryKey: SUBSCRIPTION_DETAILS_KEY,
    queryFn: ({ signal }) => fetchSubscriptionDetails(signal),
  });

export function useSubscriptionDetails() {
  return useQuery(subscriptionDetailsQueryOptions());
}
