// The audit's memory attack on the image routes, replayed over real sockets: a large body is announced and
// only trickled in. A user who cannot pay, or who already has two uploads running, is answered before the
// server reads the body; an ordinary request whose body never arrives is cut off quickly, while an upload
// gets the longer upload time-out.
import { once } from "node:events";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser, type TestUser } from "../../test/factories";
import { charge } from "../credits/service";

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ env: { BODY_TIMEOUT_SECONDS: "1", REQUEST_TIMEOUT_SECONDS: "6" } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await t.cleanup();
});

type Probe = { socket: net.Socket; answer: () => string; closed: Promise<void> };

/** Sends the headers of a request announcing `length` body bytes, plus the first `sent` of them. */
async function announce(
  path: string,
  length: number,
  headers: Record<string, string>,
  sent = "{",
): Promise<Probe> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await once(socket, "connect");
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const closed = once(socket, "close").then(() => undefined);
  const lines = Object.entries({ host: "localhost", "content-type": "application/json", ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(`POST ${path} HTTP/1.1\r\n${lines}content-length: ${length}\r\n\r\n${sent}`);
  return { socket, answer: () => Buffer.concat(received).toString("latin1"), closed };
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const auth = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
const HUNDRED_MB = 100 * 1024 * 1024;

describe("the image routes' gate", () => {
  it("answers 402 to a user who cannot pay before reading a 100 MB body", async () => {
    const user = await createUser(t);
    await charge(t.ctx.db, user.userId, "image", 10, t.clock.now(), "spent elsewhere");
    const probe = await announce("/api/studio/generate-image", HUNDRED_MB, auth(user));
    expect(await waitFor(() => probe.answer().includes("\r\n\r\n"), 5_000)).toBe(true);
    expect(probe.answer()).toMatch(/^HTTP\/1\.1 402/);
    expect(probe.answer()).toContain('"quota_exceeded":true');
    probe.socket.destroy();
  });

  it("answers 429 to a third large upload while two of the user's are still arriving", async () => {
    const user = await createUser(t);
    const story = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: auth(user),
      payload: { title: "Gate", context: "" },
    });
    const storyId = story.json().story.id as string;
    const first = await announce("/api/studio/generate-image", HUNDRED_MB, auth(user));
    const second = await announce(`/api/stories/${storyId}/chat`, HUNDRED_MB, auth(user));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = await announce("/api/studio/generate-image", HUNDRED_MB, auth(user));
    expect(await waitFor(() => third.answer().includes("\r\n\r\n"), 5_000)).toBe(true);
    expect(third.answer()).toMatch(/^HTTP\/1\.1 429/);
    // The first two are still being read (no answer yet): they hold the slots, not the third.
    expect(first.answer()).toBe("");
    expect(second.answer()).toBe("");
    for (const probe of [first, second, third]) probe.socket.destroy();
    await Promise.all([first.closed, second.closed]);
    // Once they are gone the slots are free again: a small batch goes through.
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/studio/generate-image",
      headers: auth(user),
      payload: { prompt: "a lantern", batch_size: 1 },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe("body time-outs", () => {
  it("cuts off an ordinary request whose body does not arrive within BODY_TIMEOUT_SECONDS", async () => {
    const started = Date.now();
    const probe = await announce("/api/login", 200, {});
    const drip = setInterval(() => {
      if (!probe.socket.destroyed) probe.socket.write(" ");
    }, 200);
    await Promise.race([probe.closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    clearInterval(drip);
    expect(probe.answer()).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(4_000);
    probe.socket.destroy();
  });

  it("gives an upload the longer REQUEST_TIMEOUT_SECONDS, then cuts it off too", async () => {
    const user = await createUser(t);
    const started = Date.now();
    const probe = await announce("/api/studio/generate-image", 500_000, auth(user));
    const drip = setInterval(() => {
      if (!probe.socket.destroyed) probe.socket.write(" ");
    }, 200);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(probe.socket.destroyed).toBe(false);
    expect(probe.answer()).toBe("");
    await Promise.race([probe.closed, new Promise((resolve) => setTimeout(resolve, 12_000))]);
    clearInterval(drip);
    expect(probe.answer()).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    probe.socket.destroy();
  });
});
