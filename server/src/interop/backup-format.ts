// The story archive's `storyverse-story.json`, format 1 (docs/story-archive.md describes every field). The
// writer (backup.ts) builds it and the reader (restore.ts) checks it with this schema. `version` is the
// format's major version: fields may be added within a version (readers ignore fields they do not know), and
// anything a version-1 reader could misread gets a new version, which older readers refuse.
import { z } from "zod";

export const BACKUP_FORMAT = "storyverse-story";
export const BACKUP_VERSION = 1;
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
  created_at: time,
  updated_at: time,
});

const mediaSchema = z.object({
  path: mediaPath,
  kind: z.enum(["image", "video"]),
  thumbnail: mediaPath.nullable().default(null),
  message: archiveId.nullable().default(null),
  description: text.default(""),
  created_at: time,
});

const cardSchema = z.object({
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
  /** The character's voice id (a speech provider's); one this server does not offer falls back to the default. */
  voice: z.string().max(100).nullable().default(null),
  /** A character's current appearance, which every scene's prompt keeps (issue #29). */
  appearance: text.default(""),
  created_at: time,
  updated_at: time,
});

/** A living-lore draft (issue #29): offered, accepted or dismissed, kept so that a name is never offered twice. */
const loreDraftSchema = z.object({
  name: text,
  kind: z.enum(["character", "place", "thing", "other"]),
  description: text.default(""),
  status: z.enum(["offered", "accepted", "dismissed"]),
  created_at: time,
  updated_at: time,
});

export const storyArchiveSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  exported_at: time,
  story: storySchema,
  messages: z.array(messageSchema).max(200_000),
  media: z.array(mediaSchema).max(200_000),
  cards: z.array(cardSchema).max(10_000),
  /** Absent in older backups: a story restored from one offers its names again. */
  lore_drafts: z.array(loreDraftSchema).max(10_000).default([]),
});

export type StoryArchive = z.input<typeof storyArchiveSchema>;
export type ParsedStoryArchive = z.output<typeof storyArchiveSchema>;
