// npm run bench: each scenario measures our server against a baseline started in the same run,
// so the figures are ratios that hold on any machine.
import os from "node:os";
import Fastify from "fastify";
import { buildApp } from "../server/src/app";
import { loadConfig } from "../server/src/config";
import { openDatabase } from "../server/src/db/client";
import { runMigrations } from "../server/src/db/migrate";
import { startJobQueue } from "../server/src/jobs/queue";
import { systemClock } from "../server/src/platform/clock";
import { benchConnections, benchSeconds, measure, printComparison } from "./harness";

async function startBaseline(): Promise<{ url: string; close: () => Promise<void> }> {
  const bare = Fastify({ logger: false });
  bare.get("/bare", async () => ({ status: "ok" }));
  const address = await bare.listen({ port: 0, host: "127.0.0.1" });
  return { url: `${address}/bare`, close: () => bare.close() };
}

async function startApp() {
  const database = await openDatabase({ pgliteDir: "memory://" });
  await runMigrations(database);
  const jobs = await startJobQueue(database);
  const config = loadConfig({ LOG_LEVEL: "silent", DATA_DIR: os.tmpdir() });
  const app = await buildApp({
    config,
    database,
    jobs,
    capabilities: [],
    webDistDir: os.tmpdir(),
    clock: systemClock,
    logger: false,
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    address,
    close: async () => {
      await app.close();
      await jobs.stop(1_000);
      await database.close();
    },
  };
}

async function main(): Promise<void> {
  console.log(`# Storyverse benchmarks (${benchSeconds}s per target, ${benchConnections} connections)`);
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "unknown cpu"}`);
  const baseline = await startBaseline();
  const app = await startApp();
  try {
    const bare = await measure("bare Fastify route", baseline.url);
    const health = await measure("GET /api/health (database round trip)", `${app.address}/api/health`);
    printComparison("Health probe vs bare Fastify", health, bare);
  } finally {
    await app.close();
    await baseline.close();
  }
}

await main();
