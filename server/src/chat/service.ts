// A chat turn (main chat or story): charge first, ask the narrator, then store both messages and queue the
// media job in one transaction. The HTTP answer goes back as soon as the story text exists. The charge
// runs through payFor: if anything before the commit fails, the whole charge is refunded, keyed by the
// answer's message id, so the turn has exactly one outcome.
import { randomUUID } from "node:crypto";
import type { ChatMessage, ChatMode, ChatResponse, MediaStatus } from "@storyverse/contract/chat";
import { HISTORY_WINDOW, MEDIA_TIMED_OUT_MESSAGE } from "@storyverse/contract/chat";
import type { AppContext } from "../context";
import { payFor, refundPaid } from "../credits/paid-work";
import { HttpError, NotFound } from "../http/errors";
import { type CheckedInput, discardUploadedInputs, storeInputImages } from "../media/inputs";
import { urlFor } from "../media/service";
import { ProviderError } from "../providers/types";
import { failMedia, generateMediaJob, mediaDeadline, mediaPartTenths } from "./media-job";
import { buildNarratorMessages, parseNarration, type StorySetting } from "./narration";
import {
  allMessages,
  deleteConversation,
  findMessage,
  insertMessage,
  type MessageRow,
  pendingMessagesOfStory,
  recentMessages,
  storyConversationStats,
} from "./repo";

export class ProviderUnavailable extends HttpError {
  constructor(detail: string) {
    super(502, detail);
  }
}

export type TurnInput = {
  userId: string;
  /** null for the main chat. */
  storyId: string | null;
  story: StorySetting | null;
  prompt: string;
  mode: ChatMode;
  /** Reference images (image mode only), already checked to be the user's; uploads are stored once paid. */
  references: CheckedInput[];
};

type TurnContext = Pick<AppContext, "db" | "clock" | "providers" | "jobs" | "log" | "storage">;

const chargeLabel = (mode: ChatMode) =>
  mode === "chat" ? "Chat" : mode === "image" ? "Story image" : "Story video";

export async function sendTurn(ctx: TurnContext, input: TurnInput): Promise<ChatResponse> {
  const wantsMedia = input.mode !== "chat";
  // The answer's id is fixed up front: the job and any refund are keyed by it.
  const assistantId = randomUUID();
  const { result: storyText, paid } = await payFor(
    ctx,
    {
      userId: input.userId,
      kind: input.mode,
      quantity: 1,
      description: `${chargeLabel(input.mode)}: ${input.prompt.slice(0, 80)}`,
      paidFor: assistantId,
      refundDescription: "Refund: the turn could not be completed",
    },
    async (charged) => {
      const referenceKeys = await storeInputImages(ctx, input.userId, input.references);
      try {
        const history = await recentMessages(ctx.db, input.userId, input.storyId, HISTORY_WINDOW);
        let answer: string;
        try {
          answer = await ctx.providers.text.complete({
            messages: buildNarratorMessages(input.story, history, input.prompt),
            maxTokens: 900,
            temperature: 0.9,
          });
        } catch (error) {
          ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "narrator failed");
          throw new ProviderUnavailable(
            error instanceof ProviderError
              ? error.message
              : "The narrator could not answer. Please try again.",
          );
        }
        const { storyText, scene } = parseNarration(answer, input.prompt);
        const userAt = ctx.clock.now();
        // The answer is stamped a millisecond later so ordering by time never puts it before its question.
        const answerAt = new Date(userAt.getTime() + 1);
        // Both messages and the job commit together: no message waits for a job that was never queued.
        if (wantsMedia) await ctx.jobs.ready(generateMediaJob);
        await ctx.db.transaction(async (tx) => {
          await insertMessage(tx, {
            userId: input.userId,
            storyId: input.storyId,
            role: "user",
            content: input.prompt,
            mode: input.mode,
            createdAt: userAt,
            updatedAt: userAt,
          });
          await insertMessage(tx, {
            id: assistantId,
            userId: input.userId,
            storyId: input.storyId,
            role: "assistant",
            content: storyText,
            mode: input.mode,
            sceneDescription: scene,
            mediaStatus: wantsMedia ? "pending" : "none",
            chargedTenths: charged.chargedTenths,
            referenceKeys,
            createdAt: answerAt,
            updatedAt: answerAt,
          });
          if (wantsMedia) {
            await ctx.jobs.send(
              generateMediaJob,
              { messageId: assistantId, storyTitle: input.story?.title ?? null },
              { id: assistantId, tx },
            );
          }
        });
        return { result: storyText };
      } catch (error) {
        await discardUploadedInputs(ctx, referenceKeys);
        throw error;
      }
    },
  );
  return {
    success: true,
    quota_exceeded: false,
    story_text: storyText,
    message_id: assistantId,
    media_generation: {
      status: wantsMedia ? "started" : "none",
      type: wantsMedia ? (input.mode as "image" | "video") : null,
    },
    quota_info: paid.quotaInfo,
  };
}

