// The Gallery organised (issue 45 item 5, decision 0141): deleting one and many under /api/media (the files go,
// the storage used falls), boards holding a picture in several, favourites, the filters with cursor paging,
// an item's details, and a selection as one zip holding the very originals. Another player's items and
// boards are 404s that change nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { sampleMp4, samplePng } from "../../test/fakes/media";
import { readZip } from "../../test/zip";
import { type MediaOrigin, saveImage, saveVideo } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Item = { id: string; type: string; description: string; favourite?: boolean; boards?: string[] };
type Page = { items: Item[]; next_cursor: string | null };
type Board = { id: string; name: string; count: number; cover_url: string | null };

const call = (user: TestUser, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

const usage = async (user: TestUser) =>
  ((await call(user, "GET", "/api/media/usage")).json() as { usedBytes: number }).usedBytes;

const stored = (key: string) =>
  t.storage.size(key).then(
    () => true,
    () => false,
  );

const origin = (user: TestUser, description: string, story?: { id: string; title: string }): MediaOrigin => ({
  userId: user.userId,
  source: story ? "story" : "studio",
  storyId: story?.id ?? null,
  storyTitle: story?.title ?? null,
  messageId: null,
  description,
});

async function picture(user: TestUser, description: string, story?: { id: string; title: string }) {
  t.clock.advance(1_000);
  return saveImage(t.ctx, t.database.db, origin(user, description, story), await samplePng(64, 48));
}

/** Every item of a filtered gallery, paging by cursor two at a time. */
async function allPages(user: TestUser, query: string): Promise<Item[]> {
  const seen: Item[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/gallery?limit=2&${query}${cursor ? `&cursor=${cursor}` : ""}`;
    const res = await call(user, "GET", url);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page;
    seen.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

describe("deleting under /api/media", () => {
  it("deletes one and then many: the files are gone and the storage used falls to nothing", async () => {
    const user = await createUser(t);
    const items = [await picture(user, "one"), await picture(user, "two"), await picture(user, "three")];
    const before = await usage(user);
    const first = items[0]!;
    const firstBytes = first.bytes + (await t.storage.size(first.thumbnailKey!));

    const one = await call(user, "DELETE", `/api/media/${first.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().usage.usedBytes).toBe(before - firstBytes);
    expect(await usage(user)).toBe(before - firstBytes);
    expect(await stored(first.storageKey)).toBe(false);
    expect(await stored(first.thumbnailKey!)).toBe(false);

    const rest = items.slice(1).map((item) => item.id);
    const many = await call(user, "POST", "/api/media/delete", { ids: rest });
    expect(many.statusCode, many.body).toBe(200);
    expect(many.json().deleted.sort()).toEqual([...rest].sort());
    expect(await usage(user)).toBe(0);
    for (const item of items.slice(1)) expect(await stored(item.storageKey)).toBe(false);
    expect((await call(user, "GET", "/api/gallery")).json().items).toEqual([]);
  });

  it("refuses another player's items with 404 and deletes nothing of either", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const theirs = await picture(owner, "not yours");
    const mine = await picture(other, "mine");
    const ownerUse = await usage(owner);

    expect((await call(other, "DELETE", `/api/media/${theirs.id}`)).statusCode).toBe(404);
    const mixed = await call(other, "POST", "/api/media/delete", { ids: [mine.id, theirs.id] });
    expect(mixed.statusCode).toBe(404);
    expect(await stored(theirs.storageKey)).toBe(true);
    expect(await stored(mine.storageKey)).toBe(true);
    expect(await usage(owner)).toBe(ownerUse);
    // Nor can they favourite it, put it on a board, read its details or zip it.
    expect((await call(other, "PUT", `/api/media/${theirs.id}`, { favourite: true })).statusCode).toBe(404);
    expect((await call(other, "GET", `/api/media/${theirs.id}/details`)).statusCode).toBe(404);
    expect((await call(other, "POST", "/api/media/zip", { ids: [theirs.id] })).statusCode).toBe(404);
    const board = (await call(other, "POST", "/api/boards", { name: "Loot" })).json().board as Board;
    const steal = await call(other, "PUT", `/api/boards/${board.id}`, { add: [mine.id, theirs.id] });
    expect(steal.statusCode).toBe(404);
    expect((await call(other, "GET", `/api/gallery?board=${board.id}`)).json().items).toEqual([]);
    expect((await call(owner, "GET", `/api/media/${theirs.id}/details`)).json().item.favourite).toBe(false);
  });
});

