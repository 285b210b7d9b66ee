// SQL for living lore and the camera: the drafts offered from the narration (lore_suggestions), a story's
// scene state (columns of stories) and a card's appearance (a column of story_cards). Scoped to the owner.
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { loreSuggestions, stories, storyCards } from "../db/schema";
import { storiesChanged } from "../stories";

export type SuggestionRow = typeof loreSuggestions.$inferSelect;
type SceneStateValues = { scenePlace: string; sceneTimeOfDay: string; sceneWeather: string };

/** The drafts waiting for the player, oldest first. */
export async function offeredSuggestions(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<SuggestionRow[]> {
  return q
    .select()
    .from(loreSuggestions)
    .where(
      and(
        eq(loreSuggestions.userId, userId),
        eq(loreSuggestions.storyId, storyId),
        eq(loreSuggestions.status, "offered"),
      ),
    )
    .orderBy(asc(loreSuggestions.createdAt), asc(loreSuggestions.id));
}

/** Every draft of the story, whatever became of it, oldest first (a backup carries them all). */
export async function allSuggestions(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<SuggestionRow[]> {
  return q
    .select()
    .from(loreSuggestions)
    .where(and(eq(loreSuggestions.userId, userId), eq(loreSuggestions.storyId, storyId)))
    .orderBy(asc(loreSuggestions.createdAt), asc(loreSuggestions.id));
}

export async function countOffered(q: Queryable, storyId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(loreSuggestions)
    .where(and(eq(loreSuggestions.storyId, storyId), eq(loreSuggestions.status, "offered")));
  return Number(row?.n ?? 0);
}

/** Every name the story was ever offered (whatever became of it), lower-cased without its article. */
export async function suggestedKeys(q: Queryable, storyId: string): Promise<Set<string>> {
  const rows = await q
    .select({ key: loreSuggestions.nameKey })
    .from(loreSuggestions)
    .where(eq(loreSuggestions.storyId, storyId));
  return new Set(rows.map((row) => row.key));
}

export async function findSuggestion(
  q: Queryable,
  userId: string,
  storyId: string,
  suggestionId: string,
): Promise<SuggestionRow | undefined> {
  const [row] = await q
    .select()
    .from(loreSuggestions)
    .where(
      and(
        eq(loreSuggestions.userId, userId),
        eq(loreSuggestions.storyId, storyId),
        eq(loreSuggestions.id, suggestionId),
      ),
    );
  return row;
}

/** New drafts; a name the story was offered before (a racing job's) is skipped. */
export async function insertSuggestions(
  q: Queryable,
  rows: Omit<SuggestionRow, "id" | "status" | "updatedAt">[],
): Promise<void> {
  if (rows.length === 0) return;
  await q
    .insert(loreSuggestions)
    .values(rows.map((row) => ({ ...row, status: "offered" as const, updatedAt: row.createdAt })))
    .onConflictDoNothing();
}

/** Marks a draft accepted or dismissed, only while it is offered: false when it was handled already. */
export async function settleSuggestion(
  q: Queryable,
  suggestionId: string,
  status: "accepted" | "dismissed",
  at: Date,
): Promise<boolean> {
  const rows = await q
    .update(loreSuggestions)
    .set({ status, updatedAt: at })
    .where(and(eq(loreSuggestions.id, suggestionId), eq(loreSuggestions.status, "offered")))
    .returning({ id: loreSuggestions.id });
  return rows.length > 0;
}

export async function updateSceneState(
  q: Queryable,
  userId: string,
  storyId: string,
  values: Partial<SceneStateValues>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await q
    .update(stories)
    .set(values)
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)));
  // That story's row alone: the player's other stories keep their kept rows (decision 0134).
  storiesChanged(q, [{ userId, id: storyId }]);
}

/** A card's appearance as the narration last described it (its other fields and its updated_at stay). */
export async function updateAppearance(
  q: Queryable,
  cardId: string,
  appearance: string,
  at: Date,
): Promise<void> {
  await q
    .update(storyCards)
    .set({ appearance, appearanceUpdatedAt: at })
    .where(and(eq(storyCards.id, cardId), sql`${storyCards.appearance} is distinct from ${appearance}`));
}

/** An emptied branch's suggestions (its row stays, so the foreign key does not take them). */
export async function deleteLoreSuggestionsOf(q: Queryable, storyId: string): Promise<void> {
  await q.delete(loreSuggestions).where(eq(loreSuggestions.storyId, storyId));
}

/** A new branch's drafts: its source's, copied. */
export async function copyLoreSuggestions(
  q: Queryable,
  fromStoryId: string,
  toStoryId: string,
): Promise<void> {
  const rows = await q.select().from(loreSuggestions).where(eq(loreSuggestions.storyId, fromStoryId));
  if (rows.length === 0) return;
  await q.insert(loreSuggestions).values(rows.map(({ id: _id, ...row }) => ({ ...row, storyId: toStoryId })));
}
