// The money rule every paid request runs through (payFor), called directly on the real ledger: no app, no
// HTTP. Random sequences of paid work that delivers whole, delivers part, fails before delivering, fails after
// its delivery committed, or costs more than the balance: after each, the balance is what a simple model says,
// never below 0, equal to the ledger's sum, and every piece of work has one charge and at most one refund.
import { randomUUID } from "node:crypto";
import { creditCost } from "@storyverse/contract/credits";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { createUser } from "../../test/factories";
import { assertUnderCaps } from "../admin/caps";
import { createFakeClock } from "../platform/clock";
import { type Delivery, payFor } from "./paid-work";
import { findAccount, ledgerSum } from "./repo";
import { InsufficientCredits, toTenths } from "./service";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.cleanup();
});

type Outcome =
  | { kind: "delivered" }
  | { kind: "part"; undeliveredShare: number }
  | { kind: "failed-before" }
  | { kind: "failed-after-commit"; undeliveredShare: number };

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  fc.constant({ kind: "delivered" as const }),
  fc.record({
    kind: fc.constant("part" as const),
    undeliveredShare: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.constant({ kind: "failed-before" as const }),
  fc.record({
    kind: fc.constant("failed-after-commit" as const),
    undeliveredShare: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
);
const work = fc.record({
  price: fc.constantFrom("chat", "image", "video"),
  quantity: fc.integer({ min: 1, max: 4 }),
  outcome,
});

class DeliveryFailed extends Error {}

it("keeps one outcome per paid request and the ledger equal to the balance, whatever the delivery does", async () => {
  const ctx = {
    db: testDb.database.db,
    clock: createFakeClock(new Date()),
    log: { info: () => {}, warn: () => {}, error: () => {} },
    spendingCaps: assertUnderCaps,
  };
  await fc.assert(
    fc.asyncProperty(fc.array(work, { minLength: 1, maxLength: 8 }), async (sequence) => {
      const user = await createUser({ ctx });
      let expected = (await findAccount(ctx.db, user.userId))!.balanceTenths;
      for (const step of sequence) {
        const cost = toTenths(creditCost(step.price, step.quantity));
        const paidFor = randomUUID();
        const undelivered =
          "undeliveredShare" in step.outcome ? Math.floor(cost * step.outcome.undeliveredShare) : 0;
        const attempt = payFor(
          ctx,
          {
            userId: user.userId,
            kind: step.price,
            quantity: step.quantity,
            description: "work",
            paidFor,
            refundDescription: "refund",
          },
          async (_paid, settle): Promise<Delivery<string>> => {
            if (step.outcome.kind === "failed-before") throw new DeliveryFailed();
            if (step.outcome.kind === "failed-after-commit") {
              await ctx.db.transaction((tx) => settle(tx, undelivered));
              throw new DeliveryFailed();
            }
            return { result: "made", undeliveredTenths: undelivered };
          },
        );
        if (cost > expected) {
          await expect(attempt).rejects.toBeInstanceOf(InsufficientCredits);
        } else if (step.outcome.kind === "failed-before" || step.outcome.kind === "failed-after-commit") {
          await expect(attempt).rejects.toBeInstanceOf(DeliveryFailed);
          expected -= step.outcome.kind === "failed-before" ? 0 : cost - undelivered;
        } else {
          const { refundedTenths } = await attempt;
          expect(refundedTenths).toBe(undelivered);
          expected -= cost - undelivered;
        }
        const balance = (await findAccount(ctx.db, user.userId))!.balanceTenths;
        expect(balance).toBe(expected);
        expect(balance).toBeGreaterThanOrEqual(0);
        expect(await ledgerSum(ctx.db, user.userId)).toBe(balance);
        const rows = await testDb.database.executeSql(
          "select transaction_type, reference, amount_tenths from credit_transactions where user_id = $1 and (reference = $2 or reference = $3)",
          [user.userId, `charge:${paidFor}`, `refund:${paidFor}`],
        );
        const refunds = rows.rows.filter((row) => row.transaction_type === "refund");
        expect(refunds.length).toBeLessThanOrEqual(1);
        const refunded = refunds.reduce((sum, row) => sum + Number(row.amount_tenths), 0);
        expect(refunded).toBeLessThanOrEqual(cost);
        // Nothing is left for the sweep: each outcome was settled on the spot.
        const unsettled = await testDb.database.executeSql(
          "select 1 from unsettled_charges where paid_for = $1",
          [paidFor],
        );
        expect(unsettled.rows).toHaveLength(0);
      }
    }),
    { numRuns: 25 },
  );
});
