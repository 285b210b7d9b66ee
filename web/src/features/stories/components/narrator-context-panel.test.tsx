// "What the narrator sees": each active Story Card says why it fired and whether the lore budget left it
// out; the post-history instructions are a part of the token list.
import type { NarratorContext } from "@storyverse/contract/story-craft";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { NarratorContextPanel } from "./narrator-context-panel";

const STORY = "11111111-1111-4111-8111-111111111111";

const CONTEXT: NarratorContext = {
  success: true,
  messages: [
    { role: "system", content: "You are the narrator." },
    { role: "user", content: "I ask Mara about the sword." },
    { role: "system", content: "Keep answers short." },
  ],
  parts: [
    { part: "instructions", tokens: 120 },
    { part: "cards", tokens: 80 },
    { part: "history", tokens: 40 },
    { part: "post_history_instructions", tokens: 6 },
    { part: "prompt", tokens: 9 },
  ],
  dropped_messages: 0,
  cut_to_fit: [],
  total_tokens: 255,
  budget_tokens: 8000,
  generation: {
    text_model: "gpt-4o",
    max_tokens: 1600,
    temperature: 0.35,
    output_length: "long",
    authors_note_depth: 3,
    input_mode: "do",
    art_style: "ink wash",
    aspect_ratio: "16:9",
  },
  active_cards: [
    {
      id: "c1",
      name: "Mara",
      kind: "character",
      in_context: true,
      reason: { kind: "key", key: "Mara", where: "your message", messages_back: 0, secondary: ["sword"] },
      because: '"Mara" in your message, with "sword"',
      dropped_for_budget: false,
    },
    {
      id: "c2",
      name: "The Tide",
      kind: "other",
      in_context: true,
      reason: { kind: "constant" },
      because: "always on",
      dropped_for_budget: false,
    },
    {
      id: "c3",
      name: "Old Harbour",
      kind: "place",
      in_context: false,
      reason: { kind: "key", key: "harbour", where: "2 messages back", messages_back: 2 },
      because: '"harbour" 2 messages back',
      dropped_for_budget: true,
    },
  ],
  recalled: [
    {
      message_id: "22222222-2222-4222-8222-222222222222",
      turn: 5,
      player: "I order an ale",
      narrator: "The tavern keeper, a broad man named Oswin, wipes the bar.",
      score: 0.12,
      matched: ["keeper", "tavern"],
      pinned: false,
      in_context: true,
    },
    {
      message_id: "33333333-3333-4333-8333-333333333333",
      turn: 41,
      player: "",
      narrator: "The storm breaks over the pass.",
      score: 0,
      matched: [],
      pinned: true,
      in_context: false,
    },
    {
      message_id: "44444444-4444-4444-8444-444444444444",
      turn: 17,
      player: "",
      narrator: "The old innkeeper hums a sea shanty.",
      score: 0.05,
      matched: [],
      pinned: false,
      in_context: true,
    },
  ],
  image_references: [],
  camera: {
    scene_prompt: "[the scene the illustrator writes from the next answer]",
    scene_state: { place: "", time_of_day: "", weather: "" },
    characters: [],
    references: [],
  },
};

