// Opens the database: PostgreSQL over the network when a URL is given, otherwise embedded PGlite.
// Both expose the same Drizzle API, a raw executeSql for pg-boss, a ping for health and a close.
import { mkdir, open, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { getTableName, is } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { type PgDatabase, type PgQueryResultHKT, PgTable } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { createLocalNotifier, createPostgresNotifier, type Notifier } from "../platform/notify";
import { createReadCache, type ReadCache, withReadCache } from "./read-cache";
import { attachPostgresReadCache } from "./read-cache-postgres";
import * as schema from "./schema";

/** What a raw `execute` answers on either driver: node-postgres and PGlite both give the rows. */
type RowsResult<Row> = { rows: Row[] };
interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this["row"]>;
}

/**
 * A database or a transaction in it: the one handle services and repos take and pass on. A Drizzle
 * transaction is a database of the same schema (its `transaction` opens a savepoint), so a service handed
 * `{ ...ctx, db: tx }` runs unchanged inside the caller's transaction; services decide where one begins.
 */
export type Queryable = PgDatabase<RowsResultHKT, typeof schema>;

export type SqlResult = { rows: Record<string, unknown>[] };

export type Database = {
  kind: "pglite" | "postgres";
  db: Queryable;
  /** Applies the migrations in the folder (each driver has its own migrator). */
  migrate: (migrationsFolder: string) => Promise<void>;
  /** Raw SQL for libraries that bring their own (pg-boss). */
  executeSql: (text: string, values?: unknown[]) => Promise<SqlResult>;
  /** One real round trip; throws when the database is unreachable or closed. */
  ping: () => Promise<void>;
  close: () => Promise<void>;
  /** Signals between the processes on this database (LISTEN/NOTIFY, or in-process on PGlite). */
  notifier: Notifier;
  /** PostgreSQL only: the connection pool (for libraries that take one, such as the rate limiter's store). */
  pool?: pg.Pool;
  /**
   * The hot reads' answers kept until a write touches their tables (`read-cache.ts`); absent when turned
   * off (`READ_CACHE=false`, PostgreSQL only).
   */
  readCache?: ReadCache;
  /** PostgreSQL: puts the change signals on the tables and turns the cache on (after the migrations). */
  armReadCache?: () => Promise<void>;
  /** PGlite only: the data directory as a tarball (backups, and the tests' migrated template). */
  dump?: () => Promise<Blob>;
};

export type DatabaseTarget =
  /** `readCache: false` keeps every read going to PostgreSQL (the cache is on by default). */
  | { url: string; readCache?: boolean }
  /** `pgliteDir` may be "memory://"; `loadDataDir` starts it from a dump (tests start from a migrated template). */
  | { pgliteDir: string; loadDataDir?: Blob };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return "url" in target
    ? openPostgres(target.url, target.readCache ?? true)
    : openPglite(target.pgliteDir, target.loadDataDir);
}

/** The app's own tables (the ones the change signals go on). */
const appTables = Object.values(schema)
  .filter((value) => is(value, PgTable))
  .map((table) => getTableName(table as PgTable));

async function openPostgres(url: string, useReadCache: boolean): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  let closed = false;
  const notifier = createPostgresNotifier(url, pool);
  const cached = useReadCache ? attachPostgresReadCache(pool, notifier, appTables) : undefined;
  const client = cached?.pool ?? pool;
  const db = drizzlePg({ client, schema });
  return {
    kind: "postgres",
    notifier,
    pool,
    ...(cached ? { readCache: cached.cache, armReadCache: cached.arm } : {}),
    db,
    migrate: (migrationsFolder) => migratePg(db, { migrationsFolder }),
    executeSql: async (text, values) => {
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
    ping: async () => {
      if (closed) throw new Error("database is closed");
      await pool.query("select 1");
    },
    close: async () => {
      if (closed) return;
      closed = true;
      cached?.detach();
      await notifier.close();
      await pool.end();
    },
  };
}

/** Another process (or another open in this one) holds the PGlite data directory. */
export class DataDirectoryInUse extends Error {}

/** Lock files this process holds, so a second open here is refused too. */
const heldLocks = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * PGlite is one process's database: a second process on the same directory never sees the first one's
 * writes and can corrupt the files. A lock file beside the directory holds the owner's pid; a lock whose
 * process is gone (a crash, kill -9) is taken over.
 */
async function lockDataDirectory(dir: string): Promise<() => Promise<void>> {
  const lockPath = `${dir}.lock`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      heldLocks.add(lockPath);
      return async () => {
        if (!heldLocks.delete(lockPath)) return;
        await rm(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
    const pid = Number((await readFile(lockPath, "utf8").catch(() => "")).trim());
    const ownedHere = heldLocks.has(lockPath);
    if (ownedHere || (pid > 0 && pid !== process.pid && isRunning(pid))) {
      throw new DataDirectoryInUse(
        `The database in ${dir} is in use by another Storyverse process (pid ${ownedHere ? process.pid : pid}). ` +
          "Two processes on one PGlite directory lose writes and can corrupt it: stop the server first, " +
          "or run the server on PostgreSQL (DATABASE_URL) to use admin commands beside it.",
      );
    }
    await rm(lockPath, { force: true });
  }
  throw new DataDirectoryInUse(`Could not lock the database in ${dir}; stop the server first.`);
}

async function openPglite(dir: string, loadDataDir: Blob | undefined): Promise<Database> {
  const inMemory = dir.startsWith("memory://");
  if (!inMemory) await mkdir(path.dirname(dir), { recursive: true });
  const unlock = inMemory ? async () => {} : await lockDataDirectory(dir);
  let client: PGlite;
  try {
    // pgvector for recall by meaning (vectors.ts): loaded only when a database creates the extension.
    client = await PGlite.create({
      dataDir: dir,
      extensions: { vector },
      ...(loadDataDir ? { loadDataDir } : {}),
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  const notifier = createLocalNotifier((channel, handler) => client.listen(channel, handler));
  // Every statement of the app and of pg-boss goes through the read cache's view of the client.
  const readCache = createReadCache();
  const cached = withReadCache(client, readCache);
  const db = drizzlePglite({ client: cached, schema });
  return {
    kind: "pglite",
    readCache,
    notifier,
    db,
    migrate: (migrationsFolder) => migratePglite(db, { migrationsFolder }),
    executeSql: async (text, values) => {
      // PGlite's extended protocol takes one statement; pg-boss sends scripts without parameters.
      if (values && values.length > 0) {
        const result = await cached.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      }
      const results = await cached.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      await notifier.close();
      if (!client.closed) await client.close();
      await unlock();
    },
    dump: () => client.dumpDataDir("none"),
  };
}
