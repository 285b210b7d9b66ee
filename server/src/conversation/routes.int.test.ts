import { MEDIA_DEADLINE_MS } from "@storyverse/contract/chat";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, newCredentials, type TestUser } from "../../test/factories";
import { fetchMedia, waitForMedia } from "../../test/media";
import { findAccount, ledgerSum, setUnlimited } from "../credits/repo";
import { charge } from "../credits/service";
import { mediaIdentity } from "../media/storage/media-identity";
import { createProviders } from "../providers/create-providers";
import { NOT_A_VIDEO_TASK_DETAIL } from "./service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
});
afterAll(async () => {
  await t.cleanup();
});

const chat = (user: TestUser, payload: unknown) =>
  t.app.inject({ method: "POST", url: "/api/chat", headers: bearer(user.token), payload: payload as object });
const getJson = async (user: TestUser, url: string) =>
  (await t.app.inject({ method: "GET", url, headers: bearer(user.token) })).json();

describe("POST /api/chat with the offline providers", () => {
  it("image mode: answers with story text at once, then a 2K PNG, for 1.5 credits", async () => {
    // The picture's full size is the subject here; the test app paints small pictures otherwise.
    const smallPainter = t.providers.image;
    t.providers.image = createProviders({ ...t.config.providers, offlineMediaScale: 1 }).image;
    onTestFinished(() => {
      t.providers.image = smallPainter;
    });
    const user = await createUser(t);
    const res = await chat(user, {
      prompt: "I light a lantern and step into the dragon's cave",
      chat_mode: "image",
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.story_text.length).toBeGreaterThan(40);
    expect(body.story_text).not.toMatch(/SCENE:/);
    expect(body.media_generation).toEqual({ status: "started", type: "image" });
    expect(body.quota_info).toEqual({ remaining: 13.5, unlimited: false, cost: 1.5, charged: 1.5 });

    const status = await waitForMedia(t, user.token, `/api/chat/media-status/${body.message_id}`);
    expect(status.media_generation_failed).toBe(false);
    expect(status.video_url).toBeNull();
    const image = await fetchMedia(t, status.image_url!);
    expect(image.status).toBe(200);
    expect(image.type).toBe("image/png");
    const meta = await sharp(image.body).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeGreaterThanOrEqual(2048);

    const history = await getJson(user, "/api/chat/history");
    expect(history.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(history.messages[0].content).toBe("I light a lantern and step into the dragon's cave");
    expect(history.messages[1]).toMatchObject({ message_id: body.message_id, media_status: "completed" });
    expect(history.messages[1].image_url).toBeTruthy();

    const images = await getJson(user, "/api/user/images");
    expect(images.images).toHaveLength(1);
    expect(images.images[0]).toMatchObject({
      type: "image",
      source: "main_chat",
      file_extension: "png",
      story_id: null,
    });
    const thumb = await fetchMedia(t, images.images[0].thumbnail_url);
    expect(thumb.type).toBe("image/webp");
    const thumbMeta = await sharp(thumb.body).metadata();
    expect(Math.max(thumbMeta.width!, thumbMeta.height!)).toBeLessThanOrEqual(512);
    expect((await getJson(user, "/api/last-image")).image).toBeTruthy();
    expect((await getJson(user, "/api/user/latest-media")).latest_media.type).toBe("image");
    expect((await getJson(user, "/api/credit-balance")).remaining).toBe(13.5);
  });

  it("video mode: a scene image and a playable 5-second MP4, for 3 credits", async () => {
    const user = await createUser(t);
    const res = await chat(user, { prompt: "The ship sails into the storm", generate_video: true });
    const body = res.json();
    expect(body.media_generation).toEqual({ status: "started", type: "video" });
    expect(body.quota_info.charged).toBe(3);
    const status = await waitForMedia(t, user.token, `/api/chat/media-status/${body.message_id}`, 150_000);
    expect(status.media_generation_completed).toBe(true);
    expect(status.image_url).toBeTruthy();
    const video = await fetchMedia(t, status.video_url!);
    expect(video.type).toBe("video/mp4");
    expect(video.body.toString("latin1", 4, 8)).toBe("ftyp");
    const task = await getJson(user, `/api/video-status/${body.message_id}`);
    expect(task.status).toBe("completed");
    expect(mediaIdentity(task.video_url)).toBe(mediaIdentity(status.video_url!));
    const videos = (await getJson(user, "/api/user/videos")).videos;
    expect(videos).toHaveLength(1);
    // Lists show the scene's small webp as the poster, never the 2K original.
    expect(videos[0].thumbnail_url).toContain(".thumb.webp");
    expect((await getJson(user, "/api/user/latest-media")).latest_media.type).toBe("video");
  }, 180_000);

  it("chat mode: text only, for 0.5 credits", async () => {
    const user = await createUser(t);
    const body = (await chat(user, { prompt: "Who guards the bridge?", chat_mode: "chat" })).json();
    expect(body.media_generation).toEqual({ status: "none", type: null });
    expect(body.quota_info).toMatchObject({ cost: 0.5, charged: 0.5, remaining: 14.5 });
    const status = await getJson(user, `/api/chat/media-status/${body.message_id}`);
    expect(status).toMatchObject({ status: "none", image_url: null, video_url: null });
  });

  it('answers 404 with a detail, never "processing" forever, for the video status of an image or chat turn', async () => {
    const user = await createUser(t);
    for (const mode of ["image", "chat"] as const) {
      const body = (await chat(user, { prompt: "A tower", chat_mode: mode })).json();
      for (const id of [body.message_id, body.user_message_id]) {
        const res = await t.app.inject({
          method: "GET",
          url: `/api/video-status/${id}`,
          headers: bearer(user.token),
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().detail).toBe(NOT_A_VIDEO_TASK_DETAIL);
      }
    }
  });

  it("unlimited users are not charged, and their usage is still logged", async () => {
    const user = await createUser(t);
    await setUnlimited(t.database.db, user.userId, true, new Date());
    const body = (await chat(user, { prompt: "Onward", chat_mode: "chat" })).json();
    expect(body.quota_info).toEqual({ remaining: -1, unlimited: true, cost: 0.5, charged: 0 });
    const { rows } = await t.database.executeSql(
      "select transaction_type, amount_tenths from credit_transactions where user_id = $1 order by created_at",
      [user.userId],
    );
    expect(rows.at(-1)).toEqual({ transaction_type: "usage_chat", amount_tenths: 0 });
    expect((await getJson(user, "/api/credit-balance")).remaining).toBe(-1);
  });
});

describe("bad input changes nothing", () => {
  it.each([
    [{ prompt: "x", chat_mode: "poetry" }, "chat_mode must be one of chat, image or video"],
    [{ prompt: "   " }, "Please type a message first"],
    [{ prompt: "x".repeat(4001) }, "4000"],
    [{}, "prompt"],
    [{ prompt: 5 }, "prompt"],
  ])("%j is a 400 with a detail and costs nothing", async (payload, fragment) => {
    const user = await createUser(t);
    const res = await chat(user, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(fragment);
    expect((await getJson(user, "/api/credit-balance")).remaining).toBe(15);
    expect((await getJson(user, "/api/chat/history")).messages).toEqual([]);
  });

  it("refuses a turn the balance cannot cover with 402 and quota_exceeded", async () => {
    const user = await createUser(t);
    await charge(t.database.db, user.userId, "mystery", 14, new Date(), "spent elsewhere");
    const res = await chat(user, { prompt: "one more", chat_mode: "image" });
    expect(res.statusCode).toBe(402);
    const body = res.json();
    expect(body.detail).toMatch(/^Insufficient credits/);
    expect(body.quota_exceeded).toBe(true);
    expect(body.quota_info).toMatchObject({ remaining: 1, cost: 1.5, charged: 0 });
    expect((await getJson(user, "/api/chat/history")).messages).toEqual([]);
    expect((await getJson(user, "/api/credit-balance")).remaining).toBe(1);
    // What the balance does cover still works.
    expect((await chat(user, { prompt: "just talk", chat_mode: "chat" })).statusCode).toBe(200);
  });
});

describe("ownership", () => {
  it("another user's messages and media are 404s, never data", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const body = (await chat(owner, { prompt: "A secret garden", chat_mode: "image" })).json();
    const status = await waitForMedia(t, owner.token, `/api/chat/media-status/${body.message_id}`);

    expect(
      (
        await t.app.inject({
          method: "GET",
          url: `/api/chat/media-status/${body.message_id}`,
          headers: bearer(stranger.token),
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: `/api/video-status/${body.message_id}`,
          headers: bearer(stranger.token),
        })
      ).statusCode,
    ).toBe(404);
    expect((await getJson(stranger, "/api/chat/history")).messages).toEqual([]);
    expect((await getJson(stranger, "/api/user/images")).images).toEqual([]);

    const own = await t.app.inject({
      method: "GET",
      url: `/api/download?url=${encodeURIComponent(status.image_url!)}`,
      headers: bearer(owner.token),
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-disposition"]).toMatch(/^attachment; filename="storyverse-image-.*\.png"$/);
    expect((await sharp(own.rawPayload).metadata()).format).toBe("png");

    for (const url of [
      status.image_url!,
      "https://example.com/cat.png",
      "file:///etc/passwd",
      "/api/media/u/../../etc/passwd",
    ]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/download?url=${encodeURIComponent(url)}`,
        headers: bearer(stranger.token),
      });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it("checks the session before the body: no token and a bad body is a 401", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/chat", payload: { chat_mode: "nonsense" } });
    expect(res.statusCode).toBe(401);
  });

  it("media routes require a session", async () => {
    for (const url of [
      "/api/chat/history",
      "/api/user/images",
      "/api/user/videos",
      "/api/user/latest-media",
      "/api/last-image",
      "/api/credit-balance",
      "/api/quota",
      "/api/download?url=x",
    ]) {
      expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(401);
    }
  });
});

describe("credits under concurrency", () => {
  it("100 simultaneous image turns with 10 credits: exactly 6 succeed and the ledger matches the balance", async () => {
    const quiet = await createTestApp({ workers: false, env: { REQUIRE_EMAIL_VERIFICATION: "false" } });
    try {
      const registered = await quiet.app.inject({
        method: "POST",
        url: "/api/register",
        payload: newCredentials(),
      });
      const user = {
        token: registered.json().access_token as string,
        userId: registered.json().user_id as string,
      };
      // 15 - 5 × 1 (unknown kind) = 10 credits, recorded in the ledger like any spend.
      for (let i = 0; i < 5; i += 1)
        await charge(quiet.database.db, user.userId, "mystery", 1, new Date(), "drain");
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          quiet.app.inject({
            method: "POST",
            url: "/api/chat",
            headers: bearer(user.token),
            payload: { prompt: `turn ${i}`, chat_mode: "image" },
          }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(6);
      expect(codes.filter((c) => c === 402)).toHaveLength(94);
      const account = await findAccount(quiet.database.db, user.userId);
      expect(account!.balanceTenths).toBe(10);
      expect(await ledgerSum(quiet.database.db, user.userId)).toBe(account!.balanceTenths);
      const remainders = results
        .filter((r) => r.statusCode === 200)
        .map((r) => r.json().quota_info.remaining);
      expect(Math.min(...remainders)).toBeGreaterThanOrEqual(0);
    } finally {
      await quiet.cleanup();
    }
  }, 120_000);
});

describe("a media job that never reports back", () => {
  it("times out at the media deadline: the message fails and the media part is refunded", async () => {
    const quiet = await createTestApp({ workers: false, env: { REQUIRE_EMAIL_VERIFICATION: "false" } });
    try {
      const registered = await quiet.app.inject({
        method: "POST",
        url: "/api/register",
        payload: newCredentials(),
      });
      const token = registered.json().access_token as string;
      const turn = await quiet.app.inject({
        method: "POST",
        url: "/api/chat",
        headers: bearer(token),
        payload: { prompt: "Into the mist", chat_mode: "video" },
      });
      const statusUrl = `/api/chat/media-status/${turn.json().message_id}`;
      expect(
        (await quiet.app.inject({ method: "GET", url: statusUrl, headers: bearer(token) })).json().status,
      ).toBe("pending");
      quiet.clock.advance(MEDIA_DEADLINE_MS + 1000);
      const status = (
        await quiet.app.inject({ method: "GET", url: statusUrl, headers: bearer(token) })
      ).json();
      expect(status).toMatchObject({
        media_generation_failed: true,
        media_generation_error: "Media generation timed out. Please try again.",
      });
      const balance = await quiet.app.inject({
        method: "GET",
        url: "/api/credit-balance",
        headers: bearer(token),
      });
      expect(balance.json().remaining).toBe(14.5);
      // Polling again neither refunds twice nor changes the answer.
      await quiet.app.inject({ method: "GET", url: statusUrl, headers: bearer(token) });
      expect(
        (await quiet.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(token) })).json()
          .remaining,
      ).toBe(14.5);
    } finally {
      await quiet.cleanup();
    }
  });
});