describe("What the narrator sees", () => {
  it("follows the composer (issue 46): its mode and its unsent words, as they change", async () => {
    const calls = mockFetch(() => json(CONTEXT));
    const panel = (composer: { mode: "chat" | "image" | "video"; draft: string }) => (
      <Providers auth={SIGNED_IN}>
        <NarratorContextPanel storyId={STORY} composer={composer} onClose={() => {}} />
      </Providers>
    );
    const { rerender } = render(panel({ mode: "chat", draft: "Where is Mara?" }));
    await screen.findByRole("region", { name: "Active Story Cards" });
    // Opened while the composer is on Chat with words in it: a Chat turn with those words, not Image.
    expect(calls[0]?.path).toBe(`/api/stories/${STORY}/context?chat_mode=chat&prompt=Where+is+Mara%3F`);
    expect((screen.getByLabelText("Turn") as HTMLSelectElement).value).toBe("chat");
    expect((screen.getByLabelText(/Next message/) as HTMLInputElement).value).toBe("Where is Mara?");

    // The player switches the composer to Video and types on: the preview follows after a pause.
    rerender(panel({ mode: "video", draft: "Where is Mara? I ask the harbour" }));
    expect((screen.getByLabelText("Turn") as HTMLSelectElement).value).toBe("video");
    await waitFor(() =>
      expect(calls.at(-1)?.path).toBe(
        `/api/stories/${STORY}/context?chat_mode=video&prompt=Where+is+Mara%3F+I+ask+the+harbour`,
      ),
    );
    expect((screen.getByLabelText(/Next message/) as HTMLInputElement).value).toBe(
      "Where is Mara? I ask the harbour",
    );
  });

  it("says why each card fired, marks the one the lore budget left out, and counts the post-history part", async () => {
    const calls = mockFetch(() => json(CONTEXT));
    render(
      <Providers auth={SIGNED_IN}>
        <NarratorContextPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const active = await screen.findByRole("region", { name: "Active Story Cards" });
    expect(calls[0]?.path).toBe(`/api/stories/${STORY}/context?chat_mode=image`);
    const mara = within(active).getByRole("listitem", { name: "Mara" });
    expect(mara.textContent).toContain('Why: "Mara" in your message, and "sword"');
    expect(within(mara).queryByText(/Left out/)).toBeNull();
    expect(within(active).getByRole("listitem", { name: "The Tide" }).textContent).toContain(
      "Why: always on",
    );
    const harbour = within(active).getByRole("listitem", { name: "Old Harbour" });
    expect(harbour.textContent).toContain('Why: "harbour" in 2 messages back');
    expect(within(harbour).getByText("Left out: lore budget full")).toBeTruthy();

    const budget = screen.getByRole("region", { name: "Token budget" });
    expect(within(budget).getByText("Post-history instructions").closest("li")?.textContent).toBe(
      "Post-history instructions6 tokens",
    );
  });

  it("says why a card fired in the interface's language, from the server's reason", async () => {
    mockFetch(() => json(CONTEXT));
    await setLanguage("de");
    try {
      render(
        <Providers auth={SIGNED_IN}>
          <NarratorContextPanel storyId={STORY} onClose={() => {}} />
        </Providers>,
      );
      const active = await screen.findByRole("region", { name: "Aktive Story-Karten" });
      expect(within(active).getByRole("listitem", { name: "Mara" }).textContent).toContain(
        "Warum: „Mara“ in deiner Nachricht, und „sword“",
      );
      expect(within(active).getByRole("listitem", { name: "The Tide" }).textContent).toContain(
        "Warum: immer aktiv",
      );
      expect(within(active).getByRole("listitem", { name: "Old Harbour" }).textContent).toContain(
        "Warum: „harbour“ 2 Nachrichten zuvor",
      );
    } finally {
      await setLanguage("en");
    }
  });

  it("says which long texts this turn sends only in part to fit the budget (issue #43)", async () => {
    mockFetch(() =>
      json({
        ...CONTEXT,
        cut_to_fit: [
          { part: "context", kept_characters: 7900, total_characters: 31000 },
          { part: "memory", kept_characters: 0, total_characters: 20000 },
        ],
      }),
    );
    render(
      <Providers auth={SIGNED_IN}>
        <NarratorContextPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const cuts = await screen.findByRole("list", { name: "Left out to fit the budget" });
    const [context, memory] = within(cuts).getAllByRole("listitem");
    expect(context!.textContent).toBe(
      "Story context: 7,900 of 31,000 characters sent; the rest is left out to fit the budget. The story keeps it whole.",
    );
    expect(memory!.textContent).toBe(
      "Memory: left out (20,000 characters) to fit the budget. The story keeps it whole.",
    );
  });

  it("shows the story's generation settings the next turn uses", async () => {
    mockFetch(() => json(CONTEXT));
    render(
      <Providers auth={SIGNED_IN}>
        <NarratorContextPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const generation = await screen.findByRole("region", { name: "Generation" });
    expect(generation.textContent).toContain("Modelgpt-4o");
    expect(generation.textContent).toContain("Output lengthLong (up to 1,600 tokens)");
    expect(generation.textContent).toContain("Randomness0.35");
    expect(generation.textContent).toContain("Author's Note depth3 messages from the end");
    expect(generation.textContent).toContain("InputDo");
    expect(generation.textContent).toContain("Scenes16:9 wide, ink wash");
  });

  it("docked beside the story, it stays open while the player uses the story; Escape in it closes it", async () => {
    mockFetch(() => json(CONTEXT));
    const onClose = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <button type="button">Undo</button>
        <NarratorContextPanel docked storyId={STORY} onClose={onClose} />
      </Providers>,
    );
    const panel = screen.getByRole("dialog", { name: "What the narrator sees" });
    await within(panel).findByRole("region", { name: "Token budget" });
    // Not hidden behind a modal: the story's own buttons are there and a click on one leaves the panel open.
    const undo = screen.getByRole("button", { name: "Undo" });
    fireEvent.pointerDown(undo);
    undo.focus();
    fireEvent.click(undo);
    expect(onClose).not.toHaveBeenCalled();
    const next = within(panel).getByLabelText("Next message");
    next.focus();
    fireEvent.keyDown(next, { key: "Escape" });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("lists the recalled turns with why, pins one and forgets another, then reads the context again", async () => {
    let answer: NarratorContext = CONTEXT;
    const calls = mockFetch(({ method, path }) => {
      if (method === "PUT") {
        const forget = path.endsWith("22222222-2222-4222-8222-222222222222");
        answer = { ...CONTEXT, recalled: forget ? CONTEXT.recalled.slice(1) : CONTEXT.recalled };
        return json({
          success: true,
          message_id: path.split("/").at(-1),
          pinned: !forget,
          forgotten: forget,
        });
      }
      return json(answer);
    });
    render(
      <Providers auth={SIGNED_IN}>
        <NarratorContextPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const recalled = await screen.findByRole("region", { name: "Recalled from earlier" });
    const turn5 = within(recalled).getByRole("listitem", { name: "Turn 5" });
    expect(turn5.textContent).toContain("The tavern keeper, a broad man named Oswin");
    expect(turn5.textContent).toContain("Why: shares “keeper”, “tavern” with the next message");
    const turn41 = within(recalled).getByRole("listitem", { name: "Turn 41" });
    expect(turn41.textContent).toContain("Why: pinned by you");
    // Recalled by meaning alone: no word in common to show.
    expect(within(recalled).getByRole("listitem", { name: "Turn 17" }).textContent).toContain(
      "Why: close in meaning to the next message",
    );
    expect(within(turn41).getByText("Pinned")).toBeTruthy();
    expect(within(turn41).getByText("Left out: no room")).toBeTruthy();
    const budget = screen.getByRole("region", { name: "Token budget" });
    expect(within(budget).queryByText("Recalled from earlier")).toBeNull();

    fireEvent.click(within(turn5).getByRole("button", { name: "Forget turn 5" }));
    await waitFor(() => expect(within(recalled).queryByRole("listitem", { name: "Turn 5" })).toBeNull());
    const put = calls.find((call) => call.method === "PUT");
    expect(put).toMatchObject({
      path: `/api/stories/${STORY}/recall/22222222-2222-4222-8222-222222222222`,
      body: { forgotten: true },
    });
    fireEvent.click(within(recalled).getByRole("button", { name: "Unpin turn 41" }));
    await waitFor(() => expect(calls.filter((call) => call.method === "PUT")).toHaveLength(2));
    expect(calls.at(-2)).toMatchObject({ body: { pinned: false } });
  });
});
