// Applies the generated migrations in server/drizzle; the same files serve PGlite and PostgreSQL (each
// database brings its driver's migrator, see client.ts). Decision 0126.
//
// Any number of processes may start together on an older database (a rolling upgrade, or an API process
// and a worker started at once): on PostgreSQL they take turns through an advisory lock held by a session of
// its own, so one applies what is pending while the others wait, then find nothing left to do. PGlite needs
// no lock here: its data directory is one process's already (the lock file client.ts takes refuses a second).
// The migrator applies all that is pending in one transaction, so a migration that fails leaves the database
// exactly as it was, and the error names the migration, the database's own message and code, and the statement.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { serverDir } from "../platform/server-dir";
import type { Database } from "./client";
import { setupVectors } from "./vectors";

const migrationsFolder = path.join(serverDir, "drizzle");

/** The advisory lock's key: the same on every process of every version. */
const MIGRATION_LOCK = "storyverse.migrations";

/** drizzle's record of what it applied: one row per migration, `created_at` being the journal's `when`. */
const APPLIED_TABLE = "drizzle.__drizzle_migrations";

type Migration = { name: string; when: number; statements: string[] };

export type MigrationReport = {
  /** The migrations this call applied, by name (e.g. "0027_storage_quota"), oldest first. */
  applied: string[];
  /** The newest migration the database now has, by name. */
  current: string | undefined;
  /** Migrations in the database that this version does not know: it was migrated by a newer version. */
  newer: number;
  /** How long this process waited for another one's migrations (PostgreSQL's lock), in milliseconds. */
  waitedMs: number;
  /** The whole run, the wait included, in milliseconds. */
  ms: number;
};

/** A migration the database refused; nothing of the run was applied. */
export class MigrationFailed extends Error {}

async function readMigrations(): Promise<Migration[]> {
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return Promise.all(
    journal.entries.map(async (entry) => ({
      name: entry.tag,
      when: entry.when,
      statements: (await readFile(path.join(migrationsFolder, `${entry.tag}.sql`), "utf8")).split(
        "--> statement-breakpoint",
      ),
    })),
  );
}

/** The `when` of the newest migration applied (0 on a new database), as drizzle's migrator decides by it. */
async function lastApplied(database: Database): Promise<number> {
  const table = await database.executeSql("select to_regclass($1) is not null as present", [APPLIED_TABLE]);
  if (!table.rows[0]?.present) return 0;
  const last = await database.executeSql(`select max(created_at) as last from ${APPLIED_TABLE}`);
  return Number(last.rows[0]?.last ?? 0);
}

/**
 * PostgreSQL: waits for and takes the migrations' lock in a session of its own, and answers its release. The
 * lock belongs to that session, so a process that dies holding it frees it with its connection.
 */
async function lockMigrations(
  database: Database,
): Promise<{ waitedMs: number; release: () => Promise<void> }> {
  if (!database.pool) return { waitedMs: 0, release: async () => {} };
  const started = performance.now();
  const session = await database.pool.connect();
  try {
    await session.query("select pg_advisory_lock(hashtext($1))", [MIGRATION_LOCK]);
  } catch (error) {
    session.release(error as Error);
    throw error;
  }
  return {
    waitedMs: Math.round(performance.now() - started),
    release: async () => {
      try {
        await session.query("select pg_advisory_unlock(hashtext($1))", [MIGRATION_LOCK]);
        session.release();
      } catch (error) {
        // Closing the session frees its lock too.
        session.release(error as Error);
      }
    },
  };
}

