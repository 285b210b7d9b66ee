// Story craft: retry with versions, edit, undo and continue on a story's conversation.
import { z } from "zod";
import { cameraSchema } from "./camera";
import {
  chatMessageSchema,
  chatModeSchema,
  MAX_INPUT_IMAGES,
  messageTextSchema,
  NARRATION_EDIT_MAX_LENGTH,
  PROMPT_MAX_LENGTH,
} from "./chat";
import { ASPECT_RATIOS, inputModeSchema, OUTPUT_LENGTHS } from "./generation-settings";
import { recalledExchangeSchema } from "./recall";
import { storyChatRequestSchema } from "./stories";

/** Retry and Continue take a story turn's options, without a prompt (the narrator has its words already). */
export const storyTurnOptionsSchema = storyChatRequestSchema.omit({ prompt: true }).nullish();
export type StoryTurnOptions = z.input<typeof storyTurnOptionsSchema>;

/** What a retry makes again: new words keeping the scene, a new scene for the same words, or both (the default). */
export const RETRY_WHATS = ["text", "media", "both"] as const;
export type RetryWhat = (typeof RETRY_WHATS)[number];
export const RETRY_WHAT_DETAIL = 'what must be "text" (new words), "media" (a new scene) or "both"';
export const retryWhatSchema = z.enum(RETRY_WHATS, { error: RETRY_WHAT_DETAIL });

/** Retry takes a turn's options and what to make again. */
export const storyRetryOptionsSchema = storyChatRequestSchema
  .omit({ prompt: true })
  .extend({ what: retryWhatSchema.optional() })
  .nullish();
export type StoryRetryOptions = z.input<typeof storyRetryOptionsSchema>;

/** An edit's words: up to NARRATION_EDIT_MAX_LENGTH; a player's line is held to PROMPT_MAX_LENGTH by the server. */
export const editMessageRequestSchema = z.object({
  content: messageTextSchema("content", NARRATION_EDIT_MAX_LENGTH),
});
export type EditMessageRequest = z.input<typeof editMessageRequestSchema>;

/**
 * PUT /api/stories/{id}/messages/{message_id}/media (decision 0163): the turn shows another picture or clip of
 * the same line: an edit of its picture (or an extension of its clip), or the one it was made from.
 */
export const turnMediaRequestSchema = z.object({
  gallery_item_id: z.uuid("gallery_item_id must be the id of a picture or clip in your Gallery"),
});
export type TurnMediaRequest = z.infer<typeof turnMediaRequestSchema>;
/** How far up and down a turn's media line the server looks (each edit is one step). */
export const TURN_MEDIA_LINE_MAX = 32;
export const NOT_THIS_TURNS_LINE_DETAIL =
  "This picture was not made from this turn's picture: a turn can show only an edit of its own picture, or the picture it was made from.";
export const TURN_HAS_NO_MEDIA_DETAIL = "This message has no picture or clip to replace.";

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

export const redoResponseSchema = z.object({
  success: z.literal(true),
  /** The messages that came back into the story, oldest first (their versions and media with them). */
  messages: z.array(chatMessageSchema),
});

export const redoStateSchema = z.object({
  success: z.literal(true),
  /** How many undone exchanges Redo can bring back now (0 once a new turn has ended Redo). */
  redoable: z.number().int().min(0),
});
export type RedoState = z.infer<typeof redoStateSchema>;

/**
 * A narrator message grown by Continue (the server stores it, the web shows it while the words arrive): a
 * sentence that stopped mid-way goes on in the same line, one that ended gets a new paragraph.
 */
