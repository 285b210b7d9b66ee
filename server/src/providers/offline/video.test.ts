import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createFakeClock } from "../../platform/clock";
import { topLevelBoxes } from "../../platform/mp4-faststart";
import type { VideoProvider, VideoTaskState } from "../types";
import { askedMove, MAX_ZOOM, prepareSource, renderFrame, shotAt } from "./ken-burns";
import { readMp4Info } from "./mp4";
import { createOfflineVideoProvider } from "./video";

async function until(provider: VideoProvider, taskId: string): Promise<VideoTaskState> {
  for (;;) {
    const state = await provider.poll(taskId);
    if (state.status !== "pending") return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A 2K-ish gradient scene: cheap to make, with enough detail for the camera move to matter. */
async function sceneImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2048" height="1536"><defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#17214a"/><stop offset="1" stop-color="#f6a25a"/></linearGradient></defs><rect width="2048" height="1536" fill="url(#s)"/><circle cx="1400" cy="500" r="120" fill="#ffe2a0"/><path d="M0,1536L0,1100L600,800L1100,1150L1600,900L2048,1200L2048,1536Z" fill="#1a0d1f"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe("offline video provider", () => {
  it("renders a 5-second 640x480 H.264 MP4 in the background and hands it over via poll", async () => {
    const clock = createFakeClock();
    const provider = createOfflineVideoProvider({ clock });
    expect(provider.name).toBe("offline");
    const rejectionHandlers = process.listeners("unhandledRejection").length;
    const crashHandlers = process.listeners("uncaughtException").length;

    const image = { data: await sceneImage(), mimeType: "image/png" };
    const { taskId } = await provider.start({
      prompt: "a slow pan over the hills",
      image,
      durationSeconds: 5,
    });
    expect(await provider.poll(taskId)).toEqual({ status: "pending" });

    const state = await until(provider, taskId);
    if (state.status !== "succeeded") throw new Error(`video failed: ${JSON.stringify(state)}`);
    expect(state.video.mimeType).toBe("video/mp4");
    const data = state.video.data;
    expect(data.toString("latin1", 4, 8)).toBe("ftyp");
    // Faststart: the index (moov) comes before the frames (mdat), so a player starts at once.
    const top = topLevelBoxes(data).map((box) => box.type);
    expect(top.indexOf("moov")).toBeGreaterThan(-1);
    expect(top.indexOf("moov")).toBeLessThan(top.indexOf("mdat"));
    const info = readMp4Info(data);
    expect(info).not.toBeNull();
    expect(info!.durationSeconds).toBeGreaterThan(4.8);
    expect(info!.durationSeconds).toBeLessThan(5.2);
    expect([info!.width, info!.height]).toEqual([640, 480]);
    // An H.264 track: the sample description carries an avc1 entry with its avcC configuration.
    expect(data.includes(Buffer.from("avc1"))).toBe(true);
    expect(data.includes(Buffer.from("avcC"))).toBe(true);

    // The WASM glue's process-wide error handlers must not outlive loading it.
    expect(process.listeners("unhandledRejection")).toHaveLength(rejectionHandlers);
    expect(process.listeners("uncaughtException")).toHaveLength(crashHandlers);

    // Collected results stay for a grace period, then are forgotten.
    clock.advance(30_000);
    expect((await provider.poll(taskId)).status).toBe("succeeded");
    clock.advance(31_000);
    expect(await provider.poll(taskId)).toEqual({ status: "failed", error: "Unknown video task" });
  }, 120_000);

  it("renders smaller clips of the same length at OFFLINE_MEDIA_SCALE, for load tests", async () => {
    const provider = createOfflineVideoProvider({ scale: 0.125 });
    const image = { data: await sceneImage(), mimeType: "image/png" };
    const { taskId } = await provider.start({ prompt: "a quick pan", image, durationSeconds: 5 });
    const state = await until(provider, taskId);
    if (state.status !== "succeeded") throw new Error(`video failed: ${JSON.stringify(state)}`);
    const info = readMp4Info(state.video.data);
    expect([info?.width, info?.height]).toEqual([80, 60]);
    expect(info!.durationSeconds).toBeGreaterThan(4.8);
  }, 60_000);

  it("keeps a story's scene in its shape, any of the six (decision 0149)", async () => {
    const provider = createOfflineVideoProvider({ scale: 0.125 });
    for (const [width, height, expected] of [
      [300, 400, [60, 80]],
      [1600, 900, [80, 46]],
      [1152, 2048, [46, 80]],
      [2048, 878, [80, 34]],
      [500, 500, [60, 60]],
    ] as const) {
      const data = await sharp({ create: { width, height, channels: 3, background: "#336699" } })
        .png()
        .toBuffer();
      const { taskId } = await provider.start({
        prompt: "a slow pan",
        image: { data, mimeType: "image/png" },
        durationSeconds: 5,
      });
      const state = await until(provider, taskId);
      if (state.status !== "succeeded") throw new Error(`video failed: ${JSON.stringify(state)}`);
      const info = readMp4Info(state.video.data);
      expect([info?.width, info?.height]).toEqual(expected);
    }
  }, 60_000);

  it("fails unknown tasks", async () => {
    const provider = createOfflineVideoProvider();
    expect(await provider.poll("offline-nope")).toEqual({ status: "failed", error: "Unknown video task" });
  });

  it("fails a task whose image cannot be read, with a message a user can see", async () => {
    const provider = createOfflineVideoProvider();
    const { taskId } = await provider.start({
      prompt: "broken",
      image: { data: Buffer.from("definitely not an image"), mimeType: "image/png" },
      durationSeconds: 5,
    });
    const state = await until(provider, taskId);
    expect(state.status).toBe("failed");
    if (state.status === "failed") expect(state.error).toMatch(/could not be rendered/);
  });

  it("forgets uncollected results after their time-to-live", async () => {
    const clock = createFakeClock();
    const provider = createOfflineVideoProvider({ clock, retentionMs: 1000 });
    const { taskId } = await provider.start({
      prompt: "broken",
      image: { data: Buffer.from("x"), mimeType: "image/png" },
      durationSeconds: 5,
    });
    // Wait for the (failed) render to finish without polling it, which would count as collecting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    clock.advance(1001);
    expect(await provider.poll(taskId)).toEqual({ status: "failed", error: "Unknown video task" });
  });
});

describe("camera moves asked for (decision 0160)", () => {
  it("makes each move a distinct motion", () => {
    const ends = (move: Parameters<typeof askedMove>[0]) => {
      const path = askedMove(move);
      return { start: shotAt(path, 0), middle: shotAt(path, 0.5), end: shotAt(path, 1) };
    };
    const still = ends("still");
    expect(still.end).toEqual(still.start);
    const pushIn = ends("push_in");
    expect([pushIn.start.zoom, pushIn.end.zoom]).toEqual([1, MAX_ZOOM]);
    expect([pushIn.end.x, pushIn.end.y]).toEqual([0.5, 0.5]);
    const pullOut = ends("pull_out");
    expect([pullOut.start.zoom, pullOut.end.zoom]).toEqual([MAX_ZOOM, 1]);
    const left = ends("pan_left");
    const right = ends("pan_right");
    expect(left.end.x).toBeLessThan(left.start.x);
    expect(right.end.x).toBeGreaterThan(right.start.x);
    expect([left.start.y, left.end.y, left.start.zoom, left.end.zoom]).toEqual([
      0.5,
      0.5,
      MAX_ZOOM,
      MAX_ZOOM,
    ]);
    // An orbit swings across on an arc (the middle off the line between its ends) and leans in on the way.
    const orbit = ends("orbit");
    expect(orbit.end.x).toBeGreaterThan(orbit.start.x);
    expect(Math.abs(orbit.middle.y - (orbit.start.y + orbit.end.y) / 2)).toBeGreaterThan(0.02);
    expect(orbit.middle.zoom).toBeGreaterThan(orbit.start.zoom);
  });

  it("pans over the picture: panning left ends on its left side, panning right on its right", async () => {
    // Dark on the left, bright on the right.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><defs><linearGradient id="g"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient></defs><rect width="400" height="300" fill="url(#g)"/></svg>`;
    const source = await prepareSource(await sharp(Buffer.from(svg)).png().toBuffer(), 80, 60);
    const brightness = (move: "pan_left" | "pan_right", t: number) => {
      const out = new Uint8Array(80 * 60 * 4);
      renderFrame(source, askedMove(move), t, out, 80, 60);
      let sum = 0;
      for (let i = 0; i < out.length; i += 4) sum += out[i]!;
      return sum / (80 * 60);
    };
    expect(brightness("pan_left", 1)).toBeLessThan(brightness("pan_left", 0) - 10);
    expect(brightness("pan_right", 1)).toBeGreaterThan(brightness("pan_right", 0) + 10);
  });
});

describe("readMp4Info", () => {
  it("rejects bytes that are not an MP4", () => {
    expect(readMp4Info(Buffer.from("not a video at all"))).toBeNull();
    expect(readMp4Info(Buffer.alloc(0))).toBeNull();
  });
});
