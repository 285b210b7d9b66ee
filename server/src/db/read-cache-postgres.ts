// The read cache on PostgreSQL (rules in `read-cache.ts`). Two paths invalidate it:
// - this process's own statements, seen here as they run: a reader sees its own process's writes at once;
// - every other writer (another HTTP process, a worker, an operator's psql): a statement trigger on every
//   table of the app's schema sends `pg_notify('table_changed', <table>)`, delivered at commit to every
//   process's listening connection. Until that connection listens, and whenever it is down, the cache is off.
import type pg from "pg";
import type { Notifier } from "../platform/notify";
import {
  aroundWrite,
  classifyOnce,
  createReadCache,
  invalidateWritten,
  isCacheableRead,
  keyOf,
  type ReadCache,
} from "./read-cache";

export const TABLE_CHANGED_CHANNEL = "table_changed";

/** The longest a kept answer is served, should a change signal ever be lost without the connection dropping. */
export const READ_CACHE_MAX_AGE_MS = 1_000;

type QueryConfig = { text: string; rowMode?: string };
type QueryArgs = [string | QueryConfig, unknown[]?, ...unknown[]];

/** `pool` (for drizzle and raw SQL) with every statement seen by `cache`. */
export function withPostgresReadCache(pool: pg.Pool, cache: ReadCache): pg.Pool {
  const query =
    (target: pg.Pool | pg.PoolClient, written: Set<string> | null) =>
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them through.
    (...args: QueryArgs): any => {
      const [first, params] = args;
      const text = typeof first === "string" ? first : first?.text;
      // biome-ignore lint/suspicious/noExplicitAny: see above.
      const pass = () => (target.query as (...a: unknown[]) => any)(...args);
      // Callback forms, submittables (cursors) and anything else: only the trigger's signal invalidates.
      if (typeof text !== "string" || args.some((arg) => typeof arg === "function")) return pass();
      const statement = classifyOnce(text);
      if (statement.kind === "write") {
        return aroundWrite(cache, written, statement.tables, async () => pass());
      }
      if (written === null && isCacheableRead(statement, text)) {
        const rowMode = typeof first === "string" ? undefined : first.rowMode;
        return cache.read(keyOf(text, params, rowMode), statement.tables, async () => {
          const result = (await pass()) as pg.QueryResult;
          // The rows alone (all drizzle reads of a prepared select): pg's Result also holds its type parsers.
          return { command: result.command, rowCount: result.rowCount, rows: result.rows };
        });
      }
      return pass();
    };

  const track = (client: pg.PoolClient): pg.PoolClient => {
    const written = new Set<string>();
    return new Proxy(client, {
      get(target, property) {
        if (property === "query") return query(target, written);
        if (property === "release") {
          return (...args: unknown[]) => {
            invalidateWritten(cache, written);
            return (target.release as (...a: unknown[]) => unknown)(...args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };

  return new Proxy(pool, {
    get(target, property) {
      if (property === "query") return query(target, null);
      if (property === "connect") {
        return (...args: unknown[]) => {
          if (args.length > 0) return (target.connect as (...a: unknown[]) => unknown)(...args);
          return target.connect().then(track);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The statement trigger on each of `tables` that lacks it. Under an advisory lock, so processes starting
 * together do not race on the DDL; a table that has its trigger is not touched (no lock taken on it).
 */
export async function installChangeSignals(pool: pg.Pool, tables: readonly string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    await client.query("select pg_advisory_xact_lock(hashtext('storyverse.table_changed'))");
    await client.query(`
      create or replace function storyverse_table_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('${TABLE_CHANGED_CHANNEL}', tg_table_name);
        return null;
      end $$`);
    const missing = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c
       where c.relnamespace = current_schema()::regnamespace and c.relname = any($1::text[])
         and not exists (
           select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'storyverse_table_changed')`,
      [tables],
    );
    for (const { name } of missing.rows) {
      await client.query(
        `create trigger storyverse_table_changed after insert or update or delete or truncate
         on "${name.replaceAll('"', '""')}" for each statement execute function storyverse_table_changed()`,
      );
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The cache for one PostgreSQL pool: on only once `arm()` has put the triggers on `tables` (after the
 * migrations made them) and while the notifier's listening connection listens for their signals.
 */
export function attachPostgresReadCache(pool: pg.Pool, notifier: Notifier, tables: readonly string[]) {
  const cache = createReadCache({ maxAgeMs: READ_CACHE_MAX_AGE_MS, enabled: false });
  let armed = false;
  let listening = false;
  const update = () => cache.setEnabled(armed && listening);
  const stopSignals = notifier.subscribe(TABLE_CHANGED_CHANNEL, (table) => cache.invalidate([table]));
  const stopWatching = notifier.watchListening?.((now) => {
    listening = now;
    update();
  });
  return {
    cache,
    pool: withPostgresReadCache(pool, cache),
    arm: async () => {
      try {
        await installChangeSignals(pool, tables);
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
      cache.setEnabled(false);
    },
  };
}
