// A book is read from a cursor over the story a bounded page at a time (issue 42 item 4, decision 0131): no
// statement returns more than a page of messages however long the story, and the exchanges come whole and in
// order. The story's fingerprint, which keys reuse, changes with any word.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { storyContentFingerprint } from "../conversation/message-cursor";
import { chatMessages } from "../db/schema";
import { openBook, scanBook } from "./book";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true, workers: false });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type QueryResult = { rows?: unknown[] };
type Client = { query: (...args: unknown[]) => Promise<QueryResult> };

/** The most chat_messages rows any one statement of the app's handle returns while `run` runs (both drivers). */
async function largestMessageRead(
  run: () => Promise<void>,
): Promise<{ largest: number; statements: number }> {
  const client = (t.ctx.db as unknown as { session: { client: Client } }).session.client;
  const original = client.query;
  let largest = 0;
  let statements = 0;
  client.query = async (...args: unknown[]) => {
    const result = await original.apply(client, args);
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
    if (/^\s*select[\s\S]*from "chat_messages"/i.test(text)) {
      statements += 1;
      largest = Math.max(largest, result.rows?.length ?? 0);
    }
    return result;
  };
  try {
    await run();
  } finally {
    client.query = original;
  }
  return { largest, statements };
}

describe("a book read from the story's cursor", () => {
  it("walks 1,200 exchanges in order, a page of at most 500 messages a statement, twice", async () => {
    const user = await createUser(t);
    const storyId = (
      await t.app.inject({
        method: "POST",
        url: "/api/stories",
        headers: { authorization: `Bearer ${user.token}` },
        payload: { title: "The Long Road" },
      })
    ).json().story.id as string;
    await writeExchanges(t, user, storyId, 1_200, { 600: "The bridge at the middle of the road." });

    const numbers: number[] = [];
    let middle = "";
    const read = await largestMessageRead(async () => {
      const book = await openBook(t.ctx, user.userId, storyId);
      const scan = await scanBook(book);
      expect(scan.exchanges).toBe(1_200);
      for await (const exchange of book.exchanges) {
        numbers.push(exchange.number);
        if (exchange.number === 600) middle = exchange.narrator ?? "";
        expect(exchange.player).toBe(`I walk on (${exchange.number})`);
      }
    });
    expect(numbers).toEqual(Array.from({ length: 1_200 }, (_, i) => i + 1));
    expect(middle).toBe("The bridge at the middle of the road.");
    expect(read.largest).toBeLessThanOrEqual(500);
    // 2,400 messages, walked twice: five pages a walk.
    expect(read.statements).toBeLessThanOrEqual(12);
  }, 120_000);

  it("names who spoke each answer: the character of a character-told turn, else no one (the narrator)", async () => {
    const user = await createUser(t);
    const storyId = (
      await t.app.inject({
        method: "POST",
        url: "/api/stories",
        headers: { authorization: `Bearer ${user.token}` },
        payload: { title: "Two Tellers" },
      })
    ).json().story.id as string;
    await writeExchanges(t, user, storyId, 2, {});
    // The second answer was told by Mira (as a character-mode turn stores it, decision 0154).
    const [, second] = await t.ctx.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.storyId, storyId), eq(chatMessages.role, "assistant")))
      .orderBy(chatMessages.createdAt);
    await t.ctx.db
      .update(chatMessages)
      .set({ speaker: { card_id: "c1", name: "Mira" } })
      .where(eq(chatMessages.id, second!.id));
    const speakers: (string | null | undefined)[] = [];
    for await (const exchange of (await openBook(t.ctx, user.userId, storyId)).exchanges)
      speakers.push(exchange.speaker);
    expect(speakers).toEqual([null, "Mira"]);
  });

  it("has a fingerprint that stays while nothing changes and moves with any word of any message", async () => {
    const user = await createUser(t);
    const storyId = (
      await t.app.inject({
        method: "POST",
        url: "/api/stories",
        headers: { authorization: `Bearer ${user.token}` },
        payload: { title: "Small Road" },
      })
    ).json().story.id as string;
    await writeExchanges(t, user, storyId, 5, {});
    const first = await storyContentFingerprint(t.ctx.db, user.userId, storyId);
    expect(first.messages).toBe(10);
    expect(await storyContentFingerprint(t.ctx.db, user.userId, storyId)).toEqual(first);
    // One word of the third player's line, its change time left as it was: the fingerprint still moves.
    await t.ctx.db
      .update(chatMessages)
      .set({ content: "I run on (3)" })
      .where(and(eq(chatMessages.storyId, storyId), eq(chatMessages.content, "I walk on (3)")));
    const changed = await storyContentFingerprint(t.ctx.db, user.userId, storyId);
    expect(changed.messages).toBe(10);
    expect(changed.hash).not.toBe(first.hash);
  });
});
