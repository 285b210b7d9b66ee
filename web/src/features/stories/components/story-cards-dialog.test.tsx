// The Story Cards dialog: the editor's trigger chips, counters and what Save sends (the advanced lore rules
// too); a draft from "Make a card" prefills the editor; the list's switch and delete; importing a card or a
// lorebook (a dry run's preview first, the real import only on confirm); the exports' addresses; the lore
// settings.
import { CARD_DESCRIPTION_MAX_LENGTH, type StoryCard } from "@storyverse/contract/story-cards";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeCard } from "../../../test/story-fixtures";
import { type CardEditorStart, StoryCardsDialog } from "./story-cards-dialog";
import { narratorContext } from "./test-context";

const STORY = "11111111-1111-4111-8111-111111111111";
const card = (changes: Partial<StoryCard> = {}): StoryCard => ({
  ...makeCard("22222222-2222-4222-8222-222222222222", "Captain Rell", "character"),
  triggers: ["Rell"],
  description: "A one-eyed captain.",
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
    expect(screen.getByText(`19/${CARD_DESCRIPTION_MAX_LENGTH}`)).toBeTruthy();
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
    expect(screen.getByRole("alert").textContent).toContain(
      "Please add at least one trigger word, or make the card always on.",
    );
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
        portrait: null,
      },
    });
    expect(screen.getByText("A draft from the narrator's message: review it, then save.")).toBeTruthy();
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("Tobin Marsh");
    expect(screen.getByRole("list", { name: "Trigger words" }).textContent).toBe("TobinMarsh");
    expect((screen.getByLabelText("Description") as HTMLTextAreaElement).value).toBe("An old sailor.");
    expect(screen.queryByLabelText("Use this scene as the portrait")).toBeNull();
  });

  it("warns on over-broad triggers and asks before saving them; Save anyway sends them as they are", async () => {
    const calls = mockFetch((call) =>
      call.method === "POST" ? json({ success: true, card: card() }) : json({ success: true, cards: [] }),
    );
    renderDialog({ blank: true });
    type("Name", "Captain Rell");
    const trigger = screen.getByRole("textbox", { name: "Triggers" });
    for (const word of ["The", "Rell", "ox", "/rel+/"]) {
      fireEvent.change(trigger, { target: { value: word } });
      fireEvent.keyDown(trigger, { key: "Enter" });
    }
    // The regex trigger is the player's exact choice: never called too broad.
    expect(screen.getByText(/Too common to pick this card out: The, ox\./)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    const ask = await screen.findByRole("alertdialog", { name: "Over-broad triggers" });
    expect(ask.textContent).toContain(
      "These triggers will wake the card on almost every message: The, ox. Save anyway?",
    );
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);

    // "Change the triggers" closes the question; asked again, "Save anyway" keeps them as they are.
    fireEvent.click(within(ask).getByRole("button", { name: "Change the triggers" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    fireEvent.click(
      within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Save anyway" }),
    );
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      triggers: ["The", "Rell", "ox", "/rel+/"],
    });
  });

  it("saves rare triggers without asking", async () => {
    const calls = mockFetch((call) =>
      call.method === "POST" ? json({ success: true, card: card() }) : json({ success: true, cards: [] }),
    );
    renderDialog({ blank: true });
    type("Name", "Captain Rell");
    type("Triggers", "Rell");
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(screen.queryByText(/Too common/)).toBeNull();
  });

  it("offers the message's picture as the portrait, chosen by default", async () => {
    const calls = mockFetch((call) =>
      call.method === "POST" ? json({ success: true, card: card() }) : json({ success: true, cards: [] }),
    );
    const scene = { gallery_item_id: "33333333-3333-4333-8333-333333333333", url: "/media/scene.webp" };
    renderDialog({
      draft: { name: "Mara", kind: "character", triggers: ["Mara"], description: "", portrait: scene },
    });
    const option = screen.getByLabelText("Use this scene as the portrait") as HTMLInputElement;
    expect(option.checked).toBe(true);
    expect(screen.getByAltText("Portrait of Mara").getAttribute("src")).toBe(scene.url);
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      name: "Mara",
      portrait: { gallery_item_id: scene.gallery_item_id },
    });
  });

  it("without the scene option the card is saved with no portrait", async () => {
    const calls = mockFetch((call) =>
      call.method === "POST" ? json({ success: true, card: card() }) : json({ success: true, cards: [] }),
    );
    const scene = { gallery_item_id: "33333333-3333-4333-8333-333333333333", url: "/media/scene.webp" };
    renderDialog({
      draft: { name: "Mara", kind: "character", triggers: ["Mara"], description: "", portrait: scene },
    });
    fireEvent.click(screen.getByLabelText("Use this scene as the portrait"));
    expect(screen.queryByAltText("Portrait of Mara")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ portrait: null });
  });

  it("asks for a name when the draft has none, and wakes the card on the name given", async () => {
    const calls = mockFetch((call) =>
      call.method === "POST" ? json({ success: true, card: card() }) : json({ success: true, cards: [] }),
    );
    renderDialog({
      draft: { name: "", kind: "character", triggers: [], description: "The door opened.", portrait: null },
    });
    expect(screen.getByText(/names no one: give the card a name/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    expect(screen.getByRole("alert").textContent).toContain("Please give the card a name.");
    type("Name", "The Green Door");
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      name: "The Green Door",
      triggers: ["The Green Door"],
    });
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

describe("Story Cards: a character's voice", () => {
  const VOICES = {
    success: true,
    provider: "offline",
    default_voice: "amber",
    price_per_unit: 0,
    voices: [
      { id: "amber", name: "Amber", language: "en-US", sample_url: "/api/voices/amber/sample" },
      { id: "slate", name: "Slate", language: "en-GB", sample_url: "/api/voices/slate/sample" },
    ],
  };

  it("picks a character's voice and saves it with the card; other kinds have none to pick", async () => {
    const calls = mockFetch((call) => {
      if (call.path === "/api/voices") return json(VOICES);
      if (call.method === "PUT") return json({ success: true, card: card({ voice: "slate" }) });
      return json({ success: true, cards: [card()] });
    });
    renderDialog(null);
    fireEvent.click(await screen.findByRole("button", { name: "Edit Captain Rell" }));
    const voice = (await screen.findByLabelText("Voice")) as HTMLSelectElement;
    expect([...voice.options].map((o) => o.textContent)).toEqual([
      "Picked from the name",
      "Amber (en-US)",
      "Slate (en-GB)",
    ]);
    expect(voice.value).toBe("");
    expect(screen.getByRole("button", { name: "Play sample" })).toBeTruthy();
    fireEvent.change(voice, { target: { value: "slate" } });

    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "place" } });
    expect(screen.queryByLabelText("Voice")).toBeNull();
    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "character" } });

    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({ voice: "slate" });
  });

  it("shows a character's appearance now and saves a correction; other kinds have none", async () => {
    const calls = mockFetch((call) => {
      if (call.method === "PUT")
        return json({ success: true, card: card({ appearance: "a torn red coat" }) });
      return json({ success: true, cards: [card({ appearance: "a scarlet coat" })] });
    });
    renderDialog(null);
    fireEvent.click(await screen.findByRole("button", { name: "Edit Captain Rell" }));
    const appearance = screen.getByLabelText("Appearance now") as HTMLTextAreaElement;
    expect(appearance.value).toBe("a scarlet coat");
    fireEvent.change(appearance, { target: { value: " a torn red coat " } });
    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "place" } });
    expect(screen.queryByLabelText("Appearance now")).toBeNull();
    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "character" } });
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({ appearance: "a torn red coat" });
  });

  it("a new character is saved with its voice, null when picked from the name", async () => {
    const calls = mockFetch((call) => {
      if (call.path === "/api/voices") return json(VOICES);
      if (call.method === "POST") return json({ success: true, card: card() });
      return json({ success: true, cards: [] });
    });
    renderDialog({ blank: true });
    type("Name", "Captain Rell");
    const trigger = screen.getByRole("textbox", { name: "Triggers" });
    fireEvent.change(trigger, { target: { value: "Rell" } });
    fireEvent.keyDown(trigger, { key: "Enter" });
    expect(((await screen.findByLabelText("Voice")) as HTMLSelectElement).value).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ name: "Captain Rell", voice: null });
  });

  it("shows no voice when the server has narration off", async () => {
    mockFetch((call) =>
      call.path === "/api/voices"
        ? json({ ...VOICES, provider: "none", default_voice: null, voices: [] })
        : json({ success: true, cards: [card()] }),
    );
    renderDialog(null);
    fireEvent.click(await screen.findByRole("button", { name: "Edit Captain Rell" }));
    await waitFor(() => expect(fetch).toHaveBeenCalledWith("/api/voices", expect.anything()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByLabelText("Voice")).toBeNull();
  });
});

