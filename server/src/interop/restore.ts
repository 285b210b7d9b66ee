// Restoring a story archive (backup-format.ts; docs/story-archive.md) as a NEW story of the caller's, on this
// instance or another: its messages with every version, its Story Cards with their portraits, its settings,
// and every media file stored again under the caller's own storage keys and registered as the caller's
// gallery items. Nothing of the archive's ids or keys is reused: each message, card and item gets a new id,
// each file a new key. It is all or nothing: the JSON and every file are checked before anything is written,
// the rows go in in one transaction, and the files stored on the way are deleted again if anything fails.
// Restoring is free. Texts longer than the app allows are cut, each with a note in the answer.
import { randomUUID } from "node:crypto";
import { APPEARANCE_MAX_LENGTH, SCENE_STATE_FIELD_MAX_LENGTH } from "@storyverse/contract/camera";
import type { ImportedStoryResponse, ImportNote } from "@storyverse/contract/interop";
import { LORE_SUGGESTIONS_MAX } from "@storyverse/contract/lore";
import { STORY_CONTEXT_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from "@storyverse/contract/stories";
import {
  CARD_DESCRIPTION_MAX_LENGTH,
  CARD_NAME_MAX_LENGTH,
  CARD_ORDER_MAX,
  CARD_TRIGGER_MAX_LENGTH,
  CARD_TRIGGERS_MAX,
  regexTriggerProblem,
  STORY_CARDS_MAX,
} from "@storyverse/contract/story-cards";
import {
  AUTHORS_NOTE_MAX_LENGTH,
  MEMORY_MAX_LENGTH,
  NARRATOR_INSTRUCTIONS_MAX_LENGTH,
  POST_HISTORY_INSTRUCTIONS_MAX_LENGTH,
  SUMMARY_MAX_LENGTH,
} from "@storyverse/contract/story-craft";
import type { Entry } from "yauzl";
import type { z } from "zod";
import { insertRestoredMessages, type RestoredMessage } from "../chat/backup-rows";
import type { AppContext } from "../context";
import {
  insertRestoredMediaItems,
  inspectArchivedImage,
  type RestoredMediaItem,
  restoredMediaKey,
  sniffVideo,
} from "../media/backup-items";
import {
  assertRoomForRestoredPortraits,
  insertRestoredStory,
  type RestoredCard,
  type RestoredDraft,
  restoredStory,
} from "../stories/backup-rows";
import { nameKeyOf } from "../stories/lore-extract";
import { encodePortrait, PORTRAIT_MAX_STORED_BYTES } from "../stories/portraits";
import { generationFromBackup } from "../stories/settings";
import {
  BACKUP_FORMAT,
  BACKUP_JSON_NAME,
  BACKUP_VERSION,
  type ParsedStoryArchive,
  storyArchiveSchema,
} from "./backup-format";
import { decodeUtf8, InteropError, parseJsonSafely } from "./formats/errors";
import { assertKeptDataSize, IMPORTED_CREATOR_NOTES_MAX_LENGTH } from "./import-plan";
import { invalidFile, openStoryZip, type StoryZip } from "./restore-archive";

type RestoreContext = Pick<AppContext, "db" | "storage" | "clock" | "log" | "providers" | "jobs" | "config">;

const JSON_MAX_BYTES = 64 * 1024 * 1024;
/** The longest message text kept (a narrator answer is far shorter; a player's is at most 4,000). */
const MESSAGE_MAX_LENGTH = 50_000;
const SCENE_MAX_LENGTH = 5_000;
const MEDIA_PENDING_DETAIL = "This scene was still being made when the story was backed up.";

type Archive = ParsedStoryArchive;
type Role = "gallery" | "thumbnail" | "portrait" | "reference";
/** A file of the archive as the restore will store it. */
type PlannedFile = {
  path: string;
  kind: "image" | "video";
  role: Role;
  /** The new gallery item the file is (gallery) or belongs to (thumbnail). */
  itemId: string | null;
  /** Set once stored. */
  key?: string;
  mimeType?: string;
  width?: number;
  height?: number;
};

const fromJsonError = (error: unknown) => (error instanceof InteropError ? invalidFile(error.detail) : error);

/** Reads and checks storyverse-story.json: the version first (so a newer backup says so), then every field. */
async function readArchiveJson(zip: StoryZip): Promise<Archive> {
  const entry = zip.entries.get(BACKUP_JSON_NAME);
  if (!entry) {
    throw invalidFile(`This is not a Storyverse story backup: it has no ${BACKUP_JSON_NAME}.`);
  }
  let raw: unknown;
  try {
    raw = parseJsonSafely(
      decodeUtf8(await zip.read(entry, JSON_MAX_BYTES), BACKUP_JSON_NAME),
      BACKUP_JSON_NAME,
    );
  } catch (error) {
    throw fromJsonError(error);
  }
  const head = (typeof raw === "object" && raw !== null ? raw : {}) as {
    format?: unknown;
    version?: unknown;
  };
  if (head.format !== BACKUP_FORMAT) {
    throw invalidFile(
      `This is not a Storyverse story backup: ${BACKUP_JSON_NAME} does not say format "${BACKUP_FORMAT}".`,
    );
  }
  if (typeof head.version === "number" && Number.isInteger(head.version) && head.version > BACKUP_VERSION) {
    throw invalidFile(
      `This backup was made by a newer Storyverse (format ${head.version}); this server reads format ${BACKUP_VERSION}.`,
    );
  }
  const parsed = storyArchiveSchema.safeParse(raw);
  if (!parsed.success) throw invalidFile(`${BACKUP_JSON_NAME} is not valid: ${describeIssue(parsed.error)}`);
  return parsed.data;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "unreadable";
  const where = issue.path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("");
  return `${where.replace(/^\./, "") || "the file"}: ${issue.message}`;
}

/** Cuts a text to the app's limit, saying so in the notes. */
function cutToFit(text: string, max: number, name: string, notes: ImportNote[]): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  notes.push({ name, reason: `cut from ${chars.length} to ${max} characters to fit the app's limit` });
  return chars.slice(0, max).join("");
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Which file each path is, checking every referenced file is in the archive and used as one kind only. */
function planFiles(archive: Archive, zip: StoryZip): Map<string, PlannedFile> {
  const files = new Map<string, PlannedFile>();
  const want = (path: string, kind: "image" | "video", role: Role, itemId: string | null = null) => {
    if (!zip.entries.has(path)) {
      throw invalidFile(`The backup names "${path}", but that file is not in the archive.`);
    }
    const known = files.get(path);
    if (known) {
      if (known.kind !== kind)
        throw invalidFile(`The backup uses "${path}" both as a picture and as a video.`);
      return;
    }
    files.set(path, { path, kind, role, itemId });
  };
  // Gallery files first: a path that is also a portrait or reference stays the gallery item's.
  for (const item of archive.media) want(item.path, item.kind, "gallery", randomUUID());
  for (const item of archive.media) {
    if (item.thumbnail) want(item.thumbnail, "image", "thumbnail", files.get(item.path)!.itemId);
  }
  for (const card of archive.cards) if (card.portrait) want(card.portrait, "image", "portrait");
  for (const message of archive.messages) {
    for (const path of message.references) want(path, "image", "reference");
    for (const [field, kind] of [
      ["image", "image"],
      ["video", "video"],
    ] as const) {
      const path = message[field];
      if (path && files.get(path)?.role !== "gallery") {
        throw invalidFile(
          `The backup names "${path}" as a scene's ${field} but lists it under no media item.`,
        );
      }
      if (path && files.get(path)?.kind !== kind) {
        throw invalidFile(`The backup names "${path}" as a scene's ${field}, but its media item is not one.`);
      }
    }
  }
  // The card picture the player pinned is one of the files above (a picture of the story, or its thumbnail).
  // A card's portrait or a reference is not the gallery's: the story's picture must be a media item's.
  const pinned = archive.story.pinned_thumbnail;
  const pinnedRole = pinned ? files.get(pinned)?.role : undefined;
  if (pinned && pinnedRole !== "gallery" && pinnedRole !== "thumbnail") {
    throw invalidFile(`The backup pins "${pinned}" as the story's picture but lists it under no media item.`);
  }
  return files;
}

/** The first bytes of a file (enough to tell a video's type). */
async function head(zip: StoryZip, entry: Entry): Promise<Buffer> {
  const stream = await zip.stream(entry);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= 16) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

const notAPicture = (path: string) =>
  invalidFile(`"${path}" in the archive is not a picture this app can show (PNG, JPEG, WebP or GIF).`);

/** Checks one file by its bytes and stores it under the caller's key; `stored` collects keys to undo. */
async function storeFile(
  ctx: RestoreContext,
  zip: StoryZip,
  userId: string,
  file: PlannedFile,
  stored: string[],
): Promise<void> {
  const entry = zip.entries.get(file.path)!;
  if (file.kind === "video") {
    const type = sniffVideo(await head(zip, entry));
    if (!type)
      throw invalidFile(`"${file.path}" in the archive is not a video this app can play (MP4 or WebM).`);
    file.mimeType = type;
    file.key = restoredMediaKey(userId, { item: file.itemId!, thumbnail: false }, type);
    stored.push(file.key);
    await ctx.storage.putStream(file.key, await zip.stream(entry), type);
    return;
  }
  let data = await zip.read(entry, 64 * 1024 * 1024);
  const info = await inspectArchivedImage(data);
  if (!info) throw notAPicture(file.path);
  let mimeType = info.mimeType;
  if (file.role === "portrait" && (mimeType !== "image/webp" || data.length > PORTRAIT_MAX_STORED_BYTES)) {
    // A portrait the card owns is kept as the app keeps uploads: a small WebP.
    const kept = await encodePortrait(data).catch(() => {
      throw notAPicture(file.path);
    });
    data = kept.data;
    mimeType = kept.mimeType;
  }
  file.mimeType = mimeType;
  file.width = info.width;
  file.height = info.height;
  file.key =
    file.role === "gallery" || file.role === "thumbnail"
      ? restoredMediaKey(userId, { item: file.itemId!, thumbnail: file.role === "thumbnail" }, mimeType)
      : restoredMediaKey(userId, { folder: file.role === "portrait" ? "portraits" : "references" }, mimeType);
  stored.push(file.key);
  await ctx.storage.put(file.key, data, mimeType);
}

/** Card names unique in the story (case-insensitively), as the app requires; a clash gets a number. */
function uniqueName(name: string, taken: Set<string>, notes: ImportNote[]): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const suffix = ` ${n}`;
    candidate = `${Array.from(name)
      .slice(0, CARD_NAME_MAX_LENGTH - suffix.length)
      .join("")}${suffix}`;
  }
  if (candidate !== name)
    notes.push({ name: `Card "${name}"`, reason: `renamed "${candidate}": another card has that name` });
  taken.add(candidate.toLowerCase());
  return candidate;
}

