// GET /api/verify-email/{token}: use the link from the verification mail. A token works once, so each
// token is sent at most once per page load: React's StrictMode runs effects twice in development, and
// a second request would turn a success into "already used".
import { type MessageResponse, messageResponseSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

const inFlight = new Map<string, Promise<MessageResponse>>();

export function verifyEmailOnce(token: string): Promise<MessageResponse> {
  let request = inFlight.get(token);
  if (!request) {
    request = apiRequest(`/api/verify-email/${encodeURIComponent(token)}`, {
      schema: messageResponseSchema,
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
