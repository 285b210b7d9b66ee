// The Drizzle schema: every table of every module, one migration set for PGlite and PostgreSQL.
// Each table belongs to the module named in its comment; other modules reach it through that module's service.
import type { ShapedBy } from "@storyverse/contract/chat";
import type { SpeechSegment } from "@storyverse/contract/voice";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** newsletter: addresses left in the landing page's email capture box. */
export const newsletterSignups = pgTable("newsletter_signups", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** accounts: people who sign in. Email and username are unique without regard to case. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** admin: what the account may do (decision 0140). */
    role: text("role", { enum: ["player", "admin"] })
      .notNull()
      .default("player"),
    /** admin: set while an administrator has disabled the account (no sign-in, no session). */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** admin: the account's own spending caps in tenths; empty takes the install's default (usage_caps). */
    dailyCapTenths: integer("daily_cap_tenths"),
    monthlyCapTenths: integer("monthly_cap_tenths"),
    /** admin: an administrator required a new password (decision 0150); the mailed reset link clears it. */
    passwordResetRequiredAt: timestamp("password_reset_required_at", { withTimezone: true }),
    /** The interface language the player chose (decision 0155): the web app and the mails follow it; null: none yet. */
    locale: text("locale"),
  },
  (t) => [
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_lower_unique").on(sql`lower(${t.username})`),
    check("users_role_check", sql`${t.role} in ('player', 'admin')`),
  ],
);

/** accounts: bearer sessions, stored as SHA-256 of the token; sliding expiry. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** accounts: single-use links sent by mail (verify email, reset password), stored hashed. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify_email", "reset_password"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("email_tokens_user_idx").on(t.userId, t.purpose)],
);

/** credits: one balance per user in tenths of a credit (0.5 = 5); -1 means unlimited. */
export const creditAccounts = pgTable(
  "credit_accounts",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    balanceTenths: integer("balance_tenths").notNull(),
    unlimited: boolean("unlimited").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("credit_accounts_balance_non_negative", sql`${t.balanceTenths} >= 0`)],
);

/** credits: the append-only ledger; every balance change writes one row in the same transaction. */
export const creditTransactions = pgTable(
  "credit_transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    transactionType: text("transaction_type").notNull(),
    amountTenths: integer("amount_tenths").notNull(),
    /** How many of the kind a charge paid for (a Studio batch of 4 images is 4); 1 for other rows. */
    quantity: integer("quantity").notNull().default(1),
    balanceAfterTenths: integer("balance_after_tenths").notNull(),
    /**
     * Idempotency key, e.g. a payment session id: a purchase is granted once. A charge made through payFor
     * is `charge:<id>` and its refund `refund:<id>`, so activity can tell what a refund gave back.
     */
    reference: text("reference").unique(),
    description: text("description").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("credit_transactions_user_idx").on(t.userId, t.createdAt),
    index("credit_transactions_created_idx").on(t.createdAt),
  ],
);

/**
 * credits: charges whose work has not been delivered yet. Written with the charge, removed in the
 * transaction that delivers (or after the refund); a row that outlives its process (kill -9 between the
 * charge and the delivery) is refunded by the worker's sweep, so no charge is ever left without an outcome.
 */
export const unsettledCharges = pgTable(
  "unsettled_charges",
  {
    /** The id of what was paid for (a message or batch); its refund is keyed `refund:<paid_for>`. */
    paidFor: text("paid_for").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What goes back if the work is never settled: the whole charge, or after delivery what it lacked. */
    refundTenths: integer("refund_tenths").notNull(),
    /** True once the work was delivered; only the undelivered part is still owed. */
    delivered: boolean("delivered").notNull().default(false),
    description: text("description").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("unsettled_charges_created_idx").on(t.createdAt)],
);

