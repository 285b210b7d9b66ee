// Monthly activity against a scripted month: turns charged through the credits service, gallery items saved
// through the media service, stories created through the API. Every count must match the script, and nothing
// from last month, next month or another user may leak in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { sampleMp4, samplePng } from "../../test/fakes/media";
import { type MediaOrigin, saveImage, saveVideo } from "../media/service";
import { monthlyActivity, utcMonth } from "./activity";
import { setUnlimited } from "./repo";
import { charge, grant, refund, toTenths } from "./service";

let t: TestApp;
let png: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  png = await samplePng();
});
afterAll(async () => {
  await t.cleanup();
});

const origin = (userId: string): MediaOrigin => ({
  userId,
  source: "main_chat",
  storyId: null,
  storyTitle: null,
  messageId: null,
  description: "a scene",
});

/** One turn of the given mode at the clock's time: the charge, and the gallery items it produced. */
async function turn(userId: string, mode: "chat" | "image" | "video") {
  await charge(t.ctx.db, userId, mode, 1, t.clock.now(), `${mode} turn`);
  if (mode === "image") await saveImage(t.ctx, t.ctx.db, origin(userId), png);
  if (mode === "video") {
    const scene = await saveImage(t.ctx, t.ctx.db, origin(userId), png);
    await saveVideo(t.ctx, t.ctx.db, origin(userId), sampleMp4(), scene.storageKey);
  }
}

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
    await charge(t.ctx.db, user.userId, "advisor", 1, now, "advisor message");
    // A video whose animation failed gives back everything above the text's 0.5.
    await charge(t.ctx.db, user.userId, "video", 1, now, "video turn that fails");
    await refund(
      t.ctx.db,
      user.userId,
      toTenths(2.5),
      "media-refund:test",
      now,
      "Refund: media generation failed",
    );
    await createStory(user, "First");
    await createStory(user, "Second");
    // Someone else's month is not ours.
    await turn(other.userId, "video");
    await createStory(other, "Theirs");

    expect(await activity(user)).toEqual({
      // 3 chat + 2 image + 2 video turns + 1 advisor message
      chat_interactions: 8,
      // 2 image turns + 1 scene image of the successful video turn
      images_generated: 3,
      videos_generated: 1,
      stories_created: 2,
      // 3 x 0.5 + 2 x 1.5 + 2 x 3.0 + 0.5 - 2.5 refunded
      total_credits_used: 8.5,
      month: label,
    });
    expect(await activity(other)).toMatchObject({
      chat_interactions: 1,
      images_generated: 1,
      videos_generated: 1,
      stories_created: 1,
      total_credits_used: 3,
    });

    // Next month starts from zero.
    const next = utcMonth(new Date(utcMonth(now).end.getTime() + 1));
    expect(await monthlyActivity(t.ctx.db, user.userId, next.start)).toEqual({
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
    expect(await activity(user)).toMatchObject({
      chat_interactions: 2,
      images_generated: 1,
      total_credits_used: 0,
    });
  });

  it("names the UTC month, also across a year end", () => {
    expect(utcMonth(new Date("2026-12-31T23:59:59.999Z"))).toEqual({
      start: new Date("2026-12-01T00:00:00Z"),
      end: new Date("2027-01-01T00:00:00Z"),
      label: "2026-12",
    });
  });
});
