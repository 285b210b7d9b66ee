// GET /api/verify-email/{token}: use the link from the verification mail. A token works once, so each
// token is sent at most once per page load: React's StrictMode runs effects twice in development, and
// a second request would turn a success into "already used". Opened in the browser that signed up, the answer
// carries a session too (its HttpOnly sign-up cookie goes with the request; decision 0153).
import { type VerifyEmailResponse, verifyEmailResponseSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

const inFlight = new Map<string, Promise<VerifyEmailResponse>>();

export function verifyEmailOnce(token: string): Promise<VerifyEmailResponse> {
  let request = inFlight.get(token);
  if (!request) {
    request = apiRequest(`/api/verify-email/${encodeURIComponent(token)}`, {
      schema: verifyEmailResponseSchema,
      timeoutMs: 30_000,
    });
    inFlight.set(token, request);
  }
  return request;
}

/** For tests: forget which tokens were sent. */
export function resetVerifyEmailCache(): void {
  inFlight.clear();
}
