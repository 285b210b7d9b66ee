// Sign-in by OIDC's calls (decision 0146): who a fresh session from the landing is, the link that the
// account's password confirms, and the logout that may send the browser on to the provider's own.
import {
  type AuthResponse,
  authResponseSchema,
  type VerifyUserResponse,
  verifyUserResponseSchema,
} from "@storyverse/contract/accounts";
import { z } from "zod";
import { apiRequest } from "../../../lib/api-client";
import { AUTH_TIMEOUT_MS } from "./login";
import { LOGOUT_TIMEOUT_MS } from "./logout";

/** GET /api/user/verify with the landing's token (not yet stored): the account it opens. */
export function sessionUser(accessToken: string): Promise<VerifyUserResponse> {
  return apiRequest("/api/user/verify", {
    schema: verifyUserResponseSchema,
    headers: { Authorization: `Bearer ${accessToken}` },
    timeoutMs: AUTH_TIMEOUT_MS,
  });
}

/** POST /api/auth/oidc/link: the account's password consents to the link; the answer is its session. */
export function linkAccount(body: { token: string; password: string }): Promise<AuthResponse> {
  return apiRequest("/api/auth/oidc/link", {
    method: "POST",
    body,
    schema: authResponseSchema,
    timeoutMs: AUTH_TIMEOUT_MS,
  });
}

const oidcLogoutSchema = z.object({ success: z.literal(true), end_session_url: z.string().nullable() });

/** POST /api/auth/oidc/logout: ends this session; the provider's end-session page to visit, when it has one. */
export async function oidcLogout(): Promise<string | null> {
  const answer = await apiRequest("/api/auth/oidc/logout", {
    method: "POST",
    schema: oidcLogoutSchema,
    timeoutMs: LOGOUT_TIMEOUT_MS,
  });
  return answer.end_session_url;
}

/** Goes to the provider's end-session page; only an http(s) address is followed (never script). */
export function visitProvider(url: string): boolean {
  let target: URL;
  try {
    target = new URL(url, window.location.origin);
  } catch {
    return false;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return false;
  window.location.assign(target.href);
  return true;
}
