// GET /api/gallery: every source and kind, newest first, pages that neither skip nor repeat, thumbnails for
// the grid, and nobody else's media.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { sampleMp4, samplePng } from "../../test/fakes/media";
import { fetchMedia } from "../../test/media";
import { decodeCursor, encodeCursor } from "./gallery";
import { type MediaOrigin, saveImage, saveVideo } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.cleanup();
});

type Item = {
  id: string;
  type: string;
  source: string;
  url: string;
  thumbnail_url: string | null;
  created_at: string;
  description: string;
};
type Page = { success: true; items: Item[]; next_cursor: string | null };

const page = async (user: TestUser | undefined, query = "") =>
  t.app.inject({ method: "GET", url: `/api/gallery${query}`, headers: user ? bearer(user.token) : {} });

const origin = (user: TestUser, source: MediaOrigin["source"], description: string): MediaOrigin => ({
  userId: user.userId,
  source,
  storyId: null,
  storyTitle: source === "story" ? "The Lost Map" : null,
  messageId: null,
  description,
});

/**
 * Seven items for `user`, returned as ids in the gallery's order: images from every source and a video whose poster is
 * a scene image; items 4 and 5 share a timestamp and straddle a page boundary at limit=3, so paging
 * must break ties by id.
 */
async function seedGallery(user: TestUser): Promise<string[]> {
  const db = t.database.db;
  const made: { id: string; createdAt: Date }[] = [];
  const sources = ["studio", "story", "main_chat", "studio", "story"] as const;
  let scene: Awaited<ReturnType<typeof saveImage>> | undefined;
  for (const [index, source] of sources.entries()) {
    // 2K-ish originals, so the thumbnail's size limit is really exercised.
    const png = await samplePng(1600, 1200, `#${(0x203040 + index * 0x101010).toString(16)}`);
    scene = await saveImage(t.ctx, db, origin(user, source, `item ${index + 1}`), png);
    made.push(scene);
    if (index !== 3) t.clock.advance(1000);
  }
  const video = await saveVideo(t.ctx, db, origin(user, "story", "item 6"), sampleMp4(), scene!.storageKey);
  made.push(video);
  t.clock.advance(1000);
  made.push(await saveImage(t.ctx, db, origin(user, "studio", "item 7"), await samplePng()));
  t.clock.advance(1000);
  // The order the gallery promises: newest first, ties broken by id (descending).
  return made
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((row) => row.id);
}

describe("GET /api/gallery", () => {
  it("pages through everything newest first, without gaps or repeats, and ends with next_cursor null", async () => {
    const user = await createUser(t);
    const expected = await seedGallery(user);
    const other = await createUser(t);
    await saveImage(t.ctx, t.database.db, origin(other, "studio", "not yours"), await samplePng());

    const seen: Item[] = [];
    const sizes: number[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const res = await page(user, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as Page;
      sizes.push(body.items.length);
      seen.push(...body.items);
      cursor = body.next_cursor;
      pages += 1;
      expect(pages).toBeLessThan(10);
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen.map((i) => i.id)).toEqual(expected);
    expect(new Set(seen.map((i) => i.id)).size).toBe(7);
    expect(seen.some((i) => i.description === "not yours")).toBe(false);
    expect(new Set(seen.map((i) => i.source))).toEqual(new Set(["studio", "story", "main_chat"]));
    expect(seen.find((i) => i.type === "video")).toBeTruthy();
    // Times never increase down the list.
    const times = seen.map((i) => Date.parse(i.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // A page that ends exactly at the last item says so.
    const exact = (await page(user, "?limit=7")).json() as Page;
    expect(exact.items).toHaveLength(7);
    expect(exact.next_cursor).toBeNull();
  });

  it("gives every item a small webp thumbnail, videos included, for the grid", async () => {
    const user = await createUser(t);
    await seedGallery(user);
    const body = (await page(user)).json() as Page;
    expect(body.items).toHaveLength(7);
    for (const item of body.items) {
      expect(item.thumbnail_url).toBeTruthy();
      expect(item.thumbnail_url).not.toBe(item.url);
      const thumb = await fetchMedia(t, item.thumbnail_url!);
      expect(thumb.status).toBe(200);
      expect(thumb.type).toBe("image/webp");
      const meta = await sharp(thumb.body).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(512);
    }
    const video = body.items.find((i) => i.type === "video")!;
    expect((await fetchMedia(t, video.url)).type).toBe("video/mp4");
  });

  it("keeps the list itself small: under 1 KB of JSON per item", async () => {
    const user = await createUser(t);
    await seedGallery(user);
    const res = await page(user);
    expect(res.body.length / 7).toBeLessThan(1024);
  });

  it("defaults to 60 items and refuses limits outside 1..100", async () => {
    const user = await createUser(t);
    const db = t.database.db;
    const png = await samplePng();
    for (let i = 0; i < 61; i += 1) {
      await saveImage(t.ctx, db, origin(user, "studio", `bulk ${i}`), png);
      t.clock.advance(10);
    }
    const first = (await page(user)).json() as Page;
    expect(first.items).toHaveLength(60);
    expect(first.items[0]!.description).toBe("bulk 60");
    const rest = (await page(user, `?cursor=${first.next_cursor}`)).json() as Page;
    expect(rest.items.map((i) => i.description)).toEqual(["bulk 0"]);
    expect(rest.next_cursor).toBeNull();
    expect(((await page(user, "?limit=100")).json() as Page).items).toHaveLength(61);
    for (const limit of ["0", "101", "abc", "2.5"]) {
      const res = await page(user, `?limit=${limit}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/limit/);
    }
  });

  it("answers an empty gallery with no items and no cursor", async () => {
    const user = await createUser(t);
    expect((await page(user)).json()).toEqual({ success: true, items: [], next_cursor: null });
  });

  it("refuses a cursor it did not make", async () => {
    const user = await createUser(t);
    const forged = [
      "garbage",
      Buffer.from("yesterday|not-a-uuid").toString("base64url"),
      Buffer.from("2026-01-01T00:00:00.000Z").toString("base64url"),
      Buffer.from("2026-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000|x").toString("base64url"),
    ];
    for (const cursor of forged) {
      const res = await page(user, `?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/reload the gallery/);
    }
  });

  it("needs a session", async () => {
    expect((await page(undefined)).statusCode).toBe(401);
  });
});

describe("gallery cursors", () => {
  it("round-trip the position of the last item", () => {
    const item = { created_at: "2026-03-04T05:06:07.089Z", id: "3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e" };
    const cursor = encodeCursor(item);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ createdAt: new Date(item.created_at), id: item.id });
  });
});
