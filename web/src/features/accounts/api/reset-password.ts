// POST /api/reset-password: choose a new password with the token from the reset mail.
import {
  type MessageResponse,
  messageResponseSchema,
  type ResetPasswordRequest,
} from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

export function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  return apiRequest("/api/reset-password", {
    method: "POST",
    body,
    schema: messageResponseSchema,
    timeoutMs: 30_000,
  });
}
