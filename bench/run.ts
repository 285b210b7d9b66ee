// npm run bench: each scenario measures our server against a bare Fastify route started in the same run,
// so the figures are ratios that hold on any machine. Budgets: DESIGN.md section 8.
import os from "node:os";
import Fastify from "fastify";
import { buildApp } from "../server/src/app";
import { loadConfig } from "../server/src/config";
import { setUnlimited } from "../server/src/credits/repo";
import { openDatabase } from "../server/src/db/client";
import { runMigrations } from "../server/src/db/migrate";
import { startJobQueue } from "../server/src/jobs/queue";
import { createMediaStorage } from "../server/src/media/storage/create-storage";
import { systemClock } from "../server/src/platform/clock";
import { createProviders } from "../server/src/providers/create-providers";
import type { Providers } from "../server/src/providers/types";
import { benchConnections, benchSeconds, measure, printComparison } from "./harness";

async function startBaseline(): Promise<{ url: string; close: () => Promise<void> }> {
  const bare = Fastify({ logger: false });
  bare.get("/bare", async () => ({ status: "ok" }));
  const address = await bare.listen({ port: 0, host: "127.0.0.1" });
  return { url: `${address}/bare`, close: () => bare.close() };
}

/** Providers that answer at once, so a chat turn measures only our own work. */
function zeroLatencyProviders(base: Providers): Providers {
  const answer = "You step forward into the light.\n\nSCENE: A hall of lanterns at dusk.";
  return {
    ...base,
    text: {
      name: "zero-latency",
      complete: async () => answer,
      async *stream() {
        yield answer;
      },
    },
  };
}

async function startApp() {
  const dataDir = os.tmpdir();
  const config = loadConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, REQUIRE_EMAIL_VERIFICATION: "false" });
  const database = await openDatabase({ pgliteDir: "memory://" });
  await runMigrations(database);
  const jobs = await startJobQueue(database);
  const providers = zeroLatencyProviders(createProviders(config.providers));
  const storage = createMediaStorage(config.storage, config.sessionSecret, systemClock);
  const app = await buildApp({
    config,
    database,
    jobs,
    providers,
    storage,
    clock: systemClock,
    webDistDir: dataDir,
    logger: false,
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  // A signed-in, unlimited user with one image turn whose media stays pending (no worker runs here).
  const registered = await app.inject({
    method: "POST",
    url: "/api/register",
    payload: { email: "bench@example.com", username: "bench", password: "bench-password" },
  });
  const { access_token: token, user_id: userId } = registered.json() as {
    access_token: string;
    user_id: string;
  };
  await setUnlimited(database.db, userId, true, new Date());
  const turn = await app.inject({
    method: "POST",
    url: "/api/chat",
    headers: { authorization: `Bearer ${token}` },
    payload: { prompt: "Begin", chat_mode: "image" },
  });
  const messageId = (turn.json() as { message_id: string }).message_id;
  // Chat turns are limited per user per minute, so the turn scenario spreads its load over many users.
  const turnTokens: string[] = [];
  for (let i = 0; i < 100; i += 1) {
    const res = await app.inject({
      method: "POST",
      url: "/api/register",
      remoteAddress: `10.9.${i >> 8}.${i & 255}`,
      payload: { email: `turns${i}@example.com`, username: `turns${i}`, password: "bench-password" },
    });
    const body = res.json() as { access_token: string; user_id: string };
    await setUnlimited(database.db, body.user_id, true, new Date());
    turnTokens.push(body.access_token);
  }
  return {
    address,
    token,
    turnTokens,
    messageId,
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
  const auth = { authorization: `Bearer ${app.token}` };
  try {
    const bare = await measure("bare Fastify route", { url: baseline.url });
    const health = await measure("GET /api/health (database round trip)", {
      url: `${app.address}/api/health`,
    });
    printComparison("Health probe vs bare Fastify", health, bare);

    const polling = await measure("GET /api/chat/media-status (authenticated, DB lookup)", {
      url: `${app.address}/api/chat/media-status/${app.messageId}`,
      headers: auth,
    });
    const ratio = printComparison(
      "Media-status polling vs bare Fastify (budget: >= 35%, p99 < 25 ms)",
      polling,
      bare,
    );
    console.log(`budget: ${ratio >= 0.35 && polling.p99Ms < 25 ? "met" : "NOT met"}`);

    const bareFew = await measure("bare Fastify route (10 connections)", {
      url: baseline.url,
      connections: 10,
    });
    const turn = await measure("POST /api/chat, chat mode, zero-latency narrator (10 connections)", {
      url: `${app.address}/api/chat`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "I open the door", chat_mode: "chat" }),
      connections: 10,
      tokens: app.turnTokens,
    });
    printComparison("Chat turn server overhead (budget: < 15 ms median over bare)", turn, bareFew);
    const overhead = turn.p50Ms - bareFew.p50Ms;
    console.log(`budget: ${overhead < 15 ? "met" : "NOT met"}`);
  } finally {
    await app.close();
    await baseline.close();
  }
}

await main();