/** chat: every turn of the main chat (story_id null) and of stories. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * A turn can never outlive its story: a turn committing after its story was deleted fails here (and is
     * refunded), instead of leaving charged, painted rows that belong to nothing.
     */
    storyId: uuid("story_id").references(() => stories.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    mode: text("mode", { enum: ["chat", "image", "video"] }),
    /** The narrator's one-paragraph description of the scene, which the image model draws. */
    sceneDescription: text("scene_description"),
    mediaStatus: text("media_status", { enum: ["none", "pending", "completed", "failed"] })
      .notNull()
      .default("none"),
    mediaError: text("media_error"),
    imageKey: text("image_key"),
    videoKey: text("video_key"),
    /** What the turn cost, in tenths, so a media failure refunds exactly the right amount. */
    chargedTenths: integer("charged_tenths").notNull().default(0),
    /** Storage keys of reference images sent with the turn (selected story images, inputs). */
    referenceKeys: text("reference_keys").array().notNull().default(sql`'{}'::text[]`),
    /**
     * Retry versions of one narrator answer share a group: the id of the first version (null on the first
     * version itself, and on every message never retried). Only the shown version of a group is part of
     * the story (the list, the narrator's context, exports); the others wait to be switched back to.
     */
    versionGroup: uuid("version_group"),
    versionNumber: integer("version_number").notNull().default(1),
    hidden: boolean("hidden").notNull().default(false),
    /**
     * Undone by the player (Undo): the exchange's shown messages are hidden and carry the undo's place on the
     * story's Redo stack (1 the oldest undo); null for every message in the story. Redo shows the highest
     * again; the next turn deletes them all.
     */
    undoStep: integer("undo_step"),
    /** A new scene for the same words (Retry "New scene"): its whole charge paid for the media. */
    sceneOnly: boolean("scene_only").notNull().default(false),
    /** The player stopped the narrator: the text so far was kept, only its text part charged, no media. */
    stopped: boolean("stopped").notNull().default(false),
    /**
     * What shaped a story's narrator message (the cards, Memory, summary and reference images its turn sent;
     * docs/decisions/0105). Null on the player's messages, the main chat's and those written before 0019.
     */
    shapedBy: jsonb("shaped_by").$type<ShapedBy>(),
    /**
     * Who spoke a narrator message written in character mode (decision 0154): the card and its name as it was;
     * null: the narrator (and every player's message).
     */
    speaker: jsonb("speaker").$type<{ card_id: string; name: string }>(),
    /**
     * The characters present when the message was written (decision 0165): a group's present cards (muted
     * ones too), a character teller's card; null: the narrator's, seen by everyone.
     */
    present: jsonb("present").$type<PresentCharacter[]>(),
    /** A checkpoint's name on this exchange's narrator message ("Before the duel"); null when not named. */
    checkpoint: text("checkpoint"),
    /**
     * A branch's copy of an earlier branch's message (decision 0114): the message it was copied from, first
     * of the line. A late picture or clip of that message reaches its copies too.
     */
    copiedFrom: uuid("copied_from"),
    /**
     * The order rows were written in (a sequence, migration 0038): a branch shares its ancestors' rows up to a
     * seq (decision 0137), which created_at cannot say (a later retry version carries its exchange's time).
     */
    seq: bigint("seq", { mode: "number" }).notNull().default(sql`nextval('chat_messages_seq')`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("chat_messages_user_story_idx").on(t.userId, t.storyId, t.createdAt),
    // Recall's turn numbers count these (migration 0026); it carries `seq` too (INCLUDE, migration 0066, which
    // drizzle cannot say here), so a shared branch counts each lineage level's up to its cut from the index alone.
    index("chat_messages_narrator_idx")
      .on(t.userId, t.storyId, t.createdAt, t.id)
      .where(sql`${t.role} = 'assistant' and ${t.hidden} = false`),
    index("chat_messages_version_group_idx").on(t.versionGroup),
    index("chat_messages_copied_from_idx").on(t.copiedFrom),
    // A branch's share of an ancestor's rows, and the rows written after a cut (migration 0038).
    index("chat_messages_seq_idx").on(t.userId, t.storyId, t.seq),
    // A story's Redo stack and its newest picture without reading its whole history (migration 0037).
    index("chat_messages_undone_idx")
      .on(t.userId, t.storyId, t.undoStep)
      .where(sql`${t.undoStep} is not null`),
    index("chat_messages_pictured_idx")
      .on(t.userId, t.storyId, t.createdAt, t.id)
      .where(sql`${t.imageKey} is not null`),
    // A story's checkpoints without numbering its whole history (migration 0062).
    index("chat_messages_checkpoint_idx").on(t.userId, t.storyId).where(sql`${t.checkpoint} is not null`),
  ],
);

/**
 * chat: the branches whose recall index is to be walked from their start (decision 0166): a copy of messages
 * (copy-on-write, or a copied history) marks the branch that received it, as its copies carry no vectors; the
 * branch's next indexing job walks it and clears the mark.
 */
export const recallWalksDue = pgTable("recall_walks_due", {
  storyId: uuid("story_id")
    .primaryKey()
    .references(() => stories.id, { onDelete: "cascade" }),
  /** How many copies marked it since its last walk: the job clears only the mark it read. */
  marks: integer("marks").notNull().default(1),
});

/**
 * chat: the turns being written now, on any process (conversation/turn-lock.ts): Retry, Continue and Undo wait for a
 * conversation's. A row is removed when its turn ends; while the turn writes its process refreshes
 * `started_at` every 10 s (the last sign of life), so one a killed process left stops counting 45 s after its
 * last beat and is swept by a later turn.
 */
export const turnsInFlight = pgTable(
  "turns_in_flight",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The story's (the branch's) id; null for the main chat. */
    storyId: uuid("story_id"),
    /** When the turn started, then its process's last beat (turn-lock.ts). */
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("turns_in_flight_user_idx").on(t.userId, t.storyId)],
);

/**
 * chat: recall marks (issue #29): the player pinned an older exchange (it is always recalled) or forgot it
 * (never recalled again). Keyed by the exchange's narrator message. The text search itself runs over
 * chat_messages.search, a generated tsvector column with its GIN index that migration 0022 adds by hand
 * (kept out of this schema so that reading messages never carries it).
 */
