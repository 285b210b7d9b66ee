// A shared story a page at a time (issue 42, decision 0138) through the public API on a real database (both
// engines): the newest page first, older pages by a cursor sealed for the link, each page in reading order,
// every message once; limits and bad cursors a 400 with a detail; a revoked link or a deleted story a 404 for
// every page and medium; and nothing in a page (handles, cursors) that names a message's id or time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, freshAddress, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { fetchMedia, waitForMedia } from "../../test/media";
import { allMessages } from "../conversation/repo";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Shared = { id: string; role: string; content: string; image_url: string | null };
type SharedPage = {
  messages: Shared[];
  has_more: boolean;
  next_cursor: string | null;
  story: { title: string };
};

const call = (user: TestUser, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
const anonymous = (url: string) => t.app.inject({ method: "GET", url, remoteAddress: freshAddress() });
const tokenOf = (url: string) => new URL(url).pathname.replace(/^\/s\//, "");

async function sharedPage(token: string, query = ""): Promise<SharedPage> {
  const res = await anonymous(`/api/shared/${token}${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SharedPage;
}

/** Every page from the newest back to the first, as a reader scrolling up reads them. */
async function scrollBack(token: string, limit?: number) {
  const size = limit ? `limit=${limit}` : "";
  const pages = [await sharedPage(token, size)];
  while (pages.at(-1)!.has_more) {
    const cursor = encodeURIComponent(pages.at(-1)!.next_cursor!);
    pages.push(await sharedPage(token, [size, `before=${cursor}`].filter(Boolean).join("&")));
    if (pages.length > 500) throw new Error("paging never ended");
  }
  return pages;
}
const stitched = (pages: SharedPage[]) => [...pages].reverse().flatMap((page) => page.messages);

/** A shared story: a pictured first turn through the API, then `exchanges` more written a day later. */
async function sharedStory(exchanges: number) {
  const owner = await createUser(t);
  const story = (
    await call(owner, "POST", "/api/stories", { title: "The Long Road", context: "North" })
  ).json().story as { id: string };
  const turn = (
    await call(owner, "POST", `/api/stories/${story.id}/chat`, { prompt: "I set out", chat_mode: "image" })
  ).json();
  const status = await waitForMedia(
    t,
    owner.token,
    `/api/stories/${story.id}/media-status/${turn.message_id}`,
  );
  expect(status.media_generation_completed).toBe(true);
  t.clock.advance(2 * 86_400_000);
  await writeExchanges(t, owner, story.id, exchanges, {});
  const url = (await call(owner, "POST", `/api/stories/${story.id}/share`, {})).json().url as string;
  return { owner, storyId: story.id, token: tokenOf(url) };
}

describe("a shared story by page", () => {
  it("opens on the newest 50 and reads back page by page to the first, each message once, in order", async () => {
    const { owner, storyId, token } = await sharedStory(60);
    const whole = await allMessages(t.ctx.db, owner.userId, storyId);
    expect(whole).toHaveLength(122);

    const newest = await sharedPage(token);
    expect(newest.story.title).toBe("The Long Road");
    expect(newest.messages).toHaveLength(50);
    expect(newest.has_more).toBe(true);
    expect(newest.messages.map((m) => m.content)).toEqual(whole.slice(-50).map((m) => m.content));
    expect(newest.messages.at(-1)!.role).toBe("assistant");

    const pages = await scrollBack(token);
    expect(pages.map((page) => page.messages.length)).toEqual([50, 50, 22]);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
    const read = stitched(pages);
    expect(read.map((m) => [m.role, m.content])).toEqual(whole.map((m) => [m.role, m.content]));
    expect(new Set(read.map((m) => m.id)).size).toBe(122);
    // Handles are stable: the same message has the same one on every read of the link.
    expect((await sharedPage(token)).messages.map((m) => m.id)).toEqual(newest.messages.map((m) => m.id));

    // The first turn's picture, on the oldest page, opens through its handle.
    const first = read[1]!;
    expect(first.content).toBe(whole[1]!.content);
    expect(first.image_url).toContain(`/media/${first.id}-image?`);
    const picture = await fetchMedia(t, first.image_url!);
    expect(picture.status).toBe(200);
    expect(picture.type).toMatch(/^image\//);

    // Smaller pages cut the same story the same way.
    const small = await scrollBack(token, 7);
    expect(small[0]!.messages).toHaveLength(7);
    expect(stitched(small).map((m) => m.id)).toEqual(read.map((m) => m.id));
  });

  it("names no message id or time: handles and cursors are the link's own", async () => {
    const { owner, storyId, token } = await sharedStory(40);
    const whole = await allMessages(t.ctx.db, owner.userId, storyId);
    const pages = await scrollBack(token, 20);
    const bodies = JSON.stringify(pages);
    for (const message of whole) {
      expect(bodies).not.toContain(message.id);
      expect(bodies).not.toContain(message.id.replaceAll("-", ""));
    }
    // The first turn was played as the story was made (the story's date is on the page); the rest a day later.
    for (const message of whole.slice(2)) {
      expect(bodies).not.toContain(message.createdAt.toISOString().slice(0, 16));
    }
    for (const page of pages.slice(0, -1)) {
      const opened = Buffer.from(page.next_cursor!, "base64url").toString("latin1");
      expect(opened).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      for (const message of whole) expect(opened).not.toContain(message.id);
    }
    for (const secret of [owner.userId, storyId, owner.email, owner.username]) {
      expect(bodies).not.toContain(secret);
    }
  });

  it("takes a limit from 1 to 200 (default 50), and anything else is a 400 with a detail", async () => {
    const { token } = await sharedStory(120);
    const all = await sharedPage(token, "limit=200");
    expect(all.messages).toHaveLength(200);
    expect(all.has_more).toBe(true);
    expect((await sharedPage(token, "limit=1")).messages).toHaveLength(1);
    for (const limit of ["0", "201", "abc", "2.5"]) {
      const res = await anonymous(`/api/shared/${token}?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().detail).toMatch(/limit/);
    }
  });

  it("answers a cursor it did not hand out on this link with a 400 and a detail", async () => {
    const { owner, storyId, token } = await sharedStory(40);
    const other = await sharedStory(40);
    const cursor = (await sharedPage(token)).next_cursor!;
    const storyCursor = (await call(owner, "GET", `/api/stories/${storyId}/messages`)).json().next_cursor;
    expect(storyCursor).toEqual(expect.any(String));
    const flipped = `${cursor.slice(0, 20)}${cursor[20] === "A" ? "B" : "A"}${cursor.slice(21)}`;
    for (const bad of ["nonsense", storyCursor, flipped, (await sharedPage(other.token)).next_cursor!, "x"]) {
      const res = await anonymous(`/api/shared/${token}?before=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().detail).toBe("This conversation is out of date. Please reload the story.");
    }
    const long = await anonymous(`/api/shared/${token}?before=${"A".repeat(201)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toBeTruthy();
    // The link's own cursor still reads on.
    expect((await sharedPage(token, `before=${encodeURIComponent(cursor)}`)).messages).toHaveLength(32);
  });

  it("ends every page and medium of a revoked link or a deleted story at once", async () => {
    const { owner, storyId, token } = await sharedStory(30);
    const pages = await scrollBack(token, 20);
    const cursor = encodeURIComponent(pages[0]!.next_cursor!);
    const picture = stitched(pages)[1]!.image_url!;
    expect((await fetchMedia(t, picture)).status).toBe(200);

    await call(owner, "DELETE", `/api/stories/${storyId}/share`);
    for (const url of [`/api/shared/${token}`, `/api/shared/${token}?before=${cursor}`]) {
      const res = await anonymous(url);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe("This shared story does not exist or is no longer shared.");
    }
    expect((await fetchMedia(t, picture)).status).toBe(404);
    // A new link to the story: the old link's cursor is not its own.
    const again = tokenOf((await call(owner, "POST", `/api/stories/${storyId}/share`, {})).json().url);
    expect((await anonymous(`/api/shared/${again}?before=${cursor}`)).statusCode).toBe(400);

    const deleted = await sharedStory(30);
    const next = encodeURIComponent((await sharedPage(deleted.token, "limit=20")).next_cursor!);
    expect((await call(deleted.owner, "DELETE", `/api/stories/${deleted.storyId}`)).statusCode).toBe(200);
    expect((await anonymous(`/api/shared/${deleted.token}?before=${next}`)).statusCode).toBe(404);
    expect((await anonymous(`/api/shared/${deleted.token}`)).statusCode).toBe(404);
  });

  it("shows an undone message on no page and opens none of its media", async () => {
    const { owner, storyId, token } = await sharedStory(0);
    const before = await sharedPage(token);
    expect(before.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const picture = before.messages[1]!.image_url!;
    expect((await fetchMedia(t, picture)).status).toBe(200);
    expect((await call(owner, "POST", `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
    expect((await sharedPage(token)).messages).toEqual([]);
    expect((await fetchMedia(t, picture)).status).toBe(404);
  });
});
