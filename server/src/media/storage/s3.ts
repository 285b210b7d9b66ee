// Media in an S3-compatible bucket (AWS, MinIO, R2, ...). Browsers load objects through presigned GET URLs,
// so nothing is proxied through the app and a leaked link still dies with its signature.

import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { StorageConfig } from "../../config";
import type { Clock } from "../../platform/clock";
import { NotFound } from "../../platform/errors";
import { assertValidMediaKey, contentTypeForKey, isValidMediaKey } from "./keys";
import { linkExpiry } from "./signing";
import type { ByteRange, MediaStorage } from "./types";

export type S3StorageConfig = Extract<StorageConfig, { kind: "s3" }>;

export class S3MediaStorage implements MediaStorage {
  readonly kind = "s3";
  readonly client: S3Client;
  private readonly bucket: string;
  /** Presigned URLs by key and expiry (at most 10,000, then started afresh). */
  private readonly recentUrls = new Map<string, string>();
  private readonly ttlSeconds: number;
  /** Hosts that address the bucket in the path ("endpoint/bucket/key"). */
  private readonly pathStyleHosts: string[];
  /** Hosts that carry the bucket in the name ("bucket.endpoint/key"). */
  private readonly virtualHosts: string[];
  /** A path prefix of a custom endpoint ("https://example.com/s3"), without its trailing slash. */
  private readonly basePath: string;

  constructor(
    config: S3StorageConfig,
    private readonly clock: Clock,
  ) {
    this.bucket = config.bucket;
    this.ttlSeconds = config.urlTtlSeconds;
    const clientConfig: S3ClientConfig = {
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      // Checksums only where S3 demands them: many S3-compatible servers reject the newer default
      // checksum headers, and presigned GETs must not carry a checksum-mode the browser cannot send.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    };
    if (config.endpoint) clientConfig.endpoint = config.endpoint;
    // Without explicit keys the SDK's default chain applies (env, shared files, instance or task roles).
    if (config.accessKeyId && config.secretAccessKey) {
      clientConfig.credentials = {
        accessKeyId: config.accessKeyId,
        secretAccessKey: config.secretAccessKey,
      };
    }
    this.client = new S3Client(clientConfig);

    const base = new URL(config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
    this.basePath = base.pathname.replace(/\/+$/, "");
    this.pathStyleHosts = config.endpoint ? [base.host] : [base.host, "s3.amazonaws.com"];
    this.virtualHosts = this.pathStyleHosts.map((host) => `${config.bucket.toLowerCase()}.${host}`);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    assertValidMediaKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentType: contentType }),
    );
  }

  /**
   * A single PUT needs the length up front, so the stream is spooled to a temporary file first (disk, not
   * memory), then sent from it.
   */
  async putStream(key: string, stream: Readable, contentType: string): Promise<void> {
    // An error before the pipeline is attached is still the pipeline's to report, not an unhandled one.
    stream.on("error", () => {});
    assertValidMediaKey(key);
    const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-upload-"));
    try {
      const file = path.join(dir, "body");
      await pipeline(stream, createWriteStream(file));
      const { size } = await stat(file);
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async read(key: string): Promise<Buffer> {
    assertValidMediaKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!result.Body) throw new NotFound("Media not found");
      return Buffer.from(await result.Body.transformToByteArray());
    } catch (error) {
      if (isMissingObject(error)) throw new NotFound("Media not found");
      throw error;
    }
  }

  async size(key: string): Promise<number> {
    assertValidMediaKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissingObject(error)) throw new NotFound("Media not found");
      throw error;
    }
  }

  async open(key: string, range?: ByteRange): Promise<{ size: number; stream: Readable }> {
    const size = await this.size(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!result.Body) throw new NotFound("Media not found");
      return { size, stream: result.Body as Readable };
    } catch (error) {
      if (isMissingObject(error)) throw new NotFound("Media not found");
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidMediaKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async signedUrl(key: string): Promise<string> {
    assertValidMediaKey(key);
    const exp = linkExpiry(this.clock.now(), this.ttlSeconds);
    // The same URL is kept rather than signed again: presigning is costly and polls ask again and again.
    const memo = `${key}\n${exp}`;
    const kept = this.recentUrls.get(memo);
    if (kept !== undefined) return kept;
    const contentType = contentTypeForKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      // Objects written by other tools may lack a type; the browser needs one to play or show them.
      ...(contentType ? { ResponseContentType: contentType } : {}),
    });
    // Signed as of the start of the expiry window, so repeated calls give the same URL (browser cache)
    // and the link still dies no later than TTL after now.
    const url = await getSignedUrl(this.client, command, {
      expiresIn: this.ttlSeconds,
      signingDate: new Date((exp - this.ttlSeconds) * 1000),
    });
    if (this.recentUrls.size >= 10_000) this.recentUrls.clear();
    this.recentUrls.set(memo, url);
    return url;
  }

  keyFromUrl(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    if (!parsed.pathname.startsWith(`${this.basePath}/`)) return undefined;
    const rest = parsed.pathname.slice(this.basePath.length + 1);
    let encodedKey: string | undefined;
    if (this.virtualHosts.includes(parsed.host)) {
      encodedKey = rest;
    } else if (this.pathStyleHosts.includes(parsed.host) && rest.startsWith(`${this.bucket}/`)) {
      encodedKey = rest.slice(this.bucket.length + 1);
    }
    if (encodedKey === undefined) return undefined;
    let key: string;
    try {
      key = decodeURIComponent(encodedKey);
    } catch {
      return undefined;
    }
    return isValidMediaKey(key) ? key : undefined;
  }
}

function isMissingObject(error: unknown): boolean {
  // By name only: a 404 for a missing bucket is a configuration fault and must surface as one.
  return error instanceof Error && (error.name === "NoSuchKey" || error.name === "NotFound");
}
