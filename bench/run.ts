// npm run bench: the hot reads against a bare Fastify route, each in its own process. The app runs exactly as
// `npm start` runs it, pinned to one core (taskset, where it exists); the baseline route runs on the same core
// in another process; wrk, the load generator, runs on another core. Both database engines: embedded PGlite,
// and PostgreSQL when BENCH_DATABASE_URL (default: the local server) answers; a fresh database is made and
// dropped for the run. The figures are ratios to the bare route, which hold across machines.
//
// `npm run bench:check` (this with --check) exits non-zero when a ratio is under its budget (DESIGN.md
// section 8 and issue 13: PostgreSQL >= 25% of the bare route with p99 < 50 ms, PGlite >= 10%).
// Environment: BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (100), BENCH_LOG_LEVEL (warn),
// BENCH_ENGINES (both), BENCH_LOADGEN (wrk; `node` for bench/load.ts, whose latency tail is not wrk's).
// Then the live budgets of issue 10 (bench/live.ts; BENCH_LIVE=0 skips them, BENCH_LIVE_ONLY=1 runs only them),
// and the speech budgets of issue 31 on each engine (bench/speech.ts; BENCH_SPEECH=0 skips them,
// BENCH_SPEECH_ONLY=1 runs only them), and the recall budget of issue 29 on each engine (bench/recall.ts;
// BENCH_RECALL=0 skips it, BENCH_RECALL_ONLY=1 runs only it), and the branches budget of issue 28 on each
// engine (bench/branches.ts; BENCH_BRANCHES=0 skips it, BENCH_BRANCHES_ONLY=1 runs only it), and the
// long-story budgets of issue 42 on each engine (bench/long-story.ts; BENCH_LONG_STORY=0 skips them,
// BENCH_LONG_STORY_ONLY=1 runs only them).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runBranchesBench } from "./branches";
import { runLiveBench } from "./live";
import { runLongStoryBench } from "./long-story";
import {
  type Child,
  createDatabase,
  hasTaskset,
  postgresReachable,
  startNode,
  startServerProcess,
  waitForOk,
} from "./processes";
import { runRecallBench } from "./recall";
import { seed } from "./seed";
import { runSpeechBench } from "./speech";
import { type Measurement, runWrk } from "./wrk";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const logLevel = process.env.BENCH_LOG_LEVEL ?? "warn";
const postgresUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const check = process.argv.includes("--check");
/** Another checkout to run the app from (with node_modules), to measure a change before and after. */
const appRoot = process.env.BENCH_APP_ROOT;

const budgets = {
  pglite: { ratio: 0.1, p99Ms: Number.POSITIVE_INFINITY },
  postgres: { ratio: 0.25, p99Ms: 50 },
} as const;

// One core serves (the app, and the baseline in its own process), the other loads.
const cpuCount = os.cpus().length;
const serverCores = "0";
const loadCores = cpuCount > 1 ? "1" : "0";
const barePort = 3301;
const appPort = 3302;

type Engine = "pglite" | "postgres";
type Row = Measurement & {
  ratio: number;
  budgetMet: boolean | undefined;
  /** The bare route's run just before this one, which `ratio` divides by. */
  bareRequestsPerSecond: number | undefined;
};

