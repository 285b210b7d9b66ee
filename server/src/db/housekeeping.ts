// PGlite's housekeeping: PostgreSQL's autovacuum keeps each table's statistics and visibility map current,
// and PGlite (one process, no background workers) never does. Without statistics the planner guesses; without
// the visibility map no index-only scan is possible (recall counts a story's narrator messages through
// chat_messages_narrator_idx that way: about 4 ms for 10,000 of them instead of 20 ms reading the table).
// So a PGlite process runs VACUUM (ANALYZE) once shortly after it starts and then every HOUSEKEEPING_EVERY_MS.
// While it runs PGlite answers nothing else (one connection): well under a second for a player's database.
import type { Database } from "./client";

const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;
/** After the start: the first requests (and the job queue's first polls) go first. */
const FIRST_AFTER_MS = 2_000;

type Log = { warn: (obj: object, msg: string) => void };

/** Starts the housekeeping on PGlite (PostgreSQL has its own); returns the stop, which waits for a run. */
export function startHousekeeping(
  database: Database,
  log: Log,
  options: { firstAfterMs?: number } = {},
): () => Promise<void> {
  if (database.kind !== "pglite") return async () => {};
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= database
      .executeSql("vacuum (analyze)")
      .then(() => undefined)
      .catch((error: Error) => log.warn({ err: error }, "PGlite housekeeping (vacuum) failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, options.firstAfterMs ?? FIRST_AFTER_MS);
  const timer = setInterval(run, HOUSEKEEPING_EVERY_MS);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
