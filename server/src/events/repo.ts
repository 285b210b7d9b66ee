// SQL over user_events: the recent events of each user's stream, by id.
import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { userEvents } from "../db/schema";

export type EventRow = typeof userEvents.$inferSelect;
export type NewEvent = Omit<typeof userEvents.$inferInsert, "id">;

/** Inserts the event and, in the same transaction, signals its id on `channel` (delivered at commit). */
export async function insertEventAndSignal(q: Queryable, row: NewEvent, channel: string): Promise<number> {
  const [inserted] = await q.insert(userEvents).values(row).returning({ id: userEvents.id });
  const id = inserted!.id;
  await q.execute(sql`select pg_notify(${channel}, ${`${row.userId}:${id}`})`);
  return id;
}

export async function findEvent(q: Queryable, userId: string, id: number): Promise<EventRow | undefined> {
  const [row] = await q
    .select()
    .from(userEvents)
    .where(and(eq(userEvents.userId, userId), eq(userEvents.id, id)));
  return row;
}

/** The user's events after `afterId` and since `since`, oldest first, at most `limit`. */
export async function eventsAfter(
  q: Queryable,
  userId: string,
  afterId: number,
  since: Date,
  limit: number,
): Promise<EventRow[]> {
  return q
    .select()
    .from(userEvents)
    .where(and(eq(userEvents.userId, userId), gt(userEvents.id, afterId), gt(userEvents.createdAt, since)))
    .orderBy(asc(userEvents.id))
    .limit(limit);
}

export async function deleteEventsBefore(q: Queryable, before: Date): Promise<void> {
  await q.delete(userEvents).where(lt(userEvents.createdAt, before));
}
