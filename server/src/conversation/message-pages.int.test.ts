// A story's messages a page at a time (issue 42 item 1, decision 0130) through the HTTP API on a real database
// (both engines): the newest page first, older pages by cursor, each page in reading order; every message once
// however the pages are cut (messages of the same instant too); a page around a message and reading on from
// it; retry versions, undone and deleted messages and branches exactly as the whole story shows them; bad
// limits and cursors a 400 with a detail; another player's story a 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { chatMessages } from "../db/schema";
import { withVersions } from "./presentation";
import { allMessages } from "./repo";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Message = { id: string; role: string; content: string; version?: number; version_count?: number };
type Page = {
  messages: Message[];
  has_more: boolean;
  next_cursor: string | null;
  has_newer: boolean;
  newer_cursor: string | null;
  turns_before: number;
};

const call = (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function newStory(user: TestUser) {
  const res = await call(user, "POST", "/api/stories", { title: "The Long Road", context: "A walk north" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().story.id as string;
}

async function page(user: TestUser, storyId: string, query = ""): Promise<Page> {
  const res = await call(user, "GET", `/api/stories/${storyId}/messages${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

/** Every page from the newest back to the first, as a reader scrolling up reads them. */
async function scrollBack(user: TestUser, storyId: string, limit: number, suffix = "") {
  const pages: Page[] = [await page(user, storyId, `limit=${limit}${suffix}`)];
  while (pages.at(-1)!.has_more) {
    const cursor = pages.at(-1)!.next_cursor!;
    pages.push(await page(user, storyId, `limit=${limit}&before=${cursor}${suffix}`));
    if (pages.length > 1000) throw new Error("paging never ended");
  }
  return pages;
}

/** The story as the unpaged read showed it (every shown message, oldest first, with its versions). */
async function wholeStory(user: TestUser, storyId: string) {
  const rows = await allMessages(t.ctx.db, user.userId, storyId);
  return (await withVersions(t.ctx, rows)).map(shape);
}

const shape = (m: Message) => ({
  id: m.id,
  role: m.role,
  content: m.content,
  version: m.version,
  version_count: m.version_count,
});
const stitched = (pages: Page[]) => [...pages].reverse().flatMap((p) => p.messages.map(shape));

async function turn(user: TestUser, storyId: string, prompt: string) {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { message_id: string; user_message_id: string };
}

describe("a story's messages by page", () => {
  it("opens on the newest 50 and reads back page by page to the first, each message once, in order", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await writeExchanges(t, user, storyId, 130, { 1: "The first narration.", 130: "The newest narration." });

    const newest = await page(user, storyId);
    expect(newest.messages).toHaveLength(50);
    expect(newest.messages.at(-1)!.content).toBe("The newest narration.");
    expect(newest.messages[0]!.content).toBe("I walk on (106)");
    expect(newest.has_more).toBe(true);
    expect(newest.has_newer).toBe(false);
    expect(newest.newer_cursor).toBeNull();
    // 105 narrations come before the page: its first narrator message is turn 106.
    expect(newest.turns_before).toBe(105);

    for (const limit of [1, 77, 200]) {
      const pages = await scrollBack(user, storyId, limit);
      expect(pages).toHaveLength(Math.ceil(260 / limit));
      expect(stitched(pages)).toEqual(await wholeStory(user, storyId));
      const last = pages.at(-1)!;
      expect(last.has_more).toBe(false);
      expect(last.next_cursor).toBeNull();
      expect(last.turns_before).toBe(0);
      expect(last.messages[0]!.content).toBe("I walk on (1)");
      // Each page's turn numbers follow on from the page before it.
      for (let n = 1; n < pages.length; n += 1) {
        const narrations = pages[n]!.messages.filter((m) => m.role === "assistant").length;
        expect(pages[n]!.turns_before + narrations).toBe(pages[n - 1]!.turns_before);
      }
    }
  });

  it("cuts pages between messages of the same instant without losing or repeating one", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const at = new Date("2026-01-02T03:04:05.678Z");
    await t.ctx.db.insert(chatMessages).values(
      Array.from({ length: 9 }, (_, n) => ({
        userId: user.userId,
        storyId,
        role: n % 2 === 0 ? ("user" as const) : ("assistant" as const),
        content: `Same instant ${n}`,
        mode: "chat" as const,
        createdAt: at,
        updatedAt: at,
      })),
    );
    for (const limit of [1, 2, 4]) {
      const pages = await scrollBack(user, storyId, limit);
      const ids = stitched(pages).map((m) => m.id);
      expect(new Set(ids).size).toBe(9);
      expect(stitched(pages)).toEqual(await wholeStory(user, storyId));
    }
  });

  it("opens the page around a message and reads on from it to the newest", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await writeExchanges(t, user, storyId, 100, { 20: "The checkpoint narration." });
    const whole = await wholeStory(user, storyId);
    const target = whole.find((m) => m.content === "The checkpoint narration.")!;
    const index = whole.indexOf(target);

    const around = await page(user, storyId, `limit=20&around=${target.id}`);
    expect(around.messages.map(shape)).toEqual(whole.slice(index - 9, index + 11));
    expect(around.has_more).toBe(true);
    expect(around.has_newer).toBe(true);
    // Turn 20 is on the page: the narrations before the page's first message are turns 1 to 15.
    expect(around.turns_before).toBe(15);

    // Older pages go back from it, newer pages on to the newest message.
    const older = await page(user, storyId, `limit=20&before=${around.next_cursor}`);
    expect(older.messages.map(shape)).toEqual(whole.slice(index - 29, index - 9));
    const onwards: Message[] = [];
    let cursor = around.newer_cursor;
    while (cursor) {
      const next = await page(user, storyId, `limit=50&after=${cursor}`);
      expect(next.has_more).toBe(true);
      onwards.push(...next.messages);
      cursor = next.has_newer ? next.newer_cursor : null;
    }
    expect(onwards.map(shape)).toEqual(whole.slice(index + 11));

    // The first and the newest messages: a side with nothing says so and leaves its share to the other.
    const first = await page(user, storyId, `limit=10&around=${whole[0]!.id}`);
    expect(first.messages.map(shape)).toEqual(whole.slice(0, 10));
    expect([first.has_more, first.next_cursor, first.has_newer]).toEqual([false, null, true]);
    const last = await page(user, storyId, `limit=10&around=${whole.at(-1)!.id}`);
    expect(last.messages.map(shape)).toEqual(whole.slice(-10));
    expect([last.has_more, last.has_newer, last.newer_cursor]).toEqual([true, false, null]);

    // A message the story does not show is not found.
    const missing = await call(
      user,
      "GET",
      `/api/stories/${storyId}/messages?around=00000000-0000-4000-8000-000000000000`,
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe("Message not found");
  });

  it("shows retry versions, undone and deleted messages exactly as the whole story does", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await turn(user, storyId, "Turn 1: I open door 1");
    // Turn 2's answer retried twice (three versions, the newest shown), then its first version chosen again.
    const retried = (await turn(user, storyId, "Turn 2: I open door 2")).message_id;
    for (const _ of [1, 2]) {
      const res = await call(user, "POST", `/api/stories/${storyId}/messages/${retried}/retry`, {});
      expect(res.statusCode, res.body).toBe(200);
    }
    const shownVersion = (await page(user, storyId)).messages.find((m) => m.version_count === 3)!;
    expect(shownVersion.version).toBe(3);
    const chose = await call(
      user,
      "PUT",
      `/api/stories/${storyId}/messages/${shownVersion.id}/versions/1/select`,
    );
    expect(chose.statusCode, chose.body).toBe(200);
    for (const n of [3, 4, 5]) await turn(user, storyId, `Turn ${n}: I open door ${n}`);
    // The newest exchange undone (hidden, waiting for Redo), then a new turn deletes it for good.
    expect((await call(user, "POST", `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
    const afterUndo = stitched(await scrollBack(user, storyId, 3));
    expect(afterUndo).toEqual(await wholeStory(user, storyId));
    expect(afterUndo.map((m) => m.content)).not.toContain("Turn 5: I open door 5");
    await turn(user, storyId, "Turn 6: I open the last door");

    for (const limit of [1, 2, 3, 50]) {
      const pages = await scrollBack(user, storyId, limit);
      const shown = stitched(pages);
      expect(shown).toEqual(await wholeStory(user, storyId));
      expect(shown).toHaveLength(10);
      expect(shown.map((m) => m.content)).not.toContain("Turn 5: I open door 5");
      expect(shown.filter((m) => m.version_count === 3).map((m) => m.version)).toEqual([1]);
    }
    // A hidden version is not a message the story shows: no page opens around it.
    const versions = (
      await call(user, "GET", `/api/stories/${storyId}/messages/${shownVersion.id}/versions`)
    ).json().versions as { message_id: string; selected: boolean }[];
    const hidden = versions.find((v) => !v.selected)!;
    expect(
      (await call(user, "GET", `/api/stories/${storyId}/messages?around=${hidden.message_id}`)).statusCode,
    ).toBe(404);
  });

  it("pages the branch the story shows, or the one asked for, and never another's messages", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const turns = [];
    for (const n of [1, 2, 3, 4]) turns.push(await turn(user, storyId, `Turn ${n}: I walk on`));
    const created = await call(user, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: turns[1]!.message_id,
      name: "The other road",
    });
    expect(created.statusCode, created.body).toBe(201);
    const branch = created.json().branch as { id: string };
    await turn(user, storyId, "On the branch: I turn back");

    const onBranch = stitched(await scrollBack(user, storyId, 2));
    expect(onBranch.map((m) => m.content)).toEqual([
      "Turn 1: I walk on",
      expect.any(String),
      "Turn 2: I walk on",
      expect.any(String),
      "On the branch: I turn back",
      expect.any(String),
    ]);
    const main = (await call(user, "GET", `/api/stories/${storyId}/branches`)).json().branches[0] as {
      id: string;
    };
    expect(main.id).not.toBe(branch.id);
    const onMain = stitched(await scrollBack(user, storyId, 3, `&branch=${main.id}`));
    expect(onMain.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "Turn 1: I walk on",
      "Turn 2: I walk on",
      "Turn 3: I walk on",
      "Turn 4: I walk on",
    ]);
  });

  it("refuses a bad limit, a cursor it did not make and two positions at once (400, with a detail)", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await writeExchanges(t, user, storyId, 3, {});
    const good = (await page(user, storyId, "limit=2")).next_cursor!;
    expect((await page(user, storyId, "limit=200")).messages).toHaveLength(6);
    for (const query of [
      "limit=0",
      "limit=201",
      "limit=ten",
      "limit=2.5",
      "before=not-a-cursor",
      `before=${Buffer.from("yesterday|abc").toString("base64url")}`,
      // The Gallery's cursor shape (milliseconds) is not one of these.
      `before=${Buffer.from(`2026-01-01T00:00:00.000Z|${storyId}`).toString("base64url")}`,
      `after=${Buffer.from(`99999-01-01T00:00:00.000000Z|${storyId}`).toString("base64url")}`,
      `before=${"x".repeat(201)}`,
      "around=turn-5",
      `before=${good}&after=${good}`,
    ]) {
      const res = await call(user, "GET", `/api/stories/${storyId}/messages?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().detail, query).toMatch(
        /out of date|limit must be|around must be|at most one|before|after|Invalid/,
      );
    }
  });

  it("answers another player's story as not found", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(owner);
    await writeExchanges(t, owner, storyId, 3, {});
    const cursor = (await page(owner, storyId, "limit=2")).next_cursor!;
    for (const query of ["", "limit=2", `before=${cursor}`]) {
      const res = await call(other, "GET", `/api/stories/${storyId}/messages?${query}`);
      expect(res.statusCode, query).toBe(404);
    }
  });
});
