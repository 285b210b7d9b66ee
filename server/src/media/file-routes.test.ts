import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installErrorHandling } from "../http/errors";
import type { TypedApp } from "../http/route-module";
import { createFakeClock } from "../platform/clock";
import { INVALID_LINK_DETAIL, mediaFileRoutes, parseRange } from "./file-routes";
import { createMediaStorage } from "./storage/create-storage";
import { createMediaSigner } from "./storage/signing";
import type { MediaStorage } from "./storage/types";

const secret = "a-test-secret-that-is-long-enough-0123";
const TTL = 3600;
// Bytes 0..255 so every range has distinct, checkable content.
const video = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

let root: string;
let clock: ReturnType<typeof createFakeClock>;
let storage: MediaStorage;
let app: TypedApp;

async function buildTestApp(store: MediaStorage): Promise<TypedApp> {
  const instance: TypedApp = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  instance.setValidatorCompiler(validatorCompiler);
  instance.setSerializerCompiler(serializerCompiler);
  installErrorHandling(instance);
  await instance.register(mediaFileRoutes, {
    ctx: { storage: store },
    kit: { mediaLinks: { signer: createMediaSigner(secret), clock } },
  });
  await instance.ready();
  return instance;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "storyverse-files-"));
  clock = createFakeClock();
  storage = createMediaStorage(
    { kind: "local", dir: path.join(root, "media"), urlTtlSeconds: TTL },
    secret,
    clock,
  );
  await storage.put("u/1/clip.mp4", video, "video/mp4");
  await storage.put("u/1/pic.png", png, "image/png");
  app = await buildTestApp(storage);
});

