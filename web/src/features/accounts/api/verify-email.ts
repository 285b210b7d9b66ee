// GET /api/verify-email/{token}: use the link from the verification mail. A token works once, so each
// token is sent at most once per page load: React's StrictMode runs effects twice in development, and
// a second request would turn a success into "already used".
import { type LinkUsedResponse, linkUsedResponseSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

const inFlight = new Map<string, Promise<LinkUsedResponse>>();

export function verifyEmailOnce(token: string): Promise<LinkUsedResponse> {
  let request = inFlight.get(token);
  if (!request) {
    request = apiRequest(`/api/verify-email/${encodeURIComponent(token)}`, {
      schema: linkUsedResponseSchema,
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
