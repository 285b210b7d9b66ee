// A vendor's clip with its index at the end is stored faststart (moov before mdat), frames untouched.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser } from "../../test/factories";
import { fetchMedia, waitForMedia } from "../../test/media";
import { runFfmpeg } from "./ffmpeg";
import { topLevelBoxes } from "./mp4-faststart";

let t: TestApp;
let dir: string;
let vendorClip: Buffer;
const order = (data: Buffer) =>
  topLevelBoxes(data)
    .map((box) => box.type)
    .filter((type) => type === "moov" || type === "mdat");

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-vendor-clip-"));
  t = await createTestApp({
    providers: {
      video: {
        name: "fake-vendor",
        start: async () => ({ taskId: "clip-1" }),
        poll: async () => ({ status: "succeeded", video: { data: vendorClip, mimeType: "video/mp4" } }),
      },
    },
  });
  // ffmpeg's default MP4 keeps the index at the end, as many vendors' clips do.
  const file = path.join(dir, "vendor.mp4");
  await runFfmpeg(t.config.ffmpeg.path, [
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=96x64:rate=10:duration=2",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    file,
  ]);
  vendorClip = await readFile(file);
});
afterAll(async () => {
  await t.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe("storing a vendor's clip", () => {
  it("keeps it faststart: moov before mdat, the same frames", async () => {
    expect(order(vendorClip)).toEqual(["mdat", "moov"]);
    const user = await createUser(t);
    const headers = bearer(user.token);
    const story = (
      await t.app.inject({ method: "POST", url: "/api/stories", headers, payload: { title: "Clip" } })
    ).json().story as { id: string };
    const turn = (
      await t.app.inject({
        method: "POST",
        url: `/api/stories/${story.id}/chat`,
        headers,
        payload: { prompt: "The gate opens", chat_mode: "video" },
      })
    ).json();
    const status = await waitForMedia(
      t,
      user.token,
      `/api/stories/${story.id}/media-status/${turn.message_id}`,
    );
    expect(status.media_generation_completed, JSON.stringify(status)).toBe(true);
    const stored = await fetchMedia(t, status.video_url!);
    expect(stored.status).toBe(200);
    expect(order(stored.body)).toEqual(["moov", "mdat"]);
    expect(stored.body.length).toBe(vendorClip.length);
    // Same frames: the mdat payload is byte for byte the vendor's.
    const mdat = (data: Buffer) => {
      const box = topLevelBoxes(data).find((b) => b.type === "mdat")!;
      return data.subarray(box.start, box.start + box.size);
    };
    expect(mdat(stored.body).equals(mdat(vendorClip))).toBe(true);
  });
});
