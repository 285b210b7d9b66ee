// npm run bench:startup: how long a start takes, as production starts (`node server/dist/main.js`, the
// compiled JavaScript, decision 0126), on each engine. Budgets (issue 40): GET /api/ready answers 200 within
// 3 s of the process's spawn on an existing database and within 6 s on an empty one (its migrations
// included), and an admin command is done within 2 s. Each round makes a fresh database, starts the app on
// it (empty), signs a user up, stops it, starts it again (existing), stops it, then times an admin command
// (`node server/dist/admin.js list-balances`, and the same through `npm run admin`, which adds npm and the
// build check) and `npm run migrate`'s entry with nothing pending.
//
// Processes are not pinned to a core: a start is measured as an operator's start runs. The figures are
// medians over the rounds (BENCH_STARTUP_ROUNDS, 3); the budgets are checked on the medians.
// BENCH_STARTUP_ENTRY=tsx runs the TypeScript sources through tsx instead (what `npm start` did before),
// for a before-and-after. BENCH_ENGINES (pglite,postgres) and BENCH_DATABASE_URL as in `npm run bench`.
// `--check` exits 1 when a budget is missed.
import { execFileSync, spawn } from "node:child_process";
import os from "node:os";
import { benchAppData, type Child, type Engine, postgresReachable, repoRoot, startNode } from "./processes";
import { median } from "./stats";

const postgresUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const rounds = Number(process.env.BENCH_STARTUP_ROUNDS ?? 3);
const fromSources = process.env.BENCH_STARTUP_ENTRY === "tsx";
const check = process.argv.includes("--check");
const appPort = 3317;
const base = `http://127.0.0.1:${appPort}`;

const budgets = { existingMs: 3_000, emptyMs: 6_000, adminMs: 2_000 } as const;

const entry = (name: "main" | "admin" | "migrate") =>
  fromSources ? ["--import", "tsx", `server/src/${name}.ts`] : [`server/dist/${name}.js`];

type Round = { emptyMs: number; existingMs: number; adminMs: number; npmAdminMs: number; migrateMs: number };

/** Spawns the app and answers the milliseconds until GET /api/ready first answers 200. */
async function timeToReady(name: string, env: Record<string, string>): Promise<{ app: Child; ms: number }> {
  const started = performance.now();
  const app = startNode(name, entry("main"), env);
  const deadline = started + 120_000;
  while (performance.now() < deadline) {
    if (app.process.exitCode !== null)
      throw new Error(`${name} exited before it was ready:\n${app.output()}`);
    const ready = await fetch(`${base}/api/ready`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return { app, ms: performance.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await app.stop(1_000);
  throw new Error(`${name} was not ready within 120 s:\n${app.output()}`);
}

/** Runs a command to its end and answers its wall-clock milliseconds; a failure throws with its output. */
async function timeCommand(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${code}:\n${output}`);
  return performance.now() - started;
}

async function round(engine: Engine): Promise<Round> {
  const { env, remove } = await benchAppData(engine, postgresUrl, "startup", appPort);
  try {
    const empty = await timeToReady(`app (${engine}, empty)`, env);
    const registered = await fetch(`${base}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: `startup-${Date.now()}@example.com`,
        username: `startup_${Date.now()}`,
        password: "a long enough password",
      }),
    });
    if (!registered.ok) throw new Error(`sign-up answered ${registered.status}: ${await registered.text()}`);
    await empty.app.stop();
    const existing = await timeToReady(`app (${engine}, existing)`, env);
    await existing.app.stop();
    // PGlite is one process's database: the admin command runs with the server stopped, as the docs say.
    const adminMs = await timeCommand(process.execPath, [...entry("admin"), "list-balances"], env);
    const npmAdminMs = fromSources
      ? Number.NaN
      : await timeCommand("npm", ["run", "--silent", "admin", "--", "list-balances"], env);
    const migrateMs = await timeCommand(process.execPath, entry("migrate"), env);
    return { emptyMs: empty.ms, existingMs: existing.ms, adminMs, npmAdminMs, migrateMs };
  } finally {
    await remove();
  }
}

const seconds = (ms: number) => (Number.isNaN(ms) ? "-" : `${(ms / 1000).toFixed(2)} s`);
const verdict = (met: boolean) => (met ? "met" : "**not met**");

async function measureAndReport(engine: Engine): Promise<boolean> {
  const results: Round[] = [];
  for (let index = 0; index < rounds; index += 1) results.push(await round(engine));
  const column = (key: keyof Round) => results.map((result) => result[key]);
  const line = (label: string, key: keyof Round, budgetMs?: number) => {
    const values = column(key);
    const middle = median(values);
    const met = budgetMs === undefined ? undefined : middle <= budgetMs;
    console.log(
      `| ${label} | ${seconds(middle)} | ${values.map(seconds).join(", ")} | ${budgetMs === undefined ? "" : `${seconds(budgetMs)}: ${verdict(met ?? false)}`} |`,
    );
    return met ?? true;
  };
  console.log(
    `\n## ${engine === "pglite" ? "PGlite (embedded)" : "PostgreSQL"}, ${fromSources ? "TypeScript through tsx (server/src)" : "compiled JavaScript (server/dist)"}, ${rounds} rounds\n`,
  );
  console.log("| step | median | each round | budget |");
  console.log("| --- | --- | --- | --- |");
  let met = line(
    "start on an empty database to GET /api/ready 200 (migrations included)",
    "emptyMs",
    budgets.emptyMs,
  );
  met = line("start on an existing database to GET /api/ready 200", "existingMs", budgets.existingMs) && met;
  met =
    line(`admin command (\`node ${entry("admin").join(" ")} list-balances\`)`, "adminMs", budgets.adminMs) &&
    met;
  line("the same through `npm run admin` (npm and the build check added)", "npmAdminMs");
  line(`\`node ${entry("migrate").join(" ")}\`, nothing pending`, "migrateMs");
  return met;
}

if (!fromSources)
  execFileSync(process.execPath, ["scripts/ensure-build.mjs", "server"], { cwd: repoRoot, stdio: "inherit" });
const load = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(" ");
console.log(
  `# Start-up times: node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown cpu"}), load average ${load} at the start; processes not pinned`,
);
let met = true;
for (const engine of engines as Engine[]) {
  if (engine === "postgres" && !(await postgresReachable(postgresUrl))) {
    console.log(`\nPostgreSQL at ${postgresUrl} does not answer: its start-up figures are not measured.`);
    met = false;
    continue;
  }
  if (!(await measureAndReport(engine))) met = false;
}
if (check) console.log(met ? "\nbench:startup: every budget met" : "\nbench:startup: a budget is not met");
process.exitCode = check && !met ? 1 : 0;
