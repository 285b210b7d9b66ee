// Child processes for the bench and the scale test: the server started exactly as `npm start` starts it
// (node server/dist/main.js), pinned to chosen cores with taskset where it exists.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const hasTaskset = spawnSync("taskset", ["-V"]).status === 0;

export type Child = {
  name: string;
  process: ChildProcess;
  /** The last 20,000 characters it printed (for the failure message when it dies). */
  output: () => string;
  /** Every log line it printed at level error or fatal (pino level >= 50), whole, from its start. */
  errors: () => string[];
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop: (graceMs?: number) => Promise<number | null>;
  kill9: () => Promise<number | null>;
};

/** Starts `node <args>` from the repository root, on `cores` (e.g. "0") when taskset exists. */
export function startNode(
  name: string,
  args: string[],
  env: Record<string, string>,
  cores?: string,
  cwd = repoRoot,
): Child {
  const command = cores && hasTaskset ? "taskset" : process.execPath;
  const commandArgs = cores && hasTaskset ? ["-c", cores, process.execPath, ...args] : args;
  const child = spawn(command, commandArgs, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const errors: string[] = [];
  // Lines are split per stream (a chunk may end mid-line); the error lines are kept whole and all of them,
  // so a run's diagnosis never loses the first error to the tail window.
  const keepFrom = () => {
    let partial = "";
    return (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-20_000);
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (isErrorLine(line)) errors.push(line);
    };
  };
  child.stdout?.on("data", keepFrom());
  child.stderr?.on("data", keepFrom());
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    name,
    process: child,
    output: () => output,
    errors: () => errors,
    exited,
    stop: async (graceMs = 30_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    kill9: async () => {
      child.kill("SIGKILL");
      return exited;
    },
  };
}

/** A pino line at level error (50) or fatal (60). */
function isErrorLine(line: string): boolean {
  const level = /"level":(\d+)/.exec(line);
  return level !== null && Number(level[1]) >= 50;
}

const builtRoots = new Set<string>();

/**
 * The server as `npm start` runs it (`node server/dist/main.js`, built first when missing or older than its
 * sources), from this checkout or another one (`root`, to compare versions); a checkout from before the
 * compiled build (decision 0126) runs its TypeScript through tsx, as its `npm start` did.
 */
export function startServerProcess(
  name: string,
  env: Record<string, string>,
  cores?: string,
  root = repoRoot,
): Child {
  const ensureBuild = path.join(root, "scripts/ensure-build.mjs");
  if (!existsSync(ensureBuild))
    return startNode(name, ["--import", "tsx", "server/src/main.ts"], env, cores, root);
  if (!builtRoots.has(root)) {
    execFileSync(process.execPath, [ensureBuild, "server"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
    });
    builtRoots.add(root);
  }
  return startNode(name, ["server/dist/main.js"], env, cores, root);
}

/** Waits until `url` answers 200, or fails with what the child printed. */
export async function waitForOk(url: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) {
      throw new Error(
        `${child.name} exited (${child.process.exitCode}) before ${url} answered:\n${child.output()}`,
      );
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${child.output()}`);
}

/** A fresh database on the PostgreSQL server at `serverUrl` (named with `prefix`), and how to drop it. */
export async function createDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/** Whether a PostgreSQL server answers at `url`. */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export type Engine = "pglite" | "postgres";

/** The budget benches' cores: the app (and what it starts) on one, the measuring client on the other. */
const cpuCount = os.cpus().length;
export const serverCores = "0";
export const clientCores = cpuCount > 1 ? "1" : "0";

/**
 * Runs a budget bench on each engine asked for, after a line saying where its processes run and how loaded the
 * machine is; false when `measureAndReport` says a budget was missed, or PostgreSQL does not answer.
 */
export async function runOnEngines(
  name: string,
  engines: string[],
  postgresUrl: string,
  measureAndReport: (engine: Engine) => Promise<boolean>,
): Promise<boolean> {
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");
  console.log(
    `\n${name}: the app on core ${serverCores}, the measuring client on core ${clientCores}${hasTaskset ? " (taskset)" : " (taskset not found: not pinned)"}; ${cpuCount} cores (${os.cpus()[0]?.model ?? "unknown cpu"}), load average ${load}`,
  );
  let met = true;
  for (const engine of engines as Engine[]) {
    if (engine === "postgres" && !(await postgresReachable(postgresUrl))) {
      console.log(
        `\nPostgreSQL at ${postgresUrl} does not answer: its ${name.toLowerCase()} figures are not measured.`,
      );
      met = false;
      continue;
    }
    if (!(await measureAndReport(engine))) met = false;
  }
  return met;
}

/**
 * Where a budget bench's app keeps its data: a fresh folder and, on PostgreSQL, a throwaway database; the
 * environment that runs the app on them (as `npm start`, on `port`, `extra` added); `remove` drops both.
 */
export async function benchAppData(
  engine: Engine,
  postgresUrl: string,
  name: string,
  port: number,
  extra: Record<string, string> = {},
) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `storyverse-${name}-`));
  const database = engine === "postgres" ? await createDatabase(postgresUrl, `${name}_bench`) : undefined;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    REQUIRE_EMAIL_VERIFICATION: "false",
    ...extra,
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const remove = async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { dataDir, database, env, remove };
}

/** The measuring client's `RESULT {json}` line once it exits; a failed client (or an app that died) throws. */
export async function clientResult<Result>(client: Child, app: Child, name: string): Promise<Result> {
  const code = await Promise.race([client.exited, app.exited.then(() => "app exited" as const)]);
  const line = client
    .output()
    .split("\n")
    .find((l) => l.startsWith("RESULT "));
  if (code !== 0 || !line) {
    throw new Error(
      `the ${name} client failed (${code}):\n${client.output()}\napp errors:\n${app.errors().join("\n")}`,
    );
  }
  return JSON.parse(line.slice("RESULT ".length)) as Result;
}
