// Whether a turn is being written in a conversation, on any process: Retry, Continue and Undo wait (409) for
// it. A turn is recorded in turns_in_flight while its narrator writes and removed when it ends; a row a
// killed process left behind stops counting after TURN_IN_FLIGHT_MAX_MS and is swept by the next turn.
import { randomUUID } from "node:crypto";
import type { AppContext } from "../context";
import { countTurnsInFlight, endTurnInFlight, startTurnInFlight } from "./turn-lock-repo";

/** Longer than any turn may take (the request time-out is 2 minutes): a row older than this is a dead one. */
export const TURN_IN_FLIGHT_MAX_MS = 15 * 60_000;

type LockContext = Pick<AppContext, "db" | "clock">;

/** Runs `work` (a turn's writing) recorded as in flight for the conversation. */
export async function whileWriting<T>(
  ctx: LockContext,
  userId: string,
  storyId: string | null,
  work: () => Promise<T>,
): Promise<T> {
  const id = randomUUID();
  await startTurnInFlight(ctx.db, { id, userId, storyId, startedAt: ctx.clock.now() });
  try {
    return await work();
  } finally {
    // A failure here must not replace the turn's own outcome; a row left behind stops counting in time.
    await endTurnInFlight(ctx.db, id, new Date(ctx.clock.now().getTime() - TURN_IN_FLIGHT_MAX_MS)).catch(
      () => undefined,
    );
  }
}

/** Whether a turn of the conversation is being written now, on this process or another. */
export async function isWriting(ctx: LockContext, userId: string, storyId: string | null): Promise<boolean> {
  const since = new Date(ctx.clock.now().getTime() - TURN_IN_FLIGHT_MAX_MS);
  return (await countTurnsInFlight(ctx.db, userId, storyId, since)) > 0;
}
