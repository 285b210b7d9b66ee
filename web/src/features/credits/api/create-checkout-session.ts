// POST /api/payments/create-checkout-session: start paying for a pack; the browser then goes to checkout_url.
import {
  type CreateCheckoutResponse,
  type CreditPack,
  createCheckoutResponseSchema,
} from "@storyverse/contract/billing";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function createCheckoutSession(pack: CreditPack): Promise<CreateCheckoutResponse> {
  return apiRequest("/api/payments/create-checkout-session", {
    method: "POST",
    body: { price_id: pack.price_id, purchase_type: "credits", credits_amount: pack.credits },
    schema: createCheckoutResponseSchema,
    timeoutMs: 30_000,
  });
}

export function useCreateCheckoutSession() {
  return useMutation<CreateCheckoutResponse, Error, CreditPack>({ mutationFn: createCheckoutSession });
}
