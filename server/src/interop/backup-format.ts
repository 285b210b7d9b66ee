// The story archive's `storyverse-story.json`, format 2 (docs/story-archive.md describes every field). The
// writer (backup.ts) builds it and the reader (restore.ts) checks it with this schema. `version` is the
// format's major version: fields may be added within a version (readers ignore fields they do not know), and
// anything an older reader could misread gets a new version, which older readers refuse. Format 2 holds the
// whole tree of branches with their checkpoints (issue #39): a format-1 reader would have restored every
// branch's copies as one story, so the version went up. Format 1 (one branch) is still read: it is format 2
// with no `branches`, every message, card and draft on the one branch.
import { SPEAKER_ORDERS } from "@storyverse/contract/generation-settings";
import { DEFAULT_TALKATIVENESS } from "@storyverse/contract/story-cards";
import { z } from "zod";

export const BACKUP_FORMAT = "storyverse-story";
export const BACKUP_VERSION = 2;
/** The most messages one archive may hold (every branch's copies counted): past it, a 413 before parsing. */
export const ARCHIVE_MESSAGES_MAX = 100_000;
/** The most branches: the app's own limit per story. */
const BRANCHES_MAX = 100;
export const BACKUP_JSON_NAME = "storyverse-story.json";

/** A file of the archive: always under media/, plain ASCII segments, nothing that climbs out. */
const MEDIA_PATH = /^media\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Generous ceilings that only keep a hostile file small; the app's own limits are applied on restore. */
const TEXT_MAX = 1_000_000;
const ID_MAX = 100;

const text = z.string().max(TEXT_MAX);
const time = z.iso.datetime({ offset: true });
const mediaPath = z
  .string()
  .max(300)
  .regex(MEDIA_PATH, "must be a path under media/ (letters, digits, '.', '_' and '-')");
const archiveId = z.string().min(1).max(ID_MAX);
const jsonObject = z.record(z.string(), z.unknown());
/** A card named as it was (cards are named, never by id: the restored cards' ids are new). */
const cardName = z.string().min(1).max(200);
/** Characters named in order (a group's present, its muted, a message's present, the summary's witnesses). */
const cardNames = z.array(cardName).max(100);

const storySchema = z.object({
  title: text,
  context: text.default(""),
  memory: text.default(""),
  authors_note: text.default(""),
  summary: text.default(""),
  summary_through: time.nullable().default(null),
  summary_updated_at: time.nullable().default(null),
  narrator_instructions: text.default(""),
  post_history_instructions: text.default(""),
  creator_notes: text.default(""),
  character_name: text.default(""),
  lore_budget_percent: z.number().int().default(50),
  lore_scan_depth: z.number().int().default(4),
  /** The generation settings (stories/settings.ts), checked field by field on restore; absent in older backups. */
  generation: jsonObject.nullable().default(null),
  /** What the camera sees of the scene (issue #29); absent in older backups. */
  scene_state: z
    .object({ place: text.default(""), time_of_day: text.default(""), weather: text.default("") })
    .default({ place: "", time_of_day: "", weather: "" }),
  pinned_thumbnail: mediaPath.nullable().default(null),
  /**
   * Who tells the story (decision 0154): the narrator, the character of the card named `teller_card`, or the
   * group of `group_cards` (decision 0164).
   */
  teller: z.enum(["narrator", "character", "group"]).default("narrator"),
  /** The played card's name among this branch's cards (names are unique in a story), or null. */
  teller_card: text.nullable().default(null),
  /**
   * A group scene's present characters by name, in order, and the muted among them, kept whoever tells the
   * story (the player may switch back to the group); absent before groups were carried.
   */
  group_cards: cardNames.default([]),
  muted_cards: cardNames.default([]),
  speaker_order: z.enum(SPEAKER_ORDERS).default("natural"),
  /** Each speaker of a group knows only what they were present for (decision 0165). */
  knows_what_they_saw: z.boolean().default(false),
  /** The characters present for everything the summary folds, by name; null: all of it was seen by everyone. */
  summary_witnesses: cardNames.nullable().default(null),
  created_at: time,
  updated_at: time,
});

