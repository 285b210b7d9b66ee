// Story craft: retry with versions, edit, undo and continue on a story's conversation.
import { z } from "zod";
import { chatMessageSchema, messageTextSchema } from "./chat";
import { storyChatRequestSchema } from "./stories";

/** Retry and Continue take a story turn's options, without a prompt (the narrator has its words already). */
export const storyTurnOptionsSchema = storyChatRequestSchema.omit({ prompt: true }).nullish();
export type StoryTurnOptions = z.input<typeof storyTurnOptionsSchema>;

export const editMessageRequestSchema = z.object({ content: messageTextSchema("content") });
export type EditMessageRequest = z.input<typeof editMessageRequestSchema>;

export const messageResponseSchema = z.object({ success: z.literal(true), message: chatMessageSchema });

export const messageVersionSchema = chatMessageSchema.extend({
  /** The version the story shows (and the narrator sees). */
  selected: z.boolean(),
});
export const messageVersionsResponseSchema = z.object({
  success: z.literal(true),
  versions: z.array(messageVersionSchema),
});

export const undoResponseSchema = z.object({
  success: z.literal(true),
  /** The messages that left the story (their media stay in the gallery). */
  removed_message_ids: z.array(z.string()),
});

/** What the 409s say. */
export const NEWEST_ONLY_DETAIL = "Only the newest answer can be retried.";
export const STILL_WRITING_DETAIL = "The narrator is still writing. Please wait for the answer.";
export const STILL_PAINTING_DETAIL = "The newest scene is still being made. Please wait until it is ready.";
export const NOTHING_TO_UNDO_DETAIL = "There is nothing to undo.";
