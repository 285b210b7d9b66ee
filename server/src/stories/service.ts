// Story rules: a story belongs to one user (anyone else gets a 404), deleting it removes its messages and
// exports but never its media, and its card picture follows the newest media unless the user pinned a newer
// one.

import { NEXT_SCENE_PLACEHOLDER } from "@storyverse/contract/camera";
import { type ChatMode, MAX_INPUT_IMAGES } from "@storyverse/contract/chat";
import type { StoryEvent } from "@storyverse/contract/events";
import {
  formatPlayerInput,
  type InputMode,
  OUTPUT_LENGTH_MAX_TOKENS,
} from "@storyverse/contract/generation-settings";
import type { InputImage, Story } from "@storyverse/contract/stories";
import {
  type RetryWhat,
  SCENE_NEEDS_MEDIA_DETAIL,
  type StoryMemoryUpdate,
} from "@storyverse/contract/story-craft";
import { publicUsername } from "../accounts";
import type { AppContext } from "../context";
import {
  assertNewestSettled,
  continueTurn,
  conversationStats,
  editMessage,
  mediaStatus,
  messagePage,
  type PageQuery,
  painterPrompt,
  previewContext,
  redoableExchanges,
  redoExchange,
  retryMode,
  retryTurn,
  sendTurn,
  type TurnStreaming,
  undoExchange,
} from "../conversation";
import { assertCovers, withHeavySlot } from "../credits";
import type { Queryable } from "../db/client";
import {
  assertStorageAvailable,
  checkInputImages,
  newestMediaOfStories,
  ownedKeyFromUrl,
  storyMedia,
} from "../media";
import { playedPersona } from "../personas";
import { InvalidInput, NotFound } from "../platform/errors";
import { type DeletionContext, deleteBranchContents, discardBranchFiles } from "./branch-deletion";
import { retitleTree, treeRows } from "./branches-repo";
import { groupRetrySetting, groupSpeaking, nextSpeakerTurn } from "./group";
import { type ImportedCardsMaker, type ImportedStoryInput, insertImportedStory } from "./imported-story";
import {
  countStoriesCreated,
  deleteStory,
  findStory,
  insertStory,
  type StoryRow,
  storyIdsTitled,
  storyListPage,
  updateStory,
} from "./repo";
import { effectiveModel, generationOf, turnGenerationOf } from "./settings";
import { queueSummaryIfDue, summaryCoverage } from "./summary";
import { tellerForTurn } from "./teller";
import type { WithTurnCards } from "./turn-cards";
import { storyHooks } from "./turn-hooks";

type StoriesContext = Pick<AppContext, "db" | "clock" | "storage" | "providers" | "jobs" | "log" | "config">;
/** A turn or a craft operation is paid work: it also checks the spending caps. */
type PlayContext = StoriesContext & Pick<AppContext, "spendingCaps"> & WithTurnCards;

/**
 * A story with what its card shows from other modules: its conversation's size and age, its newest media. The
 * row is held, not spread: copying a story row's 39 columns into a new object cost more than the rest of the
 * story list together (issue #30 item 7).
 */
type StoryWithStats = {
  row: StoryRow;
  /** The story's creation: its first row's, also when the card shows another branch. */
  createdAt: Date;
  messageCount: number;
  lastMessageAt: Date | null;
  newestMediaKey: string | null;
  newestMediaAt: Date | null;
};

async function withStats(
  ctx: Pick<AppContext, "db">,
  userId: string,
  rows: StoryRow[],
): Promise<StoryWithStats[]> {
  const ids = rows.map((row) => row.id);
  const [conversations, newestMedia] = await Promise.all([
    conversationStats(ctx, userId, ids),
    newestMediaOfStories(ctx, userId, ids),
  ]);
  return combineStats(rows, conversations, newestMedia);
}

function combineStats(
  rows: StoryRow[],
  conversations: Awaited<ReturnType<typeof conversationStats>>,
  newestMedia: Awaited<ReturnType<typeof newestMediaOfStories>>,
): StoryWithStats[] {
  const statsOf = new Map(conversations.map((stats) => [stats.storyId, stats]));
  const mediaOf = new Map(newestMedia.map((media) => [media.storyId, media]));
  return rows.map((row) => {
    const stats = statsOf.get(row.id);
    const media = mediaOf.get(row.id);
    return {
      row,
      createdAt: row.createdAt,
      messageCount: stats?.messageCount ?? 0,
      lastMessageAt: stats?.lastMessageAt ?? null,
      newestMediaKey: media?.key ?? null,
      newestMediaAt: media?.createdAt ?? null,
    };
  });
}