const messageSchema = z.object({
  id: archiveId,
  role: z.enum(["user", "assistant"]),
  content: text,
  mode: z.enum(["chat", "image", "video"]).nullable(),
  scene_description: text.nullable().default(null),
  media_status: z.enum(["none", "pending", "completed", "failed"]).default("none"),
  media_error: text.nullable().default(null),
  image: mediaPath.nullable().default(null),
  video: mediaPath.nullable().default(null),
  references: z.array(mediaPath).max(20).default([]),
  stopped: z.boolean().default(false),
  version_group: archiveId.nullable().default(null),
  version_number: z.number().int().min(1).max(100_000).default(1),
  hidden: z.boolean().default(false),
  /** The branch the message is on (`branches[].id`); absent in format 1 and for the first branch. */
  branch: archiveId.nullable().default(null),
  /** A checkpoint's name on this narrator message, or null (format 2). */
  checkpoint: z.string().min(1).max(200).nullable().default(null),
  /** The message this branch's copy was copied from (`id`), or null (format 2). */
  copied_from: archiveId.nullable().default(null),
  /** The character who spoke this narrator message (decision 0154), by name as it was; null: the narrator. */
  speaker: cardName.nullable().default(null),
  /** The characters present when it was written (decision 0165), by name as they were; null: seen by everyone. */
  present: cardNames.nullable().default(null),
  created_at: time,
  updated_at: time,
});

const mediaSchema = z.object({
  /** The branch whose gallery item it is; absent in format 1 and for the first branch. */
  branch: archiveId.nullable().default(null),
  path: mediaPath,
  kind: z.enum(["image", "video"]),
  thumbnail: mediaPath.nullable().default(null),
  message: archiveId.nullable().default(null),
  description: text.default(""),
  created_at: time,
});

const cardSchema = z.object({
  /** The branch the card belongs to (each branch has its own cards); absent in format 1 and for the first. */
  branch: archiveId.nullable().default(null),
  name: text,
  kind: z.enum(["character", "place", "thing", "other"]),
  triggers: z.array(text).max(1000),
  secondary_triggers: z.array(text).max(1000).default([]),
  selective_logic: z.enum(["and_any", "and_all", "not_any", "not_all"]).default("and_any"),
  constant: z.boolean().default(false),
  insertion_order: z.number().int().default(100),
  priority: z.number().int().default(10),
  case_sensitive: z.boolean().default(false),
  description: text.default(""),
  enabled: z.boolean().default(true),
  extensions: jsonObject.default({}),
  character_card: jsonObject.nullable().default(null),
  portrait: mediaPath.nullable().default(null),
  /** The card's other reference pictures after the portrait (decision 0161), in order; absent before it. */
  references: z.array(mediaPath).max(3).default([]),
  /** The character's voice id (a speech provider's); one this server does not offer falls back to the default. */
  voice: z.string().max(100).nullable().default(null),
  /** A character's current appearance, which every scene's prompt keeps (issue #29). */
  appearance: text.default(""),
  /** How readily the character speaks in a group's natural order (0..1, decision 0164); absent before it. */
  talkativeness: z.number().default(DEFAULT_TALKATIVENESS),
  created_at: time,
  updated_at: time,
});

/** A living-lore draft (issue #29): offered, accepted or dismissed, kept so that a name is never offered twice. */
const loreDraftSchema = z.object({
  branch: archiveId.nullable().default(null),
  name: text,
  kind: z.enum(["character", "place", "thing", "other"]),
  description: text.default(""),
  status: z.enum(["offered", "accepted", "dismissed"]),
  created_at: time,
  updated_at: time,
});

/**
 * A branch of the story (format 2): the first is the story itself, whose words and settings are `story`; each
 * further one has its own (`story`, the same fields) and says where it forked from.
 */
const branchSchema = z.object({
  id: archiveId,
  name: z.string().min(1).max(200),
  /** This branch's own words and settings; absent for the first branch (it is the archive's `story`). */
  story: storySchema.nullable().default(null),
  forked_from_branch: archiveId.nullable().default(null),
  /** The message (`messages[].id`, on `forked_from_branch`) the branch was made from. */
  forked_from_message: archiveId.nullable().default(null),
  fork_turn: z.number().int().min(0).max(1_000_000).nullable().default(null),
  fork_words: text.nullable().default(null),
  created_at: time,
  updated_at: time,
});

export const storyArchiveSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.union([z.literal(1), z.literal(BACKUP_VERSION)]),
  exported_at: time,
  story: storySchema,
  /** Every live branch, the first one first; absent in format 1 (one branch). */
  branches: z.array(branchSchema).max(BRANCHES_MAX).default([]),
  /** The branch the story showed (`branches[].id`), or null for the first. */
  viewing_branch: archiveId.nullable().default(null),
  messages: z.array(messageSchema).max(ARCHIVE_MESSAGES_MAX),
  media: z.array(mediaSchema).max(200_000),
  cards: z.array(cardSchema).max(10_000),
  /** Absent in older backups: a story restored from one offers its names again. */
  lore_drafts: z.array(loreDraftSchema).max(10_000).default([]),
});

export type StoryArchive = z.input<typeof storyArchiveSchema>;
export type ParsedStoryArchive = z.output<typeof storyArchiveSchema>;
