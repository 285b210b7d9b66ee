// Exporting Story Cards (one card as a V3 PNG, CHARX or JSON; a story's cards as World Info or a
// character_book) and importing the export again: the same card comes back, extensions included. And the
// starter scenarios: listed with their pictures, and started as a story like a player's own card.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { multipart } from "../../test/multipart";
import { activeCards } from "../conversation/card-activation";
import { storyCards } from "../db/schema";
import { isZip } from "./formats/character-card";
import { readTextChunks } from "./formats/png-chunks";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/interop");
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const get = (user: TestUser, url: string) =>
  t.app.inject({ method: "GET", url, headers: bearer(user.token) });
const upload = (user: TestUser, url: string, file: Buffer) => {
  const body = multipart(file);
  return t.app.inject({
    method: "POST",
    url,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user.token) },
  });
};

async function newStory(user: TestUser) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/stories",
    headers: bearer(user.token),
    payload: { title: "Calder" },
  });
  return res.json().story.id as string;
}

/**
 * A card as stored, without what differs between two copies of it (ids, story, times, portrait file, and the
 * id that ties the cards of one import of a book together: each import is its own).
 */
async function storedCard(cardId: string) {
  const [row] = await t.ctx.db.select().from(storyCards).where(eq(storyCards.id, cardId));
  const {
    id: _id,
    storyId: _story,
    userId: _user,
    createdAt: _c,
    updatedAt: _u,
    portraitKey,
    portraitItemId: _item,
    extensions,
    ...rest
  } = row!;
  return { ...rest, extensions: withoutBookId(extensions), hasPortrait: portraitKey !== null };
}

function withoutBookId(extensions: Record<string, unknown>): Record<string, unknown> {
  const ours = extensions.storyverse as { book?: { id?: string } } | undefined;
  if (!ours?.book) return extensions;
  return { ...extensions, storyverse: { ...ours, book: { ...ours.book, id: "(one import)" } } };
}

async function importStory(user: TestUser, file: string) {
  const res = await upload(user, "/api/stories/import", await fixture(file));
  expect(res.statusCode, res.body).toBe(200);
  const storyId = res.json().story.id as string;
  const cards = (await get(user, `/api/stories/${storyId}/cards`)).json().cards as {
    id: string;
    kind: string;
    name: string;
  }[];
  return { storyId, cards, character: cards.find((c) => c.kind === "character")! };
}

