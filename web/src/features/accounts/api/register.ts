// POST /api/register: create an account (15 free credits; may have to verify its email first).
import { type AuthResponse, authResponseSchema, type RegisterRequest } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";
import { AUTH_TIMEOUT_MS } from "./login";

export function register(body: RegisterRequest): Promise<AuthResponse> {
  return apiRequest("/api/register", {
    method: "POST",
    body,
    schema: authResponseSchema,
    timeoutMs: AUTH_TIMEOUT_MS,
  });
}
