// POST /api/newsletter: the landing page's "Get Early Access" box. Loaded on demand by
// use-subscribe-newsletter.ts, so the schemas and the API client stay out of the landing's first chunk.
import {
  type NewsletterSignupResponse,
  newsletterSignupRequestSchema,
  newsletterSignupResponseSchema,
} from "@storyverse/contract/newsletter";
import { apiRequest } from "../../../lib/api-client";
import { InvalidInputError } from "../../../lib/api-errors";

export const NEWSLETTER_TIMEOUT_MS = 15_000;

/** Checks the address against the contract, then subscribes it. */
export function subscribeNewsletter(email: string): Promise<NewsletterSignupResponse> {
  const parsed = newsletterSignupRequestSchema.safeParse({ email });
  if (!parsed.success) {
    throw new InvalidInputError(parsed.error.issues[0]?.message ?? "Please enter a valid email address");
  }
  return apiRequest("/api/newsletter", {
    method: "POST",
    body: parsed.data,
    schema: newsletterSignupResponseSchema,
    timeoutMs: NEWSLETTER_TIMEOUT_MS,
  });
}
