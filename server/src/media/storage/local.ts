// Media on the local disk under one directory, served by file-routes.ts through HMAC-signed links
// ("/api/media/<key>?exp=...&sig=..."). Relative links keep media same-origin, which the CSP's img-src
// and media-src 'self' require.
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Clock } from "../../platform/clock";
import { NotFound } from "../../platform/errors";
import { assertValidMediaKey, isValidMediaKey } from "./keys";
import { linkExpiry, type MediaSigner } from "./signing";
import type { ByteRange, MediaStorage } from "./types";

export const MEDIA_ROUTE_PREFIX = "/api/media/";

export type LocalStorageOptions = {
  dir: string;
  urlTtlSeconds: number;
  signer: MediaSigner;
  clock: Clock;
};

export class LocalMediaStorage implements MediaStorage {
  readonly kind = "local";
  readonly dir: string;

  constructor(private readonly options: LocalStorageOptions) {
    this.dir = path.resolve(options.dir);
  }

  /** The file behind a key; throws BadRequest for a key that is not allowed. */
  filePath(key: string): string {
    assertValidMediaKey(key);
    const file = path.join(this.dir, ...key.split("/"));
    // The key alphabet already rules out escapes; this second check costs nothing and guards future edits.
    if (!file.startsWith(this.dir + path.sep)) throw new NotFound("Media not found");
    return file;
  }

  // The content type is implied by the key's extension when serving, so it is not stored separately.
  async put(key: string, data: Buffer, _contentType: string): Promise<void> {
    const file = this.filePath(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename (atomic on one filesystem): a reader never sees half a file, and a crash mid-write
    // leaves only a stray temp file, never a truncated original.
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, data);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async putStream(key: string, stream: Readable, _contentType: string): Promise<void> {
    // An error before the pipeline is attached is still the pipeline's to report, not an unhandled one.
    stream.on("error", () => {});
    const file = this.filePath(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await pipeline(stream, createWriteStream(temp));
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.filePath(key));
    } catch (error) {
      if (isMissingFile(error)) throw new NotFound("Media not found");
      throw error;
    }
  }

  async size(key: string): Promise<number> {
    try {
      const info = await stat(this.filePath(key));
      if (!info.isFile()) throw new NotFound("Media not found");
      return info.size;
    } catch (error) {
      if (isMissingFile(error)) throw new NotFound("Media not found");
      throw error;
    }
  }

  async open(key: string, range?: ByteRange): Promise<{ size: number; stream: Readable }> {
    const size = await this.size(key);
    return { size, stream: createReadStream(this.filePath(key), range ?? {}) };
  }

  async delete(key: string): Promise<void> {
    await rm(this.filePath(key), { force: true });
  }

  async signedUrl(key: string): Promise<string> {
    assertValidMediaKey(key);
    const exp = linkExpiry(this.options.clock.now(), this.options.urlTtlSeconds);
    // The key alphabet is URL-safe, so it goes into the path as is.
    return `${MEDIA_ROUTE_PREFIX}${key}?exp=${exp}&sig=${this.options.signer.sign(key, exp)}`;
  }

  keyFromUrl(url: string): string | undefined {
    let parsed: URL;
    try {
      // Relative links resolve against a placeholder; absolute ones may name any host (APP_URL, a proxy).
      parsed = new URL(url, "http://relative.invalid");
    } catch {
      return undefined;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    if (!parsed.pathname.startsWith(MEDIA_ROUTE_PREFIX)) return undefined;
    let key: string;
    try {
      key = decodeURIComponent(parsed.pathname.slice(MEDIA_ROUTE_PREFIX.length));
    } catch {
      return undefined;
    }
    return isValidMediaKey(key) ? key : undefined;
  }
}

export function isMissingFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR";
}
