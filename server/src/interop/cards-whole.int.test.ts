// Cards kept whole (issue #43 item 5): a SillyTavern card whose every text field is card-ecosystem long (a
// description of 31,000 characters, a greeting of 32,000, lore entries of 8,000 and 32,000) imports without a
// cut, as V2 JSON and as a V3 PNG, and comes back out of each export byte for byte; a World Info with long
// entries does the same. The narrator gets what its token budget holds and "What the narrator sees" says what
// was left out, while the story keeps it whole. A lore import that repeats the story's entries lists them, and
// skips (the default), replaces or keeps both, never numbering a name silently. The fixtures are written here,
// field by field as the V2 and V3 specs lay them out, with this file's own PNG chunk writer.
import { crc32 } from "node:zlib";
import { CARD_FIELD_MAX_LENGTH } from "@storyverse/contract/story-cards";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { multipart } from "../../test/multipart";
import { stories } from "../db/schema";
import { readTextChunks } from "./formats/png-chunks";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const upload = (user: TestUser, url: string, file: Buffer, filename: string) => {
  const body = multipart(file, filename);
  return t.app.inject({
    method: "POST",
    url,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user.token) },
  });
};
const get = (user: TestUser, url: string) =>
  t.app.inject({ method: "GET", url, headers: bearer(user.token) });

/**
 * Exactly `length` characters (code points) of varied prose: accents, an emoji, curly quotes, line breaks and
 * markup a careless cutter or normaliser would change. No `{{macros}}`, no space at either end.
 */
function longText(length: number, seed: string): string {
  const pieces = [
    `${seed} keeps the light at Calder; `,
    "the café’s owner says “not tonight” — ",
    "🌊 the tide turns twice, ",
    "<b>markup</b> stays text,\n",
    "naïve sailors mistake it for a star. ",
  ];
  const chars: string[] = [];
  for (let i = 0; chars.length < length; i++) chars.push(...Array.from(pieces[i % pieces.length]!));
  const text = chars.slice(0, length);
  text[0] = "A";
  text[length - 1] = ".";
  return text.join("");
}

const DESCRIPTION = longText(31_000, "Description");
const PERSONALITY = longText(12_000, "Personality");
const SCENARIO = longText(20_000, "Scenario");
const FIRST_MES = longText(CARD_FIELD_MAX_LENGTH, "Greeting");
const MES_EXAMPLE = longText(15_000, "Example");
const CREATOR_NOTES = longText(CARD_FIELD_MAX_LENGTH, "Notes");
const SYSTEM_PROMPT = longText(CARD_FIELD_MAX_LENGTH, "System");
const POST_HISTORY = longText(CARD_FIELD_MAX_LENGTH, "Post");
const ALTERNATE = longText(9_000, "Alternate");
const ENTRY_8K = longText(8_000, "Eldoria");
const ENTRY_32K = longText(CARD_FIELD_MAX_LENGTH, "Shadowfang");

/** The V2 spec's `data`, every field, with a character_book whose entries use the V2 entry fields. */
const v2Data = {
  name: "Seraphina",
  description: DESCRIPTION,
  personality: PERSONALITY,
  scenario: SCENARIO,
  first_mes: FIRST_MES,
  mes_example: MES_EXAMPLE,
  creator_notes: CREATOR_NOTES,
  system_prompt: SYSTEM_PROMPT,
  post_history_instructions: POST_HISTORY,
  alternate_greetings: [ALTERNATE],
  character_book: {
    name: "Eldoria",
    description: "The forest realm.",
    scan_depth: 4,
    token_budget: 2048,
    recursive_scanning: false,
    extensions: {},
    entries: [
      {
        keys: ["eldoria", "the forest"],
        content: ENTRY_8K,
        extensions: {},
        enabled: true,
        insertion_order: 100,
        case_sensitive: false,
        name: "eldoria",
        priority: 10,
        id: 0,
        comment: "eldoria",
        selective: false,
        secondary_keys: [],
        constant: false,
        position: "before_char",
      },
      {
        keys: ["shadowfang"],
        content: ENTRY_32K,
        extensions: {},
        enabled: true,
        insertion_order: 100,
        case_sensitive: false,
        name: "shadowfang",
        priority: 10,
        id: 1,
        comment: "shadowfang",
        selective: false,
        secondary_keys: [],
        constant: false,
        position: "after_char",
      },
    ],
  },
  tags: ["fantasy", "healer"],
  creator: "Calder Cards",
  character_version: "1.2",
  extensions: { world: "Eldoria", depth_prompt: { prompt: "Stay kind.", depth: 4 } },
};
const v2Card = { spec: "chara_card_v2", spec_version: "2.0", data: v2Data };

