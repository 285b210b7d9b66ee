// Upgrades (decision 0126): real server processes, started as production starts them (node dist/main.js), on a
// database left at an older schema with a player's data in it. Several processes starting at once take turns
// on the migrations (PostgreSQL's advisory lock); each start logs what it applied in one JSON line; a migration
// the database refuses stops the start with the database's own error, and applies nothing.
import { once } from "node:events";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashPassword } from "../src/accounts/secrets";
import { type Database, openDatabase } from "../src/db/client";
import { createPostgresDatabase, testEngine } from "./database";
import { freePort, type Started, spawnServer, startServer } from "./processes";

const production = { production: true };
const migrationsFolder = path.resolve(import.meta.dirname, "../drizzle");
/** The oldest schema we support upgrading from: 0020 (voice), the schema of the release before recall. */
const OLDEST_SUPPORTED = "0020_voice";

type Journal = { entries: { tag: string }[] };
const journal = async () =>
  JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as Journal;

/** The migrations after `tag`, by name, as a start should report them. */
async function migrationsAfter(tag: string): Promise<string[]> {
  const names = (await journal()).entries.map((entry) => entry.tag);
  return names.slice(names.indexOf(tag) + 1);
}

/** Applies the migrations up to and including `tag` (a copy of the folder cut there), as that release did. */
async function migrateUpTo(database: Database, tag: string): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "storyverse-old-migrations-"));
  try {
    const entries = (await journal()).entries;
    const kept = entries.slice(0, entries.findIndex((entry) => entry.tag === tag) + 1);
    await mkdir(path.join(folder, "meta"));
    await writeFile(path.join(folder, "meta/_journal.json"), JSON.stringify({ entries: kept }));
    for (const entry of kept) {
      await cp(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    }
    await database.migrate(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const player = { email: "ada@example.com", username: "ada", password: "an old enough password" };

/** A player of the old release: a verified account with credits and a story, written as 0020's tables stood. */
async function addOldPlayer(database: Database): Promise<void> {
  const user = await database.executeSql(
    "insert into users (email, username, password_hash, email_verified_at) values ($1, $2, $3, now()) returning id",
    [player.email, player.username, await hashPassword(player.password)],
  );
  const userId = user.rows[0]?.id;
  await database.executeSql("insert into credit_accounts (user_id, balance_tenths) values ($1, 420)", [
    userId,
  ]);
  await database.executeSql(
    "insert into stories (user_id, title, context, created_at, updated_at, read_aloud) values ($1, $2, $3, now(), now(), true)",
    [userId, "The Lighthouse Keeper", "A keeper, a storm, a ship that should not be there."],
  );
}

/** The JSON lines a process printed whose `msg` matches. */
const linesOf = (output: string, msg: RegExp) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; [field: string]: unknown })
    .filter((line) => typeof line.msg === "string" && msg.test(line.msg));

/** A database at `tag` with the old player in it; `env` runs a server on it. */
async function oldInstall(tag: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-upgrade-"));
  const created = testEngine === "postgres" ? await createPostgresDatabase() : undefined;
  const target = created ? { url: created.url } : { pgliteDir: path.join(dataDir, "pglite") };
  const database = await openDatabase(target);
  try {
    await migrateUpTo(database, tag);
    await addOldPlayer(database);
  } finally {
    await database.close();
  }
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...(created ? { DATABASE_URL: created.url } : {}),
  };
  return {
    env,
    target,
    remove: async () => {
      await created?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The old player signs in and finds their story and credits. */
async function expectPlayerIntact(base: string): Promise<void> {
  const login = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: player.email, password: player.password }),
  });
  expect(login.status).toBe(200);
  const { access_token: token, credits_remaining: credits } = (await login.json()) as {
    access_token: string;
    credits_remaining: number;
  };
  expect(credits).toBe(42);
  const stories = await fetch(`${base}/api/stories`, { headers: { authorization: `Bearer ${token}` } });
  expect(stories.status).toBe(200);
  const { stories: list } = (await stories.json()) as { stories: { title: string }[] };
  expect(list.map((story) => story.title)).toEqual(["The Lighthouse Keeper"]);
}

const stopAll = async (servers: Started[]) => {
  for (const server of servers) {
    if (server.child.exitCode === null) server.child.kill("SIGTERM");
  }
  await Promise.all(
    servers.map((server) => (server.child.exitCode === null ? once(server.child, "exit") : undefined)),
  );
};