/** The database's own error, with the migration and the statement it refused. */
function migrationFailed(error: unknown, pending: Migration[], current: string | undefined): MigrationFailed {
  const query = (error as { query?: unknown }).query;
  const cause = ((error as { cause?: unknown }).cause ?? error) as { message?: unknown; code?: unknown };
  const statement = typeof query === "string" ? query.trim() : undefined;
  const failed = statement
    ? pending.find((migration) => migration.statements.some((part) => part.trim() === statement))
    : undefined;
  const message = typeof cause.message === "string" ? cause.message : String(cause);
  const code = typeof cause.code === "string" ? ` (database error ${cause.code})` : "";
  return new MigrationFailed(
    [
      `Migration ${failed?.name ?? pending.map((migration) => migration.name).join(", ")} failed: ${message}${code}.`,
      ...(statement ? [`The statement: ${statement}`] : []),
      `No migration was applied (they run in one transaction): the database is still at ${current ?? "no migration"}.`,
    ].join("\n"),
    { cause: error },
  );
}

/**
 * `vectors: false` leaves out recall's vector table and search function (db/vectors.ts), whose setup loads
 * pgvector's library, a third of an admin command's time on PGlite: the admin commands never search, and
 * the server's start sets them up.
 */
export async function runMigrations(
  database: Database,
  options: { vectors?: boolean } = {},
): Promise<MigrationReport> {
  return (await migrateThen(database, async () => undefined, options)).report;
}

/**
 * The migrations, then `next` while still holding the lock: a start installs or upgrades the job queue's own
 * schema there (pg-boss), which two processes doing at once can collide on in the catalog too.
 */
export async function migrateThen<T>(
  database: Database,
  next: () => Promise<T>,
  options: { vectors?: boolean } = {},
): Promise<{ report: MigrationReport; result: T }> {
  const started = performance.now();
  const migrations = await readMigrations();
  const newestKnown = migrations.at(-1)?.when ?? 0;
  const lock = await lockMigrations(database);
  try {
    const last = await lastApplied(database);
    const pending = migrations.filter((migration) => migration.when > last);
    const before = migrations.filter((migration) => migration.when <= last).at(-1)?.name;
    try {
      await database.migrate(migrationsFolder);
    } catch (error) {
      throw migrationFailed(error, pending, before);
    }
    const newer = last > newestKnown ? await countNewer(database, newestKnown) : 0;
    // Before the read cache's change signals: they go on the app's tables only. All of it under the lock, as
    // it creates the vector extension, table and function, and the triggers, "if not exists".
    if (options.vectors !== false) await setupVectors(database);
    if (database.kind === "postgres") await database.armReadCache?.();
    const report: MigrationReport = {
      applied: pending.map((migration) => migration.name),
      current: pending.at(-1)?.name ?? before,
      newer,
      waitedMs: lock.waitedMs,
      ms: Math.round(performance.now() - started),
    };
    return { report, result: await next() };
  } finally {
    await lock.release();
  }
}

/** How many applied migrations this version does not know (the database was migrated by a newer one). */
async function countNewer(database: Database, newestKnown: number): Promise<number> {
  const result = await database.executeSql(
    `select count(*)::int as newer from ${APPLIED_TABLE} where created_at > $1`,
    [newestKnown],
  );
  return Number(result.rows[0]?.newer ?? 0);
}

/** The start's one log line about the migrations: what it applied, or that nothing was pending. */
export function describeMigrations(report: MigrationReport): {
  level: "info" | "warn";
  msg: string;
  fields: Record<string, unknown>;
} {
  const fields = {
    migrations_applied: report.applied,
    schema: report.current ?? null,
    ms: report.ms,
    ...(report.waitedMs >= 100 ? { waited_for_other_process_ms: report.waitedMs } : {}),
    ...(report.newer > 0 ? { migrations_newer_than_this_version: report.newer } : {}),
  };
  if (report.newer > 0) {
    return {
      level: "warn",
      msg: `the database has ${report.newer} migration${report.newer === 1 ? "" : "s"} newer than this version (a downgrade): it runs on the newer schema unchanged; see docs/deployment.md on rollbacks`,
      fields,
    };
  }
  const count = report.applied.length;
  return count === 0
    ? { level: "info", msg: "no pending migrations", fields }
    : {
        level: "info",
        msg: `applied ${count} migration${count === 1 ? "" : "s"}: ${report.applied.join(", ")}`,
        fields,
      };
}
