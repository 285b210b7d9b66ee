// Where media bytes live. Keys look like "u/<userId>/<uuid>.png"; the database keeps keys, never URLs,
// because URLs are signed and expire.

import type { Readable } from "node:stream";

/** Inclusive byte offsets, as in an HTTP Range header. */
export type ByteRange = { start: number; end: number };

export interface MediaStorage {
  readonly kind: "local" | "s3";
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /**
   * Stores what `stream` produces, reading it as fast as the store takes it (never whole in memory); a
   * stream that fails leaves nothing under `key`.
   */
  putStream(key: string, stream: Readable, contentType: string): Promise<void>;
  read(key: string): Promise<Buffer>;
  /**
   * The object's size and a stream of its bytes (all of them, or `range`, inclusive), for serving large
   * files without holding them in memory. Throws NotFound for a missing key.
   */
  open(key: string, range?: ByteRange): Promise<{ size: number; stream: Readable }>;
  /** The object's size in bytes; throws NotFound for a missing key. */
  size(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  /** A URL a browser can load with no headers (img src, video src); it expires after the configured TTL. */
  signedUrl(key: string): Promise<string>;
  /**
   * The key behind a URL this storage signed, or undefined for anything else. The signature need not be
   * valid (an expired link still names the file); callers check ownership of the key themselves.
   */
  keyFromUrl(url: string): string | undefined;
}
