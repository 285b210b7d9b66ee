// The film writer's output is faststart (moov before mdat), for a still scene and a clip alike.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import type { AppContext } from "../context";
import { topLevelBoxes } from "../platform/mp4-faststart";
import { runFfmpeg } from "./ffmpeg";
import { renderFilm } from "./film-job";

const config = loadConfig({});
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-film-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("renderFilm", () => {
  it("writes a faststart MP4: the index before the frames", async () => {
    const picture = await sharp({
      create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 90, b: 160 } },
    })
      .png()
      .toBuffer();
    const clipFile = path.join(dir, "clip.mp4");
    await runFfmpeg(config.ffmpeg.path, [
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=160x120:rate=12:duration=1",
      "-c:v",
      "libx264",
      "-pix_fmt",
      "yuv420p",
      clipFile,
    ]);
    const files: Record<string, Buffer> = {
      "u/x/scene.png": picture,
      "u/x/clip.mp4": await readFile(clipFile),
    };
    const ctx = {
      config,
      storage: { read: async (key: string) => files[key]! },
    } as unknown as Pick<AppContext, "db" | "clock" | "storage" | "log" | "config">;
    const work = await mkdtemp(path.join(dir, "work-"));
    const film = await renderFilm(
      ctx,
      [
        {
          number: 1,
          player: "I look",
          narrator: "A *blue* sky.",
          mode: "image",
          imageKey: "u/x/scene.png",
          videoKey: null,
        },
        {
          number: 2,
          player: "I run",
          narrator: "The world moves.",
          mode: "video",
          imageKey: null,
          videoKey: "u/x/clip.mp4",
        },
      ],
      work,
      async () => {},
    );
    const top = topLevelBoxes(film).map((box) => box.type);
    expect(top[0]).toBe("ftyp");
    expect(top.indexOf("moov")).toBeGreaterThan(-1);
    expect(top.indexOf("moov")).toBeLessThan(top.indexOf("mdat"));
  });
});
