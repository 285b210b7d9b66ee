// The offline video provider: animates the scene image into a real 5-second H.264 MP4 (a slow Ken Burns
// move, 640x480 at 24 fps for a 4:3 first frame; any other shape keeps its own, 640 px on the long side, so a
// story's scene in any of its six shapes keeps it) with a WASM encoder, no network. Like a vendor's task API,
// start() returns at once and poll() reports progress; results live in a small in-memory map that forgets
// them after they have been collected (plus a grace period) or after a longer time-to-live if nobody asks.
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { type Clock, systemClock } from "../../platform/clock";
import { faststart } from "../../platform/mp4-faststart";
import type { CameraMove, VideoProvider, VideoRequest, VideoTaskState } from "../types";
import { askedMove, planMove, prepareSource, renderFrame } from "./ken-burns";
import { encodeMp4, readMp4Info } from "./mp4";
import { createRng, hashString } from "./seeded";

export const VIDEO_WIDTH = 640;
export const VIDEO_HEIGHT = 480;
export const VIDEO_FPS = 24;
const QUANTIZATION = 28;

export type OfflineVideoOptions = {
  clock?: Clock;
  /** The clip's size as a fraction of 640x480 (load and scale tests); the length stays 5 s at 24 fps. */
  scale?: number | undefined;
  /** How long a collected result stays available for a repeated poll. */
  collectedGraceMs?: number;
  /** How long a finished result waits for its first poll before it is dropped. */
  retentionMs?: number;
  /** Finished results kept at most; the oldest go first. */
  maxFinished?: number;
};

type Task = { state: VideoTaskState; finishedAt?: number; collectedAt?: number };

/**
 * The clip's size for its first frame's shape (decision 0149: any of the six a picture can take): 640 px on the
 * long side, the short side from the picture's ratio (held between 21:9 and 9:21); a square one is 480x480, as
 * many pixels as the 4:3 clip's to encode. So 4:3 is 640x480, 3:4 480x640, 16:9 640x360, 9:16 360x640, 21:9
 * 640x274.
 */
async function clipSize(image: Buffer): Promise<{ width: number; height: number }> {
  const { width = VIDEO_WIDTH, height = VIDEO_HEIGHT } = await sharp(image, { limitInputPixels: 50_000_000 })
    .metadata()
    .catch(() => ({ width: VIDEO_WIDTH, height: VIDEO_HEIGHT }));
  const ratio = Math.min(21 / 9, Math.max(9 / 21, width / height));
  if (Math.abs(ratio - 1) < 0.02) return { width: VIDEO_HEIGHT, height: VIDEO_HEIGHT };
  if (ratio > 1) return { width: VIDEO_WIDTH, height: Math.round(VIDEO_WIDTH / ratio) };
  return { width: Math.round(VIDEO_WIDTH * ratio), height: VIDEO_WIDTH };
}

/** The last part of a clip with a last frame: the moving first picture dissolves into the last one. */
export const LAST_FRAME_FADE_SECONDS = 1.5;

export type ClipOptions = {
  /** The camera's move (decision 0160); absent: a seeded slow zoom and drift, as a story's clips have. */
  camera?: CameraMove | undefined;
  /** The picture the clip ends on: its final frame is this picture, whole, reached by a crossfade. */
  lastFrame?: Buffer | undefined;
};

