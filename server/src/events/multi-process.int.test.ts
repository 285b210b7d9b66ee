// Event streams with two API processes on one database (a second app with its own pool and LISTEN
// connection on PostgreSQL; on PGlite it shares the database handle): a logout through one process closes
// the session's streams held by the other, including a stream whose session was checked just before the
// logout and registered just after the other process's close notice went by.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser } from "../../test/factories";
import { type EventStream, openEventStream } from "../../test/sse";
import { buildApp } from "../app";
import { type Database, openDatabase } from "../db/client";
import type { TypedApp } from "../http/route-module";
import { STREAMS_CLOSED_CHANNEL } from "./service";

let t: TestApp;
let other: TypedApp;
let otherDatabase: Database;
let otherBase: string;
const open: EventStream[] = [];

/** Holds the next /api/events request on `other` after its session check, until released. */
let gate: { reached: () => void; released: Promise<void> } | undefined;

beforeAll(async () => {
  t = await createTestApp();
  otherDatabase = t.database.kind === "postgres" ? await openDatabase(t.target) : t.database;
  other = await buildApp({
    config: t.config,
    database: otherDatabase,
    jobs: t.jobs,
    providers: t.providers,
    storage: t.storage,
    clock: t.clock,
    webDistDir: t.webDistDir,
    logger: false,
  });
  // Runs after the auth hook (onRequest) and before the route's handler registers the stream.
  other.addHook("preHandler", async (request) => {
    if (!request.url.startsWith("/api/events") || !gate) return;
    const held = gate;
    gate = undefined;
    held.reached();
    await held.released;
  });
  otherBase = await other.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  for (const stream of open) stream.close();
  await other.close();
  if (otherDatabase !== t.database) await otherDatabase.close();
  await t.cleanup();
});

/** Resolves when the stream ends; fails if it is still open after `withinMs`. */
async function endsWithin(stream: EventStream, withinMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`stream still open after ${withinMs} ms`)), withinMs);
  });
  try {
    await Promise.race([stream.ended, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const logout = (token: string) =>
  t.app.inject({ method: "POST", url: "/api/logout", headers: bearer(token) });

describe("event streams with two API processes", () => {
  it("closes a stream held by the other process when its session logs out", async () => {
    const user = await createUser(t);
    const stream = await openEventStream(otherBase, user.token);
    open.push(stream);
    expect(stream.status).toBe(200);
    expect((await logout(user.token)).statusCode).toBe(200);
    await endsWithin(stream, 5000);
  });

  it("closes a stream whose session was checked before a logout and registered after the close notice", async () => {
    const user = await createUser(t);
    // The other process has the session cached, as it would after any earlier request.
    expect(
      (await other.inject({ method: "GET", url: "/api/user/verify", headers: bearer(user.token) }))
        .statusCode,
    ).toBe(200);
    let reached!: () => void;
    let release!: () => void;
    const atGate = new Promise<void>((resolve) => {
      reached = resolve;
    });
    gate = { reached, released: new Promise((resolve) => (release = resolve)) };
    const opening = openEventStream(otherBase, user.token);
    await atGate;

    // The logout, and the other process hearing its close notice while the stream is not yet registered.
    const heard = new Promise<void>((resolve) => {
      const stop = otherDatabase.notifier.subscribe(STREAMS_CLOSED_CHANNEL, (payload) => {
        if (payload.startsWith("session:")) {
          stop();
          resolve();
        }
      });
    });
    expect((await logout(user.token)).statusCode).toBe(200);
    await heard;

    release();
    const stream = await opening;
    open.push(stream);
    await endsWithin(stream, 5000);
    expect(stream.events).toEqual([]);
  });
});
