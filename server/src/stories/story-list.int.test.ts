// The story list a page at a time and its search on the server (issue 42 item 6, decision 0129): most
// recently played first across pages, a cursor that stays good while stories are added, ?q= over title and
// context (case-insensitive, only the caller's stories), refused cursors and limits (400 with a detail), and one
// story's card as the list shows it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { chatMessages } from "../db/schema";
import { storyPlayed } from "./activity";
import { insertStory } from "./repo";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Listed = { id: string; title: string; context: string; message_count: number; last_updated: string };
type Page = { stories: Listed[]; next_cursor: string | null; has_more: boolean };

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function page(user: TestUser, query: Record<string, string | number>): Promise<Page> {
  const res = await call(user, "GET", `/api/stories?${new URLSearchParams(query as Record<string, string>)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

async function create(user: TestUser, title: string, context = "") {
  t.clock.advance(1_000);
  const res = await call(user, "POST", "/api/stories", { title, context });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().story.id as string;
}

/** Every page of the list, `limit` at a time, in order. */
async function allPages(user: TestUser, limit: number, q?: string) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const next: Page = await page(user, { limit, ...(cursor ? { cursor } : {}), ...(q ? { q } : {}) });
    pages.push(next);
    cursor = next.next_cursor;
  } while (cursor);
  return pages;
}

describe("GET /api/stories a page at a time", () => {
  it("pages through every story, most recently played first, the last page saying so", async () => {
    const user = await createUser(t);
    const ids: string[] = [];
    for (let i = 1; i <= 7; i += 1) ids.push(await create(user, `Tale ${i}`));
    // Playing the oldest story puts it first.
    t.clock.advance(1_000);
    const turn = await call(user, "POST", `/api/stories/${ids[0]}/chat`, {
      prompt: "I wake",
      chat_mode: "chat",
    });
    expect(turn.statusCode, turn.body).toBe(200);

    const pages = await allPages(user, 3);
    expect(pages.map((p) => p.stories.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    const order = pages.flatMap((p) => p.stories.map((s) => s.title));
    expect(order).toEqual(["Tale 1", "Tale 7", "Tale 6", "Tale 5", "Tale 4", "Tale 3", "Tale 2"]);
    // The counts the cards showed before paging.
    expect(pages[0]!.stories[0]!.message_count).toBe(2);
    // The default page holds them all, in the same order.
    const whole = await page(user, {});
    expect(whole.stories.map((s) => s.title)).toEqual(order);
    expect(whole).toMatchObject({ next_cursor: null, has_more: false });
  });

  it("keeps its cursor while stories are added: the next page neither repeats nor skips", async () => {
    const user = await createUser(t);
    for (let i = 1; i <= 5; i += 1) await create(user, `Road ${i}`);
    const first = await page(user, { limit: 2 });
    expect(first.stories.map((s) => s.title)).toEqual(["Road 5", "Road 4"]);
    await create(user, "Road 6");
    await create(user, "Road 7");
    const second = await page(user, { limit: 2, cursor: first.next_cursor! });
    expect(second.stories.map((s) => s.title)).toEqual(["Road 3", "Road 2"]);
    const third = await page(user, { limit: 2, cursor: second.next_cursor! });
    expect(third.stories.map((s) => s.title)).toEqual(["Road 1"]);
    expect(third.has_more).toBe(false);
    // A fresh first page shows the new ones.
    expect((await page(user, { limit: 2 })).stories.map((s) => s.title)).toEqual(["Road 7", "Road 6"]);
  });

  it("searches title and context, case-insensitive, only the caller's stories, a page at a time", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    await create(user, "The Dragon's Keep", "A siege");
    await create(user, "Harbour Lights", "A dragon sleeps under the pier");
    await create(user, "Salt Roads", "Merchants and thieves");
    await create(user, "100% Pure", "A percent sign in the title");
    await create(other, "Dragon Hoard", "Someone else's dragon");

    const found = await allPages(user, 1, "DRAGON");
    expect(found.flatMap((p) => p.stories.map((s) => s.title))).toEqual([
      "Harbour Lights",
      "The Dragon's Keep",
    ]);
    expect(found[0]!.has_more).toBe(true);
    expect((await page(user, { q: "thieves" })).stories.map((s) => s.title)).toEqual(["Salt Roads"]);
    // LIKE's wildcards are words like any other.
    expect((await page(user, { q: "0%" })).stories.map((s) => s.title)).toEqual(["100% Pure"]);
    expect((await page(user, { q: "_" })).stories).toEqual([]);
    expect((await page(user, { q: "hoard" })).stories).toEqual([]);
    // Blank words search nothing away.
    expect((await page(user, { q: "  " })).stories).toHaveLength(4);
  });

  it("refuses a cursor it did not make, a bad limit and over-long words (400 with a detail)", async () => {
    const user = await createUser(t);
    await create(user, "Only One");
    for (const query of [
      "cursor=not-a-cursor",
      `cursor=${Buffer.from("yesterday|abc").toString("base64url")}`,
      "limit=0",
      "limit=101",
      "limit=ten",
      `q=${"a".repeat(201)}`,
    ]) {
      const res = await call(user, "GET", `/api/stories?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().detail, query).toMatch(/out of date|limit must be|q must be/);
    }
  });

  it("shows one story's card as the list does; another player's is not found", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const storyId = await create(user, "Single Card", "Just this one");
    await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "I look around", chat_mode: "chat" });
    const one = await call(user, "GET", `/api/stories/${storyId}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().story).toEqual((await page(user, {})).stories[0]);
    expect((await call(other, "GET", `/api/stories/${storyId}`)).statusCode).toBe(404);
  });

  it("lists a story once, as the branch it shows, in that branch's place", async () => {
    const user = await createUser(t);
    const forked = await create(user, "Forked Road");
    const turn = await call(user, "POST", `/api/stories/${forked}/chat`, {
      prompt: "I go on",
      chat_mode: "chat",
    });
    expect(turn.statusCode, turn.body).toBe(200);
    await create(user, "Later Tale");
    t.clock.advance(1_000);
    const branched = await call(user, "POST", `/api/stories/${forked}/branches`, {
      from_message_id: turn.json().message_id,
      name: "Other way",
    });
    expect(branched.statusCode, branched.body).toBe(201);
    // Playing the branch the story now shows puts the story first, once, showing that branch.
    t.clock.advance(1_000);
    const played = await call(user, "POST", `/api/stories/${forked}/chat`, {
      prompt: "I turn",
      chat_mode: "chat",
    });
    expect(played.statusCode, played.body).toBe(200);
    const listed = (await page(user, {})).stories as (Listed & { branch: { name: string } })[];
    expect(listed.map((s) => [s.title, s.branch.name, s.message_count])).toEqual([
      ["Forked Road", "Other way", 4],
      ["Later Tale", expect.any(String), 0],
    ]);
    expect(listed[0]!.id).toBe(forked);
    // Its last activity is the branch's newest message (the answer, a millisecond after the player's line).
    expect(listed[0]!.last_updated).toBe(new Date(t.clock.now().getTime() + 1).toISOString());
  });

  it("reads a page's rows, not the account's: 400 stories cost what 10 do (rows counted at the driver)", async () => {
    const user = await createUser(t);
    const start = t.clock.now().getTime();
    // Written straight to the database (400 through the API would take minutes); each played once.
    const ids: string[] = [];
    for (let i = 0; i < 400; i += 1) {
      const at = new Date(start + i * 1_000);
      const row = await insertStory(t.ctx.db, { userId: user.userId, title: `Shelf ${i}`, context: "", at });
      ids.push(row.id);
    }
    // Played later in reverse order of making: story 0 is the newest played; the column follows the turns.
    for (const [i, storyId] of ids.entries()) {
      const at = new Date(start + 1_000_000 - i * 1_000);
      await t.ctx.db.insert(chatMessages).values({
        userId: user.userId,
        storyId,
        role: "assistant",
        content: "words",
        mode: "chat",
        createdAt: at,
        updatedAt: at,
      });
      await storyPlayed(t.ctx.db, user.userId, storyId, at);
    }

    type Client = { query: (...args: unknown[]) => Promise<{ rows?: unknown[] }> };
    const client = (t.ctx.db as unknown as { session: { client: Client } }).session.client;
    const original = client.query;
    const read = { stories: 0, messages: 0 };
    client.query = async (...args: unknown[]) => {
      const result = await original.apply(client, args);
      const first = args[0];
      const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
      if (/^\s*select[\s\S]*from "stories"/i.test(text)) read.stories += result.rows?.length ?? 0;
      if (/^\s*select[\s\S]*from "chat_messages"/i.test(text)) read.messages += result.rows?.length ?? 0;
      return result;
    };
    let first: Page;
    let second: Page;
    try {
      first = await page(user, { limit: 10 });
      second = await page(user, { limit: 10, cursor: first.next_cursor! });
    } finally {
      client.query = original;
    }
    expect(first.stories.map((s) => s.title)).toEqual(ids.slice(0, 10).map((_, i) => `Shelf ${i}`));
    expect(second.stories.map((s) => s.title)).toEqual(ids.slice(10, 20).map((_, i) => `Shelf ${i + 10}`));
    expect(first.stories[0]!.message_count).toBe(1);
    // Two pages of 10: at most 11 story rows and 10 cards' counts each (and the session's own reads).
    expect(read.stories).toBeLessThanOrEqual(2 * 11 + 4);
    expect(read.messages).toBeLessThanOrEqual(2 * 10);
    // Search walks the same order, a page at a time.
    const found = await page(user, { limit: 3, q: "shelf 39" });
    expect(found.stories.map((s) => s.title)).toEqual(["Shelf 39", "Shelf 390", "Shelf 391"]);
  });
});