describe("Story Cards: advanced lore rules", () => {
  it("starts folded on a plain card; an always-on card saves with no trigger and every rule as set", async () => {
    const calls = mockFetch((call) =>
      call.method === "POST" ? json({ success: true, card: card() }) : json({ success: true, cards: [] }),
    );
    renderDialog({ blank: true });
    const disclosure = screen.getByRole("button", { name: "Advanced lore rules" });
    expect(disclosure.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByLabelText("Always on")).toBeNull();
    fireEvent.click(disclosure);
    expect(screen.getByText(/is\s+a regular expression/)).toBeTruthy();

    type("Name", "The Old Faith");
    fireEvent.click(screen.getByLabelText("Always on"));
    const secondary = screen.getByRole("textbox", { name: /Secondary keys/ });
    fireEvent.change(secondary, { target: { value: "temple," } });
    fireEvent.change(secondary, { target: { value: "/priests?/i" } });
    fireEvent.change(screen.getByLabelText("How the secondary keys combine"), {
      target: { value: "not_all" },
    });
    expect((screen.getByRole("option", { name: "and not all of" }) as HTMLOptionElement).selected).toBe(true);
    fireEvent.click(screen.getByLabelText("Case-sensitive triggers"));
    type("Insertion order", "5");
    type("Priority", "40");
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      name: "The Old Faith",
      triggers: [],
      constant: true,
      secondary_triggers: ["temple", "/priests?/i"],
      selective_logic: "not_all",
      case_sensitive: true,
      insertion_order: 5,
      priority: 40,
    });
  });

  it("opens unfolded on a card with rules, refuses an order out of range, and shows the server's 400 beside the form", async () => {
    const ruled = card({ secondary_triggers: ["sword"], selective_logic: "and_all", priority: 3 });
    const calls = mockFetch((call) =>
      call.method === "PUT"
        ? json(
            {
              detail: 'triggers: "/(a+)+/" nests repeats or refers back, which can take too long to match',
              code: "invalid_request",
            },
            400,
          )
        : json({ success: true, cards: [ruled] }),
    );
    renderDialog({ card: ruled });
    expect(screen.getByRole("button", { name: "Advanced lore rules" }).getAttribute("aria-expanded")).toBe(
      "true",
    );
    expect(screen.getByRole("list", { name: "Secondary keys" }).textContent).toBe("sword");
    expect((screen.getByLabelText("How the secondary keys combine") as HTMLSelectElement).value).toBe(
      "and_all",
    );
    expect((screen.getByLabelText("Priority") as HTMLInputElement).value).toBe("3");

    type("Insertion order", "1001");
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    expect(screen.getByRole("alert").textContent).toContain(
      "Insertion order must be a whole number from 0 to 1000.",
    );
    expect(calls.some((c) => c.method === "PUT")).toBe(false);

    type("Insertion order", "0");
    const trigger = screen.getByRole("textbox", { name: "Triggers" });
    // A comma inside a pattern belongs to it: the chip is made only once the pattern is closed.
    fireEvent.change(trigger, { target: { value: "/a{2," } });
    expect(screen.getByRole("list", { name: "Trigger words" }).textContent).toBe("Rell");
    fireEvent.change(trigger, { target: { value: "/(a+)+/" } });
    fireEvent.click(screen.getByRole("button", { name: "Save card" }));
    expect(await screen.findByText(/nests repeats or refers back/)).toBeTruthy();
    expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({
      triggers: ["Rell", "/(a+)+/"],
      insertion_order: 0,
      secondary_triggers: ["sword"],
      selective_logic: "and_all",
    });
    // Still in the editor, as typed.
    expect(screen.getByRole("form", { name: "Edit Captain Rell" })).toBeTruthy();
  });

  it("shows a character card's creator notes in the editor", () => {
    mockFetch(() => json({ success: true, cards: [] }));
    renderDialog({ card: card({ from_character_card: true, creator_notes: "Best with a slow-burn plot." }) });
    expect(screen.getByRole("region", { name: "Creator's notes" }).textContent).toContain(
      "Best with a slow-burn plot.",
    );
  });
});

