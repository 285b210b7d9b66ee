// The Story Cards dialog: the editor's trigger chips, counters and what Save sends; a draft from "Make a
// card" prefills the editor; the list's switch and delete.
import type { StoryCard } from "@storyverse/contract/story-cards";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { type CardEditorStart, StoryCardsDialog } from "./story-cards-dialog";

const STORY = "11111111-1111-4111-8111-111111111111";
const card = (changes: Partial<StoryCard> = {}): StoryCard => ({
  id: "22222222-2222-4222-8222-222222222222",
  name: "Captain Rell",
  kind: "character",
  triggers: ["Rell"],
  description: "A one-eyed captain.",
  portrait: null,
  enabled: true,
  created_at: "2026-11-25T00:00:00.000Z",
  updated_at: "2026-11-25T00:00:00.000Z",
  ...changes,
});

function renderDialog(start: CardEditorStart | null) {
  render(
    <Providers auth={SIGNED_IN}>
      <StoryCardsDialog storyId={STORY} start={start} onClose={() => {}} />
    </Providers>,
  );
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("Story Cards dialog", () => {
  it("adds triggers as chips (Enter or a comma), removes them, counts, and saves what the editor shows", async () => {
    const calls = mockFetch((call) =>
      call.method === "POST" ? json({ success: true, card: card() }) : json({ success: true, cards: [] }),
    );
    renderDialog({ blank: true });
    type("Name", "Captain Rell");
    expect(screen.getByText("12/60")).toBeTruthy();
    const trigger = screen.getByRole("textbox", { name: "Triggers" });
    fireEvent.change(trigger, { target: { value: "Rell" } });
    fireEvent.keyDown(trigger, { key: "Enter" });
    fireEvent.change(trigger, { target: { value: "the captain," } });
    fireEvent.change(trigger, { target: { value: "rell," } });
    const chips = () => screen.getByRole("list", { name: "Trigger words" }).textContent;
    expect(chips()).toBe("Rellthe captain");
    expect(screen.getByText("2/10")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Remove trigger the captain" }));
    expect(chips()).toBe("Rell");
    type("Description", "A one-eyed captain.");
    expect(screen.getByText("19/1000")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "place" } });
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")).toMatchObject({
      path: `/api/stories/${STORY}/cards`,
      body: {
        name: "Captain Rell",
        kind: "place",
        triggers: ["Rell"],
        description: "A one-eyed captain.",
        enabled: true,
        portrait: null,
      },
    });
  });

  it("refuses to save without a name or a trigger, sending nothing", () => {
    const calls = mockFetch(() => json({ success: true, cards: [] }));
    renderDialog({ blank: true });
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    expect(screen.getByRole("alert").textContent).toContain("Please give the card a name.");
    type("Name", "Mara");
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    expect(screen.getByRole("alert").textContent).toContain("Please add at least one trigger word.");
    expect(calls.filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("opens on a draft from Make a card, prefilled for review", () => {
    mockFetch(() => json({ success: true, cards: [] }));
    renderDialog({
      draft: {
        name: "Tobin Marsh",
        kind: "character",
        triggers: ["Tobin", "Marsh"],
        description: "An old sailor.",
      },
    });
    expect(screen.getByText("A draft from the narrator's message: review it, then save.")).toBeTruthy();
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("Tobin Marsh");
    expect(screen.getByRole("list", { name: "Trigger words" }).textContent).toBe("TobinMarsh");
    expect((screen.getByLabelText("Description") as HTMLTextAreaElement).value).toBe("An old sailor.");
  });

  it("lists cards; the switch sends only enabled, delete asks first", async () => {
    let cards = [card()];
    const calls = mockFetch((call) => {
      if (call.method === "PUT") {
        cards = [card({ enabled: false })];
        return json({ success: true, card: cards[0] });
      }
      if (call.method === "DELETE") return json({ success: true });
      return json({ success: true, cards });
    });
    renderDialog(null);
    const toggle = await screen.findByRole("switch", { name: "Enabled: Captain Rell" });
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(
        (screen.getByRole("switch", { name: "Enabled: Captain Rell" }) as HTMLInputElement).checked,
      ).toBe(false),
    );
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ enabled: false });
    fireEvent.click(screen.getByRole("button", { name: "Delete Captain Rell" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Delete card" }));
    await waitFor(() => expect(screen.queryByRole("listitem", { name: "Captain Rell" })).toBeNull());
    expect(calls.find((c) => c.method === "DELETE")?.path).toBe(`/api/stories/${STORY}/cards/${card().id}`);
  });
});
