// Story Cards: rules for a story's cards (owner only, at most 100, unique names, a portrait that is the
// player's own gallery image or a checked upload), and what a turn needs of them. An uploaded portrait
// belongs to its card: replacing the portrait, deleting the card or the story deletes the file; a gallery
// portrait stays the gallery's. Uploads are kept re-encoded and small (portraits.ts), at most
// PORTRAIT_UPLOADS_MAX an account. Cards also carry the lore rules (secondary triggers and their logic,
// constant, insertion order, priority, case) and, when imported, the source's unmodelled fields
// (`extensions`) and character card data (`character_card`), which only an import sets and an export reads.
// A card holds up to CARD_REFERENCES_MAX reference pictures (decision 0161), its portrait first: the others
// are kept like it (a gallery image of the player's, or an upload the card owns, counted with the portraits).
import { randomUUID } from "node:crypto";
import {
  CARD_REFERENCES_MAX,
  type CardKind,
  type CardReference,
  type CardReferenceInput,
  type createCardRequestSchema,
  DUPLICATE_CARD_NAME_DETAIL,
  EMPTY_TRIGGERS_DETAIL,
  KEPT_REFERENCE_UNKNOWN_DETAIL,
  PORTRAIT_NOT_YOURS_DETAIL,
  PORTRAIT_UPLOADS_MAX,
  REFERENCE_NOT_YOURS_DETAIL,
  regexTriggerProblem,
  type SelectiveLogic,
  STORY_CARDS_MAX,
  type StoryCard,
  TOO_MANY_CARD_REFERENCES_DETAIL,
  TOO_MANY_CARDS_DETAIL,
  TOO_MANY_PORTRAITS_DETAIL,
  type UpdateCardRequest,
} from "@storyverse/contract/story-cards";
import type { z } from "zod";
import type { AppContext } from "../context";
import type { TurnCard } from "../conversation";
import type { Queryable } from "../db/client";
import { DAMAGED_IMAGE_DETAIL, decodeDataUrl, inspectImage, ownedMediaByIds } from "../media";
import { DomainError, InvalidInput, NotFound, TooLarge } from "../platform/errors";
import { storiesChanged } from "../stories";
import { cleanTriggers, freeName } from "./card-rules";
import {
  type CardRow,
  cardNames,
  countCards,
  countUploadedPortraits,
  deleteCard,
  findCard,
  GALLERY_REFERENCE_PREFIX,
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

type CardsContext = Pick<AppContext, "db" | "clock" | "storage" | "log">;
type CreateInput = z.output<typeof createCardRequestSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A picture, checked: a gallery image of the player's, an upload checked by its bytes (not stored yet), or one
 * of the card's own uploads, kept.
 */
type CheckedPicture = { itemId: string } | { upload: Buffer; mimeType: string } | { keptKey: string };
/** A card's picture as kept: a gallery image of the player's, or the storage key of an upload the card owns. */
type StoredPicture = { itemId: string } | { key: string };

const tooManyPortraits = () => new TooLarge(TOO_MANY_PORTRAITS_DETAIL);

/**
 * Refuses `adding` uploads that would take the user past PORTRAIT_UPLOADS_MAX (the card `cardId` being changed
 * gives its own uploads back). Checked before the uploads are decoded, and again under the user's lock as the
 * card is written.
 */
async function assertPortraitRoom(
  q: Queryable,
  userId: string,
  cardId: string | null,
  adding = 1,
): Promise<void> {
  if ((await countUploadedPortraits(q, userId, cardId)) + adding > PORTRAIT_UPLOADS_MAX)
    throw tooManyPortraits();
}

/** One picture, checked; `field` names it in the 400 ("portrait" or "references"). */
async function checkPicture(
  ctx: CardsContext,
  userId: string,
  picture: CardReferenceInput,
  field: "portrait" | "references",
  existing: CardRow | null,
): Promise<CheckedPicture> {
  if ("kept_url" in picture) {
    const key = ctx.storage.keyFromUrl(picture.kept_url);
    const own = existing ? uploadKeysOf(picturesOf(existing)) : [];
    if (!key || !own.includes(key)) throw new InvalidInput(KEPT_REFERENCE_UNKNOWN_DETAIL);
    return { keptKey: key };
  }
  if ("gallery_item_id" in picture) {
    const id = picture.gallery_item_id;
    const [item] = UUID.test(id) ? await ownedMediaByIds(ctx, userId, [id]) : [];
    if (item?.kind !== "image") {
      throw new InvalidInput(field === "portrait" ? PORTRAIT_NOT_YOURS_DETAIL : REFERENCE_NOT_YOURS_DETAIL);
    }
    return { itemId: item.id };
  }
  let data: Buffer;
  try {
    data = decodeDataUrl(picture.data).data;
    await inspectImage(data);
  } catch (error) {
    if (error instanceof DomainError) throw new InvalidInput(`${field}: ${error.detail}`);
    throw error;
  }
  // Never kept as sent: a small WebP of it is (portraits.ts). It decoded in the check, so a failure here
  // is the file's fault, not the server's.
  const kept = await encodePortrait(data).catch((error: unknown) => {
    if (error instanceof DomainError) throw error;
    throw new InvalidInput(`${field}: ${DAMAGED_IMAGE_DETAIL}`);
  });
  return { upload: kept.data, mimeType: kept.mimeType };
}

/** Several pictures, checked in order; the upload limit is checked for all of them before any is decoded. */
async function checkPictures(
  ctx: CardsContext,
  userId: string,
  pictures: readonly CardReferenceInput[],
  field: "portrait" | "references",
  existing: CardRow | null,
): Promise<CheckedPicture[]> {
  if (pictures.length > CARD_REFERENCES_MAX) throw new InvalidInput(TOO_MANY_CARD_REFERENCES_DETAIL);
  const uploads = pictures.filter((picture) => "data" in picture).length;
  if (uploads > 0) await assertPortraitRoom(ctx.db, userId, existing?.id ?? null, uploads);
  const checked: CheckedPicture[] = [];
  for (const picture of pictures) checked.push(await checkPicture(ctx, userId, picture, field, existing));
  return checked;
}

/** Stores uploads under the card portraits' own prefix (never "/inputs/", which turns discard). */
async function storePictures(
  ctx: CardsContext,
  userId: string,
  checked: readonly CheckedPicture[],
): Promise<StoredPicture[]> {
  const stored: StoredPicture[] = [];
  try {
    for (const picture of checked) {
      if ("itemId" in picture) {
        stored.push({ itemId: picture.itemId });
        continue;
      }
      if ("keptKey" in picture) {
        stored.push({ key: picture.keptKey });
        continue;
      }
      const key = `u/${userId}/portraits/${randomUUID()}.webp`;
      await ctx.storage.put(key, picture.upload, picture.mimeType);
      stored.push({ key });
    }
  } catch (error) {
    await discardPortraitFiles(ctx, newUploads(checked, stored));
    throw error;
  }
  return stored;
}

/** The storage keys of the pictures stored just now (not those kept from the card). */
const newUploads = (checked: readonly CheckedPicture[], stored: readonly StoredPicture[]): string[] =>
  stored.flatMap((picture, index) =>
    "key" in picture && !("keptKey" in checked[index]!) ? [picture.key] : [],
  );

const uploadKeysOf = (pictures: readonly StoredPicture[]): string[] =>
  pictures.flatMap((picture) => ("key" in picture ? [picture.key] : []));

/** A card's pictures as kept in its row: the portrait first, then its other references. */
function picturesOf(
  row: Pick<CardRow, "portraitItemId" | "portraitKey" | "referenceExtras">,
): StoredPicture[] {
  const portrait: StoredPicture[] = row.portraitItemId
    ? [{ itemId: row.portraitItemId }]
    : row.portraitKey
      ? [{ key: row.portraitKey }]
      : [];
  const extras = row.referenceExtras.map(
    (entry): StoredPicture =>
      entry.startsWith(GALLERY_REFERENCE_PREFIX)
        ? { itemId: entry.slice(GALLERY_REFERENCE_PREFIX.length) }
        : { key: entry },
  );
  return [...portrait, ...extras];
}

/** The row's columns for these pictures: the first is the portrait, the rest its other references. */
function pictureColumns(pictures: readonly StoredPicture[]): {
  portraitItemId: string | null;
  portraitKey: string | null;
  referenceExtras: string[];
} {
  const [first, ...rest] = pictures;
  return {
    portraitItemId: first && "itemId" in first ? first.itemId : null,
    portraitKey: first && "key" in first ? first.key : null,
    referenceExtras: rest.map((picture) =>
      "itemId" in picture ? `${GALLERY_REFERENCE_PREFIX}${picture.itemId}` : picture.key,
    ),
  };
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

type ResolvedPicture = { key: string; shown: string; itemId: string | null };

/**
 * The storage keys of each card's pictures: its portrait (`portrait`, when it still has one) and all its
 * references in order (`all`, the portrait first). A gallery image counts while it is still the player's.
 */
async function pictureKeys(
  ctx: Pick<AppContext, "db">,
  userId: string,
  rows: CardRow[],
): Promise<Map<string, { portrait: ResolvedPicture | undefined; all: ResolvedPicture[] }>> {
  const pictures = new Map(rows.map((row) => [row.id, picturesOf(row)]));
  const itemIds = [
    ...new Set(
      [...pictures.values()].flatMap((list) => list.flatMap((p) => ("itemId" in p ? [p.itemId] : []))),
    ),
  ].filter((id) => UUID.test(id));
  const items = new Map((await ownedMediaByIds(ctx, userId, itemIds)).map((item) => [item.id, item]));
  const resolve = (picture: StoredPicture): ResolvedPicture | undefined => {
    if ("key" in picture) return { key: picture.key, shown: picture.key, itemId: null };
    const item = items.get(picture.itemId);
    return item?.kind === "image"
      ? { key: item.storageKey, shown: item.thumbnailKey ?? item.storageKey, itemId: item.id }
      : undefined;
  };
  const keys = new Map<string, { portrait: ResolvedPicture | undefined; all: ResolvedPicture[] }>();
  for (const row of rows) {
    const list = pictures.get(row.id)!;
    const all = list.flatMap((picture) => resolve(picture) ?? []);
    const hasPortrait = row.portraitItemId !== null || row.portraitKey !== null;
    keys.set(row.id, { portrait: hasPortrait ? resolve(list[0]!) : undefined, all });
  }
  return keys;
}

/** The character card's notes for the player, when the card came from one ("" otherwise). */
function creatorNotesOf(row: CardRow): string {
  const notes = row.characterCard?.creator_notes;
  return typeof notes === "string" ? notes : "";
}

async function toCards(ctx: CardsContext, userId: string, rows: CardRow[]): Promise<StoryCard[]> {
  const keys = await pictureKeys(ctx, userId, rows);
  return Promise.all(
    rows.map(async (row) => {
      const { portrait, all } = keys.get(row.id)!;
      const references: CardReference[] = await Promise.all(
        all.map(async (picture) => ({
          url: await ctx.storage.signedUrl(picture.shown),
          gallery_item_id: picture.itemId,
        })),
      );
      return {
        id: row.id,
        name: row.name,
        kind: row.kind,
        triggers: row.triggers,
        description: row.description,
        portrait: portrait
          ? { url: await ctx.storage.signedUrl(portrait.shown), gallery_item_id: portrait.itemId }
          : null,
        references,
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
        talkativeness: row.talkativeness,
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

/** A new card's pictures: `references` (the portrait first), else its `portrait`, else none. */
function picturesAsked(input: Pick<CreateInput, "portrait" | "references">): {
  pictures: CardReferenceInput[];
  field: "portrait" | "references";
} {
  if (input.references !== undefined) return { pictures: input.references, field: "references" };
  return { pictures: input.portrait ? [input.portrait] : [], field: "portrait" };
}

export async function createStoryCard(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  input: CreateInput,
): Promise<StoryCard> {
  const name = input.name.normalize("NFC");
  const asked = picturesAsked(input);
  const checked = await checkPictures(ctx, userId, asked.pictures, asked.field, null);
  // Nothing to keep on a new card: a kept picture names none of its own.
  const pictures = await storePictures(ctx, userId, checked);
  const uploads = uploadKeysOf(pictures);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      if (uploads.length > 0) {
        await lockUserPortraits(tx, userId);
        await assertPortraitRoom(tx, userId, null, uploads.length);
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
        talkativeness: input.talkativeness,
        appearance: input.appearance,
        ...(input.appearance ? { appearanceUpdatedAt: ctx.clock.now() } : {}),
        ...pictureColumns(pictures),
        at: ctx.clock.now(),
      });
    });
    return (await toCards(ctx, userId, [row]))[0]!;
  } catch (error) {
    await discardPortraitFiles(ctx, uploads);
    if (isUniqueViolation(error)) throw new InvalidInput(DUPLICATE_CARD_NAME_DETAIL);
    throw error;
  }
}

/**
 * A change's new pictures, or undefined when it leaves them: `references` replaces them all; `portrait` only
 * the first (null removes it, and the next reference becomes the portrait). Only the new ones are checked.
 */
async function changedPictures(
  ctx: CardsContext,
  userId: string,
  existing: CardRow,
  input: UpdateCardRequest,
): Promise<{ pictures: StoredPicture[]; added: string[] } | undefined> {
  if (input.references !== undefined) {
    const checked = await checkPictures(ctx, userId, input.references, "references", existing);
    const pictures = await storePictures(ctx, userId, checked);
    return { pictures, added: newUploads(checked, pictures) };
  }
  if (input.portrait === undefined) return undefined;
  const before = picturesOf(existing);
  const rest = existing.portraitItemId !== null || existing.portraitKey !== null ? before.slice(1) : before;
  if (input.portrait === null) return { pictures: rest, added: [] };
  const checked = await checkPictures(ctx, userId, [input.portrait], "portrait", existing);
  const [portrait] = await storePictures(ctx, userId, checked);
  return { pictures: [portrait!, ...rest].slice(0, CARD_REFERENCES_MAX), added: uploadKeysOf([portrait!]) };
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
  const changed = await changedPictures(ctx, userId, existing, input);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      if (changed && changed.added.length > 0) {
        await lockUserPortraits(tx, userId);
        // The card's own uploads are not counted: the ones it keeps are, with the new ones.
        await assertPortraitRoom(tx, userId, cardId, uploadKeysOf(changed.pictures).length);
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
        ...(input.talkativeness !== undefined ? { talkativeness: input.talkativeness } : {}),
        ...(input.appearance !== undefined
          ? { appearance: input.appearance, appearanceUpdatedAt: ctx.clock.now() }
          : {}),
        ...(changed ? pictureColumns(changed.pictures) : {}),
        updatedAt: ctx.clock.now(),
      });
    });
    if (!row) throw new NotFound("Card not found");
    // The uploads the card no longer shows are its own to delete.
    if (changed) {
      const kept = new Set(uploadKeysOf(changed.pictures));
      await discardPortraitFiles(
        ctx,
        uploadKeysOf(picturesOf(existing)).filter((key) => !kept.has(key)),
      );
    }
    return (await toCards(ctx, userId, [row]))[0]!;
  } catch (error) {
    await discardPortraitFiles(ctx, changed?.added ?? []);
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
  if (deleted) await discardPortraitFiles(ctx, uploadKeysOf(picturesOf(deleted)));
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
  const keys = await pictureKeys(ctx, userId, rows);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    kind: row.kind,
    triggers: row.triggers,
    description: row.description,
    portraitKey: keys.get(row.id)?.portrait?.key ?? null,
    referenceKeys: (keys.get(row.id)?.all ?? []).map((picture) => picture.key),
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
  /** A SillyTavern card's `extensions.talkativeness` (0..1; decision 0164); absent: the default. */
  talkativeness?: number;
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
          ? uploadKeysOf(await storePictures(ctx, userId, [{ upload: data, mimeType: "image/webp" }]))[0]!
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
          ...(card.talkativeness !== undefined ? { talkativeness: card.talkativeness } : {}),
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
          ...(card.talkativeness !== undefined ? { talkativeness: card.talkativeness } : {}),
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
type ExportedPicture = { key: string; read: () => Promise<Buffer>; galleryItemId: string | null };
export type ExportedCard = CardRow & {
  portrait: ExportedPicture | null;
  /** The card's other reference pictures after the portrait (decision 0161), in order. */
  references: ExportedPicture[];
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
  const keys = await pictureKeys(ctx, userId, rows);
  const exported = (picture: ResolvedPicture): ExportedPicture => ({
    key: picture.key,
    read: () => ctx.storage.read(picture.key),
    galleryItemId: picture.itemId,
  });
  return rows.map((row) => {
    const { portrait, all } = keys.get(row.id)!;
    return {
      ...row,
      portrait: portrait ? exported(portrait) : null,
      references: (portrait ? all.slice(1) : all).map(exported),
    };
  });
}