/** The card picture: the pinned one unless newer media arrived since. */
function thumbnailKeyOf(card: StoryWithStats): string | null {
  const { row } = card;
  const pinnedIsNewer =
    row.pinnedThumbnailKey !== null &&
    (card.newestMediaAt === null || (row.pinnedAt !== null && row.pinnedAt >= card.newestMediaAt));
  return pinnedIsNewer ? row.pinnedThumbnailKey : card.newestMediaKey;
}

async function toStory(ctx: Pick<AppContext, "storage">, card: StoryWithStats): Promise<Story> {
  const { row } = card;
  const thumbnailKey = thumbnailKeyOf(card);
  // When it was last played or changed (decision 0134): the kept column the list is ordered by.
  const lastUpdated = row.lastActivity;
  // A story is known by its first row's id on every branch (decision 0114).
  const storyId = row.rootId ?? row.id;
  return {
    id: storyId,
    _id: storyId,
    title: row.title,
    context: row.context,
    thumbnail: thumbnailKey ? await ctx.storage.signedUrl(thumbnailKey) : null,
    message_count: card.messageCount,
    last_updated: lastUpdated.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    created_at: card.createdAt.toISOString(),
    branch: { id: row.id, name: row.branchName },
  };
}

async function ownStory(ctx: Pick<AppContext, "db">, userId: string, storyId: string): Promise<StoryRow> {
  const row = await findStory(ctx.db, userId, storyId);
  if (!row) throw new NotFound("Story not found");
  return row;
}

/** One of the user's stories as its card shows it. */
async function storyCard(ctx: StoriesContext, userId: string, storyId: string): Promise<Story> {
  const [row] = await withStats(ctx, userId, [await ownStory(ctx, userId, storyId)]);
  return toStory(ctx, row!);
}

/** What the event stream says when a story's card changed; null when the story is gone. */
export async function storyEventOf(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  storyId: string,
): Promise<StoryEvent | null> {
  const row = await findStory(ctx.db, userId, storyId);
  if (!row) return null;
  const [withCard] = await withStats(ctx, userId, [row]);
  const story = await toStory(ctx, withCard!);
  return { story_id: story.id, thumbnail: story.thumbnail, last_activity: story.last_updated };
}

/** What other modules (export, sharing) may read of a story: its words and the storage key of its card picture. */
export type StoryRecord = {
  id: string;
  userId: string;
  title: string;
  context: string;
  thumbnailKey: string | null;
  createdAt: Date;
  /** The branch it reads, when the story has more than one (an export or a shared page names it). */
  branchName: string | null;
};

