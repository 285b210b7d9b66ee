// A clip under kill -9 (decision 0160): the server process (API and worker in one) is killed while the clip
// it was paid for is being made. After a restart the clip job is taken up again and ends once: one clip in
// the Gallery, one charge, no refund, and the ledger still adds up to the balance.
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, testEngine } from "./database";
import { newCredentials } from "./factories";
import { type Started, startServer } from "./processes";

type HistoryRow = { credits_amount: number; transaction_type: string };

describe("a server killed while a clip is being made", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;
  const servers: Started[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-clip-crash-"));
    env = {
      DATA_DIR: dataDir,
      REQUIRE_EMAIL_VERIFICATION: "false",
      // A job whose worker died is handed to the next worker after this (production: 60 s).
      DEAD_WORKER_SECONDS: "3",
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

  it("makes the clip once after a restart, for the one charge", async () => {
    const first = await startServer(env);
    servers.push(first);
    let base = `http://127.0.0.1:${first.port}`;
    const registered = await fetch(`${base}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(newCredentials()),
    });
    expect(registered.status).toBe(200);
    const token = ((await registered.json()) as { access_token: string }).access_token;
    const send = (method: string, url: string, body?: object) =>
      fetch(`${base}${url}`, {
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
    const balance = async () => (await get<{ remaining: number }>("/api/credit-balance")).remaining;

    // A picture of the player's, made in the Studio.
    const made = await send("POST", "/api/studio/generate-image", { prompt: "A lighthouse at dusk" });
    expect(made.status).toBe(200);
    const [picture] = (await get<{ images: { id: string }[] }>("/api/user/images")).images;
    const before = await balance();

    const started = await send("POST", `/api/media/${picture!.id}/animate`, { camera: "orbit" });
    expect(started.status).toBe(202);
    const jobId = ((await started.json()) as { job_id: string }).job_id;
    // The worker takes the job at once (it was queued in a transaction); a full-size offline clip takes
    // seconds to render, so the process dies while it is being made.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const pending = await send("GET", `/api/media/clips/${jobId}`);
    expect(((await pending.json()) as { status: string }).status).toBe("pending");
    first.child.kill("SIGKILL");
    await once(first.child, "exit");

    const second = await startServer(env);
    servers.push(second);
    base = `http://127.0.0.1:${second.port}`;

    type ClipJob = { status: string; detail: string | null; item: { id: string } | null };
    let job = await get<ClipJob>(`/api/media/clips/${jobId}`);
    const deadline = Date.now() + 90_000;
    while (job.status === "pending" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = await get<ClipJob>(`/api/media/clips/${jobId}`);
    }
    expect(job.status, job.detail ?? "").toBe("completed");
    const videos = (await get<{ videos: { id: string }[] }>("/api/user/videos")).videos;
    expect(videos.map((video) => video.id)).toEqual([job.item!.id]);
    expect(await balance()).toBe(before - CREDIT_COSTS.video);

    const history = await get<{ transactions: HistoryRow[] }>("/api/credit-history?limit=50");
    expect(history.transactions.filter((row) => row.transaction_type === "refund")).toEqual([]);
    const sum = history.transactions.reduce((total, row) => total + Math.round(row.credits_amount * 10), 0);
    expect(sum / 10).toBe(before - CREDIT_COSTS.video);
  }, 240_000);
});