const WORLD_INFO = new File(['{"entries":{}}'], "harbour-lore.json", { type: "application/json" });

/** The import's answer: a dry run's preview, or the cards made. */
const importAnswer = (dryRun: boolean) =>
  json({
    success: true,
    dry_run: dryRun,
    source: "SillyTavern World Info",
    cards: dryRun
      ? [
          {
            name: "Mara",
            kind: "character",
            triggers: ["Mara", "/the smith/i"],
            description: "",
            constant: false,
            has_portrait: false,
          },
          {
            name: "The Tide",
            kind: "other",
            triggers: [],
            description: "",
            constant: true,
            has_portrait: false,
          },
        ]
      : [card({ name: "Mara", id: "m" }), card({ name: "The Tide", id: "t", constant: true, triggers: [] })],
    skipped: [{ name: "Old draft", reason: "the entry is disabled" }],
  });

/** The multipart uploads sent, with their file. */
const uploads = () =>
  vi
    .mocked(fetch)
    .mock.calls.filter(([, init]) => init?.body instanceof FormData)
    .map(([input, init]) => ({ path: String(input), file: (init?.body as FormData).get("file") as File }));

describe("Story Cards: import", () => {
  it("previews a dry run (cards, always-on marker, what is skipped and why), then imports on confirm", async () => {
    let cards: StoryCard[] = [];
    mockFetch((call) => {
      if (call.method === "POST") {
        const real = call.path.endsWith("dry_run=false");
        if (real)
          cards = [
            card({ name: "Mara", id: "m" }),
            card({ name: "The Tide", id: "t", constant: true, triggers: [] }),
          ];
        return importAnswer(!real);
      }
      return json({ success: true, cards });
    });
    renderDialog(null);
    fireEvent.click(await screen.findByRole("button", { name: "Import cards or a lorebook" }));
    fireEvent.change(screen.getByLabelText("Choose a card or lorebook file"), {
      target: { files: [WORLD_INFO] },
    });

    const made = await screen.findByRole("list", { name: "Cards to make" });
    expect(uploads()).toEqual([
      { path: `/api/stories/${STORY}/cards/import?dry_run=true`, file: WORLD_INFO },
    ]);
    expect(screen.getByText(/harbour-lore\.json: SillyTavern World Info/)).toBeTruthy();
    const mara = within(made).getByRole("listitem", { name: "Mara" });
    expect(within(mara).getByRole("list", { name: "Triggers of Mara" }).textContent).toBe("Mara/the smith/i");
    expect(
      within(within(made).getByRole("listitem", { name: "The Tide" })).getByText("Always on"),
    ).toBeTruthy();
    expect(within(mara).queryByText("Always on")).toBeNull();
    expect(screen.getByRole("list", { name: "Skipped" }).textContent).toBe(
      "Old draft: the entry is disabled",
    );

    fireEvent.click(screen.getByRole("button", { name: "Import 2 cards" }));
    expect(await screen.findByText("Imported 2 cards.")).toBeTruthy();
    expect(uploads().map((u) => u.path)).toEqual([
      `/api/stories/${STORY}/cards/import?dry_run=true`,
      `/api/stories/${STORY}/cards/import?dry_run=false`,
    ]);
    const list = await screen.findByRole("list", { name: "Cards" });
    await waitFor(() =>
      expect(within(list).getAllByRole("listitem", { name: /Mara|The Tide/ })).toHaveLength(2),
    );
    expect(
      within(within(list).getByRole("listitem", { name: "The Tide" })).getByText("Always on"),
    ).toBeTruthy();
  });

  it("saves nothing when the preview is cancelled, reads a dropped file too, and shows why a file cannot be read", async () => {
    mockFetch((call) => {
      if (call.method === "POST") {
        return uploads().length !== 2
          ? importAnswer(true)
          : json(
              {
                detail: "The PNG has no character card inside (no chara or ccv3 chunk).",
                code: "invalid_file",
              },
              400,
            );
      }
      return json({ success: true, cards: [] });
    });
    renderDialog(null);
    fireEvent.click(await screen.findByRole("button", { name: "Import cards or a lorebook" }));
    fireEvent.change(screen.getByLabelText("Choose a card or lorebook file"), {
      target: { files: [WORLD_INFO] },
    });
    await screen.findByRole("list", { name: "Cards to make" });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(await screen.findByText(/No cards yet/)).toBeTruthy();
    expect(uploads().map((u) => u.path)).toEqual([`/api/stories/${STORY}/cards/import?dry_run=true`]);

    fireEvent.click(screen.getByRole("button", { name: "Import cards or a lorebook" }));
    const png = new File([new Uint8Array([137, 80, 78, 71])], "portrait.png", { type: "image/png" });
    fireEvent.change(screen.getByLabelText("Choose a card or lorebook file"), { target: { files: [png] } });
    expect(
      await screen.findByText(/Could not read portrait\.png: The PNG has no character card inside/),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Import \d/ })).toBeNull();
    expect(uploads().every((u) => u.path.endsWith("dry_run=true"))).toBe(true);

    // A file dropped on the panel is read the same way.
    fireEvent.drop(screen.getByText("Drop a file here, or"), { dataTransfer: { files: [WORLD_INFO] } });
    expect(await screen.findByRole("list", { name: "Cards to make" })).toBeTruthy();
    expect(uploads()).toHaveLength(3);
    fireEvent.click(screen.getByRole("button", { name: "Choose another file" }));

    // A file of another kind is refused before anything is sent.
    const text = new File(["hello"], "notes.txt", { type: "text/plain" });
    fireEvent.change(screen.getByLabelText("Choose a card or lorebook file"), { target: { files: [text] } });
    expect(await screen.findByText("Please choose a .json, .png, .charx or .lorebook file.")).toBeTruthy();
    expect(uploads()).toHaveLength(3);
    expect(uploads().every((u) => u.path.endsWith("dry_run=true"))).toBe(true);
  });
});

