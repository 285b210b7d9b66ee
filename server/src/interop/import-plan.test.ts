// The mapping of a character card and of lore entries to a story and Story Cards: limits applied with a note
// for every cut, macros replaced only in what the player reads as the story, unusable keys left out with a
// reason, and our own export's extensions.storyverse read back.
import { STORY_CONTEXT_MAX_LENGTH } from "@storyverse/contract/stories";
import { describe, expect, it } from "vitest";
import type { CardV3Data, ParsedCard } from "./formats/character-card";
import type { LoreEntry } from "./formats/lorebooks";
import { cardsFromCharacter, KEPT_ASSET_FILES_MAX_BYTES, loreCardInputs, storyFromCard } from "./import-plan";

const card = (fields: Partial<CardV3Data> = {}): CardV3Data => ({
  name: "Ada",
  description: "{{char}} mends clocks.",
  personality: "Curious.",
  scenario: "{{user}} brings a broken watch.",
  first_mes: "Hello, {{user}}. I am <BOT>.",
  mes_example: "",
  creator_notes: "",
  system_prompt: "",
  post_history_instructions: "",
  alternate_greetings: [],
  tags: [],
  creator: "",
  character_version: "",
  extensions: {},
  group_only_greetings: [],
  ...fields,
});

const parsed = (fields: Partial<CardV3Data> = {}, image: ParsedCard["image"] = null): ParsedCard => ({
  card: card(fields),
  spec: "v3",
  image,
  assets: [],
});

const lore = (fields: Partial<LoreEntry> = {}): LoreEntry => ({
  name: "Tower",
  keys: ["tower"],
  secondaryKeys: [],
  selectiveLogic: "and_any",
  content: "A tall tower.",
  enabled: true,
  constant: false,
  insertionOrder: 100,
  priority: 10,
  caseSensitive: false,
  extensions: {},
  ...fields,
});

