// The crash tests' server: a real server process that a test kills with `kill -9` and starts again on the same
// data. Its data folder (and, on the PostgreSQL pass, a database of its own) is made before the file's tests
// and removed after them; a player signed up over HTTP calls whichever process runs now, so a test reads its
// balance, ledger and stories the same way before the kill and after the restart.
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { createPostgresDatabase, testEngine } from "./database";
import { newCredentials } from "./factories";
import { type Started, startServer } from "./processes";

export type Player = {
  token: string;
  send: (method: string, url: string, body?: object) => Promise<Response>;
  /** GET that must answer 200, parsed. */
  get: <T>(url: string) => Promise<T>;
  balance: () => Promise<number>;
  /** The ledger's newest rows (GET /api/credit-history). */
  ledger: () => Promise<LedgerRow[]>;
};

export type LedgerRow = { credits_amount: number; transaction_type: string; description: string };

export type CrashServer = {
  /** Starts a server process on the data (again after a kill); calls go to it from then on. */
  start: () => Promise<void>;
  /** `kill -9` of the running process; resolves once it has exited. */
  kill: () => Promise<void>;
  /** The running process's address, e.g. for a streamed turn. */
  base: () => string;
  /** A new player signed up through POST /api/register, with the sign-up credits. */
  signUp: () => Promise<Player>;
};

/**
 * The file's crash server, `name` naming its data folder; `env` is added to every start (the slow narrator, the
 * short sweep and dead-worker times a crash test needs). Call it inside `describe`: it adds the hooks.
 */
export function crashServer(name: string, env: Record<string, string>): CrashServer {
  let fullEnv: Record<string, string> = {};
  let dataDir = "";
  let dropDatabase: (() => Promise<void>) | undefined;
  const started: Started[] = [];
  const running = () => {
    const server = started.at(-1);
    if (!server) throw new Error("no server started: call start() first");
    return server;
  };
  const base = () => `http://127.0.0.1:${running().port}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), `storyverse-${name}-`));
    fullEnv = { DATA_DIR: dataDir, REQUIRE_EMAIL_VERIFICATION: "false", ...env };
    if (testEngine === "postgres") {
      const created = await createPostgresDatabase();
      fullEnv.DATABASE_URL = created.url;
      dropDatabase = created.drop;
    }
  });
  afterAll(async () => {
    for (const server of started) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await dropDatabase?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  return {
    start: async () => {
      started.push(await startServer(fullEnv));
    },
    kill: async () => {
      const { child } = running();
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
    base,
    signUp: async () => {
      const registered = await fetch(`${base()}/api/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(newCredentials()),
      });
      expect(registered.status).toBe(200);
      const token = ((await registered.json()) as { access_token: string }).access_token;
      const send = (method: string, url: string, body?: object) =>
        fetch(`${base()}${url}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body ? { "content-type": "application/json" } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const get = async <T>(url: string) => {
        const res = await send("GET", url);
        expect(res.status, url).toBe(200);
        return (await res.json()) as T;
      };
      return {
        token,
        send,
        get,
        balance: async () => (await get<{ remaining: number }>("/api/credit-balance")).remaining,
        ledger: async () =>
          (await get<{ transactions: LedgerRow[] }>("/api/credit-history?limit=50")).transactions,
      };
    },
  };
}

/** The ledger's rows added up, in tenths (as the balance is kept), back in credits. */
export const ledgerTotal = (rows: LedgerRow[]) =>
  rows.reduce((total, row) => total + Math.round(row.credits_amount * 10), 0) / 10;

/** Reads until `done` holds or `timeoutMs` passes (a sweep or a job after a restart); answers the last read. */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    value = await read();
  }
  return value;
}
