// Monthly activity against a scripted month: charges and refunds written to the ledger as paid work writes
// them (`charge:<id>`, `refund:<id>`), stories created through the API. Every count must match the script,
// what a refund gave back must not count, Studio batches are images and not chats, and nothing from last
// month, next month or another user may leak in.
import { randomUUID } from "node:crypto";
import { STUDIO_IMAGE_USAGE } from "@storyverse/contract/billing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { storiesCreatedBetween } from "../stories/service";
import { countCharge, monthlyActivity, utcMonth } from "./activity";
import { setUnlimited } from "./repo";
import { charge, grant, refund, toTenths } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

/**
 * One paid request at the clock's time, as payFor records it: the charge keyed by an id, and, when part of
 * it was not delivered, the refund keyed by the same id.
 */
async function paid(
  userId: string,
  kind: "chat" | "image" | "video" | "advisor",
  options: { quantity?: number; studio?: boolean; refunded?: number } = {},
) {
  const id = randomUUID();
  await charge(
    t.ctx.db,
    userId,
    kind,
    options.quantity ?? 1,
    t.clock.now(),
    `${kind} request`,
    id,
    options.studio ? STUDIO_IMAGE_USAGE : undefined,
  );
  if (options.refunded) {
    await refund(t.ctx.db, userId, toTenths(options.refunded), `refund:${id}`, t.clock.now(), "Refund");
  }
}

const turn = (userId: string, mode: "chat" | "image" | "video") => paid(userId, mode);

async function createStory(user: TestUser, title: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/stories",
    headers: bearer(user.token),
    payload: { title, context: "" },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const activity = async (user: TestUser) =>
  (await t.app.inject({ method: "GET", url: "/api/monthly-activity", headers: bearer(user.token) })).json();

describe("GET /api/monthly-activity", () => {
  it("counts this month's scripted actions and only those", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const now = t.clock.now();
    const { start, label } = utcMonth(now);
    // Enough credits for the script; a grant is not activity.
    await grant(
      t.ctx.db,
      user.userId,
      toTenths(100),
      "admin_grant",
      `test-grant:${user.userId}`,
      now,
      "test",
    );

    // Last month, up to its final millisecond: none of this counts.
    t.clock.set(new Date(start.getTime() - 10 * 24 * 3600 * 1000));
    await turn(user.userId, "image");
    await createStory(user, "Old story");
    t.clock.set(new Date(start.getTime() - 1));
    await turn(user.userId, "video");

    // This month, from its first millisecond.
    t.clock.set(start);
    await turn(user.userId, "chat");
    t.clock.set(now);
    await turn(user.userId, "chat");
    await turn(user.userId, "chat");
    await turn(user.userId, "image");
    await turn(user.userId, "image");
    await turn(user.userId, "video");
    await paid(user.userId, "advisor");
    // A video whose animation failed gives back everything above the text's 0.5: a chat, no video.
    await paid(user.userId, "video", { refunded: 2.5 });
    // An image turn whose picture failed: a chat, no image.
    await paid(user.userId, "image", { refunded: 1 });
    // An image turn whose text failed is refunded whole: nothing was delivered.
    await paid(user.userId, "image", { refunded: 1.5 });
    // A Studio batch of 4 with one image not made: 3 images, and not a chat.
    await paid(user.userId, "image", { quantity: 4, studio: true, refunded: 1.5 });
    await createStory(user, "First");
    await createStory(user, "Second");
    // Someone else's month is not ours.
    await turn(other.userId, "video");
    await createStory(other, "Theirs");

    expect(await activity(user)).toEqual({
      // 3 chat + 2 image + 1 video turns, 1 advisor message, the failed video and the failed image turn
      chat_interactions: 9,
      // 2 image turns + 3 of the Studio batch (a video turn's scene image is part of its video)
      images_generated: 5,
      videos_generated: 1,
      stories_created: 2,
      // 3 x 0.5 + 2 x 1.5 + 3.0 + 0.5 + (3.0 - 2.5) + (1.5 - 1.0) + (1.5 - 1.5) + (6.0 - 1.5)
      total_credits_used: 13.5,
      month: label,
    });
    expect(await activity(other)).toMatchObject({
      chat_interactions: 1,
      images_generated: 0,
      videos_generated: 1,
      stories_created: 1,
      total_credits_used: 3,
    });

    // Next month starts from zero.
    const next = utcMonth(new Date(utcMonth(now).end.getTime() + 1));
    expect(await monthlyActivity(t.ctx.db, user.userId, next.start, storiesCreatedBetween)).toEqual({
      chat_interactions: 0,
      images_generated: 0,
      videos_generated: 0,
      stories_created: 0,
      total_credits_used: 0,
      month: next.label,
    });
  });

  it("counts an unlimited user's turns, which cost them nothing", async () => {
    const user = await createUser(t);
    await setUnlimited(t.ctx.db, user.userId, true, t.clock.now());
    await turn(user.userId, "chat");
    await turn(user.userId, "image");
    await paid(user.userId, "image", { quantity: 3, studio: true });
    expect(await activity(user)).toMatchObject({
      chat_interactions: 2,
      images_generated: 4,
      total_credits_used: 0,
    });
  });

  it("counts a Studio batch through the real route as images, not chats, and pairs its refund", async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/studio/generate-image",
      headers: bearer(user.token),
      payload: { prompt: "a lighthouse at dusk", batch_size: 2, input_images: [] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const advisor = await t.app.inject({
      method: "POST",
      url: "/api/studio/advisor-chat",
      headers: bearer(user.token),
      payload: { prompt: "how do I light a night scene?" },
    });
    expect(advisor.statusCode, advisor.body).toBe(200);
    expect(await activity(user)).toMatchObject({
      chat_interactions: 1,
      images_generated: 2,
      videos_generated: 0,
      total_credits_used: 3.5,
    });
  });

  it("takes what each refund gave back out of one charge", () => {
    const row = { quantity: 1, chargedTenths: 15, refundedTenths: 0 };
    expect(countCharge({ ...row, usage: "image" })).toEqual({
      chat_interactions: 1,
      images_generated: 1,
      videos_generated: 0,
    });
    expect(countCharge({ ...row, usage: "image", refundedTenths: 10 }).images_generated).toBe(0);
    expect(countCharge({ ...row, usage: "video", chargedTenths: 30, refundedTenths: 25 })).toEqual({
      chat_interactions: 1,
      images_generated: 0,
      videos_generated: 0,
    });
    const batch = { usage: STUDIO_IMAGE_USAGE, quantity: 4, chargedTenths: 60 };
    expect(countCharge({ ...batch, refundedTenths: 30 })).toEqual({
      chat_interactions: 0,
      images_generated: 2,
      videos_generated: 0,
    });
    // An unlimited user's 0-credit rows count as made.
    expect(countCharge({ ...batch, chargedTenths: 0, refundedTenths: 0 }).images_generated).toBe(4);
  });

  it("names the UTC month, also across a year end", () => {
    expect(utcMonth(new Date("2026-12-31T23:59:59.999Z"))).toEqual({
      start: new Date("2026-12-01T00:00:00Z"),
      end: new Date("2027-01-01T00:00:00Z"),
      label: "2026-12",
    });
  });
});
