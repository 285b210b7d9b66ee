// The ffmpeg work of extending a clip (decision 0160): its last frame (the next segment starts from it) and
// the stitch that plays the clip and the new segment as one file. The segment's first frame is the clip's
// last frame again, so it is dropped at the seam: no frame shows twice and the motion runs on unbroken. The
// segment is scaled to the clip's size and both are set to one frame rate, so any vendor's clip joins; the
// result is H.264, faststart, video only (sound, if a vendor added any, is not carried over).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { probeDuration, runFfmpeg } from "../platform/ffmpeg";

const STITCH_FPS = 24;
const TIMEOUT_MS = 3 * 60_000;

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-clip-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The clip's last frame as a PNG. */
export function lastFrameOf(ffmpegPath: string, clip: Buffer): Promise<Buffer> {
  return inTempDir(async (dir) => {
    const input = path.join(dir, "clip.mp4");
    const output = path.join(dir, "last.png");
    await writeFile(input, clip);
    // Decode the last second only and keep overwriting one picture: what is left is the final frame.
    await runFfmpeg(
      ffmpegPath,
      ["-sseof", "-1", "-i", input, "-an", "-vsync", "0", "-update", "1", "-y", output],
      { timeoutMs: TIMEOUT_MS },
    );
    return readFile(output);
  });
}

/** The clip, then the segment made from its last frame, as one MP4. */
export function stitchClips(ffmpegPath: string, clip: Buffer, segment: Buffer): Promise<Buffer> {
  return inTempDir(async (dir) => {
    const first = path.join(dir, "clip.mp4");
    const second = path.join(dir, "segment.mp4");
    const output = path.join(dir, "stitched.mp4");
    await writeFile(first, clip);
    await writeFile(second, segment);
    const filter = [
      "[1:v]trim=start_frame=1,setpts=PTS-STARTPTS[next]",
      "[next][0:v]scale2ref[scaled][base]",
      `[base]setsar=1,fps=${STITCH_FPS},format=yuv420p[a]`,
      `[scaled]setsar=1,fps=${STITCH_FPS},format=yuv420p[b]`,
      "[a][b]concat=n=2:v=1:a=0[v]",
    ].join(";");
    await runFfmpeg(
      ffmpegPath,
      [
        ...["-i", first, "-i", second, "-filter_complex", filter, "-map", "[v]"],
        ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-movflags", "+faststart", "-y", output],
      ],
      { timeoutMs: TIMEOUT_MS },
    );
    return readFile(output);
  });
}

/** A stored clip's length in seconds, read from its file (for clips made before lengths were recorded). */
export function clipSeconds(ffmpegPath: string, clip: Buffer): Promise<number> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, "clip.mp4");
    await writeFile(file, clip);
    return probeDuration(ffmpegPath, file);
  });
}
