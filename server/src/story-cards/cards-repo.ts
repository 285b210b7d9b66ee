// SQL for Story Cards (story_cards). Every query is scoped to the owner and the story.
import { and, arrayOverlaps, asc, count, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { storyCards } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";

export type CardRow = typeof storyCards.$inferSelect;
type CardValues = Pick<
  CardRow,
  "name" | "kind" | "triggers" | "description" | "portraitItemId" | "portraitKey" | "enabled"
> &
  Partial<Pick<CardRow, "referenceExtras">> &
  Partial<
    Pick<
      CardRow,
      | "secondaryTriggers"
      | "selectiveLogic"
      | "constant"
      | "insertionOrder"
      | "priority"
      | "caseSensitive"
      | "extensions"
      | "characterCard"
      | "voice"
      | "talkativeness"
      | "appearance"
      | "appearanceUpdatedAt"
    >
  >;

export async function listCards(q: Queryable, userId: string, storyId: string): Promise<CardRow[]> {
  return q
    .select()
    .from(storyCards)
    .where(and(eq(storyCards.userId, userId), eq(storyCards.storyId, storyId)))
    .orderBy(asc(storyCards.createdAt), asc(storyCards.id));
}

export async function findCard(
  q: Queryable,
  userId: string,
  storyId: string,
  cardId: string,
): Promise<CardRow | undefined> {
  const [row] = await q
    .select()
    .from(storyCards)
    .where(and(eq(storyCards.userId, userId), eq(storyCards.storyId, storyId), eq(storyCards.id, cardId)));
  return row;
}

export async function countCards(q: Queryable, storyId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(storyCards).where(eq(storyCards.storyId, storyId));
  return Number(row?.n ?? 0);
}

/** Is the name taken in this story (case-insensitively), by a card other than `exceptId`? */
export async function nameTaken(
  q: Queryable,
  storyId: string,
  name: string,
  exceptId: string | null,
): Promise<boolean> {
  const rows = await q
    .select({ id: storyCards.id })
    .from(storyCards)
    .where(and(eq(storyCards.storyId, storyId), sql`lower(${storyCards.name}) = lower(${name})`));
  return rows.some((row) => row.id !== exceptId);
}

export async function insertCard(
  q: Queryable,
  values: CardValues & { userId: string; storyId: string; at: Date },
): Promise<CardRow> {
  const [row] = await q
    .insert(storyCards)
    .values({ ...values, createdAt: values.at, updatedAt: values.at })
    .returning();
  return row!;
}

/** Many cards of one story at once (an import), in the order given. */
export async function insertCards(
  q: Queryable,
  values: (CardValues & { userId: string; storyId: string; at: Date })[],
): Promise<CardRow[]> {
  if (values.length === 0) return [];
  const rows = await q
    .insert(storyCards)
    .values(values.map((value) => ({ ...value, createdAt: value.at, updatedAt: value.at })))
    .returning();
  const byName = new Map(rows.map((row) => [row.name, row]));
  return values.map((value) => byName.get(value.name)!);
}

/** The names of a story's cards (for an import to keep its own unique). */
export async function cardNames(q: Queryable, storyId: string): Promise<string[]> {
  const rows = await q
    .select({ name: storyCards.name })
    .from(storyCards)
    .where(eq(storyCards.storyId, storyId));
  return rows.map((row) => row.name);
}

export async function updateCard(
  q: Queryable,
  userId: string,
  cardId: string,
  values: Partial<CardValues> & { updatedAt: Date },
): Promise<CardRow | undefined> {
  const [row] = await q
    .update(storyCards)
    .set(values)
    .where(and(eq(storyCards.userId, userId), eq(storyCards.id, cardId)))
    .returning();
  return row;
}

export async function deleteCard(q: Queryable, userId: string, cardId: string): Promise<CardRow | undefined> {
  const [row] = await q
    .delete(storyCards)
    .where(and(eq(storyCards.userId, userId), eq(storyCards.id, cardId)))
    .returning();
  return row;
}

/** A card's other references that are uploads (the rest name gallery images as `gallery:<id>`). */
export const GALLERY_REFERENCE_PREFIX = "gallery:";
export const uploadedExtras = (extras: readonly string[]): string[] =>
  extras.filter((entry) => !entry.startsWith(GALLERY_REFERENCE_PREFIX));

/** The uploaded portraits and references of a story's cards (their files go when the story goes). */
export async function uploadedPortraitKeys(q: Queryable, userId: string, storyId: string): Promise<string[]> {
  const rows = await q
    .select({ key: storyCards.portraitKey, extras: storyCards.referenceExtras })
    .from(storyCards)
    .where(and(eq(storyCards.userId, userId), eq(storyCards.storyId, storyId)));
  return rows.flatMap((row) => [...(row.key ? [row.key] : []), ...uploadedExtras(row.extras)]);
}

/** Which of these uploaded portraits (or references) some card still shows. */
export async function portraitKeysInUse(q: Queryable, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await q
    .select({ key: storyCards.portraitKey, extras: storyCards.referenceExtras })
    .from(storyCards)
    .where(or(inArray(storyCards.portraitKey, keys), arrayOverlaps(storyCards.referenceExtras, keys)));
  const asked = new Set(keys);
  return new Set(rows.flatMap((row) => [row.key ?? "", ...row.extras].filter((key) => asked.has(key))));
}

/** A new branch's copies of the source branch's cards (their uploaded portraits shared, not copied). */
export async function copyCards(
  q: Queryable,
  fromStoryId: string,
  toStoryId: string,
  at: Date,
): Promise<void> {
  const rows = await q.select().from(storyCards).where(eq(storyCards.storyId, fromStoryId));
  if (rows.length === 0) return;
  await q
    .insert(storyCards)
    .values(
      rows.map(({ id: _id, ...card }) => ({ ...card, storyId: toStoryId, createdAt: at, updatedAt: at })),
    );
}

/** Removes a story row's cards (its first branch deleted while the row stays). */
export async function deleteCardsOf(q: Queryable, storyId: string): Promise<void> {
  await q.delete(storyCards).where(eq(storyCards.storyId, storyId));
}

/** Serialises card creation per story, so the 100-card limit holds under concurrent creates. */
export async function lockStoryCards(q: Queryable, storyId: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`cards:${storyId}`}, 0))`);
}

/**
 * How many uploaded portraits and references the user's cards keep, across stories (not counting the card
 * `exceptId`): distinct files, since a branch's copy of a card shares its pictures' files.
 */
export async function countUploadedPortraits(
  q: Queryable,
  userId: string,
  exceptId: string | null,
): Promise<number> {
  const rows = await q
    .select({ key: storyCards.portraitKey, extras: storyCards.referenceExtras })
    .from(storyCards)
    .where(
      and(
        eq(storyCards.userId, userId),
        or(isNotNull(storyCards.portraitKey), sql`cardinality(${storyCards.referenceExtras}) > 0`),
        exceptId ? ne(storyCards.id, exceptId) : undefined,
      ),
    );
  const files = new Set(
    rows.flatMap((row) => [...(row.key ? [row.key] : []), ...uploadedExtras(row.extras)]),
  );
  return files.size;
}

/** Serialises the storing of a user's uploaded portraits, so their limit holds under concurrent requests. */
export async function lockUserPortraits(q: Queryable, userId: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`portraits:${userId}`}, 0))`);
}

/**
 * The stored keys a Story Card still names: its uploaded portrait and references (the orphaned media sweep
 * asks before it removes an object).
 */
export const storageKeysNamedByCards: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [
      { table: storyCards, user: storyCards.userId, column: storyCards.portraitKey },
      { table: storyCards, user: storyCards.userId, column: storyCards.referenceExtras, array: true },
    ],
    owners,
    keys,
  );

/**
 * The stories whose cards show one of these gallery items: as the portrait (story_cards_portrait_item_idx) or as
 * another reference (decision 0161). For the Gallery's "where is this shown" (stories/media-uses.ts).
 */
export async function storiesWhoseCardsShow(
  q: Queryable,
  userId: string,
  itemIds: string[],
): Promise<string[]> {
  const rows = await q
    .select({ storyId: storyCards.storyId })
    .from(storyCards)
    .where(
      and(
        eq(storyCards.userId, userId),
        or(
          inArray(storyCards.portraitItemId, itemIds),
          arrayOverlaps(
            storyCards.referenceExtras,
            itemIds.map((id) => `${GALLERY_REFERENCE_PREFIX}${id}`),
          ),
        ),
      ),
    );
  return rows.map((row) => row.storyId);
}
