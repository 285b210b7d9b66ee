// The offline painter reads each reference by its role (decision 0161): the same picture as content, style or
// character makes a different scene, in the ways a person looking at them would see.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { ReferenceImage, ReferenceRole } from "../types";
import { createOfflineImageProvider } from "./image";

const PROMPT = "a quiet valley at dawn";
const provider = createOfflineImageProvider({ scale: 0.125 });

/** A 64x64 picture: red on its left half, dark on the right (its weight sits on the left). */
async function redOnLeft(): Promise<Buffer> {
  const half = await sharp({ create: { width: 32, height: 64, channels: 3, background: "#e01010" } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 64, height: 64, channels: 3, background: "#101010" } })
    .composite([{ input: half, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

async function paintWith(role: ReferenceRole | undefined): Promise<Buffer> {
  const reference: ReferenceImage = {
    data: await redOnLeft(),
    mimeType: "image/png",
    ...(role ? { role } : {}),
  };
  const [picture] = await provider.generate({ prompt: PROMPT, count: 1, seed: 3, references: [reference] });
  return picture!.data;
}

async function raw(png: Buffer) {
  return sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

/** How many pixels differ between two pictures of the same size. */
async function changed(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = [await raw(a), await raw(b)];
  let count = 0;
  for (let i = 0; i < x.data.length; i += 3) {
    if (Math.abs(x.data[i]! - y.data[i]!) + Math.abs(x.data[i + 1]! - y.data[i + 1]!) > 24) count++;
  }
  return count;
}

/** How far red leads green and blue over the whole picture. */
async function redLead(png: Buffer): Promise<number> {
  const [r, g, b] = (await sharp(png).stats()).channels.map((c) => c.mean);
  return r! - (g! + b!) / 2;
}

describe("offline painter: references by role", () => {
  it("paints a content reference as before: an unmarked one and one marked content give the same bytes", async () => {
    expect((await paintWith(undefined)).equals(await paintWith("content"))).toBe(true);
  });

  it("a style reference tints the palette harder than the same picture as content", async () => {
    const content = await paintWith("content");
    const style = await paintWith("style");
    expect(await changed(content, style)).toBeGreaterThan(500);
    expect(await redLead(style)).toBeGreaterThan(await redLead(content));
  });

  it("a character reference puts a figure in the character's colour into the scene", async () => {
    const none = (await provider.generate({ prompt: PROMPT, count: 1, seed: 3, references: [] }))[0]!.data;
    const character = await paintWith("character");
    // The valley has no traveler of its own: the character's figure is new, and red like the character.
    const { data, info } = await raw(character);
    const before = await raw(none);
    let redFigure = 0;
    for (let i = 0; i < data.length; i += 3) {
      const red = data[i]! > 150 && data[i + 1]! < 90 && data[i + 2]! < 90;
      const redBefore = before.data[i]! > 150 && before.data[i + 1]! < 90 && before.data[i + 2]! < 90;
      if (red && !redBefore) redFigure++;
    }
    expect(info.width).toBe(256);
    expect(redFigure).toBeGreaterThan(30);
    expect(await changed(await paintWith("content"), character)).toBeGreaterThan(30);
  });
});
