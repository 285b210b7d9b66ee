import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { asHttpError } from "../../http/errors";
import { createFakeClock } from "../../platform/clock";
import { createMediaStorage } from "./create-storage";
import { LocalMediaStorage } from "./local";
import type { MediaStorage } from "./types";

const secret = "a-test-secret-that-is-long-enough-0123";
let root: string;
let storage: MediaStorage;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "storyverse-local-"));
  storage = createMediaStorage(
    { kind: "local", dir: path.join(root, "media"), urlTtlSeconds: 3600 },
    secret,
    createFakeClock(),
  );
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return asHttpError(error)?.statusCode ?? -1;
  }
}

async function text(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe("local media storage", () => {
  it("is chosen for kind local", () => {
    expect(storage.kind).toBe("local");
    expect(storage).toBeInstanceOf(LocalMediaStorage);
  });

  it("puts, reads, overwrites and deletes, creating directories as needed", async () => {
    const key = "u/42/deep/a.png";
    await storage.put(key, Buffer.from("first"), "image/png");
    expect((await storage.read(key)).toString()).toBe("first");
    await storage.put(key, Buffer.from("second"), "image/png");
    expect((await storage.read(key)).toString()).toBe("second");
    expect(await readFile(path.join(root, "media", "u", "42", "deep", "a.png"), "utf8")).toBe("second");
    // Atomic writes leave no temp files behind.
    expect(await readdir(path.join(root, "media", "u", "42", "deep"))).toEqual(["a.png"]);
    await storage.delete(key);
    expect(await statusOf(storage.read(key))).toBe(404);
  });

  it("streams a file whole or a byte range, with its size, and answers 404 for a missing one", async () => {
    const key = "u/42/clip.mp4";
    await storage.put(key, Buffer.from("0123456789"), "video/mp4");
    expect(await storage.size(key)).toBe(10);
    const whole = await storage.open(key);
    expect(whole.size).toBe(10);
    expect((await text(whole.stream)).toString()).toBe("0123456789");
    expect((await text((await storage.open(key, { start: 2, end: 5 })).stream)).toString()).toBe("2345");
    expect(await statusOf(storage.open("u/42/none.mp4"))).toBe(404);
  });

  it("stores a stream, and keeps nothing (not even a temp file) when the stream fails", async () => {
    const key = "u/42/exports/book.zip";
    await storage.putStream(
      key,
      Readable.from([Buffer.from("part one, "), Buffer.from("part two")]),
      "application/zip",
    );
    expect((await storage.read(key)).toString()).toBe("part one, part two");
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from("half"));
    setImmediate(() => failing.destroy(new Error("the archive failed")));
    await expect(storage.putStream("u/42/exports/broken.zip", failing, "application/zip")).rejects.toThrow(
      "the archive failed",
    );
    expect(await readdir(path.join(root, "media", "u", "42", "exports"))).toEqual(["book.zip"]);
  });

  it("answers 404 for a missing file and deletes a missing file without complaint", async () => {
    expect(await statusOf(storage.read("u/1/none.png"))).toBe(404);
    expect(await statusOf(storage.read("u"))).toBe(404);
    await expect(storage.delete("u/1/none.png")).resolves.toBeUndefined();
  });

  it("refuses keys that could leave the media directory or are not plain", async () => {
    await writeFile(path.join(root, "secret.txt"), "do not serve");
    const bad = [
      "../secret.txt",
      "u/../../secret.txt",
      "..",
      ".",
      "u/./a.png",
      "/etc/passwd",
      "u//a.png",
      "u/",
      "",
      "u\\..\\secret.txt",
      "u/a b.png",
      "u/%2e%2e/a.png",
      "u/é.png",
      "u/a.png\0",
      "x".repeat(600),
    ];
    for (const key of bad) {
      expect(await statusOf(storage.put(key, Buffer.from("x"), "image/png")), key).toBe(400);
      expect(await statusOf(storage.read(key)), key).toBe(400);
      expect(await statusOf(storage.delete(key)), key).toBe(400);
      expect(await statusOf(storage.signedUrl(key)), key).toBe(400);
    }
    expect(await readFile(path.join(root, "secret.txt"), "utf8")).toBe("do not serve");
    expect(await readdir(root)).toEqual(["secret.txt"]);
  });

  it("signs relative same-origin URLs", async () => {
    const url = await storage.signedUrl("u/1/a.png");
    expect(url).toMatch(/^\/api\/media\/u\/1\/a\.png\?exp=\d+&sig=[0-9a-f]{64}$/);
    expect(url).toContain(`exp=${Date.parse("2026-01-01T13:00:00Z") / 1000}&`);
  });

  it("finds the key behind its own URLs, relative or absolute, and nothing else", async () => {
    const url = await storage.signedUrl("u/1/a.png");
    expect(storage.keyFromUrl(url)).toBe("u/1/a.png");
    expect(storage.keyFromUrl(`https://storyverse.example${url}`)).toBe("u/1/a.png");
    expect(storage.keyFromUrl("/api/media/u/1/a.png?exp=1&sig=bad")).toBe("u/1/a.png");
    for (const other of [
      "/api/mediax/u/1/a.png",
      "/api/media/",
      "/api/media/u/%2e%2e/%2e%2e/secret.txt",
      "/api/media/u/a%20b.png",
      "/other/u/1/a.png",
      "javascript:alert(1)//api/media/u/1/a.png",
      "data:image/png;base64,AAAA",
      "https://[::1",
    ]) {
      expect(storage.keyFromUrl(other), other).toBeUndefined();
    }
  });
});
