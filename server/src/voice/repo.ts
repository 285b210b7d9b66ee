// SQL for message narrations. A narration leaves "pending" once, to "completed" or "failed": every change of
// status is conditional on it still being pending, so a job and the stale time-out cannot both settle it.
import { and, asc, count, eq, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { messageSpeech, messageSpeechChunks } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";

export type SpeechRow = typeof messageSpeech.$inferSelect;

export async function findSpeech(
  q: Queryable,
  messageId: string,
  contentKey: string,
): Promise<SpeechRow | undefined> {
  const [row] = await q
    .select()
    .from(messageSpeech)
    .where(and(eq(messageSpeech.messageId, messageId), eq(messageSpeech.contentKey, contentKey)));
  return row;
}

export async function findSpeechById(q: Queryable, id: string): Promise<SpeechRow | undefined> {
  const [row] = await q.select().from(messageSpeech).where(eq(messageSpeech.id, id));
  return row;
}

/** The new row, or undefined when the message already has one for this key (a racing request made it). */
export async function insertSpeech(
  q: Queryable,
  values: typeof messageSpeech.$inferInsert,
): Promise<SpeechRow | undefined> {
  const [row] = await q.insert(messageSpeech).values(values).onConflictDoNothing().returning();
  return row;
}

/** A failed narration makes way for a new try of the same key. */
export async function deleteFailedSpeech(q: Queryable, id: string): Promise<void> {
  await q.delete(messageSpeech).where(and(eq(messageSpeech.id, id), eq(messageSpeech.status, "failed")));
}

/** Serialises a user's narration requests, so the running-jobs limit holds under any race. */
export async function lockUserSpeech(q: Queryable, userId: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`speech:${userId}`}, 0))`);
}

export async function countPendingSpeech(q: Queryable, userId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(messageSpeech)
    .where(and(eq(messageSpeech.userId, userId), eq(messageSpeech.status, "pending")));
  return Number(row?.n ?? 0);
}

export async function completeSpeechIfPending(
  q: Queryable,
  id: string,
  values: Pick<SpeechRow, "audioKey" | "durationMs" | "segments">,
  now: Date,
): Promise<boolean> {
  const rows = await q
    .update(messageSpeech)
    .set({ ...values, status: "completed", updatedAt: now })
    .where(and(eq(messageSpeech.id, id), eq(messageSpeech.status, "pending")))
    .returning({ id: messageSpeech.id });
  return rows.length > 0;
}

export async function failSpeechIfPending(
  q: Queryable,
  id: string,
  error: string,
  now: Date,
): Promise<SpeechRow | undefined> {
  const [row] = await q
    .update(messageSpeech)
    .set({ status: "failed", error, updatedAt: now })
    .where(and(eq(messageSpeech.id, id), eq(messageSpeech.status, "pending")))
    .returning();
  return row;
}

/**
 * Keeps the next spoken piece of a narration being made (decision 0133), only while it is still pending: a
 * narration failed or deleted meanwhile keeps nothing. A retried job's piece already kept stays as it was.
 */
export async function addSpeechChunk(
  q: Queryable,
  speechId: string,
  index: number,
  durationMs: number,
  wav: Buffer,
): Promise<void> {
  await q.execute(sql`
    insert into ${messageSpeechChunks} (speech_id, index, duration_ms, wav)
    select ${speechId}, ${index}, ${durationMs}, ${wav}
    where exists (select 1 from ${messageSpeech} where id = ${speechId} and status = 'pending')
    on conflict do nothing`);
}

/** The pieces of a narration kept so far, in order (their lengths, not their audio). */
export async function speechChunkList(q: Queryable, speechId: string): Promise<{ durationMs: number }[]> {
  return q
    .select({ durationMs: messageSpeechChunks.durationMs })
    .from(messageSpeechChunks)
    .where(eq(messageSpeechChunks.speechId, speechId))
    .orderBy(asc(messageSpeechChunks.index));
}

export async function findSpeechChunk(
  q: Queryable,
  speechId: string,
  index: number,
): Promise<Buffer | undefined> {
  const [row] = await q
    .select({ wav: messageSpeechChunks.wav })
    .from(messageSpeechChunks)
    .where(and(eq(messageSpeechChunks.speechId, speechId), eq(messageSpeechChunks.index, index)));
  return row?.wav;
}

/** A failed narration's pieces go at once (it was refunded). */
export async function deleteSpeechChunks(q: Queryable, speechId: string): Promise<void> {
  await q.delete(messageSpeechChunks).where(eq(messageSpeechChunks.speechId, speechId));
}

/**
 * The pieces of narrations settled before `before`: a stored narration keeps its pieces a while, so a player
 * that listed a piece just before the file was stored still gets it. Answers how many pieces went.
 */
export async function deleteSettledSpeechChunks(q: Queryable, before: Date): Promise<number> {
  const gone = await q
    .delete(messageSpeechChunks)
    .where(
      sql`${messageSpeechChunks.speechId} in (select ${messageSpeech.id} from ${messageSpeech}
        where ${messageSpeech.status} <> 'pending' and ${messageSpeech.updatedAt} < ${before})`,
    )
    .returning({ index: messageSpeechChunks.index });
  return gone.length;
}

/** A user's narrations still pending since before `before` (their worker died on the last try). */
export async function staleSpeech(q: Queryable, userId: string, before: Date): Promise<SpeechRow[]> {
  return q
    .select()
    .from(messageSpeech)
    .where(
      and(
        eq(messageSpeech.userId, userId),
        eq(messageSpeech.status, "pending"),
        lt(messageSpeech.createdAt, before),
      ),
    );
}

/** The audio files of a story's narrations (deleted with the story; the rows go by its foreign key). */
export async function storySpeechKeys(q: Queryable, storyId: string): Promise<string[]> {
  const rows = await q
    .select({ key: messageSpeech.audioKey })
    .from(messageSpeech)
    .where(eq(messageSpeech.storyId, storyId));
  return rows.flatMap((row) => (row.key ? [row.key] : []));
}

/** The stored keys a narration still names: its audio (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedBySpeech: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [{ table: messageSpeech, user: messageSpeech.userId, column: messageSpeech.audioKey }],
    owners,
    keys,
  );
