// Story Cards: rules for a story's cards (owner only, at most 100, unique names, a portrait that is the
// player's own gallery image or a checked upload), and what a turn needs of them. An uploaded portrait
// belongs to its card: replacing the portrait, deleting the card or the story deletes the file; a gallery
// portrait stays the gallery's. Uploads are kept re-encoded and small (portraits.ts), at most
// PORTRAIT_UPLOADS_MAX an account. Cards also carry the lore rules (secondary triggers and their logic,
// constant, insertion order, priority, case) and, when imported, the source's unmodelled fields
// (`extensions`) and character card data (`character_card`), which only an import sets and an export reads.
import { randomUUID } from "node:crypto";
import {
  type CardKind,
  type CardPortraitInput,
  type createCardRequestSchema,
  DUPLICATE_CARD_NAME_DETAIL,
  EMPTY_TRIGGERS_DETAIL,
  PORTRAIT_NOT_YOURS_DETAIL,
  PORTRAIT_UPLOADS_MAX,
  regexTriggerProblem,
  type SelectiveLogic,
  STORY_CARDS_MAX,
  type StoryCard,
  TOO_MANY_CARDS_DETAIL,
  TOO_MANY_PORTRAITS_DETAIL,
  type UpdateCardRequest,
} from "@storyverse/contract/story-cards";
import type { z } from "zod";
import type { TurnCard } from "../chat/narration";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { DAMAGED_IMAGE_DETAIL, decodeDataUrl, inspectImage } from "../media/images";
import { ownedMediaByIds } from "../media/service";
import { DomainError, InvalidInput, NotFound, TooLarge } from "../platform/errors";
import { cleanTriggers, freeName } from "./card-rules";
import {
  type CardRow,
  cardNames,
  countCards,
  countUploadedPortraits,
  deleteCard,
  findCard,
  insertCard,
  insertCards,
  listCards,
  lockStoryCards,
  lockUserPortraits,
  nameTaken,
  portraitKeysInUse,
  updateCard,
  uploadedPortraitKeys,
} from "./cards-repo";
import { encodePortrait } from "./portraits";
import { storiesChanged } from "./repo";

type CardsContext = Pick<AppContext, "db" | "clock" | "storage" | "log">;
type CreateInput = z.output<typeof createCardRequestSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A portrait, checked: a gallery image of the player's, or an upload checked by its bytes (not stored yet). */
type CheckedPortrait = { itemId: string } | { upload: Buffer; mimeType: string } | null;

const tooManyPortraits = () => new TooLarge(TOO_MANY_PORTRAITS_DETAIL);

/**
 * Refuses an upload that would take the user past PORTRAIT_UPLOADS_MAX (the card `cardId` being changed
 * gives its own upload back). Checked before the upload is decoded, and again under the user's lock as the
 * card is written.
 */
async function assertPortraitRoom(q: Queryable, userId: string, cardId: string | null): Promise<void> {
  if ((await countUploadedPortraits(q, userId, cardId)) >= PORTRAIT_UPLOADS_MAX) throw tooManyPortraits();
}

async function checkPortrait(
  ctx: CardsContext,
  userId: string,
  portrait: CardPortraitInput,
  cardId: string | null,
): Promise<CheckedPortrait> {
  if (portrait === null) return null;
  if ("gallery_item_id" in portrait) {
    const id = portrait.gallery_item_id;
    const [item] = UUID.test(id) ? await ownedMediaByIds(ctx, userId, [id]) : [];
    if (item?.kind !== "image") throw new InvalidInput(PORTRAIT_NOT_YOURS_DETAIL);
    return { itemId: item.id };
  }
  await assertPortraitRoom(ctx.db, userId, cardId);
  let data: Buffer;
  try {
    data = decodeDataUrl(portrait.data).data;
    await inspectImage(data);
  } catch (error) {
    if (error instanceof DomainError) throw new InvalidInput(`portrait: ${error.detail}`);
    throw error;
  }
  // Never kept as sent: a small WebP of it is (portraits.ts). It decoded in the check, so a failure here
  // is the file's fault, not the server's.
  const kept = await encodePortrait(data).catch((error: unknown) => {
    if (error instanceof DomainError) throw error;
    throw new InvalidInput(`portrait: ${DAMAGED_IMAGE_DETAIL}`);
  });
  return { upload: kept.data, mimeType: kept.mimeType };
}