function cleanTriggers(triggers: string[], card: string, notes: ImportNote[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of triggers) {
    const trigger = cutToFit(
      raw.trim().normalize("NFC"),
      CARD_TRIGGER_MAX_LENGTH,
      `Card "${card}" trigger`,
      notes,
    );
    if (!trigger || seen.has(trigger.toLowerCase())) continue;
    // A pattern the app would refuse on save (invalid, or slow to match) is left out, never matched.
    const problem = regexTriggerProblem(trigger);
    if (problem) {
      notes.push({
        name: `Card "${card}"`,
        reason: `left out a trigger: ${problem.replace(/^triggers: /, "")}`,
      });
      continue;
    }
    seen.add(trigger.toLowerCase());
    kept.push(trigger);
  }
  if (kept.length > CARD_TRIGGERS_MAX) {
    notes.push({
      name: `Card "${card}"`,
      reason: `kept the first ${CARD_TRIGGERS_MAX} of ${kept.length} trigger words`,
    });
  }
  return kept.slice(0, CARD_TRIGGERS_MAX);
}

/**
 * A card that is not always on needs a trigger (the app refuses one without, even on a later edit): when
 * none of its own could be kept, its name is its trigger.
 */
function triggersOrName(triggers: string[], constant: boolean, name: string, notes: ImportNote[]): string[] {
  if (triggers.length > 0 || constant) return triggers;
  const trigger = Array.from(name).slice(0, CARD_TRIGGER_MAX_LENGTH).join("").trim();
  const problem = trigger ? regexTriggerProblem(trigger) : "empty";
  if (problem) return [];
  notes.push({
    name: `Card "${name}"`,
    reason: "none of its trigger words could be kept: its name is its trigger",
  });
  return [trigger];
}