export const recallMarks = pgTable(
  "recall_marks",
  {
    messageId: uuid("message_id")
      .primaryKey()
      .references(() => chatMessages.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    pinned: boolean("pinned").notNull().default(false),
    forgotten: boolean("forgotten").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("recall_marks_story_idx").on(t.storyId),
    // Recall starts from the player's few pins, not from every older message of a long story (migration 0061).
    index("recall_marks_pinned_idx").on(t.userId).where(sql`${t.pinned}`),
  ],
);

/** media: every generated file, the gallery. Survives the deletion of its story (the title is kept). */
export const mediaItems = pgTable(
  "media_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["image", "video"] }).notNull(),
    storageKey: text("storage_key").notNull().unique(),
    thumbnailKey: text("thumbnail_key"),
    mimeType: text("mime_type").notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width"),
    height: integer("height"),
    source: text("source", { enum: ["main_chat", "story", "studio"] }).notNull(),
    storyId: uuid("story_id"),
    storyTitle: text("story_title"),
    messageId: uuid("message_id"),
    description: text("description").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** The player marked it a favourite in the Gallery (decision 0141). */
    favourite: boolean("favourite").notNull().default(false),
    /** The seed it was made with (decision 0145); null: not recorded. */
    seed: bigint("seed", { mode: "number" }),
    /** The picture an edit was made from (decision 0145); null when not an edit or the parent was deleted. */
    parentId: uuid("parent_id").references((): AnyPgColumn => mediaItems.id, { onDelete: "set null" }),
    /** A clip's length in seconds (decision 0160); null: a picture, or a clip made before it was recorded. */
    durationSeconds: doublePrecision("duration_seconds"),
  },
  (t) => [
    index("media_items_user_created_idx").on(t.userId, t.createdAt),
    index("media_items_parent_idx").on(t.parentId),
    // A video's poster is its scene picture's key: a deleted picture's videos are found by it.
    index("media_items_thumbnail_key_idx").on(t.thumbnailKey),
    // The Gallery's filters (decision 0141): favourites, and one story's items, newest first.
    index("media_items_favourite_idx").on(t.userId, t.createdAt, t.id).where(sql`${t.favourite}`),
    index("media_items_user_story_idx").on(t.userId, t.storyId, t.createdAt),
  ],
);

/**
 * media: a clip being made from a picture (animate) or a clip made longer (extend), decision 0160. Charged when
 * queued; pending until its job (or its deadline) ends it once: completed with the new item, or failed and
 * refunded in the same transaction.
 */
export const mediaClipJobs = pgTable(
  "media_clip_jobs",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["animate", "extend"] }).notNull(),
    status: text("status", { enum: ["pending", "completed", "failed"] })
      .notNull()
      .default("pending"),
    /** The picture or clip it is made from (kept as an id: the job fails if that item is deleted meanwhile). */
    parentId: uuid("parent_id").notNull(),
    /** animate: the picture the clip ends on. */
    lastFrameId: uuid("last_frame_id"),
    camera: text("camera").notNull().default("still"),
    prompt: text("prompt").notNull(),
    /** The new clip's length in seconds. */
    durationSeconds: doublePrecision("duration_seconds").notNull(),
    /** What it was charged (tenths): a failure refunds all of it, keyed by the job id. */
    chargedTenths: integer("charged_tenths").notNull().default(0),
    /** The new clip, once completed (null again if the player deletes it). */
    itemId: uuid("item_id").references(() => mediaItems.id, { onDelete: "set null" }),
    /** Why it failed (shown to the player). */
    detail: text("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [index("media_clip_jobs_user_idx").on(t.userId, t.createdAt)],
);

/** media: the player's Gallery boards (decision 0141); a name is unique per player, case-insensitively. */
export const mediaBoards = pgTable(
  "media_boards",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("media_boards_user_name_unique").on(t.userId, sql`lower(${t.name})`)],
);

/** media: which gallery items a board holds (an item may be in several); gone with the item or the board. */
export const mediaBoardItems = pgTable(
  "media_board_items",
  {
    boardId: uuid("board_id")
      .notNull()
      .references(() => mediaBoards.id, { onDelete: "cascade" }),
    mediaId: uuid("media_id")
      .notNull()
      .references(() => mediaItems.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.boardId, t.mediaId] }),
    index("media_board_items_media_idx").on(t.mediaId),
  ],
);

/**
 * media: every object an account owns in media storage (key "u/<userId>/..."), with its size: what the
 * storage quota counts (decision 0122). Written by the metered store beside each put, removed with the object.
 */
export const mediaObjects = pgTable(
  "media_objects",
  {
    key: text("key").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("media_objects_user_idx").on(t.userId),
    // The orphaned media sweep's cursor (media/orphan-sweep.ts).
    index("media_objects_created_idx").on(t.createdAt, t.key),
  ],
);

/**
 * media: each account's stored bytes (the sum of its media_objects, kept with them so a read is one lookup)
 * and its own quota in MB when an administrator set one (null: the install's MEDIA_QUOTA_MB; 0: unlimited).
 */
export const mediaStorage = pgTable(
  "media_storage",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    usedBytes: bigint("used_bytes", { mode: "number" }).notNull().default(0),
    quotaMb: integer("quota_mb"),
  },
  (t) => [check("media_storage_quota_non_negative", sql`${t.quotaMb} >= 0`)],
);

