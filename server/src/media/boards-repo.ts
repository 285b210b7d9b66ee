// SQL for the Gallery's boards (decision 0141): a player's named boards and which of their items each holds.
// Every statement names the player, so a stray id never reads or changes another player's board.
import { and, count, desc, eq, inArray, max, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { mediaBoardItems, mediaBoards, mediaItems } from "../db/schema";

export type BoardRow = typeof mediaBoards.$inferSelect;
export type BoardSummary = BoardRow & { count: number; coverKey: string | null };

export async function listBoards(q: Queryable, userId: string): Promise<BoardSummary[]> {
  const boards = await q
    .select()
    .from(mediaBoards)
    .where(eq(mediaBoards.userId, userId))
    .orderBy(sql`lower(${mediaBoards.name})`, mediaBoards.id);
  if (boards.length === 0) return [];
  const ids = boards.map((board) => board.id);
  const counts = await q
    .select({ boardId: mediaBoardItems.boardId, n: count(), newest: max(mediaBoardItems.addedAt) })
    .from(mediaBoardItems)
    .where(and(eq(mediaBoardItems.userId, userId), inArray(mediaBoardItems.boardId, ids)))
    .groupBy(mediaBoardItems.boardId);
  // Each board's cover: the thumbnail of the item put on it last (one row per board).
  const covers = await q
    .selectDistinctOn([mediaBoardItems.boardId], {
      boardId: mediaBoardItems.boardId,
      key: mediaItems.thumbnailKey,
    })
    .from(mediaBoardItems)
    .innerJoin(mediaItems, eq(mediaItems.id, mediaBoardItems.mediaId))
    .where(and(eq(mediaBoardItems.userId, userId), inArray(mediaBoardItems.boardId, ids)))
    .orderBy(mediaBoardItems.boardId, desc(mediaBoardItems.addedAt), desc(mediaBoardItems.mediaId));
  const countOf = new Map(counts.map((row) => [row.boardId, row.n]));
  const coverOf = new Map(covers.map((row) => [row.boardId, row.key]));
  return boards.map((board) => ({
    ...board,
    count: countOf.get(board.id) ?? 0,
    coverKey: coverOf.get(board.id) ?? null,
  }));
}

export async function countBoards(q: Queryable, userId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(mediaBoards).where(eq(mediaBoards.userId, userId));
  return row?.n ?? 0;
}

export async function findBoard(q: Queryable, userId: string, id: string): Promise<BoardRow | undefined> {
  const [row] = await q
    .select()
    .from(mediaBoards)
    .where(and(eq(mediaBoards.userId, userId), eq(mediaBoards.id, id)));
  return row;
}

export async function findBoardsByIds(q: Queryable, userId: string, ids: string[]): Promise<BoardRow[]> {
  if (ids.length === 0) return [];
  return q
    .select()
    .from(mediaBoards)
    .where(and(eq(mediaBoards.userId, userId), inArray(mediaBoards.id, ids)));
}

export async function findBoardByName(
  q: Queryable,
  userId: string,
  name: string,
): Promise<BoardRow | undefined> {
  const [row] = await q
    .select()
    .from(mediaBoards)
    .where(and(eq(mediaBoards.userId, userId), sql`lower(${mediaBoards.name}) = lower(${name})`));
  return row;
}

export async function insertBoard(
  q: Queryable,
  values: { userId: string; name: string; createdAt: Date },
): Promise<BoardRow> {
  const [row] = await q.insert(mediaBoards).values(values).returning();
  return row!;
}

export async function renameBoard(q: Queryable, userId: string, id: string, name: string): Promise<void> {
  await q
    .update(mediaBoards)
    .set({ name })
    .where(and(eq(mediaBoards.userId, userId), eq(mediaBoards.id, id)));
}

/** Deletes the board and its memberships (cascade); its items stay in the Gallery. */
export async function deleteBoard(q: Queryable, userId: string, id: string): Promise<boolean> {
  const deleted = await q
    .delete(mediaBoards)
    .where(and(eq(mediaBoards.userId, userId), eq(mediaBoards.id, id)))
    .returning({ id: mediaBoards.id });
  return deleted.length > 0;
}

/** Puts the items on the board (those already on it stay as they were). */
export async function addToBoard(
  q: Queryable,
  userId: string,
  boardId: string,
  mediaIds: string[],
  at: Date,
): Promise<void> {
  if (mediaIds.length === 0) return;
  await q
    .insert(mediaBoardItems)
    .values(mediaIds.map((mediaId) => ({ boardId, mediaId, userId, addedAt: at })))
    .onConflictDoNothing();
}

export async function removeFromBoard(
  q: Queryable,
  userId: string,
  boardId: string,
  mediaIds: string[],
): Promise<void> {
  if (mediaIds.length === 0) return;
  await q
    .delete(mediaBoardItems)
    .where(
      and(
        eq(mediaBoardItems.userId, userId),
        eq(mediaBoardItems.boardId, boardId),
        inArray(mediaBoardItems.mediaId, mediaIds),
      ),
    );
}

/** The boards holding each of the items (by the media index), as item id -> board ids. */
export async function boardsOfItems(
  q: Queryable,
  userId: string,
  mediaIds: string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (mediaIds.length === 0) return result;
  const rows = await q
    .select({ mediaId: mediaBoardItems.mediaId, boardId: mediaBoardItems.boardId })
    .from(mediaBoardItems)
    .where(and(eq(mediaBoardItems.userId, userId), inArray(mediaBoardItems.mediaId, mediaIds)));
  for (const row of rows) result.set(row.mediaId, [...(result.get(row.mediaId) ?? []), row.boardId]);
  return result;
}

/** Sets exactly which boards hold one item: off the others, onto the new ones. */
export async function setItemBoards(
  q: Queryable,
  userId: string,
  mediaId: string,
  boardIds: string[],
  at: Date,
): Promise<void> {
  const current = (await boardsOfItems(q, userId, [mediaId])).get(mediaId) ?? [];
  const gone = current.filter((id) => !boardIds.includes(id));
  const added = boardIds.filter((id) => !current.includes(id));
  if (gone.length > 0) {
    await q
      .delete(mediaBoardItems)
      .where(
        and(
          eq(mediaBoardItems.userId, userId),
          eq(mediaBoardItems.mediaId, mediaId),
          inArray(mediaBoardItems.boardId, gone),
        ),
      );
  }
  if (added.length > 0) {
    await q
      .insert(mediaBoardItems)
      .values(added.map((boardId) => ({ boardId, mediaId, userId, addedAt: at })))
      .onConflictDoNothing();
  }
}
