// The orphaned media sweep (issue #39 item 2, decision 0123) on a real database and store: an object a day old
// that no row names is removed and its owner's use falls; an object any column names survives, whatever its
// kind and age; a young object and an object of a key shape the sweep does not know survive; a run is bounded.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser } from "../../test/factories";
import { storedKeyReferrers } from "../jobs/stored-key-referrers";
import { type OrphanCursor, sweepOrphanedMedia } from "./orphan-sweep";
import { storageUsage } from "./quota";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const sql = (text: string, params: unknown[] = []) => t.database.executeSql(text, params);
const exists = (key: string) =>
  t.storage.size(key).then(
    () => true,
    () => false,
  );
const counted = async (key: string) =>
  (await sql("select 1 from media_objects where key = $1", [key])).rows.length === 1;
const used = async (userId: string) => (await storageUsage(t.ctx, userId)).usedBytes;

/** Stores `bytes` under `key` through the metered store, counted `ageHours` ago. */
async function stored(key: string, bytes: number, ageHours: number): Promise<string> {
  await t.storage.put(key, Buffer.alloc(bytes, 7), "application/octet-stream");
  await sql("update media_objects set created_at = $2 where key = $1", [
    key,
    new Date(t.ctx.clock.now().getTime() - ageHours * 3600_000),
  ]);
  return key;
}

/** Sweeps from the start until the cursor comes back to it; what was removed. */
async function sweepAll(): Promise<string[]> {
  const removed: string[] = [];
  let cursor: OrphanCursor = null;
  do {
    const run = await sweepOrphanedMedia(t.ctx, storedKeyReferrers, cursor);
    removed.push(...run.removed);
    cursor = run.next;
  } while (cursor !== null);
  return removed;
}

