// POST /api/payments/verify-session: after the payment return, credit a paid session (the server does it
// once, whoever asks first) and learn what it added.
import { type VerifySessionResponse, verifySessionResponseSchema } from "@storyverse/contract/billing";
import { apiRequest } from "../../../lib/api-client";

export function verifyCheckoutSession(sessionId: string): Promise<VerifySessionResponse> {
  return apiRequest("/api/payments/verify-session", {
    method: "POST",
    body: { session_id: sessionId },
    schema: verifySessionResponseSchema,
    timeoutMs: 30_000,
  });
}
