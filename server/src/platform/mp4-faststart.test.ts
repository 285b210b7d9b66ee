// The faststart rewrite: moov moves before mdat and every frame still decodes to the same pixels, for the
// offline encoder's output and for an ffmpeg-written clip with its index at the end (as vendors send).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { encodeMp4 } from "../providers/offline/mp4";
import { runFfmpeg } from "./ffmpeg";
import { faststart, isFaststart, topLevelBoxes } from "./mp4-faststart";

const ffmpeg = loadConfig({}).ffmpeg.path;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-mp4-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const order = (data: Buffer) =>
  topLevelBoxes(data)
    .map((box) => box.type)
    .filter((type) => type === "moov" || type === "mdat");

/** An MD5 of every decoded frame: equal sums mean the same pictures in the same order. */
async function frameSums(data: Buffer, name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, data);
  const out = path.join(dir, `${name}.md5`);
  await runFfmpeg(ffmpeg, ["-v", "error", "-y", "-i", file, "-f", "framemd5", out]);
  return (await readFile(out, "utf8"))
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .join("\n");
}

function* gradientFrames(count: number, width: number, height: number) {
  for (let i = 0; i < count; i += 1) {
    const frame = new Uint8Array(width * height * 4);
    for (let p = 0; p < width * height; p += 1) {
      frame[p * 4] = (p % width) * 4 + i * 8;
      frame[p * 4 + 1] = Math.floor(p / width) * 4;
      frame[p * 4 + 2] = i * 20;
    }
    yield frame;
  }
}

describe("faststart", () => {
  it("moves the WASM encoder's index before the frames, and every frame decodes the same", async () => {
    const raw = await encodeMp4({
      width: 64,
      height: 48,
      frameRate: 12,
      quantizationParameter: 28,
      frames: gradientFrames(12, 64, 48),
    });
    expect(order(raw)).toEqual(["mdat", "moov"]);
    const fixed = faststart(raw);
    expect(order(fixed)).toEqual(["moov", "mdat"]);
    expect(isFaststart(fixed)).toBe(true);
    expect(fixed.length).toBe(raw.length);
    const before = await frameSums(raw, "encoder-raw.mp4");
    expect(before.split("\n")).toHaveLength(12);
    expect(await frameSums(fixed, "encoder-fixed.mp4")).toBe(before);
  });

  it("re-muxes an ffmpeg clip with its index at the end (as vendors send them) without re-encoding", async () => {
    const file = path.join(dir, "vendor.mp4");
    await runFfmpeg(ffmpeg, [
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
    const vendor = await readFile(file);
    expect(order(vendor)).toEqual(["mdat", "moov"]);
    const fixed = faststart(vendor);
    expect(order(fixed)).toEqual(["moov", "mdat"]);
    expect(await frameSums(fixed, "vendor-fixed.mp4")).toBe(await frameSums(vendor, "vendor-raw.mp4"));
    // Already faststart: handed back untouched.
    expect(faststart(fixed)).toBe(fixed);
  });

  it("leaves what it does not understand as it is", () => {
    const garbage = Buffer.from("not an mp4 at all, just words");
    expect(faststart(garbage)).toBe(garbage);
    expect(faststart(Buffer.alloc(0)).length).toBe(0);
  });
});
