// Indexing for recall by meaning (decision 0113): after a turn is committed, or a narrator message edited, a
// background job embeds the story's narrator messages that have no vector of the current model and text, and
// stores them (recall-vectors.ts). It never runs on the turn's path and is never charged: the player pays for
// turns, not for the index. A failed embeddings call fails the try, and the queue retries it with backoff.
// Each step reads a bounded part of the story, whatever its length (issue 42, decision 0166): a turn's job looks
// at the newest narrations only, an edit's at the edited message; when the newest show an older backlog (a story
// restored, or played before recall by meaning was on), or the branch was given copies of messages since (they
// carry no vectors), a walk from the story's start follows, one bounded step a job, each queueing the next.
import { z } from "zod";
import type { AppContext } from "../context";
import type { JobSpec } from "../jobs/queue";
import {
  clearRecallWalkDue,
  type EmbeddingScan,
  meaningProvider,
  recallWalkDue,
  type ScannedNarration,
  scanForEmbedding,
  storeEmbedding,
} from "./vectors";

/** Texts per embeddings call. */
const BATCH = 32;
/** The newest narrations a turn's job looks at (more than a turn, a Continue and a few Retries add). */
const NEWEST_SCANNED = 2 * BATCH;
/** The narrations one step of a walk looks at. */
const WALK_STEP = 8 * BATCH;
/** A narrator message is embedded from at most this many characters (far past any model's window anyway). */
const EMBEDDED_CHARACTERS = 8000;

const place = z.object({ at: z.string().min(1).max(64), id: z.uuid() });

type EmbedPayload = {
  userId: string;
  storyId: string;
  /** An edited narrator message: only it is looked at. */
  messageId?: string | undefined;
  /** A walk through the story's backlog: the step after this place (null: from the start). */
  walkFrom?: z.infer<typeof place> | null | undefined;
};

export const embedMessagesJob: JobSpec<EmbedPayload> = {
  name: "chat-embed-messages",
  payload: z.object({
    userId: z.uuid(),
    storyId: z.uuid(),
    messageId: z.uuid().optional(),
    walkFrom: place.nullable().optional(),
  }),
  retryLimit: 6,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 300,
};

/**
 * Queues the story's indexing when recall by meaning is on (after an edit, of that message alone); a failure is
 * logged and never reaches the turn.
 */
export async function queueEmbeddings(
  ctx: Pick<AppContext, "db" | "providers" | "jobs" | "log">,
  userId: string,
  storyId: string | null,
  messageId?: string,
): Promise<void> {
  if (!storyId || !meaningProvider(ctx)) return;
  try {
    await ctx.jobs.send(embedMessagesJob, { userId, storyId, ...(messageId ? { messageId } : {}) });
  } catch (error) {
    ctx.log.warn({ err: error, storyId }, "the recall indexing job could not be queued");
  }
}

/** The job: one bounded scan, its missing vectors embedded and stored; throws (to be retried) on a failed call. */
export async function embedMessages(
  ctx: Pick<AppContext, "db" | "providers" | "jobs">,
  payload: EmbedPayload,
): Promise<void> {
  const provider = meaningProvider(ctx);
  if (!provider) return;
  const scan: EmbeddingScan = payload.messageId
    ? { kind: "one", messageId: payload.messageId }
    : payload.walkFrom !== undefined
      ? { kind: "after", from: payload.walkFrom, most: WALK_STEP }
      : { kind: "newest", most: NEWEST_SCANNED };
  const scanned = await scanForEmbedding(ctx.db, payload.userId, payload.storyId, provider.model, scan);
  const missing = scanned.filter((row) => row.missing);
  for (let start = 0; start < missing.length; start += BATCH) {
    const rows = missing.slice(start, start + BATCH);
    const vectors = await provider.embed(rows.map((row) => row.content.slice(0, EMBEDDED_CHARACTERS)));
    for (const [index, row] of rows.entries()) {
      await storeEmbedding(ctx.db, {
        messageId: row.id,
        userId: payload.userId,
        storyId: payload.storyId,
        content: row.content,
        model: provider.model,
        vector: vectors[index]!,
      });
    }
  }
  // A branch given copies of messages since its last walk (they carry no vectors) is walked from its start.
  const copied = scan.kind === "after" ? null : await recallWalkDue(ctx.db, payload.storyId);
  const walkFrom = copied !== null ? null : nextWalkStep(scan, scanned);
  if (walkFrom !== undefined) {
    await ctx.jobs.send(embedMessagesJob, { userId: payload.userId, storyId: payload.storyId, walkFrom });
  }
  // Cleared once the walk is queued: a failure before leaves the mark for the job's next try.
  if (copied !== null) await clearRecallWalkDue(ctx.db, payload.storyId, copied);
}

/**
 * Where the walk goes on, if it does: after a full step, from its last message; after the newest, from the
 * story's start when even the oldest of a full scan lacked its vector (older ones likely do too).
 */
function nextWalkStep(scan: EmbeddingScan, scanned: ScannedNarration[]) {
  if (scan.kind === "after" && scanned.length === scan.most) return scanned.at(-1)!.place;
  if (scan.kind === "newest" && scanned.length === scan.most && scanned[0]!.missing) return null;
  return undefined;
}
