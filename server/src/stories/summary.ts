// The rolling summary: once a story outgrows the narrator's window (the newest HISTORY_WINDOW messages), a
// background job asks the text provider to fold the messages that left it into a short "story so far", which
// the narrator then reads after the Memory and the cards. Free for the player; it never blocks a turn (queued
// after the turn is delivered, its failures retried by the queue); the player can read and correct it.
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import { SUMMARY_MAX_LENGTH, SUMMARY_MIN_NEW_MESSAGES } from "@storyverse/contract/story-craft";
import { z } from "zod";
import type { AppContext } from "../context";
import { storyMessageCounts, storyMessagesAfter, storyMessagesNewer, witnessesAfter } from "../conversation";
import type { JobSpec } from "../jobs/queue";
import { findStory, keepSummaryCovers, replaceSummary, type StoryRow } from "./repo";

type SummaryContext = Pick<AppContext, "db" | "clock" | "providers" | "jobs" | "log">;

export const storySummaryJob: JobSpec<{ userId: string; storyId: string }> = {
  name: "story-summary",
  payload: z.object({ userId: z.uuid(), storyId: z.uuid() }),
  // A vendor that is down now is asked again later; the story does not wait for it.
  retryLimit: 4,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
};

type Transcript = Awaited<ReturnType<typeof storyMessagesAfter>>;

/**
 * One step folds at most this many messages, and sends at most this many characters of them (decision 0129):
 * each step is a bounded read and a bounded request, and a long history that was never summarised is folded
 * over several steps, each its own job, oldest first.
 */
export const SUMMARY_BATCH_MESSAGES = 40;
export const SUMMARY_BATCH_CHARACTERS = 16_000;

const lineOf = (message: Transcript[number]) =>
  `${message.role === "user" ? "Player" : "Narrator"}: ${message.content.trim()}`;

/**
 * The step's messages: the first `most` of `read` (oldest first) whose lines fit the character budget (at
 * least one), never ending between two messages written at the same instant when a later one is left out
 * (the summary's mark is a time, and the next step starts after it).
 */
function batchOf(read: Transcript, most: number): Transcript {
  const batch: Transcript = [];
  let characters = 0;
  for (const message of read.slice(0, most)) {
    const size = lineOf(message).length + 2;
    if (batch.length > 0 && characters + size > SUMMARY_BATCH_CHARACTERS) break;
    batch.push(message);
    characters += size;
  }
  const next = read[batch.length];
  if (next) {
    const tied = batch.findIndex((message) => message.createdAt.getTime() === next.createdAt.getTime());
    if (tied > 0) batch.length = tied;
  }
  return batch;
}

/**
 * How many of the story's earliest messages the summary has folded: kept on the story by each step, so the
 * Memory panel reads no messages; a story whose count was never kept (summarised before it was, or restored)
 * is counted once and the count kept.
 */
export async function summaryCoverage(
  ctx: Pick<AppContext, "db">,
  userId: string,
  story: Pick<StoryRow, "id" | "summaryThrough" | "summaryCovers">,
): Promise<number> {
  if (story.summaryThrough === null) return 0;
  if (story.summaryCovers !== null) return story.summaryCovers;
  const counts = await storyMessageCounts(ctx, userId, story.id, story.summaryThrough);
  await keepSummaryCovers(ctx.db, story.id, story.summaryThrough, counts.through);
  return counts.through;
}

/**
 * How many messages that left the window the summary does not cover yet, counted only as far as one step needs
 * (a step folds at most SUMMARY_BATCH_MESSAGES; one more says another step follows): a bounded read after every
 * turn, whatever the story's length.
 */
async function summaryBacklog(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  through: Date | null,
) {
  const newer = await storyMessagesNewer(
    ctx,
    userId,
    storyId,
    through,
    HISTORY_WINDOW + SUMMARY_BATCH_MESSAGES + 1,
  );
  return Math.max(0, newer - HISTORY_WINDOW);
}

