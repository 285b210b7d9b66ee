// The load generator: wrk in its own process (pinned with taskset where it exists), its report parsed; or,
// with BENCH_LOADGEN=node, `bench/load.ts` in its own process the same way (a check on wrk's latency tail).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { hasTaskset } from "./processes";

export type Measurement = {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers plus socket errors (a measurement with errors is not a valid figure). */
  errors: number;
};

export type WrkRun = {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** Cores for wrk, e.g. "1". */
  cores?: string;
};

function toMs(value: string, unit: string): number {
  const n = Number(value);
  if (unit === "us") return n / 1000;
  if (unit === "s") return n * 1000;
  if (unit === "m") return n * 60_000;
  return n;
}

export function parseWrk(label: string, report: string): Measurement {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(report);
  const p50 = /\s50%\s+([\d.]+)(us|ms|s|m)\b/.exec(report);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s|m)\b/.exec(report);
  if (!rps || !p50 || !p99) throw new Error(`could not read wrk's report:\n${report}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(report)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    label,
    requestsPerSecond: Number(rps[1]),
    p50Ms: toMs(p50[1]!, p50[2]!),
    p99Ms: toMs(p99[1]!, p99[2]!),
    errors: non2xx + socketErrors,
  };
}

export function runWrk(label: string, run: WrkRun): Promise<Measurement> {
  const args = [
    "-t1",
    `-c${run.connections}`,
    `-d${run.seconds}s`,
    "--latency",
    ...Object.entries(run.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    run.url,
  ];
  const node = process.env.BENCH_LOADGEN === "node";
  const loader = fileURLToPath(new URL("./load-process.ts", import.meta.url));
  const program = node
    ? [process.execPath, "--import", "tsx", loader, JSON.stringify({ label, ...run })]
    : ["wrk", ...args];
  const command = run.cores && hasTaskset ? "taskset" : program[0]!;
  const commandArgs = run.cores && hasTaskset ? ["-c", run.cores, ...program] : program.slice(1);
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`${program[0]} exited ${code}:\n${out}`));
      else {
        try {
          resolve(node ? (JSON.parse(out.trim().split("\n").at(-1)!) as Measurement) : parseWrk(label, out));
        } catch (error) {
          reject(error);
        }
      }
    });
  });
}
