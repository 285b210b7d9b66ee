// The offline painter's edits: an inpaint changes the masked pixels only, an outpaint grows the canvas on the
// asked side keeping the picture, a variation differs more when strong, and upscale doubles a 2K picture to 4K.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { editOffline, paintScene } from "./image-edit";

const PROMPT = "a lighthouse on a cliff at dusk";
let source: Buffer;
const raw = async (png: Buffer) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

beforeAll(async () => {
  const scene = await paintScene(PROMPT, 7, 256, 192);
  source = await sharp(scene.data, { raw: { width: 256, height: 192, channels: 4 } })
    .png()
    .toBuffer();
});

describe("offline picture edits", () => {
  it("inpaint repaints the masked square and leaves every other pixel bit-identical", async () => {
    // A mask with an opaque square (64..127, 48..111) on a transparent field.
    const mask = await sharp({ create: { width: 256, height: 192, channels: 4, background: "#00000000" } })
      .composite([
        {
          input: await sharp({ create: { width: 64, height: 64, channels: 4, background: "#ffffffff" } })
            .png()
            .toBuffer(),
          left: 64,
          top: 48,
        },
      ])
      .png()
      .toBuffer();
    const out = await editOffline({
      kind: "inpaint",
      image: { data: source, mimeType: "image/png" },
      prompt: "a red dragon",
      mask,
      seed: 99,
    });
    const before = await raw(source);
    const after = await raw(out.data);
    expect(after.info.width).toBe(256);
    let changedInside = 0;
    for (let y = 0; y < 192; y++) {
      for (let x = 0; x < 256; x++) {
        const i = (y * 256 + x) * 4;
        const inside = x >= 64 && x < 128 && y >= 48 && y < 112;
        const same = after.data.subarray(i, i + 4).equals(before.data.subarray(i, i + 4));
        if (!inside) expect(same, `pixel ${x},${y} outside the mask changed`).toBe(true);
        else if (!same) changedInside++;
      }
    }
    expect(changedInside).toBeGreaterThan(64 * 64 * 0.5);
  });

  it("refuses a mask of another size", async () => {
    const mask = await sharp({ create: { width: 10, height: 10, channels: 4, background: "#ffffffff" } })
      .png()
      .toBuffer();
    await expect(
      editOffline({
        kind: "inpaint",
        image: { data: source, mimeType: "image/png" },
        prompt: "x",
        mask,
        seed: 1,
      }),
    ).rejects.toThrow("it must be the picture's size, 256x192");
  });

  it("outpaint grows the canvas a quarter to the right and keeps the picture on the left", async () => {
    const out = await editOffline({
      kind: "outpaint",
      image: { data: source, mimeType: "image/png" },
      prompt: PROMPT,
      direction: "right",
      seed: 3,
    });
    const after = await raw(out.data);
    expect([after.info.width, after.info.height]).toEqual([320, 192]);
    const before = await raw(source);
    for (let y = 0; y < 192; y += 7) {
      const a = after.data.subarray(y * 320 * 4, y * 320 * 4 + 256 * 4);
      expect(a.equals(before.data.subarray(y * 256 * 4, (y + 1) * 256 * 4))).toBe(true);
    }
  });

  it("a strong variation moves further from the picture than a subtle one, and a seed repeats it", async () => {
    const image = { data: source, mimeType: "image/png" };
    const subtle = await editOffline({ kind: "vary", image, prompt: PROMPT, strength: "subtle", seed: 11 });
    const strong = await editOffline({ kind: "vary", image, prompt: PROMPT, strength: "strong", seed: 11 });
    const again = await editOffline({ kind: "vary", image, prompt: PROMPT, strength: "subtle", seed: 11 });
    expect(again.data.equals(subtle.data)).toBe(true);
    const before = (await raw(source)).data;
    const distance = async (png: Buffer) => {
      const d = (await raw(png)).data;
      let sum = 0;
      for (let i = 0; i < d.length; i++) sum += Math.abs(d[i]! - before[i]!);
      return sum;
    };
    const [s, g] = [await distance(subtle.data), await distance(strong.data)];
    expect(s).toBeGreaterThan(0);
    expect(g).toBeGreaterThan(s * 2);
  });

  it("upscale takes a 2K picture to 4K: both sides doubled", async () => {
    const twoK = await sharp({ create: { width: 2048, height: 1536, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const out = await editOffline({
      kind: "upscale",
      image: { data: twoK, mimeType: "image/png" },
      prompt: "",
      seed: 1,
    });
    const meta = await sharp(out.data).metadata();
    expect([meta.width, meta.height]).toEqual([4096, 3072]);
  }, 60_000);
});