/** What the summariser is told (a vendor model reads it; the offline provider goes by the request's data). */
export function summariserInstructions(title: string, summary: string): string {
  return [
    "Role: story summariser.",
    "Fold the story passages the user sends into the summary so far. Keep every name, place, promise and",
    "unresolved thread; drop the flourishes. Write in the second person, past tense, as plain prose, no",
    `headings, under ${Math.floor(SUMMARY_MAX_LENGTH * 0.75)} characters. Answer with the whole new summary only.`,
    `Story title: ${title}`,
    `Summary so far: ${summary.trim() || "(none yet)"}`,
  ].join("\n");
}

/** The step's passages, cut at the character budget (only a single over-long message reaches it). */
const transcriptText = (messages: Transcript) =>
  messages.map(lineOf).join("\n\n").slice(0, SUMMARY_BATCH_CHARACTERS);

/**
 * Queues the summary job when enough messages left the window since the last summary. Called after a turn
 * was delivered; a failure here is logged and never reaches the player's turn.
 */
export async function queueSummaryIfDue(ctx: SummaryContext, userId: string, storyId: string): Promise<void> {
  try {
    const story = await findStory(ctx.db, userId, storyId);
    if (!story) return;
    // A count, not the transcript: this runs after every story turn.
    const uncovered = await summaryBacklog(ctx, userId, storyId, story.summaryThrough);
    if (uncovered < SUMMARY_MIN_NEW_MESSAGES) return;
    await ctx.jobs.send(storySummaryJob, { userId, storyId });
  } catch (error) {
    ctx.log.warn({ err: error, storyId }, "the story summary could not be queued");
  }
}

/**
 * The job: fold the oldest batch of what left the window into the summary (nothing to do when another job
 * got there first), then queue the next step while more of the history waits.
 */
export async function writeStorySummary(
  ctx: SummaryContext,
  payload: { userId: string; storyId: string },
): Promise<void> {
  const story = await findStory(ctx.db, payload.userId, payload.storyId);
  if (!story) return;
  const uncovered = await summaryBacklog(ctx, payload.userId, payload.storyId, story.summaryThrough);
  if (uncovered === 0) return;
  const most = Math.min(uncovered, SUMMARY_BATCH_MESSAGES);
  // One message more than the step takes: it tells whether the step would end inside one instant.
  const read = await storyMessagesAfter(ctx, payload.userId, payload.storyId, story.summaryThrough, most + 1);
  const fresh = batchOf(read, most);
  if (fresh.length === 0) return;
  const answer = await ctx.providers.text.complete({
    purpose: "summary",
    summarySoFar: story.summary,
    passages: fresh.map((message) => ({
      speaker: message.role === "user" ? "player" : "narrator",
      text: message.content,
    })),
    messages: [
      { role: "system", content: summariserInstructions(story.title, story.summary) },
      { role: "user", content: transcriptText(fresh) },
    ],
    maxTokens: 700,
    temperature: 0.3,
  });
  const summary = answer.trim().slice(0, SUMMARY_MAX_LENGTH).trim();
  // An empty answer is a failed try: the queue asks again later.
  if (!summary) throw new Error("the text provider returned an empty summary");
  // What the summary folded before this step: none before its first; unknown where it was never kept.
  const coveredBefore = story.summaryThrough === null ? 0 : story.summaryCovers;
  const written = await replaceSummary(
    ctx.db,
    story.id,
    { summary: story.summary, through: story.summaryThrough },
    {
      summary,
      through: fresh[fresh.length - 1]!.createdAt,
      at: ctx.clock.now(),
      // What it folded so far, when that was kept (else counted once when the Memory panel asks).
      covers: coveredBefore === null ? null : coveredBefore + fresh.length,
      // Who was present for all it now folds (decision 0165): a character who missed a scene is not told it.
      witnesses: witnessesAfter(story.summaryWitnesses, fresh),
    },
  );
  // The rest of a long history is the next step's, a job of its own (a lost race leaves it to the winner).
  if (written && uncovered > fresh.length) await ctx.jobs.send(storySummaryJob, payload);
}