/**
 * The story's living-lore drafts within the app's rules: one per name (a name the story both was offered and
 * dismissed stays dismissed), at most LORE_SUGGESTIONS_MAX waiting (the oldest kept), names and descriptions
 * within a card's limits (accepting a draft makes a card of them).
 */
function restoredDrafts(
  archive: Archive,
  userId: string,
  storyId: string,
  notes: ImportNote[],
): RestoredDraft[] {
  const byKey = new Map<string, RestoredDraft>();
  for (const draft of archive.lore_drafts) {
    const name = cutToFit(draft.name.trim().normalize("NFC"), CARD_NAME_MAX_LENGTH, "A draft's name", notes);
    const nameKey = nameKeyOf(name);
    if (!nameKey) continue;
    const known = byKey.get(nameKey);
    if (known) {
      if (known.status === "offered") known.status = draft.status;
      continue;
    }
    byKey.set(nameKey, {
      id: randomUUID(),
      userId,
      storyId,
      name,
      nameKey,
      kind: draft.kind,
      description: cutToFit(draft.description, CARD_DESCRIPTION_MAX_LENGTH, `Draft "${name}"`, notes),
      status: draft.status,
      createdAt: new Date(draft.created_at),
      updatedAt: new Date(draft.updated_at),
    });
  }
  const drafts = [...byKey.values()];
  const waiting = drafts.filter((draft) => draft.status === "offered");
  if (waiting.length <= LORE_SUGGESTIONS_MAX) return drafts;
  notes.push({
    name: "Living-lore drafts",
    reason: `kept the oldest ${LORE_SUGGESTIONS_MAX} of ${waiting.length} waiting drafts`,
  });
  const dropped = new Set(
    waiting
      .sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime())
      .slice(LORE_SUGGESTIONS_MAX)
      .map((draft) => draft.id),
  );
  return drafts.filter((draft) => !dropped.has(draft.id));
}

