// The sweep of orphaned media objects (issue #39, decision 0123): an object an account owns that no row names
// any more (a process killed between storing a file and writing its row, a failure whose clean-up failed) is
// removed once it is a day old, through the metered store so the account's use falls.
//
// Media is sacred, so the sweep is safe by construction:
// - It only considers objects whose key has a KIND listed below (the path each put site writes under
//   "u/<userId>/"); a key of any other shape is never swept. orphan-sweep.test.ts finds every key template
//   and every store put in the code and fails until a new one is listed here, as swept or as never swept.
// - An object is removed only when no column that can name a stored key names it: every module that keeps a
//   key column (jobs/stored-key-referrers.ts) is asked, over its own tables, for every candidate whatever its
//   kind (a kind's `namedBy` says where its keys are expected, for the reader). No JSON column holds a storage key (cards' extensions, speech parts and a
//   message's shaped_by hold none; a restore's recorded keys are a text[] column, asked like the others).
// - Only objects older than a day by media_objects.created_at (the time their bytes were counted) are
//   considered: anything being written now has its row long before.
// - A key under "u/<userId>/" is named only by that user's rows (every writer builds the key from the row's
//   own user), so the columns are asked within the candidates' owners, which their user indexes serve.
// - Each run looks at ORPHAN_SWEEP_BATCH objects from a cursor on (created_at, key) and starts again from the
//   oldest when it reaches the end, so a run is bounded however large the library is.
import { and, asc, eq, gt, lt, or } from "drizzle-orm";
import type { AppContext } from "../context";
import { mediaItems, mediaObjects } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";
import { startPeriodic } from "../platform/periodic";

/** How old an unnamed object must be before it is removed. */
export const ORPHAN_MIN_AGE_MS = 24 * 60 * 60 * 1000;
/** How many objects one run looks at (and so removes at most). */
export const ORPHAN_SWEEP_BATCH = 200;
/** How often a worker process sweeps (as the restore sweep does). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/**
 * Every kind of key written under "u/<userId>/", by the path after it: who writes it and which columns name
 * it. `sweep: false` lists a kind that must never be swept (none today; a kind whose references the columns
 * cannot see goes there).
 */
export const KEY_KINDS = [
  {
    kind: "gallery",
    // A gallery file ("<id>.png", "<id>.mp4"), its thumbnail ("<id>.thumb.webp") and a film's captions
    // ("<id>.vtt", beside its video): media/service.ts, restored items (media/backup-items.ts), film-job.ts.
    pattern: new RegExp(`^${UUID}(\\.thumb)?\\.[a-z0-9]+$`, "i"),
    namedBy:
      "media_items.storage_key/thumbnail_key, chat_messages.image_key/video_key/reference_keys, studio_messages.input_keys, stories.pinned_thumbnail_key, story_films.captions_key",
    sweep: true,
  },
  {
    kind: "portraits",
    // A Story Card's uploaded portrait (story-cards/cards.ts) or a restored one (media/backup-items.ts).
    pattern: new RegExp(`^portraits/${UUID}\\.[a-z0-9]+$`, "i"),
    namedBy: "story_cards.portrait_key",
    sweep: true,
  },
  {
    kind: "inputs",
    // A turn's or a Studio request's uploaded input image (media/inputs.ts).
    pattern: new RegExp(`^inputs/${UUID}\\.[a-z0-9]+$`, "i"),
    namedBy: "chat_messages.reference_keys, studio_messages.input_keys",
    sweep: true,
  },
  {
    kind: "references",
    // A restored turn's reference image (media/backup-items.ts).
    pattern: new RegExp(`^references/${UUID}\\.[a-z0-9]+$`, "i"),
    namedBy: "chat_messages.reference_keys",
    sweep: true,
  },
  {
    kind: "speech",
    // A narration's audio (voice/narration-job.ts).
    pattern: new RegExp(`^speech/${UUID}\\.wav$`, "i"),
    namedBy: "message_speech.audio_key",
    sweep: true,
  },
  {
    kind: "exports",
    // A finished export's file (exports/export-job.ts).
    pattern: new RegExp(`^exports/${UUID}\\.[a-z0-9]+$`, "i"),
    namedBy: "story_exports.storage_key",
    sweep: true,
  },
] as const;

