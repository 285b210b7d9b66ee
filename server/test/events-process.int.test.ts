// The event stream across real processes. On PostgreSQL: one HTTP process (WORKER=off) and one worker
// process (WORKER=only) on one database; a turn sent to the first is drawn by the second, and its media
// event reaches a stream held by the first (through LISTEN/NOTIFY). On PGlite, where one process owns the
// database, the same turn and stream in one process with its own worker.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, testEngine } from "./database";
import { newCredentials } from "./factories";
import { type Started, spawnServer, startServer } from "./processes";
import { openEventStream } from "./sse";

describe("events across server processes", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;
  const children: Started["child"][] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-events-"));
    // Small scenes and no narrator pauses: the subject is the event's way across processes, not the media.
    env = {
      DATA_DIR: dataDir,
      REQUIRE_EMAIL_VERIFICATION: "false",
      OFFLINE_MEDIA_SCALE: "0.25",
      OFFLINE_TEXT_WORDS_PER_SECOND: "0",
    };
    if (testEngine === "postgres") {
      const created = await createPostgresDatabase();
      env.DATABASE_URL = created.url;
      dropDatabase = created.drop;
    }
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("delivers a turn's media event, made by the worker, to a stream held by the HTTP process", async () => {
    const twoProcesses = testEngine === "postgres";
    const http = await startServer({ ...env, WORKER: twoProcesses ? "off" : "on" });
    children.push(http.child);
    if (twoProcesses) children.push(spawnServer({ ...env, WORKER: "only" }).child);
    const base = `http://127.0.0.1:${http.port}`;
    const json = async (url: string, body: unknown, token?: string) => {
      const res = await fetch(`${base}${url}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { access_token: string; message_id: string };
    };
    const registered = await json("/api/register", newCredentials());
    const token = registered.access_token as string;
    const events = await openEventStream(base, token);
    expect(events.status).toBe(200);

    const turn = await json("/api/chat", { prompt: "A lighthouse in a storm", chat_mode: "image" }, token);
    const media = await events.next(
      (event) =>
        event.event === "media" && (event.data as { message_id: string }).message_id === turn.message_id,
      90_000,
    );
    expect(media.data).toMatchObject({ status: "completed", story_id: null, image_url: expect.any(String) });
    const image = await fetch(new URL((media.data as { image_url: string }).image_url, base));
    expect(image.status).toBe(200);
    events.close();

    // The HTTP process stops cleanly even with a stream it held.
    const reopened = await openEventStream(base, token);
    http.child.kill("SIGTERM");
    await reopened.ended;
    const [code] = await new Promise<[number | null]>((resolve) =>
      http.child.once("exit", (c) => resolve([c])),
    );
    expect(code, http.output()).toBe(0);
  }, 240_000);
});
