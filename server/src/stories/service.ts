// Story rules: a story belongs to one user (anyone else gets a 404), deleting it removes its messages but
// never its media, and its card picture follows the newest media unless the user pinned a newer one.

import type { ChatMode } from "@storyverse/contract/chat";
import type { CreateStoryRequest, InputImage, Story, UpdateStoryRequest } from "@storyverse/contract/stories";
import { conversation, deleteStoryConversation, mediaStatus, sendTurn } from "../chat/service";
import type { AppContext } from "../context";
import { BadRequest, NotFound } from "../http/errors";
import { resolveInputImages } from "../media/inputs";
import { ownedKeyFromUrl, storyMedia } from "../media/service";
import { deleteStory, findStory, insertStory, listStories, type StoryWithStats, updateStory } from "./repo";

type StoriesContext = Pick<AppContext, "db" | "clock" | "storage" | "providers" | "jobs" | "log">;

async function toStory(ctx: Pick<AppContext, "storage">, row: StoryWithStats): Promise<Story> {
  const pinnedIsNewer =
    row.pinnedThumbnailKey !== null &&
    (row.newestMediaAt === null || (row.pinnedAt !== null && row.pinnedAt >= row.newestMediaAt));
  const thumbnailKey = pinnedIsNewer ? row.pinnedThumbnailKey : row.newestMediaKey;
  const lastUpdated =
    row.lastMessageAt && row.lastMessageAt > row.updatedAt ? row.lastMessageAt : row.updatedAt;
  return {
    id: row.id,
    _id: row.id,
    title: row.title,
    context: row.context,
    thumbnail: thumbnailKey ? await ctx.storage.signedUrl(thumbnailKey) : null,
    message_count: row.messageCount,
    last_updated: lastUpdated.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

async function ownStory(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<StoryWithStats> {
  const row = await findStory(ctx.db, userId, storyId);
  if (!row) throw new NotFound("Story not found");
  return row;
}

export async function list(ctx: StoriesContext, userId: string): Promise<Story[]> {
  const rows = await listStories(ctx.db, userId);
  return Promise.all(rows.map((row) => toStory(ctx, row)));
}

export async function create(ctx: StoriesContext, userId: string, input: { title: string; context: string }) {
  const row = await insertStory(ctx.db, {
    userId,
    title: input.title,
    context: input.context,
    at: ctx.clock.now(),
  });
  return toStory(ctx, await ownStory(ctx, userId, row.id));
}

export async function update(
  ctx: StoriesContext,
  userId: string,
  storyId: string,
  changes: { title?: string; context?: string; thumbnail?: string },
): Promise<Story> {
  await ownStory(ctx, userId, storyId);
  const now = ctx.clock.now();
  const values: Parameters<typeof updateStory>[3] = { updatedAt: now };
  if (changes.title !== undefined) values.title = changes.title;
  if (changes.context !== undefined) values.context = changes.context;
  if (changes.thumbnail !== undefined) {
    const key = await ownedKeyFromUrl(ctx, userId, changes.thumbnail);
    if (!key) throw new BadRequest("The thumbnail must be one of your own images.");
    values.pinnedThumbnailKey = key;
    values.pinnedAt = now;
  }
  await updateStory(ctx.db, userId, storyId, values);
  return toStory(ctx, await ownStory(ctx, userId, storyId));
}

export async function remove(ctx: StoriesContext, userId: string, storyId: string): Promise<void> {
  await ownStory(ctx, userId, storyId);
  await ctx.db.transaction(async (tx) => {
    await deleteStoryConversation({ db: tx as unknown as AppContext["db"] }, userId, storyId);
    await deleteStory(tx, userId, storyId);
  });
}

export async function messages(ctx: StoriesContext, userId: string, storyId: string) {
  await ownStory(ctx, userId, storyId);
  return conversation(ctx, userId, storyId);
}

export async function media(ctx: StoriesContext, userId: string, storyId: string) {
  await ownStory(ctx, userId, storyId);
  return storyMedia(ctx, userId, storyId);
}

export async function messageMediaStatus(
  ctx: StoriesContext,
  userId: string,
  storyId: string,
  messageId: string,
) {
  await ownStory(ctx, userId, storyId);
  return mediaStatus(ctx, userId, storyId, messageId);
}

export async function chat(
  ctx: StoriesContext,
  userId: string,
  storyId: string,
  input: { prompt: string; mode: ChatMode; inputImages: InputImage[] },
) {
  const story = await ownStory(ctx, userId, storyId);
  // Selected images only travel in image mode; they are checked before anything is charged.
  const referenceKeys =
    input.mode === "image" ? await resolveInputImages(ctx, userId, input.inputImages) : [];
  return sendTurn(ctx, {
    userId,
    storyId,
    story: { title: story.title, context: story.context },
    prompt: input.prompt,
    mode: input.mode,
    referenceKeys,
  });
}

export type { CreateStoryRequest, UpdateStoryRequest };
