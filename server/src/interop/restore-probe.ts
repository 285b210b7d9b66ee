// What a clip from a story archive really is, judged by a parse of its container (issue #39, T4-1): an
// MP4 must be a whole tree of boxes that tiles the file exactly, starting with `ftyp`, with a `moov` that
// holds an `mvhd` and at least one video track (`trak` > `mdia` > `hdlr` of type `vide`) and its media data
// (`mdat`, or fragments); a WebM must be an EBML header whose DocType is "webm" followed by a Segment that
// holds its Info, its Tracks and a Cluster. A file that only starts like one (the red team's "ftyp" and then
// anything) is refused. The parse reads box headers and the `moov` box only, from the file on disk, so a
// large clip never sits in memory. Pictures are judged apart, by a real decode (media/backup-items.ts).
import { type FileHandle, open } from "node:fs/promises";

/** The largest `moov` box read whole (a long clip's sample tables are a few MB). */
const MOOV_MAX_BYTES = 16 * 1024 * 1024;
/** The most top-level boxes or elements walked (a real clip has a handful; fragmented ones a few thousand). */
const TOP_LEVEL_MAX = 100_000;

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

type Box = { type: string; start: number; end: number };
const BOX_TYPE = /^[\x20-\x7e]{4}$/;

/** The child boxes of data[start, end), or null unless they tile it exactly. */
function childBoxes(data: Buffer, start: number, end: number): Box[] | null {
  const boxes: Box[] = [];
  let offset = start;
  while (offset < end) {
    if (end - offset < 8) return null;
    let size = data.readUInt32BE(offset);
    const type = data.toString("latin1", offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      if (end - offset < 16) return null;
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) size = end - offset;
    if (!BOX_TYPE.test(type) || size < header || offset + size > end) return null;
    boxes.push({ type, start: offset + header, end: offset + size });
    offset += size;
  }
  return boxes;
}

/** moov: an mvhd, and a track whose handler is video, each box within its parent. */
function validMoov(moov: Buffer): boolean {
  const children = childBoxes(moov, 0, moov.length);
  if (!children?.some((box) => box.type === "mvhd" && box.end - box.start >= 100)) return false;
  return children.some((trak) => {
    if (trak.type !== "trak") return false;
    const inTrak = childBoxes(moov, trak.start, trak.end);
    const mdia = inTrak?.find((box) => box.type === "mdia");
    if (!inTrak?.some((box) => box.type === "tkhd") || !mdia) return false;
    const hdlr = childBoxes(moov, mdia.start, mdia.end)?.find((box) => box.type === "hdlr");
    // hdlr: version and flags (4), pre_defined (4), handler_type (4).
    return (
      !!hdlr &&
      hdlr.end - hdlr.start >= 12 &&
      moov.toString("latin1", hdlr.start + 8, hdlr.start + 12) === "vide"
    );
  });
}

async function isMp4(file: FileHandle, size: number): Promise<boolean> {
  let offset = 0;
  let moov: Buffer | null = null;
  let media = false;
  for (let count = 0; offset < size; count++) {
    if (count >= TOP_LEVEL_MAX || size - offset < 8) return false;
    const head = await readAt(file, offset, 16);
    let boxSize = head.readUInt32BE(0);
    const type = head.toString("latin1", 4, 8);
    let header = 8;
    if (boxSize === 1) {
      if (head.length < 16) return false;
      boxSize = Number(head.readBigUInt64BE(8));
      header = 16;
    } else if (boxSize === 0) boxSize = size - offset;
    if (!BOX_TYPE.test(type) || boxSize < header || offset + boxSize > size) return false;
    if (count === 0 && type !== "ftyp") return false;
    if (type === "moov") {
      if (moov || boxSize - header > MOOV_MAX_BYTES) return false;
      moov = await readAt(file, offset + header, boxSize - header);
    }
    if (type === "mdat" || type === "moof") media = true;
    offset += boxSize;
  }
  return offset === size && media && moov !== null && validMoov(moov);
}

/** An EBML variable-length integer at `at`: its length and value (marker kept for ids, dropped for sizes). */
function vint(
  data: Buffer,
  at: number,
  keepMarker: boolean,
): { length: number; value: number; unknown: boolean } | null {
  const first = data[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > data.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + data[at + i]!;
    if (data[at + i] !== 0xff) allOnes = false;
  }
  return { length, value, unknown: !keepMarker && allOnes };
}

type Element = { id: number; start: number; size: number | null; headerLength: number };

async function elementAt(file: FileHandle, position: number): Promise<Element | null> {
  const head = await readAt(file, position, 12);
  const id = vint(head, 0, true);
  if (!id || id.length > 4) return null;
  const size = vint(head, id.length, false);
  if (!size) return null;
  return {
    id: id.value,
    start: position,
    size: size.unknown ? null : size.value,
    headerLength: id.length + size.length,
  };
}

const EBML = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TRACKS = 0x1654ae6b;
const CLUSTER = 0x1f43b675;

async function isWebm(file: FileHandle, size: number): Promise<boolean> {
  const ebml = await elementAt(file, 0);
  if (!ebml || ebml.id !== EBML || ebml.size === null || ebml.size > 4096) return false;
  const header = await readAt(file, ebml.headerLength, ebml.size);
  let docType: string | null = null;
  for (let at = 0; at < header.length; ) {
    const id = vint(header, at, true);
    const length = id && vint(header, at + id.length, false);
    if (!id || !length || length.unknown) return false;
    const body = at + id.length + length.length;
    if (body + length.value > header.length) return false;
    if (id.value === DOC_TYPE)
      docType = header.toString("latin1", body, body + length.value).replace(/\0+$/, "");
    at = body + length.value;
  }
  if (docType !== "webm") return false;
  const segment = await elementAt(file, ebml.headerLength + ebml.size);
  if (!segment || segment.id !== SEGMENT) return false;
  const segmentEnd = segment.size === null ? size : segment.start + segment.headerLength + segment.size;
  if (segmentEnd > size) return false;
  const seen = new Set<number>();
  let at = segment.start + segment.headerLength;
  for (let count = 0; at < segmentEnd; count++) {
    if (count >= TOP_LEVEL_MAX) return false;
    const child = await elementAt(file, at);
    if (!child) return false;
    seen.add(child.id);
    // A live recording's clusters have no size: the walk stops at the first, having seen what comes before it.
    if (child.size === null) {
      if (child.id !== CLUSTER) return false;
      break;
    }
    at = child.start + child.headerLength + child.size;
    if (at > segmentEnd) return false;
  }
  return seen.has(INFO) && seen.has(TRACKS) && seen.has(CLUSTER);
}

/** The clip's type by a parse of its whole container structure, or null when it is neither an MP4 nor a WebM. */
export async function probeClip(path: string): Promise<"video/mp4" | "video/webm" | null> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    if (size < 16) return null;
    if (await isMp4(file, size).catch(() => false)) return "video/mp4";
    if (await isWebm(file, size).catch(() => false)) return "video/webm";
    return null;
  } finally {
    await file.close();
  }
}
