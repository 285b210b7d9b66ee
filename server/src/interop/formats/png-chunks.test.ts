// PNG text chunks: read as written, written with correct CRCs, and a non-PNG refused.
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { InteropError } from "./errors";
import { readPngChunks, readTextChunks, writeTextChunks } from "./png-chunks";

const tinyPng = () =>
  sharp({ create: { width: 3, height: 3, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();

describe("PNG text chunks", () => {
  it("writes tEXt chunks before IEND with CRCs a decoder accepts, and reads them back", async () => {
    const png = writeTextChunks(await tinyPng(), { chara: "YWJj", ccv3: "ZGVm" });
    const chunks = readPngChunks(png);
    expect(chunks.map((chunk) => chunk.type).slice(-3)).toEqual(["tEXt", "tEXt", "IEND"]);
    for (let offset = 8; offset < png.length; ) {
      const length = png.readUInt32BE(offset);
      expect(png.readUInt32BE(offset + 8 + length)).toBe(
        crc32(png.subarray(offset + 4, offset + 8 + length)),
      );
      offset += 12 + length;
    }
    expect(Object.fromEntries(readTextChunks(png))).toEqual({ chara: "YWJj", ccv3: "ZGVm" });
    expect((await sharp(png).raw().toBuffer()).length).toBe(27);
  });

  it("replaces chunks of the same keyword and removes the ones asked for", async () => {
    const once = writeTextChunks(await tinyPng(), { chara: "one", Comment: "keep me", other: "drop me" });
    const twice = writeTextChunks(once, { chara: "two" }, ["other"]);
    expect(Object.fromEntries(readTextChunks(twice))).toEqual({ Comment: "keep me", chara: "two" });
  });

  it("refuses bytes that are not a PNG", () => {
    expect(() => readPngChunks(Buffer.from("GIF89a"))).toThrow(InteropError);
    expect(() => readPngChunks(Buffer.from("GIF89a"))).toThrow("The file is not a PNG image.");
  });
});