describe("a Story Card as a character card", () => {
  it.each([
    ["v2-every-field.json", "png"],
    ["v2-every-field.json", "charx"],
    ["v2-every-field.json", "json"],
    ["v3-card.png", "png"],
    ["v3-card.charx", "charx"],
  ])("exports the character from %s as %s, and importing it gives back the same card", async (file, format) => {
    const user = await createUser(t);
    const { storyId, character } = await importStory(user, file);
    const res = await get(user, `/api/stories/${storyId}/cards/${character.id}/export?format=${format}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-disposition"]).toContain(`.${format}"`);
    expect(res.headers["cache-control"]).toBe("no-store");
    const bytes = res.rawPayload;
    if (format === "png") {
      // Both chunks, so V2-only apps read it too.
      const chunks = readTextChunks(bytes);
      expect([...chunks.keys()].sort()).toEqual(expect.arrayContaining(["ccv3", "chara"]));
      const v2 = JSON.parse(Buffer.from(chunks.get("chara")!, "base64").toString());
      expect(v2.spec).toBe("chara_card_v2");
      expect(v2.data.name).toBe(character.name);
    }
    if (format === "charx") expect(isZip(bytes)).toBe(true);
    if (format === "json") expect(res.json()).toMatchObject({ spec: "chara_card_v3", spec_version: "3.0" });

    const other = await newStory(user);
    const again = await upload(user, `/api/stories/${other}/cards/import`, bytes);
    expect(again.statusCode, again.body).toBe(200);
    const back = again.json().cards[0];
    expect(await storedCard(back.id)).toEqual(await storedCard(character.id));
  });

  it("exports a card made in the app, and its lore rules and voice come back on import", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const voice = (await get(user, "/api/voices")).json().voices[2].id as string;
    const made = await t.app.inject({
      method: "POST",
      url: `/api/stories/${storyId}/cards`,
      headers: bearer(user.token),
      payload: {
        name: "The Drowned Bell",
        kind: "thing",
        triggers: ["bell", "/toll(s|ing)?/i"],
        secondary_triggers: ["night"],
        selective_logic: "not_any",
        insertion_order: 7,
        priority: 900,
        case_sensitive: true,
        description: "A bell that rings under the sea.",
        voice,
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().card.voice).toBe(voice);
    const cardId = made.json().card.id as string;
    const png = await get(user, `/api/stories/${storyId}/cards/${cardId}/export?format=png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers["content-disposition"]).toContain('filename="The-Drowned-Bell.png"');
    const other = await newStory(user);
    const again = await upload(user, `/api/stories/${other}/cards/import`, png.rawPayload);
    expect(again.statusCode, again.body).toBe(200);
    const back = await storedCard(again.json().cards[0].id);
    const original = await storedCard(cardId);
    // The picture drawn for a card without a portrait does not become one.
    expect(back.hasPortrait).toBe(false);
    expect({ ...back, characterCard: null }).toEqual(original);
  });

  it("answers 400 naming the formats, and 404 for another player's card or an unknown one", async () => {
    const user = await createUser(t);
    const { storyId, character } = await importStory(user, "v1-card.json");
    const bad = await get(user, `/api/stories/${storyId}/cards/${character.id}/export?format=gif`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/png, charx, json/);
    expect((await get(user, `/api/stories/${storyId}/cards/${character.id}/export`)).statusCode).toBe(400);
    const stranger = await createUser(t);
    expect(
      (await get(stranger, `/api/stories/${storyId}/cards/${character.id}/export?format=json`)).statusCode,
    ).toBe(404);
    expect((await get(stranger, `/api/stories/${storyId}/cards/export?format=worldinfo`)).statusCode).toBe(
      404,
    );
    const missing = await get(
      user,
      `/api/stories/${storyId}/cards/${crypto.randomUUID()}/export?format=json`,
    );
    expect(missing.statusCode).toBe(404);
    const loreBad = await get(user, `/api/stories/${storyId}/cards/export?format=epub`);
    expect(loreBad.statusCode).toBe(400);
    expect(loreBad.json().detail).toMatch(/worldinfo or character_book/);
  });
});

describe("a story's cards as a lorebook", () => {
  it.each([
    "worldinfo",
    "character_book",
  ])("exports World Info cards as %s, and importing it gives back the same cards", async (format) => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const imported = await upload(
      user,
      `/api/stories/${storyId}/cards/import`,
      await fixture("worldinfo.json"),
    );
    expect(imported.statusCode, imported.body).toBe(200);
    const res = await get(user, `/api/stories/${storyId}/cards/export?format=${format}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-disposition"]).toContain(`Calder.${format}.json`);
    const document = res.json();
    if (format === "worldinfo")
      expect(Object.keys(document.entries).length).toBe(imported.json().cards.length);
    else expect(document.entries.length).toBe(imported.json().cards.length);

    const other = await newStory(user);
    const again = await upload(user, `/api/stories/${other}/cards/import`, res.rawPayload);
    expect(again.statusCode, again.body).toBe(200);
    const first = await Promise.all(imported.json().cards.map((c: { id: string }) => storedCard(c.id)));
    const second = await Promise.all(again.json().cards.map((c: { id: string }) => storedCard(c.id)));
    const lore = ({ extensions: _e, ...card }: Record<string, unknown>) => card;
    // Every field the app models comes back; so do the source's own fields when the format is the same.
    expect(second.map(lore)).toEqual(first.map(lore));
    if (format === "worldinfo") expect(second).toEqual(first);
  });
});

describe("use_regex in a character_book export (the V3 spec requires it on every entry)", () => {
  it("is true exactly on the entries with a /pattern/ trigger, and a re-import wakes on the same words", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const make = async (name: string, triggers: string[]) => {
      const made = await t.app.inject({
        method: "POST",
        url: `/api/stories/${storyId}/cards`,
        headers: bearer(user.token),
        payload: { name, kind: "thing", triggers, description: `About ${name}.` },
      });
      expect(made.statusCode, made.body).toBe(200);
    };
    await make("Dragons", ["/drag(o|a)ns?/i", "wyrm"]);
    await make("Harbour", ["harbour"]);
    const res = await get(user, `/api/stories/${storyId}/cards/export?format=character_book`);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().entries as { name: string; keys: string[]; use_regex: unknown }[];
    // By name: two cards made in the same instant may list in either order.
    const byName = <T extends { name: string }>(list: T[]) =>
      [...list].sort((a, b) => a.name.localeCompare(b.name));
    expect(byName(entries).map((entry) => [entry.name, entry.keys, entry.use_regex])).toEqual([
      ["Dragons", ["/drag(o|a)ns?/i", "wyrm"], true],
      ["Harbour", ["harbour"], false],
    ]);

    const other = await newStory(user);
    const again = await upload(user, `/api/stories/${other}/cards/import`, res.rawPayload);
    expect(again.statusCode, again.body).toBe(200);
    const cards = (await get(user, `/api/stories/${other}/cards`)).json().cards as {
      name: string;
      triggers: string[];
      case_sensitive: boolean;
    }[];
    expect(byName(cards).map((card) => [card.name, card.triggers])).toEqual([
      ["Dragons", ["/drag(o|a)ns?/i", "wyrm"]],
      ["Harbour", ["harbour"]],
    ]);
    // The pattern still matches as a pattern ("DRAGANS" by /drag(o|a)ns?/i), and a plain word as a word.
    const woken = (text: string) =>
      activeCards(
        cards.map((card) => ({ ...card, caseSensitive: card.case_sensitive })),
        [text],
      ).map((card) => card.name);
    expect(woken("Two DRAGANS circle the tower.")).toEqual(["Dragons"]);
    expect(woken("The harbour is quiet; drag the boat in.")).toEqual(["Harbour"]);
  });
});

describe("reading portraits", () => {
  it("a lore export reads no picture; a card export reads its own only", async () => {
    const user = await createUser(t);
    const { storyId, character } = await importStory(user, "v3-card.png");
    const reads = vi.spyOn(t.storage, "read");
    try {
      const lore = await get(user, `/api/stories/${storyId}/cards/export?format=worldinfo`);
      expect(lore.statusCode, lore.body).toBe(200);
      expect(reads).not.toHaveBeenCalled();
      const png = await get(user, `/api/stories/${storyId}/cards/${character.id}/export?format=png`);
      expect(png.statusCode, png.body).toBe(200);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
  });
});

describe("starter scenarios", () => {
  it("lists the shipped starters with pictures, and starts one as a story with its opening and its cast", async () => {
    const user = await createUser(t);
    const list = await get(user, "/api/starters");
    expect(list.statusCode).toBe(200);
    const starters = list.json().starters as {
      id: string;
      title: string;
      tagline: string;
      image_url: string;
    }[];
    expect(starters.length).toBeGreaterThanOrEqual(3);
    expect(starters.length).toBeLessThanOrEqual(5);
    for (const starter of starters) {
      expect(starter.title).not.toBe("");
      expect(starter.tagline).not.toBe("");
      expect(starter.image_url).toMatch(/^data:image\/webp;base64,/);
    }
    const started = await t.app.inject({
      method: "POST",
      url: `/api/starters/${starters[0]!.id}/start`,
      headers: bearer(user.token),
    });
    expect(started.statusCode, started.body).toBe(200);
    const story = started.json().story;
    expect(story.title).toBe(starters[0]!.title);
    const messages = (await get(user, `/api/stories/${story.id}/messages`)).json().messages;
    expect(messages).toHaveLength(1);
    expect(messages[0].version_count).toBe(3);
    expect(messages[0].content).toContain(user.username);
    const cards = (await get(user, `/api/stories/${story.id}/cards`)).json().cards;
    expect(cards[0]).toMatchObject({ kind: "character", constant: true, from_character_card: true });
    expect(cards[0].portrait).not.toBeNull();
    expect(cards.length).toBe(4);

    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/starters/nope/start",
      headers: bearer(user.token),
    });
    expect(unknown.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/starters" })).statusCode).toBe(401);
  });
});