/** Stores an upload under the card portraits' own prefix (never "/inputs/", which turns discard). */
async function storePortrait(
  ctx: CardsContext,
  userId: string,
  checked: CheckedPortrait,
): Promise<{ portraitItemId: string | null; portraitKey: string | null }> {
  if (checked === null) return { portraitItemId: null, portraitKey: null };
  if ("itemId" in checked) return { portraitItemId: checked.itemId, portraitKey: null };
  const key = `u/${userId}/portraits/${randomUUID()}.webp`;
  await ctx.storage.put(key, checked.upload, checked.mimeType);
  return { portraitItemId: null, portraitKey: key };
}

async function discardPortraitFiles(ctx: CardsContext, keys: (string | null)[]): Promise<void> {
  const named = keys.filter((key): key is string => !!key);
  // A branch's copy of a card shares its uploaded portrait (decision 0114): a file goes with its last card.
  const stillUsed = await portraitKeysInUse(ctx.db, named);
  await Promise.all(
    named
      .filter((key) => !stillUsed.has(key))
      .map((key) =>
        ctx.storage.delete(key).catch((error: Error) => {
          ctx.log.warn({ err: error, key }, "a card portrait could not be removed");
        }),
      ),
  );
}

/** The storage key of each card's portrait: its gallery image (if still the player's) or its upload. */
async function portraitKeys(
  ctx: Pick<AppContext, "db">,
  userId: string,
  rows: CardRow[],
): Promise<Map<string, { key: string; shown: string; itemId: string | null }>> {
  const itemIds = [...new Set(rows.flatMap((row) => (row.portraitItemId ? [row.portraitItemId] : [])))];
  const items = new Map((await ownedMediaByIds(ctx, userId, itemIds)).map((item) => [item.id, item]));
  const keys = new Map<string, { key: string; shown: string; itemId: string | null }>();
  for (const row of rows) {
    const item = row.portraitItemId ? items.get(row.portraitItemId) : undefined;
    if (item?.kind === "image") {
      keys.set(row.id, {
        key: item.storageKey,
        shown: item.thumbnailKey ?? item.storageKey,
        itemId: item.id,
      });
    } else if (row.portraitKey) {
      keys.set(row.id, { key: row.portraitKey, shown: row.portraitKey, itemId: null });
    }
  }
  return keys;
}

/** The character card's notes for the player, when the card came from one ("" otherwise). */
function creatorNotesOf(row: CardRow): string {
  const notes = row.characterCard?.creator_notes;
  return typeof notes === "string" ? notes : "";
}

async function toCards(ctx: CardsContext, userId: string, rows: CardRow[]): Promise<StoryCard[]> {
  const keys = await portraitKeys(ctx, userId, rows);
  return Promise.all(
    rows.map(async (row) => {
      const portrait = keys.get(row.id);
      return {
        id: row.id,
        name: row.name,
        kind: row.kind,
        triggers: row.triggers,
        description: row.description,
        portrait: portrait
          ? { url: await ctx.storage.signedUrl(portrait.shown), gallery_item_id: portrait.itemId }
          : null,
        enabled: row.enabled,
        secondary_triggers: row.secondaryTriggers,
        selective_logic: row.selectiveLogic,
        constant: row.constant,
        insertion_order: row.insertionOrder,
        priority: row.priority,
        case_sensitive: row.caseSensitive,
        from_character_card: row.characterCard !== null,
        creator_notes: creatorNotesOf(row),
        voice: row.voice,
        appearance: row.appearance,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
    }),
  );
}

const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
};

/** Callers have checked the story is the player's. */
export async function storyCards(ctx: CardsContext, userId: string, storyId: string): Promise<StoryCard[]> {
  return toCards(ctx, userId, await listCards(ctx.db, userId, storyId));
}

