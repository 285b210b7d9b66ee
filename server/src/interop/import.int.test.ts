// Importing character cards and lorebooks through the API, with fixture files written as other apps write
// them (server/test/fixtures/interop): each carrier becomes a story with its opening and greetings as
// versions, the card's picture as the character's portrait (an image reference from the first scene) and its
// book as Story Cards; lorebooks come in with a preview first; bad files answer a 4xx and leave nothing.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia } from "../../test/media";
import { multipart } from "../../test/multipart";
import { chatMessages, stories, storyCards } from "../db/schema";
import { writeTextChunks } from "./formats/png-chunks";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/interop");
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const upload = (user: TestUser, url: string, file: Buffer, filename?: string) => {
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

async function newStory(user: TestUser, title = "Harbour") {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/stories",
    headers: bearer(user.token),
    payload: { title },
  });
  return res.json().story.id as string;
}

/** What the user has: stories, cards, messages and portrait files on disk. */
async function holdings(user: TestUser) {
  const db = t.ctx.db;
  const [s] = await db.select({ n: count() }).from(stories).where(eq(stories.userId, user.userId));
  const [c] = await db.select({ n: count() }).from(storyCards).where(eq(storyCards.userId, user.userId));
  const [m] = await db.select({ n: count() }).from(chatMessages).where(eq(chatMessages.userId, user.userId));
  const dir = t.config.storage.kind === "local" ? t.config.storage.dir : "";
  const files = await readdir(path.join(dir, "u", user.userId, "portraits")).catch(() => []);
  return { stories: Number(s!.n), cards: Number(c!.n), messages: Number(m!.n), portraitFiles: files.length };
}

type Card = {
  id: string;
  name: string;
  kind: string;
  triggers: string[];
  description: string;
  constant: boolean;
  portrait: { url: string } | null;
  secondary_triggers: string[];
  selective_logic: string;
  insertion_order: number;
  priority: number;
  case_sensitive: boolean;
  enabled: boolean;
  from_character_card: boolean;
  creator_notes: string;
};

const cardsOf = async (user: TestUser, storyId: string) =>
  (await get(user, `/api/stories/${storyId}/cards`)).json().cards as Card[];

