// The repaint mask: strokes painted in a picture's pixels become a PNG of the picture's size whose alpha is
// opaque exactly where the brush went (the server repaints alpha >= 128), whatever the screen's scale.
import { describe, expect, it } from "vitest";
import { encodeMaskPng, type MaskStroke, maskDataUrl, paintedPixels, rasterizeMask } from "./mask";

/** Reads back an 8-bit RGBA PNG made without filters: its size and each pixel's alpha. */
async function decodePng(png: Uint8Array) {
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  const types: string[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    types.push(type);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      expect([...data.subarray(8)]).toEqual([8, 6, 0, 0, 0]);
    }
    if (type === "IDAT") idat.push(data);
    offset += 12 + length;
  }
  expect(types).toEqual(["IHDR", "IDAT", "IEND"]);
  const decompression = new DecompressionStream("deflate");
  const writer = decompression.writable.getWriter();
  for (const part of idat) void writer.write(part as Uint8Array<ArrayBuffer>);
  void writer.close();
  const inflated = new Uint8Array(await new Response(decompression.readable).arrayBuffer());
  const stride = width * 4 + 1;
  expect(inflated.length).toBe(stride * height);
  const alpha = (x: number, y: number) => inflated[y * stride + 1 + x * 4 + 3]!;
  return { width, height, alpha, png };
}

const painted = (mask: Uint8Array, width: number) =>
  [...mask].flatMap((value, i) => (value === 255 ? [`${i % width},${Math.floor(i / width)}`] : []));

describe("the repaint mask", () => {
  it("paints the pixels whose centres lie within the brush's radius of its path, and nothing else", () => {
    const dab: MaskStroke = { mode: "paint", radius: 1, points: [{ x: 5, y: 5 }] };
    // Centres (4.5,4.5), (5.5,4.5), (4.5,5.5), (5.5,5.5) are 0.71 px away; the next ones 1.58.
    expect(painted(rasterizeMask([dab], 10, 8), 10)).toEqual(["4,4", "5,4", "4,5", "5,5"]);

    const line: MaskStroke = {
      mode: "paint",
      radius: 0.4,
      points: [
        { x: 1, y: 2.5 },
        { x: 6, y: 2.5 },
      ],
    };
    expect(painted(rasterizeMask([line], 10, 8), 10)).toEqual(["1,2", "2,2", "3,2", "4,2", "5,2"]);
  });

  it("erases what earlier strokes painted, and keeps strokes inside the picture", () => {
    const strokes: MaskStroke[] = [
      {
        mode: "paint",
        radius: 100,
        points: [
          { x: 0, y: 0 },
          { x: 12, y: 10 },
        ],
      },
      { mode: "erase", radius: 2, points: [{ x: 6, y: 5 }] },
    ];
    const mask = rasterizeMask(strokes, 12, 10);
    expect(mask.length).toBe(120);
    expect(paintedPixels(mask)).toBe(120 - 12);
    expect(mask[5 * 12 + 6]).toBe(0);
    expect(mask[0]).toBe(255);
  });

  it("encodes a PNG of the picture's size: opaque where painted, transparent elsewhere", async () => {
    const strokes: MaskStroke[] = [
      {
        mode: "paint",
        radius: 3,
        points: [
          { x: 10, y: 10 },
          { x: 30, y: 12 },
        ],
      },
    ];
    const mask = rasterizeMask(strokes, 64, 48);
    const decoded = await decodePng(await encodeMaskPng(mask, 64, 48));
    expect([decoded.width, decoded.height]).toEqual([64, 48]);
    let opaque = 0;
    for (let y = 0; y < 48; y++) {
      for (let x = 0; x < 64; x++) {
        const alpha = decoded.alpha(x, y);
        expect(alpha).toBe(mask[y * 64 + x] === 255 ? 255 : 0);
        if (alpha === 255) opaque++;
      }
    }
    expect(opaque).toBe(paintedPixels(mask));
    expect(opaque).toBeGreaterThan(100);
    // The IEND chunk's CRC is the one every PNG carries: the checksums are right.
    expect([...decoded.png.subarray(-4)]).toEqual([0xae, 0x42, 0x60, 0x82]);
  });

  it("makes a data URL the edit call takes, small at 2K (mostly transparent compresses)", async () => {
    const url = await maskDataUrl([{ mode: "paint", radius: 80, points: [{ x: 1000, y: 700 }] }], 2048, 1536);
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    const bytes = Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
    const decoded = await decodePng(bytes);
    expect([decoded.width, decoded.height]).toEqual([2048, 1536]);
    expect(decoded.alpha(1000, 700)).toBe(255);
    expect(decoded.alpha(1200, 700)).toBe(0);
    expect(url.length).toBeLessThan(200_000);
  });
});
