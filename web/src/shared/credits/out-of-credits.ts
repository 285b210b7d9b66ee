// Which failures mean "out of credits": an error body whose code is insufficient_credits (the server's 402),
// and, because the spec says so word for word, any other message that contains 'Insufficient credits'.
// Features open the Quota Exceeded dialog for these.
import { quotaInfoSchema } from "@storyverse/contract/credits";
import type { ErrorCode } from "@storyverse/contract/errors";
import { ApiError } from "../../lib/api-errors";

export const INSUFFICIENT_CREDITS_TEXT = "Insufficient credits";
const INSUFFICIENT_CREDITS_CODE: ErrorCode = "insufficient_credits";

export function isOutOfCreditsError(error: unknown): boolean {
  if (error instanceof ApiError) {
    if (error.code !== null) return error.code === INSUFFICIENT_CREDITS_CODE;
    if (error.status === 402) return true;
  }
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

/** What a refused request would have cost and what the account had, when the refusal says so. */
export interface Shortfall {
  cost: number;
  remaining: number;
}

/** The 402's quota_info ({cost, remaining}), or null when the refusal did not carry one. */
export function shortfallOf(error: unknown): Shortfall | null {
  if (!(error instanceof ApiError) || typeof error.body !== "object" || error.body === null) return null;
  const parsed = quotaInfoSchema.safeParse((error.body as { quota_info?: unknown }).quota_info);
  return parsed.success ? { cost: parsed.data.cost, remaining: parsed.data.remaining } : null;
}
