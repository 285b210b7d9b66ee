// npm run bench:cpu: CPU time per request, a figure that does not depend on how busy the machine is (req/s on
// a shared machine swings with everyone else's load). The app runs as `npm start` runs it and the bare Fastify
// route (bench/bare.ts) in its own process; this process drives BENCH_REQUESTS keep-alive requests per
// endpoint at BENCH_CONCURRENCY and reads each server's utime+stime from /proc/<pid>/stat before and after.
// Each endpoint's cost is given as a multiple of the bare route's, measured right before it (its cost drifts
// with the machine), and of the median of the run's bare measurements (steadier than any one): the inverse of
// the share of the bare route's req/s the endpoint reaches when both are CPU-bound. `GET /api/config` (no
// session, no database) shows the app's own request path. On PostgreSQL the database's own CPU is in its
// backends: they are summed over every process named `postgres` (the whole server, so other users' queries
// count too: a noisy upper bound, reported apart).
// Environment: BENCH_REQUESTS (20000; the clock tick is 10 ms), BENCH_ROUNDS (3: each figure is the median of
// the rounds), BENCH_CONCURRENCY (10), BENCH_ENGINES
// (pglite,postgres), BENCH_DATABASE_URL, BENCH_APP_ROOT (another checkout, to measure before and after).
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import {
  type Child,
  createDatabase,
  postgresReachable,
  startNode,
  startServerProcess,
  waitForOk,
} from "./processes";
import { seed } from "./seed";
import { median } from "./stats";

const requests = Number(process.env.BENCH_REQUESTS ?? 20_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const postgresUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const appRoot = process.env.BENCH_APP_ROOT;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const barePort = 3311;
const appPort = 3312;
const ticksPerSecond = 100; // USER_HZ on Linux

/** utime + stime of a process, in microseconds. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
}

/** CPU of every process named `postgres` on this machine (microseconds). */
function postgresCpuMicros(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      total += cpuMicros(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}

/** `count` requests, `concurrency` at a time, each on a kept-alive connection; fails on a non-2xx. */
async function drive(url: string, headers: Record<string, string>, count: number): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    while (next < count) {
      next += 1;
      const status = await get(url, headers);
      if (status < 200 || status >= 300) throw new Error(`${url} answered ${status}`);
    }
  });
  await Promise.all(workers);
}

type Row = { label: string; micros: number; postgresMicros?: number };

async function measure(
  label: string,
  pid: number,
  url: string,
  headers: Record<string, string>,
  withPostgres: boolean,
): Promise<Row> {
  // Warm-up: JIT, caches, pool connections (a tenth of the run, at least 500 requests).
  await drive(url, headers, Math.max(Math.min(500, requests), Math.round(requests / 10)));
  const pg0 = withPostgres ? postgresCpuMicros() : 0;
  const before = cpuMicros(pid);
  await drive(url, headers, requests);
  const micros = (cpuMicros(pid) - before) / requests;
  const postgresMicros = withPostgres ? (postgresCpuMicros() - pg0) / requests : undefined;
  return { label, micros, postgresMicros };
}