describe("the orphaned media sweep", () => {
  it("removes only a day-old object of a known kind that no row names, and the owner's use falls", async () => {
    const { userId } = await createUser(t);
    const u = (rest: string) => `u/${userId}/${rest}`;
    const id = () => randomUUID();
    const OLD = 30;
    const now = new Date();
    const [story] = (
      await sql(
        "insert into stories (user_id, title, created_at, updated_at, last_activity) values ($1, 'S', $2, $2, $2) returning id",
        [userId, now],
      )
    ).rows as { id: string }[];
    const storyId = story!.id;
    const message = async (columns: Record<string, unknown>) => {
      const names = Object.keys(columns);
      const { rows } = await sql(
        `insert into chat_messages (user_id, story_id, role, content, created_at, updated_at${names.map((n) => `, ${n}`).join("")})
         values ($1, $2, 'assistant', 'Once.', $3, $3${names.map((_, i) => `, $${i + 4}`).join("")}) returning id`,
        [userId, storyId, now, ...Object.values(columns)],
      );
      return String(rows[0]!.id);
    };

    // Each kind of key, named by each column that can name it, a day and more old: all survive.
    const named: string[] = [];
    const galleryItem = await stored(u(`${id()}.png`), 100, OLD);
    const galleryThumb = await stored(u(`${id()}.thumb.webp`), 100, OLD);
    await sql(
      `insert into media_items (user_id, kind, storage_key, thumbnail_key, mime_type, bytes, source, created_at)
       values ($1, 'image', $2, $3, 'image/png', 100, 'story', $4)`,
      [userId, galleryItem, galleryThumb, now],
    );
    named.push(galleryItem, galleryThumb);
    const sceneImage = await stored(u(`${id()}.png`), 100, OLD);
    const sceneVideo = await stored(u(`${id()}.mp4`), 100, OLD);
    const referenced = [
      await stored(u(`${id()}.jpg`), 100, OLD),
      await stored(u(`inputs/${id()}.png`), 100, OLD),
      await stored(u(`references/${id()}.webp`), 100, OLD),
    ];
    const messageId = await message({
      image_key: sceneImage,
      video_key: sceneVideo,
      reference_keys: referenced,
    });
    named.push(sceneImage, sceneVideo, ...referenced);
    const studioInputs = [
      await stored(u(`inputs/${id()}.gif`), 100, OLD),
      await stored(u(`${id()}.webp`), 100, OLD),
    ];
    await sql(
      "insert into studio_messages (user_id, role, content, input_keys, created_at) values ($1, 'user', 'Paint', $2, $3)",
      [userId, studioInputs, now],
    );
    named.push(...studioInputs);
    const pinned = await stored(u(`${id()}.png`), 100, OLD);
    await sql("update stories set pinned_thumbnail_key = $2 where id = $1", [storyId, pinned]);
    const portrait = await stored(u(`portraits/${id()}.webp`), 100, OLD);
    await sql(
      `insert into story_cards (user_id, story_id, name, kind, triggers, portrait_key, created_at, updated_at)
       values ($1, $2, 'Ada', 'character', '{ada}', $3, $4, $4)`,
      [userId, storyId, portrait, now],
    );
    const speech = await stored(u(`speech/${id()}.wav`), 100, OLD);
    await sql(
      `insert into message_speech (user_id, story_id, message_id, content_key, status, parts, audio_key, created_at, updated_at)
       values ($1, $2, $3, 'k', 'completed', '[]', $4, $5, $5)`,
      [userId, storyId, messageId, speech, now],
    );
    const captions = await stored(u(`${id()}.vtt`), 100, OLD);
    await sql(
      `insert into story_films (user_id, story_id, status, captions_key, created_at, updated_at)
       values ($1, $2, 'completed', $3, $4, $4)`,
      [userId, storyId, captions, now],
    );
    const exported = await stored(u(`exports/${id()}.epub`), 100, OLD);
    await sql(
      `insert into story_exports (user_id, story_id, format, paper, status, storage_key, created_at, updated_at)
       values ($1, $2, 'epub', 'a4', 'completed', $3, $4, $4)`,
      [userId, storyId, exported, now],
    );
    const restoring = await stored(u(`references/${id()}.png`), 100, OLD);
    await sql(
      `insert into story_restores (user_id, status, upload_dir, upload_bytes, preview, stored_keys, created_at, updated_at)
       values ($1, 'running', '/nowhere', 1, '{}', $2, $3, $3)`,
      [userId, [restoring], now],
    );
    named.push(pinned, portrait, speech, captions, exported, restoring);

    // Unnamed and a day old, one of each kind (7 bytes each): removed.
    const orphans = [
      await stored(u(`${id()}.png`), 7, 25),
      await stored(u(`${id()}.thumb.webp`), 7, 25),
      await stored(u(`${id()}.vtt`), 7, 25),
      await stored(u(`portraits/${id()}.webp`), 7, 25),
      await stored(u(`inputs/${id()}.png`), 7, 25),
      await stored(u(`references/${id()}.jpg`), 7, 25),
      await stored(u(`speech/${id()}.wav`), 7, 25),
      await stored(u(`exports/${id()}.zip`), 7, 25),
    ];
    // Unnamed but younger than a day, or of a shape the sweep does not know: kept.
    const kept = [
      await stored(u(`${id()}.png`), 5, 23),
      await stored(u(`speech/${id()}.wav`), 5, 1),
      await stored(u("filler.bin"), 5, OLD),
      await stored(u(`elsewhere/${id()}.png`), 5, OLD),
    ];

    const before = await used(userId);
    const removed = await sweepAll();
    expect(removed.filter((key) => key.startsWith(u(""))).sort()).toEqual([...orphans].sort());
    for (const key of orphans) {
      expect(await exists(key), key).toBe(false);
      expect(await counted(key), key).toBe(false);
    }
    for (const key of [...named, ...kept]) {
      expect(await exists(key), key).toBe(true);
      expect(await counted(key), key).toBe(true);
    }
    expect(await used(userId)).toBe(before - 7 * orphans.length);
  });

  it("looks at a bounded batch each run and goes on from where it stopped", async () => {
    const { userId } = await createUser(t);
    // Older than anything else here, so they are the first the sweep looks at.
    const orphans: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      orphans.push(await stored(`u/${userId}/${randomUUID()}.png`, 10, 24 * 365 - i));
    }
    const first = await sweepOrphanedMedia(t.ctx, storedKeyReferrers, null, 2);
    expect(first.looked).toBe(2);
    expect(first.removed).toEqual(orphans.slice(0, 2));
    expect(await used(userId)).toBe(30);
    const second = await sweepOrphanedMedia(t.ctx, storedKeyReferrers, first.next, 2);
    expect(second.removed).toEqual(orphans.slice(2, 4));
    expect(await exists(orphans[4]!)).toBe(true);
    expect(await used(userId)).toBe(10);
  });
});
