// A user's events reach their streams in the order they happened, each read after the one before was sent:
// a balance read for a charge must never land after the refund that followed it (the tab would show the
// charged balance for good).
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser } from "../../test/factories";
import { createEventHub, type EventBuilders } from "./hub";
import { recordEvent } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

it("sends a user's events in order even when reading the first is slower than the next", async () => {
  const user = await createUser(t);
  let balance = 13.5;
  let firstRead = true;
  let releaseFirst = () => {};
  const builders: EventBuilders = {
    credits: async () => {
      // The charge's balance is read at once, but its answer is slow to come back.
      const read = balance;
      if (firstRead) {
        firstRead = false;
        await new Promise<void>((resolve) => {
          releaseFirst = resolve;
        });
      }
      return { remaining: read, unlimited: false };
    },
    media: async () => null,
    story: async () => null,
    studio: async () => null,
    lore: async () => null,
  };
  const hub = createEventHub(t.ctx, builders);
  const sent: { id: number; remaining: number }[] = [];
  hub.add({
    userId: user.userId,
    sessionTokenHash: "order-test",
    send: (id, _kind, data) => sent.push({ id, remaining: (data as { remaining: number }).remaining }),
    close: () => {},
  });
  try {
    await recordEvent(t.ctx.db, { userId: user.userId, kind: "credits", at: new Date() });
    await expect.poll(() => firstRead).toBe(false);
    // The refund commits while the charge's event is still on its way.
    balance = 14.5;
    await recordEvent(t.ctx.db, { userId: user.userId, kind: "credits", at: new Date() });
    await new Promise((resolve) => setTimeout(resolve, 200));
    releaseFirst();
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[0]!.id).toBeLessThan(sent[1]!.id);
    // The tab's last word is the balance after the refund.
    expect(sent.at(-1)!.remaining).toBe(14.5);
  } finally {
    hub.close();
  }
});
