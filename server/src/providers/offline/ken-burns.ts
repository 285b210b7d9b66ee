// The offline video's camera: a slow, eased Ken Burns pan and zoom across a still image, sampled with
// bilinear filtering in plain JavaScript. Cropping with sharp per frame would snap the window to whole
// pixels and make a slow pan judder; sub-pixel sampling keeps the motion smooth.
import sharp from "sharp";
import type { Rng } from "./seeded";

/** Pixels as little-endian RGB words (0x00BBGGRR), so two channels can be blended per multiply. */
export type Source = { pixels: Uint32Array; width: number; height: number };

/** The camera never zooms in further than this, so the source only needs this much resolution. */
export const MAX_ZOOM = 1.2;

/** Decodes the image once, cover-cropped to the output's aspect at MAX_ZOOM times its size. */
export async function prepareSource(image: Buffer, width: number, height: number): Promise<Source> {
  const w = Math.round(width * MAX_ZOOM);
  const h = Math.round(height * MAX_ZOOM);
  const data = await sharp(image, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize(w, h, { fit: "cover", position: "attention" })
    .flatten({ background: "#000000" })
    .toColourspace("srgb")
    .raw()
    .toBuffer();
  // Packed as 0x00BBGGRR: with the alpha byte left at zero every value fits V8's small integers, which
  // keeps the per-pixel bit arithmetic below on the fast path (0xFF alpha would force doubles).
  const pixels = new Uint32Array(w * h);
  for (let i = 0, j = 0; i < pixels.length; i++, j += 3) {
    pixels[i] = data[j]! | (data[j + 1]! << 8) | (data[j + 2]! << 16);
  }
  return { pixels, width: w, height: h };
}

/** Centre (0..1 of the source) and zoom (1 = the whole frame) at one moment. */
export type Shot = { x: number; y: number; zoom: number };
/** A straight move from one shot to another, or (an orbit) a path through shots by eased progress. */
export type CameraMove = { from: Shot; to: Shot; path?: (e: number) => Shot };

/** The moves a player can ask for (decision 0160), each a distinct motion. */
export type AskedMove = "still" | "push_in" | "pull_out" | "pan_left" | "pan_right" | "orbit";

/**
 * The asked camera move as a path: still holds one framing; push in and pull out zoom on the centre; a pan
 * sweeps the frame sideways at the closest zoom (the camera turning left shows what is left of the picture);
 * an orbit circles the subject: the frame swings from one side to the other along an arc, rising through the
 * middle, while it leans in.
 */
export function askedMove(move: AskedMove): CameraMove {
  const centre = (zoom: number): Shot => ({ x: 0.5, y: 0.5, zoom });
  const room = 0.5 - 0.5 / MAX_ZOOM;
  switch (move) {
    case "still":
      return { from: centre(1), to: centre(1) };
    case "push_in":
      return { from: centre(1), to: centre(MAX_ZOOM) };
    case "pull_out":
      return { from: centre(MAX_ZOOM), to: centre(1) };
    case "pan_left":
      return {
        from: { x: 0.5 + room, y: 0.5, zoom: MAX_ZOOM },
        to: { x: 0.5 - room, y: 0.5, zoom: MAX_ZOOM },
      };
    case "pan_right":
      return {
        from: { x: 0.5 - room, y: 0.5, zoom: MAX_ZOOM },
        to: { x: 0.5 + room, y: 0.5, zoom: MAX_ZOOM },
      };
    case "orbit": {
      const path = (e: number): Shot => {
        const angle = Math.PI * e;
        const zoom = 1.1 + 0.1 * Math.sin(angle);
        const r = 0.5 - 0.5 / zoom;
        return { x: 0.5 - r * Math.cos(angle), y: 0.5 - r * Math.sin(angle), zoom };
      };
      return { from: path(0), to: path(1), path };
    }
  }
}

/** Where the camera is at progress t (0..1): eased along its path. */
export function shotAt(move: CameraMove, t: number): Shot {
  const e = ease(t);
  if (move.path) return move.path(e);
  // Interpolate zoom geometrically so the zoom speed feels constant.
  return {
    zoom: move.from.zoom * (move.to.zoom / move.from.zoom) ** e,
    x: move.from.x + (move.to.x - move.from.x) * e,
    y: move.from.y + (move.to.y - move.from.y) * e,
  };
}

/** Zoom in or out by 10-20% while drifting toward a seeded corner; never shows past the image edge. */
export function planMove(rng: Rng): CameraMove {
  const tight = rng.range(1.1, MAX_ZOOM);
  const zoomIn = rng.chance(0.5);
  const shot = (zoom: number): Shot => {
    const room = 0.5 - 0.5 / zoom;
    return { x: 0.5 + rng.range(-room, room), y: 0.5 + rng.range(-room, room), zoom };
  };
  const wide = shot(1);
  const close = shot(tight);
  return zoomIn ? { from: wide, to: close } : { from: close, to: wide };
}

const ease = (t: number): number => 0.5 - Math.cos(Math.PI * t) / 2;

/** The frame at progress t (0..1) into an RGBA buffer of width x height. */
export function renderFrame(
  source: Source,
  move: CameraMove,
  t: number,
  out: Uint8Array,
  width: number,
  height: number,
): void {
  const shot = shotAt(move, t);
  const zoom = shot.zoom;
  const clamp = (c: number): number => Math.min(1 - 0.5 / zoom, Math.max(0.5 / zoom, c));
  const cx = clamp(shot.x);
  const cy = clamp(shot.y);
  const sw = source.width;
  const sh = source.height;
  const scale = sw / zoom / width;
  const left = cx * sw - (width * scale) / 2;
  const top = cy * sh - (height * scale) / 2;
  const src = source.pixels;
  const dst = new Uint32Array(out.buffer, out.byteOffset, width * height);

  // Bilinear filtering in 1/16 pixel steps with "two channels per multiply" arithmetic: red and blue
  // (then green and alpha) sit 16 bits apart, and four weights summing to 256 never overflow a lane.
  const xIndex = new Int32Array(width);
  const xWeight = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    const sx = Math.min(sw - 1.001, Math.max(0, left + (x + 0.5) * scale - 0.5));
    const x0 = Math.floor(sx);
    xIndex[x] = x0;
    xWeight[x] = Math.round((sx - x0) * 16);
  }
  let o = 0;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(sh - 1.001, Math.max(0, top + (y + 0.5) * scale - 0.5));
    const y0 = Math.floor(sy);
    const wy = Math.round((sy - y0) * 16);
    const iy = 16 - wy;
    const row0 = y0 * sw;
    const row1 = row0 + sw;
    for (let x = 0; x < width; x++) {
      const x0 = xIndex[x]!;
      const wx = xWeight[x]!;
      const ix = 16 - wx;
      const w00 = ix * iy;
      const w01 = wx * iy;
      const w10 = ix * wy;
      const w11 = wx * wy;
      const p00 = src[row0 + x0]!;
      const p01 = src[row0 + x0 + 1]!;
      const p10 = src[row1 + x0]!;
      const p11 = src[row1 + x0 + 1]!;
      const rb =
        ((p00 & 0xff00ff) * w00 +
          (p01 & 0xff00ff) * w01 +
          (p10 & 0xff00ff) * w10 +
          (p11 & 0xff00ff) * w11) >>>
        8;
      const g =
        (((p00 >>> 8) & 0xff) * w00 +
          ((p01 >>> 8) & 0xff) * w01 +
          ((p10 >>> 8) & 0xff) * w10 +
          ((p11 >>> 8) & 0xff) * w11) >>>
        8;
      dst[o++] = (rb & 0xff00ff) | (g << 8) | 0xff000000;
    }
  }
}
