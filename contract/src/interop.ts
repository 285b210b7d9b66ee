// Interop: Character Cards (V1, V2, V3 as JSON, PNG/APNG or CHARX) and lorebooks (SillyTavern World Info,
// NovelAI, AI Dungeon Story Cards, a card's character_book) in and out of stories, whole-story backups, and
// the starter scenarios shipped with the app. Uploads are multipart with one `file` field.
import { z } from "zod";
import { storySchema } from "./stories";
import { storyCardSchema } from "./story-cards";

/** The largest card, lorebook or starter file accepted (a backup has its own limit). */
export const INTEROP_FILE_MAX_MB = 20;
/** The most lore entries one imported book or card may bring. */
export const LORE_ENTRIES_MAX = 200;
/** The largest story backup archive accepted by restore. */
export const BACKUP_FILE_MAX_MB = 500;

export const CARD_EXPORT_FORMATS = ["png", "charx", "json"] as const;
export type CardExportFormat = (typeof CARD_EXPORT_FORMATS)[number];
export const LORE_EXPORT_FORMATS = ["worldinfo", "character_book"] as const;
export type LoreExportFormat = (typeof LORE_EXPORT_FORMATS)[number];

/** Something in the file that was not imported, or was cut to fit the app's limits, and why. */
export const importNoteSchema = z.object({ name: z.string(), reason: z.string() });
export type ImportNote = z.infer<typeof importNoteSchema>;

/** POST /api/stories/import and POST /api/starters/{id}/start. */
export const importedStoryResponseSchema = z.object({
  success: z.literal(true),
  story: storySchema,
  /** Fields cut to fit and entries left out, so nothing is lost silently. */
  notes: z.array(importNoteSchema),
});
export type ImportedStoryResponse = z.infer<typeof importedStoryResponseSchema>;

/** What a story backup holds, before it is restored (issue #39): shown for the player to confirm. */
export const restorePreviewSchema = z.object({
  /** The restored story's title, with " (restored)". */
  title: z.string(),
  /** The exchanges of the branch the story opens on. */
  exchanges: z.number().int(),
  branches: z.number().int(),
  checkpoints: z.number().int(),
  /** Pictures and clips. */
  media: z.number().int(),
  /** What the restore stores, in bytes. */
  bytes: z.number().int(),
});
export type RestorePreview = z.infer<typeof restorePreviewSchema>;

/** A restore: previewed (waiting for the player's confirm), then a job (queued, running) until it ends. */
export const storyRestoreSchema = z.object({
  id: z.uuid(),
  status: z.enum(["previewed", "queued", "running", "completed", "failed"]),
  /** 0 to 100. */
  progress: z.number().int(),
  preview: restorePreviewSchema,
  /** The restored story, once completed. */
  story: storySchema.nullable(),
  notes: z.array(importNoteSchema),
  /** Why it failed, once failed. */
  error: z.string().nullable(),
});
export type StoryRestore = z.infer<typeof storyRestoreSchema>;

/** POST /api/stories/restore (the preview), POST .../restore/{id}/confirm and GET .../restore/{id}. */
export const storyRestoreResponseSchema = z.object({ success: z.literal(true), restore: storyRestoreSchema });
export type StoryRestoreResponse = z.infer<typeof storyRestoreResponseSchema>;

/** GET /api/stories/{id}/backup/summary: what the story's backup holds, for its dialog. */
export const backupSummaryResponseSchema = z.object({
  success: z.literal(true),
  branches: z.number().int(),
  checkpoints: z.number().int(),
  /** Pictures and clips (each file once). */
  media: z.number().int(),
});
export type BackupSummaryResponse = z.infer<typeof backupSummaryResponseSchema>;

/** A card as the preview shows it before anything is saved (dry_run). */
export const cardPreviewSchema = z.object({
  name: z.string(),
  kind: z.string(),
  triggers: z.array(z.string()),
  description: z.string(),
  constant: z.boolean(),
  has_portrait: z.boolean(),
});

/**
 * What an import does with an entry named like a card the story already has (decision 0142): skip it (the
 * default: the story's card stays), replace the story's card's text and lore rules with the file's (its id,
 * name and picture stay), or keep both (the file's gets "Name (2)", with a note).
 */
export const ON_DUPLICATE = ["skip", "replace", "keep_both"] as const;
export type OnDuplicate = (typeof ON_DUPLICATE)[number];

/** An entry of the file that the story already has a card for, and what the import did (or would do). */
export const importDuplicateSchema = z.object({
  /** The name as the story's card has it. */
  name: z.string(),
  card_id: z.string(),
  /** The file's text is the card's, word for word. */
  same_text: z.boolean(),
  outcome: z.enum(["skipped", "replaced", "kept_both"]),
});
export type ImportDuplicate = z.infer<typeof importDuplicateSchema>;

/** POST /api/stories/{id}/cards/import (?dry_run=true answers the preview, saving nothing). */
export const cardsImportResponseSchema = z.object({
  success: z.literal(true),
  dry_run: z.boolean(),
  /** What the file is: "character card (V2)", "SillyTavern World Info", ... */
  source: z.string(),
  /** The cards made (dry run: the cards that would be made). */
  cards: z.array(z.union([storyCardSchema, cardPreviewSchema])),
  skipped: z.array(importNoteSchema),
  /** Entries named like the story's own cards, with what `on_duplicate` does with them. */
  duplicates: z.array(importDuplicateSchema).default([]),
});
export type CardsImportResponse = z.infer<typeof cardsImportResponseSchema>;

/** GET .../cards/{card_id}/export?format=json: a Character Card V3 document (png and charx answer files). */
export const cardV3DocumentSchema = z.looseObject({
  spec: z.literal("chara_card_v3"),
  spec_version: z.literal("3.0"),
  data: z.looseObject({ name: z.string() }),
});

/** GET .../cards/export: a SillyTavern World Info (entries by uid) or a V3 character_book (a list). */
export const lorebookDocumentSchema = z.looseObject({
  name: z.string().optional(),
  entries: z.union([z.record(z.string(), z.looseObject({})), z.array(z.looseObject({}))]),
});

export const cardExportQuerySchema = z.object({ format: z.string().max(20).optional() });
export const loreExportQuerySchema = z.object({ format: z.string().max(20).optional() });
export const dryRunQuerySchema = z.object({
  dry_run: z.enum(["true", "false"]).optional(),
  on_duplicate: z
    .enum(ON_DUPLICATE, { error: "on_duplicate must be skip, replace or keep_both" })
    .optional()
    .default("skip"),
});

/** A ready-made opening shipped with the app ("Start from a scenario"). */
export const starterSchema = z.object({
  id: z.string(),
  title: z.string(),
  tagline: z.string(),
  /** A picture of the scenario (the card's own). */
  image_url: z.string(),
});
export type Starter = z.infer<typeof starterSchema>;
export const startersResponseSchema = z.object({
  success: z.literal(true),
  starters: z.array(starterSchema),
});
