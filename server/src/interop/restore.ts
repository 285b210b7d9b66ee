// Restoring a story archive (backup-format.ts; docs/story-archive.md) as a NEW story of the caller's, on this
// instance or another: every branch with its messages and every version, its checkpoints, its Story Cards with
// their portraits, its settings, and every media file stored again under the caller's own storage keys and
// registered as the caller's gallery items. Nothing of the archive's ids or keys is reused. Restoring is free.
// Texts longer than the app allows are cut, each with a note in the answer.
//
// Bounded (issue #39, decision 0123): the archive unpacks to at most a few times its upload's size
// (restore-archive.ts), its JSON and message count are capped, each picture is decoded and each clip's
// container parsed before it is kept, each within its size cap, and the media must fit the account's storage.
// It runs in two steps: `previewRestore` checks the whole JSON and says what the story holds, storing nothing;
// `writeRestore` (the restore job, restore-job.ts) stores the files, each key recorded before its file, then
// writes the rows in batches of RESTORE_BATCH_MESSAGES messages, each its own short transaction, the story
// hidden (`restoring`) until the last batch shows it whole. A failure or a kill leaves nothing visible, and the
// job or the sweep removes what was written.
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  BRANCH_NAME_MAX_LENGTH,
  CHECKPOINT_NAME_MAX_LENGTH,
  FIRST_BRANCH_NAME,
} from "@storyverse/contract/branches";
import { APPEARANCE_MAX_LENGTH, SCENE_STATE_FIELD_MAX_LENGTH } from "@storyverse/contract/camera";
import { GROUP_MAX_CHARACTERS, GROUP_MIN_CHARACTERS } from "@storyverse/contract/generation-settings";
import type { ImportedStoryResponse, ImportNote } from "@storyverse/contract/interop";
import { LORE_SUGGESTIONS_MAX } from "@storyverse/contract/lore";
import { STORY_CONTEXT_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from "@storyverse/contract/stories";
import {
  CARD_DESCRIPTION_MAX_LENGTH,
  CARD_NAME_MAX_LENGTH,
  CARD_ORDER_MAX,
  CARD_TRIGGER_MAX_LENGTH,
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
import type { z } from "zod";
import type { AppContext } from "../context";
import { insertRestoredMessages, type RestoredMessage } from "../conversation";
import type { Queryable } from "../db/client";
import type { PresentCharacter } from "../db/schema";
import {
  assertStorageAvailable,
  insertRestoredMediaItems,
  inspectArchivedImage,
  type RestoredMediaItem,
  restoredMediaKey,
} from "../media";
import { TooLarge } from "../platform/errors";
import {
  deleteRestoringStory,
  finishRestoredStory,
  generationFromBackup,
  insertRestoringStories,
  type RestoredStory,
  type RestoredTeller,
  restoredStory,
  setRestoredTellers,
} from "../stories";
import {
  assertRoomForRestoredPortraits,
  cutToFit,
  encodePortrait,
  fitTriggers,
  freeName,
  GALLERY_REFERENCE_PREFIX,
  insertRestoredCardsAndDrafts,
  nameKeyOf,
  PORTRAIT_MAX_STORED_BYTES,
  type RestoredCard,
  type RestoredDraft,
  renamedNote,
} from "../story-cards";
import {
  ARCHIVE_MESSAGES_MAX,
  BACKUP_FORMAT,
  BACKUP_JSON_NAME,
  BACKUP_VERSION,
  type ParsedStoryArchive,
  storyArchiveSchema,
} from "./backup-format";
import { decodeUtf8, InteropError, parseJsonSafely } from "./formats/errors";
import { assertKeptDataSize, IMPORTED_CREATOR_NOTES_MAX_LENGTH } from "./import-plan";
import { assertEntrySize, invalidFile, openStoryZip, type StoryZip } from "./restore-archive";
import { probeClip } from "./restore-probe";

type RestoreContext = Pick<AppContext, "db" | "storage" | "clock" | "log" | "providers" | "jobs" | "config">;

/** The largest storyverse-story.json read (a 10,000-exchange story with every branch's copies is well under). */
export const JSON_MAX_BYTES = 32 * 1024 * 1024;
/** The largest picture kept from an archive (a generated picture is a few MB). */
export const PICTURE_MAX_BYTES = 32 * 1024 * 1024;
/** The largest clip kept from an archive (a scene's clip is a few MB; a long story's film can be far more). */
export const CLIP_MAX_BYTES = 256 * 1024 * 1024;
/** Messages written per transaction: short enough that other requests get through between them on PGlite. */
export const RESTORE_BATCH_MESSAGES = 500;
/** What a restored story's title carries, so it is never mistaken for the original. */
export const RESTORED_MARK = " (restored)";
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
  const messages = (raw as { messages?: unknown }).messages;
  if (Array.isArray(messages) && messages.length > ARCHIVE_MESSAGES_MAX) {
    throw new TooLarge(
      `The backup holds ${messages.length} messages; a story backup holds at most ${ARCHIVE_MESSAGES_MAX}.`,
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
  for (const card of archive.cards) {
    for (const path of [...(card.portrait ? [card.portrait] : []), ...card.references]) {
      want(path, "image", "portrait");
    }
  }
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

const notAPicture = (path: string) =>
  invalidFile(`"${path}" in the archive is not a picture this app can show (PNG, JPEG, WebP or GIF).`);

/** Where a file of the restore is being stored: its key is recorded (`record`) before a byte is kept. */
type StoreHooks = { record(keys: string[]): Promise<void>; workDir: string };

/** Checks one file by its bytes (a picture decoded, a clip's container parsed) and stores it under a new key. */
async function storeFile(
  ctx: RestoreContext,
  zip: StoryZip,
  userId: string,
  file: PlannedFile,
  hooks: StoreHooks,
): Promise<void> {
  const entry = zip.entries.get(file.path)!;
  if (file.kind === "video") {
    assertEntrySize(entry, CLIP_MAX_BYTES);
    // Unpacked to the upload's folder first: the parse reads its structure from disk, never the whole clip into memory.
    const temp = path.join(hooks.workDir, `clip-${randomUUID()}`);
    try {
      await pipeline(await zip.stream(entry), createWriteStream(temp));
      const type = await probeClip(temp);
      if (!type) {
        throw invalidFile(
          `"${file.path}" in the archive is not a video this app can play: it is not a whole MP4 or WebM.`,
        );
      }
      file.mimeType = type;
      file.key = restoredMediaKey(userId, { item: file.itemId!, thumbnail: false }, type);
      await hooks.record([file.key]);
      await ctx.storage.putStream(file.key, createReadStream(temp), type);
    } finally {
      await rm(temp, { force: true });
    }
    return;
  }
  let data = await zip.read(entry, PICTURE_MAX_BYTES);
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
  await hooks.record([file.key]);
  await ctx.storage.put(file.key, data, mimeType);
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
 * Each card's uploaded portrait key (null for none, or a gallery picture), and its other references' keys
 * likewise (decision 0161). An uploaded picture belongs to its one card in a branch (deleting or changing the
 * card deletes the file unless another card names it), so a second card of the same branch with the same
 * picture, or a card whose picture is a gallery item's thumbnail, gets a copy of its own; the cards of other
 * branches share it, as a branch's copies do.
 */
async function cardPortraitKeys(
  ctx: RestoreContext,
  userId: string,
  archive: Archive,
  files: Map<string, PlannedFile>,
  hooks: StoreHooks,
): Promise<{ portrait: string | null; references: (string | null)[] }[]> {
  const owned = new Set<string>();
  const keyOf = async (branch: string | null, path: string | null): Promise<string | null> => {
    const file = path ? files.get(path) : undefined;
    if (!file || file.role === "gallery") return null;
    const ownership = `${branch ?? ""}\n${file.key}`;
    if (file.role === "portrait" && !owned.has(ownership)) {
      owned.add(ownership);
      return file.key!;
    }
    const copy = restoredMediaKey(userId, { folder: "portraits" }, file.mimeType!);
    await hooks.record([copy]);
    await ctx.storage.put(copy, await ctx.storage.read(file.key!), file.mimeType!);
    return copy;
  };
  const keys: { portrait: string | null; references: (string | null)[] }[] = [];
  for (const card of archive.cards) {
    const portrait = await keyOf(card.branch, card.portrait);
    const references: (string | null)[] = [];
    for (const path of card.references) references.push(await keyOf(card.branch, path));
    keys.push({ portrait, references });
  }
  return keys;
}

/** What the player is shown before confirming a restore. */
export type RestorePreview = {
  /** The title the restored story will have (with RESTORED_MARK). */
  title: string;
  /** The exchanges of the branch the story opens on (its shown narrator answers). */
  exchanges: number;
  branches: number;
  checkpoints: number;
  /** Pictures and clips of the story's gallery. */
  media: number;
  /** What the restore stores, in bytes (every file). */
  bytes: number;
};

/** The archive's branches: its list, or the one branch of a format-1 archive; ids checked unique. */
function branchesOf(archive: Archive) {
  const listed = archive.branches.length > 0 ? archive.branches : null;
  const branches = listed ?? [
    {
      id: "b1",
      name: FIRST_BRANCH_NAME,
      story: null,
      forked_from_branch: null,
      forked_from_message: null,
      fork_turn: null,
      fork_words: null,
      created_at: archive.story.created_at,
      updated_at: archive.story.updated_at,
    },
  ];
  const ids = new Set<string>();
  for (const branch of branches) {
    if (ids.has(branch.id)) throw invalidFile(`The backup lists branch "${branch.id}" twice.`);
    ids.add(branch.id);
  }
  const first = branches[0]!.id;
  /** The archive branch a message, card, draft or item is on (null: the first). */
  const branchOf = (id: string | null, what: string) => {
    if (id === null) return first;
    if (!ids.has(id)) throw invalidFile(`${what} is on branch "${id}", which is not in the backup.`);
    return id;
  };
  if (archive.viewing_branch !== null) branchOf(archive.viewing_branch, "The story's view");
  return { branches, first, branchOf };
}

const restoredTitle = (archive: Archive, notes: ImportNote[]) =>
  `${cutToFit(
    archive.story.title.trim() || "Restored story",
    STORY_TITLE_MAX_LENGTH - RESTORED_MARK.length,
    "Title",
    notes,
  )}${RESTORED_MARK}`;

/** The account's storage quota (issue #39 item 1): refused with 413 before any byte is kept. */
const assertStorageForRestore = (ctx: RestoreContext, userId: string, bytes: number) =>
  assertStorageAvailable(ctx, userId, bytes);

/** Everything a restore checks before it stores a byte: the JSON, its references, and the bounds. */
async function checkArchive(ctx: RestoreContext, userId: string, zip: StoryZip) {
  const archive = await readArchiveJson(zip);
  const tree = branchesOf(archive);
  const cardsPerBranch = new Map<string, number>();
  archive.cards.forEach((card, i) => {
    const branch = tree.branchOf(card.branch, `Card ${i + 1}`);
    cardsPerBranch.set(branch, (cardsPerBranch.get(branch) ?? 0) + 1);
    try {
      assertKeptDataSize(
        [card.extensions, card.character_card],
        `Card ${i + 1} ("${card.name.slice(0, 60)}")`,
      );
    } catch (error) {
      throw fromJsonError(error);
    }
  });
  const most = Math.max(0, ...cardsPerBranch.values());
  if (most > STORY_CARDS_MAX) {
    throw invalidFile(
      `The backup has ${most} Story Cards on one branch; a story can have at most ${STORY_CARDS_MAX}.`,
    );
  }
  for (const message of archive.messages) tree.branchOf(message.branch, `Message "${message.id}"`);
  for (const draft of archive.lore_drafts) tree.branchOf(draft.branch, `Draft "${draft.name.slice(0, 60)}"`);
  for (const item of archive.media) tree.branchOf(item.branch, `"${item.path}"`);
  const files = planFiles(archive, zip);
  const ids = new Set<string>();
  for (const message of archive.messages) {
    if (ids.has(message.id)) throw invalidFile(`The backup lists message "${message.id}" twice.`);
    ids.add(message.id);
  }
  for (const message of archive.messages) {
    if (message.version_group && !ids.has(message.version_group)) {
      throw invalidFile(
        `Message "${message.id}" is a version of "${message.version_group}", which is not in the backup.`,
      );
    }
  }
  const bytes = [...files.keys()].reduce((sum, p) => sum + zip.entries.get(p)!.uncompressedSize, 0);
  await assertStorageForRestore(ctx, userId, bytes);
  const notes: ImportNote[] = [];
  const viewing = archive.viewing_branch ?? tree.first;
  const preview: RestorePreview = {
    title: restoredTitle(archive, notes),
    exchanges: archive.messages.filter(
      (m) => tree.branchOf(m.branch, "") === viewing && m.role === "assistant" && !m.hidden,
    ).length,
    branches: tree.branches.length,
    checkpoints: archive.messages.filter((m) => m.checkpoint !== null).length,
    media: new Set(archive.media.map((item) => item.path)).size,
    bytes,
  };
  return { archive, tree, files, preview };
}

/** Checks the archive at `archivePath` whole and says what it holds; stores nothing. */
export async function previewRestore(
  ctx: RestoreContext,
  userId: string,
  archivePath: string,
): Promise<RestorePreview> {
  const zip = await openStoryZip(archivePath);
  try {
    return (await checkArchive(ctx, userId, zip)).preview;
  } finally {
    zip.close();
  }
}

/** What the restore job gives writeRestore: where the upload is, and how to record keys and progress. */
export type RestoreRun = {
  userId: string;
  archivePath: string;
  /** A folder of the restore's own for clips being checked (the upload's). */
  workDir: string;
  /** Records storage keys before their files are stored (so a sweep can find what a killed restore left). */
  record(keys: string[]): Promise<void>;
  /** The story's first row, in the first batch's transaction (so the sweep can find a half-written story). */
  started(q: Queryable, storyId: string): Promise<void>;
  /** 0 to 100, in each batch's transaction. */
  progress(q: Queryable, percent: number): Promise<void>;
  /** In the last batch's transaction: the story is shown with the restore's outcome. */
  finished(q: Queryable, storyId: string, notes: ImportNote[]): Promise<void>;
};

/** Restores the archive as a new story of the user's, in batches; the story is shown only by the last. */
export async function writeRestore(ctx: RestoreContext, run: RestoreRun): Promise<ImportedStoryResponse> {
  const zip = await openStoryZip(run.archivePath);
  try {
    const { archive, tree, files, preview } = await checkArchive(ctx, run.userId, zip);
    const userId = run.userId;
    const notes: ImportNote[] = [];
    const now = ctx.clock.now();
    const title = preview.title;
    restoredTitle(archive, notes);

    // New ids: branches (the first is the story's), messages (version groups and copies follow them).
    const branchIdOf = new Map(tree.branches.map((branch) => [branch.id, randomUUID()]));
    const storyId = branchIdOf.get(tree.first)!;
    const idOf = new Map(archive.messages.map((message) => [message.id, randomUUID()]));

    // Every file is checked and stored before a row is written (keys recorded first).
    const hooks: StoreHooks = { record: run.record, workDir: run.workDir };
    let done = 0;
    for (const file of files.values()) {
      await storeFile(ctx, zip, userId, file, hooks);
      done += 1;
      if (done % 20 === 0) await run.progress(ctx.db, Math.floor((done / files.size) * 40));
    }
    const keyOf = (p: string | null) => (p ? (files.get(p)?.key ?? null) : null);

    const media: RestoredMediaItem[] = [];
    const registered = new Set<string>();
    for (const item of archive.media) {
      const file = files.get(item.path)!;
      // The same file listed twice is one gallery item.
      if (file.itemId === null || registered.has(file.itemId)) continue;
      registered.add(file.itemId);
      media.push({
        id: file.itemId,
        userId,
        kind: file.kind,
        storageKey: file.key!,
        thumbnailKey: keyOf(item.thumbnail),
        mimeType: file.mimeType!,
        bytes: await ctx.storage.size(file.key!),
        width: file.width ?? null,
        height: file.height ?? null,
        source: "story",
        storyId: branchIdOf.get(tree.branchOf(item.branch, ""))!,
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
        storyId: branchIdOf.get(tree.branchOf(message.branch, ""))!,
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
        checkpoint:
          message.checkpoint === null
            ? null
            : cutToFit(
                message.checkpoint,
                CHECKPOINT_NAME_MAX_LENGTH,
                `Message ${message.id} checkpoint`,
                notes,
              ),
        copiedFrom: message.copied_from ? (idOf.get(message.copied_from) ?? null) : null,
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
    const uploadedPortraitOf = await cardPortraitKeys(ctx, userId, archive, files, hooks);
    const takenOf = new Map<string, Set<string>>();
    const uploadedPortraits = new Set<string>();
    const cards: RestoredCard[] = archive.cards.map((card, i) => {
      const branch = tree.branchOf(card.branch, "");
      const taken = takenOf.get(branch) ?? new Set<string>();
      takenOf.set(branch, taken);
      const wanted = cutToFit(
        card.name.trim().normalize("NFC") || `Card ${i + 1}`,
        CARD_NAME_MAX_LENGTH,
        `Card ${i + 1} name`,
        notes,
      );
      const name = freeName(wanted, taken);
      if (name !== wanted) notes.push(renamedNote(`Card "${wanted}"`, name));
      const portrait = card.portrait ? files.get(card.portrait)! : null;
      const portraitItemId = portrait?.role === "gallery" ? (galleryItemOf.get(portrait.key!) ?? null) : null;
      const portraitKey = portraitItemId ? null : (uploadedPortraitOf[i]?.portrait ?? null);
      if (portraitKey) uploadedPortraits.add(portraitKey);
      // The other references as the portrait: a gallery item's picture stays the gallery's, else an upload.
      const referenceExtras = card.references.flatMap((path, r) => {
        const file = files.get(path)!;
        const itemId = file.role === "gallery" ? galleryItemOf.get(file.key!) : undefined;
        if (itemId) return [`${GALLERY_REFERENCE_PREFIX}${itemId}`];
        const key = uploadedPortraitOf[i]?.references[r] ?? null;
        if (key) uploadedPortraits.add(key);
        return key ? [key] : [];
      });
      return {
        id: randomUUID(),
        userId,
        storyId: branchIdOf.get(branch)!,
        name,
        kind: card.kind,
        triggers: triggersOrName(
          fitTriggers(card.triggers, `Card "${name}"`, notes),
          card.constant,
          name,
          notes,
        ),
        secondaryTriggers: fitTriggers(card.secondary_triggers, `Card "${name}"`, notes),
        selectiveLogic: card.selective_logic,
        constant: card.constant,
        insertionOrder: clamp(card.insertion_order, 0, CARD_ORDER_MAX),
        priority: clamp(card.priority, 0, CARD_ORDER_MAX),
        caseSensitive: card.case_sensitive,
        voice: card.voice,
        appearance: cutToFit(card.appearance, APPEARANCE_MAX_LENGTH, `Card "${name}" appearance`, notes),
        appearanceUpdatedAt: card.appearance ? now : null,
        talkativeness: clamp(card.talkativeness, 0, 1),
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
        referenceExtras,
        createdAt: new Date(card.created_at),
        updatedAt: new Date(card.updated_at),
      };
    });

    // Who tells each branch, who spoke each message and who was present, by card name among the branch's
    // restored cards (decisions 0154, 0164, 0165): an archive names cards, since their ids are new here.
    const cardKey = (branch: string, name: string) =>
      `${branch}\u0000${name.trim().normalize("NFC").toLowerCase()}`;
    const restoredCardOf = new Map<string, RestoredCard>();
    archive.cards.forEach((card, i) => {
      const key = cardKey(tree.branchOf(card.branch, ""), card.name);
      if (!restoredCardOf.has(key)) restoredCardOf.set(key, cards[i]!);
    });
    // A name no card of the branch has any more is kept with no card: matching by name still finds it.
    const characterNamed = (branch: string, name: string): PresentCharacter => {
      const card = restoredCardOf.get(cardKey(branch, name));
      return { card_id: card?.id ?? "", name: card?.name ?? name.slice(0, 200) };
    };
    const charactersNamed = (branch: string, names: string[] | null) =>
      names === null ? null : names.map((name) => characterNamed(branch, name));
    archive.messages.forEach((message, i) => {
      const branch = tree.branchOf(message.branch, "");
      messages[i]!.present = charactersNamed(branch, message.present);
      if (message.speaker === null || message.role !== "assistant") return;
      messages[i]!.speaker = characterNamed(branch, message.speaker);
    });
    const tellers: RestoredTeller[] = tree.branches.map((branch) => {
      const s = (branch.id !== tree.first && branch.story) || archive.story;
      const where = branch.id === tree.first ? "" : ` (branch "${branch.name.slice(0, 60)}")`;
      const card = s.teller_card === null ? undefined : restoredCardOf.get(cardKey(branch.id, s.teller_card));
      const group = restoredGroup(s, (name) => restoredCardOf.get(cardKey(branch.id, name)));
      if (s.teller === "character" && !card) {
        notes.push({
          name: `Who tells the story${where}`,
          reason: "the character's card is not in the backup: the narrator tells it",
        });
      }
      if (s.teller === "group" && !group.plays) {
        notes.push({
          name: `Who tells the story${where}`,
          reason: "the group's characters are not in the backup: the narrator tells it",
        });
      }
      return {
        storyId: branchIdOf.get(branch.id)!,
        teller:
          s.teller === "group" && group.plays
            ? "group"
            : s.teller === "character" && card
              ? "character"
              : "narrator",
        tellerCardId: card?.id ?? null,
        groupCardIds: group.presentIds,
        mutedCardIds: group.mutedIds,
        speakerOrder: s.speaker_order,
      };
    });

    // Each branch's row: its own words and settings (the first's are the archive's `story`).
    const rows: RestoredStory[] = [];
    const drafts: RestoredDraft[] = [];
    for (const branch of tree.branches) {
      const id = branchIdOf.get(branch.id)!;
      const isFirst = branch.id === tree.first;
      const s = (!isFirst && branch.story) || archive.story;
      const where = isFirst ? "" : ` (branch "${branch.name.slice(0, 60)}")`;
      const generation = await generationFromBackup(ctx, s.generation);
      if (generation.dropped.length > 0) {
        notes.push({
          name: `Generation settings${where}`,
          reason: `${generation.dropped.join(", ")}: not valid here, the default is used`,
        });
      }
      const pinned = keyOf(s.pinned_thumbnail);
      const forkedFrom = branch.forked_from_branch
        ? (branchIdOf.get(branch.forked_from_branch) ?? null)
        : null;
      rows.push({
        id,
        userId,
        title,
        context: cutToFit(s.context, STORY_CONTEXT_MAX_LENGTH, `Context${where}`, notes),
        memory: cutToFit(s.memory, MEMORY_MAX_LENGTH, `Memory${where}`, notes),
        authorsNote: cutToFit(s.authors_note, AUTHORS_NOTE_MAX_LENGTH, `Author's Note${where}`, notes),
        summary: cutToFit(s.summary, SUMMARY_MAX_LENGTH, `Summary${where}`, notes),
        summaryThrough: s.summary_through ? new Date(s.summary_through) : null,
        summaryUpdatedAt: s.summary_updated_at ? new Date(s.summary_updated_at) : null,
        // The lore settings' own limits, so the settings panel can save them again as they are.
        narratorInstructions: cutToFit(
          s.narrator_instructions,
          NARRATOR_INSTRUCTIONS_MAX_LENGTH,
          `Narrator instructions${where}`,
          notes,
        ),
        postHistoryInstructions: cutToFit(
          s.post_history_instructions,
          POST_HISTORY_INSTRUCTIONS_MAX_LENGTH,
          `Post-history instructions${where}`,
          notes,
        ),
        creatorNotes: cutToFit(
          s.creator_notes,
          IMPORTED_CREATOR_NOTES_MAX_LENGTH,
          `Creator notes${where}`,
          notes,
        ),
        characterName: cutToFit(s.character_name, STORY_TITLE_MAX_LENGTH, `Character name${where}`, notes),
        loreBudgetPercent: clamp(s.lore_budget_percent, 5, 90),
        loreScanDepth: clamp(s.lore_scan_depth, 0, 20),
        ...generation.values,
        scenePlace: cutToFit(s.scene_state.place, SCENE_STATE_FIELD_MAX_LENGTH, `Scene place${where}`, notes),
        sceneTimeOfDay: cutToFit(
          s.scene_state.time_of_day,
          SCENE_STATE_FIELD_MAX_LENGTH,
          `Scene time of day${where}`,
          notes,
        ),
        sceneWeather: cutToFit(
          s.scene_state.weather,
          SCENE_STATE_FIELD_MAX_LENGTH,
          `Scene weather${where}`,
          notes,
        ),
        pinnedThumbnailKey: pinned,
        pinnedAt: pinned ? now : null,
        knowsWhatTheySaw: s.knows_what_they_saw,
        summaryWitnesses: charactersNamed(branch.id, s.summary_witnesses),
        rootId: isFirst ? null : storyId,
        branchName: cutToFit(
          branch.name.trim() || FIRST_BRANCH_NAME,
          BRANCH_NAME_MAX_LENGTH,
          "A branch's name",
          notes,
        ),
        forkedFromBranchId: forkedFrom,
        forkedFromMessageId:
          forkedFrom && branch.forked_from_message ? (idOf.get(branch.forked_from_message) ?? null) : null,
        forkTurn: forkedFrom ? branch.fork_turn : null,
        forkWords:
          forkedFrom && branch.fork_words !== null
            ? cutToFit(branch.fork_words, 200, "A fork's words", notes)
            : null,
        // A new story of this account: it was made now (what the original's dates were stays in its messages).
        createdAt: now,
        updatedAt: now,
      });
      const onBranch = {
        ...archive,
        lore_drafts: archive.lore_drafts.filter((d) => tree.branchOf(d.branch, "") === branch.id),
      };
      drafts.push(...restoredDrafts(onBranch, userId, id, notes));
    }
    // Branches after the first come after it in time (the tree orders by creation).
    rows.forEach((row, i) => {
      if (i > 0) row.createdAt = new Date(now.getTime() + i);
      row.updatedAt = row.createdAt;
    });

    // The first batch: every branch's row, hidden until the last.
    await ctx.db.transaction(async (tx) => {
      await insertRestoringStories(tx, rows);
      await run.started(tx, storyId);
    });
    for (let start = 0; start < messages.length; start += RESTORE_BATCH_MESSAGES) {
      // Other requests get their turn between batches (on PGlite one transaction holds the only connection).
      await new Promise((resolve) => setImmediate(resolve));
      await ctx.db.transaction(async (tx) => {
        await insertRestoredMessages(tx, messages.slice(start, start + RESTORE_BATCH_MESSAGES));
        await run.progress(tx, 40 + Math.floor(((start + RESTORE_BATCH_MESSAGES) / messages.length) * 55));
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    const viewing = archive.viewing_branch ? branchIdOf.get(archive.viewing_branch)! : storyId;
    await ctx.db.transaction(async (tx) => {
      await assertRoomForRestoredPortraits(tx, userId, uploadedPortraits.size);
      await insertRestoredMediaItems(tx, media);
      await insertRestoredCardsAndDrafts(tx, cards, drafts);
      await setRestoredTellers(tx, userId, tellers);
      await finishRestoredStory(tx, userId, storyId, viewing === storyId ? null : viewing);
      await run.finished(tx, storyId, notes);
    });
    return { success: true, story: await restoredStory(ctx, userId, storyId), notes };
  } finally {
    zip.close();
  }
}

/**
 * A branch's group as the restored cards have it (decision 0164): the present cards found by name, each once, at
 * most GROUP_MAX_CHARACTERS, and the muted among them. It plays as a group only as the settings would allow
 * one: at least GROUP_MIN_CHARACTERS present and one of them not muted.
 */
function restoredGroup(
  s: Archive["story"],
  cardNamed: (name: string) => RestoredCard | undefined,
): { presentIds: string[]; mutedIds: string[]; plays: boolean } {
  const ids = (names: string[]) => [...new Set(names.flatMap((name) => cardNamed(name)?.id ?? []))];
  const presentIds = ids(s.group_cards).slice(0, GROUP_MAX_CHARACTERS);
  const mutedIds = ids(s.muted_cards).filter((id) => presentIds.includes(id));
  return {
    presentIds,
    mutedIds,
    plays: presentIds.length >= GROUP_MIN_CHARACTERS && mutedIds.length < presentIds.length,
  };
}

/** Removes what a restore that did not finish wrote: its hidden story and the files it recorded. */
export async function undoRestore(
  ctx: Pick<AppContext, "db" | "storage" | "log">,
  userId: string,
  storyId: string | null,
  keys: string[],
): Promise<void> {
  if (storyId) await deleteRestoringStory(ctx.db, userId, storyId);
  await Promise.all(
    keys.map((key) =>
      ctx.storage.delete(key).catch((cause: Error) => {
        ctx.log.warn({ err: cause, key }, "restore: a stored file could not be removed again");
      }),
    ),
  );
}
