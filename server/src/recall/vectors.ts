// Recall by meaning (issue #29, decision 0113): with an embeddings provider (EMBEDDINGS_PROVIDER) and pgvector
// (db/vectors.ts), each narrator message has a vector in message_embeddings (owned by this module, written by
// the background job in embed-job.ts), and a turn's words are embedded once, with a short time limit, to rank
// the story's older exchanges by cosine similarity beside their text rank (recall.ts). Any failure here leaves
// recall to text search: meaning only ever adds candidates and score.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { branchParts, firstOfPartsSql, sharesHistory } from "../conversation";
import type { Queryable } from "../db/client";
import { recallWalksDue } from "../db/schema";
import { indexVectorLength, vectorsAvailable } from "../db/vectors";
import type { EmbeddingsProvider } from "../providers/types";

/** A recalled exchange's score is its text score plus this times its cosine similarity to the turn's words. */
export const MEANING_WEIGHT = 0.1;
/** An exchange that shares no word with the turn is recalled by meaning only from this similarity up. */
const MEANING_MIN_SIMILARITY = 0.4;
/**
 * The nearest vectors of the story that are candidates (decision 0116: the meaning side of the fusion), those of
 * them that are of edited text, hidden, forgotten or still in the narrator's window passed over.
 */
const MEANING_NEAREST = 32;
/** The turn's words are embedded on the turn's path: past this, the turn recalls by text only. */
const MEANING_QUERY_TIMEOUT_MS = 2000;

/** The turn's words as a vector, and the model it comes from (only that model's vectors are compared). */
export type MeaningQuery = { vector: number[]; model: string };

/** The embeddings provider when recall by meaning is on: configured, and vectors stored on this database. */
export function meaningProvider(ctx: Pick<AppContext, "db" | "providers">): EmbeddingsProvider | undefined {
  const provider = ctx.providers.embeddings;
  return provider && vectorsAvailable(ctx.db) ? provider : undefined;
}

/** pgvector's text form of a vector. */
const vectorLiteral = (vector: number[]) => `[${vector.map((value) => Number(value)).join(",")}]`;

let failing = false;

/** The turn's words embedded, or nothing (off, or the call failed: logged once until it works again). */
export async function meaningOf(
  ctx: Pick<AppContext, "db" | "providers" | "log">,
  words: string,
): Promise<MeaningQuery | undefined> {
  const provider = meaningProvider(ctx);
  if (!provider || !words.trim()) return undefined;
  try {
    const [vector] = await provider.embed(
      [words.slice(0, 4000)],
      AbortSignal.timeout(MEANING_QUERY_TIMEOUT_MS),
    );
    failing = false;
    return vector && vector.length > 0 ? { vector, model: provider.model } : undefined;
  } catch (error) {
    if (!failing) {
      failing = true;
      ctx.log.warn(
        { err: error, internal: (error as { internal?: string }).internal },
        "recall by meaning is unavailable (the embeddings call failed): recalling by text only",
      );
    }
    return undefined;
  }
}

/**
 * The pieces recall.ts splices into its query when a turn has a meaning query (decision 0116; nothing
 * otherwise, leaving the text-only query as it was): `join` gives each fused candidate (`shown`) its vector
 * when it is of this model, length and current text, `score` adds its similarity's share to the text score,
 * and `nearest(matches)` is the ids of the story's MEANING_NEAREST nearest vectors (through the HNSW index when
 * the story is `long`, db/vectors.ts) that are shown narrator messages older than the window (`before`), of
 * this user and story, not forgotten, of current text, and either near enough (MEANING_MIN_SIMILARITY) or
 * holding one of the turn's words (`matches`, a condition on `shown.search`).
 */
export function meaningParts(
  meaning: MeaningQuery | undefined,
  userId: string,
  storyId: string,
  before: SQL,
  long: boolean,
  /** The condition that a row of chat_messages named `alias` is one of the branch's (recall.ts reads its parts once). */
  inBranch: (alias: string) => SQL,
): { join: SQL; score: SQL; nearest: ((matches: SQL) => SQL) | undefined } {
  if (!meaning) return { join: sql``, score: sql``, nearest: undefined };
  const vector = vectorLiteral(meaning.vector);
  // A branch that shares its history (decision 0137) searches each branch it shares messages of too; the
  // branch's own condition below keeps only the messages it shows.
  const nearestOf = (rest: SQL) =>
    sharesHistory(storyId)
      ? sql`(select level_near.* from (select array_prepend(lineage.id, lineage.history_from) as ids
               from stories lineage where lineage.id = ${storyId}) lineage
             cross join lateral unnest(lineage.ids) as level(id)
             cross join lateral recall_nearest_embeddings(${userId}::uuid, level.id, ${rest}) level_near)`
      : sql`recall_nearest_embeddings(${userId}::uuid, ${storyId}::uuid, ${rest})`;
  const dimensions = meaning.vector.length;
  const current = sql`emb.model = ${meaning.model} and vector_dims(emb.embedding) = ${dimensions}
        and emb.content_hash = md5(shown.content)`;
  // One distance each for the story's nearest, never a message's text hashed for all of them.
  const nearest = (matches: SQL) => sql`(
      select near.message_id
      from ${nearestOf(sql`${meaning.model}::text, ${vector}::vector, ${MEANING_NEAREST}::integer, ${sql.raw(long ? "true" : "false")}`)} near
      join chat_messages shown on shown.id = near.message_id
      left join recall_marks mark on mark.message_id = near.message_id
      where near.content_hash = md5(shown.content)
        and ${inBranch("shown")} and shown.role = 'assistant'
        and shown.hidden = false and shown.created_at < ${before}
        and coalesce(mark.forgotten, false) = false
        and (1 - near.distance >= ${MEANING_MIN_SIMILARITY} or ${matches})
    )`;
  return {
    join: sql`left join message_embeddings emb on emb.message_id = shown.id and ${current}`,
    score: sql` + ${MEANING_WEIGHT}::float8 * greatest(coalesce(1 - (emb.embedding <=> ${vector}::vector), 0), 0)`,
    nearest,
  };
}

