// The modules' read caches on PostgreSQL (decision 0117), where several processes share the database.
// "Process A" and "process B" are two opens of one test database, each with its own pool and its own
// listening connection, as two server processes have. A write anywhere reaches B's kept answers through the
// tables' change signals well before the 1 s age limit; a process sees its own writes at once, without any
// signal, even those made inside a transaction; a lost listener turns the caches off.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testEngine } from "../../test/database";
import { insertNarration } from "../../test/factories";
import { findUserById, setEmailVerified } from "../accounts/repo";
import { allMessages, findMessage, insertMessage, updateMediaIfPending } from "../conversation/repo";
import { findAccountForDisplay as findAccount } from "../credits/repo";
import { charge, refund } from "../credits/service";
import { insertMediaItem, listMediaItems } from "../media/repo";
import { attachReadCaches, createReadCaches } from "../platform/read-cache";
import { insertStory, listStories, updateStory } from "../stories/repo";
import { type Database, openDatabase } from "./client";
import { runMigrations } from "./migrate";
import { READ_CACHE_MAX_AGE_MS } from "./read-cache-postgres";
import * as schema from "./schema";
import { creditAccounts, users } from "./schema";

let a: TestDatabase;
let b: Database;
let url: string;

/** Well under the age limit: seeing a change this soon proves the signal carried it, not the expiry. */
const SIGNAL_WITHIN_MS = 400;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, withinMs: number) {
  const started = performance.now();
  for (;;) {
    const value = await read();
    const elapsed = performance.now() - started;
    if (done(value)) return { value, elapsed };
    if (elapsed > withinMs) return { value, elapsed };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function listening(database: Database) {
  const { value } = await until(async () => database.readCaches?.enabled, Boolean, 5_000);
  expect(value).toBe(true);
}

let counter = 0;
async function newUser(balanceTenths: number) {
  counter += 1;
  const [user] = await a.database.db
    .insert(users)
    .values({ email: `shared${counter}@example.com`, username: `shared${counter}`, passwordHash: "x" })
    .returning();
  await a.database.db.insert(creditAccounts).values({ userId: user!.id, balanceTenths });
  return user!;
}

const totalHits = (database: Database) =>
  ["credits.account", "chat.conversations", "stories.rows", "media.newest", "accounts.user"]
    .map((name) => database.readCaches!.stats(name)?.hits ?? 0)
    .reduce((sum, hits) => sum + hits, 0);

/**
 * Reads until an answer comes from B's memory. (The signals of the writes that made the row may still be on
 * their way, and each one rightly drops what B kept.)
 */
async function cachedIn<T>(database: Database, read: () => Promise<T>): Promise<T> {
  const { value } = await until(
    async () => {
      const hits = totalHits(database);
      const answer = await read();
      return { answer, hit: totalHits(database) === hits + 1 };
    },
    (attempt) => attempt.hit,
    1_000,
  );
  expect(value.hit).toBe(true);
  return value.answer;
}

/** B's balance for `userId` becomes `expected` well before the age limit would have refreshed it. */
async function expectBalanceInB(userId: string, expected: number) {
  const seen = await until(
    async () => (await findAccount(b.db, userId))?.balanceTenths,
    (balance) => balance === expected,
    SIGNAL_WITHIN_MS,
  );
  expect(seen.value).toBe(expected);
}

async function cachedInB(userId: string, expected: number) {
  expect((await cachedIn(b, () => findAccount(b.db, userId)))?.balanceTenths).toBe(expected);
}

describe.skipIf(testEngine !== "postgres")("the PostgreSQL read cache across processes", () => {
  beforeAll(async () => {
    a = await createTestDatabase();
    url = (a.target as { url: string }).url;
    b = await openDatabase({ url });
    await runMigrations(b);
    await Promise.all([listening(a.database), listening(b)]);
  });
  afterAll(async () => {
    await b?.close();
    await a?.cleanup();
  });

  it("shows another process's update within the signal's delivery, not the age limit", async () => {
    expect(READ_CACHE_MAX_AGE_MS).toBeGreaterThan(SIGNAL_WITHIN_MS);
    const user = await newUser(150);
    await cachedInB(user.id, 150);

    await a.database.db
      .update(creditAccounts)
      .set({ balanceTenths: 90 })
      .where(eq(creditAccounts.userId, user.id));
    await expectBalanceInB(user.id, 90);
  });

  it("shows a process its own writes at once, without waiting for any signal", async () => {
    // Caches that hear no signals at all: only the process's own invalidations can drop what they keep.
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const caches = createReadCaches({ tracksConnections: true });
    pool.on("acquire", (connection) => caches.acquired(connection));
    pool.on("release", (_error, connection) => caches.released(connection));
    const db = drizzle({ client: pool, schema });
    attachReadCaches(db, caches);
    try {
      const user = await newUser(150);
      const balance = async () => (await findAccount(db, user.id))?.balanceTenths;
      expect(await balance()).toBe(150);
      expect(await balance()).toBe(150);
      expect(caches.stats("credits.account")?.hits).toBe(1);

      // A charge is a transaction: reads racing it may see the old balance until it commits, never after.
      let racing = true;
      const racers = Array.from({ length: 3 }, async () => {
        while (racing) {
          await balance();
          // A kept answer comes back without I/O: let the charge's own I/O run between reads.
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      await charge(db, user.id, "chat", 1, new Date(), "a turn");
      expect(await balance()).toBe(145);
      expect(await balance()).toBe(145);
      await refund(db, user.id, 5, "refund:own-writes", new Date(), "refund");
      expect(await balance()).toBe(150);
      racing = false;
      await Promise.all(racers);
      expect(await balance()).toBe(150);

      await db.transaction(async (tx) => {
        await tx.update(creditAccounts).set({ balanceTenths: 75 }).where(eq(creditAccounts.userId, user.id));
        // A read inside the transaction sees its write and is never kept.
        expect((await findAccount(tx, user.id))?.balanceTenths).toBe(75);
      });
    } finally {
      await pool.end();
    }
  });

  it("shows another process's write through every module's path: money, media, messages, stories, gallery, user", async () => {
    const user = await newUser(150);
    const story = await insertStory(a.database.db, {
      userId: user.id,
      title: "T",
      context: "",
      at: new Date(),
    });
    const message = await insertMessage(a.database.db, {
      userId: user.id,
      storyId: story.id,
      role: "assistant",
      content: "The lantern flickers.",
      mediaStatus: "pending",
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const paths: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        "charge",
        () => findAccount(b.db, user.id),
        () => charge(a.database.db, user.id, "chat", 1, new Date(), "turn"),
      ],
      [
        "refund",
        () => findAccount(b.db, user.id),
        () => refund(a.database.db, user.id, 5, "refund:p", new Date(), "r"),
      ],
      [
        "media finished",
        () => findMessage(b.db, user.id, story.id, message.id),
        () =>
          updateMediaIfPending(a.database.db, message.id, {
            mediaStatus: "completed",
            imageKey: "k.png",
            updatedAt: new Date(),
          }),
      ],
      [
        "new message",
        () => allMessages(b.db, user.id, story.id),
        () =>
          insertMessage(a.database.db, {
            userId: user.id,
            storyId: story.id,
            role: "user",
            content: "Go on.",
            createdAt: new Date(),
            updatedAt: new Date(),
          }),
      ],
      [
        "story changed",
        () => listStories(b.db, user.id),
        () => updateStory(a.database.db, user.id, story.id, { title: "Renamed", updatedAt: new Date() }),
      ],
      [
        "gallery item",
        () => listMediaItems(b.db, user.id, { limit: 31 }),
        () =>
          insertMediaItem(a.database.db, {
            userId: user.id,
            kind: "image",
            storageKey: `k-${crypto.randomUUID()}`,
            mimeType: "image/png",
            bytes: 1,
            source: "story",
            storyId: story.id,
            createdAt: new Date(),
          }),
      ],
      ["user", () => findUserById(b.db, user.id), () => setEmailVerified(a.database.db, user.id, new Date())],
    ];
    for (const [name, read, write] of paths) {
      const before = JSON.stringify(await cachedIn(b, read));
      await write();
      const seen = await until(read, (value) => JSON.stringify(value) !== before, SIGNAL_WITHIN_MS);
      expect(JSON.stringify(seen.value), name).not.toBe(before);
    }
  });

  it("shows a write made outside the app (an operator's psql) through the table's trigger", async () => {
    const user = await newUser(150);
    await cachedInB(user.id, 150);
    const outside = new pg.Client({ connectionString: url });
    await outside.connect();
    try {
      await outside.query("update credit_accounts set balance_tenths = 70 where user_id = $1", [user.id]);
    } finally {
      await outside.end();
    }
    await expectBalanceInB(user.id, 70);
  });

  it("forgets rows another process's delete removed by ON DELETE CASCADE", async () => {
    const user = await newUser(150);
    const message = await insertNarration(a.database.db, user.id, "The lantern flickers.");
    const read = () => findMessage(b.db, user.id, undefined, message.id);
    expect((await cachedIn(b, read))?.content).toBe("The lantern flickers.");

    await a.database.db.delete(users).where(eq(users.id, user.id));
    const seen = await until(read, (row) => row === undefined, SIGNAL_WITHIN_MS);
    expect(seen.value).toBeUndefined();
  });

  it("starts from nothing after its listening connection was lost, so a signal sent meanwhile is not missed", async () => {
    const user = await newUser(150);
    await cachedInB(user.id, 150);
    const states: boolean[] = [];
    const unwatch = b.notifier.watchListening!((now) => states.push(now));
    const outside = new pg.Client({ connectionString: url });
    await outside.connect();
    try {
      // One round trip: every listening connection is cut, and the update commits before any can reconnect.
      await outside.query(`
        select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid();
        update credit_accounts set balance_tenths = 60 where user_id = '${user.id}'`);
    } finally {
      await outside.end();
    }
    await expectBalanceInB(user.id, 60);
    await listening(b);
    unwatch();
    expect(states).toContain(false);
    expect(states.at(-1)).toBe(true);

    // Listening again: answers are kept again, and signals arrive again.
    await cachedInB(user.id, 60);
    await a.database.db
      .update(creditAccounts)
      .set({ balanceTenths: 50 })
      .where(eq(creditAccounts.userId, user.id));
    await expectBalanceInB(user.id, 50);
  });

  it("keeps nothing with READ_CACHE off", async () => {
    const uncached = await openDatabase({ url, readCache: false });
    try {
      await runMigrations(uncached);
      expect(uncached.readCaches).toBeUndefined();
      const user = await newUser(150);
      expect((await findAccount(uncached.db, user.id))?.balanceTenths).toBe(150);
      const outside = new pg.Client({ connectionString: url });
      await outside.connect();
      await outside.query("update credit_accounts set balance_tenths = 10 where user_id = $1", [user.id]);
      await outside.end();
      // No wait at all: the very next read asks PostgreSQL.
      expect((await findAccount(uncached.db, user.id))?.balanceTenths).toBe(10);
    } finally {
      await uncached.close();
    }
  });
});

describe.skipIf(testEngine !== "postgres")(
  "the PostgreSQL read cache without the right to add triggers",
  () => {
    it("stays off, and the app still reads and writes", async () => {
      const owner = await createTestDatabase();
      const url = (owner.target as { url: string }).url;
      const role = `storyverse_reader_${Math.random().toString(36).slice(2, 10)}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create role ${role} login`);
        await admin.query(`grant select, insert, update, delete on all tables in schema public to ${role}`);
        await admin.query(`grant usage on schema public to ${role}`);
        await admin.query(`drop trigger if exists storyverse_table_changed on credit_accounts`);
        const asRole = new URL(url);
        asRole.username = role;
        const limited = await openDatabase({ url: asRole.toString() });
        try {
          await limited.armReadCache!();
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(limited.readCaches!.enabled).toBe(false);
          const [user] = await owner.database.db
            .insert(users)
            .values({ email: "limited@example.com", username: "limited", passwordHash: "x" })
            .returning();
          await owner.database.db.insert(creditAccounts).values({ userId: user!.id, balanceTenths: 40 });
          expect((await findAccount(limited.db, user!.id))?.balanceTenths).toBe(40);
          await admin.query("update credit_accounts set balance_tenths = 30 where user_id = $1", [user!.id]);
          expect((await findAccount(limited.db, user!.id))?.balanceTenths).toBe(30);
        } finally {
          await limited.close();
        }
      } finally {
        await admin.query(`drop owned by ${role}`).catch(() => {});
        await admin.end();
        await owner.cleanup();
        const server = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await server.connect();
        await server.query(`drop role if exists ${role}`).catch(() => {});
        await server.end();
      }
    });
  },
);
