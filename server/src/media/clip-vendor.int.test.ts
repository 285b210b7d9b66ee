// Clips through BytePlus Seedance, faked at the network boundary in ModelArk's wire format (decision 0160): a
// clip from a picture sends it as the first_frame item and the chosen picture as the last_frame item, the camera
// move in the prompt with --camerafixed; an extension sends the clip's last frame as the next first frame and
// stitches the vendor's segment on; a failed task refunds the clip in full.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { type BytePlusFake, startBytePlusFake } from "../../test/fakes/byteplus-fake";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia, galleryImage } from "../../test/media";
import { probeDuration } from "../platform/ffmpeg";
import { renderKenBurns } from "../providers/offline/video";

let fake: BytePlusFake;
let t: TestApp;
let dir: string;
/** What the fake vendor hands back: a real 5-second clip of a green picture. */
let vendorClip: Buffer;
beforeAll(async () => {
  fake = await startBytePlusFake();
  t = await createTestApp({
    env: {
      VIDEO_PROVIDER: "byteplus",
      VIDEO_BASE_URL: fake.baseUrl,
      VIDEO_API_KEY: fake.apiKey,
      PROVIDER_TIMEOUT_SECONDS: "10",
    },
  });
  dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-clip-vendor-"));
  vendorClip = await renderKenBurns(await samplePng(160, 120, "#20c040"), "green", 5, 0.25);
});
afterAll(async () => {
  await t?.cleanup();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  fake.video.outcome = "succeeded";
  fake.video.pollsBeforeDone = 1;
  fake.video.clip = vendorClip;
});

const post = (user: TestUser, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, headers: bearer(user.token), payload });

async function waitForClip(user: TestUser, jobId: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/media/clips/${jobId}`,
      headers: bearer(user.token),
    });
    const body = res.json();
    if (body.status !== "pending") return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`clip job ${jobId} did not end`);
}

type ContentItem = { type: string; text?: string; role?: string; image_url?: { url: string } };
/** The content items of the tasks created at the fake, in order. */
const taskContents = () =>
  fake.requests
    .filter((request) => request.method === "POST" && request.path.endsWith("/contents/generations/tasks"))
    .map((request) => (request.json as { content: ContentItem[] }).content);

async function colourOf(dataUrl: string) {
  const data = Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
  const { channels } = await sharp(data).stats();
  return channels.slice(0, 3).map((channel) => Math.round(channel.mean));
}

describe("clips through Seedance", () => {
  it("sends the first and last frames and the camera move, then extends the clip from its last frame", async () => {
    const config = (await t.app.inject({ method: "GET", url: "/api/config" })).json();
    expect(config.video_clip_features).toEqual({ last_frame: true, camera: true });
    const user = await createUser(t);
    const picture = await galleryImage(t, user.userId, "#e01010", 96, 72);
    const last = await galleryImage(t, user.userId, "#1010e0", 96, 72);

    const res = await post(user, `/api/media/${picture.id}/animate`, {
      prompt: "the lamp flickers",
      last_frame_id: last.id,
      camera: "pan_right",
    });
    expect(res.statusCode, res.body).toBe(202);
    const done = await waitForClip(user, res.json().job_id);
    expect(done.status, done.detail).toBe("completed");
    const [content] = taskContents();
    expect(content?.map((item) => [item.type, item.role])).toEqual([
      ["text", undefined],
      ["image_url", "first_frame"],
      ["image_url", "last_frame"],
    ]);
    expect(content?.[0]?.text).toBe(
      "the lamp flickers\n\nCamera: slow pan to the right. --duration 5 --resolution 720p --ratio adaptive --watermark false --camerafixed false",
    );
    const [r1, , b1] = await colourOf(content![1]!.image_url!.url);
    const [r2, , b2] = await colourOf(content![2]!.image_url!.url);
    expect(r1! > 200 && b1! < 60).toBe(true);
    expect(b2! > 200 && r2! < 60).toBe(true);
    expect((await fetchMedia(t, done.item.url)).body.equals(vendorClip)).toBe(true);

    // Extended: the next task starts from the clip's last frame (green), with no last frame of its own.
    const extended = await post(user, `/api/media/${done.item.id}/extend`, { camera: "still" });
    expect(extended.statusCode, extended.body).toBe(202);
    const longer = await waitForClip(user, extended.json().job_id);
    expect(longer.status, longer.detail).toBe("completed");
    const next = taskContents()[1]!;
    expect(next.map((item) => item.role)).toEqual([undefined, "first_frame"]);
    expect(next[0]?.text).toMatch(/Camera: static shot.* --camerafixed true$/s);
    const [r, g, b] = await colourOf(next[1]!.image_url!.url);
    expect(g!).toBeGreaterThan(150);
    expect(Math.max(r!, b!)).toBeLessThan(100);
    const file = path.join(dir, "longer.mp4");
    await writeFile(file, (await fetchMedia(t, longer.item.url)).body);
    expect(Math.abs((await probeDuration(t.config.ffmpeg.path, file)) - 10)).toBeLessThan(0.15);
    expect(longer.item).toMatchObject({ parent_id: done.item.id, duration_seconds: 10 });
  }, 120_000);

  it("refunds the clip in full when Seedance fails the task", async () => {
    const user = await createUser(t);
    const { balance, refunds } = moneyOf(t);
    const picture = await galleryImage(t, user.userId, "#808020");
    fake.video.outcome = "failed";
    const before = await balance(user);
    const res = await post(user, `/api/media/${picture.id}/animate`, {});
    expect(res.statusCode, res.body).toBe(202);
    expect(await balance(user)).toBe(before - CREDIT_COSTS.video);
    const ended = await waitForClip(user, res.json().job_id);
    expect(ended.status).toBe("failed");
    expect(ended.detail).toMatch(/^The AI provider could not make this video/);
    expect(await balance(user)).toBe(before);
    expect(await refunds(user)).toEqual([
      { reference: `refund:${res.json().job_id}`, amount_tenths: CREDIT_COSTS.video * 10 },
    ]);
  }, 60_000);
});
