// A fresh, migrated database for one test file: PGlite in memory by default, or a brand-new database on the
// PostgreSQL server of TEST_DATABASE_URL when the run is the PostgreSQL pass (TEST_DB_ENGINE=postgres).
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { type Database, type DatabaseTarget, openDatabase } from "../src/db/client";
import { runMigrations } from "../src/db/migrate";

export const testEngine: "pglite" | "postgres" =
  process.env.TEST_DB_ENGINE === "postgres" ? "postgres" : "pglite";

export type TestDatabase = {
  database: Database;
  /** How to open this same database again (restart tests). */
  target: DatabaseTarget;
  cleanup: () => Promise<void>;
};

/**
 * A new database on the PostgreSQL server: empty, or a copy of `template` (the run's migrated one); its URL,
 * and how to drop it.
 */
export async function createPostgresDatabase(
  options: { template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is required for the PostgreSQL pass");
  const name = `storyverse_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const copy = options.template ? ` template "${options.template}"` : "";
  await admin.query(`create database "${name}"${copy}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/**
 * A migrated database. With `dir` on the PGlite engine it lives in that folder (so it can be reopened);
 * otherwise in memory, started from the run's migrated template.
 */
export async function createTestDatabase(options: { dir?: string } = {}): Promise<TestDatabase> {
  if (testEngine === "postgres") {
    const { url, drop } = await createPostgresDatabase({ template: inject("postgresTemplate") || undefined });
    const database = await openDatabase({ url });
    await runMigrations(database);
    return {
      database,
      target: { url },
      cleanup: async () => {
        await database.close();
        await drop();
      },
    };
  }
  if (options.dir) {
    const target = { pgliteDir: options.dir };
    const database = await openDatabase(target);
    await runMigrations(database);
    return { database, target, cleanup: () => database.close() };
  }
  const template = new Blob([await readFile(inject("pgliteTemplate"))]);
  const database = await openDatabase({ pgliteDir: "memory://", loadDataDir: template });
  await runMigrations(database);
  return { database, target: { pgliteDir: "memory://" }, cleanup: () => database.close() };
}

/**
 * Runs a fault test's DDL (a trigger, a constraint), again if PostgreSQL aborts it as a deadlock's victim (at most
 * 5 tries): DDL locks its table whole while the app's own job workers may be locking it too (CI met this).
 */
export async function ddlRetryingDeadlocks(database: Database, sql: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const failed = await database.executeSql(sql).then(
      () => null,
      (error: { code?: string }) => error,
    );
    if (!failed) return;
    if (failed.code !== "40P01" || attempt === 5) throw failed;
  }
}
