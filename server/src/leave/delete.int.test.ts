// Deleting an account (decision 0143): confirmed by the current password (a wrong one deletes nothing); after
// it no table holds a row of the account but the ledger's anonymised money facts (every table of the schema
// is read, so a table added later is checked too), no stored file of it is left, its sessions are refused
// everywhere and its live event stream ends, and a share link to its story stops working.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { fillAccount } from "../../test/full-account";
import { openEventStream } from "../../test/sse";
import { adjustCredits } from "../admin/service";
import { closedAccountLedger, creditTransactions, paymentSessions } from "../db/schema";
import { RATE_LIMIT_TABLE } from "../platform/rate-limit";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const remove = (user: TestUser, password: string) =>
  t.app.inject({ method: "DELETE", url: "/api/account", headers: bearer(user.token), payload: { password } });

/** Every table of the public schema, read from the database itself. */
async function publicTables(): Promise<string[]> {
  const result = await t.ctx.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  return (result.rows as { table_name: string }[]).map((row) => row.table_name);
}

/**
 * The tables with a row that names the user anywhere (any column, as text: ids, arrays, JSON, keys holding
 * the id, the email, the username). The rate-limit counters are left out: keyed by address or account, they
 * last minutes and hold no data of the player.
 */
async function tablesNaming(user: TestUser): Promise<string[]> {
  const naming: string[] = [];
  for (const table of await publicTables()) {
    if (table === RATE_LIMIT_TABLE) continue;
    const result = await t.ctx.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)} as t
          where t::text ilike ${`%${user.userId}%`} or t::text ilike ${`%${user.email}%`}
             or t::text ilike ${`%${user.username}%`}`,
    );
    if (((result.rows[0] as { n: number }).n ?? 0) > 0) naming.push(table);
  }
  return naming;
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

const mediaDir = () => path.join(t.config.dataDir, "media");

describe("deleting an account", () => {
  it("refuses a wrong password with a detail and deletes nothing", async () => {
    const user = await createUser(t);
    await fillAccount(t, user);
    const before = await tablesNaming(user);
    expect(before).toEqual(
      expect.arrayContaining(["users", "stories", "chat_messages", "media_items", "share_links", "personas"]),
    );
    const files = await filesUnder(path.join(mediaDir(), "u", user.userId));
    const res = await remove(user, "not-the-password");
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe("That password is not right. Nothing was deleted.");
    const missing = await remove(user, "");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/password/);
    expect(await tablesNaming(user)).toEqual(before);
    expect(await filesUnder(path.join(mediaDir(), "u", user.userId))).toEqual(files);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/profile", headers: bearer(user.token) })).statusCode,
    ).toBe(200);
  }, 180_000);

  it("leaves no row of the account but its anonymised ledger, no file, no session, no share link", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const filled = await fillAccount(t, user);
    await fillAccount(t, other);
    // A purchase, so the kept ledger shows its payment.
    const now = t.ctx.clock.now();
    await t.ctx.db.insert(paymentSessions).values({
      id: `cs_test_${user.userId.slice(0, 8)}`,
      userId: user.userId,
      provider: "stripe",
      packId: "starter",
      credits: 100,
      amountCents: 499,
      currency: "usd",
      status: "paid",
      createdAt: now,
      completedAt: now,
    });
    await t.ctx.db.insert(creditTransactions).values({
      userId: user.userId,
      transactionType: "purchase",
      amountTenths: 1000,
      balanceAfterTenths: 1100,
      reference: `cs_test_${user.userId.slice(0, 8)}`,
      description: "100 credits",
      createdAt: now,
    });
    // An administrator's grant, in the audit log under the account's id and address: the log forgets them.
    await adjustCredits(t.ctx, { id: other.userId, label: other.email }, user.userId, {
      amount: 2,
      reason: "A thank-you",
    });
    expect(await tablesNaming(user)).toContain("admin_audit");
    // An archive made before leaving: its file goes too.
    const archive = await t.app.inject({
      method: "POST",
      url: "/api/account/export",
      headers: bearer(user.token),
    });
    const archiveId = archive.json().export.id as string;
    for (let i = 0; i < 600; i += 1) {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/account/export/${archiveId}`,
        headers: bearer(user.token),
      });
      if (res.json().export.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await filesUnder(path.join(mediaDir(), "account-exports"))).toContain(`${archiveId}.zip`);

    const ledger = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, user.userId));
    const othersFiles = await filesUnder(path.join(mediaDir(), "u", other.userId));
    expect(await filesUnder(path.join(mediaDir(), "u", user.userId))).not.toEqual([]);
    expect((await t.app.inject({ method: "GET", url: `/api/shared/${filled.shareToken}` })).statusCode).toBe(
      200,
    );
    const stream = await openEventStream(base, user.token);
    expect(stream.status).toBe(200);

    const res = await remove(user, user.password);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, ledger_rows_kept: ledger.length });

    // Signed out everywhere: the stream ended, the token is refused, the password no longer signs in.
    await stream.ended;
    expect(
      (await t.app.inject({ method: "GET", url: "/api/profile", headers: bearer(user.token) })).statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: user.email, password: user.password },
    });
    expect(login.statusCode).toBe(401);
    // Another person's link to the story stops working.
    expect((await t.app.inject({ method: "GET", url: `/api/shared/${filled.shareToken}` })).statusCode).toBe(
      404,
    );

    // No table names the account; no file of it is stored.
    expect(await tablesNaming(user)).toEqual([]);
    expect(await filesUnder(path.join(mediaDir(), "u", user.userId))).toEqual([]);
    expect(await filesUnder(path.join(mediaDir(), "account-exports"))).not.toContain(`${archiveId}.zip`);

    // The ledger's money facts stay, under one random id, with the purchase's payment.
    const kept = await t.ctx.db.select().from(closedAccountLedger);
    const mine = kept.filter((row) => ledger.some((entry) => entry.id === row.id));
    expect(mine).toHaveLength(ledger.length);
    expect(new Set(mine.map((row) => row.formerAccount)).size).toBe(1);
    expect(mine[0]!.formerAccount).not.toBe(user.userId);
    for (const entry of ledger) {
      const row = mine.find((k) => k.id === entry.id)!;
      expect(row).toMatchObject({
        transactionType: entry.transactionType,
        amountTenths: entry.amountTenths,
        quantity: entry.quantity,
        balanceAfterTenths: entry.balanceAfterTenths,
        reference: entry.reference,
        createdAt: entry.createdAt,
      });
    }
    expect(mine.find((row) => row.transactionType === "purchase")).toMatchObject({
      paymentProvider: "stripe",
      paymentAmountCents: 499,
      paymentCurrency: "usd",
    });

    // The other account is untouched.
    expect(
      (await t.app.inject({ method: "GET", url: "/api/profile", headers: bearer(other.token) })).statusCode,
    ).toBe(200);
    expect(await filesUnder(path.join(mediaDir(), "u", other.userId))).toEqual(othersFiles);
    expect((await tablesNaming(other)).length).toBeGreaterThan(5);
  }, 240_000);

  it("keeps the ledger once when two deletions race, and answers neither with a 5xx", async () => {
    const user = await createUser(t);
    await fillAccount(t, user);
    const ledger = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, user.userId));
    const answers = await Promise.all([remove(user, user.password), remove(user, user.password)]);
    expect(answers.map((res) => res.statusCode).every((status) => status < 500)).toBe(true);
    expect(answers.some((res) => res.statusCode === 200)).toBe(true);
    const kept = await t.ctx.db.select().from(closedAccountLedger);
    const mine = kept.filter((row) => ledger.some((entry) => entry.id === row.id));
    expect(mine).toHaveLength(ledger.length);
    expect(new Set(mine.map((row) => row.formerAccount)).size).toBe(1);
    expect(await tablesNaming(user)).toEqual([]);
  }, 180_000);
});
