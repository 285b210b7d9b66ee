// Compression of the server's answers: JSON over 1 KB as brotli or gzip, whichever the client asks for; small
// answers, event streams and the pre-compressed built assets as they were.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser, type TestUser } from "../../test/factories";
import { COMPRESSION_THRESHOLD_BYTES } from "./compression";

describe("answer compression", () => {
  let t: TestApp;
  let user: TestUser;
  let storyId: string;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: { authorization: `Bearer ${user.token}` },
      payload: { title: "A long one", context: "Once upon a time, ".repeat(100) },
    });
    expect(created.statusCode).toBe(200);
    storyId = created.json().story.id;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const listStories = (acceptEncoding?: string) =>
    t.app.inject({
      method: "GET",
      url: "/api/stories",
      headers: {
        authorization: `Bearer ${user.token}`,
        ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
      },
    });

  it("sends a JSON answer over 1 KB as brotli or gzip, per Accept-Encoding, decoding to the same JSON", async () => {
    const plain = await listStories();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const expected = plain.json();

    const br = await listStories("gzip, deflate, br");
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toContain("application/json");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(expected);

    const gzip = await listStories("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString("utf8"))).toEqual(expected);

    const identity = await listStories("identity");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.json()).toEqual(expected);
  });

  it("sends an answer under 1 KB as it is", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/credit-balance",
      headers: { authorization: `Bearer ${user.token}`, "accept-encoding": "br, gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.json()).toHaveProperty("remaining");
  });

  it("never compresses an event stream, however long", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/stories/${storyId}/chat`,
      headers: {
        authorization: `Bearer ${user.token}`,
        accept: "text/event-stream",
        "accept-encoding": "br, gzip",
      },
      payload: { prompt: "Tell me a long tale of the harbour at night.", chat_mode: "chat" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("text/event-stream");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body).toContain("event: delta");
    expect(res.body).toContain("event: done");
  });

  it("still serves a built asset's pre-compressed twin, not a second compression", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/assets/app-abc123.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(res.rawPayload).toString("utf8")).toContain("console.log(");
  });
});
