// POST /api/resend-verification: mail a fresh verification link.
import { type MessageResponse, messageResponseSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

export function resendVerification(email: string): Promise<MessageResponse> {
  return apiRequest("/api/resend-verification", {
    method: "POST",
    body: { email },
    schema: messageResponseSchema,
    timeoutMs: 30_000,
  });
}
