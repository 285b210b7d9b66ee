// Clips that go on, offline (issue 45 item 4, decision 0160): a picture animated into a 5-second clip that
// ends on the chosen last frame, extended to 10 seconds as one seamless file, a story turn's clip replaced by
// its extension; and every refusal a 4xx with a detail before anything is charged.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { CAMERA_MESSAGE } from "@storyverse/contract/media-clip";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia, galleryImage, waitForMedia } from "../../test/media";
import { probeDuration } from "../platform/ffmpeg";
import { renderKenBurns } from "../providers/offline/video";
import type { VideoProvider } from "../providers/types";
import { lastFrameOf } from "./clip-video";
import { saveImage, saveVideo } from "./service";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-clips-test-"));
});
afterAll(async () => {
  await t?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

const post = (user: TestUser, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, headers: bearer(user.token), payload });
const animate = (user: TestUser, id: string, payload: object = {}) =>
  post(user, `/api/media/${id}/animate`, payload);
const extend = (user: TestUser, id: string, payload: object = {}) =>
  post(user, `/api/media/${id}/extend`, payload);

type ClipJobBody = {
  job_id: string;
  status: string;
  kind: string;
  parent_id: string;
  detail: string | null;
  duration_seconds: number;
  item: Record<string, unknown> & { id: string; url: string };
};

async function waitForClip(user: TestUser, jobId: string): Promise<ClipJobBody> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/media/clips/${jobId}`,
      headers: bearer(user.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ClipJobBody;
    if (body.status !== "pending") return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`clip job ${jobId} did not end`);
}

let fileCount = 0;
/** The clip behind a URL the app signed, saved to a file, and its length as ffmpeg reads it. */
async function clipFile(url: string) {
  const fetched = await fetchMedia(t, url);
  expect(fetched.status).toBe(200);
  const file = path.join(dir, `clip-${++fileCount}.mp4`);
  await writeFile(file, fetched.body);
  return { bytes: fetched.body, seconds: await probeDuration(t.config.ffmpeg.path, file) };
}

/** The mean colour of a picture, 0..255 per channel. */
async function meanColour(picture: Buffer) {
  const { channels } = await sharp(picture).stats();
  return channels.slice(0, 3).map((channel) => channel.mean);
}

describe("animating a picture offline", () => {
  it("makes a 5-second clip that ends on the last frame, a new item that knows its picture", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const picture = await saveImage(
      t.ctx,
      t.database.db,
      {
        userId: user.userId,
        source: "studio",
        storyId: null,
        storyTitle: null,
        messageId: null,
        description: "a red lighthouse",
        seed: 4242,
      },
      await samplePng(96, 72, "#d02020"),
    );
    const last = await galleryImage(t, user.userId, "#2040e0", 96, 72);
    const before = await balance(user);

    const res = await animate(user, picture.id, { last_frame_id: last.id, camera: "push_in" });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json();
    expect(started).toMatchObject({
      kind: "animate",
      status: "pending",
      parent_id: picture.id,
      duration_seconds: 5,
    });
    expect(started.quota_info.charged).toBe(CREDIT_COSTS.video);
    expect(await balance(user)).toBe(before - CREDIT_COSTS.video);

    const done = await waitForClip(user, started.job_id);
    expect(done.status, done.detail ?? "").toBe("completed");
    expect(done.item).toMatchObject({
      type: "video",
      parent_id: picture.id,
      seed: 4242,
      source: "studio",
      description: "a red lighthouse",
      duration_seconds: 5,
    });
    const clip = await clipFile(done.item.url);
    expect(Math.abs(clip.seconds - 5)).toBeLessThan(0.15);
    // It starts on the picture (red) and ends on the chosen last frame (blue).
    const [r, , b] = await meanColour(await lastFrameOf(t.config.ffmpeg.path, clip.bytes));
    expect(b!).toBeGreaterThan(150);
    expect(r!).toBeLessThan(90);
    // Charged once, for the clip; the gallery has it beside the two pictures.
    expect(await balance(user)).toBe(before - CREDIT_COSTS.video);
    const gallery = await t.app.inject({
      method: "GET",
      url: "/api/user/videos",
      headers: bearer(user.token),
    });
    expect(gallery.json().videos.map((item: { id: string }) => item.id)).toEqual([done.item.id]);
  }, 120_000);

  it("extends a clip by 5 seconds into one 10-second file, a new item whose parent is the clip", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const picture = await galleryImage(t, user.userId, "#20a040", 96, 72);
    const first = await waitForClip(
      user,
      (await animate(user, picture.id, { camera: "pan_left" })).json().job_id,
    );
    expect(first.status, first.detail ?? "").toBe("completed");
    const before = await balance(user);

    const res = await extend(user, first.item.id, { prompt: "the camera drifts on", camera: "orbit" });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ kind: "extend", parent_id: first.item.id, duration_seconds: 10 });
    expect(await balance(user)).toBe(before - CREDIT_COSTS.video);
    const done = await waitForClip(user, res.json().job_id);
    expect(done.status, done.detail ?? "").toBe("completed");
    expect(done.item).toMatchObject({
      type: "video",
      parent_id: first.item.id,
      duration_seconds: 10,
      description: "the camera drifts on",
    });
    const longer = await clipFile(done.item.url);
    expect(Math.abs(longer.seconds - 10)).toBeLessThan(0.15);
    // The shorter clip stays in the Gallery beside the longer one.
    const gallery = await t.app.inject({
      method: "GET",
      url: "/api/user/videos",
      headers: bearer(user.token),
    });
    expect(
      gallery
        .json()
        .videos.map((item: { id: string }) => item.id)
        .sort(),
    ).toEqual([first.item.id, done.item.id].sort());
  }, 120_000);

  it("replaces a story turn's clip with its extension; the shorter clip stays in the Gallery", async () => {
    const user = await createUser(t);
    const headers = bearer(user.token);
    const story = (
      await t.app.inject({ method: "POST", url: "/api/stories", headers, payload: { title: "Harbour" } })
    ).json().story as { id: string };
    const turn = (
      await t.app.inject({
        method: "POST",
        url: `/api/stories/${story.id}/chat`,
        headers,
        payload: { prompt: "The gate opens", chat_mode: "video" },
      })
    ).json();
    const statusUrl = `/api/stories/${story.id}/media-status/${turn.message_id}`;
    const media = await waitForMedia(t, user.token, statusUrl);
    expect(media.media_generation_completed, JSON.stringify(media)).toBe(true);
    const original = (
      await t.app.inject({
        method: "GET",
        url: `/api/media/by-url?url=${encodeURIComponent(media.video_url!)}`,
        headers,
      })
    ).json().item;
    expect(original).toMatchObject({
      type: "video",
      duration_seconds: 5,
      source: "story",
      story_id: story.id,
    });

    const res = await extend(user, original.id);
    expect(res.statusCode, res.body).toBe(202);
    const done = await waitForClip(user, res.json().job_id);
    expect(done.status, done.detail ?? "").toBe("completed");
    expect(done.item).toMatchObject({ story_id: story.id, source: "story", message_id: turn.message_id });

    const after = (await t.app.inject({ method: "GET", url: statusUrl, headers })).json();
    const keyOf = (url: string) => t.ctx.storage.keyFromUrl(url);
    expect(keyOf(after.video_url)).toBe(keyOf(done.item.url));
    expect(Math.abs((await clipFile(after.video_url)).seconds - 10)).toBeLessThan(0.15);
    const gallery = await t.app.inject({ method: "GET", url: "/api/user/videos", headers });
    expect(gallery.json().videos.map((item: { id: string }) => item.id)).toContain(original.id);
  }, 180_000);
});

describe("a clip made before lengths were recorded", () => {
  it("is measured from its file when extended", async () => {
    const user = await createUser(t);
    const picture = await galleryImage(t, user.userId, "#6040a0", 96, 72);
    const older = await saveVideo(
      t.ctx,
      t.database.db,
      {
        userId: user.userId,
        source: "studio",
        storyId: null,
        storyTitle: null,
        messageId: null,
        description: "",
      },
      await renderKenBurns(await samplePng(96, 72, "#6040a0"), "older", 5, 0.25),
      picture.thumbnailKey,
    );
    expect(older.durationSeconds).toBeNull();
    const res = await extend(user, older.id);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().duration_seconds).toBe(10);
    const done = await waitForClip(user, res.json().job_id);
    expect(done.status, done.detail ?? "").toBe("completed");
    expect(Math.abs((await clipFile(done.item.url)).seconds - 10)).toBeLessThan(0.15);
  }, 120_000);
});

describe("refusals, before any charge", () => {
  it("answers 400 or 404 with a detail and charges nothing", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const { balance, refunds } = moneyOf(t);
    const picture = await galleryImage(t, user.userId, "#806040");
    const theirs = await galleryImage(t, other.userId, "#406080");
    const clipOf = (seconds: number | null) =>
      saveVideo(
        t.ctx,
        t.database.db,
        {
          userId: user.userId,
          source: "studio",
          storyId: null,
          storyTitle: null,
          messageId: null,
          description: "a clip",
          durationSeconds: seconds,
        },
        Buffer.from("not decoded: refused before"),
        null,
      );
    const sixteen = await clipOf(16);
    const unreadable = await clipOf(null);
    const before = await balance(user);

    // Asked one after another: a player's requests at once would meet the heavy-request limit first (429).
    const cases: [
      () => Promise<{ statusCode: number; json: () => { detail: string } }>,
      number,
      RegExp | string,
    ][] = [
      [() => animate(user, picture.id, { camera: "dolly_zoom" }), 400, CAMERA_MESSAGE],
      [
        () => animate(user, picture.id, { last_frame_id: theirs.id }),
        400,
        /last_frame_id must be the id of one of your pictures/,
      ],
      [
        () => animate(user, picture.id, { last_frame_id: sixteen.id }),
        400,
        /last_frame_id must be the id of one of your pictures/,
      ],
      [() => animate(user, sixteen.id), 400, /Only a picture can be animated/],
      [() => extend(user, picture.id), 400, /Only a clip can be extended/],
      [
        () => extend(user, sixteen.id),
        400,
        /This clip is 16 seconds long; a clip can be extended up to 20 seconds/,
      ],
      [() => extend(user, unreadable.id), 400, /This clip's file cannot be read, so it cannot be extended/],
      [() => animate(user, theirs.id), 404, /not in your Gallery/],
      [() => extend(other, sixteen.id), 404, /not in your Gallery/],
      [() => animate(user, "not-a-uuid"), 400, /not in your Gallery/],
    ];
    for (const [request, status, detail] of cases) {
      const res = await request();
      expect(res.statusCode).toBe(status);
      if (typeof detail === "string") expect(res.json().detail).toContain(detail);
      else expect(res.json().detail).toMatch(detail);
    }
    expect(await balance(user)).toBe(before);
    expect(await refunds(user)).toEqual([]);
    const jobs = await t.database.executeSql("select id from media_clip_jobs where user_id = $1", [
      user.userId,
    ]);
    expect(jobs.rows).toEqual([]);
  });

  it("refuses a last frame or a camera move the configured video service cannot make, naming it", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const picture = await galleryImage(t, user.userId, "#a0a020");
    const last = await galleryImage(t, user.userId, "#20a0a0");
    const offline = t.providers.video;
    const plain: VideoProvider = {
      name: "plainvideo",
      clipFeatures: { lastFrame: false, camera: false },
      start: (request) => offline.start(request),
      poll: (taskId, signal) => offline.poll(taskId, signal),
    };
    t.providers.video = plain;
    try {
      const before = await balance(user);
      const noLast = await animate(user, picture.id, { last_frame_id: last.id });
      expect(noLast.statusCode).toBe(400);
      expect(noLast.json().detail).toMatch(
        /configured video service \(plainvideo\) cannot end a clip on a chosen picture/,
      );
      const noCamera = await animate(user, picture.id, { camera: "orbit" });
      expect(noCamera.statusCode).toBe(400);
      expect(noCamera.json().detail).toMatch(/\(plainvideo\) cannot follow a camera move/);
      expect(await balance(user)).toBe(before);
    } finally {
      t.providers.video = offline;
    }
  });

  it("shows a clip job to its owner only", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const picture = await galleryImage(t, user.userId, "#c06090");
    const started = await animate(user, picture.id);
    expect(started.statusCode, started.body).toBe(202);
    const jobId = started.json().job_id;
    const theirs = await t.app.inject({
      method: "GET",
      url: `/api/media/clips/${jobId}`,
      headers: bearer(other.token),
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().detail).toBe("There is no such clip job.");
    expect((await waitForClip(user, jobId)).status).toBe("completed");
  }, 120_000);
});
