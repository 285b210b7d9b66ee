// The Gallery's search on the server (issue 42 item 6, decision 0129): GET /api/gallery?q= keeps the items
// whose prompt holds the words (case-insensitive, LIKE's wildcards taken literally), newest first and a page
// at a time like the whole gallery, never another player's; over-long words are a 400 with a detail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { saveImage } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Page = { items: { description: string }[]; next_cursor: string | null };

const gallery = (user: TestUser, query: string) =>
  t.app.inject({ method: "GET", url: `/api/gallery?${query}`, headers: bearer(user.token) });

async function picture(user: TestUser, description: string) {
  t.clock.advance(1_000);
  await saveImage(
    t.ctx,
    t.database.db,
    { userId: user.userId, source: "studio", storyId: null, storyTitle: null, messageId: null, description },
    await samplePng(),
  );
}

describe("GET /api/gallery?q=", () => {
  it("finds the prompts holding the words, a page at a time, only the caller's", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    await picture(user, "A red dragon over the harbour");
    await picture(user, "Lanterns in a misty forest");
    await picture(user, "The dragon sleeps under the pier");
    await picture(user, "A 100% clear sky");
    await picture(other, "Another player's dragon");

    const first = await gallery(user, "q=DRAGON&limit=1");
    expect(first.statusCode, first.body).toBe(200);
    const one = first.json() as Page;
    expect(one.items.map((i) => i.description)).toEqual(["The dragon sleeps under the pier"]);
    const second = (await gallery(user, `q=DRAGON&limit=1&cursor=${one.next_cursor}`)).json() as Page;
    expect(second.items.map((i) => i.description)).toEqual(["A red dragon over the harbour"]);
    expect(second.next_cursor).toBeNull();

    const percent = (await gallery(user, "q=0%25")).json() as Page;
    expect(percent.items.map((i) => i.description)).toEqual(["A 100% clear sky"]);
    expect(((await gallery(user, "q=_")).json() as Page).items).toEqual([]);
    // Without words, everything (the gallery as before).
    expect(((await gallery(user, "q=%20")).json() as Page).items).toHaveLength(4);

    const long = await gallery(user, `q=${"a".repeat(201)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toMatch(/q must be at most 200 characters/);
  });
});
