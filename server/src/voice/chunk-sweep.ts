// The worker's sweep of narration pieces (decision 0133): a stored narration keeps the pieces it was played
// from for SPEECH_CHUNK_KEEP_MS, so a player that listed a piece just before the file was stored still gets it
// (no 404 mid-narration); the sweep then deletes them. Two sweepers delete the same rows harmlessly.
import type { AppContext } from "../context";
import { startPeriodic } from "../platform/periodic";
import { deleteSettledSpeechChunks } from "./repo";

/** How long a stored narration's pieces stay fetchable: far longer than a player takes to fetch a listed one. */
export const SPEECH_CHUNK_KEEP_MS = 2 * 60_000;
const SWEEP_EVERY_MS = 60_000;

type SweepContext = Pick<AppContext, "db" | "clock" | "log">;

/** One run: the pieces of narrations settled more than SPEECH_CHUNK_KEEP_MS ago go. */
export function sweepSpeechChunks(ctx: SweepContext): Promise<number> {
  return deleteSettledSpeechChunks(ctx.db, new Date(ctx.clock.now().getTime() - SPEECH_CHUNK_KEEP_MS));
}

/** Sweeps now and every minute; returns the stop. */
export function startSpeechChunkSweep(ctx: SweepContext): () => Promise<void> {
  return startPeriodic({
    run: async () => {
      await sweepSpeechChunks(ctx);
    },
    everyMs: SWEEP_EVERY_MS,
    log: ctx.log,
    failure: "narration pieces could not be swept",
  });
}
