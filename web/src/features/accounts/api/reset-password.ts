// POST /api/reset-password: choose a new password with the token from the reset mail.
import {
  type LinkUsedResponse,
  linkUsedResponseSchema,
  type ResetPasswordRequest,
} from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

export function resetPassword(body: ResetPasswordRequest): Promise<LinkUsedResponse> {
  return apiRequest("/api/reset-password", {
    method: "POST",
    body,
    schema: linkUsedResponseSchema,
    timeoutMs: 30_000,
  });
}
