import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api-errors";
import { isOutOfCreditsError, isQuotaExceededResponse } from "./out-of-credits";

describe("out of credits", () => {
  it("recognises the server's 402 and any message containing 'Insufficient credits'", () => {
    expect(isOutOfCreditsError(new ApiError(402, "Payment required", true))).toBe(true);
    expect(
      isOutOfCreditsError(new ApiError(400, "Insufficient credits: this costs 1.5 and you have 0.5.")),
    ).toBe(true);
    expect(isOutOfCreditsError(new Error("Insufficient credits"))).toBe(true);
    expect(isOutOfCreditsError(new ApiError(500, "Internal error"))).toBe(false);
    expect(isOutOfCreditsError("Insufficient credits")).toBe(false);
  });

  it("decides by the error body's code, not by its words", () => {
    const refused = { detail: "This costs 1.5 and you have 0.5.", code: "insufficient_credits" };
    expect(isOutOfCreditsError(new ApiError(402, refused.detail, true, refused))).toBe(true);
    const busy = {
      detail: "Insufficient credits are not the problem: a turn is being written.",
      code: "conflict",
    };
    expect(isOutOfCreditsError(new ApiError(409, busy.detail, true, busy))).toBe(false);
  });

  it("recognises a quota_exceeded answer", () => {
    expect(isQuotaExceededResponse({ quota_exceeded: true })).toBe(true);
    expect(isQuotaExceededResponse({ quota_exceeded: false })).toBe(false);
    expect(isQuotaExceededResponse(null)).toBe(false);
  });
});