export async function createStoryCard(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  input: CreateInput,
): Promise<StoryCard> {
  const name = input.name.normalize("NFC");
  const checked = await checkPortrait(ctx, userId, input.portrait, null);
  const portrait = await storePortrait(ctx, userId, checked);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      if (portrait.portraitKey) {
        await lockUserPortraits(tx, userId);
        await assertPortraitRoom(tx, userId, null);
      }
      await lockStoryCards(tx, storyId);
      if ((await countCards(tx, storyId)) >= STORY_CARDS_MAX) throw new InvalidInput(TOO_MANY_CARDS_DETAIL);
      if (await nameTaken(tx, storyId, name, null)) throw new InvalidInput(DUPLICATE_CARD_NAME_DETAIL);
      return insertCard(tx, {
        userId,
        storyId,
        name,
        kind: input.kind,
        triggers: cleanTriggers(input.triggers),
        description: input.description,
        enabled: input.enabled,
        secondaryTriggers: cleanTriggers(input.secondary_triggers),
        selectiveLogic: input.selective_logic,
        constant: input.constant,
        insertionOrder: input.insertion_order,
        priority: input.priority,
        caseSensitive: input.case_sensitive,
        voice: input.voice,
        appearance: input.appearance,
        ...(input.appearance ? { appearanceUpdatedAt: ctx.clock.now() } : {}),
        ...portrait,
        at: ctx.clock.now(),
      });
    });
    return (await toCards(ctx, userId, [row]))[0]!;
  } catch (error) {
    await discardPortraitFiles(ctx, [portrait.portraitKey]);
    if (isUniqueViolation(error)) throw new InvalidInput(DUPLICATE_CARD_NAME_DETAIL);
    throw error;
  }
}

export async function updateStoryCard(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  cardId: string,
  input: UpdateCardRequest,
): Promise<StoryCard> {
  const existing = await findCard(ctx.db, userId, storyId, cardId);
  if (!existing) throw new NotFound("Card not found");
  const name = input.name?.trim().normalize("NFC");
  // Triggers may be empty only on a constant card, whichever of the two this change sends.
  const triggers = input.triggers === undefined ? existing.triggers : cleanTriggers(input.triggers);
  if (triggers.length === 0 && !(input.constant ?? existing.constant)) {
    throw new InvalidInput(EMPTY_TRIGGERS_DETAIL);
  }
  if (name !== undefined && (await nameTaken(ctx.db, storyId, name, cardId))) {
    throw new InvalidInput(DUPLICATE_CARD_NAME_DETAIL);
  }
  const checked =
    input.portrait === undefined ? undefined : await checkPortrait(ctx, userId, input.portrait, cardId);
  const portrait = checked === undefined ? undefined : await storePortrait(ctx, userId, checked);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      if (portrait?.portraitKey) {
        await lockUserPortraits(tx, userId);
        await assertPortraitRoom(tx, userId, cardId);
      }
      return updateCard(tx, userId, cardId, {
        ...(name !== undefined ? { name } : {}),
        ...(input.kind !== undefined ? { kind: input.kind } : {}),
        ...(input.triggers !== undefined ? { triggers: cleanTriggers(input.triggers) } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.secondary_triggers !== undefined
          ? { secondaryTriggers: cleanTriggers(input.secondary_triggers) }
          : {}),
        ...(input.selective_logic !== undefined ? { selectiveLogic: input.selective_logic } : {}),
        ...(input.constant !== undefined ? { constant: input.constant } : {}),
        ...(input.insertion_order !== undefined ? { insertionOrder: input.insertion_order } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        ...(input.case_sensitive !== undefined ? { caseSensitive: input.case_sensitive } : {}),
        ...(input.voice !== undefined ? { voice: input.voice } : {}),
        ...(input.appearance !== undefined
          ? { appearance: input.appearance, appearanceUpdatedAt: ctx.clock.now() }
          : {}),
        ...(portrait ?? {}),
        updatedAt: ctx.clock.now(),
      });
    });
    if (!row) throw new NotFound("Card not found");
    // The upload the card no longer shows is its own to delete.
    if (portrait && existing.portraitKey !== portrait.portraitKey) {
      await discardPortraitFiles(ctx, [existing.portraitKey]);
    }
    return (await toCards(ctx, userId, [row]))[0]!;
  } catch (error) {
    await discardPortraitFiles(ctx, [portrait?.portraitKey ?? null]);
    if (isUniqueViolation(error)) throw new InvalidInput(DUPLICATE_CARD_NAME_DETAIL);
    throw error;
  }
}

export async function deleteStoryCard(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  cardId: string,
): Promise<void> {
  const existing = await findCard(ctx.db, userId, storyId, cardId);
  if (!existing) throw new NotFound("Card not found");
  const deleted = await deleteCard(ctx.db, userId, cardId);
  // A story told by this card goes back to the narrator by the foreign key (decision 0154): this process forgets
  // the story's cached row now (other processes hear the table's change signal).
  storiesChanged(ctx.db, [{ userId, id: storyId }]);
  if (deleted) await discardPortraitFiles(ctx, [deleted.portraitKey]);
}

/** The name `{{char}}` stands for in an imported character card: its V3 nickname, else the card's name. */
function calledBy(characterCard: Record<string, unknown>, name: string): string {
  const nickname = characterCard.nickname;
  return typeof nickname === "string" && nickname.trim() ? nickname.trim() : name;
}

