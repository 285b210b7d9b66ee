// POST /api/forgot-password: mail a reset link. The server answers the same whether or not the
// account exists, and so does the screen.
import { type MessageResponse, messageResponseSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

export function forgotPassword(email: string): Promise<MessageResponse> {
  return apiRequest("/api/forgot-password", {
    method: "POST",
    body: { email },
    schema: messageResponseSchema,
    timeoutMs: 30_000,
  });
}