describe("a picture a story card shows", () => {
  it("is not deleted silently: 409 media_in_use naming the story, and deleted only once confirmed", async () => {
    const user = await createUser(t);
    const story = (
      await call(user, "POST", "/api/stories", { title: "The Ember Crown", context: "" })
    ).json();
    const storyId = (story.story?.id ?? story.id) as string;
    const image = await picture(user, "Mara's portrait");
    const made = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Mara",
      triggers: ["Mara"],
      portrait: { gallery_item_id: image.id },
    });
    expect(made.statusCode, made.body).toBe(200);

    const refused = await call(user, "DELETE", `/api/media/${image.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "media_in_use",
      detail: 'This picture is shown in your story "The Ember Crown". Delete it anyway?',
      used_in: [{ story_id: storyId, story_title: "The Ember Crown", shared: false }],
    });
    expect(await stored(image.storageKey)).toBe(true);

    const confirmed = await call(user, "DELETE", `/api/media/${image.id}?confirm=1`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await stored(image.storageKey)).toBe(false);
    const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json();
    expect((cards.cards ?? cards)[0]).toMatchObject({ name: "Mara", portrait: null });
  });
});

describe("boards and favourites", () => {
  it("keeps a picture on several boards, filters by board and favourite, and a deleted board keeps its items", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const [a, b, c] = [
      await picture(user, "harbour"),
      await picture(user, "forest"),
      await picture(user, "dragon"),
    ];

    const make = async (name: string) => {
      const res = await call(user, "POST", "/api/boards", { name });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().board as Board;
    };
    const places = await make("Places");
    const favs = await make("Mood");
    const clash = await call(user, "POST", "/api/boards", { name: "places" });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail).toBe('You already have a board called "Places".');
    expect((await call(user, "POST", "/api/boards", { name: "  " })).statusCode).toBe(400);

    // Two items on Places by the board; one of them on Mood too, by the item.
    const put = await call(user, "PUT", `/api/boards/${places.id}`, { add: [a.id, b.id] });
    expect(put.json().board).toMatchObject({ name: "Places", count: 2 });
    const set = await call(user, "PUT", `/api/media/${a.id}`, {
      boards: [places.id, favs.id],
      favourite: true,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().item).toMatchObject({ id: a.id, favourite: true });
    expect([...set.json().item.boards].sort()).toEqual([places.id, favs.id].sort());

    expect((await allPages(user, `board=${places.id}`)).map((i) => i.description)).toEqual([
      "forest",
      "harbour",
    ]);
    expect((await allPages(user, `board=${favs.id}`)).map((i) => i.description)).toEqual(["harbour"]);
    expect((await allPages(user, "favourite=1")).map((i) => i.description)).toEqual(["harbour"]);
    expect((await allPages(user, "")).find((i) => i.id === c.id)?.boards).toEqual([]);

    const boards = (await call(user, "GET", "/api/boards")).json().boards as Board[];
    expect(boards.map((board) => [board.name, board.count])).toEqual([
      ["Mood", 1],
      ["Places", 2],
    ]);
    expect(boards[0]!.cover_url).toContain(".thumb.webp");

    // Off one board, still on the other; unfavourited.
    await call(user, "PUT", `/api/boards/${places.id}`, { remove: [a.id], name: "Scenery" });
    await call(user, "PUT", `/api/media/${a.id}`, { favourite: false });
    expect((await allPages(user, `board=${places.id}`)).map((i) => i.description)).toEqual(["forest"]);
    expect((await allPages(user, `board=${favs.id}`)).map((i) => i.description)).toEqual(["harbour"]);
    expect(await allPages(user, "favourite=1")).toEqual([]);

    // Another player's board: neither listed, filtered on, changed nor deleted.
    expect((await call(other, "GET", "/api/boards")).json().boards).toEqual([]);
    expect((await call(other, "GET", `/api/gallery?board=${places.id}`)).statusCode).toBe(404);
    expect((await call(other, "PUT", `/api/boards/${places.id}`, { name: "Mine" })).statusCode).toBe(404);
    expect((await call(other, "DELETE", `/api/boards/${places.id}`)).statusCode).toBe(404);

    expect((await call(user, "DELETE", `/api/boards/${places.id}`)).statusCode).toBe(204);
    expect((await allPages(user, "")).map((i) => i.description)).toEqual(["dragon", "forest", "harbour"]);
    // Deleting an item takes it off its boards.
    await call(user, "DELETE", `/api/media/${a.id}`);
    expect((await call(user, "GET", "/api/boards")).json().boards).toMatchObject([
      { name: "Mood", count: 0 },
    ]);
  });
});

describe("GET /api/gallery filters", () => {
  it("filters by kind, story, day and words together, a page at a time", async () => {
    const user = await createUser(t);
    const story = { id: crypto.randomUUID(), title: "The Lost Map" };
    const day1 = t.clock.now();
    await picture(user, "map room", story);
    await picture(user, "map of the studio");
    const scene = await picture(user, "map harbour", story);
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    await picture(user, "later map", story);
    t.clock.advance(1_000);
    await saveVideo(t.ctx, t.database.db, origin(user, "map clip", story), sampleMp4(), scene.storageKey);
    const day = (date: Date) => date.toISOString().slice(0, 10);

    expect((await allPages(user, `story=${story.id}`)).map((i) => i.description)).toEqual([
      "map clip",
      "later map",
      "map harbour",
      "map room",
    ]);
    expect((await allPages(user, "kind=video")).map((i) => i.description)).toEqual(["map clip"]);
    expect(
      (await allPages(user, `kind=image&story=${story.id}&to=${day(day1)}`)).map((i) => i.description),
    ).toEqual(["map harbour", "map room"]);
    expect((await allPages(user, `from=${day(t.clock.now())}&q=map`)).map((i) => i.description)).toEqual([
      "map clip",
      "later map",
    ]);
    const bad = await call(user, "GET", "/api/gallery?kind=audio&from=yesterday");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/kind must be image or video|from must be a date/);
  });
});

describe("details and zips", () => {
  it("shows a picture's prompt, size and the clip made from it, and zips the very originals", async () => {
    const user = await createUser(t);
    const image = await picture(user, "a lighthouse at dusk");
    const clip = await saveVideo(
      t.ctx,
      t.database.db,
      origin(user, "the lighthouse turns"),
      sampleMp4(),
      image.storageKey,
    );

    const details = (await call(user, "GET", `/api/media/${image.id}/details`)).json();
    expect(details).toMatchObject({
      prompt: "a lighthouse at dusk",
      width: 64,
      height: 48,
      bytes: image.bytes,
      mime_type: "image/png",
      seed: null,
      parent: null,
    });
    expect(details.children.map((child: Item) => child.id)).toEqual([clip.id]);
    // The clip's tile in the panel is the picture's small thumbnail, never its original.
    expect(details.children[0].thumbnail_url).toContain(".thumb.webp");
    const clipDetails = (await call(user, "GET", `/api/media/${clip.id}/details`)).json();
    expect(clipDetails.references.map((ref: Item) => ref.id)).toEqual([image.id]);

    const zip = await call(user, "POST", "/api/media/zip", { ids: [clip.id, image.id] });
    expect(zip.statusCode, zip.body).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");
    expect(zip.headers["content-disposition"]).toMatch(/attachment; filename="storyverse-gallery-/);
    const entries = await readZip(zip.rawPayload);
    expect(entries.map((entry) => entry.name)).toEqual([
      expect.stringMatching(
        new RegExp(`^storyverse-video-\\d{4}-\\d\\d-\\d\\d-${clip.id.slice(0, 8)}\\.mp4$`),
      ),
      expect.stringMatching(
        new RegExp(`^storyverse-image-\\d{4}-\\d\\d-\\d\\d-${image.id.slice(0, 8)}\\.png$`),
      ),
    ]);
    expect(entries[0]!.data.equals(await t.storage.read(clip.storageKey))).toBe(true);
    expect(entries[1]!.data.equals(await t.storage.read(image.storageKey))).toBe(true);
    expect(entries.every((entry) => entry.compressionMethod === 0)).toBe(true);

    const empty = await call(user, "POST", "/api/media/zip", { ids: [] });
    expect(empty.statusCode).toBe(400);
  });

  it("makes at most 10 zips a minute per player", async () => {
    const user = await createUser(t);
    const image = await picture(user, "a small one");
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await call(user, "POST", "/api/media/zip", { ids: [image.id] })).statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
  });
});