describe("Story Cards: export", () => {
  let clicked: { href: string; download: string }[];
  beforeEach(() => {
    clicked = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute("href") ?? "", download: this.download });
    });
    vi.stubGlobal(
      "URL",
      Object.assign(URL, { createObjectURL: vi.fn(() => "blob:file"), revokeObjectURL: vi.fn() }),
    );
  });

  const openMenu = async (name: string) =>
    fireEvent.keyDown(await screen.findByRole("button", { name }), { key: "Enter" });

  it("exports a card as PNG, CHARX or JSON and all cards as World Info or a character book", async () => {
    const calls = mockFetch((call) =>
      call.path.includes("/export")
        ? new Response("file", {
            status: 200,
            headers: call.path.includes("format=png")
              ? { "Content-Disposition": 'attachment; filename="Captain Rell.png"' }
              : {},
          })
        : json({ success: true, cards: [card()] }),
    );
    renderDialog(null);
    const exports = () => calls.filter((c) => c.path.includes("/export")).map((c) => c.path);
    const cardPath = `/api/stories/${STORY}/cards/${card().id}/export`;

    await openMenu("Export Captain Rell");
    fireEvent.click(await screen.findByRole("menuitem", { name: /^PNG card/ }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toEqual({ href: "blob:file", download: "Captain Rell.png" });
    await openMenu("Export Captain Rell");
    fireEvent.click(await screen.findByRole("menuitem", { name: /^CHARX/ }));
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(clicked[1]?.download).toBe("Captain Rell.charx");
    await openMenu("Export Captain Rell");
    fireEvent.click(await screen.findByRole("menuitem", { name: /^JSON/ }));
    await waitFor(() => expect(clicked).toHaveLength(3));

    await openMenu("Export all cards");
    fireEvent.click(await screen.findByRole("menuitem", { name: /^Export as SillyTavern World Info/ }));
    await waitFor(() => expect(clicked).toHaveLength(4));
    expect(clicked[3]?.download).toBe("world-info.json");
    await openMenu("Export all cards");
    fireEvent.click(await screen.findByRole("menuitem", { name: /^Export as character book/ }));
    await waitFor(() => expect(clicked).toHaveLength(5));

    expect(exports()).toEqual([
      `${cardPath}?format=png`,
      `${cardPath}?format=charx`,
      `${cardPath}?format=json`,
      `/api/stories/${STORY}/cards/export?format=worldinfo`,
      `/api/stories/${STORY}/cards/export?format=character_book`,
    ]);
    expect(calls.find((c) => c.path.includes("/export"))?.headers.Authorization).toBe("Bearer test-token");
  });

  it("says why an export failed", async () => {
    mockFetch((call) =>
      call.path.includes("/export")
        ? json({ detail: "Story not found", code: "not_found" }, 404)
        : json({ success: true, cards: [card()] }),
    );
    renderDialog(null);
    await openMenu("Export all cards");
    fireEvent.click(await screen.findByRole("menuitem", { name: /^Export as SillyTavern World Info/ }));
    expect(await screen.findByText("Failed to export: Story not found")).toBeTruthy();
    expect(clicked).toEqual([]);
  });
});

