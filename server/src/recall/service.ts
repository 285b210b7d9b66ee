// A story's recall (issue #29, decision 0111): what a turn's words would bring back from its older exchanges, and
// the player's pins (always recalled) and forgets (never recalled). Owner only (others: 404): its routes sit under
// the story scope (stories/branch-scope.ts), which answers 404 for a story not the caller's before any handler
// runs, and every read and mark here is scoped by the caller's id as well.
import type { RecalledExchange } from "@storyverse/contract/recall";
import type { AppContext } from "../context";
import type { Witness } from "../conversation";
import { findMessage } from "../conversation";
import { NotFound } from "../platform/errors";
import { recallExchanges, recallMarkOf, markRecall as writeRecallMark } from "./recall";
import { meaningOf } from "./vectors";

type RecallContext = Pick<AppContext, "db" | "clock">;

/**
 * The older exchanges these words bring back from the story: for a turn (through its `StoryHooks`, with the
 * speaker who knows only what they saw as `witness`) and for GET /api/stories/{id}/recall alike.
 */
export async function recallFor(
  ctx: Pick<AppContext, "db"> & Partial<Pick<AppContext, "providers" | "log">>,
  userId: string,
  storyId: string,
  words: string,
  witness?: Witness,
) {
  // By meaning too when the caller's context carries the providers (a turn's and the routes' do).
  const meaning =
    ctx.providers && ctx.log
      ? await meaningOf({ ...ctx, providers: ctx.providers, log: ctx.log }, words)
      : undefined;
  return recallExchanges(ctx.db, userId, storyId, words, undefined, meaning, witness);
}

/**
 * Pins one of the story's narrator messages (always recalled; it is remembered again) or forgets it (never
 * recalled; it is unpinned). Undefined when the story has no such narrator message.
 */
export async function markRecalled(
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  storyId: string,
  messageId: string,
  change: { pinned?: boolean | undefined; forgotten?: boolean | undefined },
): Promise<{ pinned: boolean; forgotten: boolean } | undefined> {
  const message = await findMessage(ctx.db, userId, storyId, messageId);
  if (message?.role !== "assistant" || message.hidden) return undefined;
  const was = await recallMarkOf(ctx.db, userId, messageId);
  const forgotten = change.forgotten ?? (change.pinned ? false : (was?.forgotten ?? false));
  const pinned = !forgotten && (change.pinned ?? was?.pinned ?? false);
  await writeRecallMark(ctx.db, { userId, storyId, messageId, pinned, forgotten, at: ctx.clock.now() });
  return { pinned, forgotten };
}

export const recalledJson = (line: Awaited<ReturnType<typeof recallFor>>[number]): RecalledExchange => ({
  message_id: line.messageId,
  turn: line.turn,
  player: line.player,
  narrator: line.narrator,
  score: line.score,
  matched: line.matched,
  pinned: line.pinned,
});

export async function recall(ctx: RecallContext, userId: string, storyId: string, prompt: string) {
  return (await recallFor(ctx, userId, storyId, prompt)).map(recalledJson);
}

export async function markRecall(
  ctx: RecallContext,
  userId: string,
  storyId: string,
  messageId: string,
  change: { pinned?: boolean | undefined; forgotten?: boolean | undefined },
) {
  const marked = await markRecalled(ctx, userId, storyId, messageId, change);
  if (!marked) throw new NotFound("Message not found");
  return { message_id: messageId, ...marked };
}