/** The V3 spec's `data`: V2's fields plus nickname, group_only_greetings, source, dates and assets. */
const v3Card = {
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: {
    ...v2Data,
    name: "Seraphina of Eldoria",
    nickname: "Sera",
    group_only_greetings: [longText(5_000, "Group")],
    creator_notes_multilingual: { fr: longText(6_000, "Notes FR") },
    source: ["https://example.invalid/seraphina"],
    creation_date: 1_700_000_000,
    modification_date: 1_700_000_500,
    assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
  },
};

/** A PNG with `tEXt` chunks added before IEND, written here (not with the app's writer). */
async function pngWith(texts: Record<string, string>): Promise<Buffer> {
  const png = await samplePng();
  const iend = png.length - 12;
  const chunks = Object.entries(texts).map(([keyword, value]) => {
    const data = Buffer.concat([Buffer.from(`${keyword}\0`, "latin1"), Buffer.from(value, "latin1")]);
    const type = Buffer.from("tEXt", "latin1");
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([type, data])) >>> 0);
    return Buffer.concat([length, type, data, crc]);
  });
  return Buffer.concat([png.subarray(0, iend), ...chunks, png.subarray(iend)]);
}
const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** A SillyTavern World Info file: entries by uid, with the fields SillyTavern writes. */
const worldInfo = (entries: { name: string; keys: string[]; content: string }[]) => ({
  entries: Object.fromEntries(
    entries.map((entry, uid) => [
      String(uid),
      {
        uid,
        key: entry.keys,
        keysecondary: [],
        comment: entry.name,
        content: entry.content,
        constant: false,
        selective: false,
        selectiveLogic: 0,
        order: 100,
        position: 0,
        disable: false,
        probability: 100,
        useProbability: true,
        depth: 4,
        displayIndex: uid,
      },
    ]),
  ),
});

type Card = { id: string; name: string; description: string; from_character_card: boolean };
const cardsOf = async (user: TestUser, storyId: string): Promise<Card[]> =>
  (await get(user, `/api/stories/${storyId}/cards`)).json().cards;

async function importStory(user: TestUser, file: Buffer, filename: string) {
  const res = await upload(user, "/api/stories/import", file, filename);
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  return res.json() as { story: { id: string; context: string }; notes: { name: string; reason: string }[] };
}