/** The whole clip as MP4 bytes: one decode, then 120 sampled frames streamed into the encoder. */
export async function renderKenBurns(
  image: Buffer,
  prompt: string,
  seconds: number,
  scale = 1,
  options: ClipOptions = {},
): Promise<Buffer> {
  // H.264 needs even sides.
  const even = (side: number) => Math.max(16, 2 * Math.round((side * scale) / 2));
  const size = await clipSize(image);
  const width = even(size.width);
  const height = even(size.height);
  const source = await prepareSource(image, width, height);
  const move = options.camera
    ? askedMove(options.camera)
    : planMove(createRng(hashString(`${prompt}\u0000video`)));
  const total = Math.round(seconds * VIDEO_FPS);
  const frame = new Uint8Array(width * height * 4);
  // The last picture, held whole and still (zoom 1 on its centre), blended in over the fade's frames.
  const last = options.lastFrame ? await prepareSource(options.lastFrame, width, height) : undefined;
  const lastFrame = new Uint8Array(last ? width * height * 4 : 0);
  if (last) {
    const whole = { x: 0.5, y: 0.5, zoom: 1 };
    renderFrame(last, { from: whole, to: whole }, 0, lastFrame, width, height);
  }
  const fadeFrames = Math.min(total - 1, Math.round(LAST_FRAME_FADE_SECONDS * VIDEO_FPS));
  async function* frames(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < total; i++) {
      renderFrame(source, move, total > 1 ? i / (total - 1) : 0, frame, width, height);
      const into = i - (total - 1 - fadeFrames);
      if (last && into > 0) blend(frame, lastFrame, Math.round((256 * into) / fadeFrames));
      yield frame;
      // Let the server answer requests between frames instead of blocking for the whole clip.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  const mp4 = await encodeMp4({
    width,
    height,
    frameRate: VIDEO_FPS,
    quantizationParameter: QUANTIZATION,
    frames: frames(),
  });
  // The encoder writes its index last; players want it first, to start before the whole file is in.
  return faststart(mp4);
}

/** frame = frame * (256 - weight) / 256 + over * weight / 256, per byte (weight 256: `over` exactly). */
function blend(frame: Uint8Array, over: Uint8Array, weight: number): void {
  const keep = 256 - weight;
  for (let i = 0; i < frame.length; i++) frame[i] = (frame[i]! * keep + over[i]! * weight) >> 8;
}

export function createOfflineVideoProvider(options: OfflineVideoOptions = {}): VideoProvider {
  const clock = options.clock ?? systemClock;
  const collectedGraceMs = options.collectedGraceMs ?? 60_000;
  const retentionMs = options.retentionMs ?? 30 * 60_000;
  const maxFinished = options.maxFinished ?? 50;
  const tasks = new Map<string, Task>();

  const prune = (): void => {
    const now = clock.now().getTime();
    const finished: [string, Task][] = [];
    for (const [id, task] of tasks) {
      if (task.finishedAt === undefined) continue;
      const expired =
        (task.collectedAt !== undefined && now - task.collectedAt > collectedGraceMs) ||
        now - task.finishedAt > retentionMs;
      if (expired) tasks.delete(id);
      else finished.push([id, task]);
    }
    finished.sort((a, b) => a[1].finishedAt! - b[1].finishedAt!);
    for (const [id] of finished.slice(0, Math.max(0, finished.length - maxFinished))) tasks.delete(id);
  };

  const render = async (id: string, request: VideoRequest): Promise<void> => {
    const task = tasks.get(id)!;
    try {
      const data = await renderKenBurns(
        request.image.data,
        request.prompt,
        request.durationSeconds,
        options.scale,
        { camera: request.camera, lastFrame: request.lastFrame?.data },
      );
      // Never hand out a file the browser would choke on.
      if (!readMp4Info(data)) throw new Error("Encoder produced no playable MP4");
      task.state = { status: "succeeded", video: { data, mimeType: "video/mp4" } };
    } catch {
      task.state = { status: "failed", error: "The offline video could not be rendered from this image." };
    }
    task.finishedAt = clock.now().getTime();
    prune();
  };

  return {
    name: "offline",
    // The offline animator really makes both: distinct camera paths, and a crossfade onto the last frame.
    clipFeatures: { lastFrame: true, camera: true },
    async start(request: VideoRequest): Promise<{ taskId: string }> {
      request.signal?.throwIfAborted();
      prune();
      const taskId = `offline-${randomUUID()}`;
      tasks.set(taskId, { state: { status: "pending" } });
      // Rendering outlives the start() call, like a vendor task; the caller's signal only guards start().
      setImmediate(() => void render(taskId, request));
      return { taskId };
    },
    async poll(taskId: string, signal?: AbortSignal): Promise<VideoTaskState> {
      signal?.throwIfAborted();
      prune();
      const task = tasks.get(taskId);
      if (!task) return { status: "failed", error: "Unknown video task" };
      if (task.finishedAt !== undefined) task.collectedAt ??= clock.now().getTime();
      return task.state;
    },
  };
}