const SETTINGS = {
  success: true,
  lore_budget_percent: 50,
  lore_scan_depth: 4,
  narrator_instructions: "",
  post_history_instructions: "",
  creator_notes: "Made for long voyages.",
  character_name: "Captain Rell",
};

describe("Story Cards: lore settings", () => {
  it("sends only what changed, refuses a budget out of range, and shows the creator's notes", async () => {
    const calls = mockFetch((call) => {
      if (call.path.endsWith("/lore-settings")) {
        return json(call.method === "PUT" ? { ...SETTINGS, ...(call.body as object) } : SETTINGS);
      }
      return json({ success: true, cards: [] });
    });
    renderDialog(null);
    fireEvent.click(await screen.findByRole("button", { name: "Lore settings" }));
    expect(await screen.findByRole("region", { name: "Creator's notes" })).toBeTruthy();
    expect(screen.getByText("Creator's notes for Captain Rell")).toBeTruthy();
    expect(screen.getByText(/where the default\s+instructions should go/)).toBeTruthy();
    type("Lore budget", "95");
    fireEvent.click(screen.getByRole("button", { name: "Save lore settings" }));
    expect(await screen.findByText("The lore budget must be a whole number from 5 to 90 %.")).toBeTruthy();
    expect(calls.some((c) => c.method === "PUT")).toBe(false);

    type("Lore budget", "30");
    type("Scan depth", "8");
    type("Post-history instructions", "{{original}} Keep answers short.");
    fireEvent.click(screen.getByRole("button", { name: "Save lore settings" }));
    expect(await screen.findByText("Lore settings saved.")).toBeTruthy();
    expect(calls.find((c) => c.method === "PUT")).toMatchObject({
      path: `/api/stories/${STORY}/lore-settings`,
      body: {
        lore_budget_percent: 30,
        lore_scan_depth: 8,
        post_history_instructions: "{{original}} Keep answers short.",
      },
    });
    expect(Object.keys(calls.find((c) => c.method === "PUT")?.body as object).sort()).toEqual([
      "lore_budget_percent",
      "lore_scan_depth",
      "post_history_instructions",
    ]);
  });
});

