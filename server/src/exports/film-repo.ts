// SQL for story films.
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { storyFilms } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";

export type FilmRow = typeof storyFilms.$inferSelect;

export async function insertFilm(q: Queryable, values: typeof storyFilms.$inferInsert): Promise<FilmRow> {
  const [row] = await q.insert(storyFilms).values(values).returning();
  return row!;
}

export async function latestFilm(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<FilmRow | undefined> {
  const [row] = await q
    .select()
    .from(storyFilms)
    .where(and(eq(storyFilms.userId, userId), eq(storyFilms.storyId, storyId)))
    .orderBy(desc(storyFilms.createdAt))
    .limit(1);
  return row;
}

export async function findFilm(q: Queryable, id: string): Promise<FilmRow | undefined> {
  const [row] = await q.select().from(storyFilms).where(eq(storyFilms.id, id));
  return row;
}

const active = inArray(storyFilms.status, ["queued", "running"]);

/**
 * A worker's progress report; it only touches a film still in progress, so a worker that was given up for dead
 * (and its film failed and refunded) cannot bring the film back to "running".
 */
export async function reportFilmProgress(
  q: Queryable,
  id: string,
  values: Partial<Pick<FilmRow, "status" | "progress" | "step">> & { updatedAt: Date },
): Promise<void> {
  await q
    .update(storyFilms)
    .set(values)
    .where(and(eq(storyFilms.id, id), active));
}

/** Completes a film still in progress; undefined when it already failed (its refund is paid). */
export async function completeFilmIfActive(
  q: Queryable,
  id: string,
  values: Pick<FilmRow, "mediaItemId" | "captionsKey" | "contentHash">,
  at: Date,
): Promise<FilmRow | undefined> {
  const [row] = await q
    .update(storyFilms)
    .set({ ...values, status: "completed", progress: 100, step: null, error: null, updatedAt: at })
    .where(and(eq(storyFilms.id, id), active))
    .returning();
  return row;
}

/** Fails a film still in progress; undefined when it was already settled (so nothing is refunded twice). */
export async function failFilmIfActive(
  q: Queryable,
  id: string,
  error: string,
  at: Date,
): Promise<FilmRow | undefined> {
  const [row] = await q
    .update(storyFilms)
    .set({ status: "failed", error, step: null, updatedAt: at })
    .where(and(eq(storyFilms.id, id), active))
    .returning();
  return row;
}

/**
 * Marks films of a story that stopped reporting (their worker died) as failed and returns them (to refund);
 * frees the story for a new one.
 */
export async function failStaleFilms(
  q: Queryable,
  storyId: string,
  staleBefore: Date,
  error: string,
  at: Date,
): Promise<FilmRow[]> {
  return q
    .update(storyFilms)
    .set({ status: "failed", error, step: null, updatedAt: at })
    .where(and(eq(storyFilms.storyId, storyId), active, lt(storyFilms.updatedAt, staleBefore)))
    .returning();
}

/** The captions files of the story's films (the rows go with the story; the files are removed after it). */
export async function storyFilmCaptionKeys(q: Queryable, storyId: string): Promise<string[]> {
  const rows = await q
    .select({ captionsKey: storyFilms.captionsKey })
    .from(storyFilms)
    .where(eq(storyFilms.storyId, storyId));
  return rows.flatMap((row) => (row.captionsKey ? [row.captionsKey] : []));
}

/** The stored keys a film still names: its captions (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedByFilms: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [{ table: storyFilms, user: storyFilms.userId, column: storyFilms.captionsKey }],
    owners,
    keys,
  );
