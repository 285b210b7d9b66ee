// Whether a turn is being written in a conversation, on any process: Retry, Continue and Undo wait (409) for
// it. A turn is recorded in turns_in_flight while its narrator writes and removed when it ends; while it writes,
// its process beats (refreshes the record) every TURN_IN_FLIGHT_BEAT_MS. A row a killed process left behind
// stops beating, stops counting TURN_IN_FLIGHT_SILENT_MS later and is swept by the next turn: a crash holds the
// story's Retry and Undo for under a minute, not for the longest a turn may take.
import { randomUUID } from "node:crypto";
import type { AppContext } from "../context";
import { beatTurnInFlight, countTurnsInFlight, endTurnInFlight, startTurnInFlight } from "./turn-lock-repo";

/** How often a process refreshes the records of the turns it is writing. */
export const TURN_IN_FLIGHT_BEAT_MS = 10_000;
/** A record not refreshed for this long is a dead process's: several beats missed, never one slow beat. */
export const TURN_IN_FLIGHT_SILENT_MS = 45_000;

type LockContext = Pick<AppContext, "db" | "clock">;

/** Runs `work` (a turn's writing) recorded as in flight for the conversation. */
export async function whileWriting<T>(
  ctx: LockContext,
  userId: string,
  storyId: string | null,
  work: () => Promise<T>,
  beatMs = TURN_IN_FLIGHT_BEAT_MS,
): Promise<T> {
  const id = randomUUID();
  await startTurnInFlight(ctx.db, { id, userId, storyId, startedAt: ctx.clock.now() });
  // A missed beat (a busy database) is only late: the next one refreshes the record.
  let beating: Promise<void> = Promise.resolve();
  const beat = setInterval(() => {
    beating = beatTurnInFlight(ctx.db, { id, userId, storyId, startedAt: ctx.clock.now() }).catch(
      () => undefined,
    );
  }, beatMs);
  beat.unref();
  try {
    return await work();
  } finally {
    clearInterval(beat);
    // A beat still on its way would write the record again after it is removed.
    await beating;
    // A failure here must not replace the turn's own outcome; a row left behind stops counting in time.
    await endTurnInFlight(ctx.db, id, silentSince(ctx)).catch(() => undefined);
  }
}

const silentSince = (ctx: LockContext) => new Date(ctx.clock.now().getTime() - TURN_IN_FLIGHT_SILENT_MS);

/** Whether a turn of the conversation is being written now, on this process or another. */
export async function isWriting(ctx: LockContext, userId: string, storyId: string | null): Promise<boolean> {
  return (await countTurnsInFlight(ctx.db, userId, storyId, silentSince(ctx))) > 0;
}
