// The media store the app uses: the configured store (local or S3) with every account's objects counted
// against its quota (decision 0122). A put of a key under "u/<userId>/" is counted before its bytes are
// stored and refused with StorageFull (413) when it would pass the quota; a stream is counted as it arrives
// and cut off at the quota, leaving nothing; a delete stops counting the object. Keys no account owns
// (voice samples) pass through uncounted.
import { type Readable, Transform, type TransformCallback } from "node:stream";
import type { Queryable } from "../../db/client";
import { forgetStored, ownerOfKey, reserveStored, StorageFull, usageWithRoom } from "../quota";
import type { ByteRange, MediaStorage } from "./types";

export class MeteredStorage implements MediaStorage {
  constructor(
    /** The store the bytes live in (the local file route serves its files). */
    readonly inner: MediaStorage,
    private readonly db: Queryable,
    private readonly defaultQuotaMb: number,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  /** The same store with its counting done in `q`, the caller's transaction. */
  within(q: Queryable): MeteredStorage {
    return new MeteredStorage(this.inner, q, this.defaultQuotaMb);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const owner = ownerOfKey(key);
    if (!owner) return this.inner.put(key, data, contentType);
    await reserveStored(this.db, this.defaultQuotaMb, owner, key, data.length, true);
    try {
      await this.inner.put(key, data, contentType);
    } catch (error) {
      await forgetStored(this.db, [key]).catch(() => undefined);
      throw error;
    }
  }

  async putStream(key: string, stream: Readable, contentType: string): Promise<void> {
    const owner = ownerOfKey(key);
    if (!owner) return this.inner.putStream(key, stream, contentType);
    const usage = await usageWithRoom(this.db, this.defaultQuotaMb, owner);
    const { usedBytes, limitBytes } = usage;
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        bytes += chunk.length;
        if (limitBytes !== null && usedBytes + bytes > limitBytes) {
          // The store's own contract: a stream that fails leaves nothing under the key.
          done(new StorageFull({ usedBytes, limitBytes }, bytes));
          return;
        }
        done(null, chunk);
      },
    });
    stream.on("error", (error) => counter.destroy(error));
    await this.inner.putStream(key, stream.pipe(counter), contentType);
    // Counted once whole; the room was checked as it arrived (two streams at once may pass by the smaller).
    await reserveStored(this.db, this.defaultQuotaMb, owner, key, bytes, false);
  }

  read(key: string): Promise<Buffer> {
    return this.inner.read(key);
  }

  open(key: string, range?: ByteRange) {
    return this.inner.open(key, range);
  }

  size(key: string): Promise<number> {
    return this.inner.size(key);
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key);
    if (ownerOfKey(key)) await forgetStored(this.db, [key]);
  }

  signedUrl(key: string): Promise<string> {
    return this.inner.signedUrl(key);
  }

  keyFromUrl(url: string): string | undefined {
    return this.inner.keyFromUrl(url);
  }
}

/** The configured store with the accounts' quotas: what the app, its workers and the tests use. */
export function meteredStorage(inner: MediaStorage, db: Queryable, defaultQuotaMb: number): MediaStorage {
  return new MeteredStorage(inner, db, defaultQuotaMb);
}