describe("a character card as a new story", () => {
  it("imports every field of a V2 card: title, context, Memory, prompts, greetings as versions, the character and its book as cards", async () => {
    const user = await createUser(t);
    const res = await upload(user, "/api/stories/import", await fixture("v2-every-field.json"), "mira.json");
    expect(res.statusCode, res.body).toBe(200);
    const { story, notes } = res.json();
    expect(story.title).toBe("Mira Voss");
    expect(story.context).toBe(
      "{{user}} washes up on the rocks below the lighthouse.\n\n{{char}} is a lighthouse keeper on the storm coast of Calder."
        .replace("{{user}}", user.username)
        .replace("{{char}}", "Mira Voss"),
    );
    expect(notes).toEqual([]);

    // The opening: first_mes with macros replaced, the alternate greetings as versions.
    const messages = (await get(user, `/api/stories/${story.id}/messages`)).json().messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      role: "assistant",
      content: `*Mira Voss lowers her lantern.* You're lucky the tide turned, ${user.username}.`,
      version: 1,
      version_count: 3,
    });
    const versions = (await get(user, `/api/stories/${story.id}/messages/${messages[0].id}/versions`)).json()
      .versions;
    expect(versions.map((v: { content: string; selected: boolean }) => [v.content, v.selected])).toEqual([
      [messages[0].content, true],
      [`*The foghorn sounds twice.* Another one from the wreck, ${user.username}?`, false],
      ["*Mira Voss hands you a blanket without a word.*", false],
    ]);
    // The player switches greetings with the ordinary versions call.
    const chosen = await t.app.inject({
      method: "PUT",
      url: `/api/stories/${story.id}/messages/${messages[0].id}/versions/3/select`,
      headers: bearer(user.token),
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const after = (await get(user, `/api/stories/${story.id}/messages`)).json().messages;
    expect(after.map((m: { content: string }) => m.content)).toEqual([
      "*Mira Voss hands you a blanket without a word.*",
    ]);

    // Memory: personality and example dialogue; the prompts and notes on the story.
    const memory = (await get(user, `/api/stories/${story.id}/memory`)).json();
    expect(memory.memory).toContain("Mira Voss's personality: Dry humour, stubborn, kind to strays.");
    expect(memory.memory).toContain(
      `${user.username}: Who are you?\nMira Voss: The one who keeps the light.`,
    );
    const [row] = await t.ctx.db.select().from(stories).where(eq(stories.id, story.id));
    expect(row).toMatchObject({
      narratorInstructions: "{{original}}\nWrite as {{char}} in the third person.",
      postHistoryInstructions: "Keep replies under 200 words.",
      creatorNotes: "Best with a slow-burn mystery. <b>HTML stays text.</b>",
      characterName: "Mira Voss",
    });

    // The character (always on, card data kept) and the two book entries.
    const cards = await cardsOf(user, story.id);
    expect(cards.map((c) => [c.name, c.kind, c.constant])).toEqual([
      ["Mira Voss", "character", true],
      ["Calder Lighthouse", "other", false],
      ["Weather", "other", true],
    ]);
    expect(cards[0]).toMatchObject({
      triggers: ["Mira Voss"],
      description: "{{char}} is a lighthouse keeper on the storm coast of Calder.",
      from_character_card: true,
      creator_notes: "Best with a slow-burn mystery. <b>HTML stays text.</b>",
      portrait: null,
    });
    expect(cards[1]).toMatchObject({
      triggers: ["lighthouse", "the light"],
      secondary_triggers: ["storm", "night"],
      selective_logic: "and_all",
      insertion_order: 50,
      priority: 20,
      description: "The Calder light has burned for three hundred years.",
    });
    expect(cards[2]).toMatchObject({ triggers: [], case_sensitive: true, insertion_order: 10, priority: 5 });
    const [kept] = await t.ctx.db
      .select({ data: storyCards.characterCard })
      .from(storyCards)
      .where(and(eq(storyCards.storyId, story.id), eq(storyCards.name, "Mira Voss")));
    expect(kept!.data).not.toHaveProperty("character_book");
    expect(kept!.data).toMatchObject({
      tags: ["mystery", "coast"],
      extensions: { x_unknown_app: { nested: [1, { deep: true }] } },
    });
  });

  it.each([
    ["v1-card.json", 1, false],
    ["v2-card.png", undefined, true],
    ["v3-card.png", undefined, true],
    ["v3-card-apng.png", undefined, true],
    ["v3-card.charx", undefined, true],
  ])("imports %s as a story with its opening, and its picture as the character's portrait", async (file, greetings, hasPortrait) => {
    const user = await createUser(t);
    const res = await upload(user, "/api/stories/import", await fixture(file), file);
    expect(res.statusCode, res.body).toBe(200);
    const storyId = res.json().story.id as string;
    const messages = (await get(user, `/api/stories/${storyId}/messages`)).json().messages;
    expect(messages).toHaveLength(1);
    expect(messages[0].role).toBe("assistant");
    expect(messages[0].content).not.toMatch(/\{\{(char|user)\}\}|<BOT>|<USER>/i);
    if (greetings === 1) expect(messages[0].version_count).toBeUndefined();
    else expect(messages[0].version_count).toBeGreaterThan(1);
    const cards = await cardsOf(user, storyId);
    const character = cards.find((c) => c.kind === "character")!;
    expect(character.constant).toBe(true);
    expect(character.portrait !== null).toBe(hasPortrait);
    if (!hasPortrait) return;
    expect((await fetchMedia(t, character.portrait!.url)).status).toBe(200);
    // Always on, so its face goes to the painter from the very first scene.
    const preview = (
      await get(
        user,
        `/api/stories/${storyId}/context?prompt=${encodeURIComponent("We set off.")}&chat_mode=image`,
      )
    ).json();
    expect(preview.image_references).toContainEqual(
      expect.objectContaining({ source: "portrait", card_id: character.id, name: character.name }),
    );
  });
});

