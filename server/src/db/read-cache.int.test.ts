// The embedded database's read cache never answers with something a write has changed: updates, cascading
// deletes, raw SQL (pg-boss's path), transactions committed, rolled back or racing a read. It is PGlite's
// alone (PostgreSQL is shared between processes), so this file opens PGlite whatever the test engine.
import { readFile } from "node:fs/promises";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { insertNarration } from "../../test/factories";
import { findUserById } from "../accounts/repo";
import { findMessage } from "../chat/repo";
import { findAccount } from "../credits/repo";
import { type Database, openDatabase } from "./client";
import { runMigrations } from "./migrate";
import { classify, copyAnswer, createReadCache } from "./read-cache";
import { creditAccounts, users } from "./schema";

let database: Database;

beforeAll(async () => {
  const template = new Blob([await readFile(inject("pgliteTemplate"))]);
  database = await openDatabase({ pgliteDir: "memory://", loadDataDir: template });
  await runMigrations(database);
});
afterAll(() => database.close());

let counter = 0;
async function newUser(balanceTenths = 150) {
  counter += 1;
  const [user] = await database.db
    .insert(users)
    .values({ email: `cache${counter}@example.com`, username: `cache${counter}`, passwordHash: "x" })
    .returning();
  await database.db.insert(creditAccounts).values({ userId: user!.id, balanceTenths });
  return user!;
}

const hits = () => database.readCache!.stats.hits;

describe("the PGlite read cache", () => {
  it("answers a repeated hot read from memory, and an update of its table at once", async () => {
    const user = await newUser(150);
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(150);
    const before = hits();
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(150);
    expect(hits()).toBe(before + 1);

    await database.db
      .update(creditAccounts)
      .set({ balanceTenths: 90 })
      .where(eq(creditAccounts.userId, user.id));
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(90);
  });

  it("keeps one user's answer apart from another's", async () => {
    const one = await newUser(10);
    const two = await newUser(20);
    expect((await findAccount(database.db, one.id))?.balanceTenths).toBe(10);
    expect((await findAccount(database.db, two.id))?.balanceTenths).toBe(20);
    expect((await findAccount(database.db, one.id))?.balanceTenths).toBe(10);
  });

  it("forgets rows a cascading delete removed from another table", async () => {
    const user = await newUser();
    const message = await insertNarration(database.db, user.id, "The lantern flickers.");
    expect((await findMessage(database.db, user.id, undefined, message.id))?.content).toBe(
      "The lantern flickers.",
    );
    expect((await findMessage(database.db, user.id, undefined, message.id))?.content).toBe(
      "The lantern flickers.",
    );

    // Deleting the user removes the message by ON DELETE CASCADE, a table the statement does not name.
    await database.db.delete(users).where(eq(users.id, user.id));
    expect(await findMessage(database.db, user.id, undefined, message.id)).toBeUndefined();
    expect(await findAccount(database.db, user.id)).toBeUndefined();
  });

  it("sees writes made by raw SQL, as pg-boss makes them", async () => {
    const user = await newUser(30);
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(30);
    await database.executeSql("update credit_accounts set balance_tenths = $1 where user_id = $2", [
      40,
      user.id,
    ]);
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(40);
    await database.executeSql(`update credit_accounts set balance_tenths = 50 where user_id = '${user.id}'`);
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(50);
  });

  it("reads a transaction's own writes inside it, the committed value after it, and nothing of a rollback", async () => {
    const user = await newUser(100);
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(100);
    await database.db.transaction(async (tx) => {
      await tx.update(creditAccounts).set({ balanceTenths: 70 }).where(eq(creditAccounts.userId, user.id));
      expect((await findAccount(tx, user.id))?.balanceTenths).toBe(70);
    });
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(70);

    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(creditAccounts).set({ balanceTenths: 1 }).where(eq(creditAccounts.userId, user.id));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(70);
  });

  it("never serves a read that raced a committing transaction once the commit is done", async () => {
    const user = await newUser(500);
    expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(500);
    for (let round = 0; round < 20; round += 1) {
      const value = 400 - round;
      // The read is issued while the transaction is open; it waits for PGlite's lock and may see either value.
      const commit = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx
          .update(creditAccounts)
          .set({ balanceTenths: value })
          .where(eq(creditAccounts.userId, user.id));
      });
      const racing = findAccount(database.db, user.id);
      await Promise.all([commit, racing]);
      expect((await findAccount(database.db, user.id))?.balanceTenths).toBe(value);
    }
  });

  it("hands out a copy: changing an answer does not change the next one", async () => {
    const user = await newUser();
    const first = await findUserById(database.db, user.id);
    first!.username = "changed by a caller";
    first!.createdAt.setFullYear(1999);
    const second = await findUserById(database.db, user.id);
    expect(second?.username).toBe(user.username);
    expect(second?.createdAt.getFullYear()).not.toBe(1999);
  });
});