/** stories: named adventures; their messages live in chat_messages (story_id), their media in media_items. */
export const stories = pgTable(
  "stories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    context: text("context").notNull().default(""),
    /** A picture the user pinned; newer media replaces it on the card. */
    pinnedThumbnailKey: text("pinned_thumbnail_key"),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    /** Always at the top of the narrator's context (up to 2,000 characters). */
    memory: text("memory").notNull().default(""),
    /** Style or direction, just before the newest messages (up to 500 characters). */
    authorsNote: text("authors_note").notNull().default(""),
    /** The story so far: a summary of the messages that left the narrator's window (the summary job's). */
    summary: text("summary").notNull().default(""),
    /** The time of the newest message the summary covers; null before the first summary. */
    summaryThrough: timestamp("summary_through", { withTimezone: true }),
    summaryUpdatedAt: timestamp("summary_updated_at", { withTimezone: true }),
    /**
     * How many messages the summary has folded (migration 0063), added to by each summary step; null where it was
     * never counted (counted once when the Memory panel asks). An undone message stays counted: the summary still
     * tells it.
     */
    summaryCovers: integer("summary_covers"),
    /**
     * The characters present for every message the summary folds (decision 0165); null: all of them were
     * seen by everyone. A group speaker outside it is not told the summary when the story keeps to what each saw.
     */
    summaryWitnesses: jsonb("summary_witnesses").$type<PresentCharacter[]>(),
    /** Replaces the default narrator instructions when set (an imported card's system_prompt); `{{original}}` = the default. */
    narratorInstructions: text("narrator_instructions").notNull().default(""),
    /** Sent as a system message after the history, just before the player's message. */
    postHistoryInstructions: text("post_history_instructions").notNull().default(""),
    /** Shown to the player; never put in the narrator's prompt. */
    creatorNotes: text("creator_notes").notNull().default(""),
    /** The imported character's name, which `{{char}}`/`<BOT>` stand for. */
    characterName: text("character_name").notNull().default(""),
    /** The share of the narrator's context budget the Story Cards may take (5..90). */
    loreBudgetPercent: integer("lore_budget_percent").notNull().default(50),
    /** How many of the newest messages are searched for triggers, besides the player's (0..20). */
    loreScanDepth: integer("lore_scan_depth").notNull().default(4),
    /** Generation settings (stories/settings.ts): short | medium | long, the max tokens a turn asks for. */
    outputLength: text("output_length").notNull().default("medium"),
    /** The text provider's temperature (0..1.5). */
    temperature: doublePrecision("temperature").notNull().default(0.9),
    /** A model the text provider lists; null: the provider's default. */
    textModel: text("text_model"),
    /** How many messages from the end the Author's Note goes (1: just before the player's message). */
    authorsNoteDepth: integer("authors_note_depth").notNull().default(1),
    /** Added to every scene's picture prompt. */
    artStyle: text("art_style").notNull().default(""),
    /** 4:3 | 16:9 | 3:4, for the scenes. */
    aspectRatio: text("aspect_ratio").notNull().default("4:3"),
    /** do | say | story: the composer's input mode when the story opens. */
    inputMode: text("input_mode").notNull().default("story"),
    /** The narrator's voice (a TTS provider's voice id); null: the provider's default. */
    narratorVoice: text("narrator_voice"),
    /** "Read new turns aloud": each finished narrator message is narrated and played. */
    readAloud: boolean("read_aloud").notNull().default(false),
    /** What the camera sees (issue #29): where the scene is, its time of day and weather ("" when unknown). */
    scenePlace: text("scene_place").notNull().default(""),
    sceneTimeOfDay: text("scene_time_of_day").notNull().default(""),
    sceneWeather: text("scene_weather").notNull().default(""),
    /** The persona the player plays in this story (decision 0152); null: their default persona, if any. */
    personaId: uuid("persona_id").references((): AnyPgColumn => personas.id, { onDelete: "set null" }),
    /** Who tells the story (decision 0154): "narrator" or "character" (the card `teller_card_id` speaks). */
    teller: text("teller").notNull().default("narrator"),
    /** The card the AI plays in character mode; a deleted card leaves none (the story plays as the narrator). */
    tellerCardId: uuid("teller_card_id").references((): AnyPgColumn => storyCards.id, {
      onDelete: "set null",
    }),
    /** A group scene's present characters, in order (decision 0164); ids of cards gone are skipped on read. */
    groupCardIds: uuid("group_card_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Who speaks next in a group scene: "natural", "round_robin", "manual" or "all" (decision 0164). */
    speakerOrder: text("speaker_order").notNull().default("natural"),
    /** Present characters of the group who never speak. */
    mutedCardIds: uuid("muted_card_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** Each speaker of a group knows only the messages they were present for (decision 0165). */
    knowsWhatTheySaw: boolean("knows_what_they_saw").notNull().default(false),
    /**
     * Branches (decision 0114): a story is a tree of rows. The first row is the story (its id is the story's
     * everywhere); each further branch is a row with root_id set, sharing the history up to its fork
     * (decision 0137, `history_from`). Deleting the story deletes every branch (the foreign key).
     */
    rootId: uuid("root_id").references((): AnyPgColumn => stories.id, { onDelete: "cascade" }),
    branchName: text("branch_name").notNull().default("Main"),
    /** The first row's own branch was deleted while others remain: the row stays as the story, not a branch. */
    branchRemoved: boolean("branch_removed").notNull().default(false),
    /** On the first row: the branch the story shows (null: its own). */
    viewingBranchId: uuid("viewing_branch_id"),
    forkedFromBranchId: uuid("forked_from_branch_id"),
    forkedFromMessageId: uuid("forked_from_message_id"),
    forkTurn: integer("fork_turn"),
    forkWords: text("fork_words"),
    /**
     * The branches whose messages this branch shares instead of copying (decision 0137), nearest first, and for
     * each the last `chat_messages.seq` it shares; empty when the branch holds its whole history itself.
     */
    historyFrom: uuid("history_from").array().notNull().default(sql`'{}'::uuid[]`),
    historyThrough: bigint("history_through", { mode: "number" })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
    /**
     * No message the branch shares was told after this time (its fork's time, rounded up to the millisecond):
     * a bound that lets its reads start each lineage level's index range at the fork (decision 0168). Null: no
     * bound (a branch that holds its history, or one made before the bound).
     */
    historyUntil: timestamp("history_until", { withTimezone: true }),
    /** A restore still writing this story (interop/restore-job.ts): hidden everywhere until its last batch. */
    restoring: boolean("restoring").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    /**
     * When the row was last played or changed: the later of its newest shown message and updated_at, raised by
     * the turn (stories/activity.ts) and by every write that sets updated_at. The story list's order (0134).
     */
    lastActivity: timestamp("last_activity", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("stories_user_idx").on(t.userId, t.updatedAt),
    index("stories_root_idx").on(t.rootId),
    index("stories_user_activity_idx").on(t.userId, t.lastActivity.desc(), t.id.desc()),
  ],
);

/**
 * stories: Story Cards, the characters, places and things of a story the narrator is reminded of when a
 * trigger word comes up. A portrait is a gallery item (the gallery's) or an upload the card owns.
 */
export const storyCards = pgTable(
  "story_cards",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["character", "place", "thing", "other"] }).notNull(),
    triggers: text("triggers").array().notNull(),
    description: text("description").notNull().default(""),
    /** A gallery image of the player's (it stays the gallery's; a deleted item leaves no portrait). */
    portraitItemId: uuid("portrait_item_id"),
    /** The storage key of an uploaded portrait, which the card owns and deletes with itself. */
    portraitKey: text("portrait_key"),
    /**
     * The card's other reference pictures after the portrait (views, outfits; decision 0161), in order, at most
     * three: each the storage key of an upload the card owns (as its portrait's), or `gallery:<id>` for a
     * gallery image of the player's.
     */
    referenceExtras: text("reference_extras").array().notNull().default(sql`'{}'::text[]`),
    enabled: boolean("enabled").notNull().default(true),
    /** Keys of which (some, all, none...) must also appear, by selective_logic; ignored when empty. */
    secondaryTriggers: text("secondary_triggers").array().notNull().default(sql`'{}'::text[]`),
    selectiveLogic: text("selective_logic", { enum: ["and_any", "and_all", "not_any", "not_all"] })
      .notNull()
      .default("and_any"),
    /** Always active, triggers or not. */
    constant: boolean("constant").notNull().default(false),
    /** Lower is placed higher in the narrator's context. */
    insertionOrder: integer("insertion_order").notNull().default(100),
    /** When the lore budget is full, lower priority is dropped first. */
    priority: integer("priority").notNull().default(10),
    caseSensitive: boolean("case_sensitive").notNull().default(false),
    /** The source entry's or card's fields we do not model, written back on export untouched. */
    extensions: jsonb("extensions").$type<Record<string, unknown>>().notNull().default({}),
    /** The imported Character Card V3 `data` (minus character_book), raw; null for cards made here. */
    characterCard: jsonb("character_card").$type<Record<string, unknown>>(),
    /** The voice the character speaks its quoted lines in (a TTS voice id); null: one picked from its name. */
    voice: text("voice"),
    /** How readily the character speaks in a group scene's natural order, 0..1 (decision 0164). */
    talkativeness: doublePrecision("talkativeness").notNull().default(0.5),
    /** What the character looks like now (clothes, injuries, what they carry), kept from the narration. */
    appearance: text("appearance").notNull().default(""),
    /** When the appearance last changed: the scene prompt carries the most recently changed first. */
    appearanceUpdatedAt: timestamp("appearance_updated_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("story_cards_story_idx").on(t.storyId, t.createdAt),
    // Two racing creates cannot both take a name.
    uniqueIndex("story_cards_story_name_unique").on(t.storyId, sql`lower(${t.name})`),
    // Deleting a gallery picture asks first when a card's portrait is it (decision 0141).
    index("story_cards_portrait_item_idx").on(t.portraitItemId).where(sql`${t.portraitItemId} IS NOT NULL`),
  ],
);