afterEach(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

function expectRefused(response: { statusCode: number; json: () => unknown }): void {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toEqual({ detail: INVALID_LINK_DETAIL, code: "forbidden" });
}

describe("GET /api/media/* (local store)", () => {
  it("serves a signed link with its bytes, type and a cache lifetime bounded by the link", async () => {
    const response = await app.inject({ method: "GET", url: await storage.signedUrl("u/1/pic.png") });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(png)).toBe(true);
    expect(response.headers["content-type"]).toBe("image/png");
    expect(response.headers["content-length"]).toBe(String(png.length));
    expect(response.headers["cache-control"]).toBe(`private, max-age=${TTL}`);
    expect(response.headers["accept-ranges"]).toBe("bytes");

    clock.advance(1000 * (TTL - 10));
    const later = await app.inject({ method: "GET", url: await storage.signedUrl("u/1/pic.png") });
    expect(later.statusCode).toBe(200);
  });

  it("sets the content type from the extension", async () => {
    const types = {
      "a.png": "image/png",
      "a.jpg": "image/jpeg",
      "a.jpeg": "image/jpeg",
      "a.webp": "image/webp",
      "a.gif": "image/gif",
      "a.mp4": "video/mp4",
      "a.webm": "video/webm",
      "a.bin": "application/octet-stream",
    };
    for (const [name, type] of Object.entries(types)) {
      await storage.put(`u/2/${name}`, Buffer.from("x"), type);
      const response = await app.inject({ method: "GET", url: await storage.signedUrl(`u/2/${name}`) });
      expect(response.headers["content-type"], name).toBe(type);
    }
  });

  it("refuses a tampered signature", async () => {
    const url = await storage.signedUrl("u/1/pic.png");
    const sig = url.slice(-64);
    const flipped = `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`;
    expectRefused(await app.inject({ method: "GET", url: url.replace(sig, flipped) }));
    expectRefused(await app.inject({ method: "GET", url: url.replace(sig, sig.toUpperCase()) }));
    expectRefused(await app.inject({ method: "GET", url: url.replace(`&sig=${sig}`, "") }));
    expectRefused(await app.inject({ method: "GET", url: `${url}&sig=${sig}` }));
    expectRefused(await app.inject({ method: "GET", url: "/api/media/u/1/pic.png" }));
  });

  it("refuses a signature moved to another key or another expiry", async () => {
    const url = await storage.signedUrl("u/1/pic.png");
    expectRefused(await app.inject({ method: "GET", url: url.replace("u/1/pic.png", "u/1/clip.mp4") }));
    const exp = Number(new URL(url, "http://x").searchParams.get("exp"));
    expectRefused(await app.inject({ method: "GET", url: url.replace(`exp=${exp}`, `exp=${exp + 3600}`) }));
    expectRefused(await app.inject({ method: "GET", url: url.replace(`exp=${exp}`, `exp=${exp}.0`) }));
  });

  it("refuses an expired link", async () => {
    const url = await storage.signedUrl("u/1/pic.png");
    clock.advance(1000 * (TTL - 1));
    const lastSecond = await app.inject({ method: "GET", url });
    expect(lastSecond.statusCode).toBe(200);
    expect(lastSecond.headers["cache-control"]).toBe("private, max-age=1");
    clock.advance(1000);
    expectRefused(await app.inject({ method: "GET", url }));
  });

  it("never serves a path outside the media directory, even with a valid signature for it", async () => {
    await writeFile(path.join(root, "secret.txt"), "do not serve");
    const signer = createMediaSigner(secret);
    const exp = Math.floor(clock.now().getTime() / 1000) + 60;
    for (const key of ["../secret.txt", "u/../../secret.txt", "%2e%2e/secret.txt", "..%2fsecret.txt"]) {
      const response = await app.inject({
        method: "GET",
        url: `/api/media/${key}?exp=${exp}&sig=${signer.sign(key, exp)}`,
      });
      expect([403, 404], key).toContain(response.statusCode);
      expect(response.body).not.toContain("do not serve");
    }
  });

  it("answers 404 JSON for a signed link to a missing file", async () => {
    const url = await storage.signedUrl("u/1/gone.png");
    const response = await app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: "Media not found", code: "not_found" });
  });

  it("serves byte ranges with 206 and Content-Range", async () => {
    const url = await storage.signedUrl("u/1/clip.mp4");
    const cases: [string, number, number][] = [
      ["bytes=10-19", 10, 19],
      ["bytes=250-", 250, 255],
      ["bytes=-6", 250, 255],
      ["bytes=0-0", 0, 0],
      ["bytes=200-999", 200, 255],
      ["bytes=-1000", 0, 255],
    ];
    for (const [range, start, end] of cases) {
      const response = await app.inject({ method: "GET", url, headers: { range } });
      expect(response.statusCode, range).toBe(206);
      expect(response.headers["content-range"], range).toBe(`bytes ${start}-${end}/256`);
      expect(response.headers["content-length"], range).toBe(String(end - start + 1));
      expect(response.headers["content-type"]).toBe("video/mp4");
      expect(response.rawPayload.equals(video.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it("answers 416 for a range past the end", async () => {
    const url = await storage.signedUrl("u/1/clip.mp4");
    for (const range of ["bytes=256-", "bytes=1000-2000", "bytes=-0"]) {
      const response = await app.inject({ method: "GET", url, headers: { range } });
      expect(response.statusCode, range).toBe(416);
      expect(response.headers["content-range"]).toBe("bytes */256");
      expect(response.json()).toEqual({
        detail: "The requested range is not satisfiable.",
        code: "range_not_satisfiable",
      });
    }
  });

  it("ignores ranges it may ignore and serves the whole file", async () => {
    const url = await storage.signedUrl("u/1/clip.mp4");
    for (const range of ["bytes=0-1,5-6", "items=0-1", "bytes=9-2", "bytes=-"]) {
      const response = await app.inject({ method: "GET", url, headers: { range } });
      expect(response.statusCode, range).toBe(200);
      expect(response.rawPayload.equals(video), range).toBe(true);
    }
  });

  it("answers HEAD with the headers only", async () => {
    const response = await app.inject({ method: "HEAD", url: await storage.signedUrl("u/1/clip.mp4") });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-length"]).toBe("256");
    expect(response.headers["content-type"]).toBe("video/mp4");
    expect(response.rawPayload.length).toBe(0);
  });

  it("adds no route for the S3 store", async () => {
    const s3 = createMediaStorage(
      {
        kind: "s3",
        bucket: "media",
        region: "us-east-1",
        endpoint: "http://127.0.0.1:1",
        accessKeyId: "k",
        secretAccessKey: "s",
        forcePathStyle: true,
        urlTtlSeconds: TTL,
      },
      secret,
      clock,
    );
    const s3App = await buildTestApp(s3);
    const localUrl = await storage.signedUrl("u/1/pic.png");
    expect((await s3App.inject({ method: "GET", url: localUrl })).statusCode).toBe(404);
    await s3App.close();
  });
});

describe("parseRange", () => {
  it("reads single ranges and flags unsatisfiable ones", () => {
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange("bytes=0-4", 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange("bytes=5-", 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange("bytes=-3", 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange("bytes=0-99999999999999999999", 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=10-", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-5", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=4-2", 10)).toBeUndefined();
    expect(parseRange("bytes=1-2,4-5", 10)).toBeUndefined();
  });
});
