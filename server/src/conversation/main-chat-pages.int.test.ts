// The main chat (the never-ending story without an id) a page at a time (issue 42, decision 0138) through the
// HTTP API on a real database (both engines), as a story's messages are paged: the newest page first, older
// pages by cursor, each page in reading order, every message once; limits and cursors the server did not
// make a 400 with a detail; never a story's messages or another player's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { allMessages } from "./repo";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Page = {
  messages: { id: string; role: string; content: string }[];
  has_more: boolean;
  next_cursor: string | null;
  has_newer: boolean;
  turns_before: number;
};

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function page(user: TestUser, query = ""): Promise<Page> {
  const res = await call(user, "GET", `/api/chat/history${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

async function scrollBack(user: TestUser, limit: number) {
  const pages = [await page(user, `limit=${limit}`)];
  while (pages.at(-1)!.has_more) {
    pages.push(await page(user, `limit=${limit}&before=${pages.at(-1)!.next_cursor}`));
    if (pages.length > 500) throw new Error("paging never ended");
  }
  return pages;
}

describe("the main chat by page", () => {
  it("opens on the newest 50 and reads back page by page to the first, each message once, in order", async () => {
    const user = await createUser(t);
    await writeExchanges(t, user, null, 60, { 1: "The first narration." });
    // A turn played now, after the written history, and a story of the player's that is not the main chat.
    expect(
      (await call(user, "POST", "/api/chat", { prompt: "I look up", chat_mode: "chat" })).statusCode,
    ).toBe(200);
    const story = (await call(user, "POST", "/api/stories", { title: "Elsewhere" })).json().story as {
      id: string;
    };
    await writeExchanges(t, user, story.id, 5, {});
    const whole = await allMessages(t.ctx.db, user.userId, null);
    expect(whole).toHaveLength(122);

    const newest = await page(user);
    expect(newest.messages).toHaveLength(50);
    expect(newest).toMatchObject({ has_more: true, has_newer: false, turns_before: 36 });
    expect(newest.messages.map((m) => m.id)).toEqual(whole.slice(-50).map((m) => m.id));
    expect(newest.messages.at(-2)!.content).toBe("I look up");

    const pages = await scrollBack(user, 50);
    expect(pages.map((p) => p.messages.length)).toEqual([50, 50, 22]);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null, turns_before: 0 });
    const read = [...pages].reverse().flatMap((p) => p.messages);
    expect(read.map((m) => m.id)).toEqual(whole.map((m) => m.id));
    expect(read[1]!.content).toBe("The first narration.");

    // Any page size cuts the same conversation, and a story's messages are never in it.
    const small = await scrollBack(user, 9);
    expect(small[0]!.messages).toHaveLength(9);
    expect([...small].reverse().flatMap((p) => p.messages.map((m) => m.id))).toEqual(read.map((m) => m.id));
  });

  it("keeps each player's main chat their own", async () => {
    const one = await createUser(t);
    const other = await createUser(t);
    await writeExchanges(t, one, null, 30, {});
    expect((await page(other)).messages).toEqual([]);
    const cursor = (await page(one, "limit=10")).next_cursor!;
    // Another player's cursor reads the other player's own (empty) conversation, nothing of the first's.
    expect((await page(other, `before=${cursor}`)).messages).toEqual([]);
  });

  it("answers a bad limit or a cursor the server did not make with a 400 and a detail", async () => {
    const user = await createUser(t);
    await writeExchanges(t, user, null, 30, {});
    expect((await page(user, "limit=200")).messages).toHaveLength(60);
    for (const limit of ["0", "201", "x"]) {
      const res = await call(user, "GET", `/api/chat/history?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().detail).toMatch(/limit/);
    }
    const forged = Buffer.from("2026-01-01|not-an-id").toString("base64url");
    const ancient = Buffer.from(`0001-01-01T00:00:00.000000Z|${crypto.randomUUID()}`).toString("base64url");
    for (const bad of ["nonsense", forged, ancient]) {
      const res = await call(user, "GET", `/api/chat/history?before=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().detail).toBe("This conversation is out of date. Please reload the story.");
    }
  });
});
