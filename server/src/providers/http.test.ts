import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeServer, startFakeServer } from "../../test/fakes/fake-server";
import { sampleMp4, samplePng } from "../../test/fakes/media";
import { catchProviderError } from "../../test/fakes/provider-errors";
import {
  Deadline,
  downloadMedia,
  errorForStatus,
  requestJson,
  sanitizeVendorMessage,
  sniffMediaType,
  userMessages,
  type VendorContext,
} from "./http";

const ctx: VendorContext = {
  vendor: "test",
  apiKey: "sk-secret-key-for-tests-123456",
  baseUrl: "https://api.vendor.example/v1",
  timeoutMs: 300,
};

describe("sanitizeVendorMessage", () => {
  it("removes the key, the base URL and its host", () => {
    const text = `Bad key ${ctx.apiKey} for https://api.vendor.example/v1/x at api.vendor.example`;
    const clean = sanitizeVendorMessage(text, ctx);
    expect(clean).not.toContain(ctx.apiKey);
    expect(clean).not.toContain("api.vendor.example");
  });

  it("removes links, bearer tokens, key-like strings, inline data and long ids", () => {
    const clean = sanitizeVendorMessage(
      "see https://cdn.example/a.png?sig=abc Authorization: Bearer abc.def r8_AbCdEf123456 " +
        "data:image/png;base64,iVBORw0KGgo= Request id: 021718067849274bd2c1f4c7d8e3a9b0c5d6e7f8",
      ctx,
    );
    expect(clean).toBe(
      "see [link] Authorization: Bearer [redacted] [redacted] [data] Request id: [redacted]",
    );
  });

  it("keeps one line of at most 200 characters", () => {
    const clean = sanitizeVendorMessage(`first line\nsecond line ${"word ".repeat(100)}`, ctx);
    expect(clean).not.toContain("\n");
    expect(clean.length).toBeLessThanOrEqual(200);
    expect(clean.endsWith("…")).toBe(true);
  });
});

describe("errorForStatus", () => {
  it.each([
    [400, "The AI provider rejected the request: bad size", false],
    [413, "The AI provider rejected the request: bad size", false],
    [422, "The AI provider rejected the request: bad size", false],
    [401, userMessages.misconfigured, false],
    [402, userMessages.misconfigured, false],
    [403, userMessages.misconfigured, false],
    [404, userMessages.misconfigured, false],
    [408, userMessages.timeout, true],
    [409, userMessages.busy, true],
    [429, userMessages.busy, true],
    [500, userMessages.failed, true],
    [502, userMessages.failed, true],
    [503, userMessages.failed, true],
  ] as const)("maps %i", (status, message, retryable) => {
    const error = errorForStatus(ctx, status, { message: "bad size", code: "X" });
    expect(error.message).toBe(message);
    expect(error.retryable).toBe(retryable);
    expect(error.internal).toBe(`test HTTP ${status} X: bad size`);
  });

  it("says 'rejected' without a colon when the vendor gave no reason", () => {
    expect(errorForStatus(ctx, 400, { message: undefined, code: undefined }).message).toBe(
      "The AI provider rejected the request.",
    );
  });

  it("does not ask users to retry an exhausted quota, even when it comes as 429", () => {
    const error = errorForStatus(ctx, 429, {
      message: "You exceeded your current quota",
      code: "insufficient_quota",
    });
    expect(error.message).toBe(userMessages.misconfigured);
    expect(error.retryable).toBe(false);
  });
});

describe("sniffMediaType", () => {
  it("recognises PNG, JPEG, WebP, MP4 and WebM by their first bytes", async () => {
    expect(sniffMediaType(await samplePng())).toBe("image/png");
    expect(sniffMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe("image/jpeg");
    expect(sniffMediaType(Buffer.from("RIFF\0\0\0\0WEBPVP8 ", "latin1"))).toBe("image/webp");
    expect(sniffMediaType(sampleMp4())).toBe("video/mp4");
    expect(sniffMediaType(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1]))).toBe("video/webm");
    expect(sniffMediaType(Buffer.from("<html>"))).toBeUndefined();
  });
});

