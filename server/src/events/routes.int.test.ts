// The event stream over real HTTP: what a user's open tabs hear when their turn's media ends and their
// balance changes, resuming with Last-Event-ID, the per-user cap, closing on logout, and never another
// user's events.
import { MAX_EVENT_STREAMS_PER_USER } from "@storyverse/contract/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { linkFrom } from "../../test/smtp-sink";
import { type EventStream, openEventStream, type SseEvent } from "../../test/sse";

let t: TestApp;
let base: string;
const open: EventStream[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  for (const stream of open) stream.close();
  await t.cleanup();
});

async function stream(token: string | undefined, headers: Record<string, string> = {}) {
  const opened = await openEventStream(base, token, headers);
  open.push(opened);
  return opened;
}

async function newStory(user: TestUser) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/stories",
    headers: bearer(user.token),
    payload: { title: "The Ember Crown", context: "A dragon-haunted kingdom" },
  });
  return res.json().story.id as string;
}

async function turn(user: TestUser, storyId: string, mode: "image" | "chat" = "image") {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/stories/${storyId}/chat`,
    headers: bearer(user.token),
    payload: { prompt: "The knight opens the gate", chat_mode: mode },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { message_id: string; quota_info: { remaining: number } };
}

const mediaOf = (messageId: string) => (event: SseEvent) =>
  event.event === "media" && (event.data as { message_id: string }).message_id === messageId;

describe("GET /api/events", () => {
  it("refuses a stream without a valid session", async () => {
    expect((await stream(undefined)).status).toBe(401);
    expect((await stream("not-a-session")).status).toBe(401);
  });

  it("pushes the turn's new balance, its finished media and its story card to every open tab of the user", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const [first, second] = [await stream(user.token), await stream(user.token)];
    expect(first.status).toBe(200);
    const sent = await turn(user, storyId);
    for (const tab of [first, second]) {
      const credits = await tab.next((event) => event.event === "credits");
      expect(credits.data).toEqual({ remaining: sent.quota_info.remaining, unlimited: false });
      const media = await tab.next(mediaOf(sent.message_id), 60_000);
      expect(media.data).toMatchObject({
        story_id: storyId,
        status: "completed",
        video_url: null,
        error: null,
      });
      const imageUrl = (media.data as { image_url: string }).image_url;
      const image = await fetch(new URL(imageUrl, base));
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toMatch(/^image\//);
      const card = await tab.next(
        (event) => event.event === "story" && (event.data as { thumbnail: string | null }).thumbnail !== null,
      );
      expect(card.data).toMatchObject({ story_id: storyId, last_activity: expect.any(String) });
      expect(Number(media.id)).toBeGreaterThan(Number(credits.id));
    }
  }, 90_000);

  it("resumes after a reconnect with Last-Event-ID: what was missed, and nothing already seen", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const before = await stream(user.token);
    await turn(user, storyId, "chat");
    const seen = await before.next((event) => event.event === "credits");
    before.close();

    const missed = await turn(user, storyId, "chat");
    const resumed = await stream(user.token, { "last-event-id": seen.id! });
    const replayed = await resumed.next((event) => event.event === "credits");
    expect(replayed.data).toEqual({ remaining: missed.quota_info.remaining, unlimited: false });
    expect(Number(replayed.id)).toBeGreaterThan(Number(seen.id));
    expect(resumed.events.some((event) => event.id === seen.id)).toBe(false);
  });

  it("treats an unknown or garbage Last-Event-ID as a fresh start", async () => {
    const user = await createUser(t);
    for (const id of ["garbage", "-1", "99999999999999", "1e5", "x".repeat(5000)]) {
      const fresh = await stream(user.token, { "last-event-id": id });
      expect(fresh.status).toBe(200);
      fresh.close();
    }
  });

  it(`keeps at most ${MAX_EVENT_STREAMS_PER_USER} streams per user, closing the oldest first`, async () => {
    const user = await createUser(t);
    const streams: EventStream[] = [];
    for (let i = 0; i < 20; i += 1) streams.push(await stream(user.token));
    const closedOnes = streams.slice(0, 20 - MAX_EVENT_STREAMS_PER_USER);
    await Promise.all(closedOnes.map((one) => one.ended));
    // The newest ones still hear the user's events.
    const storyId = await newStory(user);
    await turn(user, storyId, "chat");
    for (const kept of streams.slice(20 - MAX_EVENT_STREAMS_PER_USER)) {
      await kept.next((event) => event.event === "credits");
    }
    for (const closed of closedOnes) expect(closed.events).toEqual([]);
  });

  it("closes the stream when its session logs out, leaving the same user's other sessions streaming", async () => {
    const user = await createUser(t);
    const other = await t.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: user.email, password: user.password },
    });
    const otherToken = other.json().access_token as string;
    const mine = await stream(user.token);
    const theirs = await stream(otherToken);
    const logout = await t.app.inject({ method: "POST", url: "/api/logout", headers: bearer(user.token) });
    expect(logout.statusCode).toBe(200);
    await mine.ended;
    // The other session's stream stays open and still hears events.
    const storyId = await newStory({ ...user, token: otherToken });
    await turn({ ...user, token: otherToken }, storyId, "chat");
    await theirs.next((event) => event.event === "credits");
    expect((await stream(user.token)).status).toBe(401);
  });

  it("closes every stream of the user when the password is reset", async () => {
    const user = await createUser(t);
    const tabs = [await stream(user.token), await stream(user.token)];
    await t.app.inject({ method: "POST", url: "/api/forgot-password", payload: { email: user.email } });
    const mail = await t.smtp.waitForMail(user.email, { subject: /reset/i });
    const token = new URL(linkFrom(mail, `${t.config.appUrl}/forgot-password`)).searchParams.get("token")!;
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset-password",
      payload: { token, password: "a-brand-new-secret" },
    });
    expect(reset.statusCode).toBe(200);
    await Promise.all(tabs.map((tab) => tab.ended));
  });

  it("never sends one user's events to another, with many users at once", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t)));
    const tabs = await Promise.all(
      users.map(async (user) => [await stream(user.token), await stream(user.token)]),
    );
    const stories = await Promise.all(users.map((user) => newStory(user)));
    const turns = await Promise.all(users.map((user, i) => turn(user, stories[i]!)));
    await Promise.all(
      users.map(async (_, i) => {
        for (const tab of tabs[i]!) await tab.next(mediaOf(turns[i]!.message_id), 90_000);
      }),
    );
    users.forEach((_, i) => {
      for (const tab of tabs[i]!) {
        for (const event of tab.events) {
          const data = event.data as { message_id?: string; story_id?: string; remaining?: number };
          if (event.event === "media") expect(data.message_id).toBe(turns[i]!.message_id);
          if (event.event === "story") expect(data.story_id).toBe(stories[i]);
          if (event.event === "credits") expect(data.remaining).toBe(turns[i]!.quota_info.remaining);
        }
      }
    });
  }, 150_000);
});