export function carryOn(before: string, added: string): string {
  const start = before.trimEnd();
  const next = added.trim();
  if (!next) return start;
  if (!start) return next;
  if (/[.!?…"”’)\]*_]$/.test(start)) return `${start}\n\n${next}`;
  return /^[,;:.!?…]/.test(next) ? `${start}${next}` : `${start} ${next}`;
}

/** What the 409s say. */
export const NEWEST_ONLY_DETAIL = "Only the newest answer can be retried.";
export const STILL_WRITING_DETAIL = "The narrator is still writing. Please wait for the answer.";
/** A change to a message whose scene is still being painted waits for that message (other turns go on). */
export const STILL_PAINTING_DETAIL =
  "This message's scene is still being painted. Please wait until it is ready, then try again.";
export const NOTHING_TO_UNDO_DETAIL = "There is nothing to undo.";
export const NOTHING_TO_REDO_DETAIL =
  "There is nothing to redo: nothing was undone since the last turn (a new turn ends Redo).";
export const NOTHING_TO_CONTINUE_DETAIL = "There is no narrator answer to continue yet.";
export const SCENE_NEEDS_MEDIA_DETAIL =
  'A new scene needs chat_mode "image" or "video": a chat turn makes no scene.';

/** Room for an imported card's personality and example dialogue, each up to 32,000 characters (decision 0142). */
export const MEMORY_MAX_LENGTH = 65_000;
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
  /** The composer's Do / Say / Story: the prompt is shown as the narrator would read it. */
  input_mode: inputModeSchema.optional(),
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
  "recall",
  "summary",
  "history",
  "authors_note",
  "post_history_instructions",
  "prompt",
] as const;

/**
 * Why a Story Card is active: always on (constant), or a trigger found in the player's message or in a recent
 * message (`messages_back` 1 = the newest message before it), with the secondary keys that were also there
 * (AND logic) or that were missing (NOT logic).
 */
export const cardActivationReasonSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("constant") }),
  z.object({
    kind: z.literal("key"),
    key: z.string(),
    /** "your message", "1 message back", "2 messages back"... */
    where: z.string(),
    messages_back: z.number().int(),
    secondary: z.array(z.string()).optional(),
    without: z.array(z.string()).optional(),
  }),
]);
export type CardActivationReason = z.infer<typeof cardActivationReasonSchema>;

/** "What the narrator sees": the exact messages of the next turn and what each part of them costs. */
export const narratorContextResponseSchema = z.object({
  success: z.literal(true),
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  parts: z.array(z.object({ part: z.enum(CONTEXT_PARTS), tokens: z.number().int() })),
  /** Recent messages left out to fit the budget, oldest first. */
  dropped_messages: z.number().int(),
  /**
   * Stored texts sent only in part this turn to fit the budget (they stay whole in the story): how many of
   * their characters were sent (0: left out). Empty when everything fits.
   */
  cut_to_fit: z
    .array(
      z.object({
        part: z.enum(["context", "instructions", "post_history_instructions", "memory"]),
        kept_characters: z.number().int(),
        total_characters: z.number().int(),
      }),
    )
    .default([]),
  total_tokens: z.number().int(),
  budget_tokens: z.number().int(),
  /** The story's generation settings as the next turn uses them (the model and max tokens it sends). */
  generation: z.object({
    text_model: z.string(),
    max_tokens: z.number().int(),
    temperature: z.number(),
    output_length: z.enum(OUTPUT_LENGTHS),
    authors_note_depth: z.number().int(),
    input_mode: inputModeSchema,
    art_style: z.string(),
    aspect_ratio: z.enum(ASPECT_RATIOS),
  }),
  /**
   * The older exchanges the next turn recalls (pinned first, then the most relevant), each with its turn number
   * and why it was picked; `in_context` when it fits the recall share of the budget.
   */
  recalled: z.array(recalledExchangeSchema.extend({ in_context: z.boolean() })),
  /** The Story Cards the next turn wakes, the most recently mentioned first; `in_context` when they fit. */
  active_cards: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.string(),
      in_context: z.boolean(),
      /** Why it fired, and the same in words: `"Mara" in your message`, `always on`. */
      reason: cardActivationReasonSchema,
      because: z.string(),
      /** Active, but left out: the Story Cards' share of the budget (or the budget) was full. */
      dropped_for_budget: z.boolean(),
    }),
  ),
  /**
   * What the scene's painter would get, in order (at most 10): the player's selected images first, then the
   * active cards' portraits by most recent mention, then the player's persona's portrait. Empty in chat mode.
   */
  image_references: z.array(
    z.discriminatedUnion("source", [
      z.object({ source: z.literal("selected"), position: z.number().int() }),
      z.object({ source: z.literal("portrait"), card_id: z.string(), name: z.string(), url: z.string() }),
      /** The portrait of the persona the player plays (decision 0152), last. */
      z.object({ source: z.literal("persona"), name: z.string(), url: z.string() }),
    ]),
  ),
  /** What the camera sees: the painter's prompt for the next scene (its scene left as a placeholder). */
  camera: cameraSchema,
});
export type NarratorContext = z.infer<typeof narratorContextResponseSchema>;