describe("downloadMedia", () => {
  let files: FakeServer;
  let chunked: http.Server;
  let chunkedUrl: string;
  let png: Buffer;
  /** The vendor serves its results from its own (here: local) origin, which is trusted as configured. */
  let vendor: VendorContext;

  beforeAll(async () => {
    png = await samplePng();
    files = await startFakeServer(
      () => ({ kind: "json", status: 404, body: {} }),
      (status) => ({ kind: "json", status, body: {} }),
    );
    // A body without a declared length, to check the cap while streaming.
    chunked = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.write(png);
      res.end(Buffer.alloc(4096));
    });
    await new Promise<void>((resolve) => chunked.listen(0, "127.0.0.1", resolve));
    chunkedUrl = `http://127.0.0.1:${(chunked.address() as AddressInfo).port}/big.png`;
    vendor = { ...ctx, baseUrl: `${files.origin}/v1` };
  });
  afterAll(async () => {
    await files.close();
    await new Promise((resolve) => chunked.close(resolve));
  });

  it("copies an image whatever its declared content type, without credentials", async () => {
    const url = files.addFile("a.png", png, "application/octet-stream");
    const file = await downloadMedia(vendor, url, { kind: "image", timeoutMs: 5000 });
    expect(file).toEqual({ data: png, mimeType: "image/png" });
    expect(files.downloads[0]?.headers.authorization).toBeUndefined();
  });

  it("accepts a result sent inline as a data: URL", async () => {
    const file = await downloadMedia(vendor, `data:image/png;base64,${png.toString("base64")}`, {
      kind: "image",
      timeoutMs: 5000,
    });
    expect(file).toEqual({ data: png, mimeType: "image/png" });
    const notVideo = await catchProviderError(
      downloadMedia(vendor, `data:video/mp4;base64,${png.toString("base64")}`, {
        kind: "video",
        timeoutMs: 5000,
      }),
    );
    expect(notVideo.message).toBe(userMessages.malformed);
  });

  it("refuses a file over the cap, declared or streamed", async () => {
    const url = files.addFile("b.png", png, "image/png");
    const declared = await catchProviderError(
      downloadMedia(vendor, url, { kind: "image", timeoutMs: 5000, maxBytes: png.length - 1 }),
    );
    expect(declared.message).toBe(userMessages.tooLarge);
    expect(declared.retryable).toBe(false);
    const streamed = await catchProviderError(
      downloadMedia({ ...ctx, baseUrl: new URL(chunkedUrl).origin }, chunkedUrl, {
        kind: "image",
        timeoutMs: 5000,
        maxBytes: png.length + 100,
      }),
    );
    expect(streamed.message).toBe(userMessages.tooLarge);
  });

  it("refuses a video where an image was expected, and other schemes than http(s)", async () => {
    const url = files.addFile("c.mp4", sampleMp4(), "image/png");
    expect(
      (await catchProviderError(downloadMedia(vendor, url, { kind: "image", timeoutMs: 5000 }))).message,
    ).toBe(userMessages.malformed);
    const fileScheme = await catchProviderError(
      downloadMedia(vendor, "file:///etc/passwd", { kind: "image", timeoutMs: 5000 }),
    );
    expect(fileScheme.message).toBe(userMessages.malformed);
  });

  it("reports an expired link and a hanging download without the link itself", async () => {
    const gone = await catchProviderError(
      downloadMedia(vendor, `${files.origin}/files/missing.png?X-Signature=secret`, {
        kind: "image",
        timeoutMs: 5000,
      }),
    );
    expect(gone.message).toBe(userMessages.download);
    expect(gone.internal).not.toContain("X-Signature");
    files.failNext("hang", "/files/");
    const url = files.addFile("d.png", png, "image/png");
    const slow = await catchProviderError(downloadMedia(vendor, url, { kind: "image", timeoutMs: 200 }));
    expect(slow.message).toBe(userMessages.timeout);
    expect(slow.retryable).toBe(true);
  });
});

