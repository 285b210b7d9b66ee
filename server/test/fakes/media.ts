// Small real media files for the fakes to serve and the tests to send: PNGs made with sharp (so decoders
// accept them) and an MP4 that starts with a proper ftyp box.
import sharp from "sharp";
import type { MediaFile } from "../../src/providers/types";

export async function samplePng(width = 64, height = 48, color = "#3366cc"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export async function sampleReference(color = "#cc6633"): Promise<MediaFile> {
  return { data: await samplePng(32, 32, color), mimeType: "image/png" };
}

/** An ftyp box (isom brand) followed by an empty mdat box: enough for content sniffing. */
export function sampleMp4(): Buffer {
  const ftyp = Buffer.alloc(32);
  ftyp.writeUInt32BE(32, 0);
  ftyp.write("ftypisom", 4, "latin1");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2avc1mp41", 16, "latin1");
  const mdat = Buffer.alloc(16);
  mdat.writeUInt32BE(16, 0);
  mdat.write("mdat", 4, "latin1");
  return Buffer.concat([ftyp, mdat]);
}
