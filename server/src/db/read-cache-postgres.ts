// The read caches' change signals (decision 0117), on PostgreSQL the cross-process signal. The modules' caches
// (`platform/read-cache.ts`) see this process's writes through the modules' own invalidations; every other
// writer (another HTTP process, a worker, an operator's psql, a cascade) is heard through a statement trigger
// on every table of the app's schema, which sends `pg_notify('table_changed', <table>)` at commit to every
// process's listening connection: each process then forgets every answer of the caches that read that table.
// Until that connection listens, and whenever it is down, the caches are off.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { Notifier } from "../platform/notify";
import type { ReadCaches } from "../platform/read-cache";

export const TABLE_CHANGED_CHANNEL = "table_changed";

/** The longest a kept answer is served, should a change signal ever be lost without the connection dropping. */
export const READ_CACHE_MAX_AGE_MS = 1_000;

type Run = (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Tables whose answers are kept per part of a user (decision 0134): their signal names each (user, part) a
 * statement changed, `<table>:<user>/<part>`, so a turn in one story leaves the other stories' answers. The
 * part is the row's story (a message's story, "main" for the main chat; a story row's own id).
 */
const PER_PART: Record<string, { user: string; part: string; none: string }> = {
  chat_messages: { user: "user_id", part: "story_id", none: "main" },
  stories: { user: "user_id", part: "id", none: "main" },
};

/** A statement that changed more parts than this says only its table (every answer of it goes). */
const PARTS_AT_MOST = 50;

/** A signal's words: the table, and the user and part it changed when it says them. */
export function parseTableChanged(payload: string): { table: string; user?: string; part?: string } {
  const colon = payload.indexOf(":");
  if (colon < 0) return { table: payload };
  const [user, part] = payload.slice(colon + 1).split("/");
  return user && part ? { table: payload.slice(0, colon), user, part } : { table: payload.slice(0, colon) };
}

/** The trigger function, and the statement trigger on each of `tables` that lacks it (inside a transaction). */
async function putChangeSignals(run: Run, tables: readonly string[]): Promise<void> {
  await run(`
    create or replace function storyverse_table_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${TABLE_CHANGED_CHANNEL}', tg_table_name);
      return null;
    end $$`);
  // The per-part signal: each (user, part) of the statement's rows, or the table alone past PARTS_AT_MOST.
  await run(`
    create or replace function storyverse_parts_changed() returns trigger language plpgsql as $$
    declare
      parts text[];
    begin
      execute format(
        'select array(select distinct %I::text || ''/'' || coalesce(%I::text, %L) from changed_rows limit ${PARTS_AT_MOST + 1})',
        tg_argv[0], tg_argv[1], tg_argv[2]) into parts;
      if array_length(parts, 1) > ${PARTS_AT_MOST} then
        perform pg_notify('${TABLE_CHANGED_CHANNEL}', tg_table_name);
      else
        for i in 1 .. coalesce(array_length(parts, 1), 0) loop
          perform pg_notify('${TABLE_CHANGED_CHANNEL}', tg_table_name || ':' || parts[i]);
        end loop;
      end if;
      return null;
    end $$`);
  const perPart = tables.filter((table) => PER_PART[table]);
  const partsMissing = await run(
    `select c.relname as name from pg_class c
     where c.relnamespace = current_schema()::regnamespace and c.relname = any($1::text[])
       and not exists (
         select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'storyverse_parts_inserted')`,
    [perPart],
  );
  for (const { name } of partsMissing.rows as { name: string }[]) {
    const table = `"${name.replaceAll('"', '""')}"`;
    const { user, part, none } = PER_PART[name]!;
    const args = `'${user}', '${part}', '${none}'`;
    await run(`drop trigger if exists storyverse_table_changed on ${table}`);
    for (const [trigger, event, rows] of [
      ["storyverse_parts_inserted", "insert", "new"],
      ["storyverse_parts_updated", "update", "new"],
      ["storyverse_parts_deleted", "delete", "old"],
    ] as const) {
      await run(
        `create trigger ${trigger} after ${event} on ${table} referencing ${rows} table as changed_rows
         for each statement execute function storyverse_parts_changed(${args})`,
      );
    }
    await run(
      `create trigger storyverse_parts_truncated after truncate on ${table}
       for each statement execute function storyverse_table_changed()`,
    );
  }
  const missing = await run(
    `select c.relname as name from pg_class c
     where c.relnamespace = current_schema()::regnamespace and c.relname = any($1::text[])
       and not exists (
         select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'storyverse_table_changed')`,
    [tables.filter((table) => !PER_PART[table])],
  );
  for (const { name } of missing.rows as { name: string }[]) {
    await run(
      `create trigger storyverse_table_changed after insert or update or delete or truncate
       on "${name.replaceAll('"', '""')}" for each statement execute function storyverse_table_changed()`,
    );
  }
}

/**
 * PostgreSQL: the change signals on each of `tables` that lacks them. Under an advisory lock, so processes
 * starting together do not race on the DDL; a table that has its trigger is not touched (no lock taken on it).
 */
export async function installChangeSignals(pool: pg.Pool, tables: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    await client.query("select pg_advisory_xact_lock(hashtext('storyverse.table_changed'))");
    await putChangeSignals((text, params) => client.query(text, params), tables);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Embedded PGlite: the same signals. One process owns the database, so they only back up the modules' own
 * invalidations (a write some module forgot, a cascade, a test's or an admin command's direct SQL); PGlite
 * delivers them to the listener before the committing statement returns.
 */
export async function installPgliteChangeSignals(client: PGlite, tables: readonly string[]): Promise<void> {
  await client.transaction((tx) => putChangeSignals((text, params) => tx.query(text, params), tables));
}

/**
 * Follows the change signals for `caches`: on only once `arm()` has put the triggers on the tables
 * (`install`, after the migrations made them) and while the notifier's listening connection listens for
 * their signals (PGlite's in-process notifier always does).
 */
export function followTableChanges(notifier: Notifier, caches: ReadCaches, install: () => Promise<void>) {
  let armed = false;
  let listening = notifier.watchListening === undefined;
  const update = () => caches.setEnabled(armed && listening);
  const stopSignals = notifier.subscribe(TABLE_CHANGED_CHANNEL, (payload) => {
    const { table, user, part } = parseTableChanged(payload);
    caches.tableChanged(table, user && part ? { user, part } : undefined);
  });
  const stopWatching = notifier.watchListening?.((now) => {
    listening = now;
    update();
  });
  return {
    arm: async () => {
      try {
        await install();
      } catch (error) {
        // A database user without the right to create triggers: the app works, every read asks PostgreSQL.
        console.warn(
          JSON.stringify({
            level: "warn",
            msg: "read cache off: could not put the change triggers on the tables",
            error: (error as Error).message,
          }),
        );
        return;
      }
      armed = true;
      update();
    },
    detach: () => {
      stopSignals();
      stopWatching?.();
      caches.setEnabled(false);
    },
  };
}
