// Runs ffmpeg: the one config.ts chose (FFMPEG_PATH, else the system's on the PATH, else the bundled
// @ffmpeg-installer build, which is old and only a fallback; production refuses it unless told otherwise).
import { spawn } from "node:child_process";

/** Runs ffmpeg; resolves with its log, rejects (with the log's tail) on a non-zero exit or time-out. */
export function runFfmpeg(
  ffmpegPath: string,
  args: string[],
  options: { timeoutMs?: number; allowFailure?: boolean; maxLogChars?: number } = {},
) {
  const maxLogChars = options.maxLogChars ?? 20_000;
  return new Promise<string>((resolve, reject) => {
    const child = spawn(ffmpegPath, ["-hide_banner", "-nostdin", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => {
      // Keep the end of the log only: enough to explain a failure, bounded in memory.
      log = (log + chunk.toString("utf8")).slice(-maxLogChars);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 10 * 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0 || options.allowFailure) resolve(log);
      else reject(new Error(`ffmpeg exited with ${code}: ${log.slice(-2000)}`));
    });
  });
}

/** A media file's duration in seconds, from ffmpeg's own reading of its header. */
export async function probeDuration(ffmpegPath: string, file: string): Promise<number> {
  // With no output named, ffmpeg prints the input's details and exits non-zero: that is expected.
  const log = await runFfmpeg(ffmpegPath, ["-i", file], { allowFailure: true });
  const match = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(log);
  if (!match) throw new Error(`no duration for ${file}`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}
