// The Health tab across processes (decision 0159). The HTTP app (WORKER=off, no job workers of its own) answers
// GET /api/admin/health; a "worker" writes its vendor calls through its own report, on a connection of its own
// on PostgreSQL (on embedded PGlite, one process's database, the same handle): its calls appear in the app's
// answer with the right counts, error rate and quantiles, its streams are summed and its process counted, and
// once it stops its streams leave but its calls stay for the hour. The app's own call shows at once (it writes
// before it reads); stale minutes and heartbeats are pruned, and a stale heartbeat is not counted meanwhile. On
// PostgreSQL a real worker process (WORKER=only) draws a picture turn, and its picture call shows too.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { testEngine } from "../../test/database";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { spawnServer } from "../../test/processes";
import { changeAccount } from "../accounts/service";
import { type Database, openDatabase } from "../db/client";
import { createVendorMinutes, MINUTE_MS, minuteOf } from "../platform/vendor-minutes";
import { type HealthReport, startHealthReport } from "./health-report";

let t: TestApp;
let admin: TestUser;
let workerDatabase: Database;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { WORKER: "off" } });
  admin = await createUser(t);
  await changeAccount(t.ctx, admin.userId, { role: "admin" });
  workerDatabase = t.database.kind === "postgres" ? await openDatabase(t.target) : t.database;
});
afterAll(async () => {
  if (workerDatabase !== t.database) await workerDatabase.close();
  await t.cleanup();
});

type VendorRow = {
  vendor: string;
  kind: string;
  calls: number;
  errors: number;
  error_rate: number;
  p50_ms: number;
  p95_ms: number;
};
type Health = {
  since: string;
  vendors: VendorRow[];
  event_streams_open: number;
  processes: { reporting: number; http: number; worker: number };
};