/** What a turn needs of a story's enabled cards: their words and the storage key of their portrait. */
export async function cardsForTurn(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<TurnCard[]> {
  const rows = (await listCards(ctx.db, userId, storyId)).filter((row) => row.enabled);
  const keys = await portraitKeys(ctx, userId, rows);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    kind: row.kind,
    triggers: row.triggers,
    description: row.description,
    portraitKey: keys.get(row.id)?.key ?? null,
    secondaryTriggers: row.secondaryTriggers,
    selectiveLogic: row.selectiveLogic,
    constant: row.constant,
    insertionOrder: row.insertionOrder,
    priority: row.priority,
    caseSensitive: row.caseSensitive,
    ...(row.characterCard ? { ownName: calledBy(row.characterCard, row.name) } : {}),
  }));
}

/** The uploaded portrait files of a story's cards: read before the story goes, deleted after it went. */
export async function storyPortraitUploads(ctx: Pick<AppContext, "db">, userId: string, storyId: string) {
  return uploadedPortraitKeys(ctx.db, userId, storyId);
}

export async function discardStoryPortraits(ctx: CardsContext, keys: string[]): Promise<void> {
  await discardPortraitFiles(ctx, keys);
}

// --- Imports and exports (interop/) ---------------------------------------------------------------------

/** A card an importer made from a character card or a lore entry, its texts already cut to the limits. */
export type ImportedCardInput = {
  name: string;
  kind: CardKind;
  triggers: string[];
  description: string;
  enabled: boolean;
  secondaryTriggers: string[];
  selectiveLogic: SelectiveLogic;
  constant: boolean;
  insertionOrder: number;
  priority: number;
  caseSensitive: boolean;
  /** The source's fields the card does not model, written back on export. */
  extensions: Record<string, unknown>;
  /** The Character Card V3 `data` (minus character_book), raw; null for a lore entry. */
  characterCard?: Record<string, unknown> | null;
  /** The card's picture as bytes: checked and re-encoded like any uploaded portrait. */
  portrait?: { data: Buffer; mimeType?: string } | null;
  /** The character's voice as our own export wrote it. */
  voice?: string | null;
};

/** An imported card's own checks, named by the card: what the HTTP API would refuse, refused here too. */
function checkImportedCard(card: ImportedCardInput): string[] {
  const triggers = cleanTriggers(card.triggers);
  const what = `card "${card.name}"`;
  if (triggers.length === 0 && !card.constant) throw new InvalidInput(`${what}: ${EMPTY_TRIGGERS_DETAIL}`);
  for (const trigger of [...triggers, ...card.secondaryTriggers]) {
    const problem = regexTriggerProblem(trigger);
    if (problem) throw new InvalidInput(`${what}: ${problem}`);
  }
  return triggers;
}

/** An imported picture as a kept portrait (the checks and re-encoding of an upload). */
async function importedPortrait(card: ImportedCardInput): Promise<Buffer | null> {
  if (!card.portrait) return null;
  try {
    await inspectImage(card.portrait.data);
  } catch (error) {
    if (error instanceof DomainError) throw new InvalidInput(`card "${card.name}" portrait: ${error.detail}`);
    throw error;
  }
  const kept = await encodePortrait(card.portrait.data).catch((error: unknown) => {
    if (error instanceof DomainError) throw error;
    throw new InvalidInput(`card "${card.name}" portrait: ${DAMAGED_IMAGE_DETAIL}`);
  });
  return kept.data;
}

/**
 * Many imported cards in one story at once, all or none, under the same locks and limits as one card: at
 * most STORY_CARDS_MAX a story, uploaded portraits within PORTRAIT_UPLOADS_MAX. A name the story (or the
 * import) already has gets " (2)", " (3)"... Callers have checked the story is the player's. Answers the
 * cards and the portrait files stored (the caller's to remove if its own transaction does not commit).
 */
