// POST /api/logout: end this session on the server. The caller forgets the token whatever happens.
import { logoutResponseSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

/** Short: the user asked to leave, and the local session is cleared either way. */
export const LOGOUT_TIMEOUT_MS = 5_000;

export async function logout(): Promise<void> {
  await apiRequest("/api/logout", {
    method: "POST",
    schema: logoutResponseSchema,
    timeoutMs: LOGOUT_TIMEOUT_MS,
  });
}