describe("cards and lorebooks into an existing story", () => {
  it("previews a World Info file without saving, then imports it with its selective logic", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const file = await fixture("worldinfo.json");
    const before = await holdings(user);
    const preview = await upload(
      user,
      `/api/stories/${storyId}/cards/import?dry_run=true`,
      file,
      "world.json",
    );
    expect(preview.statusCode, preview.body).toBe(200);
    const body = preview.json();
    expect(body).toMatchObject({ success: true, dry_run: true, source: "SillyTavern World Info" });
    expect(body.cards.length).toBeGreaterThan(0);
    expect(body.cards[0]).toMatchObject({
      name: "Harbour at night (AND ANY)",
      triggers: ["harbour", "docks"],
      has_portrait: false,
    });
    expect(await holdings(user)).toEqual(before);

    const real = await upload(user, `/api/stories/${storyId}/cards/import`, file, "world.json");
    expect(real.statusCode, real.body).toBe(200);
    expect(real.json().dry_run).toBe(false);
    expect(real.json().cards.map((c: Card) => c.name)).toEqual(body.cards.map((c: Card) => c.name));
    expect(real.json().skipped).toEqual(body.skipped);
    const cards = await cardsOf(user, storyId);
    expect(cards).toHaveLength(body.cards.length);
    expect(new Set(cards.map((c) => c.selective_logic))).toEqual(
      new Set(["and_any", "and_all", "not_any", "not_all"]),
    );
  });

  it.each([
    ["novelai.lorebook", "NovelAI lorebook"],
    ["aidungeon-story-cards.json", "AI Dungeon Story Cards"],
  ])("imports %s as Story Cards", async (file, source) => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const res = await upload(user, `/api/stories/${storyId}/cards/import`, await fixture(file), file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().source).toBe(source);
    expect((await cardsOf(user, storyId)).length).toBe(res.json().cards.length);
    expect(res.json().cards.length).toBeGreaterThan(0);
  });

  it("imports a character card into a story as the character (with portrait) and its book", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const res = await upload(user, `/api/stories/${storyId}/cards/import`, await fixture("v3-card.png"));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().source).toBe("character card (V3)");
    const cards = await cardsOf(user, storyId);
    expect(cards[0]).toMatchObject({ kind: "character", from_character_card: true, constant: true });
    expect(cards[0]!.portrait).not.toBeNull();
    // No new story and no messages: only cards.
    expect((await holdings(user)).stories).toBe(1);
    expect((await holdings(user)).messages).toBe(0);
    // A second import of the same card is a duplicate: skipped unless the player keeps both (decision 0142).
    const again = await upload(user, `/api/stories/${storyId}/cards/import`, await fixture("v3-card.png"));
    expect(again.statusCode).toBe(200);
    expect(again.json().cards).toEqual([]);
    expect(again.json().duplicates[0]).toMatchObject({ name: cards[0]!.name, outcome: "skipped" });
    const both = await upload(
      user,
      `/api/stories/${storyId}/cards/import?on_duplicate=keep_both`,
      await fixture("v3-card.png"),
    );
    expect(both.json().cards[0].name).toBe(`${cards[0]!.name} (2)`);
  });
});

