// A paid return from the checkout opens the story the credits were bought from (issue #43, decision 0142),
// once, after the session is verified; a stale one opens the Credits page only.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CREDITS_RETURN_MAX_AGE_MS,
  readDraft,
  rememberCreditsReturn,
  takeCreditsReturn,
  writeDraft,
} from "../../../shared/credits/story-return";
import { handlePaymentReturn } from "./use-payment-return";

const STORY = "11111111-1111-4111-8111-111111111111";

afterEach(() => window.sessionStorage.clear());

describe("the way back to a story after a checkout", () => {
  it("a paid return opens the story it was bought from, once; a stale one opens the Credits page only", async () => {
    const navigate = vi.fn();
    const handlers = {
      navigate,
      showError: vi.fn(),
      showSuccess: vi.fn(),
      refresh: vi.fn(async () => {}),
      verify: vi.fn(async () => ({
        success: true as const,
        type: "credits" as const,
        plan_name: "Starter",
        credits_added: 50,
        remaining: 51,
      })),
    };
    writeDraft(STORY, "I buy a lantern");
    rememberCreditsReturn(STORY);
    await handlePaymentReturn({ kind: "success", sessionId: "cs_test_1", type: "credits" }, handlers);
    expect(navigate.mock.calls).toEqual([["subscription"], ["story-interface", { storyId: STORY }]]);
    expect(readDraft(STORY)).toBe("I buy a lantern");
    expect(takeCreditsReturn()).toBeNull();

    navigate.mockClear();
    rememberCreditsReturn(STORY, Date.now() - CREDITS_RETURN_MAX_AGE_MS - 1);
    await handlePaymentReturn({ kind: "success", sessionId: "cs_test_2", type: "credits" }, handlers);
    expect(navigate.mock.calls).toEqual([["subscription"]]);
  });
});
