// Charges without an outcome: what a process leaves behind when it dies between charging and delivering,
// and the sweep that refunds it. The sweep runs on the real database; the crash is played by taking a
// charge (as payFor does) and never delivering it. The real kill -9 is in test/charge-crash.int.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import type { TextProvider } from "../providers/types";
import { ledgerSum } from "./repo";
import { charge, settleCharge, sweepUnsettledCharges } from "./service";

const AGE_MS = 15 * 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

const tenths = async (user: TestUser) =>
  (
    await t.database.executeSql("select balance_tenths from credit_accounts where user_id = $1", [
      user.userId,
    ])
  ).rows[0]!.balance_tenths as number;
const refundRows = async (user: TestUser) =>
  (
    await t.database.executeSql(
      "select reference, amount_tenths from credit_transactions where user_id = $1 and transaction_type = 'refund'",
      [user.userId],
    )
  ).rows as { reference: string; amount_tenths: number }[];
const unsettledRows = async (user: TestUser) =>
  (await t.database.executeSql("select paid_for from unsettled_charges where user_id = $1", [user.userId]))
    .rows;
const later = (ms: number) => new Date(t.clock.now().getTime() + ms);

async function expectLedgerAddsUp(user: TestUser) {
  expect(await ledgerSum(t.database.db, user.userId)).toBe(await tenths(user));
}

describe("charges a dead process left unsettled", () => {
  it("are refunded once by the sweep, only after they are old enough, however many sweeps run", async () => {
    const user = await createUser(t);
    const start = await tenths(user);
    const paid = await charge(
      t.database.db,
      user.userId,
      "image",
      1,
      t.clock.now(),
      "A turn that never came",
      "turn-1",
    );
    expect(await tenths(user)).toBe(start - paid.chargedTenths);

    // A turn still being written is left alone.
    expect(await sweepUnsettledCharges(t.database.db, later(AGE_MS - 1_000), AGE_MS)).toBe(0);
    expect(await tenths(user)).toBe(start - paid.chargedTenths);

    // Past the age, two processes sweeping at once give it back exactly once.
    const swept = await Promise.all([
      sweepUnsettledCharges(t.database.db, later(AGE_MS + 1_000), AGE_MS),
      sweepUnsettledCharges(t.database.db, later(AGE_MS + 1_000), AGE_MS),
    ]);
    expect(swept[0]! + swept[1]!).toBe(1);
    expect(await sweepUnsettledCharges(t.database.db, later(AGE_MS + 60_000), AGE_MS)).toBe(0);
    expect(await tenths(user)).toBe(start);
    expect(await refundRows(user)).toEqual([
      { reference: "refund:turn-1", amount_tenths: paid.chargedTenths },
    ]);
    expect(await unsettledRows(user)).toEqual([]);
    await expectLedgerAddsUp(user);
  });

  it("give back only the undelivered part of work that was delivered before the process died", async () => {
    const user = await createUser(t);
    const start = await tenths(user);
    const paid = await charge(
      t.database.db,
      user.userId,
      "image",
      4,
      t.clock.now(),
      "A Studio batch",
      "batch-1",
    );
    // Three of four images were delivered; the process died before refunding the fourth.
    await t.database.db.transaction((tx) => settleCharge(tx, paid, "batch-1", paid.chargedTenths / 4));
    await sweepUnsettledCharges(t.database.db, later(AGE_MS + 1_000), AGE_MS);
    expect(await tenths(user)).toBe(start - (paid.chargedTenths * 3) / 4);
    await expectLedgerAddsUp(user);
  });

  it("refund nothing more when the request had refunded before it died", async () => {
    const user = await createUser(t);
    const start = await tenths(user);
    const paid = await charge(t.database.db, user.userId, "chat", 1, t.clock.now(), "A chat", "chat-1");
    await t.database.executeSql(
      `update credit_accounts set balance_tenths = balance_tenths + $2 where user_id = $1`,
      [user.userId, paid.chargedTenths],
    );
    await t.database.executeSql(
      `insert into credit_transactions (user_id, transaction_type, amount_tenths, balance_after_tenths, reference, created_at)
       values ($1, 'refund', $2, $3, 'refund:chat-1', now())`,
      [user.userId, paid.chargedTenths, start],
    );
    expect(await sweepUnsettledCharges(t.database.db, later(AGE_MS + 1_000), AGE_MS)).toBe(0);
    expect(await tenths(user)).toBe(start);
    expect(await unsettledRows(user)).toEqual([]);
    await expectLedgerAddsUp(user);
  });
});

describe("a delivery racing the sweep", () => {
  it("is refused and rolled back when the sweep refunded its charge first: never both", async () => {
    const user = await createUser(t);
    const start = await tenths(user);
    const narrator = t.providers.text;
    let entered!: () => void;
    const writing = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: TextProvider = {
      ...narrator,
      purposes: narrator.purposes,
      async complete(request) {
        entered();
        await released;
        return narrator.complete(request);
      },
    };
    t.providers.text = held;
    try {
      const turn = t.app.inject({
        method: "POST",
        url: "/api/chat",
        headers: bearer(user.token),
        payload: { prompt: "A bell rings under the sea", chat_mode: "image" },
      });
      await writing;
      expect(await sweepUnsettledCharges(t.database.db, later(AGE_MS + 1_000), AGE_MS)).toBe(1);
      release();
      const res = await turn;
      expect(res.statusCode).toBe(503);
      expect(res.json().detail).toMatch(/credits were returned/);
    } finally {
      t.providers.text = narrator;
    }
    const history = await t.app.inject({
      method: "GET",
      url: "/api/chat/history",
      headers: bearer(user.token),
    });
    expect(history.json().messages).toEqual([]);
    expect(await tenths(user)).toBe(start);
    expect(await refundRows(user)).toHaveLength(1);
    await expectLedgerAddsUp(user);
  });
});

describe("work that is delivered", () => {
  it("leaves no unsettled charge behind: turns, a partly refunded Studio batch, the advisor", async () => {
    const user = await createUser(t);
    const send = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: "POST", url, headers: bearer(user.token), payload });
    expect((await send("/api/chat", { prompt: "A quiet harbour", chat_mode: "chat" })).statusCode).toBe(200);
    expect((await send("/api/chat", { prompt: "A red kite", chat_mode: "image" })).statusCode).toBe(200);
    expect((await send("/api/studio/generate-image", { prompt: "A fox", batch_size: 1 })).statusCode).toBe(
      200,
    );
    expect(
      (await send("/api/studio/advisor-chat", { prompt: "How do I light a night scene?" })).statusCode,
    ).toBe(200);
    expect(await unsettledRows(user)).toEqual([]);
    // Nothing is left for a sweep to give back: the delivered work keeps its charge.
    const before = await tenths(user);
    await sweepUnsettledCharges(t.database.db, later(AGE_MS + 1_000), AGE_MS);
    expect(await tenths(user)).toBe(before);
    await expectLedgerAddsUp(user);
  });
});