describe("which statements read and which write", () => {
  it("tells reads, writes and their tables apart", () => {
    expect(classify('select "id" from "chat_messages" left join "stories" on true')).toEqual({
      kind: "read",
      tables: ["chat_messages", "stories"],
    });
    expect(classify('update "credit_accounts" set "balance_tenths" = $1')).toEqual({
      kind: "write",
      tables: ["credit_accounts"],
    });
    expect(classify('insert into "ledger" ("a") select 1 from "users"')).toEqual({
      kind: "write",
      tables: ["ledger"],
    });
    expect(classify('delete from "users" where "id" = $1')).toEqual({ kind: "write", tables: "all" });
    expect(classify("with next as (select id from pgboss.job) delete from pgboss.job")).toEqual({
      kind: "write",
      tables: "all",
    });
    expect(classify("create table x (id int)")).toEqual({ kind: "write", tables: "all" });
    expect(classify("begin")).toEqual({ kind: "no-data" });
    expect(classify("vacuum")).toEqual({ kind: "write", tables: "all" });
  });
});

describe("the cache's limits", () => {
  it("asks again for an answer older than its age limit", async () => {
    const cache = createReadCache({ maxAgeMs: 40 });
    let asked = 0;
    const read = () =>
      cache.read("key", ["users"], async () => {
        asked += 1;
        return { rows: [[asked]] };
      });
    expect(await read()).toEqual({ rows: [[1]] });
    expect(await read()).toEqual({ rows: [[1]] });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await read()).toEqual({ rows: [[2]] });
  });

  it("keeps nothing while off, and nothing from before when on again", async () => {
    const cache = createReadCache({ enabled: false });
    let asked = 0;
    const read = () => cache.read("key", ["users"], async () => (asked += 1));
    await read();
    await read();
    expect(asked).toBe(2);
    cache.setEnabled(true);
    await read();
    await read();
    expect(asked).toBe(3);
    cache.setEnabled(false);
    cache.setEnabled(true);
    await read();
    expect(asked).toBe(4);
  });

  it("does not keep an answer whose read was under way when the cache went off", async () => {
    const cache = createReadCache();
    let asked = 0;
    let release = () => {};
    const slow = cache.read("key", ["users"], async () => {
      asked += 1;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return "old";
    });
    cache.setEnabled(false);
    release();
    expect(await slow).toBe("old");
    cache.setEnabled(true);
    const fresh = await cache.read("key", ["users"], async () => {
      asked += 1;
      return "new";
    });
    expect(fresh).toBe("new");
    expect(asked).toBe(2);
  });

  it("sends requests that miss together to the database once, but never joins a read older than a write", async () => {
    const cache = createReadCache();
    let asked = 0;
    let value = "first";
    const gates: (() => void)[] = [];
    const read = () =>
      cache.read("key", ["users"], async () => {
        asked += 1;
        const seen = value;
        await new Promise<void>((resolve) => gates.push(resolve));
        return { rows: [[seen]] };
      });
    const together = [read(), read(), read()];
    await Promise.resolve();
    expect(asked).toBe(1);
    // A write lands while that query is under way: a read after it must ask again.
    value = "second";
    cache.invalidate(["users"]);
    const after = read();
    await Promise.resolve();
    expect(asked).toBe(2);
    for (const open of gates) open();
    const answers = await Promise.all(together);
    expect(answers.map((answer) => answer.rows[0]![0])).toEqual(["first", "first", "first"]);
    expect((await after).rows[0]![0]).toBe("second");
    // Each caller has its own copy.
    expect(answers[0]).not.toBe(answers[1]);
    expect(cache.stats.shared).toBe(2);
  });

  it("copies answers deeply: rows, nested JSON and dates", () => {
    const answer = { rows: [["a", { tags: ["x"] }, new Date(0), null, 3]] };
    const copy = copyAnswer(answer);
    expect(copy).toEqual(answer);
    (copy.rows[0]![1] as { tags: string[] }).tags.push("y");
    (copy.rows[0]![2] as Date).setFullYear(1999);
    expect(answer.rows[0]![1]).toEqual({ tags: ["x"] });
    expect((answer.rows[0]![2] as Date).getTime()).toBe(0);
  });
});