/**
 * Stores (or replaces) a message's vector with the md5 of the text it was made from, which tells later
 * whether it is still the message's text; a message deleted meanwhile stores nothing.
 */
export async function storeEmbedding(
  q: Queryable,
  row: {
    messageId: string;
    userId: string;
    storyId: string;
    content: string;
    model: string;
    vector: number[];
  },
): Promise<void> {
  await indexVectorLength(q, row.vector.length);
  await q.execute(sql`
    insert into message_embeddings (message_id, user_id, story_id, content_hash, model, embedding)
    select ${row.messageId}, ${row.userId}, ${row.storyId}, md5(${row.content}), ${row.model},
           ${vectorLiteral(row.vector)}::vector
    where exists (select 1 from chat_messages where id = ${row.messageId})
    on conflict (message_id) do update
      set content_hash = excluded.content_hash, model = excluded.model, embedding = excluded.embedding
  `);
}

/**
 * Which of a story's shown narrator messages the indexing job looks at, always a bounded read (issue 42): the
 * newest `most` (after a turn), the next `most` after a place in the story (a walk through an older backlog), or
 * one message (after an edit).
 */
export type EmbeddingScan =
  | { kind: "newest"; most: number }
  | { kind: "after"; from: NarrationPlace | null; most: number }
  | { kind: "one"; messageId: string };

/** A message's place in the story's order: its time as the database writes it (to the microsecond), and its id. */
export type NarrationPlace = { at: string; id: string };

/** A scanned narrator message, and whether its vector is missing, of another model or of older text. */
export type ScannedNarration = { id: string; content: string; place: NarrationPlace; missing: boolean };

/** The narrator messages of the scan, in the story's order (oldest first). */
export async function scanForEmbedding(
  q: Queryable,
  userId: string,
  storyId: string,
  model: string,
  scan: EmbeddingScan,
): Promise<ScannedNarration[]> {
  const where =
    scan.kind === "one"
      ? sql`and m.id = ${scan.messageId}`
      : scan.kind === "after" && scan.from
        ? sql`and (m.created_at, m.id) > (${scan.from.at}::timestamptz, ${scan.from.id}::uuid)`
        : sql``;
  const most = scan.kind === "one" ? 1 : scan.most;
  // Read part by part (decision 0168): a branch that shares its history reads each level's range in order.
  const parts = await branchParts(q, storyId);
  const scanned = firstOfPartsSql({
    alias: "m",
    userId,
    parts,
    where: sql`m.role = 'assistant' and m.hidden = false and length(trim(m.content)) > 0 ${where}`,
    limit: most,
    newest: scan.kind === "newest",
    columns: ["content"],
  });
  const result = (await q.execute(sql`
    select scanned.id, scanned.content, scanned.created_at::text as at,
           (emb.message_id is null or emb.model <> ${model} or emb.content_hash <> md5(scanned.content)) as missing
    from ${scanned} scanned
    left join message_embeddings emb on emb.message_id = scanned.id
    order by scanned.created_at, scanned.id
  `)) as unknown as { rows: { id: string; content: string; at: string; missing: boolean }[] };
  return result.rows.map((row) => ({
    id: row.id,
    content: row.content,
    place: { at: row.at, id: row.id },
    missing: row.missing,
  }));
}

/** The branch's marks for a walk (markRecallWalkDue); null when it has none. */
export async function recallWalkDue(q: Queryable, storyId: string): Promise<number | null> {
  const [row] = await q
    .select({ marks: recallWalksDue.marks })
    .from(recallWalksDue)
    .where(eq(recallWalksDue.storyId, storyId));
  return row?.marks ?? null;
}

/** Clears the marks once their walk is queued, unless a later copy marked the branch again meanwhile. */
export async function clearRecallWalkDue(q: Queryable, storyId: string, marks: number): Promise<void> {
  await q
    .delete(recallWalksDue)
    .where(and(eq(recallWalksDue.storyId, storyId), eq(recallWalksDue.marks, marks)));
}
