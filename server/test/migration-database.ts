// A database of the run's engine migrated up to (not including) one migration, for the tests that prove a
// migration over rows written before it: PGlite in memory, or a new empty database on the PostgreSQL server
// of TEST_DATABASE_URL. `cleanup` (the file's afterAll) closes and drops what was opened.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Database, openDatabase } from "../src/db/client";
import { createPostgresDatabase, testEngine } from "./database";

const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));

export function migrationDatabases(): {
  /** A new database with every migration before `tag` applied (the tag must be a migration's, not the first). */
  before(tag: string): Promise<Database>;
  /** Applies every migration there is (the one under test and any after it). */
  migrateAll(database: Database): Promise<void>;
  cleanup(): Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];

  async function emptyDatabase(): Promise<Database> {
    if (testEngine === "postgres") {
      const { url, drop } = await createPostgresDatabase();
      const database = await openDatabase({ url, readCache: false });
      cleanups.push(drop, () => database.close());
      return database;
    }
    const database = await openDatabase({ pgliteDir: "memory://" });
    cleanups.push(() => database.close());
    return database;
  }

  /** The migrations folder with only the migrations before `tag`. */
  async function migrationsBefore(tag: string): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-migrations-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await cp(migrationsFolder, dir, { recursive: true });
    const journalFile = path.join(dir, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { tag: string }[] };
    const index = journal.entries.findIndex((entry) => entry.tag === tag);
    if (index < 1) throw new Error(`no migration "${tag}" after the first in ${journalFile}`);
    journal.entries = journal.entries.slice(0, index);
    await writeFile(journalFile, JSON.stringify(journal));
    return dir;
  }

  return {
    async before(tag) {
      const database = await emptyDatabase();
      await database.migrate(await migrationsBefore(tag));
      return database;
    },
    migrateAll: (database) => database.migrate(migrationsFolder),
    async cleanup() {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups.length = 0;
    },
  };
}
