// POST /api/subscription/manage-billing: a billing portal link, or a fallback message when there is none yet.
import { type ManageBillingResponse, manageBillingResponseSchema } from "@storyverse/contract/billing";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function manageBilling(): Promise<ManageBillingResponse> {
  return apiRequest("/api/subscription/manage-billing", {
    method: "POST",
    schema: manageBillingResponseSchema,
    timeoutMs: 30_000,
  });
}

export function useManageBilling() {
  return useMutation<ManageBillingResponse, Error, void>({ mutationFn: manageBilling });
}