describe("a long card kept whole", () => {
  it("a V2 JSON card: every field stored whole, no cut notes, and its JSON and PNG exports carry each field back byte for byte", async () => {
    const user = await createUser(t);
    const { story, notes } = await importStory(user, Buffer.from(JSON.stringify(v2Card)), "seraphina.json");
    expect(notes.filter((note) => /cut/.test(note.reason))).toEqual([]);
    expect(story.context).toBe(`${SCENARIO}\n\n${DESCRIPTION}`);
    const memory = (await get(user, `/api/stories/${story.id}/memory`)).json().memory as string;
    expect(memory).toBe(`Seraphina's personality: ${PERSONALITY}\n\nExample dialogue:\n${MES_EXAMPLE}`);
    const [row] = await t.ctx.db.select().from(stories).where(eq(stories.id, story.id));
    expect(row!.narratorInstructions).toBe(SYSTEM_PROMPT);
    expect(row!.postHistoryInstructions).toBe(POST_HISTORY);
    expect(row!.creatorNotes).toBe(CREATOR_NOTES);
    const messages = (await get(user, `/api/stories/${story.id}/messages`)).json().messages;
    expect(messages[0].content).toBe(FIRST_MES);

    const cards = await cardsOf(user, story.id);
    const byName = new Map(cards.map((card) => [card.name, card]));
    expect(byName.get("Seraphina")!.description).toBe(DESCRIPTION);
    expect(byName.get("eldoria")!.description).toBe(ENTRY_8K);
    expect(byName.get("shadowfang")!.description).toBe(ENTRY_32K);

    const character = byName.get("Seraphina")!;
    const json = await get(user, `/api/stories/${story.id}/cards/${character.id}/export?format=json`);
    expect(json.statusCode).toBe(200);
    const exported = json.json().data;
    for (const field of [
      "description",
      "personality",
      "scenario",
      "first_mes",
      "mes_example",
      "creator_notes",
      "system_prompt",
      "post_history_instructions",
    ] as const) {
      expect(exported[field] === v2Data[field], `${field} came back whole`).toBe(true);
    }
    expect(exported.alternate_greetings).toEqual([ALTERNATE]);
    expect(exported.character_book.entries.map((entry: { content: string }) => entry.content)).toEqual([
      ENTRY_8K,
      ENTRY_32K,
    ]);

    const png = await get(user, `/api/stories/${story.id}/cards/${character.id}/export?format=png`);
    expect(png.statusCode).toBe(200);
    const texts = readTextChunks(png.rawPayload);
    const ccv3 = JSON.parse(Buffer.from(texts.get("ccv3")!, "base64").toString("utf8")).data;
    const chara = JSON.parse(Buffer.from(texts.get("chara")!, "base64").toString("utf8")).data;
    for (const data of [ccv3, chara]) {
      expect(data.description === DESCRIPTION).toBe(true);
      expect(data.first_mes === FIRST_MES).toBe(true);
      expect(data.character_book.entries[1].content === ENTRY_32K).toBe(true);
    }
  });

  it("a V3 PNG card: its nickname's card and long fields whole, and a PNG export that imports again unchanged", async () => {
    const user = await createUser(t);
    const file = await pngWith({ chara: base64Json(v2Card), ccv3: base64Json(v3Card) });
    const { story, notes } = await importStory(user, file, "seraphina.png");
    expect(notes.filter((note) => /cut/.test(note.reason))).toEqual([]);
    expect(story.context).toBe(`${SCENARIO}\n\n${DESCRIPTION}`);
    const character = (await cardsOf(user, story.id)).find((card) => card.from_character_card)!;
    expect(character.name).toBe("Seraphina of Eldoria");
    expect(character.description === DESCRIPTION).toBe(true);

    const png = await get(user, `/api/stories/${story.id}/cards/${character.id}/export?format=png`);
    const data = JSON.parse(
      Buffer.from(readTextChunks(png.rawPayload).get("ccv3")!, "base64").toString(),
    ).data;
    expect(data.nickname).toBe("Sera");
    expect(data.group_only_greetings).toEqual(v3Card.data.group_only_greetings);
    expect(data.creator_notes_multilingual).toEqual(v3Card.data.creator_notes_multilingual);
    // Round trip: the exported PNG imported again is the same story, whole.
    const again = await importStory(user, png.rawPayload, "again.png");
    expect(again.notes.filter((note) => /cut/.test(note.reason))).toEqual([]);
    expect(again.story.context === story.context).toBe(true);
    const lore = (await cardsOf(user, again.story.id)).map((card) => card.description);
    expect(lore).toEqual(expect.arrayContaining([DESCRIPTION, ENTRY_8K, ENTRY_32K]));
  });

  it("a World Info with long entries imports into a story whole and exports back byte for byte", async () => {
    const user = await createUser(t);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: bearer(user.token),
      payload: { title: "Harbour" },
    });
    const storyId = created.json().story.id as string;
    const book = worldInfo([
      { name: "Harbour", keys: ["harbour"], content: ENTRY_8K },
      { name: "Tower", keys: ["tower"], content: ENTRY_32K },
    ]);
    const res = await upload(
      user,
      `/api/stories/${storyId}/cards/import`,
      Buffer.from(JSON.stringify(book)),
      "world.json",
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().skipped).toEqual([]);
    const out = await get(user, `/api/stories/${storyId}/cards/export?format=worldinfo`);
    const contents = Object.values(out.json().entries as Record<string, { content: string }>).map(
      (entry) => entry.content,
    );
    expect(contents[0] === ENTRY_8K && contents[1] === ENTRY_32K).toBe(true);
  });

  it("stores a card of 32,000 characters from the card editor and refuses one character more with a detail", async () => {
    const user = await createUser(t);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: bearer(user.token),
      payload: { title: "Editor", context: longText(60_000, "Context") },
    });
    expect(created.statusCode, created.body.slice(0, 300)).toBe(200);
    const storyId = created.json().story.id as string;
    const post = (description: string, name: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/stories/${storyId}/cards`,
        headers: bearer(user.token),
        payload: { name, triggers: [name], description },
      });
    const whole = await post(longText(CARD_FIELD_MAX_LENGTH, "Mara"), "Mara");
    expect(whole.statusCode, whole.body.slice(0, 300)).toBe(200);
    expect(whole.json().card.description).toBe(longText(CARD_FIELD_MAX_LENGTH, "Mara"));
    const over = await post(longText(CARD_FIELD_MAX_LENGTH + 1, "Ada"), "Ada");
    expect(over.statusCode).toBe(400);
    expect(over.json().detail).toContain("description must be at most 32000 characters");
  });
});

describe("what the narrator gets of a long story", () => {
  it("sends the context within its share of the budget, says what was left out, and keeps the story whole", async () => {
    const user = await createUser(t);
    const { story } = await importStory(user, Buffer.from(JSON.stringify(v2Card)), "seraphina.json");
    const res = await get(user, `/api/stories/${story.id}/context?prompt=${encodeURIComponent("I wave")}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const context = res.json();
    const total = Array.from(`${SCENARIO}\n\n${DESCRIPTION}`).length;
    const cut = context.cut_to_fit.find((entry: { part: string }) => entry.part === "context");
    expect(cut.total_characters).toBe(total);
    expect(cut.kept_characters).toBeGreaterThan(1000);
    expect(cut.kept_characters).toBeLessThan(total);
    // The memory (personality and examples) is cut too, and the whole context stays within the budget.
    expect(context.cut_to_fit.map((entry: { part: string }) => entry.part)).toContain("memory");
    expect(context.total_tokens).toBeLessThanOrEqual(context.budget_tokens);
    expect(context.messages[0].content).toContain(SCENARIO.slice(0, 200));
    expect(context.messages[0].content).toContain(" […]");
    const [row] = await t.ctx.db.select().from(stories).where(eq(stories.id, story.id));
    expect(row!.context).toBe(`${SCENARIO}\n\n${DESCRIPTION}`);
  });
});

