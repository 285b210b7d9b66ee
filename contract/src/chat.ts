// The main chat and its media: turns, history, media status and voice transcription.
import { z } from "zod";
import { quotaInfoSchema } from "./credits";

export const PROMPT_MAX_LENGTH = 4000;
/**
 * A narrator's answer can outgrow what a player types (a long output, continued several times): edited in place
 * it may hold up to this many characters; a player's own line keeps PROMPT_MAX_LENGTH.
 */
export const NARRATION_EDIT_MAX_LENGTH = 32_000;
export const MAX_INPUT_IMAGES = 10;
export const MIN_BATCH_SIZE = 1;
export const MAX_BATCH_SIZE = 4;
/** The narrator sees this many earlier messages. */
export const HISTORY_WINDOW = 20;

/** What a failed media turn says, on the message (server) and under it (web). */
export const MEDIA_FAILED_MESSAGE = "Media generation failed. Please try again.";
/** What a media turn says when it never finished: the server gave up on it, or the web stopped polling. */
export const MEDIA_TIMED_OUT_MESSAGE = "Media generation timed out. Please try again.";
/** The client polls a message's media first after 2 s, then every 10 s, 60 times at most, then gives up. */
export const MEDIA_FIRST_POLL_DELAY_MS = 2_000;
export const MEDIA_POLL_INTERVAL_MS = 10_000;
export const MEDIA_MAX_POLL_ATTEMPTS = 60;
/** When the client's last media-status poll happens, counted from the turn's answer (592 s). */
export const MEDIA_CLIENT_GIVE_UP_MS =
  MEDIA_FIRST_POLL_DELAY_MS + (MEDIA_MAX_POLL_ATTEMPTS - 1) * MEDIA_POLL_INTERVAL_MS;
/**
 * The server settles every turn's media this long after the turn (delivered, or failed and refunded), a
 * margin before the client's last poll, so the client always hears the outcome instead of giving up.
 */
export const MEDIA_DEADLINE_MS = 9 * 60 * 1000;

export const chatModeSchema = z.enum(["chat", "image", "video"], {
  error: "chat_mode must be one of chat, image or video",
});
export type ChatMode = z.infer<typeof chatModeSchema>;

/** A player's message: what they send as a prompt, and what an edited message may become. */
export const messageTextSchema = (field: string, maxLength = PROMPT_MAX_LENGTH) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, "Please type a message first")
    .max(maxLength, `Messages are limited to ${maxLength} characters`);

