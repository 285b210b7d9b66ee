import type { StudioBatch } from "@storyverse/contract/studio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../i18n/i18n";
import { errorMessage } from "../../lib/api-errors";
import { awaitBatch } from "./await-batch";

const pending: StudioBatch = {
  message_id: "b1",
  status: "pending",
  content: "",
  images: [],
  items: [],
  error: null,
};

describe("awaitBatch", () => {
  afterEach(async () => {
    vi.useRealTimers();
    await setLanguage("en");
  });

  it("gives up past the server's deadline with words the player can read, in their language", async () => {
    await setLanguage("de");
    vi.useFakeTimers();
    const look = vi.fn(async () => pending);
    const outcome = awaitBatch("b1", look).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(23 * 60_000);
    const error = await outcome;
    expect(look).toHaveBeenCalled();
    expect(errorMessage(error)).toBe("Die Bilder haben zu lange gebraucht. Bitte versuch es noch einmal.");
  });
});