describe("Story Cards docked beside the story (the side panel)", () => {
  it("says beside its title what the cards take of the next turn, read again when a card changes", async () => {
    let enabled = true;
    const calls = mockFetch((call) => {
      if (call.path.startsWith(`/api/stories/${STORY}/context`)) {
        return json(narratorContext({ cards: enabled ? 80 : 0 }));
      }
      if (call.method === "PUT") {
        enabled = false;
        return json({ success: true, card: card({ enabled: false }) });
      }
      return json({ success: true, cards: [card()] });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <StoryCardsDialog docked storyId={STORY} start={null} onClose={() => {}} />
      </Providers>,
    );
    // The count sits beside the title, outside the panel's name.
    const panel = screen.getByRole("dialog", { name: "Story Cards" });
    expect(await within(panel).findByText("80 tokens")).toBeTruthy();
    expect(within(panel).getByRole("heading", { name: "Story Cards" }).parentElement?.textContent).toBe(
      "Story Cards· 80 tokens",
    );
    fireEvent.click(await within(panel).findByRole("switch", { name: "Enabled: Captain Rell" }));
    expect(await within(panel).findByText("0 tokens")).toBeTruthy();
    expect(calls.filter((c) => c.path.startsWith(`/api/stories/${STORY}/context`)).length).toBeGreaterThan(1);
  });

  it("a new draft from Make a card, while the panel is open on the list, opens the editor on it", async () => {
    mockFetch((call) =>
      call.path.startsWith(`/api/stories/${STORY}/context`)
        ? json(narratorContext({}))
        : json({ success: true, cards: [card()] }),
    );
    const view = (start: CardEditorStart | null) => (
      <Providers auth={SIGNED_IN}>
        <StoryCardsDialog docked storyId={STORY} start={start} onClose={() => {}} />
      </Providers>
    );
    const { rerender } = render(view(null));
    expect(await screen.findByRole("listitem", { name: "Captain Rell" })).toBeTruthy();
    rerender(
      view({
        draft: {
          name: "Tobin Marsh",
          kind: "character",
          triggers: ["Tobin"],
          description: "",
          portrait: null,
        },
      }),
    );
    expect(
      await screen.findByText("A draft from the narrator's message: review it, then save."),
    ).toBeTruthy();
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("Tobin Marsh");
  });
});

describe("Story Cards: the gallery picker", () => {
  const image = (n: number) => ({
    id: `img-${n}`,
    type: "image",
    media_url: `/media/${n}.webp`,
    url: `/media/${n}.webp`,
    thumbnail_url: null,
    created_at: "2026-11-25T00:00:00.000Z",
    description: `Scene ${n}`,
    source: "story",
    story_id: STORY,
    story_title: "Harbour",
    file_extension: "webp",
    message_id: null,
  });
  const scrolled = vi.fn();
  beforeEach(() => {
    scrolled.mockClear();
    Object.defineProperty(HTMLElement.prototype, "scrollIntoView", { configurable: true, value: scrolled });
  });

  function openPicker(reducedMotion: boolean) {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: reducedMotion && query === "(prefers-reduced-motion: reduce)",
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    mockFetch((call) =>
      call.path === "/api/user/images"
        ? json({ success: true, images: [image(1), image(2)] })
        : json({ success: true, cards: [] }),
    );
    renderDialog({ blank: true });
    fireEvent.click(screen.getByRole("button", { name: "From gallery" }));
  }

  /** The calls that brought the picker's images into view. */
  const picksShown = () =>
    scrolled.mock.contexts
      .map((element, index) => ({
        element: element as HTMLElement,
        options: scrolled.mock.calls[index]?.[0],
      }))
      .filter(({ element }) => element.querySelector('[aria-label="Your images"]'));

  it("opens scrolled into view, without motion for a player who asks for less", async () => {
    openPicker(true);
    expect(await screen.findByRole("list", { name: "Your images" })).toBeTruthy();
    expect(picksShown().map(({ options }) => options)).toEqual([{ block: "nearest", behavior: "auto" }]);
  });

  it("scrolls smoothly otherwise, and a picked image closes the picker", async () => {
    openPicker(false);
    fireEvent.click(await screen.findByRole("button", { name: "Use image 2 as the portrait" }));
    expect(picksShown().map(({ options }) => options)).toEqual([{ block: "nearest", behavior: "smooth" }]);
    expect(screen.queryByRole("list", { name: "Your images" })).toBeNull();
    expect(screen.getByAltText("Portrait of the card").getAttribute("src")).toBe("/media/2.webp");
  });
});
