// The read caches keep each story's answers apart (decision 0134): a turn in one story (or a branch) drops that
// story's kept messages, counts and row, and leaves every other story's answers of the same player kept, on
// either engine, by the module's own invalidation and by the tables' change signals, which name the stories a
// statement changed. Another process (PostgreSQL) sees the played story change, and keeps the other's answers.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { testEngine } from "../../test/database";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { allMessages, storyConversationStats } from "../conversation/repo";
import { findStory } from "../stories/repo";
import { type Database, openDatabase } from "./client";
import { runMigrations } from "./migrate";
import { chatMessages } from "./schema";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * PostgreSQL keeps an answer 1 s at most (decision 0117), and a turn on a loaded machine can take longer: the
 * caches' clock stands still from here, so what is counted is what the writes dropped, not what aged out.
 */
function holdTheCachesClock() {
  const now = performance.now();
  vi.spyOn(performance, "now").mockReturnValue(now);
}

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function storyWithATurn(user: TestUser, title: string): Promise<string> {
  const res = await call(user, "POST", "/api/stories", { title, context: "" });
  const storyId = res.json().story.id as string;
  await turn(user, storyId, "I set out");
  return storyId;
}

async function turn(user: TestUser, storyId: string, prompt: string) {
  t.clock.advance(1_000);
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat" });
  expect(res.statusCode, res.body).toBe(200);
}

const counts = (database: Database) => {
  const of = (name: string) => database.readCaches?.stats(name) ?? { hits: 0, misses: 0, shared: 0 };
  const chat = of("chat.conversations");
  const stories = of("stories.rows");
  return { hits: chat.hits + stories.hits, misses: chat.misses + stories.misses };
};

/** Until `read` is answered from memory (a signal of an earlier write may still be on its way). */
async function kept<T>(database: Database, read: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const before = counts(database);
    const answer = await read();
    if (counts(database).misses === before.misses) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("never kept");
}

/** Story B's hot reads in `database`: its messages, its card's count and its row. */
const readsOf = (database: Database, userId: string, storyId: string) => async () => ({
  messages: (await allMessages(database.db, userId, storyId)).length,
  count: (await storyConversationStats(database.db, userId, [storyId]))[0]?.messageCount,
  title: (await findStory(database.db, userId, storyId))?.title,
});

describe("the read caches per story", () => {
  it("a turn in story A keeps story B's kept answers and shows A's new messages at once", async () => {
    const user = await createUser(t);
    const a = await storyWithATurn(user, "Story A");
    const b = await storyWithATurn(user, "Story B");
    const readB = readsOf(t.database, user.userId, b);
    const readA = readsOf(t.database, user.userId, a);
    expect(await kept(t.database, readB)).toEqual({ messages: 2, count: 2, title: "Story B" });
    expect(await kept(t.database, readA)).toEqual({ messages: 2, count: 2, title: "Story A" });
    holdTheCachesClock();

    await turn(user, a, "I cross the river");
    // Give the turn's change signals time to arrive: they name story A alone.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = counts(t.database);
    expect(await readB()).toEqual({ messages: 2, count: 2, title: "Story B" });
    expect(counts(t.database)).toEqual({ hits: before.hits + 3, misses: before.misses });
    // A's answers were dropped: its new exchange shows at once.
    expect(await readA()).toEqual({ messages: 4, count: 4, title: "Story A" });

    // A write no module made (direct SQL) reaches the caches by the table's signal, which names story A.
    await kept(t.database, readA);
    await t.ctx.db.insert(chatMessages).values({
      userId: user.userId,
      storyId: a,
      role: "assistant",
      content: "A voice from nowhere",
      mode: "chat",
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    });
    let seen = 0;
    for (let attempt = 0; attempt < 100 && seen !== 5; attempt += 1) {
      seen = (await readA()).messages;
      if (seen !== 5) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(seen).toBe(5);
    const after = counts(t.database);
    expect(await readB()).toEqual({ messages: 2, count: 2, title: "Story B" });
    expect(counts(t.database)).toEqual({ hits: after.hits + 3, misses: after.misses });
  });

  it("a turn on one branch keeps the other branch's kept messages", async () => {
    const user = await createUser(t);
    const storyId = await storyWithATurn(user, "Forked");
    await turn(user, storyId, "I take the left path");
    const newest = (await allMessages(t.ctx.db, user.userId, storyId)).at(-1)!;
    const branched = await call(user, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: newest.id,
      name: "Right path",
    });
    expect(branched.statusCode, branched.body).toBe(201);
    const branchId = branched.json().branch.id as string;
    expect(branchId).not.toBe(storyId);
    const first = readsOf(t.database, user.userId, storyId);
    const shownFirst = await kept(t.database, first);
    holdTheCachesClock();

    // The story shows the new branch: its turns are the branch's.
    await turn(user, storyId, "I take the right path");
    expect((await allMessages(t.ctx.db, user.userId, branchId)).length).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = counts(t.database);
    expect(await first()).toEqual(shownFirst);
    expect(counts(t.database)).toEqual({ hits: before.hits + 3, misses: before.misses });
  });
});

describe.skipIf(testEngine !== "postgres")("the read caches per story across processes", () => {
  let other: Database;
  beforeAll(async () => {
    other = await openDatabase({ url: (t.target as { url: string }).url });
    // As a second server process starts: its migrations are done already, which arms its caches.
    await runMigrations(other);
    for (let i = 0; i < 500 && !other.readCaches?.enabled; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(other.readCaches?.enabled).toBe(true);
  });
  afterAll(async () => {
    await other?.close();
  });

  it("another process sees story A's turn and keeps story B's answers", async () => {
    const user = await createUser(t);
    const a = await storyWithATurn(user, "Story A");
    const b = await storyWithATurn(user, "Story B");
    const readB = readsOf(other, user.userId, b);
    const readA = readsOf(other, user.userId, a);
    expect(await kept(other, readB)).toEqual({ messages: 2, count: 2, title: "Story B" });
    expect(await kept(other, readA)).toEqual({ messages: 2, count: 2, title: "Story A" });
    holdTheCachesClock();

    await turn(user, a, "I climb the tower");
    let seen = 0;
    for (let attempt = 0; attempt < 100 && seen !== 4; attempt += 1) {
      seen = (await readA()).messages;
      if (seen !== 4) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Within a second at most: the age limit would refresh it at 1 s, the signal does it well before.
    expect(seen).toBe(4);
    const before = counts(other);
    expect(await readB()).toEqual({ messages: 2, count: 2, title: "Story B" });
    expect(counts(other)).toEqual({ hits: before.hits + 3, misses: before.misses });
  });
});