/**
 * Each card's uploaded portrait key (null for none, or a gallery picture). An uploaded portrait belongs to its
 * one card (deleting or changing the card deletes the file), so a second card with the same picture, or a
 * card whose picture is a gallery item's thumbnail, gets a copy of its own.
 */
async function cardPortraitKeys(
  ctx: RestoreContext,
  userId: string,
  archive: Archive,
  files: Map<string, PlannedFile>,
  stored: string[],
): Promise<(string | null)[]> {
  const owned = new Set<string>();
  const keys: (string | null)[] = [];
  for (const card of archive.cards) {
    const file = card.portrait ? files.get(card.portrait) : undefined;
    if (!file || file.role === "gallery") {
      keys.push(null);
      continue;
    }
    if (file.role === "portrait" && !owned.has(file.key!)) {
      owned.add(file.key!);
      keys.push(file.key!);
      continue;
    }
    const copy = restoredMediaKey(userId, { folder: "portraits" }, file.mimeType!);
    stored.push(copy);
    await ctx.storage.put(copy, await ctx.storage.read(file.key!), file.mimeType!);
    keys.push(copy);
  }
  return keys;
}

/** Restores the archive at `path` (the upload, on disk) as a new story of the user's. */
export async function restoreStory(
  ctx: RestoreContext,
  userId: string,
  path: string,
): Promise<ImportedStoryResponse> {
  const zip = await openStoryZip(path);
  const stored: string[] = [];
  try {
    const archive = await readArchiveJson(zip);
    if (archive.cards.length > STORY_CARDS_MAX) {
      throw invalidFile(
        `The backup has ${archive.cards.length} Story Cards; a story can have at most ${STORY_CARDS_MAX}.`,
      );
    }
    archive.cards.forEach((card, i) => {
      try {
        assertKeptDataSize(
          [card.extensions, card.character_card],
          `Card ${i + 1} ("${card.name.slice(0, 60)}")`,
        );
      } catch (error) {
        throw fromJsonError(error);
      }
    });
    const files = planFiles(archive, zip);
    const notes: ImportNote[] = [];
    const storyId = randomUUID();
    const now = ctx.clock.now();
    const s = archive.story;
    const title = cutToFit(s.title.trim() || "Restored story", STORY_TITLE_MAX_LENGTH, "Title", notes);

    // Messages: new ids, their version groups pointing at the new id of their first version.
    const idOf = new Map<string, string>();
    for (const message of archive.messages) {
      if (idOf.has(message.id)) throw invalidFile(`The backup lists message "${message.id}" twice.`);
      idOf.set(message.id, randomUUID());
    }
    for (const message of archive.messages) {
      if (message.version_group && !idOf.has(message.version_group)) {
        throw invalidFile(
          `Message "${message.id}" is a version of "${message.version_group}", which is not in the backup.`,
        );
      }
    }

    // Every file is checked and stored before a row is written.
    for (const file of files.values()) await storeFile(ctx, zip, userId, file, stored);
    const keyOf = (p: string | null) => (p ? (files.get(p)?.key ?? null) : null);

    const media: RestoredMediaItem[] = [];
    const registered = new Set<string>();
    for (const item of archive.media) {
      const file = files.get(item.path)!;
      // The same file listed twice is one gallery item.
      if (file.itemId === null || registered.has(file.itemId)) continue;
      registered.add(file.itemId);
      const thumbnailKey = keyOf(item.thumbnail);
      media.push({
        id: file.itemId,
        userId,
        kind: file.kind,
        storageKey: file.key!,
        thumbnailKey,
        mimeType: file.mimeType!,
        bytes: await ctx.storage.size(file.key!),
        width: file.width ?? null,
        height: file.height ?? null,
        source: "story",
        storyId,
        storyTitle: title,
        messageId: item.message ? (idOf.get(item.message) ?? null) : null,
        description: cutToFit(item.description, 2000, "A picture's description", notes),
        createdAt: new Date(item.created_at),
      });
    }

    let pending = 0;
    const messages: RestoredMessage[] = archive.messages.map((message) => {
      const stillPending = message.media_status === "pending";
      if (stillPending) pending++;
      return {
        id: idOf.get(message.id)!,
        userId,
        storyId,
        role: message.role,
        content: cutToFit(message.content, MESSAGE_MAX_LENGTH, `Message ${message.id}`, notes),
        mode: message.mode,
        sceneDescription:
          message.scene_description === null
            ? null
            : cutToFit(message.scene_description, SCENE_MAX_LENGTH, `Message ${message.id} scene`, notes),
        // No job will finish a scene that was still being made: it is restored as failed, and nothing was paid here.
        mediaStatus: stillPending ? "failed" : message.media_status,
        mediaError: stillPending ? MEDIA_PENDING_DETAIL : message.media_error,
        imageKey: keyOf(message.image),
        videoKey: keyOf(message.video),
        chargedTenths: 0,
        referenceKeys: message.references.map((p) => keyOf(p)!),
        versionGroup: message.version_group ? idOf.get(message.version_group)! : null,
        versionNumber: message.version_number,
        hidden: message.hidden,
        stopped: message.stopped,
        createdAt: new Date(message.created_at),
        updatedAt: new Date(message.updated_at),
      };
    });
    if (pending > 0) {
      notes.push({
        name: "Scenes",
        reason: `${pending} scene(s) were still being made when the backup was taken`,
      });
    }

    const galleryItemOf = new Map(media.map((row) => [row.storageKey, row.id]));
    const uploadedPortraitOf = await cardPortraitKeys(ctx, userId, archive, files, stored);
    const taken = new Set<string>();
    let uploadedPortraits = 0;
    const cards: RestoredCard[] = archive.cards.map((card, i) => {
      const name = uniqueName(
        cutToFit(
          card.name.trim().normalize("NFC") || `Card ${i + 1}`,
          CARD_NAME_MAX_LENGTH,
          `Card ${i + 1} name`,
          notes,
        ),
        taken,
        notes,
      );
      const portrait = card.portrait ? files.get(card.portrait)! : null;
      const portraitItemId = portrait?.role === "gallery" ? (galleryItemOf.get(portrait.key!) ?? null) : null;
      const portraitKey = portraitItemId ? null : (uploadedPortraitOf[i] ?? null);
      if (portraitKey) uploadedPortraits++;
      return {
        id: randomUUID(),
        userId,
        storyId,
        name,
        kind: card.kind,
        triggers: triggersOrName(cleanTriggers(card.triggers, name, notes), card.constant, name, notes),
        secondaryTriggers: cleanTriggers(card.secondary_triggers, name, notes),
        selectiveLogic: card.selective_logic,
        constant: card.constant,
        insertionOrder: clamp(card.insertion_order, 0, CARD_ORDER_MAX),
        priority: clamp(card.priority, 0, CARD_ORDER_MAX),
        caseSensitive: card.case_sensitive,
        voice: card.voice,
        appearance: cutToFit(card.appearance, APPEARANCE_MAX_LENGTH, `Card "${name}" appearance`, notes),
        appearanceUpdatedAt: card.appearance ? now : null,
        description: cutToFit(
          card.description,
          CARD_DESCRIPTION_MAX_LENGTH,
          `Card "${name}" description`,
          notes,
        ),
        enabled: card.enabled,
        extensions: card.extensions,
        characterCard: card.character_card,
        portraitItemId,
        portraitKey,
        createdAt: new Date(card.created_at),
        updatedAt: new Date(card.updated_at),
      };
    });

    const pinned = keyOf(s.pinned_thumbnail);
    // Generation settings (backups before them have none: the defaults).
    const generation = await generationFromBackup(ctx, s.generation);
    if (generation.dropped.length > 0) {
      notes.push({
        name: "Generation settings",
        reason: `${generation.dropped.join(", ")}: not valid here, the default is used`,
      });
    }
    await ctx.db.transaction(async (tx) => {
      await assertRoomForRestoredPortraits(tx, userId, uploadedPortraits);
      await insertRestoredStory(
        tx,
        {
          id: storyId,
          userId,
          title,
          context: cutToFit(s.context, STORY_CONTEXT_MAX_LENGTH, "Context", notes),
          memory: cutToFit(s.memory, MEMORY_MAX_LENGTH, "Memory", notes),
          authorsNote: cutToFit(s.authors_note, AUTHORS_NOTE_MAX_LENGTH, "Author's Note", notes),
          summary: cutToFit(s.summary, SUMMARY_MAX_LENGTH, "Summary", notes),
          summaryThrough: s.summary_through ? new Date(s.summary_through) : null,
          summaryUpdatedAt: s.summary_updated_at ? new Date(s.summary_updated_at) : null,
          // The lore settings' own limits, so the settings panel can save them again as they are.
          narratorInstructions: cutToFit(
            s.narrator_instructions,
            NARRATOR_INSTRUCTIONS_MAX_LENGTH,
            "Narrator instructions",
            notes,
          ),
          postHistoryInstructions: cutToFit(
            s.post_history_instructions,
            POST_HISTORY_INSTRUCTIONS_MAX_LENGTH,
            "Post-history instructions",
            notes,
          ),
          creatorNotes: cutToFit(s.creator_notes, IMPORTED_CREATOR_NOTES_MAX_LENGTH, "Creator notes", notes),
          characterName: cutToFit(s.character_name, STORY_TITLE_MAX_LENGTH, "Character name", notes),
          loreBudgetPercent: clamp(s.lore_budget_percent, 5, 90),
          loreScanDepth: clamp(s.lore_scan_depth, 0, 20),
          ...generation.values,
          scenePlace: cutToFit(s.scene_state.place, SCENE_STATE_FIELD_MAX_LENGTH, "Scene place", notes),
          sceneTimeOfDay: cutToFit(
            s.scene_state.time_of_day,
            SCENE_STATE_FIELD_MAX_LENGTH,
            "Scene time of day",
            notes,
          ),
          sceneWeather: cutToFit(s.scene_state.weather, SCENE_STATE_FIELD_MAX_LENGTH, "Scene weather", notes),
          pinnedThumbnailKey: pinned,
          pinnedAt: pinned ? now : null,
          // A new story of this account: it was made now (what the original's dates were stays in its messages).
          createdAt: now,
          updatedAt: now,
        },
        cards,
        restoredDrafts(archive, userId, storyId, notes),
      );
      await insertRestoredMediaItems(tx, media);
      await insertRestoredMessages(tx, messages);
    });
    return { success: true, story: await restoredStory(ctx, userId, storyId), notes };
  } catch (error) {
    await Promise.all(
      stored.map((key) =>
        ctx.storage.delete(key).catch((cause: Error) => {
          ctx.log.warn({ err: cause, key }, "restore: a stored file could not be removed again");
        }),
      ),
    );
    throw error;
  } finally {
    zip.close();
  }
}