/**
 * stories: living lore (issue #29), the names the narration brought up that have no Story Card, offered to
 * the player as draft cards. Kept after they are accepted or dismissed so that a name is never offered twice.
 */
export const loreSuggestions = pgTable(
  "lore_suggestions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    /** As the narration wrote it ("the Salt Gate"). */
    name: text("name").notNull(),
    /** Lower-cased without its article ("salt gate"): one offer per name and story. */
    nameKey: text("name_key").notNull(),
    kind: text("kind", { enum: ["character", "place", "thing", "other"] }).notNull(),
    description: text("description").notNull().default(""),
    status: text("status", { enum: ["offered", "accepted", "dismissed"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("lore_suggestions_story_name_unique").on(t.storyId, t.nameKey)],
);

/** A part of a narration to speak: who says it, in which voice. */
export type SpeechPart = { speaker: string; voice: string; text: string };

/**
 * voice: the narration of one narrator message version, for one wording and cast of voices (`contentKey`, a hash
 * of the provider and the parts): an edit or another voice is another key, so audio is made once per key.
 */
export const messageSpeech = pgTable(
  "message_speech",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    messageId: uuid("message_id")
      .notNull()
      .references(() => chatMessages.id, { onDelete: "cascade" }),
    contentKey: text("content_key").notNull(),
    status: text("status", { enum: ["pending", "completed", "failed"] }).notNull(),
    /** What was charged for and is spoken, fixed when asked for. */
    parts: jsonb("parts").$type<SpeechPart[]>().notNull(),
    audioKey: text("audio_key"),
    durationMs: integer("duration_ms"),
    segments: jsonb("segments").$type<SpeechSegment[]>(),
    error: text("error"),
    chargedTenths: integer("charged_tenths").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("message_speech_message_key").on(t.messageId, t.contentKey),
    index("message_speech_user_pending").on(t.userId).where(sql`${t.status} = 'pending'`),
  ],
);

/** Binary bytes (PostgreSQL bytea): node-postgres answers a Buffer, PGlite a Uint8Array. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * voice: the pieces of a narration being made (decision 0133), each a WAV the player can play before the whole
 * is stored; they go when the narration completes or fails, and with its row.
 */
export const messageSpeechChunks = pgTable(
  "message_speech_chunks",
  {
    speechId: uuid("speech_id")
      .notNull()
      .references(() => messageSpeech.id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    durationMs: integer("duration_ms").notNull(),
    wav: bytea("wav").notNull(),
  },
  (t) => [primaryKey({ columns: [t.speechId, t.index] })],
);

/** studio: the Studio's conversation: prompts, advisor answers and generated batches. */
export const studioMessages = pgTable(
  "studio_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    isAdvisor: boolean("is_advisor").notNull().default(false),
    /** Gallery item ids of the images this message produced (assistant) or was given (user). */
    mediaIds: uuid("media_ids").array().notNull().default(sql`'{}'::uuid[]`),
    inputKeys: text("input_keys").array().notNull().default(sql`'{}'::text[]`),
    batchSize: integer("batch_size").notNull().default(1),
    /** A batch made by a job (the asynchronous call): pending until the job ends; made at once: completed. */
    status: text("status", { enum: ["pending", "completed", "failed"] })
      .notNull()
      .default("completed"),
    /** Why a queued batch failed (shown to the user). */
    error: text("error"),
    /** What a queued batch was charged (tenths): its refunds are worked out from it. */
    chargedTenths: integer("charged_tenths").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("studio_messages_user_idx").on(t.userId, t.createdAt)],
);

/** payments: one row per checkout session (Stripe's cs_... id or the sandbox's); credits are granted once. */
export const paymentSessions = pgTable(
  "payment_sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["stripe", "sandbox"] }).notNull(),
    packId: text("pack_id").notNull(),
    credits: integer("credits").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status", { enum: ["open", "paid", "cancelled", "expired"] })
      .notNull()
      .default("open"),
    customerId: text("customer_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("payment_sessions_user_idx").on(t.userId, t.createdAt)],
);

/** payments: the payment provider's customer for a user, for the billing portal. */
export const billingCustomers = pgTable("billing_customers", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["stripe", "sandbox"] }).notNull(),
  customerId: text("customer_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

/** sharing: read-only links to a story. Only the SHA-256 of the 128-bit token is kept; revoked links stay dead. */
export const shareLinks = pgTable(
  "share_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The owner chose to show their username on the public page (never the email). */
    showUsername: boolean("show_username").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** An administrator took the link down (decision 0150): when, and the reason its owner is shown. */
    takenDownAt: timestamp("taken_down_at", { withTimezone: true }),
    takenDownReason: text("taken_down_reason"),
  },
  (t) => [index("share_links_story_idx").on(t.storyId)],
);

/** exports: the story's film, made by a job; at most one queued or running per story. */
export const storyFilms = pgTable(
  "story_films",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "running", "completed", "failed"] }).notNull(),
    /** 0 to 100. */
    progress: integer("progress").notNull().default(0),
    error: text("error"),
    /** The gallery video the film became. */
    mediaItemId: uuid("media_item_id"),
    /** The film's captions as WebVTT in media storage, beside the video. */
    captionsKey: text("captions_key"),
    /** What a vendor-voiced narration cost when the film was started; refunded if the film fails. */
    chargedTenths: integer("charged_tenths").notNull().default(0),
    /** What the film was made from (decision 0131): a finished film with the same hash is shown again. */
    contentHash: text("content_hash"),
    /** The step its progress is on ("Narrating scene 3 of 22"), while it is made. */
    step: text("step"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("story_films_story_idx").on(t.storyId, t.createdAt),
    index("story_films_hash_idx").on(t.storyId, t.contentHash),
    // The database itself refuses a second film in progress, so two racing requests cannot both start one.
    uniqueIndex("story_films_one_active").on(t.storyId).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** Exports made by a job: one file per row, kept in media storage until a newer export replaces it. */
export const storyExports = pgTable(
  "story_exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storyId: uuid("story_id")
      .notNull()
      .references(() => stories.id, { onDelete: "cascade" }),
    format: text("format", { enum: ["md", "epub", "pdf"] }).notNull(),
    paper: text("paper", { enum: ["a4", "letter"] }).notNull(),
    status: text("status", { enum: ["queued", "running", "completed", "failed"] }).notNull(),
    /** 0 to 100. */
    progress: integer("progress").notNull().default(0),
    error: text("error"),
    /** Where the finished file lives in media storage, and the name it downloads under. */
    storageKey: text("storage_key"),
    filename: text("filename"),
    /** A read-along EPUB: the narrator's words read aloud. */
    narration: boolean("narration").notNull().default(false),
    /**
     * What the file was made from (decision 0131): story, messages, media, settings and voices. A finished
     * export with the same hash is served again instead of being made again; null when it cannot be reused.
     */
    contentHash: text("content_hash"),
    /** The step its progress is on ("Writing turn 1,200 of 10,000"), while it is made. */
    step: text("step"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("story_exports_story_idx").on(t.storyId, t.createdAt),
    index("story_exports_hash_idx").on(t.storyId, t.contentHash),
  ],
);

/**
 * events: what each user's event stream announced recently (ids only: the stream reads the media, balance or
 * story card when it sends), so a reconnect on any process resumes from its Last-Event-ID. Kept for minutes.
 */
export const userEvents = pgTable(
  "user_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["media", "credits", "story", "studio", "lore"] }).notNull(),
    /**
     * The message (media), story (story), Studio batch (studio) or branch's story row (lore) the event is
     * about; null for credits.
     */
    subjectId: uuid("subject_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("user_events_user_idx").on(t.userId, t.id), index("user_events_created_idx").on(t.createdAt)],
);

/**
 * interop: a story restore (decision 0123): its upload (a folder of the server's temp directory), the preview
 * shown before it is confirmed, its progress as a job, the storage keys it stored (each written here before
 * its file, so a sweep can remove what a killed restore left) and the story it writes, hidden until done.
 */
export const storyRestores = pgTable(
  "story_restores",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["previewed", "queued", "running", "completed", "failed"] }).notNull(),
    uploadDir: text("upload_dir").notNull(),
    uploadBytes: bigint("upload_bytes", { mode: "number" }).notNull(),
    preview: jsonb("preview").$type<Record<string, unknown>>().notNull(),
    /** 0 to 100. */
    progress: integer("progress").notNull().default(0),
    storyId: uuid("story_id"),
    storedKeys: text("stored_keys").array().notNull().default(sql`'{}'::text[]`),
    notes: jsonb("notes").$type<{ name: string; reason: string }[]>().notNull().default([]),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("story_restores_user_idx").on(t.userId, t.createdAt),
    index("story_restores_status_idx").on(t.status, t.updatedAt),
  ],
);

