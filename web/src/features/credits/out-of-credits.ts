// Which failures mean "out of credits": the server's 402 with quota_exceeded, or any
// message that contains 'Insufficient credits'. Features open the Quota Exceeded dialog for these.
import { ApiError } from "../../lib/api-errors";

export const INSUFFICIENT_CREDITS_TEXT = "Insufficient credits";
export const PAYMENT_REQUIRED_STATUS = 402;

export function isOutOfCreditsError(error: unknown): boolean {
  if (error instanceof ApiError && error.status === PAYMENT_REQUIRED_STATUS) return true;
  return error instanceof Error && error.message.includes(INSUFFICIENT_CREDITS_TEXT);
}

/** A chat answer that says it was refused for want of credits ({quota_exceeded: true}). */
export function isQuotaExceededResponse(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { quota_exceeded?: unknown }).quota_exceeded === true
  );
}
