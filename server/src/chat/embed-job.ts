// Indexing for recall by meaning (decision 0113): after a turn is committed, or a narrator message edited, a
// background job embeds the story's narrator messages that have no vector of the current model and text, and
// stores them (recall-vectors.ts). It never runs on the turn's path and is never charged: the player pays for
// turns, not for the index. A failed embeddings call fails the try, and the queue retries it with backoff;
// whatever is still missing is picked up again by the story's next job (each job catches up the whole story).
import { z } from "zod";
import type { AppContext } from "../context";
import type { JobSpec } from "../jobs/queue";
import { meaningProvider, storeEmbedding, unembeddedMessages } from "./recall-vectors";

/** Texts per embeddings call, and the most calls one try makes (a long story is indexed over several). */
const BATCH = 32;
const BATCHES_PER_TRY = 20;
/** A narrator message is embedded from at most this many characters (far past any model's window anyway). */
const EMBEDDED_CHARACTERS = 8000;

export const embedMessagesJob: JobSpec<{ userId: string; storyId: string }> = {
  name: "chat-embed-messages",
  payload: z.object({ userId: z.uuid(), storyId: z.uuid() }),
  retryLimit: 6,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 300,
};

/** Queues the story's indexing when recall by meaning is on; a failure is logged and never reaches the turn. */
export async function queueEmbeddings(
  ctx: Pick<AppContext, "db" | "providers" | "jobs" | "log">,
  userId: string,
  storyId: string | null,
): Promise<void> {
  if (!storyId || !meaningProvider(ctx)) return;
  try {
    await ctx.jobs.send(embedMessagesJob, { userId, storyId });
  } catch (error) {
    ctx.log.warn({ err: error, storyId }, "the recall indexing job could not be queued");
  }
}

/** The job: embeds and stores what the story lacks, batch by batch; throws (to be retried) on a failed call. */
export async function embedMessages(
  ctx: Pick<AppContext, "db" | "providers">,
  payload: { userId: string; storyId: string },
): Promise<void> {
  const provider = meaningProvider(ctx);
  if (!provider) return;
  for (let batch = 0; batch < BATCHES_PER_TRY; batch += 1) {
    const rows = await unembeddedMessages(ctx.db, payload.userId, payload.storyId, provider.model, BATCH);
    if (rows.length === 0) return;
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
    if (rows.length < BATCH) return;
  }
}
