// Whole-story backup: one zip holding `storyverse-story.json` (backup-format.ts; docs/story-archive.md) and
// every media file of the story under media/: its gallery pictures and clips with their thumbnails, the
// portraits of its Story Cards and the reference images its turns kept. Only the owner gets it (anyone else:
// 404, decided before a byte is sent). Files are streamed in one at a time at the pace the download reads
// them (exports/zip-entries.ts), so a story's media never sit in memory; the JSON goes last, naming only the
// files that made it into the archive, so a backup never points at a file it lacks.
import type { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { type BackupMessage, storyMessagesForBackup } from "../chat/backup-rows";
import type { AppContext } from "../context";
import { fileStem } from "../exports/book";
import { ArchiveAbandoned, addStreamedEntry } from "../exports/zip-entries";
import { type BackupMediaItem, extensionOfType, storyMediaForBackup } from "../media/backup-items";
import { ownedMediaByIds } from "../media/service";
import { type BackupCard, type BackupDraft, type BackupStory, storyForBackup } from "../stories/backup-rows";
import { generationForBackup } from "../stories/settings";
import { BACKUP_FORMAT, BACKUP_JSON_NAME, BACKUP_VERSION, type StoryArchive } from "./backup-format";

type BackupContext = Pick<AppContext, "db" | "storage" | "clock" | "log">;

const extensionOfKey = (key: string) => /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? "bin";

/** What a backup holds, read before the download starts: the rows, and each storage key's path in the archive. */
type BackupPlan = {
  story: BackupStory;
  messages: BackupMessage[];
  cards: BackupCard[];
  /** Living-lore drafts, offered, accepted or dismissed (no files). */
  drafts: BackupDraft[];
  /** Gallery items, plus a stand-in for any message file that has no gallery item. */
  media: {
    key: string;
    kind: "image" | "video";
    thumbnailKey: string | null;
    messageId: string | null;
    description: string;
    createdAt: Date;
  }[];
  /** Each card's portrait file (its upload, or its gallery picture's original). */
  portraitOf: Map<string, string>;
  /** Storage key -> archive path, each file once, in the order they go in. */
  paths: Map<string, string>;
};

/** Chooses every file's place in the archive (pure: the rows in, the plan out). */
export function planBackup(parts: {
  story: BackupStory;
  messages: BackupMessage[];
  cards: BackupCard[];
  drafts?: BackupDraft[];
  items: BackupMediaItem[];
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

  const media: BackupPlan["media"] = [];
  const itemKeys = new Set<string>();
  for (const item of parts.items) {
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
  for (const message of parts.messages) {
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

  const portraitItems = new Map(parts.portraitItems.map((item) => [item.id, item]));
  const portraitOf = new Map<string, string>();
  for (const card of parts.cards) {
    const item = card.portraitItemId ? portraitItems.get(card.portraitItemId) : undefined;
    const key = item?.kind === "image" ? item.storageKey : card.portraitKey;
    if (!key) continue;
    place(key, "portraits");
    portraitOf.set(card.id, key);
  }
  for (const message of parts.messages) for (const key of message.referenceKeys) place(key, "references");
  return {
    story: parts.story,
    messages: parts.messages,
    cards: parts.cards,
    drafts: parts.drafts ?? [],
    media,
    portraitOf,
    paths,
  };
}

/** The JSON, naming only the files in `stored` (a file that could not be read is left out, never named). */
export function archiveJson(plan: BackupPlan, stored: Set<string>, exportedAt: Date): StoryArchive {
  const pathOf = (key: string | null | undefined) => {
    if (!key || !stored.has(key)) return null;
    return plan.paths.get(key) ?? null;
  };
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const { story } = plan;
  // Archive ids are the messages' positions, so the file names no database id.
  const idOf = new Map(plan.messages.map((message, i) => [message.id, `m${i + 1}`]));
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exported_at: exportedAt.toISOString(),
    story: {
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
      created_at: story.createdAt.toISOString(),
      updated_at: story.updatedAt.toISOString(),
    },
    messages: plan.messages.map((message) => ({
      id: idOf.get(message.id)!,
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
      created_at: message.createdAt.toISOString(),
      updated_at: message.updatedAt.toISOString(),
    })),
    media: plan.media.flatMap((item) => {
      const path = pathOf(item.key);
      if (!path) return [];
      return [
        {
          path,
          kind: item.kind,
          thumbnail: pathOf(item.thumbnailKey),
          message: item.messageId ? (idOf.get(item.messageId) ?? null) : null,
          description: item.description,
          created_at: item.createdAt.toISOString(),
        },
      ];
    }),
    cards: plan.cards.map((card) => ({
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
      voice: card.voice,
      appearance: card.appearance,
      created_at: card.createdAt.toISOString(),
      updated_at: card.updatedAt.toISOString(),
    })),
    lore_drafts: plan.drafts.map((draft) => ({
      name: draft.name,
      kind: draft.kind,
      description: draft.description,
      status: draft.status,
      created_at: draft.createdAt.toISOString(),
      updated_at: draft.updatedAt.toISOString(),
    })),
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

/** The owner's story as a backup archive, streamed as it is made; NotFound for anyone else's story. */
export async function storyBackup(
  ctx: BackupContext,
  userId: string,
  storyId: string,
): Promise<{ stream: Readable; filename: string }> {
  const { story, cards, drafts } = await storyForBackup(ctx, userId, storyId);
  const [messages, items, portraitItems] = await Promise.all([
    storyMessagesForBackup(ctx, userId, storyId),
    storyMediaForBackup(ctx, userId, storyId),
    ownedMediaByIds(
      ctx,
      userId,
      cards.flatMap((card) => (card.portraitItemId ? [card.portraitItemId] : [])),
    ),
  ]);
  const plan = planBackup({ story, messages, cards, drafts, items, portraitItems });
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
