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
import { attachReadCaches, createReadCaches, type ReadCaches } from "../platform/read-cache";
import { pgliteSeed } from "./pglite-seed";
import {
  followTableChanges,
  installChangeSignals,
  installPgliteChangeSignals,
  READ_CACHE_MAX_AGE_MS,
} from "./read-cache-postgres";
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
   * The modules' read caches (`platform/read-cache.ts`, decision 0117); absent when turned off
   * (`READ_CACHE=false`, PostgreSQL only).
   */
  readCaches?: ReadCaches;
  /** PostgreSQL: puts the change signals on the tables and turns the caches on (after the migrations). */
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
  const db = drizzlePg({ client: pool, schema });
  const readCaches = useReadCache ? postgresReadCaches(pool) : undefined;
  const signals = readCaches
    ? followTableChanges(notifier, readCaches, () => installChangeSignals(pool, appTables))
    : undefined;
  if (readCaches) attachReadCaches(db, readCaches);
  return {
    kind: "postgres",
    notifier,
    pool,
    ...(readCaches && signals ? { readCaches, armReadCache: signals.arm } : {}),
    db,
    migrate: (migrationsFolder) => migratePg(db, { migrationsFolder }),
    executeSql: async (text, values) => {
      const result = await pool.query(text, values);
      return { rows: result.rows };
    },
    ping: async () => {
      if (closed) throw new Error("database is closed");
      await pool.query("select 1");
    },
    close: async () => {
      if (closed) return;
      closed = true;
      signals?.detach();
      await notifier.close();
      await pool.end();
    },
  };
}

/**
 * The modules' caches on PostgreSQL: off until the change signals are heard, nothing older than 1 s, and a
 * write inside a transaction pending until its connection is back in the pool (so after its commit).
 */
function postgresReadCaches(pool: pg.Pool): ReadCaches {
  const caches = createReadCaches({
    maxAgeMs: READ_CACHE_MAX_AGE_MS,
    enabled: false,
    tracksConnections: true,
  });
  pool.on("acquire", (connection) => caches.acquired(connection));
  pool.on("release", (_error, connection) => caches.released(connection));
  return caches;
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
    // A new directory starts from the build's empty cluster when there is one (pglite-seed.ts).
    const startFrom = loadDataDir ?? (inMemory ? undefined : await pgliteSeed(dir));
    // pgvector for recall by meaning (vectors.ts): loaded only when a database creates the extension.
    client = await PGlite.create({
      dataDir: dir,
      extensions: { vector },
      ...(startFrom ? { loadDataDir: startFrom } : {}),
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  const notifier = createLocalNotifier((channel, handler) => client.listen(channel, handler));
  const db = drizzlePglite({ client, schema });
  // On once the migrations are done and the tables carry their change signals (a backup for the modules'
  // own invalidations: one process owns the database, so every write of the app passes through those).
  const readCaches = createReadCaches({ enabled: false });
  attachReadCaches(db, readCaches);
  const signals = followTableChanges(notifier, readCaches, () =>
    installPgliteChangeSignals(client, appTables),
  );
  return {
    kind: "pglite",
    readCaches,
    notifier,
    db,
    migrate: async (migrationsFolder) => {
      await migratePglite(db, { migrationsFolder });
      await signals.arm();
    },
    executeSql: async (text, values) => {
      // PGlite's extended protocol takes one statement; pg-boss sends scripts without parameters.
      if (values && values.length > 0) {
        const result = await client.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      }
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      signals.detach();
      await notifier.close();
      if (!client.closed) await client.close();
      await unlock();
    },
    dump: () => client.dumpDataDir("none"),
  };
}