/** A story's lore settings: the Story Cards' share of the narrator's budget, how far back triggers are searched. */
export const LORE_BUDGET_PERCENT_MIN = 5;
export const LORE_BUDGET_PERCENT_MAX = 90;
export const LORE_SCAN_DEPTH_MAX = 20;
/** A card's system prompt and post-history instructions, whole (a card field's 32,000 characters; decision 0142). */
export const NARRATOR_INSTRUCTIONS_MAX_LENGTH = 32_000;
export const POST_HISTORY_INSTRUCTIONS_MAX_LENGTH = 32_000;

const budgetPercentMessage = `lore_budget_percent must be a whole number from ${LORE_BUDGET_PERCENT_MIN} to ${LORE_BUDGET_PERCENT_MAX}`;
const scanDepthMessage = `lore_scan_depth must be a whole number from 0 to ${LORE_SCAN_DEPTH_MAX}`;

export const storyLoreSettingsSchema = z.object({
  /** The share of the narrator's context budget the Story Cards may take. */
  lore_budget_percent: z
    .number({ error: budgetPercentMessage })
    .int(budgetPercentMessage)
    .min(LORE_BUDGET_PERCENT_MIN, budgetPercentMessage)
    .max(LORE_BUDGET_PERCENT_MAX, budgetPercentMessage),
  /** How many of the newest messages are searched for triggers besides the player's (0: the player's only). */
  lore_scan_depth: z
    .number({ error: scanDepthMessage })
    .int(scanDepthMessage)
    .min(0, scanDepthMessage)
    .max(LORE_SCAN_DEPTH_MAX, scanDepthMessage),
  /** Replaces the narrator's default instructions when not empty; `{{original}}` inserts the default. */
  narrator_instructions: z
    .string({ error: "narrator_instructions must be text" })
    .max(
      NARRATOR_INSTRUCTIONS_MAX_LENGTH,
      `narrator_instructions must be at most ${NARRATOR_INSTRUCTIONS_MAX_LENGTH} characters`,
    ),
  /** Sent after the history, just before the player's message. */
  post_history_instructions: z
    .string({ error: "post_history_instructions must be text" })
    .max(
      POST_HISTORY_INSTRUCTIONS_MAX_LENGTH,
      `post_history_instructions must be at most ${POST_HISTORY_INSTRUCTIONS_MAX_LENGTH} characters`,
    ),
});
export type StoryLoreSettings = z.infer<typeof storyLoreSettingsSchema>;

/** PUT .../lore-settings: the fields sent are replaced, the others kept. */
export const storyLoreSettingsUpdateSchema = storyLoreSettingsSchema
  .partial()
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message:
      "Nothing to update: send lore_budget_percent, lore_scan_depth, narrator_instructions or post_history_instructions",
  });
export type StoryLoreSettingsUpdate = z.input<typeof storyLoreSettingsUpdateSchema>;

export const storyLoreSettingsResponseSchema = storyLoreSettingsSchema.extend({
  success: z.literal(true),
  /** An imported character card's notes for the player: shown, never sent to the narrator. */
  creator_notes: z.string(),
  /** The imported character's name, which `{{char}}` stands for ("" when the story has none). */
  character_name: z.string(),
});
export type StoryLoreSettingsResponse = z.infer<typeof storyLoreSettingsResponseSchema>;