export async function createImportedCards(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  cards: ImportedCardInput[],
  /**
   * Cards of the story the import replaces (a lore import's "Replace" for entries it already has): each takes
   * the file's text, triggers, lore rules and kept data, and keeps its id, name and picture (decision 0142).
   */
  replacing: { id: string; card: ImportedCardInput }[] = [],
): Promise<{ cards: StoryCard[]; portraitKeys: string[] }> {
  const triggers = cards.map(checkImportedCard);
  const replacedTriggers = replacing.map(({ card }) => checkImportedCard(card));
  if (cards.length > STORY_CARDS_MAX) throw new InvalidInput(TOO_MANY_CARDS_DETAIL);
  const withPortrait = cards.filter((card) => card.portrait).length;
  if (
    withPortrait > 0 &&
    (await countUploadedPortraits(ctx.db, userId, null)) + withPortrait > PORTRAIT_UPLOADS_MAX
  ) {
    throw tooManyPortraits();
  }
  const portraits: (string | null)[] = [];
  try {
    for (const card of cards) {
      const data = await importedPortrait(card);
      portraits.push(
        data
          ? (await storePortrait(ctx, userId, { upload: data, mimeType: "image/webp" })).portraitKey
          : null,
      );
    }
    const rows = await ctx.db.transaction(async (tx) => {
      if (withPortrait > 0) {
        await lockUserPortraits(tx, userId);
        if ((await countUploadedPortraits(tx, userId, null)) + withPortrait > PORTRAIT_UPLOADS_MAX) {
          throw tooManyPortraits();
        }
      }
      await lockStoryCards(tx, storyId);
      if ((await countCards(tx, storyId)) + cards.length > STORY_CARDS_MAX) {
        throw new InvalidInput(TOO_MANY_CARDS_DETAIL);
      }
      const taken = new Set((await cardNames(tx, storyId)).map((name) => name.toLowerCase()));
      const at = ctx.clock.now().getTime();
      const replaced: CardRow[] = [];
      for (const [index, { id, card }] of replacing.entries()) {
        const row = await updateCard(tx, userId, id, {
          kind: card.kind,
          triggers: replacedTriggers[index]!,
          description: card.description,
          enabled: card.enabled,
          secondaryTriggers: cleanTriggers(card.secondaryTriggers),
          selectiveLogic: card.selectiveLogic,
          constant: card.constant,
          insertionOrder: card.insertionOrder,
          priority: card.priority,
          caseSensitive: card.caseSensitive,
          extensions: card.extensions,
          characterCard: card.characterCard ?? null,
          ...(card.voice ? { voice: card.voice } : {}),
          updatedAt: new Date(at),
        });
        if (!row || row.storyId !== storyId) throw new NotFound("Card not found");
        replaced.push(row);
      }
      const inserted = await insertCards(
        tx,
        cards.map((card, index) => ({
          userId,
          storyId,
          name: freeName(card.name, taken),
          kind: card.kind,
          triggers: triggers[index]!,
          description: card.description,
          enabled: card.enabled,
          secondaryTriggers: cleanTriggers(card.secondaryTriggers),
          selectiveLogic: card.selectiveLogic,
          constant: card.constant,
          insertionOrder: card.insertionOrder,
          priority: card.priority,
          caseSensitive: card.caseSensitive,
          extensions: card.extensions,
          characterCard: card.characterCard ?? null,
          voice: card.voice ?? null,
          portraitItemId: null,
          portraitKey: portraits[index] ?? null,
          // A millisecond apart, so the story lists them in the order imported.
          at: new Date(at + index),
        })),
      );
      return [...replaced, ...inserted];
    });
    return {
      cards: await toCards(ctx, userId, rows),
      portraitKeys: portraits.filter((key): key is string => key !== null),
    };
  } catch (error) {
    await discardPortraitFiles(ctx, portraits);
    if (isUniqueViolation(error)) throw new InvalidInput(DUPLICATE_CARD_NAME_DETAIL);
    throw error;
  }
}

/**
 * A card with everything it holds, and its portrait's storage key (for exports and backups). The portrait's
 * bytes are read only when asked for: a lore export of a hundred cards reads none of their pictures.
 */
export type ExportedCard = CardRow & {
  portrait: { key: string; read: () => Promise<Buffer>; galleryItemId: string | null } | null;
};

/** A story's cards, or the one card `cardId` (none when it is not there). Callers have checked the story. */
export async function cardsForExport(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  storyId: string,
  cardId?: string,
): Promise<ExportedCard[]> {
  const all = await listCards(ctx.db, userId, storyId);
  const rows = cardId === undefined ? all : all.filter((row) => row.id === cardId);
  const keys = await portraitKeys(ctx, userId, rows);
  return rows.map((row) => {
    const portrait = keys.get(row.id);
    return {
      ...row,
      portrait: portrait
        ? { key: portrait.key, read: () => ctx.storage.read(portrait.key), galleryItemId: portrait.itemId }
        : null,
    };
  });
}
