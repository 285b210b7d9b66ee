// What a media key may look like. Keys become file paths (local) and object names (S3), so both stores
// accept only a narrow alphabet and refuse anything that could climb out of the media root.
import { InvalidInput } from "../../platform/errors";

const MAX_KEY_LENGTH = 512;
const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** "u/7/abc.png": segments of [A-Za-z0-9_.-], no empty segment, no leading or trailing slash, no "..". */
export function isValidMediaKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || key.includes("..")) return false;
  return key.split("/").every((segment) => segment !== "." && SEGMENT.test(segment));
}

export function assertValidMediaKey(key: string): void {
  if (!isValidMediaKey(key)) throw new InvalidInput("Invalid media key");
}

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  webm: "video/webm",
  wav: "audio/wav",
  vtt: "text/vtt",
};

/** The content type a key's extension promises; the stores only hold what the app wrote, so this is trusted. */
export function contentTypeForKey(key: string): string | undefined {
  const dot = key.lastIndexOf(".");
  if (dot < 0 || dot < key.lastIndexOf("/")) return undefined;
  return CONTENT_TYPES[key.slice(dot + 1).toLowerCase()];
}