export async function toChatMessage(ctx: Pick<AppContext, "storage">, row: MessageRow): Promise<ChatMessage> {
  const created = row.createdAt.toISOString();
  return {
    id: row.id,
    _id: row.id,
    message_id: row.id,
    role: row.role,
    content: row.content,
    timestamp: created,
    created_at: created,
    mode: row.mode,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
    media_status: row.mediaStatus,
    media_error: row.mediaError,
  };
}

/**
 * Media still pending past the turn's deadline (its job died on the last try, or the queue lost it) must
 * not hold the user's credits: the poll that notices fails it, refunds the media part and cancels the job.
 */
export async function mediaStatus(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "jobs" | "log">,
  userId: string,
  storyId: string | null | undefined,
  messageId: string,
): Promise<MediaStatus> {
  let row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row) throw new NotFound("Message not found");
  if (row.mediaStatus === "pending" && ctx.clock.now().getTime() >= mediaDeadline(row)) {
    await failMedia(ctx, row, MEDIA_TIMED_OUT_MESSAGE);
    // Read back: the job may have finished first, and then its media are the answer.
    row = (await findMessage(ctx.db, userId, storyId, messageId)) ?? row;
  }
  return {
    message_id: row.id,
    status: row.mediaStatus,
    media_generation_completed: row.mediaStatus === "completed",
    media_generation_failed: row.mediaStatus === "failed",
    media_generation_error: row.mediaError,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
  };
}

export async function conversation(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  storyId: string | null,
) {
  const rows = await allMessages(ctx.db, userId, storyId);
  return Promise.all(rows.map((row) => toChatMessage(ctx, row)));
}

/**
 * Deletes a story's messages. Media still being made for them will never reach the user (the job finds
 * its message gone and removes what it made), so their media part is refunded and their jobs cancelled, in
 * the caller's transaction. Refunds are keyed by message id: a job that failed first cannot double them.
 */
export async function deleteStoryConversation(
  ctx: Pick<AppContext, "db" | "clock" | "log" | "jobs" | "storage">,
  userId: string,
  storyId: string,
) {
  const pending = await pendingMessagesOfStory(ctx.db, userId, storyId);
  for (const message of pending) {
    await refundPaid(
      ctx,
      message,
      mediaPartTenths(message),
      message.id,
      "Refund: the story was deleted before its media was ready",
    );
    await ctx.jobs.cancel(generateMediaJob, message.id, { tx: ctx.db });
  }
  await deleteConversation(ctx.db, userId, storyId);
  await discardUploadedInputs(
    ctx,
    pending.flatMap((message) => message.referenceKeys),
  );
}

/** How many messages each story's conversation holds and when the newest was written. */
export async function conversationStats(ctx: Pick<AppContext, "db">, userId: string, storyIds: string[]) {
  return storyConversationStats(ctx.db, userId, storyIds);
}

/** A story's turns, oldest first, as stored (storage keys, not URLs): for exports and share pages. */
export type StoryTurn = Pick<
  MessageRow,
  "id" | "role" | "content" | "mode" | "mediaStatus" | "imageKey" | "videoKey" | "createdAt"
>;

export async function storyTurns(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<StoryTurn[]> {
  const rows = await allMessages(ctx.db, userId, storyId);
  return rows.map(({ id, role, content, mode, mediaStatus, imageKey, videoKey, createdAt }) => ({
    id,
    role,
    content,
    mode,
    mediaStatus,
    imageKey,
    videoKey,
    createdAt,
  }));
}
