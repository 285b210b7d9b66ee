// Story craft: retry with versions, edit, undo and continue on a story's conversation.
import { z } from "zod";
import {
  chatMessageSchema,
  chatModeSchema,
  MAX_INPUT_IMAGES,
  messageTextSchema,
  PROMPT_MAX_LENGTH,
} from "./chat";
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

export const MEMORY_MAX_LENGTH = 2000;
export const AUTHORS_NOTE_MAX_LENGTH = 500;

/** A story's Memory (always at the top of the narrator's context) and Author's Note (just before the newest messages). */
export const storyMemorySchema = z.object({
  memory: z
    .string({ error: "memory is required" })
    .max(MEMORY_MAX_LENGTH, `memory must be at most ${MEMORY_MAX_LENGTH} characters`),
  authors_note: z
    .string({ error: "authors_note is required" })
    .max(AUTHORS_NOTE_MAX_LENGTH, `authors_note must be at most ${AUTHORS_NOTE_MAX_LENGTH} characters`),
});
export type StoryMemory = z.infer<typeof storyMemorySchema>;

/** The rolling summary of the turns that left the narrator's window (written by a background job). */
export const SUMMARY_MAX_LENGTH = 2000;
/** A summary is (re)written once at least this many messages left the window since the last one. */
export const SUMMARY_MIN_NEW_MESSAGES = 4;
const summarySchema = z
  .string({ error: "summary must be text" })
  .max(SUMMARY_MAX_LENGTH, `summary must be at most ${SUMMARY_MAX_LENGTH} characters`);

/** PUT .../memory: `summary` is optional, so the calls written before it existed keep working. */
export const storyMemoryUpdateSchema = storyMemorySchema.extend({ summary: summarySchema.optional() });
export type StoryMemoryUpdate = z.input<typeof storyMemoryUpdateSchema>;
export const storyMemoryResponseSchema = storyMemorySchema.extend({
  success: z.literal(true),
  /** The story so far, as the narrator sees it after the Memory and the cards; the player may correct it. */
  summary: z.string(),
  /** When the summary last changed (by the job or the player); null before the story outgrew the window. */
  summary_updated_at: z.string().nullable(),
  /** How many of the story's earliest messages the summary covers. */
  summary_covers_messages: z.number().int(),
});

export const narratorContextQuerySchema = z.object({
  prompt: z
    .string()
    .trim()
    .max(PROMPT_MAX_LENGTH, `Messages are limited to ${PROMPT_MAX_LENGTH} characters`)
    .optional(),
  chat_mode: chatModeSchema.optional(),
  /** How many images the player has selected for the next turn (they go to the painter before portraits). */
  selected_images: z.coerce
    .number({ error: `selected_images must be a whole number from 0 to ${MAX_INPUT_IMAGES}` })
    .int(`selected_images must be a whole number from 0 to ${MAX_INPUT_IMAGES}`)
    .min(0, `selected_images must be a whole number from 0 to ${MAX_INPUT_IMAGES}`)
    .max(MAX_INPUT_IMAGES, `selected_images must be a whole number from 0 to ${MAX_INPUT_IMAGES}`)
    .optional(),
});

export const CONTEXT_PARTS = [
  "instructions",
  "memory",
  "cards",
  "summary",
  "history",
  "authors_note",
  "prompt",
] as const;

/** "What the narrator sees": the exact messages of the next turn and what each part of them costs. */
export const narratorContextResponseSchema = z.object({
  success: z.literal(true),
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  parts: z.array(z.object({ part: z.enum(CONTEXT_PARTS), tokens: z.number().int() })),
  /** Recent messages left out to fit the budget, oldest first. */
  dropped_messages: z.number().int(),
  total_tokens: z.number().int(),
  budget_tokens: z.number().int(),
  /** The Story Cards the next turn wakes, the most recently mentioned first; `in_context` when they fit. */
  active_cards: z.array(
    z.object({ id: z.string(), name: z.string(), kind: z.string(), in_context: z.boolean() }),
  ),
  /**
   * What the scene's painter would get, in order (at most 10): the player's selected images first, then the
   * active cards' portraits by most recent mention. Empty in chat mode (no scene).
   */
  image_references: z.array(
    z.discriminatedUnion("source", [
      z.object({ source: z.literal("selected"), position: z.number().int() }),
      z.object({ source: z.literal("portrait"), card_id: z.string(), name: z.string(), url: z.string() }),
    ]),
  ),
});
export type NarratorContext = z.infer<typeof narratorContextResponseSchema>;
