// POST /api/login: sign in with an email address or a username.
import { type AuthResponse, authResponseSchema, type LoginRequest } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

export const AUTH_TIMEOUT_MS = 30_000;

export function login(body: LoginRequest): Promise<AuthResponse> {
  return apiRequest("/api/login", {
    method: "POST",
    body,
    schema: authResponseSchema,
    timeoutMs: AUTH_TIMEOUT_MS,
  });
}
