// Short of credits in a story (issue #43): the notice offers the cheaper mode the balance pays for, the
// composer keeps its draft through a trip to the Credits page (return-to-story.test.ts: the paid return).
import type { ChatMode } from "@storyverse/contract/chat";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { json, mockFetch } from "../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../test/render-app";
import { ChatInput } from "../conversation/components/chat-input";
import { readDraft } from "./story-return";

const STORY = "11111111-1111-4111-8111-111111111111";

function Composer({ draftKey = STORY }: { draftKey?: string }) {
  const [mode, setMode] = useState<ChatMode>("image");
  return (
    <ChatInput
      mode={mode}
      onModeChange={setMode}
      onSend={async () => true}
      busy={false}
      voiceEnabled={false}
      draftKey={draftKey}
    />
  );
}

function renderComposer(remaining: number) {
  mockFetch(({ path }) =>
    path === "/api/credit-balance" ? json({ remaining, unlimited: false }) : json({ detail: "no" }, 404),
  );
  return render(
    <Providers
      auth={{ ...SIGNED_IN, user: SIGNED_IN.user && { ...SIGNED_IN.user, credits_remaining: remaining } }}
    >
      <Composer />
    </Providers>,
  );
}

afterEach(() => window.sessionStorage.clear());

describe("short of credits in a story", () => {
  it("offers a Chat turn when an Image turn is more than the balance, and switches to it", async () => {
    renderComposer(1);
    const notice = await screen.findByText(/Not enough credits: this costs 1.5 credits/);
    expect(notice).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Use Chat instead (0.5 credits)" }));
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Chat" }).getAttribute("aria-pressed")).toBe("true"),
    );
    expect(screen.queryByText(/Not enough credits/)).toBeNull();
  });

  it("offers nothing cheaper when not even a Chat turn is paid for", async () => {
    renderComposer(0);
    await screen.findByText(/You have no credits left/);
    expect(screen.queryByRole("button", { name: /instead/ })).toBeNull();
  });

  it("keeps the composer's words for the story: typed, away to the Credits page, back", async () => {
    const first = renderComposer(15);
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "I buy a lantern" } });
    expect(readDraft(STORY)).toBe("I buy a lantern");
    first.unmount();
    renderComposer(15);
    expect((screen.getByLabelText("Message") as HTMLTextAreaElement).value).toBe("I buy a lantern");
    // Sent: the draft is gone.
    fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });
    await waitFor(() => expect(readDraft(STORY)).toBe(""));
  });
});