describe("a start on an older database", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("logs the migrations it applied by name in one JSON line, and the next start logs none pending", async () => {
    const install = await oldInstall(OLDEST_SUPPORTED);
    cleanups.push(install.remove);
    const expected = await migrationsAfter(OLDEST_SUPPORTED);

    const first = await startServer(install.env, production);
    cleanups.push(() => stopAll([first]));
    const applied = linesOf(first.output(), /migration/);
    expect(applied, first.output()).toHaveLength(1);
    expect(applied[0]).toMatchObject({
      level: "info",
      msg: `applied ${expected.length} migrations: ${expected.join(", ")}`,
      migrations_applied: expected,
      schema: expected.at(-1),
    });
    await expectPlayerIntact(`http://127.0.0.1:${first.port}`);
    await stopAll([first]);

    const second = await startServer(install.env, production);
    cleanups.push(() => stopAll([second]));
    expect(linesOf(second.output(), /migration/), second.output()).toEqual([
      expect.objectContaining({
        msg: "no pending migrations",
        migrations_applied: [],
        schema: expected.at(-1),
      }),
    ]);
  }, 240_000);

  it("stops on a migration the database refuses, printing the migration, the database's error and the statement, and applies none", async () => {
    const install = await oldInstall(OLDEST_SUPPORTED);
    cleanups.push(install.remove);
    // A table the next release's recall migration (0022) creates, already made by hand: its CREATE TABLE fails.
    const database = await openDatabase(install.target);
    try {
      await database.executeSql("create table recall_marks (id integer)");
    } finally {
      await database.close();
    }
    const port = await freePort();
    const { child, output } = spawnServer(
      { ...install.env, PORT: String(port), HOST: "127.0.0.1" },
      production,
    );
    const [code] = await once(child, "exit");
    expect(code, output()).toBe(1);
    const printed = output();
    expect(printed).toContain(
      'Migration 0022_recall failed: relation "recall_marks" already exists (database error 42P07).',
    );
    expect(printed).toContain('The statement: CREATE TABLE "recall_marks"');
    expect(printed).toContain(`the database is still at ${OLDEST_SUPPORTED}`);

    // Nothing of the run was applied: 0021's column is not there, and the record still ends at 0020.
    const after = await openDatabase(install.target);
    try {
      const applied = await after.executeSql(
        "select count(*)::int as count from drizzle.__drizzle_migrations",
      );
      expect(applied.rows[0]?.count).toBe(
        (await journal()).entries.findIndex((e) => e.tag === OLDEST_SUPPORTED) + 1,
      );
      const captions = await after.executeSql(
        "select count(*)::int as count from information_schema.columns where table_name = 'story_films' and column_name like '%caption%'",
      );
      expect(captions.rows[0]?.count).toBe(0);
    } finally {
      await after.close();
    }
  }, 240_000);

  it("a downgrade: the previous release on a database a newer one migrated applies nothing, warns, and serves", async () => {
    const install = await oldInstall(OLDEST_SUPPORTED);
    cleanups.push(install.remove);
    // Everything this version knows, then one migration of a newer release recorded after it.
    const database = await openDatabase(install.target);
    try {
      await database.migrate(migrationsFolder);
      await database.executeSql(
        "insert into drizzle.__drizzle_migrations (hash, created_at) select 'newer', max(created_at) + 1000 from drizzle.__drizzle_migrations",
      );
    } finally {
      await database.close();
    }
    const server = await startServer(install.env, production);
    cleanups.push(() => stopAll([server]));
    expect(linesOf(server.output(), /migration/), server.output()).toEqual([
      expect.objectContaining({
        level: "warn",
        migrations_applied: [],
        migrations_newer_than_this_version: 1,
      }),
    ]);
    expect((await fetch(`http://127.0.0.1:${server.port}/api/ready`)).status).toBe(200);
    await expectPlayerIntact(`http://127.0.0.1:${server.port}`);
  }, 240_000);

  it.skipIf(testEngine !== "postgres")(
    "PostgreSQL: three processes started at once on the oldest supported schema all come up ready, one migrating while the others wait, and the data is intact",
    async () => {
      const install = await oldInstall(OLDEST_SUPPORTED);
      cleanups.push(install.remove);
      const expected = await migrationsAfter(OLDEST_SUPPORTED);

      const servers = await Promise.all([1, 2, 3].map(() => startServer(install.env, production)));
      cleanups.push(() => stopAll(servers));
      for (const server of servers) {
        const ready = await fetch(`http://127.0.0.1:${server.port}/api/ready`);
        expect(ready.status, server.output()).toBe(200);
      }
      // Exactly one applied the migrations; the two others waited for it and found none pending.
      const lines = servers.flatMap((server) => linesOf(server.output(), /migration/));
      expect(lines, servers.map((server) => server.output()).join("\n")).toHaveLength(3);
      expect(lines.filter((line) => line.msg === "no pending migrations")).toHaveLength(2);
      expect(lines.filter((line) => line.msg?.startsWith("applied "))).toEqual([
        expect.objectContaining({ migrations_applied: expected }),
      ]);
      for (const server of servers) await expectPlayerIntact(`http://127.0.0.1:${server.port}`);
    },
    300_000,
  );
});
