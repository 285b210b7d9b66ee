// Picks the media store from config: local files (the default) or an S3-compatible bucket.
import type { StorageConfig } from "../../config";
import type { Clock } from "../../platform/clock";
import { LocalMediaStorage } from "./local";
import { S3MediaStorage } from "./s3";
import { createMediaSigner } from "./signing";
import type { MediaStorage } from "./types";

/** `secret` signs local media links (config.sessionSecret); S3 links are signed by the bucket's keys. */
export function createMediaStorage(config: StorageConfig, secret: string, clock: Clock): MediaStorage {
  if (config.kind === "s3") return new S3MediaStorage(config, clock);
  return new LocalMediaStorage({
    dir: config.dir,
    urlTtlSeconds: config.urlTtlSeconds,
    signer: createMediaSigner(secret),
    clock,
  });
}