/** One of the user's stories (the branch its id names) for reading; NotFound for anyone else's. */
export async function ownedStoryRecord(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<StoryRecord> {
  const [card] = await withStats(ctx, userId, [await ownStory(ctx, userId, storyId)]);
  if (!card) throw new NotFound("Story not found");
  const { row } = card;
  const branched = row.rootId !== null || (await treeRows(ctx.db, userId, row.id)).length > 1;
  const branchName = branched ? row.branchName : null;
  return {
    id: row.id,
    userId: row.userId,
    title: branchName ? `${row.title} (${branchName})` : row.title,
    context: row.context,
    thumbnailKey: thumbnailKeyOf(card),
    createdAt: row.createdAt,
    branchName,
  };
}

const STORY_CURSOR_DETAIL = "This story list is out of date. Please reload the page.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The (last activity, story id) of a page's last card, base64url: opaque to clients, stable for us. */
function encodeStoryCursor(at: Date, storyId: string): string {
  return Buffer.from(`${at.getTime()}|${storyId}`, "utf8").toString("base64url");
}

function decodeStoryCursor(cursor: string): { at: Date; storyId: string } {
  const [at, storyId, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const time = Number(at);
  if (
    rest.length > 0 ||
    !storyId ||
    !UUID.test(storyId) ||
    !/^\d{1,15}$/.test(at ?? "") ||
    !Number.isSafeInteger(time)
  )
    throw new InvalidInput(STORY_CURSOR_DETAIL);
  return { at: new Date(time), storyId };
}

/**
 * The story list a page at a time (decision 0129, paged in SQL by decision 0134): most recently played first
 * (ties by id), after the cursor, only the stories whose title or context holds `q` when it is given. The order
 * is the stories' kept last_activity, so the database reads the page's rows alone; the cards' counts, pictures
 * and JSON are made for the page alone too.
 */
export async function listPage(
  ctx: StoriesContext,
  userId: string,
  options: { limit: number; cursor?: string | undefined; q?: string | undefined },
): Promise<{ stories: Story[]; nextCursor: string | null }> {
  const after = options.cursor ? decodeStoryCursor(options.cursor) : undefined;
  const search = options.q?.trim() ?? "";
  const listed = await storyListPage(ctx.db, userId, {
    limit: options.limit,
    after,
    words: search || undefined,
  });
  const page = listed.slice(0, options.limit);
  const cards = await withStats(
    ctx,
    userId,
    page.map((entry) => entry.row),
  );
  const stories = await Promise.all(
    cards.map((card, i) => toStory(ctx, { ...card, createdAt: page[i]!.storyCreatedAt })),
  );
  const last = page.at(-1);
  return {
    stories,
    nextCursor:
      listed.length > options.limit && last ? encodeStoryCursor(last.row.lastActivity, last.storyId) : null,
  };
}

/** One story's card as the list shows it (GET /api/stories/{id}): `storyId` is the branch shown. */
export async function listedStory(ctx: StoriesContext, userId: string, storyId: string): Promise<Story> {
  const row = await ownStory(ctx, userId, storyId);
  const root = row.rootId ? await findStory(ctx.db, userId, row.rootId) : row;
  const [card] = await withStats(ctx, userId, [row]);
  return toStory(ctx, { ...card!, createdAt: root?.createdAt ?? row.createdAt });
}

export async function create(ctx: StoriesContext, userId: string, input: { title: string; context: string }) {
  const row = await insertStory(ctx.db, {
    userId,
    title: input.title,
    context: input.context,
    at: ctx.clock.now(),
  });
  return storyCard(ctx, userId, row.id);
}

export async function update(
  ctx: StoriesContext,
  userId: string,
  storyId: string,
  changes: { title?: string; context?: string; thumbnail?: string },
): Promise<Story> {
  const row = await ownStory(ctx, userId, storyId);
  const now = ctx.clock.now();
  const values: Parameters<typeof updateStory>[3] = { updatedAt: now };
  if (changes.title !== undefined) values.title = changes.title;
  if (changes.context !== undefined) values.context = changes.context;
  if (changes.thumbnail !== undefined) {
    const key = await ownedKeyFromUrl(ctx, userId, changes.thumbnail);
    if (!key) throw new InvalidInput("The thumbnail must be one of your own images.");
    values.pinnedThumbnailKey = key;
    values.pinnedAt = now;
  }
  await ctx.db.transaction(async (tx) => {
    await updateStory(tx, userId, storyId, values);
    if (changes.title !== undefined) await retitleTree(tx, row.rootId ?? row.id, changes.title);
  });
  return storyCard(ctx, userId, storyId);
}

/** Deletes the whole story, every branch of it, whichever branch's id names it. */
export async function remove(ctx: DeletionContext, userId: string, storyId: string): Promise<void> {
  const row = await ownStory(ctx, userId, storyId);
  const rootId = row.rootId ?? row.id;
  const files = await ctx.db.transaction(async (tx) => {
    const branches = await treeRows(tx, userId, rootId);
    const gone = await deleteBranchContents(
      { ...ctx, db: tx },
      userId,
      branches.map((branch) => branch.id),
    );
    // The branches' rows go with the first (the foreign key).
    await deleteStory(tx, userId, rootId);
    return gone;
  });
  await discardBranchFiles(ctx, files);
}

// --- Imports and exports (interop/) ---------------------------------------------------------------------

/** A new story from an imported character card: the story, its opening and its cards, or nothing at all. */
export async function createImported(
  ctx: StoriesContext,
  userId: string,
  input: ImportedStoryInput,
  cards: ImportedCardsMaker,
) {
  return storyCard(ctx, userId, await insertImportedStory(ctx, userId, input, cards));
}

// The three reads below come only from routes under /api/stories/{id}, whose branch scope (branch-scope.ts)
// has answered 404 for a story that is not the caller's before they run; each reads by user id as well, so
// another user's story could show nothing of theirs even so. Not reading the story again is a hot read's
// largest saving after the cache (issue #30 item 7).

/** A page of the story's messages (decision 0130): the newest, before or after a cursor, or around a message. */
export async function messages(ctx: StoriesContext, userId: string, storyId: string, query: PageQuery) {
  return messagePage(ctx, userId, storyId, query);
}

export async function media(ctx: StoriesContext, userId: string, storyId: string) {
  return storyMedia(ctx, userId, storyId);
}

export async function messageMediaStatus(
  ctx: StoriesContext,
  userId: string,
  storyId: string,
  messageId: string,
) {
  return mediaStatus(ctx, userId, storyId, messageId);
}

/**
 * Runs a paid turn with the player's selected images. They only travel in image mode. A user who cannot
 * pay is refused before they are decoded, and they are checked before anything is charged; uploads are
 * stored only once the turn is paid for.
 */
async function withSelectedImages<T>(
  ctx: StoriesContext,
  userId: string,
  input: { mode: ChatMode; inputImages: InputImage[]; heavySlotHeld?: boolean },
  turn: (references: Awaited<ReturnType<typeof checkInputImages>>) => Promise<T>,
): Promise<T> {
  // A picture or clip a full media storage could not keep is refused before the charge (decision 0122).
  if (input.mode !== "chat") await assertStorageAvailable(ctx, userId, 0);
  if (input.mode !== "image" || input.inputImages.length === 0) return turn([]);
  return withHeavySlot(
    userId,
    async () => {
      await assertCovers(ctx, userId, input.mode, 1);
      return turn(await checkInputImages(ctx, userId, input.inputImages));
    },
    { slotHeld: input.heavySlotHeld },
  );
}

/**
 * What a turn knows of the story: its title, context, Memory, Author's Note, enabled cards, lore settings and
 * narrator instructions, and the names its macros stand for (never the creator's notes: they are the player's).
 */
const settingOf = async (ctx: Pick<AppContext, "db"> & WithTurnCards, story: StoryRow) => {
  // Who the player plays (decision 0152): `{{user}}` is the persona's name, else the player's username.
  const player = await playedPersona(ctx, story.userId, story.personaId);
  return {
    title: story.title,
    context: story.context,
    memory: story.memory,
    authorsNote: story.authorsNote,
    summary: story.summary,
    cards: await ctx.turnCards.forTurn(ctx, story.userId, story.id),
    narratorInstructions: story.narratorInstructions,
    postHistoryInstructions: story.postHistoryInstructions,
    characterName: story.characterName,
    userName: player?.name || ((await publicUsername(ctx, story.userId)) ?? ""),
    ...(player ? { player } : {}),
    // Who tells the story (decision 0154): the card a character teller plays, when one does.
    ...(await tellerForTurn(ctx, story)),
    loreBudgetPercent: story.loreBudgetPercent,
    loreScanDepth: story.loreScanDepth,
    generation: turnGenerationOf(story),
    // What the camera keeps from earlier scenes: the media job adds it to the painter's prompt.
    camera: (await ctx.turnCards.camera(ctx, story)).text,
  };
};

export async function memory(ctx: StoriesContext, userId: string, storyId: string) {
  const story = await ownStory(ctx, userId, storyId);
  const covered = await summaryCoverage(ctx, userId, story);
  return {
    memory: story.memory,
    authors_note: story.authorsNote,
    summary: story.summary,
    summary_updated_at: story.summaryUpdatedAt?.toISOString() ?? null,
    summary_covers_messages: covered,
  };
}

/** Memory and Author's Note; the summary too when given (the player's correction, kept as the base of the next). */
export async function updateMemory(
  ctx: StoriesContext,
  userId: string,
  storyId: string,
  input: StoryMemoryUpdate,
) {
  await ownStory(ctx, userId, storyId);
  const at = ctx.clock.now();
  await updateStory(ctx.db, userId, storyId, {
    memory: input.memory,
    authorsNote: input.authors_note,
    ...(input.summary === undefined ? {} : { summary: input.summary.trim(), summaryUpdatedAt: at }),
    updatedAt: at,
  });
  return memory(ctx, userId, storyId);
}

/** What the next turn (or, without a prompt, Continue) would send the narrator. */
export async function narratorContext(
  ctx: StoriesContext & WithTurnCards,
  userId: string,
  storyId: string,
  prompt: string | undefined,
  scene: { mode: ChatMode; selectedImages: number; inputMode?: InputMode | undefined },
) {
  const story = await ownStory(ctx, userId, storyId);
  const settings = generationOf(story);
  // The prompt as the narrator would read it, in the composer's input mode (the story's when not sent).
  const words = prompt && formatPlayerInput(scene.inputMode ?? settings.input_mode, prompt);
  const told = await settingOf(ctx, story);
  // A group scene: what the character who would speak next is sent (a manual scene's pick is unknown: as told).
  const speaking = await groupSpeaking(ctx, story, told, { words: prompt ?? null }).catch((error) => {
    if (error instanceof InvalidInput) return null;
    throw error;
  });
  const setting = speaking?.setting ?? told;
  const context = await previewContext(ctx, userId, storyId, setting, words, scene, storyHooks);
  const camera = await ctx.turnCards.camera(ctx, story);
  // The persona's portrait is the scene's last reference, when it has room (decision 0152, sceneReferences).
  const personaKey = scene.mode === "chat" ? null : (setting.player?.portraitKey ?? null);
  const painted = context.selectedImages + context.portraits.length;
  const personaShown =
    personaKey &&
    painted < MAX_INPUT_IMAGES &&
    !context.portraits.some((card) => card.portraitKey === personaKey)
      ? { name: setting.player!.name, url: await ctx.storage.signedUrl(personaKey) }
      : null;
  return {
    ...context,
    camera: {
      scene_prompt: painterPrompt(NEXT_SCENE_PLACEHOLDER, camera.text, settings.art_style || undefined),
      scene_state: camera.scene,
      characters: camera.characters.map((card) => ({
        card_id: card.id,
        name: card.name,
        appearance: card.appearance,
      })),
    },
    generation: {
      text_model: effectiveModel(ctx.providers.text, settings),
      max_tokens: OUTPUT_LENGTH_MAX_TOKENS[settings.output_length],
      temperature: settings.temperature,
      output_length: settings.output_length,
      authors_note_depth: settings.authors_note_depth,
      input_mode: scene.inputMode ?? settings.input_mode,
      art_style: settings.art_style,
      aspect_ratio: settings.aspect_ratio,
    },
    portraits: await Promise.all(
      context.portraits.map(async (card) => ({
        cardId: card.id,
        name: card.name,
        url: await ctx.storage.signedUrl(card.portraitKey!),
      })),
    ),
    personaPortrait: personaShown,
  };
}

export async function chat(
  ctx: PlayContext,
  userId: string,
  storyId: string,
  input: {
    prompt: string;
    mode: ChatMode;
    /** Do / Say / Story for these words; the story's setting when not given. */
    inputMode?: InputMode | undefined;
    inputImages: InputImage[];
    heavySlotHeld?: boolean;
    /** A group scene (decision 0164): who speaks this turn; else the speaker order's rule picks. */
    speakerId?: string | undefined;
  },
  streaming?: TurnStreaming,
) {
  const row = await ownStory(ctx, userId, storyId);
  const setting = await settingOf(ctx, row);
  // The words are stored and sent as the narrator reads them ("You open the door.").
  const prompt = formatPlayerInput(input.inputMode ?? generationOf(row).input_mode, input.prompt);
  // A group scene: one character speaks this turn (the player's pick or the order's), checked before the charge.
  const group = await groupSpeaking(ctx, row, setting, { speakerId: input.speakerId, words: input.prompt });
  const story = group?.setting ?? setting;
  if (group && story.teller)
    streaming?.onSpeaker?.({ card_id: story.teller.cardId, name: story.teller.name });
  const answer = await withSelectedImages(ctx, userId, input, (references) =>
    sendTurn(
      ctx,
      {
        userId,
        storyId,
        hooks: storyHooks,
        story,
        prompt,
        mode: input.mode,
        references,
      },
      streaming,
    ),
  );
  await queueSummaryIfDue(ctx, userId, storyId);
  await ctx.turnCards.afterTurn(ctx, userId, storyId);
  return group && group.next.length > 0 ? { ...answer, next_speakers: group.next } : answer;
}

type TurnOptions = { mode: ChatMode | undefined; inputImages: InputImage[]; heavySlotHeld?: boolean };

/** A new version of the newest narrator answer (the mode asked for, else the answer's own). */
export async function retry(
  ctx: PlayContext,
  userId: string,
  storyId: string,
  messageId: string,
  input: TurnOptions & { what?: RetryWhat },
  streaming?: TurnStreaming,
) {
  const row = await ownStory(ctx, userId, storyId);
  const setting = await settingOf(ctx, row);
  // A group scene's retry is the same character speaking again (decision 0164).
  const story = (await groupRetrySetting(ctx, row, setting, messageId)) ?? setting;
  if (input.what === "media" && input.mode === "chat") throw new InvalidInput(SCENE_NEEDS_MEDIA_DETAIL);
  const resolved = await retryMode(ctx, userId, storyId, messageId, input.mode);
  // New words only make no media (no images to send); a new scene of a chat answer is a picture.
  const mode =
    input.what === "text" ? "chat" : input.what === "media" && resolved === "chat" ? "image" : resolved;
  const answer = await withSelectedImages(ctx, userId, { ...input, mode }, (references) =>
    retryTurn(
      ctx,
      { userId, storyId, hooks: storyHooks, story, mode, references, messageId, what: input.what },
      streaming,
    ),
  );
  // New words are read again for names and the scene (a new scene alone changes neither).
  if (input.what !== "media") await ctx.turnCards.afterTurn(ctx, userId, storyId);
  return answer;
}

/** The narrator carries on its newest message in place: text only, priced as a chat turn. */
export async function continueStory(
  ctx: PlayContext,
  userId: string,
  storyId: string,
  streaming?: TurnStreaming,
  speakerId?: string,
) {
  const row = await ownStory(ctx, userId, storyId);
  const story = await settingOf(ctx, row);
  // A group scene (decision 0164): continue lets the next character speak, a new message of its own.
  const group = await groupSpeaking(ctx, row, story, { speakerId, words: null });
  // Before the speaker is named on the stream: a turn still being written (or painted) is refused first.
  if (group) await assertNewestSettled(ctx, userId, storyId);
  if (group?.setting.teller) {
    const { cardId, name } = group.setting.teller;
    streaming?.onSpeaker?.({ card_id: cardId, name });
  }
  const answer = group
    ? await nextSpeakerTurn(ctx, { userId, storyId, story: group.setting }, streaming)
    : await continueTurn(ctx, { userId, storyId, hooks: storyHooks, story, references: [] }, streaming);
  await queueSummaryIfDue(ctx, userId, storyId);
  await ctx.turnCards.afterTurn(ctx, userId, storyId);
  return group && group.next.length > 0 ? { ...answer, next_speakers: group.next } : answer;
}

export async function undo(ctx: PlayContext, userId: string, storyId: string) {
  await ownStory(ctx, userId, storyId);
  const removed = await undoExchange(ctx, userId, storyId);
  // The camera follows the narration now newest (what it does not say stays; drafts offered stay offered).
  await ctx.turnCards.afterTurn(ctx, userId, storyId);
  return removed;
}

/** How many undone exchanges Redo can bring back. */
export async function redoState(ctx: PlayContext, userId: string, storyId: string) {
  await ownStory(ctx, userId, storyId);
  return redoableExchanges(ctx, userId, storyId);
}

/** Brings back the most recently undone exchange (409 when nothing is undone). */
export async function redo(ctx: PlayContext, userId: string, storyId: string) {
  await ownStory(ctx, userId, storyId);
  const restored = await redoExchange(ctx, userId, storyId);
  // The exchange brought back is the newest narration again: read it, as after the turn.
  await ctx.turnCards.afterTurn(ctx, userId, storyId);
  return restored;
}

export async function editStoryMessage(
  ctx: PlayContext,
  userId: string,
  storyId: string,
  messageId: string,
  content: string,
) {
  await ownStory(ctx, userId, storyId);
  const edited = await editMessage(ctx, userId, storyId, messageId, content, storyHooks);
  // The narrator's new words are read for names, the scene and the looks, as a retry's are.
  if (edited.role === "assistant") await ctx.turnCards.afterTurn(ctx, userId, storyId);
  return edited;
}

/** Stories the user created in [start, end) that still exist. */
export async function storiesCreatedBetween(db: Queryable, userId: string, start: Date, end: Date) {
  return countStoriesCreated(db, userId, start, end);
}

/** Any account's stories whose title holds the words (the admin console's share search), at most `limit`. */
export function storiesTitled(ctx: Pick<AppContext, "db">, words: string, limit: number): Promise<string[]> {
  return storyIdsTitled(ctx.db, words, limit);
}
