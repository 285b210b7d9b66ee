// "Who tells the story" (decision 0154): Story Settings offers the Narrator or A character (one of this story's
// cards), saves the choice with the other generation settings, and goes back to the narrator; a story without
// cards can only be told by the narrator. A group (decision 0164) may have its characters know only what they
// saw (decision 0165). A character's narrator messages show its name and its card's portrait instead of the
// narrator's.
import type { StoryCard } from "@storyverse/contract/story-cards";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MessageList } from "../../../shared/conversation/components/message-list";
import { SpeakerPortraitsProvider } from "../../../shared/speaker/speaker-portraits";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeCard, makeGenerationSettings, makeMessage, makeStory } from "../../../test/story-fixtures";
import { StorySettingsDialog } from "./story-settings-dialog";

const story = makeStory({ title: "Lighthouse", context: "A storm coast." });

const card = makeCard;

const HARBOUR = card("6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a11", "The Harbour", "place");
const MIRA = card("6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a22", "Mira Voss", "character", "/media/mira.webp");

const ODO = card("6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a33", "Odo Brand", "character");

const settings = makeGenerationSettings;

function serve(stored: ReturnType<typeof settings>, cards: StoryCard[]) {
  return (call: FetchCall) => {
    if (call.path === "/api/voices")
      return json({ success: true, provider: "none", default_voice: null, price_per_unit: 0, voices: [] });
    if (call.path === "/api/personas") return json({ success: true, personas: [] });
    if (call.path.endsWith("/cards")) return json({ success: true, cards });
    if (call.path.endsWith("/memory")) {
      return json({
        success: true,
        memory: "",
        authors_note: "",
        summary: "",
        summary_updated_at: null,
        summary_covers_messages: 0,
      });
    }
    if (call.path === "/api/models") {
      return json({
        success: true,
        provider: "offline",
        default_model: "offline-narrator",
        models: [{ id: "offline-narrator" }],
      });
    }
    if (call.path.endsWith("/settings") && call.method === "PUT")
      return json({ ...stored, ...(call.body as object) });
    if (call.path.endsWith("/settings")) return json(stored);
    return json({ detail: "not found" }, 404);
  };
}

function renderDialog() {
  const onClose = vi.fn();
  render(
    <Providers auth={SIGNED_IN}>
      <StorySettingsDialog story={story} onClose={onClose} withMemory />
    </Providers>,
  );
  return onClose;
}

afterEach(() => vi.restoreAllMocks());

describe("Who tells the story", () => {
  it("picks a character among the story's cards (characters first) and saves it", async () => {
    const calls = mockFetch(serve(settings("narrator", []), [HARBOUR, MIRA]));
    const onClose = renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    const narrator = within(group).getByRole("radio", { name: "Narrator" }) as HTMLInputElement;
    expect(narrator.checked).toBe(true);
    await waitFor(() =>
      expect((within(group).getByRole("radio", { name: "A character" }) as HTMLInputElement).disabled).toBe(
        false,
      ),
    );
    fireEvent.click(within(group).getByRole("radio", { name: "A character" }));
    const picker = within(group).getByLabelText("Character") as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(["Mira Voss", "The Harbour"]);
    expect(picker.value).toBe("6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a22");
    expect(within(group).getByText(/speaks in the first person; you speak as your persona/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose, document.body.textContent ?? "").toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      expect.objectContaining({
        body: { teller: "character", character_ids: ["6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a22"] },
      }),
    ]);
  });

  it("goes back to the narrator, keeping the card for later", async () => {
    const calls = mockFetch(
      serve(settings("character", ["6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a22"]), [HARBOUR, MIRA]),
    );
    const onClose = renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    await waitFor(() =>
      expect((within(group).getByLabelText("Character") as HTMLSelectElement).value).toBe(
        "6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a22",
      ),
    );
    fireEvent.click(within(group).getByRole("radio", { name: "Narrator" }));
    expect(within(group).queryByLabelText("Character")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      expect.objectContaining({ body: { teller: "narrator" } }),
    ]);
  });

  it("offers only the narrator while the story has no cards", async () => {
    mockFetch(serve(settings("narrator", []), []));
    renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    await waitFor(() =>
      expect(within(group).getByText(/Add a Story Card to let a character speak/)).toBeTruthy(),
    );
    expect((within(group).getByRole("radio", { name: "A character" }) as HTMLInputElement).disabled).toBe(
      true,
    );
  });
});