describe("a lore import that repeats the story's entries", () => {
  /** A story made from the long card (its book brings "eldoria" and "shadowfang") and a World Info repeating them. */
  async function setUp() {
    const user = await createUser(t);
    const { story } = await importStory(user, Buffer.from(JSON.stringify(v2Card)), "seraphina.json");
    const book = Buffer.from(
      JSON.stringify(
        worldInfo([
          { name: "eldoria", keys: ["eldoria"], content: ENTRY_8K },
          {
            name: "Shadowfang",
            keys: ["shadowfang"],
            content: "A wolf of the old forest, grey and scarred.",
          },
          { name: "Moonwell", keys: ["moonwell"], content: "A spring that shows what was." },
        ]),
      ),
    );
    const importInto = (query: string) =>
      upload(user, `/api/stories/${story.id}/cards/import?${query}`, book, "eldoria-world.json");
    return { user, storyId: story.id, importInto };
  }

  it("lists them in the preview and skips them by default: no card gets a number", async () => {
    const { user, storyId, importInto } = await setUp();
    const before = await cardsOf(user, storyId);
    const preview = (await importInto("dry_run=true")).json();
    expect(preview.duplicates).toEqual([
      { name: "eldoria", card_id: expect.any(String), same_text: true, outcome: "skipped" },
      { name: "shadowfang", card_id: expect.any(String), same_text: false, outcome: "skipped" },
    ]);
    expect(preview.cards.map((card: Card) => card.name)).toEqual(["Moonwell"]);
    expect(await cardsOf(user, storyId)).toEqual(before);

    const saved = await importInto("dry_run=false");
    expect(saved.statusCode).toBe(200);
    const names = (await cardsOf(user, storyId)).map((card) => card.name);
    expect(names.sort()).toEqual(["Moonwell", "Seraphina", "eldoria", "shadowfang"]);
    expect(names.some((name) => /\(\d\)/.test(name))).toBe(false);
  });

  it("replaces the story's cards with the file's text, keeping their ids and names", async () => {
    const { user, storyId, importInto } = await setUp();
    const before = new Map((await cardsOf(user, storyId)).map((card) => [card.name, card]));
    const saved = await importInto("dry_run=false&on_duplicate=replace");
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(200);
    expect(saved.json().duplicates.map((d: { outcome: string }) => d.outcome)).toEqual([
      "replaced",
      "replaced",
    ]);
    const after = await cardsOf(user, storyId);
    expect(after).toHaveLength(4);
    const wolf = after.find((card) => card.name === "shadowfang")!;
    expect(wolf.id).toBe(before.get("shadowfang")!.id);
    expect(wolf.description).toBe("A wolf of the old forest, grey and scarred.");
    expect(after.find((card) => card.name === "eldoria")!.id).toBe(before.get("eldoria")!.id);
  });

  it("keeps both when asked: the file's get a number, and a note says so", async () => {
    const { user, storyId, importInto } = await setUp();
    const preview = (await importInto("dry_run=true&on_duplicate=keep_both")).json();
    expect(preview.cards.map((card: Card) => card.name)).toEqual([
      "eldoria (2)",
      "Shadowfang (2)",
      "Moonwell",
    ]);
    expect(preview.skipped).toEqual(
      expect.arrayContaining([
        { name: 'card "eldoria"', reason: 'renamed "eldoria (2)": another card has that name' },
      ]),
    );
    const saved = await importInto("dry_run=false&on_duplicate=keep_both");
    expect(saved.statusCode).toBe(200);
    expect((await cardsOf(user, storyId)).map((card) => card.name).sort()).toEqual([
      "Moonwell",
      "Seraphina",
      "Shadowfang (2)",
      "eldoria",
      "eldoria (2)",
      "shadowfang",
    ]);
  });

  it("refuses an unknown choice with a detail", async () => {
    const { importInto } = await setUp();
    const res = await importInto("dry_run=true&on_duplicate=merge");
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain("on_duplicate must be skip, replace or keep_both");
  });
});
