// PNG `tEXt` chunks, where character cards travel inside a picture (spec V2: keyword `chara`; spec V3:
// `ccv3`), read and written without decoding the image. APNG has the same chunk layout, so it works alike.
import { crc32 } from "node:zlib";
import { InteropError } from "./errors";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type PngChunk = { type: string; data: Buffer };

export function isPng(bytes: Buffer): boolean {
  return (
    bytes.length >= PNG_SIGNATURE.length && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)
  );
}

/** The chunks in file order; a truncated or malformed chunk list is an InteropError. */
export function readPngChunks(bytes: Buffer): PngChunk[] {
  if (!isPng(bytes)) throw new InteropError("The file is not a PNG image.");
  const chunks: PngChunk[] = [];
  let offset = PNG_SIGNATURE.length;
  while (offset < bytes.length) {
    if (offset + 12 > bytes.length) throw new InteropError("The PNG image is cut short.");
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > bytes.length) throw new InteropError("The PNG image is cut short.");
    chunks.push({ type, data: bytes.subarray(offset + 8, offset + 8 + length) });
    offset = end;
    if (type === "IEND") break;
  }
  if (chunks.at(-1)?.type !== "IEND") throw new InteropError("The PNG image is cut short.");
  return chunks;
}

/** The `tEXt` chunks as keyword -> text (latin1, as the PNG spec defines them); the first of a keyword wins. */
export function readTextChunks(bytes: Buffer): Map<string, string> {
  const texts = new Map<string, string>();
  for (const chunk of readPngChunks(bytes)) {
    if (chunk.type !== "tEXt") continue;
    const separator = chunk.data.indexOf(0);
    if (separator <= 0) continue;
    const keyword = chunk.data.toString("latin1", 0, separator);
    if (!texts.has(keyword)) texts.set(keyword, chunk.data.toString("latin1", separator + 1));
  }
  return texts;
}

/**
 * The PNG with every `tEXt` chunk whose keyword is in `texts` (or in `remove`) taken out, and the given ones
 * inserted just before IEND. Values must be latin1 (cards are base64, so they are).
 */
export function writeTextChunks(bytes: Buffer, texts: Record<string, string>, remove: string[] = []): Buffer {
  const dropped = new Set([...Object.keys(texts), ...remove]);
  const parts: Buffer[] = [PNG_SIGNATURE];
  for (const chunk of readPngChunks(bytes)) {
    if (chunk.type === "tEXt" && dropped.has(textKeyword(chunk.data))) continue;
    if (chunk.type === "IEND") {
      for (const [keyword, text] of Object.entries(texts)) {
        parts.push(
          encodeChunk(
            "tEXt",
            Buffer.concat([Buffer.from(keyword, "latin1"), Buffer.from([0]), Buffer.from(text, "latin1")]),
          ),
        );
      }
    }
    parts.push(encodeChunk(chunk.type, chunk.data));
  }
  return Buffer.concat(parts);
}

function textKeyword(data: Buffer): string {
  const separator = data.indexOf(0);
  return data.toString("latin1", 0, separator < 0 ? data.length : separator);
}

function encodeChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}
