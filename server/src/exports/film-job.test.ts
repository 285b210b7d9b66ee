// The film writer's output is faststart (moov before mdat), for a still scene and a clip alike; a narrated
// film (the real offline voice) holds each scene for its narration, with a soundtrack and sentence captions.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import type { AppContext } from "../context";
import { runFfmpeg } from "../platform/ffmpeg";
import { topLevelBoxes } from "../platform/mp4-faststart";
import { createOfflineVoiceProvider } from "../providers/offline/voice";
import { PAN_SECONDS, renderFilm } from "./film-job";

const config = loadConfig({});
const voice = createOfflineVoiceProvider();
let dir: string;
let files: Record<string, Buffer>;
let ctx: Pick<AppContext, "db" | "clock" | "storage" | "log" | "config">;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-film-test-"));
  const picture = await sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 90, b: 160 } },
  })
    .png()
    .toBuffer();
  const clipFile = path.join(dir, "clip.mp4");
  // A 4:3 clip in one colour, which used to be pillar-boxed (black edges) in the 16:9 frame.
  await runFfmpeg(config.ffmpeg.path, [
    "-y",
    "-f",
    "lavfi",
    "-i",
    "color=c=0xc08040:size=160x120:rate=12:duration=1",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    clipFile,
  ]);
  files = { "u/x/scene.png": picture, "u/x/clip.mp4": await readFile(clipFile) };
  ctx = {
    config,
    storage: { read: async (key: string) => files[key]! },
  } as unknown as Pick<AppContext, "db" | "clock" | "storage" | "log" | "config">;
});
afterAll(async () => {
  await voice.close();
  await rm(dir, { recursive: true, force: true });
});

/** The streams ffmpeg reads in a file, with their durations when the file is decoded. */
async function streamsOf(file: string) {
  const log = await runFfmpeg(config.ffmpeg.path, ["-i", file], { allowFailure: true });
  return { video: /Stream #0:\d.*Video:/.test(log), audio: /Stream #0:\d.*Audio: aac/.test(log), log };
}

/** Seconds of a stream in the file, decoded (the last "time=" ffmpeg reports). */
async function decodedSeconds(file: string, stream: "0:v" | "0:a") {
  const log = await runFfmpeg(config.ffmpeg.path, ["-i", file, "-map", stream, "-f", "null", "-"]);
  const times = [...log.matchAll(/time=(\d+):(\d\d):(\d\d(?:\.\d+)?)/g)];
  const last = times.at(-1)!;
  return Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]);
}

describe("renderFilm", () => {
  it("writes a faststart MP4: the index before the frames", async () => {
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
    const top = topLevelBoxes(film.video).map((box) => box.type);
    expect(top[0]).toBe("ftyp");
    expect(top.indexOf("moov")).toBeGreaterThan(-1);
    expect(top.indexOf("moov")).toBeLessThan(top.indexOf("mdat"));
    // No voice: silent, as before.
    const file = path.join(work, "silent.mp4");
    await writeFile(file, film.video);
    expect((await streamsOf(file)).audio).toBe(false);
  });

  it("narrates: scenes last as long as their words, the soundtrack as long as the film, a clip fills the frame", async () => {
    const work = await mkdtemp(path.join(dir, "work-"));
    const long =
      "The rain came down on the harbour all night. Lanterns swung from the masts of the fishing boats. " +
      "Nobody on the quay said a word until morning.";
    const film = await renderFilm(
      ctx,
      [
        {
          number: 1,
          player: "I look",
          narrator: long,
          mode: "image",
          imageKey: "u/x/scene.png",
          videoKey: null,
        },
        {
          number: 2,
          player: "I run",
          narrator: "Run!",
          mode: "video",
          imageKey: null,
          videoKey: "u/x/clip.mp4",
        },
        {
          number: 3,
          player: "I wait",
          narrator: null,
          mode: "image",
          imageKey: "u/x/scene.png",
          videoKey: null,
        },
      ],
      work,
      async () => {},
      {
        provider: voice,
        narratorVoice: voice.defaultVoice,
        cast: [],
        teller: null,
      },
    );
    const file = path.join(work, "film.mp4");
    await writeFile(file, film.video);
    const streams = await streamsOf(file);
    expect(streams.audio).toBe(true);
    expect(streams.log).toMatch(/Subtitle: mov_text/);
    const video = await decodedSeconds(file, "0:v");
    const audio = await decodedSeconds(file, "0:a");
    expect(Math.abs(video - audio)).toBeLessThan(0.1);

    const cues = [
      ...film.captions!.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})\n(.+)/g),
    ].map((m) => ({
      start: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
      end: Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]),
      text: m[7],
    }));
    expect(film.captions!.startsWith("WEBVTT\n")).toBe(true);
    expect(cues.map((cue) => cue.text)).toEqual([
      "The rain came down on the harbour all night.",
      "Lanterns swung from the masts of the fishing boats.",
      "Nobody on the quay said a word until morning.",
      "Run!",
      "I wait",
    ]);
    for (const [index, cue] of cues.entries()) {
      expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.end).toBeLessThanOrEqual(video + 0.05);
      if (index > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[index - 1]!.end);
    }
    // The long narration holds its still beyond the pan's 4 s; the 1 s clip is held for its word.
    expect(cues[2]!.end).toBeGreaterThan(PAN_SECONDS);
    expect(video).toBeGreaterThan(cues[2]!.end + 1 + PAN_SECONDS - 0.2);

    // A frame from the clip's scene: its left and right edges are picture, not black bars.
    const frame = path.join(work, "clip-frame.png");
    await runFfmpeg(config.ffmpeg.path, [
      "-y",
      "-ss",
      String(cues[3]!.start + 0.2),
      "-i",
      file,
      "-frames:v",
      "1",
      frame,
    ]);
    const { data, info } = await sharp(frame).raw().toBuffer({ resolveWithObject: true });
    expect(`${info.width}x${info.height}`).toBe("1280x720");
    const edgeBrightness = (x: number) => {
      let sum = 0;
      for (let y = 0; y < info.height; y++) {
        const at = (y * info.width + x) * info.channels;
        sum += data[at]! + data[at + 1]! + data[at + 2]!;
      }
      return sum / info.height / 3;
    };
    expect(edgeBrightness(2)).toBeGreaterThan(20);
    expect(edgeBrightness(info.width - 3)).toBeGreaterThan(20);
  }, 120_000);
});
