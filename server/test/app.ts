// Builds the real app over a fresh test database, with no network listener (app.inject) unless asked.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Capability } from "@storyverse/contract/system";
import { buildApp, type TypedApp } from "../src/app";
import { type Config, loadConfig } from "../src/config";
import { type JobQueue, startJobQueue } from "../src/jobs/queue";
import { createTestDatabase, type TestDatabase } from "./database";

export type TestApp = TestDatabase & { app: TypedApp; config: Config; jobs: JobQueue; webDistDir: string };

/** A stand-in web build, so SPA fallback can be tested without building the web app. */
export async function createFakeWebDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-web-"));
  await writeFile(
    path.join(dir, "index.html"),
    "<!doctype html><html><body><div id=root></div>SPA</body></html>",
  );
  return dir;
}

export async function createTestApp(
  options: { env?: Record<string, string>; capabilities?: Capability[] } = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const config = loadConfig({ DATA_DIR: os.tmpdir(), LOG_LEVEL: "silent", ...options.env });
  const jobs = await startJobQueue(testDb.database, { pollingIntervalSeconds: 0.5 });
  const webDistDir = await createFakeWebDist();
  const app = await buildApp({
    config,
    database: testDb.database,
    jobs,
    capabilities: options.capabilities ?? [],
    webDistDir,
    logger: false,
  });
  await app.ready();
  return {
    ...testDb,
    app,
    config,
    jobs,
    webDistDir,
    cleanup: async () => {
      await app.close();
      await jobs.stop(5_000);
      await testDb.cleanup();
    },
  };
}
