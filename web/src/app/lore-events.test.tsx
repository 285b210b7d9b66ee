// Living lore's drafts arrive by the event stream (decision 0130): while the stream is live the story's notice
// does not poll; a lore event for the story reads its drafts again, one for another story does not.
import type { LoreSuggestion } from "@storyverse/contract/lore";
import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LoreNotice } from "../features/stories/components/lore-notice";
import { setLiveState } from "../shared/live/live-events";
import { json, mockFetch } from "../test/mock-fetch";
import { createTestQueryClient, Providers, SIGNED_IN } from "../test/render-app";
import { applyLiveEvent } from "./use-live-events";

const STORY = "11111111-1111-4111-8111-111111111111";
const BRANNOC: LoreSuggestion = {
  id: "a1111111-1111-4111-8111-111111111111",
  name: "Brannoc",
  kind: "character",
  triggers: ["Brannoc"],
  description: "You see Brannoc.",
  created_at: "2026-11-26T00:00:00.000Z",
};

describe("living lore's notice by the event stream", () => {
  afterEach(() => {
    vi.useRealTimers();
    setLiveState("fallback");
  });

  it("does not poll while the stream is live, and reads the drafts again when a lore event says so", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setLiveState("live");
    let drafts: LoreSuggestion[] = [];
    const calls = mockFetch(({ path }) =>
      path === `/api/stories/${STORY}/lore-suggestions`
        ? json({ success: true, suggestions: drafts })
        : json({ detail: "not found" }, 404),
    );
    const client = createTestQueryClient();
    render(
      <Providers auth={SIGNED_IN} client={client}>
        <LoreNotice storyId={STORY} onOpen={() => {}} />
      </Providers>,
    );
    const reads = () => calls.filter((call) => call.path.endsWith("/lore-suggestions")).length;
    await waitFor(() => expect(reads()).toBe(1));
    // A whole turn's worth of time: the old page polled 7 to 9 times in it.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(90_000);
    });
    expect(reads()).toBe(1);

    drafts = [BRANNOC];
    act(() => applyLiveEvent(client, { event: "lore", data: { story_id: STORY }, id: "7" }));
    expect(await screen.findByRole("button", { name: "1 new: Brannoc" })).toBeTruthy();
    expect(reads()).toBe(2);
    // Another story's drafts are not read again.
    act(() =>
      applyLiveEvent(client, {
        event: "lore",
        data: { story_id: "22222222-2222-4222-8222-222222222222" },
        id: "8",
      }),
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(reads()).toBe(2);
  });
});