describe("a character card as a new story", () => {
  it("replaces macros in the opening, context and Memory, and keeps them raw on the card", () => {
    const { story, notes } = storyFromCard(
      parsed({ alternate_greetings: ["", "  Again, {{USER}}? "] }),
      "sam",
    );
    expect(story.greetings).toEqual(["Hello, sam. I am Ada.", "Again, sam?"]);
    expect(story.context).toBe("sam brings a broken watch.\n\nAda mends clocks.");
    expect(story.memory).toBe("Ada's personality: Curious.");
    expect(story.cards[0]).toMatchObject({
      name: "Ada",
      kind: "character",
      constant: true,
      triggers: ["Ada"],
      description: "{{char}} mends clocks.",
    });
    expect(story.cards[0]!.characterCard).not.toHaveProperty("character_book");
    expect(notes).toEqual([]);
  });

  it("numbers a book entry named like the character, and says so", () => {
    const entry = {
      keys: ["ada"],
      content: "Ada's other self.",
      extensions: {},
      enabled: true,
      insertion_order: 0,
    };
    const { story, notes } = storyFromCard(
      parsed({ character_book: { extensions: {}, entries: [{ ...entry, name: "ada" }] } }),
      "sam",
    );
    expect(story.cards.map((c) => c.name)).toEqual(["Ada", "ada (2)"]);
    expect(notes).toEqual([{ name: 'card "ada"', reason: 'renamed "ada (2)": another card has that name' }]);
  });

  it("cuts what is too long, and says so", () => {
    const long = "x".repeat(STORY_CONTEXT_MAX_LENGTH + 500);
    const { story, notes } = storyFromCard(parsed({ name: "N".repeat(120), scenario: long }), "sam");
    expect(Array.from(story.title)).toHaveLength(100);
    expect(story.context).toHaveLength(STORY_CONTEXT_MAX_LENGTH);
    expect(story.cards[0]!.name).toHaveLength(60);
    expect(notes.map((note) => note.name)).toEqual(
      expect.arrayContaining(["title", "context (scenario and description)", "card name"]),
    );
    // The whole name is still what {{char}} stands for, up to the title limit.
    expect(story.characterName).toHaveLength(100);
  });

  it("notes greetings meant for groups; keeps the card's other files within the bound, noting the rest", () => {
    const image = { data: Buffer.from("main"), mimeType: "image/png" };
    const big = Buffer.alloc(KEPT_ASSET_FILES_MAX_BYTES, 1);
    const input = parsed(
      {
        group_only_greetings: ["Hi all"],
        assets: [
          { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
          {
            type: "background",
            uri: "embeded://assets/background/images/forest.png",
            name: "forest",
            ext: "png",
          },
          { type: "other", uri: "embeded://assets/other/other/huge.bin", name: "huge", ext: "bin" },
          { type: "emotion", uri: "__asset:sad.png", name: "sad", ext: "png" },
          { type: "background", uri: "https://example.org/sea.png", name: "sea", ext: "png" },
        ],
      },
      image,
    );
    input.assets = [
      { name: "main", type: "icon", ext: "png", path: "assets/icon/images/main.png", data: image.data },
      {
        name: "forest",
        type: "background",
        ext: "png",
        path: "assets/background/images/forest.png",
        data: Buffer.from("bg"),
      },
      { name: "huge", type: "other", ext: "bin", path: "assets/other/other/huge.bin", data: big },
      { name: "sad", type: "emotion", ext: "png", path: "sad.png", data: Buffer.from("sad") },
    ];
    const { notes, story } = storyFromCard(input, "sam");
    expect(notes).toEqual([
      {
        name: "group-only greetings",
        reason: "kept with the card, not offered: they are meant for group chats",
      },
      {
        name: 'asset "huge" (other)',
        reason: "not kept: a card keeps at most 512 KB of asset files besides its main picture",
      },
    ]);
    const character = story.cards[0]!;
    expect(character.portrait).toBe(image);
    // The main picture is the portrait; a CHARX file is kept by its path; a PNG's legacy one as a data URL.
    expect(character.extensions).toEqual({
      storyverse: { files: { "assets/background/images/forest.png": Buffer.from("bg").toString("base64") } },
    });
    expect(character.characterCard?.assets).toEqual([
      {
        type: "background",
        uri: "embeded://assets/background/images/forest.png",
        name: "forest",
        ext: "png",
      },
      {
        type: "emotion",
        uri: `data:application/octet-stream;base64,${Buffer.from("sad").toString("base64")}`,
        name: "sad",
        ext: "png",
      },
      { type: "background", uri: "https://example.org/sea.png", name: "sea", ext: "png" },
    ]);
  });

  it("reads back the Story Card fields our export wrote, and a placeholder picture is no portrait", () => {
    const image = { data: Buffer.from("png"), mimeType: "image/png" };
    const exported = parsed(
      {
        extensions: {
          other: 1,
          storyverse: { kind: "place", triggers: ["keep"], constant: false, priority: 5, portrait: false },
        },
      },
      image,
    );
    const [made] = cardsFromCharacter(exported, 100, []);
    expect(made).toMatchObject({
      kind: "place",
      triggers: ["keep"],
      constant: false,
      priority: 5,
      portrait: null,
    });
    expect(made!.characterCard!.extensions).toEqual({ other: 1 });
  });
});

describe("lore entries as Story Cards", () => {
  it("leaves out keys the app cannot use, with the reason", () => {
    const notes: { name: string; reason: string }[] = [];
    const [made] = loreCardInputs(
      [
        lore({
          keys: [
            "tower",
            "TOWER",
            "/(a+)+$/",
            "k".repeat(41),
            ...Array.from({ length: 12 }, (_, i) => `k${i}`),
          ],
        }),
      ],
      100,
      notes,
    );
    expect(made!.triggers).toEqual(["tower", ...Array.from({ length: 9 }, (_, i) => `k${i}`)]);
    expect(notes.map((note) => note.reason)).toEqual([
      expect.stringContaining("nests repeats"),
      expect.stringContaining("longer than 40"),
      "kept the first 10 of its 13 triggers",
    ]);
  });

  it("skips an entry with no usable key that is not always on, and entries beyond the story's room", () => {
    const notes: { name: string; reason: string }[] = [];
    const made = loreCardInputs(
      [
        lore({ name: "A", keys: ["/(a+)+/"] }),
        lore({ name: "B" }),
        lore({ name: "C" }),
        lore({ name: "D", constant: true, keys: [] }),
      ],
      2,
      notes,
    );
    expect(made.map((card) => card.name)).toEqual(["B", "C"]);
    expect(notes.map((note) => note.name)).toEqual(['entry "A"', "A", "D"]);
  });

  it("clamps orders to the app's range with a note", () => {
    const notes: { name: string; reason: string }[] = [];
    const [made] = loreCardInputs([lore({ insertionOrder: -5, priority: 5000 })], 100, notes);
    expect(made).toMatchObject({ insertionOrder: 0, priority: 1000 });
    expect(notes).toHaveLength(2);
  });
});