/** admin: the install's spending caps in tenths of credits (one row; an empty cap is no cap). */
export const usageCaps = pgTable(
  "usage_caps",
  {
    id: boolean("id").primaryKey().default(true),
    dailyDefaultTenths: integer("daily_default_tenths"),
    monthlyDefaultTenths: integer("monthly_default_tenths"),
    installDailyTenths: integer("install_daily_tenths"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [check("usage_caps_single_row", sql`${t.id}`)],
);

/** admin: every administrator's action (who, what, to whom, when, why); outlives the accounts it names. */
export const adminAudit = pgTable("admin_audit", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  at: timestamp("at", { withTimezone: true }).notNull(),
  /** The administrator's account; empty for the command line. */
  actorId: uuid("actor_id"),
  /** The administrator's address then, or "command line". */
  actor: text("actor").notNull(),
  action: text("action").notNull(),
  targetId: uuid("target_id"),
  /** The target account's address then. */
  target: text("target"),
  details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  reason: text("reason"),
});

/**
 * accounts: a player's whole-account archive (decision 0143), made by a job: its progress and step, then its
 * file in media storage (outside the account's quota, removed when it expires, a newer one is asked for, or
 * the account is deleted).
 */
export const accountExports = pgTable(
  "account_exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "running", "completed", "failed"] }).notNull(),
    /** 0 to 100. */
    progress: integer("progress").notNull().default(0),
    /** What it is doing ("Story 3 of 12"), while it is made. */
    step: text("step"),
    error: text("error"),
    storageKey: text("storage_key"),
    filename: text("filename"),
    bytes: bigint("bytes", { mode: "number" }),
    /** When the finished file is removed. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("account_exports_user_idx").on(t.userId, t.createdAt),
    check("account_exports_status_check", sql`${t.status} in ('queued', 'running', 'completed', 'failed')`),
  ],
);

/**
 * admin: a deleted account's data export, kept for the operator for a set time (decision 0157). The former
 * account's address and username are kept deliberately, until the archive expires, so the operator can answer
 * a request; the row outlives the account (user_id and deleted_by are set to null when those accounts go).
 */
export const deletedAccountArchives = pgTable(
  "deleted_account_archives",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The account while it exists (the deletion is pending or failed); null once deleted. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    username: text("username").notNull(),
    status: text("status", { enum: ["queued", "building", "kept", "failed"] }).notNull(),
    progress: integer("progress").notNull().default(0),
    step: text("step"),
    error: text("error"),
    storageKey: text("storage_key"),
    filename: text("filename"),
    bytes: bigint("bytes", { mode: "number" }),
    deletedBy: uuid("deleted_by").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    /** When the account was deleted (the archive made first). */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /** When the archive's file and this row are removed. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [
    // One pending (or failed) deletion per live account.
    uniqueIndex("deleted_account_archives_user_unique").on(t.userId),
    index("deleted_account_archives_created_idx").on(t.createdAt, t.id),
    index("deleted_account_archives_expires_idx").on(t.expiresAt),
    check(
      "deleted_account_archives_status_check",
      sql`${t.status} in ('queued', 'building', 'kept', 'failed')`,
    ),
  ],
);

/**
 * credits: a deleted account's ledger, kept for accounting (decision 0143): each row's money facts with the
 * account replaced by `former_account`, a random id shared by that account's rows and linked to nothing.
 */
export const closedAccountLedger = pgTable(
  "closed_account_ledger",
  {
    /** The ledger row's own id. */
    id: uuid("id").primaryKey(),
    formerAccount: uuid("former_account").notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }).notNull(),
    transactionType: text("transaction_type").notNull(),
    amountTenths: integer("amount_tenths").notNull(),
    quantity: integer("quantity").notNull(),
    balanceAfterTenths: integer("balance_after_tenths").notNull(),
    /** The payment session (Stripe's cs_...) of a purchase, or the charge and refund keys. */
    reference: text("reference"),
    /** A purchase's payment, from its payment session. */
    paymentProvider: text("payment_provider"),
    paymentAmountCents: integer("payment_amount_cents"),
    paymentCurrency: text("payment_currency"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("closed_account_ledger_created_idx").on(t.createdAt)],
);

/** oidc: which provider account (issuer, subject) signs in to which account (decision 0146). */
export const oidcIdentities = pgTable(
  "oidc_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("oidc_identities_user_idx").on(t.userId)],
);

/**
 * oidc: a sign-in under way, by its state: the nonce and PKCE verifier its callback must match. One begun to
 * delete an account (decision 0158) names that account and the app session that began it.
 */
export const oidcLogins = pgTable(
  "oidc_logins",
  {
    state: text("state").primaryKey(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    purpose: text("purpose", { enum: ["sign_in", "delete_account"] })
      .notNull()
      .default("sign_in"),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    sessionTokenHash: text("session_token_hash"),
  },
  (t) => [check("oidc_logins_purpose_check", sql`${t.purpose} in ('sign_in', 'delete_account')`)],
);

/** oidc: a provider account waiting for the player's password before it is linked to their account. */
export const oidcLinks = pgTable("oidc_links", {
  tokenHash: text("token_hash").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  issuer: text("issuer").notNull(),
  subject: text("subject").notNull(),
  sid: text("sid"),
  idToken: text("id_token").notNull(),
  admin: boolean("admin").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** oidc: the app sessions begun by the provider, for RP-initiated and back-channel logout. */
export const oidcSessions = pgTable(
  "oidc_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    sid: text("sid"),
    idToken: text("id_token").notNull(),
  },
  (t) => [index("oidc_sessions_user_idx").on(t.userId)],
);

/**
 * personas: who the player plays (decision 0152): a name (`{{user}}`), a description the narrator is told, a
 * portrait (one of the player's gallery images: a deleted image leaves none) and a default voice; at most one
 * is the account's default.
 */
export const personas = pgTable(
  "personas",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    portraitItemId: uuid("portrait_item_id"),
    voice: text("voice"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("personas_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("personas_one_default").on(t.userId).where(sql`${t.isDefault} = true`),
  ],
);

/**
 * admin: each server process's AI vendor calls for the console's Health (decision 0159), one row per process,
 * minute, vendor and kind: calls, errors, the shortest and longest call and a log-scale latency histogram
 * (`platform/vendor-minutes.ts`), summed over every process to answer. Rows older than the hour are pruned.
 */
export const vendorCallMinutes = pgTable(
  "vendor_call_minutes",
  {
    processId: uuid("process_id").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    vendor: text("vendor").notNull(),
    kind: text("kind").notNull(),
    calls: integer("calls").notNull(),
    errors: integer("errors").notNull(),
    minMs: doublePrecision("min_ms").notNull(),
    maxMs: doublePrecision("max_ms").notNull(),
    histogram: integer("histogram").array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.processId, t.minute, t.vendor, t.kind] }),
    index("vendor_call_minutes_minute_idx").on(t.minute),
  ],
);

/**
 * admin: each live server process's heartbeat (decision 0159): its role, the event streams it holds open and
 * when it last reported; a process that has not reported for two minutes is gone, and its row is pruned.
 */
export const serverProcesses = pgTable(
  "server_processes",
  {
    id: uuid("id").primaryKey(),
    /** http, worker, or both (one process serving HTTP and running jobs). */
    role: text("role").notNull(),
    eventStreamsOpen: integer("event_streams_open").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("server_processes_seen_idx").on(t.seenAt)],
);

/** A character present for a message (decision 0165): the card and its name as it was then. */
export type PresentCharacter = { card_id: string; name: string };
