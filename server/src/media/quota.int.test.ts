// Storage quotas and gallery deletion (issue 39 T4-1, decision 0122), against the real app and database with
// the offline providers: a request that would pass the account's quota is a 413 before anything is kept or
// charged, deleting items (one or many) removes their files and lowers the use, another user's ids are a 404
// with nothing deleted, and an item a story (or its share link) still shows is deleted only once confirmed.
// The red team's scale (2 GB quotas, 1 GB archives) is shrunk to a 1 MB quota and a filler object just under it.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { galleryImage, waitForMedia } from "../../test/media";
import { loadConfig } from "../config";
import { setStorageQuota, storageUsage } from "./quota";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.cleanup();
});

const MB = 1024 * 1024;
const call = (user: TestUser, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
const usage = async (user: TestUser) =>
  (await call(user, "GET", "/api/media/usage")).json() as { usedBytes: number; limitBytes: number | null };
const pngDataUrl = async (color = "#aa3355") =>
  `data:image/png;base64,${(await samplePng(40, 30, color)).toString("base64")}`;
const galleryIds = async (user: TestUser) =>
  ((await call(user, "GET", "/api/gallery")).json().items as { id: string }[]).map((item) => item.id);
const exists = (key: string) =>
  t.storage.size(key).then(
    () => true,
    () => false,
  );

/** Everything the user keeps in media storage, by key, as the quota counts it. */
async function storedKeys(user: TestUser): Promise<string[]> {
  const { rows } = await t.database.executeSql(
    "select key from media_objects where user_id = $1 order by key",
    [user.userId],
  );
  return rows.map((row) => String(row.key));
}

/** A user whose own quota is 1 MB, filled but for `room` bytes by one stored object. */
async function nearlyFullUser(room: number): Promise<TestUser> {
  const user = await createUser(t);
  await setStorageQuota(t.ctx.db, user.userId, 1);
  await t.storage.put(`u/${user.userId}/filler.bin`, Buffer.alloc(MB - room), "application/octet-stream");
  expect(await usage(user)).toEqual({ usedBytes: MB - room, limitBytes: MB });
  return user;
}

describe("storage quota", () => {
  it("shows a new account its use and the install's quota (MEDIA_QUOTA_MB, 2048 by default)", async () => {
    const user = await createUser(t);
    expect(await usage(user)).toEqual({ usedBytes: 0, limitBytes: 2048 * MB });
    const image = await galleryImage(t, user.userId, "#123456");
    const thumbnail = await t.storage.size(image.thumbnailKey!);
    expect(await usage(user)).toEqual({ usedBytes: image.bytes + thumbnail, limitBytes: 2048 * MB });
    expect(await storedKeys(user)).toEqual([image.storageKey, image.thumbnailKey].sort());
  });

  it("refuses a Studio batch whose upload would pass the quota with 413 before the charge, storing nothing", async () => {
    const user = await nearlyFullUser(50);
    const before = await moneyOf(t).balance(user);
    const res = await call(user, "POST", "/api/studio/generate-image", {
      prompt: "a fox",
      batch_size: 1,
      input_images: [await pngDataUrl()],
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: "storage_full", used_bytes: MB - 50, limit_bytes: MB });
    expect(res.json().detail).toMatch(
      /media storage has 50 B left .*Delete items from the Gallery to make room\./,
    );
    expect(await moneyOf(t).balance(user)).toBe(before);
    expect(await storedKeys(user)).toEqual([`u/${user.userId}/filler.bin`]);
    expect(await galleryIds(user)).toEqual([]);
  });

  it("refuses a Studio batch when the storage is full, and says how full", async () => {
    const user = await nearlyFullUser(0);
    const before = await moneyOf(t).balance(user);
    const res = await call(user, "POST", "/api/studio/generate-image", { prompt: "a fox", batch_size: 2 });
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toBe(
      "Your media storage is full (1.0 MB of 1.0 MB). Delete items from the Gallery to make room.",
    );
    expect(await moneyOf(t).balance(user)).toBe(before);
    expect(await galleryIds(user)).toEqual([]);
  });

  it("refunds a Studio batch whose pictures the storage cannot keep, and keeps none of them", async () => {
    // Room for the pre-check, not for a picture: the store's own check at the put refuses it.
    const user = await nearlyFullUser(100);
    const before = await moneyOf(t).balance(user);
    const res = await call(user, "POST", "/api/studio/generate-image", { prompt: "a fox", batch_size: 1 });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe("storage_full");
    expect(await moneyOf(t).balance(user)).toBe(before);
    expect(await galleryIds(user)).toEqual([]);
    expect(await storedKeys(user)).toEqual([`u/${user.userId}/filler.bin`]);
  });

  it("refuses a picture turn of the main chat and of a story before the charge when the storage is full", async () => {
    const user = await nearlyFullUser(0);
    const story = (await call(user, "POST", "/api/stories", { title: "Fox", context: "" })).json().story.id;
    const before = await moneyOf(t).balance(user);
    for (const url of ["/api/chat", `/api/stories/${story}/chat`]) {
      const res = await call(user, "POST", url, { prompt: "Go on", chat_mode: "image" });
      expect(res.statusCode, url).toBe(413);
      expect(res.json().code).toBe("storage_full");
    }
    expect(await moneyOf(t).balance(user)).toBe(before);
    // A turn without a picture keeps nothing in storage and goes on.
    const text = await call(user, "POST", `/api/stories/${story}/chat`, {
      prompt: "Go on",
      chat_mode: "chat",
    });
    expect(text.statusCode).toBe(200);
  });

  it("refuses a story turn's upload that would pass the quota before the charge", async () => {
    const user = await nearlyFullUser(50);
    const story = (await call(user, "POST", "/api/stories", { title: "Fox", context: "" })).json().story.id;
    const before = await moneyOf(t).balance(user);
    const res = await call(user, "POST", `/api/stories/${story}/chat`, {
      prompt: "Go on",
      chat_mode: "image",
      inputImages: [await pngDataUrl()],
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe("storage_full");
    expect(await moneyOf(t).balance(user)).toBe(before);
    expect(await storedKeys(user)).toEqual([`u/${user.userId}/filler.bin`]);
    const messages = (await call(user, "GET", `/api/stories/${story}/messages`)).json().messages;
    expect(messages).toEqual([]);
  });

  it("refuses an uploaded card portrait that would pass the quota, keeping no card and no file", async () => {
    const user = await nearlyFullUser(50);
    const story = (await call(user, "POST", "/api/stories", { title: "Fox", context: "" })).json().story.id;
    const res = await call(user, "POST", `/api/stories/${story}/cards`, {
      name: "Mara",
      kind: "character",
      triggers: ["Mara"],
      description: "A cartographer.",
      portrait: { data: await pngDataUrl() },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe("storage_full");
    expect((await call(user, "GET", `/api/stories/${story}/cards`)).json().cards).toEqual([]);
    expect(await storedKeys(user)).toEqual([`u/${user.userId}/filler.bin`]);
  });

  it("lets only what fits through when several stores race for the last room", async () => {
    const user = await nearlyFullUser(1000);
    const keys = Array.from({ length: 6 }, (_, n) => `u/${user.userId}/race-${n}.bin`);
    const outcomes = await Promise.allSettled(
      keys.map((key) => t.storage.put(key, Buffer.alloc(600), "application/octet-stream")),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ code: "storage_full" });
    }
    expect(await usage(user)).toEqual({ usedBytes: MB - 400, limitBytes: MB });
    const stored = await Promise.all(keys.map(exists));
    expect(stored.filter(Boolean)).toHaveLength(1);
  });

  it("cuts a stored stream off at the quota and keeps nothing of it", async () => {
    const user = await nearlyFullUser(1000);
    const key = `u/${user.userId}/exports/too-big.zip`;
    const chunks = Array.from({ length: 8 }, () => Buffer.alloc(500, 1));
    await expect(t.storage.putStream(key, Readable.from(chunks), "application/zip")).rejects.toMatchObject({
      code: "storage_full",
    });
    expect(await exists(key)).toBe(false);
    expect((await usage(user)).usedBytes).toBe(MB - 1000);
    // What fits is kept and counted.
    await t.storage.putStream(key, Readable.from(chunks.slice(0, 1)), "application/zip");
    expect((await usage(user)).usedBytes).toBe(MB - 500);
  });

  it("follows an account's own quota over the install's, and 0 is unlimited", async () => {
    const user = await nearlyFullUser(0);
    const key = `u/${user.userId}/more.bin`;
    await expect(t.storage.put(key, Buffer.alloc(10), "application/octet-stream")).rejects.toMatchObject({
      code: "storage_full",
    });
    await setStorageQuota(t.ctx.db, user.userId, 0);
    expect(await usage(user)).toEqual({ usedBytes: MB, limitBytes: null });
    await t.storage.put(key, Buffer.alloc(2 * MB), "application/octet-stream");
    expect(await usage(user)).toEqual({ usedBytes: 3 * MB, limitBytes: null });
    await setStorageQuota(t.ctx.db, user.userId, null);
    expect(await usage(user)).toEqual({ usedBytes: 3 * MB, limitBytes: 2048 * MB });
    // MEDIA_QUOTA_MB=0: every account without its own quota is unlimited.
    const unlimited = loadConfig({ DATA_DIR: "/tmp/unused", MEDIA_QUOTA_MB: "0" });
    expect(unlimited.mediaQuotaMb).toBe(0);
    expect(await storageUsage({ db: t.ctx.db, config: unlimited }, user.userId)).toEqual({
      usedBytes: 3 * MB,
      limitBytes: null,
    });
    expect(() => loadConfig({ DATA_DIR: "/tmp/unused", MEDIA_QUOTA_MB: "-1" })).toThrow(/MEDIA_QUOTA_MB/);
  });
});

describe("deleting gallery items", () => {
  it("deletes one item and then many, removing their files and lowering the use", async () => {
    const user = await createUser(t);
    const items = [
      await galleryImage(t, user.userId, "#aa0000"),
      await galleryImage(t, user.userId, "#00aa00"),
      await galleryImage(t, user.userId, "#0000aa"),
    ];
    const full = (await usage(user)).usedBytes;
    const [first, ...rest] = items;
    const firstBytes = first!.bytes + (await t.storage.size(first!.thumbnailKey!));

    const one = await call(user, "DELETE", `/api/gallery/${first!.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      deleted: [first!.id],
      usage: { usedBytes: full - firstBytes, limitBytes: 2048 * MB },
    });
    expect(await exists(first!.storageKey)).toBe(false);
    expect(await exists(first!.thumbnailKey!)).toBe(false);
    expect((await galleryIds(user)).sort()).toEqual(rest.map((item) => item.id).sort());

    const many = await call(user, "POST", "/api/gallery/delete", { ids: rest.map((item) => item.id) });
    expect(many.statusCode).toBe(200);
    expect(many.json().usage).toEqual({ usedBytes: 0, limitBytes: 2048 * MB });
    expect(await galleryIds(user)).toEqual([]);
    for (const item of rest) expect(await exists(item.storageKey)).toBe(false);
    expect(await storedKeys(user)).toEqual([]);
  });

  it("answers 404 for another user's items and deletes nothing, not even the caller's own", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const theirs = await galleryImage(t, owner.userId, "#abcdef");
    const mine = await galleryImage(t, other.userId, "#fedcba");

    const single = await call(other, "DELETE", `/api/gallery/${theirs.id}`);
    expect(single.statusCode).toBe(404);
    expect(single.json().detail).toBe("This item is not in your Gallery.");
    const mixed = await call(other, "POST", "/api/gallery/delete", {
      ids: [mine.id, theirs.id],
      confirm: true,
    });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().detail).toBe("One of these items is not in your Gallery. Nothing was deleted.");

    expect(await galleryIds(owner)).toEqual([theirs.id]);
    expect(await galleryIds(other)).toEqual([mine.id]);
    expect(await exists(theirs.storageKey)).toBe(true);
    expect(await exists(mine.storageKey)).toBe(true);
  });

  it("refuses bad requests with 400: no ids, more than 100, not ids", async () => {
    const user = await createUser(t);
    for (const payload of [
      { ids: [] },
      { ids: Array.from({ length: 101 }, () => crypto.randomUUID()) },
      { ids: ["../etc/passwd"] },
    ]) {
      const res = await call(user, "POST", "/api/gallery/delete", payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBeTruthy();
    }
    expect((await call(user, "DELETE", "/api/gallery/not-an-id")).statusCode).toBe(400);
  });

  it("asks (409) before deleting a picture a story and its share link show, then deletes it when confirmed", async () => {
    const user = await createUser(t);
    const story = (await call(user, "POST", "/api/stories", { title: "The Ember Crown", context: "" })).json()
      .story.id as string;
    const turn = (
      await call(user, "POST", `/api/stories/${story}/chat`, {
        prompt: "I climb the tower",
        chat_mode: "image",
      })
    ).json();
    const done = await waitForMedia(t, user.token, `/api/stories/${story}/media-status/${turn.message_id}`);
    expect(done.media_generation_completed).toBe(true);
    const [id] = await galleryIds(user);

    const asked = await call(user, "DELETE", `/api/gallery/${id}`);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({
      code: "media_in_use",
      detail: 'This picture is shown in your story "The Ember Crown". Delete it anyway?',
      used_in: [{ story_id: story, story_title: "The Ember Crown", shared: false }],
    });
    expect(await galleryIds(user)).toEqual([id]);

    expect((await call(user, "POST", `/api/stories/${story}/share`, {})).statusCode).toBe(200);
    const askedShared = await call(user, "POST", "/api/gallery/delete", { ids: [id] });
    expect(askedShared.statusCode).toBe(409);
    expect(askedShared.json().detail).toBe(
      'This picture is shown in your story "The Ember Crown" and on its share link. Delete it anyway?',
    );
    const usedBefore = (await usage(user)).usedBytes;

    const confirmed = await call(user, "DELETE", `/api/gallery/${id}?confirm=1`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().usage.usedBytes).toBeLessThan(usedBefore);
    expect(await galleryIds(user)).toEqual([]);
    // The story still reads; its message shows that the picture was deleted (no link to a missing file).
    const messages = await call(user, "GET", `/api/stories/${story}/messages`);
    expect(messages.statusCode).toBe(200);
    const narrator = messages.json().messages[1];
    expect(narrator).toMatchObject({ image_url: null, media_status: "completed" });
    const stories = (await call(user, "GET", "/api/stories")).json().stories;
    expect(stories[0].thumbnail).toBeNull();
  });
});