async function measureEngine(engine: "pglite" | "postgres", bare: Child, bareUrl: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-cpu-"));
  const database = engine === "postgres" ? await createDatabase(postgresUrl, "cpu_bench") : undefined;
  let app: Child | undefined;
  try {
    const base = `http://127.0.0.1:${appPort}`;
    app = startServerProcess(
      `app (${engine})`,
      {
        PORT: String(appPort),
        HOST: "127.0.0.1",
        APP_URL: base,
        DATA_DIR: dataDir,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
        REQUIRE_EMAIL_VERIFICATION: "false",
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      undefined,
      appRoot,
    );
    await waitForOk(`${base}/api/health`, app, 180_000); // slow to start on a loaded machine
    const { auth, storyId, messageId } = await seed(base);
    const pid = app.process.pid as number;
    const bareUrlMeasure = () =>
      measure("bare Fastify route", bare.process.pid as number, bareUrl, {}, false);
    const targets: [string, string][] = [
      // No session and no database: what the app's own request path (hooks, plugins, encoding) costs.
      ["`GET /api/config` (no session, no database)", "/api/config"],
      ["`GET /api/chat/media-status/{id}`", `/api/chat/media-status/${messageId}`],
      ["`GET /api/stories`", "/api/stories"],
      ["`GET /api/stories/{id}/messages`", `/api/stories/${storyId}/messages`],
      ["`GET /api/credit-balance`", "/api/credit-balance"],
      ["`GET /api/gallery`", "/api/gallery"],
      ["`GET /api/user/verify`", "/api/user/verify"],
    ];
    // The bare route is measured again right before each endpoint: its cost per request drifts with the
    // machine (other processes, frequency), so each endpoint is compared with its neighbour. The whole
    // sequence runs `rounds` times and each figure is the median of its rounds: one run of an endpoint moves
    // by up to a fifth between runs minutes apart with no code change.
    const samples = targets.map(() => ({
      app: [] as number[],
      bare: [] as number[],
      ratio: [] as number[],
      pg: [] as number[],
    }));
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, [label, url]] of targets.entries()) {
        const bareRow = await bareUrlMeasure();
        const row = await measure(label, pid, `${base}${url}`, auth, engine === "postgres");
        const sample = samples[i]!;
        sample.app.push(row.micros);
        sample.bare.push(bareRow.micros);
        sample.ratio.push(row.micros / bareRow.micros);
        if (row.postgresMicros !== undefined) sample.pg.push(row.postgresMicros);
      }
    }
    const rows = targets.map(([label], i) => {
      const sample = samples[i]!;
      return {
        row: {
          label,
          micros: median(sample.app),
          postgresMicros: sample.pg.length > 0 ? median(sample.pg) : undefined,
        },
        bare: { label: "bare Fastify route", micros: median(sample.bare) },
        ratio: median(sample.ratio),
      };
    });
    const name = engine === "pglite" ? "PGlite (embedded)" : "PostgreSQL";
    // The median of the run's bare measurements: steadier than any one of them.
    const medianBare = median(samples.flatMap((sample) => sample.bare));
    console.log(`\n## ${name}\n`);
    const pgCol = engine === "postgres" ? " postgres CPU µs/req (all backends) |" : "";
    console.log(
      `| endpoint | app CPU µs/req | bare route just before, µs/req | multiple of it (median of the rounds) | multiple of the run's median bare (${medianBare.toFixed(0)} µs) |${pgCol}`,
    );
    console.log(`|---|---|---|---|---|${engine === "postgres" ? "---|" : ""}`);
    for (const { row, bare: bareRow, ratio } of rows) {
      const pgCell = row.postgresMicros === undefined ? "" : ` ${row.postgresMicros.toFixed(0)} |`;
      console.log(
        `| ${row.label} | ${row.micros.toFixed(0)} | ${bareRow.micros.toFixed(0)} | ${ratio.toFixed(2)}x | ${(row.micros / medianBare).toFixed(2)}x |${pgCell}`,
      );
    }
  } finally {
    await app?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `# CPU per request (${requests} requests per endpoint after a warm-up, ${concurrency} at a time, keep-alive; the median of ${rounds} rounds)`,
  );
  console.log(
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}`,
  );
  const bare = startNode("bare Fastify", ["--import", "tsx", "bench/bare.ts"], { PORT: String(barePort) });
  const bareUrl = `http://127.0.0.1:${barePort}/bare`;
  try {
    await waitForOk(bareUrl, bare);
    for (const engine of engines as ("pglite" | "postgres")[]) {
      if (engine === "postgres" && !(await postgresReachable(postgresUrl))) {
        console.log(`\nPostgreSQL at ${postgresUrl} does not answer: its figures are not measured.`);
        continue;
      }
      await measureEngine(engine, bare, bareUrl);
    }
  } finally {
    agent.destroy();
    await bare.stop();
  }
}

await main();
