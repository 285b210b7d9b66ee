// SQL for story films.
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { storyFilms } from "../db/schema";

export type FilmRow = typeof storyFilms.$inferSelect;

export async function insertFilm(q: Queryable, values: typeof storyFilms.$inferInsert): Promise<FilmRow> {
  const [row] = await q.insert(storyFilms).values(values).returning();
  return row!;
}

export async function latestFilm(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<FilmRow | undefined> {
  const [row] = await q
    .select()
    .from(storyFilms)
    .where(and(eq(storyFilms.userId, userId), eq(storyFilms.storyId, storyId)))
    .orderBy(desc(storyFilms.createdAt))
    .limit(1);
  return row;
}

export async function findFilm(q: Queryable, id: string): Promise<FilmRow | undefined> {
  const [row] = await q.select().from(storyFilms).where(eq(storyFilms.id, id));
  return row;
}

export async function updateFilm(
  q: Queryable,
  id: string,
  values: Partial<Pick<FilmRow, "status" | "progress" | "error" | "mediaItemId">> & { updatedAt: Date },
): Promise<void> {
  await q.update(storyFilms).set(values).where(eq(storyFilms.id, id));
}

/** Marks films of a story that stopped reporting (their worker died) as failed; frees the story for a new one. */
export async function failStaleFilms(
  q: Queryable,
  storyId: string,
  staleBefore: Date,
  error: string,
  at: Date,
) {
  await q
    .update(storyFilms)
    .set({ status: "failed", error, updatedAt: at })
    .where(
      and(
        eq(storyFilms.storyId, storyId),
        inArray(storyFilms.status, ["queued", "running"]),
        lt(storyFilms.updatedAt, staleBefore),
      ),
    );
}
