// The clip probe of a restore (issue #39, T4-1): a real MP4 (the offline provider's encoder) and a WebM pass;
// a file that only starts like an MP4 (the red team's clip: an `ftyp` box and then anything), a truncated
// clip, and a WebM header over nothing are refused.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleMp4 } from "../../test/fakes/media";
import { encodeMp4 } from "../providers/offline/mp4";
import { probeClip } from "./restore-probe";

let dir: string;
let realMp4: Buffer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "probe-test-"));
  const frame = new Uint8Array(16 * 16 * 4).fill(128);
  realMp4 = await encodeMp4({
    width: 16,
    height: 16,
    frameRate: 4,
    quantizationParameter: 30,
    frames: [frame, frame],
  });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function probe(name: string, data: Buffer) {
  const file = path.join(dir, name);
  await writeFile(file, data);
  return probeClip(file);
}

/** An EBML element: id bytes, an 8-byte size, the body. */
function ebml(id: number[], body: Buffer): Buffer {
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length));
  size[0]! |= 0x01;
  return Buffer.concat([Buffer.from(id), size, body]);
}

function webm(children: Buffer[]): Buffer {
  const header = ebml([0x1a, 0x45, 0xdf, 0xa3], ebml([0x42, 0x82], Buffer.from("webm")));
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], Buffer.concat(children))]);
}

describe("probeClip", () => {
  it("takes a real MP4 whole", async () => {
    expect(await probe("real.mp4", realMp4)).toBe("video/mp4");
  });

  it("refuses a file that only starts like an MP4 (ftyp, then no movie)", async () => {
    expect(await probe("claims.mp4", sampleMp4())).toBeNull();
    const lie = Buffer.concat([sampleMp4().subarray(0, 32), Buffer.alloc(4096, 0x41)]);
    expect(await probe("lie.mp4", lie)).toBeNull();
  });

  it("refuses a real MP4 cut short or with bytes after its last box", async () => {
    expect(await probe("cut.mp4", realMp4.subarray(0, realMp4.length - 10))).toBeNull();
    expect(await probe("tail.mp4", Buffer.concat([realMp4, Buffer.from("trailing")]))).toBeNull();
  });

  it("takes a WebM with its info, tracks and a cluster, and refuses a WebM header over nothing", async () => {
    const info = ebml([0x15, 0x49, 0xa9, 0x66], Buffer.alloc(4));
    const tracks = ebml([0x16, 0x54, 0xae, 0x6b], Buffer.alloc(8));
    const cluster = ebml([0x1f, 0x43, 0xb6, 0x75], Buffer.alloc(16));
    expect(await probe("ok.webm", webm([info, tracks, cluster]))).toBe("video/webm");
    expect(await probe("empty.webm", webm([Buffer.alloc(32, 0x41)]))).toBeNull();
    expect(await probe("no-tracks.webm", webm([info, cluster]))).toBeNull();
  });
});
