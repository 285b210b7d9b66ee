// The repaint mask (issue 45 item 1, decisions 0145 and 0148): the brush strokes a player draws over a picture,
// kept in the picture's own pixels, made into the PNG the edit call takes: the picture's size, opaque white
// where the region is to be repainted, transparent elsewhere (the server repaints alpha >= 128). The strokes
// are rasterised here in plain code, not read back from the on-screen canvas, so what is sent does not depend
// on the screen's scale and can be tested without a browser.

export interface MaskPoint {
  x: number;
  y: number;
}

export interface MaskStroke {
  /** paint adds to the region, erase takes from it; later strokes win. */
  mode: "paint" | "erase";
  /** The brush's radius in the picture's pixels. */
  radius: number;
  /** The brush's path in the picture's pixels (one point is a dab). */
  points: MaskPoint[];
}

/** The squared distance from (px, py) to the segment a-b. */
function distanceSquared(px: number, py: number, a: MaskPoint, b: MaskPoint): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / length));
  const cx = a.x + t * dx - px;
  const cy = a.y + t * dy - py;
  return cx * cx + cy * cy;
}

/**
 * One byte a pixel, row by row: 255 where the strokes leave the region painted, 0 elsewhere. A pixel belongs
 * to a stroke when its centre lies within the brush's radius of the stroke's path.
 */
export function rasterizeMask(strokes: readonly MaskStroke[], width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const stroke of strokes) {
    const value = stroke.mode === "paint" ? 255 : 0;
    const r = stroke.radius;
    const points = stroke.points.length === 1 ? [stroke.points[0]!, stroke.points[0]!] : stroke.points;
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      const left = Math.max(0, Math.floor(Math.min(a.x, b.x) - r));
      const right = Math.min(width - 1, Math.ceil(Math.max(a.x, b.x) + r));
      const top = Math.max(0, Math.floor(Math.min(a.y, b.y) - r));
      const bottom = Math.min(height - 1, Math.ceil(Math.max(a.y, b.y) + r));
      for (let y = top; y <= bottom; y++) {
        for (let x = left; x <= right; x++) {
          if (distanceSquared(x + 0.5, y + 0.5, a, b) <= r * r) mask[y * width + x] = value;
        }
      }
    }
  }
  return mask;
}

/** How many pixels the mask repaints. */
export function paintedPixels(mask: Uint8Array): number {
  let count = 0;
  for (const value of mask) if (value >= 128) count++;
  return count;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** zlib-deflated bytes (what a PNG's IDAT holds), by the platform's CompressionStream. */
async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const compression = new CompressionStream("deflate");
  const writer = compression.writable.getWriter();
  void writer.write(bytes as Uint8Array<ArrayBuffer>);
  void writer.close();
  return new Uint8Array(await new Response(compression.readable).arrayBuffer());
}

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** The mask as an 8-bit RGBA PNG of width x height: white and opaque where painted, transparent elsewhere. */
export async function encodeMaskPng(mask: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, no interlace
  const stride = width * 4 + 1;
  const raw = new Uint8Array(stride * height); // every row's filter byte 0 (none)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]! >= 128) raw.fill(255, y * stride + 1 + x * 4, y * stride + 1 + x * 4 + 4);
    }
  }
  const parts = [
    new Uint8Array(PNG_SIGNATURE),
    chunk("IHDR", header),
    chunk("IDAT", await deflate(raw)),
    chunk("IEND", new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The strokes as the edit call's mask: a PNG data URL of the picture's size. */
export async function maskDataUrl(
  strokes: readonly MaskStroke[],
  width: number,
  height: number,
): Promise<string> {
  const png = await encodeMaskPng(rasterizeMask(strokes, width, height), width, height);
  return `data:image/png;base64,${base64(png)}`;
}
