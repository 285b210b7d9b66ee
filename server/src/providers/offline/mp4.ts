// H.264/MP4 for the offline video provider: a thin, serialised wrapper over the h264-mp4-encoder WASM
// build (no ffmpeg, no native binaries), and a tiny MP4 box reader so tests and the provider itself can
// check what came out (brand, duration, frame size).
import type { H264MP4Encoder } from "h264-mp4-encoder";

export type EncodeOptions = {
  width: number;
  height: number;
  frameRate: number;
  /** 10..51, lower is better quality; ~28 keeps a 5 s 640x480 clip well under a megabyte. */
  quantizationParameter: number;
  /** Frames in display order, each width x height x 4 bytes of RGBA (alpha ignored). */
  frames: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
};

let factory: Promise<() => Promise<H264MP4Encoder>> | undefined;

/**
 * Loads the encoder once. Its Emscripten glue registers process-wide "uncaughtException" and
 * "unhandledRejection" handlers that rethrow or abort; those would override the server's own error
 * handling for every unrelated promise, so they are removed again as soon as the module has loaded.
 */
function loadEncoder(): Promise<() => Promise<H264MP4Encoder>> {
  factory ??= (async () => {
    const crashes = new Set(process.listeners("uncaughtException"));
    const rejections = new Set(process.listeners("unhandledRejection"));
    const restore = (): void => {
      for (const listener of process.listeners("uncaughtException")) {
        if (!crashes.has(listener)) process.removeListener("uncaughtException", listener);
      }
      for (const listener of process.listeners("unhandledRejection")) {
        if (!rejections.has(listener)) process.removeListener("unhandledRejection", listener);
      }
    };
    try {
      const module = await import("h264-mp4-encoder");
      restore();
      // CommonJS under ESM: Node puts the functions on the default export, bundlers on the namespace.
      const create = module.createH264MP4Encoder ?? module.default.createH264MP4Encoder;
      // Warm the WASM instance now, still inside the listener guard.
      const probe = await create();
      probe.delete();
      restore();
      return create;
    } catch (error) {
      restore();
      factory = undefined;
      throw error;
    }
  })();
  return factory;
}

/** One encode at a time: the encoders share one WASM heap and file system, and two cores are plenty busy. */
let queue: Promise<unknown> = Promise.resolve();
let sequence = 0;

export function encodeMp4(options: EncodeOptions): Promise<Buffer> {
  const run = queue.then(() => encodeNow(options));
  queue = run.catch(() => undefined);
  return run;
}

async function encodeNow(options: EncodeOptions): Promise<Buffer> {
  if (options.width % 2 !== 0 || options.height % 2 !== 0) {
    throw new Error("H.264 frame dimensions must be even");
  }
  const create = await loadEncoder();
  const encoder = await create();
  const file = `storyverse-offline-${process.pid}-${++sequence}.mp4`;
  try {
    encoder.outputFilename = file;
    encoder.width = options.width;
    encoder.height = options.height;
    encoder.frameRate = options.frameRate;
    encoder.quantizationParameter = options.quantizationParameter;
    // Fastest preset: the frames are smooth pans, so quality barely moves while time halves.
    encoder.speed = 10;
    encoder.groupOfPictures = options.frameRate;
    encoder.initialize();
    const expected = options.width * options.height * 4;
    for await (const frame of options.frames) {
      if (frame.length !== expected) throw new Error(`Frame has ${frame.length} bytes, expected ${expected}`);
      encoder.addFrameRgba(frame);
    }
    encoder.finalize();
    const bytes = encoder.FS.readFile(file);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } finally {
    try {
      encoder.FS.unlink(file);
    } catch {
      // Nothing was written (initialize failed): nothing to clean up.
    }
    encoder.delete();
  }
}

export type Mp4Info = {
  majorBrand: string;
  durationSeconds: number;
  width: number;
  height: number;
};

type Box = { type: string; start: number; end: number };

function* boxes(data: Buffer, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = data.readUInt32BE(offset);
    const type = data.toString("latin1", offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header || offset + size > end) return;
    yield { type, start: offset + header, end: offset + size };
    offset += size;
  }
}

const child = (data: Buffer, parent: Box, type: string): Box | undefined =>
  [...boxes(data, parent.start, parent.end)].find((box) => box.type === type);

/** Reads ftyp, mvhd and the video track's tkhd; null when the bytes are not an MP4 we understand. */
export function readMp4Info(data: Buffer): Mp4Info | null {
  const top = [...boxes(data, 0, data.length)];
  const ftyp = top[0]?.type === "ftyp" ? top[0] : undefined;
  const moov = top.find((box) => box.type === "moov");
  if (!ftyp || !moov) return null;
  const mvhd = child(data, moov, "mvhd");
  if (!mvhd) return null;
  const v1 = data[mvhd.start] === 1;
  const timescale = data.readUInt32BE(mvhd.start + (v1 ? 20 : 12));
  const duration = v1 ? Number(data.readBigUInt64BE(mvhd.start + 24)) : data.readUInt32BE(mvhd.start + 16);
  let width = 0;
  let height = 0;
  for (const trak of boxes(data, moov.start, moov.end)) {
    if (trak.type !== "trak") continue;
    const tkhd = child(data, trak, "tkhd");
    if (!tkhd) continue;
    // Width and height are the last two 16.16 fixed-point fields of tkhd, whatever its version.
    const w = data.readUInt32BE(tkhd.end - 8) / 65536;
    const h = data.readUInt32BE(tkhd.end - 4) / 65536;
    if (w > 0 && h > 0) {
      width = w;
      height = h;
      break;
    }
  }
  return {
    majorBrand: data.toString("latin1", ftyp.start, ftyp.start + 4),
    durationSeconds: timescale > 0 ? duration / timescale : 0,
    width,
    height,
  };
}