async function measureEngine(engine: Engine, bareUrl: string): Promise<Row[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-bench-"));
  const database = engine === "postgres" ? await createDatabase(postgresUrl, "scale_bench") : undefined;
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
        LOG_LEVEL: logLevel,
        REQUIRE_EMAIL_VERIFICATION: "false",
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
      serverCores,
      appRoot,
    );
    await waitForOk(`${base}/api/health`, app);
    const { auth, storyId, messageId } = await seed(base);
    const targets: { label: string; url: string; headers?: Record<string, string> }[] = [
      // References, not budgets: the app's own cost without a database, and with one bare round trip.
      { label: "`GET /api/config` (no database)", url: `${base}/api/config` },
      { label: "`GET /api/health` (one `select 1`)", url: `${base}/api/health` },
      {
        label: "`GET /api/chat/media-status/{id}`",
        url: `${base}/api/chat/media-status/${messageId}`,
        headers: auth,
      },
      { label: "`GET /api/stories`", url: `${base}/api/stories`, headers: auth },
      {
        label: "`GET /api/stories/{id}/messages`",
        url: `${base}/api/stories/${storyId}/messages`,
        headers: auth,
      },
      { label: "`GET /api/credit-balance`", url: `${base}/api/credit-balance`, headers: auth },
      { label: "`GET /api/gallery`", url: `${base}/api/gallery`, headers: auth },
      { label: "`GET /api/user/verify`", url: `${base}/api/user/verify`, headers: auth },
    ];
    const run = async (label: string, url: string, headers?: Record<string, string>) => {
      // A warm-up at the measured concurrency, so JIT and a process's first burst of connections count
      // against neither side: without it even the bare route's first run had a p99 of half a second.
      await runWrk(label, { url, headers, connections, seconds: warmupSeconds, cores: loadCores });
      return runWrk(label, { url, headers, connections, seconds, cores: loadCores });
    };
    // The bare route is measured again right before each endpoint and each ratio is to that run: on a shared
    // machine the speed of both drifts over the minute a table takes (the bare route alone was seen anywhere
    // from 12,000 to 23,500 req/s), and neighbouring runs drift least.
    const bareRuns = [await run("bare Fastify route", bareUrl)];
    const rows: Row[] = [];
    for (const target of targets) {
      const bare = await runWrk("bare Fastify route", {
        url: bareUrl,
        connections,
        seconds,
        cores: loadCores,
      });
      bareRuns.push(bare);
      const m = await run(target.label, target.url, target.headers);
      const ratio = m.requestsPerSecond / bare.requestsPerSecond;
      const budget = budgets[engine];
      const budgetMet =
        target.url.endsWith("/api/health") || target.url.endsWith("/api/config")
          ? undefined
          : ratio >= budget.ratio && m.p99Ms < budget.p99Ms && m.errors === 0;
      rows.push({ ...m, ratio, budgetMet, bareRequestsPerSecond: bare.requestsPerSecond });
    }
    // The bare row shows the median of its runs (p50 and p99 of that run).
    const median = [...bareRuns].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[
      Math.floor(bareRuns.length / 2)
    ]!;
    return [{ ...median, ratio: 1, budgetMet: undefined, bareRequestsPerSecond: undefined }, ...rows];
  } finally {
    await app?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function printTable(engine: Engine, rows: Row[]) {
  const budget = budgets[engine];
  const p99 = Number.isFinite(budget.p99Ms) ? `, p99 < ${budget.p99Ms} ms` : "";
  console.log(
    `\n## ${engine === "pglite" ? "PGlite (embedded)" : "PostgreSQL"}: budget >= ${budget.ratio * 100}% of bare${p99}\n`,
  );
  console.log("| endpoint | req/s | bare just before | of bare | p50 ms | p99 ms | errors | budget |");
  console.log("|---|---|---|---|---|---|---|---|");
  const perSecond = (n: number | undefined) => (n === undefined ? "" : Math.round(n).toLocaleString("en"));
  for (const row of rows) {
    const met = row.budgetMet === undefined ? "" : row.budgetMet ? "met" : "**not met**";
    console.log(
      `| ${row.label} | ${perSecond(row.requestsPerSecond)} | ${perSecond(row.bareRequestsPerSecond)} | ${(row.ratio * 100).toFixed(1)}% | ${row.p50Ms.toFixed(1)} | ${row.p99Ms.toFixed(1)} | ${row.errors} | ${met} |`,
    );
  }
}

async function main(): Promise<number> {
  if (process.env.BENCH_LONG_STORY_ONLY === "1") {
    const met = await runLongStoryBench(engines, postgresUrl);
    if (check) console.log(met ? "\nbench:check: every budget met" : "\nbench:check: a budget is not met");
    return check && !met ? 1 : 0;
  }
  if (process.env.BENCH_BRANCHES_ONLY === "1") {
    const met = await runBranchesBench(engines, postgresUrl);
    if (check) console.log(met ? "\nbench:check: every budget met" : "\nbench:check: a budget is not met");
    return check && !met ? 1 : 0;
  }
  if (process.env.BENCH_RECALL_ONLY === "1") {
    const met = await runRecallBench(engines, postgresUrl);
    if (check) console.log(met ? "\nbench:check: every budget met" : "\nbench:check: a budget is not met");
    return check && !met ? 1 : 0;
  }
  if (process.env.BENCH_SPEECH_ONLY === "1") {
    const met = await runSpeechBench(engines, postgresUrl);
    if (check) console.log(met ? "\nbench:check: every budget met" : "\nbench:check: a budget is not met");
    return check && !met ? 1 : 0;
  }
  const cpu = os.cpus()[0]?.model ?? "unknown cpu";
  console.log(
    `# Storyverse read benchmarks (${seconds} s per target after a ${warmupSeconds} s warm-up, ${connections} connections)`,
  );
  console.log(
    `node ${process.version}, ${cpuCount} cores (${cpu}), load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}; ` +
      (hasTaskset
        ? `servers on core ${serverCores}, ${process.env.BENCH_LOADGEN === "node" ? "bench/load.ts" : "wrk"} on core ${loadCores} (taskset); LOG_LEVEL=${logLevel}`
        : `taskset not found: processes are not pinned; LOG_LEVEL=${logLevel}`),
  );
  if (process.env.BENCH_LIVE_ONLY === "1") {
    await runLiveBench(postgresUrl);
    return 0;
  }
  const bare = startNode(
    "bare Fastify",
    ["--import", "tsx", "bench/bare.ts"],
    { PORT: String(barePort) },
    serverCores,
  );
  const bareUrl = `http://127.0.0.1:${barePort}/bare`;
  let failed = false;
  try {
    await waitForOk(bareUrl, bare);
    for (const engine of engines as Engine[]) {
      if (engine === "postgres" && !(await postgresReachable(postgresUrl))) {
        console.log(`\nPostgreSQL at ${postgresUrl} does not answer: its figures are not measured.`);
        if (check) failed = true;
        continue;
      }
      const rows = await measureEngine(engine, bareUrl);
      printTable(engine, rows);
      if (rows.some((row) => row.budgetMet === false)) failed = true;
    }
  } finally {
    await bare.stop();
  }
  // The live budgets (browser tabs, event streams): PostgreSQL only, skipped with BENCH_LIVE=0.
  if (process.env.BENCH_LIVE !== "0" && (await postgresReachable(postgresUrl))) {
    await runLiveBench(postgresUrl);
  }
  if (process.env.BENCH_SPEECH !== "0" && !(await runSpeechBench(engines, postgresUrl))) failed = true;
  if (process.env.BENCH_RECALL !== "0" && !(await runRecallBench(engines, postgresUrl))) failed = true;
  if (process.env.BENCH_BRANCHES !== "0" && !(await runBranchesBench(engines, postgresUrl))) failed = true;
  if (process.env.BENCH_LONG_STORY !== "0" && !(await runLongStoryBench(engines, postgresUrl))) failed = true;
  if (check) console.log(failed ? "\nbench:check: a budget is not met" : "\nbench:check: every budget met");
  return check && failed ? 1 : 0;
}

process.exitCode = await main();
