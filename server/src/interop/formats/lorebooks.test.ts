// Lorebooks from SillyTavern, NovelAI, AI Dungeon and character cards, and lossless round trips back out.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type CharacterBook, readCardFile } from "./character-card";
import { InteropError } from "./errors";
import {
  bookEntriesToLore,
  type LoreEntry,
  readLorebookFile,
  toCharacterBook,
  toWorldInfo,
} from "./lorebooks";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/interop/${name}`, import.meta.url));
const fixtureJson = (name: string) => JSON.parse(fixture(name).toString("utf8"));
const jsonFile = (value: unknown) => Buffer.from(JSON.stringify(value));

async function refusal(bytes: Buffer): Promise<string> {
  const error = await readLorebookFile(bytes).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(InteropError);
  return (error as InteropError).detail;
}

const byName = (entries: LoreEntry[], name: string) => entries.find((entry) => entry.name === name)!;

describe("SillyTavern World Info", () => {
  it("reads keys, secondary keys with each of the four selective logics, constant, order and case", async () => {
    const book = await readLorebookFile(fixture("worldinfo.json"));
    expect(book.format).toBe("worldinfo");
    expect(book.entries.map((entry) => [entry.name, entry.selectiveLogic])).toEqual([
      ["Harbour at night (AND ANY)", "and_any"],
      ["Free smugglers (NOT ALL)", "not_all"],
      ["Honest guards (NOT ANY)", "not_any"],
      ["Wreck in a storm (AND ALL)", "and_all"],
      ["Always: the sea", "and_any"],
      ["Regex: keepers", "and_any"],
    ]);
    expect(byName(book.entries, "Harbour at night (AND ANY)")).toMatchObject({
      keys: ["harbour", "docks"],
      secondaryKeys: ["night", "fog"],
      content: "At night the harbour is shut with a chain.",
      enabled: true,
      constant: false,
      insertionOrder: 40,
      priority: 40,
      caseSensitive: false,
    });
    expect(byName(book.entries, "Wreck in a storm (AND ALL)").caseSensitive).toBe(true);
    expect(byName(book.entries, "Always: the sea")).toMatchObject({
      constant: true,
      keys: [],
      insertionOrder: 1,
    });
    expect(byName(book.entries, "Regex: keepers").keys).toEqual(["/\\bkeeper(s)?\\b/i"]);
    // What the app does not model is kept: depth, probability, position, uid...
    const smugglers = byName(book.entries, "Free smugglers (NOT ALL)").extensions.worldinfo as Record<
      string,
      unknown
    >;
    expect(smugglers).toMatchObject({ uid: 1, depth: 2, position: 4, role: 0, probability: 100 });
    expect(byName(book.entries, "Honest guards (NOT ANY)").extensions.worldinfo).toMatchObject({
      probability: 50,
    });
  });

  it("skips entries with no content, or with neither keys nor constant, saying why", async () => {
    const book = await readLorebookFile(fixture("worldinfo.json"));
    expect(book.skipped).toEqual([
      { name: "An entry with no content", reason: "It has no content." },
      { name: "No keys, not constant", reason: "It has no keys and is not always on (constant)." },
    ]);
  });

  it("writes back exactly the World Info it read, every field of every entry", async () => {
    const original = fixtureJson("worldinfo.json");
    const book = await readLorebookFile(fixture("worldinfo.json"));
    const written = toWorldInfo(book.entries, "") as { entries: Record<string, unknown> };
    const { "6": _empty, "7": _keyless, ...kept } = original.entries;
    expect(written).toEqual({ entries: kept });
  });

  it("writes what the player changed, and keeps the rest of the entry", async () => {
    const book = await readLorebookFile(fixture("worldinfo.json"));
    const guards = byName(book.entries, "Honest guards (NOT ANY)");
    const changed = {
      ...guards,
      name: "Guards",
      secondaryKeys: ["gold"],
      selectiveLogic: "and_all" as const,
      enabled: false,
    };
    const written = toWorldInfo([changed], "Calder") as {
      name: string;
      entries: Record<string, Record<string, unknown>>;
    };
    expect(written.name).toBe("Calder");
    expect(written.entries["2"]).toMatchObject({
      uid: 2,
      comment: "Guards",
      keysecondary: ["gold"],
      selectiveLogic: 3,
      disable: true,
      probability: 50,
      depth: 4,
    });
  });

  it("gives entries made in the app their own uids and the fields SillyTavern needs", () => {
    const entry: LoreEntry = {
      name: "New",
      keys: ["a"],
      secondaryKeys: ["b"],
      selectiveLogic: "not_any",
      content: "c",
      enabled: true,
      constant: false,
      insertionOrder: 7,
      priority: 10,
      caseSensitive: true,
      extensions: {},
    };
    const written = toWorldInfo([entry, { ...entry, name: "Second" }], "") as {
      entries: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(written.entries)).toEqual(["0", "1"]);
    expect(written.entries["0"]).toMatchObject({
      uid: 0,
      key: ["a"],
      keysecondary: ["b"],
      selective: true,
      selectiveLogic: 2,
      comment: "New",
      content: "c",
      constant: false,
      order: 7,
      position: 0,
      disable: false,
      caseSensitive: true,
    });
  });

  it("refuses a World Info entry of the wrong shape, naming the field", async () => {
    expect(await refusal(jsonFile({ entries: { "0": { key: 5, content: "x" } } }))).toMatch(
      /^The lorebook's field "entries\.0\.key" is invalid/,
    );
  });
});

describe("a Character Card's character_book", () => {
  const v2Book = () => fixtureJson("v2-every-field.json").data.character_book as CharacterBook;

  it("reads every entry field the app models, and keeps the rest", () => {
    const { entries, skipped } = bookEntriesToLore(v2Book());
    expect(skipped).toEqual([]);
    expect(entries[0]).toMatchObject({
      name: "Calder Lighthouse",
      keys: ["lighthouse", "the light"],
      secondaryKeys: ["storm", "night"],
      selectiveLogic: "and_all", // SillyTavern's extensions.selectiveLogic 3
      content: "The Calder light has burned for three hundred years.",
      enabled: true,
      constant: false,
      insertionOrder: 50,
      priority: 20,
      caseSensitive: false,
    });
    expect(entries[0]!.extensions.character_book).toMatchObject({
      id: 1,
      comment: "The main location",
      position: "before_char",
    });
    expect(entries[1]).toMatchObject({
      name: "Weather",
      constant: true,
      keys: [],
      caseSensitive: true,
      secondaryKeys: [],
    });
  });

  it("writes back exactly the entries it read, with the use_regex V3 requires where a V2 book had none", () => {
    const book = v2Book();
    expect(book.entries.every((entry) => entry.use_regex === undefined)).toBe(true);
    const written = toCharacterBook(bookEntriesToLore(book).entries, book.name!);
    expect(written).toEqual({
      name: "Calder Coast",
      extensions: {},
      entries: book.entries.map((entry) => ({ ...entry, use_regex: false })),
    });
  });

  it("says use_regex on every entry: true exactly when a trigger is a /pattern/, which a re-import keeps", () => {
    const entry = (name: string, keys: string[], extensions: Record<string, unknown> = {}): LoreEntry => ({
      name,
      keys,
      secondaryKeys: [],
      selectiveLogic: "and_any",
      content: `About ${name}.`,
      enabled: true,
      constant: false,
      insertionOrder: 100,
      priority: 10,
      caseSensitive: false,
      extensions,
    });
    const entries = [
      entry("Dragons", ["/drag(o|a)ns?/i", "wyrm"]),
      entry("Harbour", ["harbour", "the docks"]),
      // Read from World Info with a regex key: no use_regex in its source, so it is worked out.
      entry("Smugglers", ["/smuggl(er|ing)/"], { worldinfo: { uid: 4, comment: "Smugglers" } }),
      // Read from a book that said use_regex: false, then the player made a trigger a pattern.
      entry("Storm", ["/storms?/i"], {
        character_book: { keys: ["storm"], content: "x", use_regex: false, insertion_order: 100 },
      }),
    ];
    const written = toCharacterBook(entries, "Calder").entries;
    expect(written.map((e) => [e.name ?? e.comment, e.keys, e.use_regex])).toEqual([
      ["Dragons", ["/drag(o|a)ns?/i", "wyrm"], true],
      ["Harbour", ["harbour", "the docks"], false],
      ["Smugglers", ["/smuggl(er|ing)/"], true],
      ["Storm", ["/storms?/i"], true],
    ]);
    // Read back, every trigger is what it was: the patterns still patterns, the words still words.
    const back = bookEntriesToLore({ extensions: {}, entries: written }).entries;
    expect(back.map((e) => e.keys)).toEqual(entries.map((e) => e.keys));
  });

  it("reads a V3 use_regex key as a /regex/ and writes the bare pattern back", () => {
    const entry = {
      keys: ["drag(o|a)n", "wyrm"],
      content: "x",
      extensions: {},
      enabled: true,
      insertion_order: 1,
      use_regex: true,
    };
    const { entries } = bookEntriesToLore({ extensions: {}, entries: [entry] });
    expect(entries[0]!.keys).toEqual(["/drag(o|a)n/i", "wyrm"]);
    expect(toCharacterBook(entries, "").entries).toEqual([entry]);
  });

  it("carries SillyTavern's settings across formats (World Info to character_book and back)", async () => {
    const book = await readLorebookFile(fixture("worldinfo.json"));
    const asBook = toCharacterBook(book.entries, "Calder");
    const smugglers = asBook.entries[1]!;
    expect(smugglers).toMatchObject({ id: 1, comment: "Free smugglers (NOT ALL)", position: "after_char" });
    expect(smugglers.extensions).toMatchObject({ depth: 2, position: 4, role: 0, selectiveLogic: 1 });
    const back = toWorldInfo(bookEntriesToLore(asBook).entries, "") as {
      entries: Record<string, Record<string, unknown>>;
    };
    expect(back.entries["1"]).toMatchObject({
      uid: 1,
      depth: 2,
      position: 4,
      role: 0,
      selectiveLogic: 1,
      comment: "Free smugglers (NOT ALL)",
    });
  });

  it("is read from a card file, a lorebook_v3 file or a bare book", async () => {
    const fromPng = await readLorebookFile(fixture("v2-card.png"));
    expect(fromPng).toMatchObject({ format: "character_book", name: "Calder Coast" });
    expect(fromPng.entries).toHaveLength(2);
    const fromV3 = await readLorebookFile(jsonFile({ spec: "lorebook_v3", data: v2Book() }));
    expect(fromV3.entries.map((entry) => entry.name)).toEqual(["Calder Lighthouse", "Weather"]);
    const bare = await readLorebookFile(jsonFile(v2Book()));
    expect(bare.entries).toEqual(fromV3.entries);
    expect((await readLorebookFile(fixture("v3-card.charx"))).entries).toHaveLength(2);
  });

  it("refuses a card that has no lorebook", async () => {
    expect(await refusal(fixture("v1-card.json"))).toBe(
      "The character card has no lorebook (character_book) in it.",
    );
  });

  it("refuses more than 200 entries, in a card and in a book file", async () => {
    const entry = { keys: ["k"], content: "c", extensions: {}, enabled: true, insertion_order: 1 };
    const book = { extensions: {}, entries: Array.from({ length: 201 }, () => entry) };
    expect(() => bookEntriesToLore(book)).toThrow(
      "The lorebook has 201 entries; at most 200 can be imported.",
    );
    expect(await refusal(jsonFile(book))).toBe("The lorebook has 201 entries; at most 200 can be imported.");
    const card = { spec: "chara_card_v2", spec_version: "2.0", data: { name: "Big", character_book: book } };
    const parsed = await readCardFile(jsonFile(card));
    expect(() => bookEntriesToLore(parsed.card.character_book!)).toThrow(InteropError);
    const worldInfo = {
      entries: Object.fromEntries(
        Array.from({ length: 201 }, (_, i) => [String(i), { key: ["k"], content: "c" }]),
      ),
    };
    expect(await refusal(jsonFile(worldInfo))).toBe(
      "The lorebook has 201 entries; at most 200 can be imported.",
    );
  });
});

describe("NovelAI and AI Dungeon", () => {
  it("reads a NovelAI lorebook: names, keys (regex kept), always-on entries and budget priority", async () => {
    const book = await readLorebookFile(fixture("novelai.lorebook"));
    expect(book.format).toBe("novelai");
    expect(book.entries).toHaveLength(2);
    expect(book.entries[0]).toMatchObject({
      name: "Order of the Lamp",
      keys: ["Order of the Lamp", "lamplighters"],
      content: "The Order of the Lamp guards the coast road.",
      enabled: true,
      constant: false,
      priority: 400,
    });
    expect(book.entries[1]).toMatchObject({
      name: "Calder",
      keys: ["/calder('s)?/i"],
      constant: true,
      priority: 600,
    });
    expect(book.entries[0]!.extensions.novelai).toMatchObject({
      searchRange: 1000,
      id: "8a1f3c2e-0000-4000-8000-000000000001",
    });
  });

  it("reads AI Dungeon story cards, splitting the comma separated keys", async () => {
    const book = await readLorebookFile(fixture("aidungeon-story-cards.json"));
    expect(book.format).toBe("aidungeon");
    expect(book.entries.map((entry) => [entry.name, entry.keys, entry.content])).toEqual([
      [
        "Harbour Master Ode",
        ["Ode", "harbour master", "master"],
        "Ode runs the harbour and owes money to everyone.",
      ],
      [
        "The Drowned Bell",
        ["Drowned Bell", "tavern"],
        "The Drowned Bell is the only tavern open after dark.",
      ],
    ]);
    expect(book.entries[0]!.extensions.aidungeon).toMatchObject({
      type: "character",
      description: "A shady official.",
    });
  });
});

describe("refusing files that are not lorebooks", () => {
  it("each with its own reason", async () => {
    expect(await refusal(Buffer.from("{ nope"))).toBe("The lorebook is not valid JSON.");
    expect(await refusal(Buffer.from("plain text"))).toMatch(/^The file is not a lorebook/);
    expect(await refusal(jsonFile({ hello: 1 }))).toMatch(/^The JSON is not a lorebook we know/);
    expect(await refusal(jsonFile([1, 2]))).toMatch(/^The JSON list is not AI Dungeon story cards/);
    expect(
      await refusal(Buffer.from('{"entries":{"0":{"key":["a"],"content":"b","__proto__":{"x":1}}}}')),
    ).toBe('The lorebook contains a "__proto__" key, which is not allowed.');
  });
});
