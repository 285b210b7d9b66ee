// Attacks on the HTTP layer from the outside audit, replayed against the real app: NUL characters, extreme
// cursors, spoofed X-Forwarded-For, slow clients, connection floods, and HEAD on app pages.
import { once } from "node:events";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, freshAddress } from "../../test/factories";

describe("input the database cannot hold", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("answers 400 naming the field for a NUL character in an anonymous sign-in", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: "someone\u0000@example.com", password: "whatever" },
      remoteAddress: freshAddress(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("Invalid body field email: must not contain NUL characters");
  });

  it("answers 400 for NUL in a story title, a query and a path, and stores nothing", async () => {
    const u = await createUser(t);
    const story = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: bearer(u.token),
      payload: { title: "Night\u0000Watch" },
    });
    expect(story.statusCode).toBe(400);
    expect(story.json().detail).toBe("Invalid body field title: must not contain NUL characters");
    const list = await t.app.inject({ method: "GET", url: "/api/stories", headers: bearer(u.token) });
    expect(JSON.stringify(list.json())).not.toContain("Night");

    const query = await t.app.inject({
      method: "GET",
      url: "/api/gallery?cursor=%00",
      headers: bearer(u.token),
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().detail).toContain("field cursor: must not contain NUL characters");

    const path = await t.app.inject({
      method: "GET",
      url: "/api/check-email/a%00b%40example.com",
      remoteAddress: freshAddress(),
    });
    expect(path.statusCode).toBe(400);
    expect(path.json().detail).toContain("must not contain NUL characters");

    // Even the probes, which take no input (their documents list the 400).
    const probe = await t.app.inject({ method: "GET", url: "/api/config?x=%00" });
    expect(probe.statusCode).toBe(400);
    expect(probe.json()).toEqual({
      detail: "Invalid querystring field x: must not contain NUL characters",
      code: "invalid_request",
    });
  });

  it("answers 400, not 500, for a gallery cursor with a date outside what the database holds", async () => {
    const u = await createUser(t);
    const id = "7f9c0c1e-6a55-4d2b-9a53-9a0b6f1c2d3e";
    for (const at of [
      "+200000-01-01T00:00:00.000Z",
      "-050000-01-01T00:00:00.000Z",
      "1969-12-31T23:59:59.000Z",
    ]) {
      const cursor = Buffer.from(`${at}|${id}`, "utf8").toString("base64url");
      const res = await t.app.inject({
        method: "GET",
        url: `/api/gallery?cursor=${cursor}`,
        headers: bearer(u.token),
      });
      expect(res.statusCode, at).toBe(400);
      expect(res.json().detail).toBe("This gallery link is out of date. Please reload the gallery.");
    }
  });

  it("answers HEAD on an app page like GET", async () => {
    const get = await t.app.inject({ method: "GET", url: "/verify-email?token=abc" });
    const head = await t.app.inject({ method: "HEAD", url: "/verify-email?token=abc" });
    expect(get.statusCode).toBe(200);
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
    expect(head.body).toBe("");
    expect((await t.app.inject({ method: "HEAD", url: "/api/nothing-here" })).statusCode).toBe(404);
  });
});

describe("TRUST_PROXY", () => {
  /** 31 sign-ins through one proxy, each with a different forged first X-Forwarded-For entry. */
  async function forgedLogins(t: TestApp, proxy: string, client: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/login",
        payload: { email: `nobody-${i}@example.com`, password: "guess" },
        remoteAddress: proxy,
        headers: { "x-forwarded-for": `198.51.100.${i}, ${client}` },
      });
      statuses.push(res.statusCode);
    }
    return statuses;
  }

  it("with a hop count, believes only the proxy's entry, so a forged header cannot dodge the limit", async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
    try {
      const statuses = await forgedLogins(t, "10.20.0.1", "203.0.113.9");
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
      expect(statuses[30]).toBe(429);
    } finally {
      await t.cleanup();
    }
  });

  it("with proxy addresses and CIDRs, believes only entries added by those proxies", async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: "10.0.0.0/8,127.0.0.1" } });
    try {
      const statuses = await forgedLogins(t, "10.20.0.1", "203.0.113.10");
      expect(statuses[30]).toBe(429);
      // A client that is not a listed proxy is itself the client, whatever header it sends.
      const direct = await forgedLogins(t, "192.0.2.77", "203.0.113.11");
      expect(direct[30]).toBe(429);
    } finally {
      await t.cleanup();
    }
  });
});

describe("slow and many connections", () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ env: { REQUEST_TIMEOUT_SECONDS: "1" }, workers: false });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("cuts off a client that trickles its request in", async () => {
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.on("error", () => {});
    socket.write(
      "POST /api/newsletter HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n{",
    );
    // One byte every 200 ms: the socket is never idle, only slow.
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(" ");
    }, 200);
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const closed = await Promise.race([
      once(socket, "close").then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    clearInterval(drip);
    socket.destroy();
    expect(closed).toBe(true);
    expect(Buffer.concat(received).toString("latin1")).toMatch(/^HTTP\/1\.1 408/);
  });

  it("refuses more than MAX_CONNECTIONS_PER_ADDRESS open connections from one address", async () => {
    // Its own app with a long request time-out: on a loaded machine the connections within the cap must
    // not be cut off as slow before the test writes its request on one of them.
    const capped = await createTestApp({ env: { MAX_CONNECTIONS_PER_ADDRESS: "8" }, workers: false });
    onTestFinished(() => capped.cleanup());
    await capped.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (capped.app.server.address() as net.AddressInfo).port;
    const sockets: net.Socket[] = [];
    let closedEarly = 0;
    for (let i = 0; i < 8 + 6; i += 1) {
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", () => {});
      socket.on("close", () => {
        closedEarly += 1;
      });
      await once(socket, "connect");
      sockets.push(socket);
    }
    const deadline = Date.now() + 10_000;
    while (closedEarly < 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closedEarly).toBe(6);
    // The connections within the cap still work.
    sockets[0]!.write("GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    const [answer] = (await once(sockets[0]!, "data")) as [Buffer];
    expect(answer.toString("latin1")).toMatch(/^HTTP\/1\.1 200/);
    for (const socket of sockets) socket.destroy();
  });
});
