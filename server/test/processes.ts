// Real server processes for tests: the entry point (src/main.ts) in a child process, on a free port.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import path from "node:path";

const serverDir = path.resolve(import.meta.dirname, "..");

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

export type Started = { child: ChildProcess; port: number; output: () => string };

export function spawnServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
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
export async function startServer(env: Record<string, string>, attempts = 3): Promise<Started> {
  const port = await freePort();
  const { child, output } = spawnServer({ ...env, PORT: String(port), HOST: "127.0.0.1" });
  const deadline = Date.now() + 80_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      if (attempts > 1 && output().includes("EADDRINUSE")) return startServer(env, attempts - 1);
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