const health = async (): Promise<Health> => {
  const res = await t.app.inject({ method: "GET", url: "/api/admin/health", headers: bearer(admin.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const row = (answer: Health, vendor: string, kind: string) =>
  answer.vendors.find((each) => each.vendor === vendor && each.kind === kind);

/** A worker's report with figures of its own, as a worker process has (its instrumented providers feed them). */
function startWorkerReport(streams: () => number) {
  const minutes = createVendorMinutes();
  const report = startHealthReport(
    { db: workerDatabase.db, log: silent },
    { role: "worker", figures: { minutes, eventStreamsOpen: streams }, everyMs: 60_000 },
  );
  return { minutes, report };
}

describe("vendor health across processes", () => {
  it("sums a worker's calls, streams and process into the HTTP process's answer", async () => {
    const before = await health();
    expect(before.processes).toEqual({ reporting: 1, http: 1, worker: 0 });

    const worker = startWorkerReport(() => 3);
    // 40 picture calls: 100..4000 ms, every tenth one failed; and 2 clip calls.
    for (let i = 1; i <= 40; i++) worker.minutes.record("byteplus", "image", i * 100, i % 10 === 0);
    worker.minutes.record("byteplus", "video", 2_000, false);
    worker.minutes.record("byteplus", "video", 2_000, true);
    await worker.report.flush();

    const answer = await health();
    expect(answer.processes).toEqual({ reporting: 2, http: 1, worker: 1 });
    expect(answer.event_streams_open).toBe(before.event_streams_open + 3);
    const image = row(answer, "byteplus", "image")!;
    expect(image).toMatchObject({ calls: 40, errors: 4, error_rate: 0.1 });
    // Exact nearest rank: p50 2000 ms, p95 3800 ms; one log-scale bucket is within 9.05%.
    expect(Math.abs(image.p50_ms - 2000) / 2000).toBeLessThanOrEqual(0.0906);
    expect(Math.abs(image.p95_ms - 3800) / 3800).toBeLessThanOrEqual(0.0906);
    expect(row(answer, "byteplus", "video")).toMatchObject({
      calls: 2,
      errors: 1,
      error_rate: 0.5,
      p50_ms: 2000,
      p95_ms: 2000,
    });

    // More calls in the same minute: the minute's row is written again whole, nothing counted twice.
    for (let i = 0; i < 10; i++) worker.minutes.record("byteplus", "image", 50, false);
    await worker.report.flush();
    await worker.report.flush();
    const more = row(await health(), "byteplus", "image")!;
    expect(more).toMatchObject({ calls: 50, errors: 4, error_rate: 0.08 });
    expect(Math.abs(more.p50_ms - 1500) / 1500).toBeLessThanOrEqual(0.0906);

    // A second worker's calls of the same vendor and kind merge with the first's.
    const second = startWorkerReport(() => 0);
    for (let i = 0; i < 50; i++) second.minutes.record("byteplus", "image", 10_000, false);
    await second.report.flush();
    const merged = row(await health(), "byteplus", "image")!;
    expect(merged).toMatchObject({ calls: 100, errors: 4, error_rate: 0.04 });
    // The 50th of 100 calls is the first worker's longest (4000 ms); the 95th one of the second's 10 s calls.
    expect(Math.abs(merged.p50_ms - 4000) / 4000).toBeLessThanOrEqual(0.0906);
    expect(merged.p95_ms).toBe(10_000);
    await second.report.stop();

    // A stopped worker: its heartbeat (and streams) go at once, its calls stay for the hour.
    await worker.report.stop();
    const after = await health();
    expect(after.processes).toEqual({ reporting: 1, http: 1, worker: 0 });
    expect(after.event_streams_open).toBe(before.event_streams_open);
    expect(row(after, "byteplus", "image")?.calls).toBe(100);
  });

  it("shows a vendor call the answering process has just made, before its timer writes it", async () => {
    const player = await createUser(t);
    const before = (await health()).vendors.filter((each) => each.kind === "text");
    const calls = (rows: VendorRow[]) => rows.reduce((sum, each) => sum + each.calls, 0);
    const turn = await t.app.inject({
      method: "POST",
      url: "/api/chat",
      headers: bearer(player.token),
      payload: { prompt: "I look around", chat_mode: "chat" },
    });
    expect(turn.statusCode, turn.body).toBe(200);
    const after = (await health()).vendors.filter((each) => each.kind === "text");
    expect(calls(after)).toBeGreaterThan(calls(before));
    expect(after[0]?.p50_ms).toEqual(expect.any(Number));
  });

  it("prunes minutes past the hour and heartbeats not renewed for two minutes, and never counts them", async () => {
    const gone = "00000000-0000-4000-8000-00000000dead";
    const old = new Date(minuteOf(Date.now()) - 2 * 60 * MINUTE_MS).toISOString();
    await t.ctx.db.execute(sql`
      insert into vendor_call_minutes (process_id, minute, vendor, kind, calls, errors, min_ms, max_ms, histogram)
      values (${gone}, ${old}::timestamptz, 'ancient', 'image', 5, 5, 10, 10, '{0,5}')`);
    await t.ctx.db.execute(sql`
      insert into server_processes (id, role, event_streams_open, started_at, seen_at)
      values (${gone}, 'http', 40, now() - interval '1 hour', now() - interval '5 minutes')`);

    // Counted by nobody even before the prune.
    const answer = await health();
    expect(row(answer, "ancient", "image")).toBeUndefined();
    expect(answer.processes.reporting).toBe(1);
    expect(answer.event_streams_open).toBeLessThan(40);

    const report: HealthReport = startHealthReport(
      { db: workerDatabase.db, log: silent },
      {
        role: "worker",
        figures: { minutes: createVendorMinutes(), eventStreamsOpen: () => 0 },
        everyMs: 60_000,
      },
    );
    await report.tick();
    const left = await t.ctx.db.execute<{ n: number }>(sql`
      select (select count(*) from vendor_call_minutes where process_id = ${gone})::int
        + (select count(*) from server_processes where id = ${gone})::int as n`);
    expect(Number(left.rows[0]?.n)).toBe(0);
    await report.stop();
  });

  it.skipIf(testEngine !== "postgres")(
    "counts the picture calls a real worker process made (WORKER=only, on PostgreSQL)",
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-health-"));
      const url = "url" in t.target ? t.target.url : "";
      const worker = spawnServer({
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        WORKER: "only",
        OFFLINE_MEDIA_SCALE: "0.25",
        OFFLINE_TEXT_WORDS_PER_SECOND: "0",
      });
      try {
        const imageCalls = async () =>
          (await health()).vendors
            .filter((each) => each.kind === "image")
            .reduce((sum, each) => sum + each.calls, 0);
        const before = await imageCalls();
        const player = await createUser(t);
        const turn = await t.app.inject({
          method: "POST",
          url: "/api/chat",
          headers: bearer(player.token),
          payload: { prompt: "A lighthouse in a storm", chat_mode: "image" },
        });
        expect(turn.statusCode, turn.body).toBe(200);
        const messageId = turn.json().message_id as string;
        let status: { media_generation_completed?: boolean; media_generation_failed?: boolean } = {};
        const deadline = Date.now() + 80_000;
        while (
          !status.media_generation_completed &&
          !status.media_generation_failed &&
          Date.now() < deadline
        ) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          status = (
            await t.app.inject({
              method: "GET",
              url: `/api/chat/media-status/${messageId}`,
              headers: bearer(player.token),
            })
          ).json();
        }
        expect(status.media_generation_completed, worker.output()).toBe(true);
        // The worker is counted while it runs (it reported at its start).
        expect((await health()).processes.worker).toBe(1);

        // Its stop writes its last figures: the picture call it made is in the HTTP process's answer.
        worker.child.kill("SIGTERM");
        const code = await new Promise<number | null>((resolve) => worker.child.once("exit", resolve));
        expect(code, worker.output()).toBe(0);
        expect(await imageCalls()).toBe(before + 1);
        expect((await health()).processes).toEqual({ reporting: 1, http: 1, worker: 0 });
      } finally {
        if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