/** The kind of an account's key, or undefined for a key of no listed kind (never swept) or no account's. */
export function kindOfKey(key: string): (typeof KEY_KINDS)[number] | undefined {
  const match = new RegExp(`^u/${UUID}/(.+)$`, "i").exec(key);
  if (!match) return undefined;
  return KEY_KINDS.find((kind) => kind.pattern.test(match[1]!));
}

/** May the sweep remove this key once no column names it? */
export function isSweepableKey(key: string): boolean {
  return kindOfKey(key)?.sweep === true;
}

/** The stored keys a gallery item still names: its file and its thumbnail. */
export const storageKeysNamedByGallery: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [
      { table: mediaItems, user: mediaItems.userId, column: mediaItems.storageKey },
      { table: mediaItems, user: mediaItems.userId, column: mediaItems.thumbnailKey },
    ],
    owners,
    keys,
  );

type SweepContext = Pick<AppContext, "db" | "storage" | "clock">;

/**
 * Every module that can name a stored key, each asked over its own tables (jobs/stored-key-referrers.ts lists
 * them; the sweep is handed the list so that media imports no other module).
 */
export type KeyReferrers = Record<string, StoredKeyReferrer>;

/** The keys among `keys` (owned by `owners`) that some module's rows name. */
async function namedKeys(
  ctx: SweepContext,
  referrers: KeyReferrers,
  owners: string[],
  keys: string[],
): Promise<Set<string>> {
  const named = new Set<string>();
  for (const referrer of Object.values(referrers)) {
    for (const key of await referrer(ctx.db, owners, keys)) named.add(key);
  }
  return named;
}

export type OrphanCursor = { createdAt: Date; key: string } | null;

/**
 * One bounded run from `cursor`: looks at up to `batch` objects older than a day, removes those of a swept
 * kind that no column names, and returns what it removed and where the next run goes on (null: from the start).
 */
export async function sweepOrphanedMedia(
  ctx: SweepContext,
  referrers: KeyReferrers,
  cursor: OrphanCursor = null,
  batch = ORPHAN_SWEEP_BATCH,
): Promise<{ removed: string[]; looked: number; next: OrphanCursor }> {
  const before = new Date(ctx.clock.now().getTime() - ORPHAN_MIN_AGE_MS);
  const after = cursor
    ? or(
        gt(mediaObjects.createdAt, cursor.createdAt),
        and(eq(mediaObjects.createdAt, cursor.createdAt), gt(mediaObjects.key, cursor.key)),
      )
    : undefined;
  const rows = await ctx.db
    .select({ key: mediaObjects.key, userId: mediaObjects.userId, createdAt: mediaObjects.createdAt })
    .from(mediaObjects)
    .where(and(lt(mediaObjects.createdAt, before), after))
    .orderBy(asc(mediaObjects.createdAt), asc(mediaObjects.key))
    .limit(batch);
  const last = rows.at(-1);
  const next = rows.length < batch || !last ? null : { createdAt: last.createdAt, key: last.key };
  const candidates = rows.filter((row) => isSweepableKey(row.key));
  if (candidates.length === 0) return { removed: [], looked: rows.length, next };
  const named = await namedKeys(
    ctx,
    referrers,
    [...new Set(candidates.map((row) => row.userId))],
    candidates.map((row) => row.key),
  );
  const removed: string[] = [];
  for (const { key } of candidates) {
    if (named.has(key)) continue;
    // The metered store removes the object and its row, so the owner's use falls by its size.
    await ctx.storage.delete(key);
    removed.push(key);
  }
  return { removed, looked: rows.length, next };
}

/** Sweeps now and every 10 minutes in a worker process, one bounded batch a time; returns the stop. */
export function startOrphanedMediaSweep(
  ctx: SweepContext & Pick<AppContext, "log">,
  referrers: KeyReferrers,
): () => Promise<void> {
  let cursor: OrphanCursor = null;
  return startPeriodic({
    run: async () => {
      const { removed, next } = await sweepOrphanedMedia(ctx, referrers, cursor);
      cursor = next;
      if (removed.length > 0) ctx.log.warn({ removed: removed.length }, "swept orphaned media objects");
    },
    everyMs: SWEEP_EVERY_MS,
    log: ctx.log,
    failure: "orphaned media could not be swept",
  });
}
