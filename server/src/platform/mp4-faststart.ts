// "Faststart" MP4s: the moov box (the index of where every frame lies) before the mdat box (the frames), so
// a player can start after the first bytes instead of fetching the file's end first. ffmpeg writers use
// `-movflags +faststart`; files written elsewhere (the WASM encoder, vendors' clips) are rearranged here:
// moov moves in front of the first mdat and the chunk offsets inside it (stco/co64) shift by its size.
// Nothing is re-encoded; a file that is already faststart, fragmented or not understood is left as it is.

export type Mp4Box = { type: string; start: number; size: number };

/** The top-level boxes of an MP4, in file order (stops at the first malformed size). */
export function topLevelBoxes(data: Buffer): Mp4Box[] {
  return childBoxes(data, 0, data.length);
}

function childBoxes(data: Buffer, start: number, end: number): Mp4Box[] {
  const boxes: Mp4Box[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    let size = data.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > end) break;
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header || offset + size > end) break;
    boxes.push({ type: data.toString("latin1", offset + 4, offset + 8), start: offset, size });
    offset += size;
  }
  return boxes;
}

const headerSize = (data: Buffer, box: Mp4Box) => (data.readUInt32BE(box.start) === 1 ? 16 : 8);

/** Whether the index comes before the frames (true too when there is no mdat or no moov to order). */
export function isFaststart(data: Buffer): boolean {
  const types = topLevelBoxes(data).map((box) => box.type);
  const moov = types.indexOf("moov");
  const mdat = types.indexOf("mdat");
  return moov < 0 || mdat < 0 || moov < mdat;
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl"]);

/** Adds `shift` to every chunk offset in [from, to) inside a moov box (a copy, changed in place). */
function shiftChunkOffsets(moov: Buffer, box: Mp4Box, from: number, to: number, shift: number): boolean {
  const bodyStart = box.start + headerSize(moov, box);
  for (const child of childBoxes(moov, bodyStart, box.start + box.size)) {
    if (CONTAINERS.has(child.type)) {
      if (!shiftChunkOffsets(moov, child, from, to, shift)) return false;
      continue;
    }
    if (child.type !== "stco" && child.type !== "co64") continue;
    const wide = child.type === "co64";
    const body = child.start + headerSize(moov, child);
    const count = moov.readUInt32BE(body + 4);
    const width = wide ? 8 : 4;
    if (body + 8 + count * width > child.start + child.size) return false;
    for (let i = 0; i < count; i += 1) {
      const at = body + 8 + i * width;
      const offset = wide ? Number(moov.readBigUInt64BE(at)) : moov.readUInt32BE(at);
      if (offset < from || offset >= to) continue;
      const moved = offset + shift;
      if (wide) moov.writeBigUInt64BE(BigInt(moved), at);
      else if (moved > 0xffff_ffff) return false;
      else moov.writeUInt32BE(moved, at);
    }
  }
  return true;
}

/** The same MP4 with moov before the first mdat (the input itself when nothing needs to move). */
export function faststart(data: Buffer): Buffer {
  const top = topLevelBoxes(data);
  const end = top.at(-1);
  // Only a file read to its last byte is rearranged: a partial parse would drop data.
  if (!end || end.start + end.size !== data.length) return data;
  if (top.some((box) => box.type === "moof")) return data;
  const moovIndex = top.findIndex((box) => box.type === "moov");
  const mdatIndex = top.findIndex((box) => box.type === "mdat");
  if (moovIndex < 0 || mdatIndex < 0 || moovIndex < mdatIndex) return data;
  const moovBox = top[moovIndex]!;
  const insertAt = top[mdatIndex]!.start;
  const moov = Buffer.from(data.subarray(moovBox.start, moovBox.start + moovBox.size));
  // Everything between the insertion point and moov's old place moves down by moov's size; what came after
  // moov stays where it was.
  const local: Mp4Box = { type: "moov", start: 0, size: moovBox.size };
  if (!shiftChunkOffsets(moov, local, insertAt, moovBox.start, moovBox.size)) return data;
  return Buffer.concat([
    data.subarray(0, insertAt),
    moov,
    data.subarray(insertAt, moovBox.start),
    data.subarray(moovBox.start + moovBox.size),
  ]);
}
