// Whole-story backup: one zip holding `storyverse-story.json` (backup-format.ts; docs/story-archive.md) and
// every media file of the story under media/: the whole tree of branches (issue #39: every branch with its
// own messages, settings, cards, drafts and checkpoints, not just the branch being viewed), its gallery
// pictures and clips with their thumbnails (the film included: it is a gallery clip of the story), the
// portraits of its Story Cards and the reference images its turns kept. Only the owner gets it (anyone else:
// 404, decided before a byte is sent). Files are streamed in one at a time at the pace the download reads
// them (platform/zip-entries.ts), so a story's media never sit in memory; the JSON goes last, naming only the
// files that made it into the archive, so a backup never points at a file it lacks.
import type { Readable } from "node:stream";
import { GROUP_MIN_CHARACTERS } from "@storyverse/contract/generation-settings";
import { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { type BackupMessage, storyMessagesForBackup } from "../conversation";
import { fileStem } from "../exports";
import { type BackupMediaItem, extensionOfType, ownedMediaByIds, storyMediaForBackup } from "../media";
import { ArchiveAbandoned, addStreamedEntry } from "../platform/zip-entries";
import { type BackupStory, generationForBackup, speakerOrderOf, treeForBackup } from "../stories";
import {
  type BackupCard,
  type BackupDraft,
  branchCardsForBackup,
  GALLERY_REFERENCE_PREFIX,
} from "../story-cards";
import { BACKUP_FORMAT, BACKUP_JSON_NAME, BACKUP_VERSION, type StoryArchive } from "./backup-format";

type BackupContext = Pick<AppContext, "db" | "storage" | "clock" | "log">;

const extensionOfKey = (key: string) => /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? "bin";

/** One branch's rows, as the plan takes them. */
export type BranchParts = {
  story: BackupStory;
  messages: BackupMessage[];
  cards: BackupCard[];
  /** Living-lore drafts, offered, accepted or dismissed (no files). */
  drafts?: BackupDraft[];
  items: BackupMediaItem[];
};

type PlannedMedia = {
  key: string;
  kind: "image" | "video";
  thumbnailKey: string | null;
  messageId: string | null;
  description: string;
  createdAt: Date;
};

/** What a backup holds, read before the download starts: the rows, and each storage key's path in the archive. */
type BackupPlan = {
  /** Every branch, the first first, with its gallery items (plus a stand-in for a message file with none). */
  branches: (Required<BranchParts> & { media: PlannedMedia[] })[];
  viewingBranchId: string | null;
  /** Each card's portrait file (its upload, or its gallery picture's original). */
  portraitOf: Map<string, string>;
  /** Each card's other reference files after the portrait (decision 0161), in order, as the portrait's. */
  referencesOf: Map<string, string[]>;
  /** Storage key -> archive path, each file once, in the order they go in. */
  paths: Map<string, string>;
};

/** Chooses every file's place in the archive (pure: the rows in, the plan out). */
export function planBackup(parts: {
  branches: BranchParts[];
  viewingBranchId?: string | null;
  portraitItems: Pick<BackupMediaItem, "id" | "kind" | "storageKey">[];
}): BackupPlan {
  const paths = new Map<string, string>();
  const counters = new Map<string, number>();
  const place = (key: string, folder: string, extension = extensionOfKey(key)) => {
    const known = paths.get(key);
    if (known) return known;
    const n = (counters.get(folder) ?? 0) + 1;
    counters.set(folder, n);
    const path = `media/${folder}/${String(n).padStart(4, "0")}.${extension}`;
    paths.set(key, path);
    return path;
  };

  // A file is one gallery item of the story, whichever branches' messages show it (a branch's copies share it).
  const itemKeys = new Set<string>();
  const branches: BackupPlan["branches"] = parts.branches.map((branch) => {
    const media: PlannedMedia[] = [];
    for (const item of branch.items) {
      if (itemKeys.has(item.storageKey)) continue;
      place(item.storageKey, item.kind === "video" ? "videos" : "images", extensionOfType(item.mimeType));
      if (item.thumbnailKey) place(item.thumbnailKey, "thumbnails");
      itemKeys.add(item.storageKey);
      media.push({
        key: item.storageKey,
        kind: item.kind,
        thumbnailKey: item.thumbnailKey,
        messageId: item.messageId,
        description: item.description,
        createdAt: item.createdAt,
      });
    }
    // A message's file that is no gallery item of the story still travels, as a gallery item of its own.
    for (const message of branch.messages) {
      for (const [key, kind] of [
        [message.imageKey, "image"],
        [message.videoKey, "video"],
      ] as const) {
        if (!key || itemKeys.has(key)) continue;
        itemKeys.add(key);
        place(key, kind === "video" ? "videos" : "images");
        media.push({
          key,
          kind,
          thumbnailKey: null,
          messageId: message.id,
          description: message.sceneDescription ?? "",
          createdAt: message.createdAt,
        });
      }
    }
    return { ...branch, drafts: branch.drafts ?? [], media };
  });

  const portraitItems = new Map(parts.portraitItems.map((item) => [item.id, item]));
  const portraitOf = new Map<string, string>();
  const referencesOf = new Map<string, string[]>();
  for (const branch of branches) {
    for (const card of branch.cards) {
      const item = card.portraitItemId ? portraitItems.get(card.portraitItemId) : undefined;
      const key = item?.kind === "image" ? item.storageKey : card.portraitKey;
      if (key) {
        place(key, "portraits");
        portraitOf.set(card.id, key);
      }
      // The other references: an upload's file, or the gallery picture's original while it is the player's.
      const references = (card.referenceExtras ?? []).flatMap((entry) => {
        if (!entry.startsWith(GALLERY_REFERENCE_PREFIX)) return [entry];
        const picture = portraitItems.get(entry.slice(GALLERY_REFERENCE_PREFIX.length));
        return picture?.kind === "image" ? [picture.storageKey] : [];
      });
      for (const reference of references) place(reference, "portraits");
      if (references.length) referencesOf.set(card.id, references);
    }
  }
  for (const branch of branches) {
    for (const message of branch.messages) for (const key of message.referenceKeys) place(key, "references");
  }
  return { branches, viewingBranchId: parts.viewingBranchId ?? null, portraitOf, referencesOf, paths };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A branch's words and settings as the archive's `story` holds them. */
function storyJson(
  story: BackupStory,
  cards: BackupCard[],
  pathOf: (key: string | null) => string | null,
): StoryArchive["story"] {
  // A card's id is not the restored card's: cards are named (decisions 0154, 0164). The row names this
  // branch's own cards (treeForBackup).
  const nameOf = new Map(cards.map((card) => [card.id, card.name]));
  const named = (ids: readonly string[]) => ids.flatMap((id) => nameOf.get(id) ?? []);
  const tellerCard = story.tellerCardId ? nameOf.get(story.tellerCardId) : undefined;
  const group = named(story.groupCardIds);
  return {
    title: story.title,
    context: story.context,
    memory: story.memory,
    authors_note: story.authorsNote,
    summary: story.summary,
    summary_through: iso(story.summaryThrough),
    summary_updated_at: iso(story.summaryUpdatedAt),
    narrator_instructions: story.narratorInstructions,
    post_history_instructions: story.postHistoryInstructions,
    creator_notes: story.creatorNotes,
    character_name: story.characterName,
    lore_budget_percent: story.loreBudgetPercent,
    lore_scan_depth: story.loreScanDepth,
    generation: generationForBackup(story),
    scene_state: {
      place: story.scenePlace,
      time_of_day: story.sceneTimeOfDay,
      weather: story.sceneWeather,
    },
    pinned_thumbnail: pathOf(story.pinnedThumbnailKey),
    teller:
      story.teller === "group" && group.length >= GROUP_MIN_CHARACTERS
        ? "group"
        : story.teller === "character" && tellerCard
          ? "character"
          : "narrator",
    teller_card: tellerCard ?? null,
    group_cards: group,
    muted_cards: named(story.mutedCardIds),
    speaker_order: speakerOrderOf(story),
    knows_what_they_saw: story.knowsWhatTheySaw,
    // Each witness by its card's name now when the card is this branch's, else as it was (decision 0165).
    summary_witnesses:
      story.summaryWitnesses?.map(
        (witness) => cards.find((card) => card.id === witness.card_id)?.name ?? witness.name,
      ) ?? null,
    created_at: story.createdAt.toISOString(),
    updated_at: story.updatedAt.toISOString(),
  };
}

/** The JSON, naming only the files in `stored` (a file that could not be read is left out, never named). */
export function archiveJson(plan: BackupPlan, stored: Set<string>, exportedAt: Date): StoryArchive {
  const pathOf = (key: string | null | undefined) => {
    if (!key || !stored.has(key)) return null;
    return plan.paths.get(key) ?? null;
  };
  // Archive ids are positions (branches b1.., messages m1..), so the file names no database id.
  const branchIdOf = new Map(plan.branches.map((branch, i) => [branch.story.id, `b${i + 1}`]));
  const idOf = new Map<string, string>();
  for (const branch of plan.branches) {
    for (const message of branch.messages) idOf.set(message.id, `m${idOf.size + 1}`);
  }
  const first = plan.branches[0]!;
  const branchOf = (i: number) => (i === 0 ? null : `b${i + 1}`);
  // Who was present is named by each card's name now (restore finds the cards by name), else as it was then:
  // a character renamed since is still the one who saw it (decision 0165).
  const nameNow = new Map(
    plan.branches.flatMap((branch) => branch.cards.map((card) => [card.id, card.name])),
  );
  const presentNames = (present: readonly { card_id: string; name: string }[] | null) =>
    present?.map((one) => nameNow.get(one.card_id) ?? one.name) ?? null;
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exported_at: exportedAt.toISOString(),
    story: storyJson(first.story, first.cards, pathOf),
    branches: plan.branches.map((branch, i) => ({
      id: `b${i + 1}`,
      name: branch.story.branchName,
      story: i === 0 ? null : storyJson(branch.story, branch.cards, pathOf),
      forked_from_branch: branch.story.forkedFromBranchId
        ? (branchIdOf.get(branch.story.forkedFromBranchId) ?? null)
        : null,
      forked_from_message: branch.story.forkedFromMessageId
        ? (idOf.get(branch.story.forkedFromMessageId) ?? null)
        : null,
      fork_turn: branch.story.forkTurn,
      fork_words: branch.story.forkWords,
      created_at: branch.story.createdAt.toISOString(),
      updated_at: branch.story.updatedAt.toISOString(),
    })),
    viewing_branch:
      plan.viewingBranchId && branchIdOf.get(plan.viewingBranchId) !== "b1"
        ? (branchIdOf.get(plan.viewingBranchId) ?? null)
        : null,
    messages: plan.branches.flatMap((branch, i) =>
      branch.messages.map((message) => ({
        id: idOf.get(message.id)!,
        branch: branchOf(i),
        role: message.role,
        content: message.content,
        mode: message.mode,
        scene_description: message.sceneDescription,
        media_status: message.mediaStatus,
        media_error: message.mediaError,
        image: pathOf(message.imageKey),
        video: pathOf(message.videoKey),
        references: [...new Set(message.referenceKeys.flatMap((key) => (pathOf(key) ? [pathOf(key)!] : [])))],
        stopped: message.stopped,
        version_group: message.versionGroup ? (idOf.get(message.versionGroup) ?? null) : null,
        version_number: message.versionNumber,
        hidden: message.hidden,
        checkpoint: message.checkpoint,
        copied_from: message.copiedFrom ? (idOf.get(message.copiedFrom) ?? null) : null,
        speaker: message.speaker?.name ?? null,
        present: presentNames(message.present),
        created_at: message.createdAt.toISOString(),
        updated_at: message.updatedAt.toISOString(),
      })),
    ),
    media: plan.branches.flatMap((branch, i) =>
      branch.media.flatMap((item) => {
        const path = pathOf(item.key);
        if (!path) return [];
        return [
          {
            branch: branchOf(i),
            path,
            kind: item.kind,
            thumbnail: pathOf(item.thumbnailKey),
            message: item.messageId ? (idOf.get(item.messageId) ?? null) : null,
            description: item.description,
            created_at: item.createdAt.toISOString(),
          },
        ];
      }),
    ),
    cards: plan.branches.flatMap((branch, i) =>
      branch.cards.map((card) => ({
        branch: branchOf(i),
        name: card.name,
        kind: card.kind,
        triggers: card.triggers,
        secondary_triggers: card.secondaryTriggers,
        selective_logic: card.selectiveLogic,
        constant: card.constant,
        insertion_order: card.insertionOrder,
        priority: card.priority,
        case_sensitive: card.caseSensitive,
        description: card.description,
        enabled: card.enabled,
        extensions: card.extensions,
        character_card: card.characterCard,
        portrait: pathOf(plan.portraitOf.get(card.id)),
        references: (plan.referencesOf.get(card.id) ?? []).flatMap((key) => pathOf(key) ?? []),
        voice: card.voice,
        appearance: card.appearance,
        talkativeness: card.talkativeness,
        created_at: card.createdAt.toISOString(),
        updated_at: card.updatedAt.toISOString(),
      })),
    ),
    lore_drafts: plan.branches.flatMap((branch, i) =>
      branch.drafts.map((draft) => ({
        branch: branchOf(i),
        name: draft.name,
        kind: draft.kind,
        description: draft.description,
        status: draft.status,
        created_at: draft.createdAt.toISOString(),
        updated_at: draft.updatedAt.toISOString(),
      })),
    ),
  };
}

/** Streams one file in; false (and a warning) when it cannot be opened, so it is left out of the JSON. */
async function addFile(ctx: BackupContext, zip: ZipFile, key: string, path: string): Promise<boolean> {
  let file: Awaited<ReturnType<AppContext["storage"]["open"]>>;
  try {
    file = await ctx.storage.open(key);
  } catch (error) {
    ctx.log.warn({ err: error, key }, "backup: media left out");
    return false;
  }
  // Pictures and clips are compressed already: stored as they are, the archive costs little to make.
  await addStreamedEntry(zip, file.stream, path, { size: file.size, compress: false });
  return true;
}

/** Every branch's rows, read before the download starts. */
async function readTree(ctx: BackupContext, userId: string, storyId: string) {
  const { branches, viewingBranchId } = await treeForBackup(ctx, userId, storyId);
  const parts: BranchParts[] = [];
  for (const branch of branches) {
    const [messages, items, cards] = await Promise.all([
      storyMessagesForBackup(ctx, userId, branch.story.id),
      storyMediaForBackup(ctx, userId, branch.story.id),
      branchCardsForBackup(ctx, userId, branch.story.id),
    ]);
    parts.push({ ...branch, ...cards, messages, items });
  }
  const portraitItems = await ownedMediaByIds(
    ctx,
    userId,
    parts.flatMap((branch) =>
      branch.cards.flatMap((card) => [
        ...(card.portraitItemId ? [card.portraitItemId] : []),
        ...card.referenceExtras.flatMap((entry) =>
          entry.startsWith(GALLERY_REFERENCE_PREFIX) ? [entry.slice(GALLERY_REFERENCE_PREFIX.length)] : [],
        ),
      ]),
    ),
  );
  return { parts, viewingBranchId, portraitItems };
}

/** What a backup of the story holds, for the dialog to say before the download (GET .../backup/summary). */
export async function backupSummary(ctx: BackupContext, userId: string, storyId: string) {
  const { parts, viewingBranchId, portraitItems } = await readTree(ctx, userId, storyId);
  const plan = planBackup({ branches: parts, viewingBranchId, portraitItems });
  return {
    branches: plan.branches.length,
    checkpoints: plan.branches.reduce(
      (n, branch) => n + branch.messages.filter((message) => message.checkpoint !== null).length,
      0,
    ),
    media: new Set(plan.branches.flatMap((branch) => branch.media.map((item) => item.key))).size,
  };
}

/** The owner's story as a backup archive, streamed as it is made; NotFound for anyone else's story. */
export async function storyBackup(
  ctx: BackupContext,
  userId: string,
  storyId: string,
): Promise<{ stream: Readable; filename: string }> {
  const { parts, viewingBranchId, portraitItems } = await readTree(ctx, userId, storyId);
  const plan = planBackup({ branches: parts, viewingBranchId, portraitItems });
  const story = plan.branches[0]!.story;
  const exportedAt = ctx.clock.now();

  const zip = new ZipFile();
  const stream = zip.outputStream as Readable;
  const fill = async () => {
    const stored = new Set<string>();
    for (const [key, path] of plan.paths) {
      if (await addFile(ctx, zip, key, path)) stored.add(key);
    }
    const json = JSON.stringify(archiveJson(plan, stored, exportedAt), null, 2);
    zip.addBuffer(Buffer.from(json, "utf8"), BACKUP_JSON_NAME, { compress: true });
  };
  fill().then(
    () => zip.end(),
    (error: unknown) => {
      if (error instanceof ArchiveAbandoned) return;
      // Headers are gone already: cutting the stream makes the download fail visibly, never half a backup.
      ctx.log.error({ err: error }, "backup failed");
      stream.destroy(error as Error);
    },
  );
  return { stream, filename: `${fileStem(story.title)}.storyverse.zip` };
}
