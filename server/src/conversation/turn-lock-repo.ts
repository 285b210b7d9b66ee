// SQL for turns_in_flight (turn-lock.ts): the turns being written now, by conversation.
import { and, count, eq, gte, isNull, lt, or } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { turnsInFlight } from "../db/schema";

export async function startTurnInFlight(
  q: Queryable,
  row: { id: string; userId: string; storyId: string | null; startedAt: Date },
): Promise<void> {
  await q.insert(turnsInFlight).values(row);
}

/**
 * The writing process is alive: the record counts for another TURN_IN_FLIGHT_SILENT_MS. Written again if another
 * process swept it while this one stalled (a turn still writing is never left unrecorded).
 */
export async function beatTurnInFlight(
  q: Queryable,
  row: { id: string; userId: string; storyId: string | null; startedAt: Date },
): Promise<void> {
  await q
    .insert(turnsInFlight)
    .values(row)
    .onConflictDoUpdate({ target: turnsInFlight.id, set: { startedAt: row.startedAt } });
}

/** Ends this turn's record, and sweeps any a killed process left (older than `staleBefore`). */
export async function endTurnInFlight(q: Queryable, id: string, staleBefore: Date): Promise<void> {
  await q.delete(turnsInFlight).where(or(eq(turnsInFlight.id, id), lt(turnsInFlight.startedAt, staleBefore)));
}

export async function countTurnsInFlight(
  q: Queryable,
  userId: string,
  storyId: string | null,
  since: Date,
): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(turnsInFlight)
    .where(
      and(
        eq(turnsInFlight.userId, userId),
        storyId ? eq(turnsInFlight.storyId, storyId) : isNull(turnsInFlight.storyId),
        gte(turnsInFlight.startedAt, since),
      ),
    );
  return Number(row?.n ?? 0);
}
