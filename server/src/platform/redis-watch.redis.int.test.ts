// Redis going away and coming back (decision 0128): one log line each however many reconnections fail in
// between, and /api/ready says "degraded" (still 200: the limiter counts in memory meanwhile) until it is back.
// Redis is reached through a small TCP proxy this test owns, so "going away" is cutting the proxy.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { connectRedis, watchRedis } from "./redis";

const redisUrl = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");

/** A proxy to Redis that can be cut (listener closed, every connection dropped) and restored on its port. */
async function startCuttableProxy() {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(Number(redisUrl.port || 6379), redisUrl.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  await listen();
  return {
    url: () => `redis://127.0.0.1:${port}${redisUrl.pathname}`,
    cut: async () => {
      const closing = new Promise((resolve) => server?.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closing;
    },
    restore: listen,
  };
}

const waitFor = async (what: string, check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe("Redis loss and return", () => {
  let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
  beforeAll(async () => {
    proxy = await startCuttableProxy();
  });
  afterAll(async () => {
    await proxy.cut();
  });

  it("logs the loss once and the return once, however many reconnections fail in between", async () => {
    const lines: { level: string; fields: object; msg: string | undefined }[] = [];
    const log = {
      info: (fields: object, msg?: string) => lines.push({ level: "info", fields, msg }),
      warn: (fields: object, msg?: string) => lines.push({ level: "warn", fields, msg }),
      error: (fields: object, msg?: string) => lines.push({ level: "error", fields, msg }),
    };
    const client = await connectRedis(proxy.url());
    const watch = watchRedis(client, log);
    try {
      expect(watch.state()).toBe("ok");
      let reconnections = 0;
      client.on("reconnecting", () => {
        reconnections += 1;
      });
      await proxy.cut();
      await waitFor("the loss", () => watch.state() === "lost");
      // Several failed reconnections (ioredis tries again after 50, 100, 150 ... ms) log nothing more.
      await waitFor("three reconnections", () => reconnections >= 3);
      expect(lines.filter((line) => line.level === "warn")).toHaveLength(1);
      expect(lines[0]?.msg).toMatch(/^Redis connection lost: rate limits count in this process's memory/);

      await proxy.restore();
      await waitFor("the return", () => watch.state() === "ok");
      expect(lines.map((line) => line.level)).toEqual(["warn", "info"]);
      expect(lines[1]?.msg).toMatch(/^Redis connection back/);
    } finally {
      await watch.close();
    }
    // Our own quit is not a loss.
    expect(lines).toHaveLength(2);
  });

  it("shows in /api/ready's details: degraded (still ready) while lost, ok again once back", async () => {
    const t: TestApp = await createTestApp({ workers: false, env: { REDIS_URL: proxy.url() } });
    try {
      const ready = async () => {
        const res = await t.app.inject({ method: "GET", url: "/api/ready" });
        expect(res.statusCode).toBe(200);
        return res.json().details.redis as string;
      };
      expect(await ready()).toBe("ok");
      await proxy.cut();
      await waitFor("degraded", async () => (await ready()) === "degraded");
      // Requests are still served: a sign-in attempt's limit counts in memory.
      const signIn = await t.app.inject({
        method: "POST",
        url: "/api/login",
        payload: { email: "nobody@example.com", password: "wrong-password-123" },
      });
      expect(signIn.statusCode).toBeLessThan(500);
      await proxy.restore();
      await waitFor("ok again", async () => (await ready()) === "ok");
    } finally {
      await t.cleanup();
    }
  });
});
