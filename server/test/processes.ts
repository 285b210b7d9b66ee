// Real server processes for tests: the entry point in a child process, on a free port. By default the
// TypeScript sources through tsx (what changed is what runs, no build step); `{ production: true }` runs what
// production runs, `node dist/main.js` (decision 0126), built first when missing or older than its sources,
// for the tests whose subject is the production start.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

const serverDir = path.resolve(import.meta.dirname, "..");

/**
 * A port free now, below Linux's ephemeral range (32768 and up): a port the kernel hands out for `listen(0)`
 * can be given to an outgoing connection (to PostgreSQL, say) before the child process listens on it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = net.createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (listening) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error("no free port found between 20000 and 32000");
}

export type Started = { child: ChildProcess; port: number; output: () => string };

export type Entry = { production?: boolean };

let built = false;
/** `npm start`'s command: the compiled server, after scripts/ensure-build.mjs (once per test process). */
function productionEntry(): string[] {
  if (!built) {
    execFileSync(process.execPath, [path.join(serverDir, "../scripts/ensure-build.mjs"), "server"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    built = true;
  }
  return ["dist/main.js"];
}

export function spawnServer(
  env: Record<string, string>,
  entry: Entry = {},
): { child: ChildProcess; output: () => string } {
  const args = entry.production ? productionEntry() : ["--import", "tsx", "src/main.ts"];
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/**
 * Starts a server on a free port. A port found free can be taken before the child listens (an outgoing
 * connection's ephemeral port, another test's server), so EADDRINUSE means another port, up to 3 tries.
 */
export async function startServer(
  env: Record<string, string>,
  entry: Entry = {},
  attempts = 3,
): Promise<Started> {
  const port = await freePort();
  const { child, output } = spawnServer({ ...env, PORT: String(port), HOST: "127.0.0.1" }, entry);
  const deadline = Date.now() + 80_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      if (attempts > 1 && output().includes("EADDRINUSE")) return startServer(env, entry, attempts - 1);
      throw new Error(`server exited early: ${output()}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { child, port, output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not become healthy: ${output()}`);
}
