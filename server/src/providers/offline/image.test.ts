import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { MediaFile } from "../types";
import { createOfflineImageProvider, cropLeft } from "./image";
import { dominantColours } from "./references";
import { detectTheme } from "./scene-theme";
import { createRng } from "./seeded";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PROMPT = "a dragon over a castle at night";

/** How far one channel (0 red, 1 green, 2 blue) leads the other two, over the whole picture. */
async function lead(png: Buffer, channel: 0 | 1 | 2): Promise<number> {
  const means = (await sharp(png).stats()).channels.slice(0, 3).map((c) => c.mean);
  const others = means.filter((_, i) => i !== channel);
  return means[channel]! - (others[0]! + others[1]!) / 2;
}

describe("offline image provider", () => {
  const provider = createOfflineImageProvider();
  let batch: MediaFile[];

  beforeAll(async () => {
    batch = await provider.generate({ prompt: PROMPT, count: 4, references: [] });
  }, 60_000);

  it("paints smaller pictures at OFFLINE_MEDIA_SCALE, for load tests", async () => {
    const [small] = await createOfflineImageProvider({ scale: 0.125 }).generate({
      prompt: PROMPT,
      count: 1,
      references: [],
    });
    const meta = await sharp(small!.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 256, 192]);
  });

  it("paints a story's 16:9 and 3:4 scenes in their shape at 2K, from the same world", async () => {
    for (const [aspectRatio, size] of [
      ["16:9", [2048, 1152]],
      ["3:4", [1536, 2048]],
    ] as const) {
      const [picture] = await provider.generate({ prompt: PROMPT, count: 1, references: [], aspectRatio });
      const meta = await sharp(picture!.data).metadata();
      expect([meta.format, meta.width, meta.height], aspectRatio).toEqual(["png", ...size]);
    }
    const [small] = await createOfflineImageProvider({ scale: 0.125 }).generate({
      prompt: PROMPT,
      count: 1,
      references: [],
      aspectRatio: "3:4",
    });
    const meta = await sharp(small!.data).metadata();
    expect([meta.width, meta.height]).toEqual([192, 256]);
  }, 60_000);

  it("paints every shape 2K on the long side (decision 0149), upright ones upright", async () => {
    const expected = {
      "1:1": [2048, 2048],
      "4:3": [2048, 1536],
      "3:4": [1536, 2048],
      "16:9": [2048, 1152],
      "9:16": [1152, 2048],
      "21:9": [2048, 878],
    } as const;
    for (const [aspectRatio, size] of Object.entries(expected) as [
      keyof typeof expected,
      readonly number[],
    ][]) {
      const [picture] = await provider.generate({
        prompt: PROMPT,
        count: 1,
        references: [],
        aspectRatio,
        seed: 7,
      });
      const meta = await sharp(picture!.data).metadata();
      expect([meta.format, meta.width, meta.height], aspectRatio).toEqual(["png", ...size]);
    }
  }, 120_000);

  it("repeats a seed exactly, paints another seed differently, and a batch's picture i is seed + i", async () => {
    const small = createOfflineImageProvider({ scale: 0.25 });
    const ask = (seed: number, count = 1, prompt = PROMPT) =>
      small.generate({ prompt, count, references: [], aspectRatio: "9:16", seed });
    const [one] = await ask(123_456);
    const [again] = await ask(123_456);
    const [other] = await ask(123_457);
    const [changedPrompt] = await ask(123_456, 1, "a dragon over a castle at dawn, in the rain");
    expect(again!.data.equals(one!.data)).toBe(true);
    expect(other!.data.equals(one!.data)).toBe(false);
    expect(changedPrompt!.data.equals(one!.data)).toBe(false);
    // The second picture of a batch seeded 123456 is the picture seeded 123457 alone.
    const batchOfTwo = await ask(123_456, 2);
    expect(batchOfTwo[0]!.data.equals(one!.data)).toBe(true);
    expect(batchOfTwo[1]!.data.equals(other!.data)).toBe(true);
    // The largest seed wraps to 0 for the next picture rather than leaving 32 bits.
    const wrapped = await ask(4_294_967_295, 2);
    const [zero] = await ask(0);
    expect(wrapped[1]!.data.equals(zero!.data)).toBe(true);
  }, 60_000);

  it("cuts a narrower shape around the scene's subject, on the cut's nearer third, inside the scene", () => {
    // A 9:16 cut (1152 wide) of a scene painted 2731 wide: a landmark at 0.7 across stands two thirds in.
    const left = cropLeft(0.7, 2731, 1152);
    expect(0.7 * 2731 - left).toBeCloseTo((2 / 3) * 1152, 0);
    expect(cropLeft(0.3, 2731, 1152)).toBe(Math.round(0.3 * 2731 - 1152 / 3));
    // Never outside the scene; a cut as wide as the scene starts at 0.
    expect(cropLeft(0.98, 2731, 1152)).toBe(2731 - 1152);
    expect(cropLeft(0.01, 2731, 1152)).toBe(0);
    expect(cropLeft(0.7, 2048, 2048)).toBe(0);
  });

  it("declares that it takes seeds", () => {
    expect(provider.takesSeed).toBe(true);
  });

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

  it("lets a red reference make the scene measurably redder, skipping unreadable ones", async () => {
    const portrait = await sharp({ create: { width: 300, height: 400, channels: 3, background: "#c0392b" } })
      .jpeg()
      .toBuffer();
    const references: MediaFile[] = [
      { data: Buffer.from("not an image"), mimeType: "image/png" },
      { data: portrait, mimeType: "image/jpeg" },
    ];
    const [blended] = await provider.generate({ prompt: PROMPT, count: 1, references });
    expect(await lead(blended!.data, 0)).toBeGreaterThan((await lead(batch[0]!.data, 0)) + 10);
  }, 60_000);

  it("never pastes a reference into the picture", async () => {
    // A pure green no scene palette contains: a pasted photo, thumbnail or wash would bring its pixels.
    const green = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#00ff00" } })
      .png()
      .toBuffer();
    const [image] = await provider.generate({
      prompt: PROMPT,
      count: 1,
      references: [{ data: green, mimeType: "image/png" }],
    });
    const { data } = await sharp(image!.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let pasted = 0;
    for (let i = 0; i < data.length; i += 3) {
      if (data[i]! < 60 && data[i + 1]! > 200 && data[i + 2]! < 60) pasted++;
    }
    expect(pasted).toBe(0);
    // It still steers the colours: the scene is greener than without it.
    expect(await lead(image!.data, 1)).toBeGreaterThan((await lead(batch[0]!.data, 1)) + 5);
  }, 60_000);

  it("puts the scene's light on the side where the reference's light is", async () => {
    const lit = (cx: number) =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#101820"/><circle cx="${cx}" cy="110" r="70" fill="#fff2c0"/></svg>`,
        ),
      )
        .png()
        .toBuffer();
    // Brightness of the left half minus the right half of the picture.
    const leftLead = async (png: Buffer): Promise<number> => {
      const half = async (left: number): Promise<number> => {
        const part = await sharp(png).extract({ left, top: 0, width: 1024, height: 1536 }).toBuffer();
        const { channels } = await sharp(part).stats();
        return channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0);
      };
      return (await half(0)) - (await half(1024));
    };
    const paintWith = async (reference: Buffer) =>
      (
        await provider.generate({
          prompt: "a lighthouse on the coast at sunset",
          count: 1,
          references: [{ data: reference, mimeType: "image/png" }],
        })
      )[0]!.data;
    const left = await paintWith(await lit(60));
    const right = await paintWith(await lit(340));
    expect(await leftLead(left)).toBeGreaterThan((await leftLead(right)) + 50);
  }, 60_000);

  it("finds an image's dominant colours, the most prominent first", async () => {
    // Three quarters blue, one quarter orange.
    const image = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#1e40af"/><rect width="100" height="400" fill="#f97316"/></svg>`,
      ),
    )
      .png()
      .toBuffer();
    const colours = await dominantColours(image, 3);
    expect(colours.length).toBeGreaterThanOrEqual(2);
    const near = (hex: string, target: [number, number, number]): boolean => {
      const v = Number.parseInt(hex.slice(1), 16);
      return Math.hypot((v >> 16) - target[0], ((v >> 8) & 255) - target[1], (v & 255) - target[2]) < 30;
    };
    expect(near(colours[0]!, [0x1e, 0x40, 0xaf])).toBe(true);
    expect(near(colours[1]!, [0xf9, 0x73, 0x16])).toBe(true);
    expect(await dominantColours(Buffer.from("not an image"))).toEqual([]);
  });

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