describe("downloadMedia: where a result link may lead", () => {
  let png: Buffer;
  /** Something on this machine the server must never fetch for a vendor (an admin page, a metadata API). */
  let internal: http.Server;
  let internalPort: number;
  let internalHits = 0;
  /** The vendor: answers its own files, and redirects /hop/<url> wherever it is told. */
  let vendorServer: http.Server;
  let vendor: VendorContext;

  beforeAll(async () => {
    png = await samplePng();
    internal = http.createServer((_req, res) => {
      internalHits += 1;
      res.writeHead(200, { "content-type": "image/png" });
      res.end(png);
    });
    await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
    internalPort = (internal.address() as AddressInfo).port;
    vendorServer = http.createServer((req, res) => {
      const target = /^\/hop\/(.+)$/.exec(req.url ?? "")?.[1];
      if (target) {
        res.writeHead(302, { location: decodeURIComponent(target) });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "image/png" });
      res.end(png);
    });
    await new Promise<void>((resolve) => vendorServer.listen(0, "127.0.0.1", resolve));
    vendor = { ...ctx, baseUrl: `http://127.0.0.1:${(vendorServer.address() as AddressInfo).port}/v1` };
  });
  afterAll(async () => {
    await new Promise((resolve) => internal.close(resolve));
    await new Promise((resolve) => vendorServer.close(resolve));
  });

  const refused = async (context: VendorContext, url: string) => {
    const error = await catchProviderError(downloadMedia(context, url, { kind: "image", timeoutMs: 5000 }));
    expect(error.message).toBe(userMessages.download);
    expect(error.retryable).toBe(false);
    expect(error.internal).toMatch(/download refused/);
    return error;
  };

  it("fetches from the vendor's own configured origin", async () => {
    const file = await downloadMedia(vendor, `${new URL(vendor.baseUrl).origin}/files/x.png`, {
      kind: "image",
      timeoutMs: 5000,
    });
    expect(file.mimeType).toBe("image/png");
  });

  it.each([
    (port: number) => `http://127.0.0.1:${port}/secret.png`,
    (port: number) => `http://localhost:${port}/secret.png`,
    (port: number) => `http://[::1]:${port}/secret.png`,
    (port: number) => `http://[::ffff:127.0.0.1]:${port}/secret.png`,
    (port: number) => `http://2130706433:${port}/secret.png`,
    (port: number) => `http://0x7f000001:${port}/secret.png`,
    (port: number) => `http://0177.0.0.1:${port}/secret.png`,
    () => "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    () => "http://10.1.2.3/secret.png",
    () => "http://192.168.0.1/secret.png",
    () => "http://[fe80::1]/secret.png",
    () => "http://224.0.0.1/secret.png",
  ])("refuses a result link to a non-public address (%#)", async (link) => {
    const before = internalHits;
    const error = await refused(vendor, link(internalPort));
    expect(error.internal).toMatch(/non-public address/);
    expect(internalHits).toBe(before);
  });

  it("checks every redirect hop, so the vendor cannot bounce the download to this machine", async () => {
    const before = internalHits;
    const bounce = `${new URL(vendor.baseUrl).origin}/hop/${encodeURIComponent(`http://localhost:${internalPort}/secret.png`)}`;
    await refused(vendor, bounce);
    expect(internalHits).toBe(before);
  });

  it("keeps to VENDOR_DOWNLOAD_HOSTS when the operator lists them", async () => {
    const listed = { ...vendor, downloadHosts: ["cdn.vendor.example"] };
    const error = await refused(listed, "https://elsewhere.example/result.png");
    expect(error.internal).toContain("not in VENDOR_DOWNLOAD_HOSTS");
    // A listed name that resolves to this machine is still refused.
    const local = { ...vendor, downloadHosts: ["localhost"] };
    await refused(local, `http://localhost:${internalPort}/secret.png`);
  });
});

describe("requestJson", () => {
  it("does not follow redirects, which would carry the key elsewhere", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(302, { location: "http://127.0.0.1:9/steal" });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const error = await catchProviderError(requestJson({ ...ctx, baseUrl }, { method: "GET", path: "/x" }));
      expect(error.message).toBe(userMessages.unreachable);
      expect(error.internal).not.toContain(ctx.apiKey);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("Deadline", () => {
  it("tells its own time-out apart from the caller's cancel", async () => {
    const own = new Deadline(10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(own.signal.aborted).toBe(true);
    expect(own.timedOut).toBe(true);
    own.dispose();

    const caller = new AbortController();
    const linked = new Deadline(10_000, caller.signal);
    caller.abort(new Error("left"));
    expect(linked.signal.aborted).toBe(true);
    expect(linked.timedOut).toBe(false);
    linked.dispose();
  });

  it("restarts its clock on refresh and stops it on pause", async () => {
    const deadline = new Deadline(300);
    await new Promise((resolve) => setTimeout(resolve, 150));
    deadline.refresh();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(deadline.signal.aborted).toBe(false);
    deadline.pause();
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(deadline.signal.aborted).toBe(false);
    deadline.dispose();
  });
});