export const chatRequestSchema = z.object({
  prompt: messageTextSchema("prompt"),
  generate_video: z.boolean().optional(),
  chat_mode: chatModeSchema.optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

export const mediaGenerationSchema = z.object({
  status: z.enum(["started", "none"]),
  type: z.enum(["image", "video"]).nullable(),
});

/**
 * What shaped a narrator message of a story (docs/decisions/0105): the Story Cards that went into the narrator's
 * context (and whether each one's portrait was sent to paint the scene), whether the story's Memory and the
 * rolling summary went in, and how many images the scene was painted from (the player's plus portraits).
 */
export const shapedBySchema = z.object({
  cards: z.array(z.object({ id: z.string(), name: z.string(), portrait_used: z.boolean() })),
  memory: z.boolean(),
  summary: z.boolean(),
  references: z.number().int().min(0),
  /** The older turns recalled into its context (recall), by turn number; absent before recall was recorded. */
  recalled: z.array(z.number().int()).optional(),
});
export type ShapedBy = z.infer<typeof shapedBySchema>;

const shapedByField = shapedBySchema
  .optional()
  .describe(
    "A story's narrator message: what shaped it. Absent on the player's messages, the main chat's and " +
      "messages written before it was recorded",
  );

/**
 * Who spoke a narrator message (decision 0154): the card a character teller played, by the name it had then;
 * null: the narrator (and the player's own messages).
 */
export const messageSpeakerSchema = z
  .object({ card_id: z.string(), name: z.string() })
  .nullable()
  .describe("The story card that spoke this narrator message in character mode; null: the narrator");
export type MessageSpeaker = z.infer<typeof messageSpeakerSchema>;

export const chatResponseSchema = z.object({
  success: z.literal(true),
  quota_exceeded: z.literal(false),
  story_text: z.string(),
  message_id: z.string(),
  /** The player's message of this turn as stored (none for a retry or continue). */
  user_message_id: z.string().optional(),
  media_generation: mediaGenerationSchema,
  quota_info: quotaInfoSchema,
  stopped: z
    .boolean()
    .optional()
    .describe("Present and true when the player stopped the narrator: the text so far, no media"),
  shaped_by: shapedByField,
  speaker: messageSpeakerSchema.optional(),
  next_speakers: z
    .array(z.object({ card_id: z.string(), name: z.string() }))
    .optional()
    .describe(
      'A group scene in "all" order (decision 0164): who answers next, in order; ask continue with each one\'s speaker_id in turn',
    ),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;

export const mediaStatusSchema = z.object({
  message_id: z.string(),
  status: z.enum(["none", "pending", "completed", "failed"]),
  media_generation_completed: z.boolean(),
  media_generation_failed: z.boolean(),
  media_generation_error: z.string().nullable(),
  image_url: z.string().nullable(),
  video_url: z.string().nullable(),
});
export type MediaStatus = z.infer<typeof mediaStatusSchema>;

export const chatMessageSchema = z.object({
  id: z.string(),
  _id: z.string(),
  message_id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  timestamp: z.string(),
  created_at: z.string(),
  mode: chatModeSchema.nullable(),
  image_url: z.string().nullable(),
  video_url: z.string().nullable(),
  media_status: z.enum(["none", "pending", "completed", "failed"]),
  media_error: z.string().nullable(),
  /** A retried narrator answer: which of its versions this is (from 1), and how many there are. */
  version: z.number().int().optional(),
  version_count: z.number().int().optional(),
  stopped: z.boolean().optional().describe("Present and true when the player stopped the narrator here"),
  shaped_by: shapedByField,
  speaker: messageSpeakerSchema.optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/**
 * A story's messages a page at a time (GET /api/stories/{id}/messages, decision 0130; the main chat's,
 * GET /api/chat/history, the same way: decision 0138): the newest page first,
 * `next_cursor` reaching older pages; each page's messages in reading order (oldest first). `around` opens a
 * page centred on one message (a checkpoint); `after` reads on towards the newest from such a page.
 */
export const MESSAGES_PAGE_DEFAULT = 50;
export const MESSAGES_PAGE_MAX = 200;
const messagesLimitError = `limit must be a whole number from 1 to ${MESSAGES_PAGE_MAX}`;
/** At most one of before, after and around (the server says so with a 400 otherwise). */
export const storyMessagesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: messagesLimitError })
    .int(messagesLimitError)
    .min(1, messagesLimitError)
    .max(MESSAGES_PAGE_MAX, messagesLimitError)
    .default(MESSAGES_PAGE_DEFAULT),
  /** next_cursor of a page: the messages older than it. Opaque: do not build one. */
  before: z.string().max(200).optional(),
  /** newer_cursor of a page: the messages newer than it (after a jump). Opaque. */
  after: z.string().max(200).optional(),
  /** A message id: the page around it (about half before it, itself and the rest after it). */
  around: z.uuid("around must be a message id").optional(),
});
export type StoryMessagesQuery = z.input<typeof storyMessagesQuerySchema>;

export const messagePageSchema = z.object({
  success: z.literal(true),
  /** The page, oldest first. */
  messages: z.array(chatMessageSchema),
  // The paging fields default to "the whole story" (absent from servers before paging, as the story list's).
  /** Older messages exist: pass next_cursor as before to read them. */
  has_more: z.boolean().default(false),
  next_cursor: z.string().nullable().default(null),
  /** Newer messages exist (a page read around or after a message): pass newer_cursor as after. */
  has_newer: z.boolean().default(false),
  newer_cursor: z.string().nullable().default(null),
  /** Narrator messages the story shows before this page: its first narrator message is turn turns_before + 1. */
  turns_before: z.number().int().min(0).default(0),
});
export type MessagePage = z.infer<typeof messagePageSchema>;

export const videoStatusSchema = z.object({
  task_id: z.string(),
  status: z.enum(["processing", "completed", "error"]),
  video_url: z.string().nullable(),
  error: z.string().nullable(),
});

export const transcriptionResponseSchema = z.object({
  success: z.boolean(),
  text: z.string(),
  error: z.string().nullable(),
});
export const NO_SPEECH_MESSAGE = "No speech detected in the audio. Please try speaking more clearly.";
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

/** Under a narrator's message the player stopped. */
export const STOPPED_NOTE = "Stopped: only the text was charged.";

/**
 * The chat calls answer as a text/event-stream when asked (Accept: text/event-stream): a group scene's turn
 * first says who speaks (`speaker`, decision 0164), then `delta` events with the story text as it is written,
 * then `done` (exactly the JSON answer) or `error` (what the JSON call would have answered: its status and body).
 */
export const chatSpeakerEventSchema = z.object({ card_id: z.string(), name: z.string() });
export type ChatSpeakerEvent = z.infer<typeof chatSpeakerEventSchema>;
export const chatDeltaEventSchema = z.object({ text: z.string() });
export const chatErrorEventSchema = z.object({
  status: z.number(),
  detail: z.string(),
  quota_exceeded: z.boolean().optional(),
  quota_info: quotaInfoSchema.optional(),
});
export type ChatErrorEvent = z.infer<typeof chatErrorEventSchema>;
