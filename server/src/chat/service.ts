// A chat turn (main chat or story): charge first, ask the narrator, store both messages, and queue the
// media job. The HTTP answer goes back as soon as the story text exists.
import { randomUUID } from "node:crypto";
import type { ChatMessage, ChatMode, ChatResponse, MediaStatus } from "@storyverse/contract/chat";
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import type { AppContext } from "../context";
import { charge, refund } from "../credits/service";
import { HttpError, NotFound } from "../http/errors";
import { urlFor } from "../media/service";
import { ProviderError } from "../providers/types";
import { failMedia, generateMediaJob, MEDIA_FAILED_MESSAGE } from "./media-job";
import { buildNarratorMessages, parseNarration, type StorySetting } from "./narration";
import {
  allMessages,
  deleteConversation,
  failIfPending,
  findMessage,
  insertMessage,
  type MessageRow,
  recentMessages,
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
  /** Storage keys of reference images (image mode only), already checked to be the user's. */
  referenceKeys: string[];
};

type TurnContext = Pick<AppContext, "db" | "clock" | "providers" | "jobs" | "log">;

export async function sendTurn(ctx: TurnContext, input: TurnInput): Promise<ChatResponse> {
  const paid = await charge(
    ctx.db,
    input.userId,
    input.mode,
    1,
    ctx.clock.now(),
    `${input.mode === "chat" ? "Chat" : input.mode === "image" ? "Story image" : "Story video"}: ${input.prompt.slice(0, 80)}`,
  );
  const history = await recentMessages(ctx.db, input.userId, input.storyId, HISTORY_WINDOW);

  let answer: string;
  try {
    answer = await ctx.providers.text.complete({
      messages: buildNarratorMessages(input.story, history, input.prompt),
      maxTokens: 900,
      temperature: 0.9,
    });
  } catch (error) {
    // Nothing was delivered: the whole charge goes back.
    await refund(
      ctx.db,
      input.userId,
      paid.chargedTenths,
      `text-refund:${randomUUID()}`,
      ctx.clock.now(),
      "Refund: the narrator did not answer",
    );
    ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "narrator failed");
    throw new ProviderUnavailable(
      error instanceof ProviderError ? error.message : "The narrator could not answer. Please try again.",
    );
  }

  const { storyText, scene } = parseNarration(answer, input.prompt);
  const wantsMedia = input.mode !== "chat";
  let assistantId: string | undefined;
  try {
    const userAt = ctx.clock.now();
    // The answer is stamped a millisecond later so ordering by time never puts it before its question.
    const answerAt = new Date(userAt.getTime() + 1);
    await insertMessage(ctx.db, {
      userId: input.userId,
      storyId: input.storyId,
      role: "user",
      content: input.prompt,
      mode: input.mode,
      createdAt: userAt,
      updatedAt: userAt,
    });
    const assistant = await insertMessage(ctx.db, {
      userId: input.userId,
      storyId: input.storyId,
      role: "assistant",
      content: storyText,
      mode: input.mode,
      sceneDescription: scene,
      mediaStatus: wantsMedia ? "pending" : "none",
      chargedTenths: paid.chargedTenths,
      referenceKeys: input.mode === "image" ? input.referenceKeys : [],
      createdAt: answerAt,
      updatedAt: answerAt,
    });
    assistantId = assistant.id;
    if (wantsMedia) {
      await ctx.jobs.send(generateMediaJob, {
        messageId: assistant.id,
        storyTitle: input.story?.title ?? null,
      });
    }
  } catch (error) {
    // Whatever broke after the charge, the user gets everything back and no message waits forever.
    if (assistantId) await failIfPending(ctx.db, assistantId, MEDIA_FAILED_MESSAGE, ctx.clock.now());
    await refund(
      ctx.db,
      input.userId,
      paid.chargedTenths,
      `turn-refund:${randomUUID()}`,
      ctx.clock.now(),
      "Refund: the turn could not be saved",
    );
    throw error;
  }
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
 * A media job that never reported back (its worker died on the last try, or the queue lost it) must not
 * leave a message pending forever with the user's credits held: after this long it counts as timed out.
 */
export const MEDIA_STALE_MS = 45 * 60 * 1000;
export const MEDIA_TIMED_OUT_MESSAGE = "Media generation timed out. Please try again.";

export async function mediaStatus(
  ctx: Pick<AppContext, "db" | "storage" | "clock">,
  userId: string,
  storyId: string | null | undefined,
  messageId: string,
): Promise<MediaStatus> {
  let row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row) throw new NotFound("Message not found");
  if (row.mediaStatus === "pending" && ctx.clock.now().getTime() - row.updatedAt.getTime() > MEDIA_STALE_MS) {
    await failMedia(ctx, row, MEDIA_TIMED_OUT_MESSAGE);
    row = { ...row, mediaStatus: "failed", mediaError: MEDIA_TIMED_OUT_MESSAGE };
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

export async function deleteStoryConversation(ctx: Pick<AppContext, "db">, userId: string, storyId: string) {
  await deleteConversation(ctx.db, userId, storyId);
}
