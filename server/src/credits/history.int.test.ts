// The credit history: signed amounts with decimals kept, balances after each row, newest first, and pages
// that neither skip nor repeat rows, even rows stamped in the same millisecond.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { charge } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

type Row = {
  id: string;
  transaction_type: string;
  credits_amount: number;
  description: string;
  created_at: string;
  balance_after: number;
};

const history = (user: TestUser, query = "") =>
  t.app.inject({ method: "GET", url: `/api/credit-history${query}`, headers: bearer(user.token) });

describe("GET /api/credit-history", () => {
  it("lists signed amounts and balances in credits, newest first", async () => {
    const user = await createUser(t);
    t.clock.advance(1000);
    await charge(t.ctx.db, user.userId, "chat", 1, t.clock.now(), "Chat: hello");
    t.clock.advance(1000);
    await charge(t.ctx.db, user.userId, "image", 3, t.clock.now(), "Studio batch");
    const res = await history(user);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.has_more).toBe(false);
    expect(
      body.transactions.map((row: Row) => [row.transaction_type, row.credits_amount, row.balance_after]),
    ).toEqual([
      ["usage_image", -4.5, 10],
      ["usage_chat", -0.5, 14.5],
      ["signup_bonus", 15, 15],
    ]);
    expect(body.transactions[0]).toMatchObject({ description: "Studio batch" });
    expect(Number.isNaN(Date.parse(body.transactions[0].created_at))).toBe(false);
  });

  it("pages with limit and before without skipping or repeating, even within one millisecond", async () => {
    const user = await createUser(t);
    t.clock.advance(1000);
    // Seven charges at the same instant, then three more a second apart.
    for (let i = 0; i < 7; i += 1) await charge(t.ctx.db, user.userId, "chat", 1, t.clock.now(), `same ${i}`);
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000);
      await charge(t.ctx.db, user.userId, "chat", 1, t.clock.now(), `later ${i}`);
    }
    const seen: Row[] = [];
    let before = "";
    for (let page = 0; page < 10; page += 1) {
      const res = await history(user, `?limit=3${before ? `&before=${before}` : ""}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      seen.push(...body.transactions);
      if (!body.has_more) break;
      before = body.transactions.at(-1).id;
    }
    expect(seen).toHaveLength(11);
    expect(new Set(seen.map((row) => row.id)).size).toBe(11);
    const times = seen.map((row) => Date.parse(row.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(seen.at(-1)?.transaction_type).toBe("signup_bonus");
  });

  it("rejects bad limits and cursors that are not the caller's", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const [theirs] = (await history(other)).json().transactions;
    expect((await history(user, "?limit=0")).statusCode).toBe(400);
    expect((await history(user, "?limit=101")).statusCode).toBe(400);
    expect((await history(user, "?limit=abc")).statusCode).toBe(400);
    expect((await history(user, "?before=not-a-uuid")).statusCode).toBe(400);
    const foreign = await history(user, `?before=${theirs.id}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toContain("before");
  });
});
