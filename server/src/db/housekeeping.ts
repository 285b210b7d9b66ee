// PGlite's housekeeping: PostgreSQL's autovacuum keeps each table's statistics and visibility map current,
// and PGlite (one process, no background workers) never does. Without statistics the planner guesses; without
// the visibility map no index-only scan is possible (recall counts a story's narrator messages through
// chat_messages_narrator_idx that way, several times quicker than reading the table: docs/benchmarks.md).
// So a PGlite process looks shortly after it starts and then every HOUSEKEEPING_EVERY_MS for the tables that
// need it, and runs VACUUM (ANALYZE) on each of those, one at a time: PGlite answers nothing else meanwhile
// (one connection), and a whole-database run with a story's vectors stalled every request meanwhile, at every
// start (docs/benchmarks.md, "housekeeping by table"). Which tables: PostgreSQL's own counters of changed rows are
// neither kept across a PGlite restart nor brought up to date while it runs, so the rule is autovacuum's in
// pages rather than rows: a table never analyzed that holds anything, or one that has grown by a tenth (and
// at least GROWN_PAGES) since its last vacuum or analyze recorded its size. Rows updated in place leave
// dead versions that grow the table too, so they are caught the same way.
import type { Database } from "./client";

const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;
/** After the start: the first requests (and the job queue's first polls) go first. */
const FIRST_AFTER_MS = 2_000;
/** A table grown by fewer pages than this is left alone (a small table's churn is not worth a run). */
const GROWN_PAGES = 8;

type Log = { warn: (obj: object, msg: string) => void };

/** The tables outside PostgreSQL's own schemas that need a vacuum and analyze (see the rule above). */
const tablesDue = `
  select format('%I.%I', n.nspname, c.relname) as name
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'r' and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
    and pg_relation_size(c.oid) > 0
    and (c.reltuples < 0
      or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.1 + ${GROWN_PAGES})
  order by c.relpages`;

/** Vacuums and analyzes the tables that need it, one statement each; the names of those it ran on. */
export async function housekeep(database: Database): Promise<string[]> {
  const { rows } = await database.executeSql(tablesDue);
  const names = rows.map((row) => String(row.name));
  for (const name of names) await database.executeSql(`vacuum (analyze) ${name}`);
  return names;
}

/** Starts the housekeeping on PGlite (PostgreSQL has its own); returns the stop, which waits for a run. */
export function startHousekeeping(
  database: Database,
  log: Log,
  options: { firstAfterMs?: number } = {},
): () => Promise<void> {
  if (database.kind !== "pglite") return async () => {};
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= housekeep(database)
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