describe("bad files and other people's stories", () => {
  async function expectNothingMade(
    user: TestUser,
    url: string,
    send: () => Promise<{ statusCode: number; json: () => { detail: string; code: string } }>,
    status: number,
    code: string,
    detail: RegExp,
  ) {
    const before = await holdings(user);
    const res = await send();
    expect(res.statusCode, `${url}: ${JSON.stringify(res.json())}`).toBe(status);
    expect(res.json().code).toBe(code);
    expect(res.json().detail).toMatch(detail);
    expect(await holdings(user)).toEqual(before);
  }

  it("answers each bad file with its reason and creates nothing", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const png = await samplePng();
    const chunk = (text: string) => writeTextChunks(png, { chara: text });
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    const cases: [string, Buffer, RegExp][] = [
      ["a PNG without a card", png, /no character card/i],
      ["a chunk that is not base64", chunk("not base64 at all!"), /not base64/i],
      [
        "base64 of something that is not JSON",
        chunk(Buffer.from("hello").toString("base64")),
        /not valid JSON/i,
      ],
      ["JSON of the wrong shape", json({ spec: "chara_card_v2", data: { name: 7 } }), /data\.name/],
      [
        "a __proto__ key",
        Buffer.from('{"spec":"chara_card_v2","data":{"name":"x","__proto__":{"a":1}}}'),
        /__proto__/,
      ],
      ["not a card at all", Buffer.from("just some words"), /not a (character card|lorebook)/i],
    ];
    for (const [what, file, detail] of cases) {
      for (const url of ["/api/stories/import", `/api/stories/${storyId}/cards/import`]) {
        await expectNothingMade(
          user,
          `${url} (${what})`,
          () => upload(user, url, file),
          400,
          "invalid_file",
          detail,
        );
      }
    }
  });

  it("refuses a CHARX whose entries climb out of the archive", async () => {
    const user = await createUser(t);
    const { ZipFile } = await import("yazl");
    const zip = new ZipFile();
    zip.addBuffer(
      Buffer.from(JSON.stringify({ spec: "chara_card_v3", spec_version: "3.0", data: { name: "x" } })),
      "card.json",
    );
    // yazl refuses to write such a name, so a harmless one of the same length is swapped in the bytes.
    zip.addBuffer(Buffer.from("evil"), "assets/aaaaa/e.png", { compress: false });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const bytes = Buffer.from(
      Buffer.concat(chunks).toString("latin1").replaceAll("assets/aaaaa/e.png", "assets/../../e.png"),
      "latin1",
    );
    await expectNothingMade(
      user,
      "traversal",
      () => upload(user, "/api/stories/import", bytes, "evil.charx"),
      400,
      "invalid_file",
      /path|\.\./i,
    );
  });

  it("refuses a CHARX with a file that fails its CRC-32, or with card.json twice (no copy wins)", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const { ZipFile } = await import("yazl");
    const charx = async (cards: string[]) => {
      const zip = new ZipFile();
      // Names of one length, so the second can be renamed in the bytes (yazl refuses to write a name twice).
      for (const [index, name] of cards.entries()) {
        zip.addBuffer(
          Buffer.from(JSON.stringify({ spec: "chara_card_v3", spec_version: "3.0", data: { name } })),
          index === 0 ? "card.json" : "card.jsoN",
          { compress: false },
        );
      }
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
      return Buffer.from(
        Buffer.concat(chunks).toString("latin1").replaceAll("card.jsoN", "card.json"),
        "latin1",
      );
    };
    const twice = await charx(["Mira", "Someone else"]);
    // One stored byte changed after its checksum was written ("Mira" read as "Mora").
    const damaged = Buffer.from(
      (await charx(["Mira"])).toString("latin1").replace('"Mira"', '"Mora"'),
      "latin1",
    );
    for (const url of ["/api/stories/import", `/api/stories/${storyId}/cards/import`]) {
      await expectNothingMade(
        user,
        `${url} (card.json twice)`,
        () => upload(user, url, twice, "twice.charx"),
        400,
        "invalid_file",
        /^The CHARX file holds "card\.json" twice\.$/,
      );
      await expectNothingMade(
        user,
        `${url} (CRC-32)`,
        () => upload(user, url, damaged, "damaged.charx"),
        400,
        "invalid_file",
        /^The CHARX file is damaged: "card\.json" does not match its checksum \(CRC-32\)\.$/,
      );
    }
  });

  it("refuses no file, a body that is not multipart, an empty file and one over 20 MB", async () => {
    const user = await createUser(t);
    const url = "/api/stories/import";
    await expectNothingMade(
      user,
      "json body",
      () => t.app.inject({ method: "POST", url, headers: bearer(user.token), payload: { card: "x" } }),
      400,
      "invalid_request",
      /multipart/,
    );
    const boundary = "----nofile";
    await expectNothingMade(
      user,
      "no file",
      () =>
        t.app.inject({
          method: "POST",
          url,
          headers: { ...bearer(user.token), "content-type": `multipart/form-data; boundary=${boundary}` },
          payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
        }),
      400,
      "invalid_request",
      /No file/,
    );
    await expectNothingMade(
      user,
      "empty",
      () => upload(user, url, Buffer.alloc(0)),
      400,
      "invalid_request",
      /empty/,
    );
    const huge = Buffer.concat([await fixture("v1-card.json"), Buffer.alloc(20 * 1024 * 1024, 32)]);
    await expectNothingMade(user, "huge", () => upload(user, url, huge), 413, "payload_too_large", /20 MB/);
  });

  it("refuses a card or lore entry carrying more than 1 MB of data besides its text (read on every turn)", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const bulk = "x".repeat(1100 * 1024);
    const card = Buffer.from(
      JSON.stringify({
        spec: "chara_card_v2",
        spec_version: "2.0",
        data: { name: "Hoarder", first_mes: "Hello.", extensions: { bulk } },
      }),
    );
    const book = Buffer.from(
      JSON.stringify({ entries: { "0": { uid: 0, key: ["hoard"], content: "Gold.", bulk } } }),
    );
    for (const [url, file, what] of [
      ["/api/stories/import", card, /The character card "Hoarder" carries 1\d{3} KB of data/],
      [`/api/stories/${storyId}/cards/import`, card, /The character card "Hoarder"/],
      [`/api/stories/${storyId}/cards/import`, book, /The lore entry "hoard" carries .* at most 1024 KB/],
    ] as const) {
      await expectNothingMade(user, url, () => upload(user, url, file), 400, "invalid_file", what);
    }
    // The same card with its data within the limit comes in.
    const small = Buffer.from(card.toString().replace(bulk, "x".repeat(1000)));
    expect((await upload(user, "/api/stories/import", small)).statusCode).toBe(200);
  });

  it("limits imports per player (free, but each is read and stored), with a wait in the answer", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const file = await fixture("worldinfo.json");
    const url = `/api/stories/${storyId}/cards/import?dry_run=true`;
    for (let i = 0; i < 30; i++) expect((await upload(user, url, file)).statusCode).toBe(200);
    const refused = await upload(user, url, file);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/at most 30 files in 10 minutes/);
    expect(refused.headers["retry-after"]).toBeDefined();
    // Another player is not held back.
    const other = await createUser(t);
    const theirs = await newStory(other);
    expect((await upload(other, `/api/stories/${theirs}/cards/import?dry_run=true`, file)).statusCode).toBe(
      200,
    );
  });

  it("answers 404 for another player's story, and leaves it alone", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(owner);
    const file = await fixture("worldinfo.json");
    const before = await holdings(owner);
    for (const url of [
      `/api/stories/${storyId}/cards/import`,
      `/api/stories/${storyId}/cards/import?dry_run=true`,
    ]) {
      const res = await upload(other, url, file);
      expect(res.statusCode).toBe(404);
    }
    expect(await holdings(owner)).toEqual(before);
  });

  it("leaves no story, message or card when the import fails halfway (a picture that does not decode)", async () => {
    const user = await createUser(t);
    const card = (await fixture("v2-every-field.json")).toString();
    // A PNG whose pixel data is damaged: the card reads, the story and its opening are written, then the
    // portrait fails its checks and everything is undone.
    const png = Buffer.from(await samplePng(300, 300));
    const idat = png.indexOf("IDAT");
    png.fill(0x41, idat + 8, idat + 40);
    const file = writeTextChunks(png, { chara: Buffer.from(card).toString("base64") });
    const before = await holdings(user);
    const res = await upload(user, "/api/stories/import", file);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toMatch(/portrait/);
    expect(await holdings(user)).toEqual(before);
  });
});
