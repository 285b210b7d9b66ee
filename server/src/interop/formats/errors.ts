// The one error the format readers throw: a clear reason a file cannot be read, which the routes answer with a
// 400 (code "invalid_file"). Also the shared limits and the JSON parsing every reader goes through, so no
// reader can forget the `__proto__` check.

import { INTEROP_FILE_MAX_MB } from "@storyverse/contract/interop";

/** The largest file we read as a card, lorebook or CHARX (the contract's limit, which the web shows). */
export const INTEROP_FILE_MAX_BYTES = INTEROP_FILE_MAX_MB * 1024 * 1024;

export class InteropError extends Error {
  readonly detail: string;
  constructor(detail: string) {
    super(detail);
    this.name = "InteropError";
    this.detail = detail;
  }
}

/** Refuses a file over the size limit before anything parses it. */
export function assertFileSize(bytes: Buffer): void {
  if (bytes.length > INTEROP_FILE_MAX_BYTES) {
    throw new InteropError(`The file is larger than ${INTEROP_FILE_MAX_BYTES / (1024 * 1024)} MB.`);
  }
  if (bytes.length === 0) throw new InteropError("The file is empty.");
}

/**
 * Parses JSON text, refusing any `__proto__` key at any depth: JSON.parse itself makes it an own property,
 * but a later spread or merge could turn it into a prototype change, so it is never let in. `what` names the
 * text in the message ("The card", "The lorebook").
 */
export function parseJsonSafely(text: string, what: string): unknown {
  let sawProto = false;
  let value: unknown;
  try {
    value = JSON.parse(text, (key, inner) => {
      if (key === "__proto__") sawProto = true;
      return inner;
    });
  } catch (error) {
    // Thousands of nested brackets outrun the parser's stack: valid JSON, but no card or book nests so deep.
    if (error instanceof RangeError) throw new InteropError(`${what} nests too deeply to be read.`);
    throw new InteropError(`${what} is not valid JSON.`);
  }
  if (sawProto) throw new InteropError(`${what} contains a "__proto__" key, which is not allowed.`);
  return value;
}

/** Decodes UTF-8 text, refusing bytes that are not UTF-8. */
export function decodeUtf8(bytes: Buffer, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new InteropError(`${what} is not UTF-8 text.`);
  }
}