describe("A group scene", () => {
  it("puts characters in the scene, mutes one, picks the order of speakers and saves them", async () => {
    const calls = mockFetch(serve(settings("narrator", []), [HARBOUR, MIRA, ODO]));
    const onClose = renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    const aGroup = within(group).getByRole("radio", { name: "A group" }) as HTMLInputElement;
    await waitFor(() => expect(aGroup.disabled).toBe(false));
    fireEvent.click(aGroup);
    // The first three cards are present at first (characters first); the place leaves the scene.
    const present = within(group).getByRole("group", { name: /Characters present/ });
    const harbour = within(present).getByRole("checkbox", { name: "The Harbour" }) as HTMLInputElement;
    expect(harbour.checked).toBe(true);
    fireEvent.click(harbour);
    fireEvent.click(within(present).getByRole("checkbox", { name: "Mute Odo Brand" }));
    fireEvent.change(within(group).getByLabelText("Who speaks next"), { target: { value: "round_robin" } });
    expect(within(group).getByText(/each in their own voice/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose, document.body.textContent ?? "").toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      expect.objectContaining({
        body: {
          teller: "group",
          character_ids: [MIRA.id, ODO.id],
          speaker_order: "round_robin",
          muted_ids: [ODO.id],
        },
      }),
    ]);
  });

  it("will not save a group of one, nor one where nobody may speak", async () => {
    const calls = mockFetch(
      serve(settings("group", [MIRA.id, ODO.id], { speaker_order: "all", muted_ids: [ODO.id] }), [MIRA, ODO]),
    );
    renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    const present = await within(group).findByRole("group", { name: /Characters present/ });
    await waitFor(() =>
      expect((within(group).getByLabelText("Who speaks next") as HTMLSelectElement).value).toBe("all"),
    );
    fireEvent.click(within(present).getByRole("checkbox", { name: "Mute Mira Voss" }));
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(/At least one character present must be able to speak/)).toBeTruthy();
    fireEvent.click(within(present).getByRole("checkbox", { name: "Mute Mira Voss" }));
    fireEvent.click(within(present).getByRole("checkbox", { name: "Odo Brand" }));
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(/Choose at least 2 characters for a group scene\./)).toBeTruthy();
    expect(calls.filter((c) => c.method === "PUT")).toEqual([]);
  });
});

describe("Characters know only what they saw (decision 0165)", () => {
  const knowing = () =>
    screen.getByRole("checkbox", { name: "Characters know only what they saw" }) as HTMLInputElement;

  it("is offered with the group, off at first, explained, and saved when checked", async () => {
    const calls = mockFetch(serve(settings("group", [MIRA.id, ODO.id]), [MIRA, ODO]));
    const onClose = renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    await within(group).findByRole("group", { name: /Characters present/ });
    expect(knowing().checked).toBe(false);
    expect(knowing().getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(knowing().getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Each character is told only the scenes they were present for. Memory and lore stay shared.",
    );
    fireEvent.click(knowing());
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose, document.body.textContent ?? "").toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      expect.objectContaining({ body: { knows_what_they_saw: true } }),
    ]);
  });

  it("shows the story's stored choice, and unchecking it saves false", async () => {
    const calls = mockFetch(
      serve(settings("group", [MIRA.id, ODO.id], { knows_what_they_saw: true }), [MIRA, ODO]),
    );
    const onClose = renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    await within(group).findByRole("group", { name: /Characters present/ });
    expect(knowing().checked).toBe(true);
    fireEvent.click(knowing());
    fireEvent.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(onClose, document.body.textContent ?? "").toHaveBeenCalled());
    expect(calls.filter((c) => c.method === "PUT")).toEqual([
      expect.objectContaining({ body: { knows_what_they_saw: false } }),
    ]);
  });

  it("is not offered while one character tells the story", async () => {
    mockFetch(serve(settings("character", [MIRA.id]), [MIRA, ODO]));
    renderDialog();
    const group = await screen.findByRole("group", { name: "Who tells the story" });
    await waitFor(() => expect(within(group).getByLabelText("Character")).toBeTruthy());
    expect(screen.queryByRole("checkbox", { name: "Characters know only what they saw" })).toBeNull();
  });
});

describe("A character's messages", () => {
  it("show the speaker's name and portrait instead of the narrator's", () => {
    mockFetch(() => json({ detail: "no" }, 404));
    render(
      <Providers auth={SIGNED_IN}>
        <SpeakerPortraitsProvider value={(id) => (id === MIRA.id ? "/media/mira.webp" : null)}>
          <MessageList
            messages={[
              makeMessage({ id: "m1", role: "assistant", content: "The storm rolls in.", speaker: null }),
              makeMessage({
                id: "m2",
                role: "assistant",
                content: '*Mira Voss lowers her lantern.* "I keep the light."',
                speaker: { card_id: MIRA.id, name: "Mira Voss" },
              }),
            ]}
            pollingStopped={new Map()}
            sending={null}
            onPreview={() => {}}
            onMediaError={() => {}}
          />
        </SpeakerPortraitsProvider>
      </Providers>,
    );
    expect(screen.getByText("Mira Voss")).toBeTruthy();
    const portrait = screen.getByTestId("speaker-portrait") as HTMLImageElement;
    expect(portrait.getAttribute("src")).toBe("/media/mira.webp");
    // Only Mira's message shows a speaker's name and portrait; the narrator's keeps the feather.
    expect(screen.getAllByTestId("speaker-portrait")).toHaveLength(1);
    expect(screen.getAllByText("Mira Voss")).toHaveLength(1);
    expect(screen.getByText("I keep the light.", { exact: false })).toBeTruthy();
  });
});
