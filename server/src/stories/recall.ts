// A story's recall (issue #29, decision 0111): what a turn's words would bring back from its older exchanges, and
// the player's pins (always recalled) and forgets (never recalled). Owner only (others: 404).
import type { RecalledExchange } from "@storyverse/contract/recall";
import { markRecalled, recallPreview } from "../chat/service";
import type { AppContext } from "../context";
import { NotFound } from "../platform/errors";
import { findStory } from "./repo";

type RecallContext = Pick<AppContext, "db" | "clock">;

async function ownStory(ctx: RecallContext, userId: string, storyId: string) {
  if (!(await findStory(ctx.db, userId, storyId))) throw new NotFound("Story not found");
}

export const recalledJson = (line: Awaited<ReturnType<typeof recallPreview>>[number]): RecalledExchange => ({
  message_id: line.messageId,
  turn: line.turn,
  player: line.player,
  narrator: line.narrator,
  score: line.score,
  matched: line.matched,
  pinned: line.pinned,
});

export async function recall(ctx: RecallContext, userId: string, storyId: string, prompt: string) {
  await ownStory(ctx, userId, storyId);
  return (await recallPreview(ctx, userId, storyId, prompt)).map(recalledJson);
}

export async function markRecall(
  ctx: RecallContext,
  userId: string,
  storyId: string,
  messageId: string,
  change: { pinned?: boolean | undefined; forgotten?: boolean | undefined },
) {
  await ownStory(ctx, userId, storyId);
  const marked = await markRecalled(ctx, userId, storyId, messageId, change);
  if (!marked) throw new NotFound("Message not found");
  return { message_id: messageId, ...marked };
}
