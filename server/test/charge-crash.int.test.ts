// Money under kill -9: the server process dies after taking a turn's charge and before saving the turn.
// The charge must not be lost: the restarted process's worker finds it unsettled and refunds it once.
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, testEngine } from "./database";
import { newCredentials } from "./factories";
import { type Started, startServer } from "./processes";
import { postTurnStream } from "./sse";

type HistoryRow = { credits_amount: number; transaction_type: string; description: string };

describe("a server killed between the charge and the delivery", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;
  const servers: Started[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-charge-crash-"));
    env = {
      DATA_DIR: dataDir,
      REQUIRE_EMAIL_VERIFICATION: "false",
      // A slow narrator holds the turn between its charge and its delivery long enough to kill it there.
      OFFLINE_TEXT_WORDS_PER_SECOND: "1",
      UNSETTLED_CHARGE_SECONDS: "5",
    };
    if (testEngine === "postgres") {
      const created = await createPostgresDatabase();
      env.DATABASE_URL = created.url;
      dropDatabase = created.drop;
    }
  });
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refunds the charge once after a restart, and the turn never appears", async () => {
    const first = await startServer(env);
    servers.push(first);
    let base = `http://127.0.0.1:${first.port}`;
    const credentials = newCredentials();
    const registered = await fetch(`${base}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(credentials),
    });
    expect(registered.status).toBe(200);
    const token = ((await registered.json()) as { access_token: string }).access_token;
    const get = async <T>(url: string) => {
      const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, url).toBe(200);
      return (await res.json()) as T;
    };
    const balance = async () => (await get<{ remaining: number }>("/api/credit-balance")).remaining;
    const before = await balance();

    // The first streamed words prove the charge committed and the answer is not saved yet.
    const turn = await postTurnStream(base, "/api/chat", token, {
      prompt: "A lighthouse keeper hears a knock at midnight",
      chat_mode: "image",
    });
    expect(turn.status).toBe(200);
    await turn.next((event) => event.event === "delta", 30_000);
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    turn.close();

    const second = await startServer(env);
    servers.push(second);
    base = `http://127.0.0.1:${second.port}`;

    const deadline = Date.now() + 60_000;
    while ((await balance()) !== before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(await balance()).toBe(before);

    const history = await get<{ transactions: HistoryRow[] }>("/api/credit-history?limit=50");
    // The charge outlived the process (it is in the ledger), and exactly one refund answers it.
    const charges = history.transactions.filter((row) => row.transaction_type === "usage_image");
    const refunds = history.transactions.filter((row) => row.transaction_type === "refund");
    expect(charges).toHaveLength(1);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.credits_amount).toBe(-charges[0]!.credits_amount);
    // The ledger still adds up to the balance: the charge and its one refund cancel out.
    const sum = history.transactions.reduce((total, row) => total + Math.round(row.credits_amount * 10), 0);
    expect(sum / 10).toBe(before);

    const chat = await get<{ messages: unknown[] }>("/api/chat/history");
    expect(chat.messages).toHaveLength(0);

    // Sweeping again (another interval of the worker) gives nothing more back.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await balance()).toBe(before);
  }, 240_000);
});
