// GET /api/check-username/{username} and GET /api/check-email/{email}: the register form's live checks.
// Both answer {available, message} and share every rule, so they share this file.
import { availabilityResponseSchema } from "@storyverse/contract/accounts";
import { apiRequest } from "../../../lib/api-client";

export type AvailabilityKind = "username" | "email";

/** A check that has not answered in 10 s is abandoned. */
export const AVAILABILITY_TIMEOUT_MS = 10_000;

// The form falls back to its own wording when the message is missing; only `available` is required.
const responseSchema = availabilityResponseSchema.partial({ message: true });

export interface AvailabilityResult {
  available: boolean;
  message?: string | undefined;
}

const PATHS: Record<AvailabilityKind, string> = {
  username: "/api/check-username/",
  email: "/api/check-email/",
};

export function checkAvailability(
  kind: AvailabilityKind,
  value: string,
  signal?: AbortSignal,
): Promise<AvailabilityResult> {
  return apiRequest(`${PATHS[kind]}${encodeURIComponent(value)}`, {
    schema: responseSchema,
    signal,
    timeoutMs: AVAILABILITY_TIMEOUT_MS,
  });
}
