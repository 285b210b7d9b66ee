import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { MediaFile } from "../types";
import { createOfflineImageProvider } from "./image";
import { detectTheme } from "./scene-theme";
import { createRng } from "./seeded";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PROMPT = "a dragon over a castle at night";

describe("offline image provider", () => {
  const provider = createOfflineImageProvider();
  let batch: MediaFile[];

  beforeAll(async () => {
    batch = await provider.generate({ prompt: PROMPT, count: 4, references: [] });
  }, 60_000);

  it("is called offline", () => {
    expect(provider.name).toBe("offline");
  });

  it("paints 2048x1536 PNGs", async () => {
    expect(batch).toHaveLength(4);
    for (const image of batch) {
      expect(image.mimeType).toBe("image/png");
      expect(image.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    }
    const meta = await sharp(batch[0]!.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 2048, 1536]);
  });

  it("makes each image of a batch different", () => {
    const distinct = new Set(batch.map((image) => image.data.toString("base64")));
    expect(distinct.size).toBe(4);
  });

  it("repaints the same prompt byte for byte, and a different prompt differently", async () => {
    const [again] = await provider.generate({ prompt: PROMPT, count: 1, references: [] });
    expect(again!.data.equals(batch[0]!.data)).toBe(true);
    const [other] = await provider.generate({
      prompt: "a desert caravan at sunset",
      count: 1,
      references: [],
    });
    expect(other!.data.equals(batch[0]!.data)).toBe(false);
  }, 60_000);

  it("blends reference images in and skips unreadable ones", async () => {
    const portrait = await sharp({ create: { width: 300, height: 400, channels: 3, background: "#c0392b" } })
      .jpeg()
      .toBuffer();
    const references: MediaFile[] = [
      { data: Buffer.from("not an image"), mimeType: "image/png" },
      { data: portrait, mimeType: "image/jpeg" },
    ];
    const [blended] = await provider.generate({ prompt: PROMPT, count: 1, references });
    expect(blended!.data.equals(batch[0]!.data)).toBe(false);
    // The red reference warms the picture: its mean red rises relative to the plain scene.
    const red = async (png: Buffer): Promise<number> => (await sharp(png).stats()).channels[0]!.mean;
    expect(await red(blended!.data)).toBeGreaterThan((await red(batch[0]!.data)) + 5);
  }, 60_000);

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      provider.generate({ prompt: PROMPT, count: 1, references: [], signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe("scene themes", () => {
  const theme = (prompt: string) => detectTheme(prompt, createRng(1));

  it("reads landscape, time, landmark, creature and weather from the prompt", () => {
    expect(theme("a dragon over a castle at night")).toMatchObject({
      time: "night",
      landmark: "castle",
      flyer: "dragon",
    });
    expect(theme("a neon city in rain")).toMatchObject({ biome: "city", time: "night", weather: "rain" });
    expect(theme("a desert caravan at sunset")).toMatchObject({
      biome: "desert",
      time: "sunset",
      landmark: "caravan",
    });
    expect(theme("a snowy forest cabin")).toMatchObject({
      biome: "snow",
      landmark: "cabin",
      weather: "snowfall",
    });
    expect(theme("a ship on the ocean")).toMatchObject({ biome: "ocean", landmark: "ship" });
    expect(theme("a planet in deep space")).toMatchObject({ biome: "space", time: "night" });
    expect(theme("a knight by the fire")).toMatchObject({ fiery: true, figure: true, weather: "embers" });
  });
});
