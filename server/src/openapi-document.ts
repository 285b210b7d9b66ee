// `npm run lint:openapi`: writes the OpenAPI document the server serves at /api/docs/json to a file (the
// path given, or standard output), built from a throwaway app whose database is never opened: the document
// comes from the route schemas alone, so nothing is migrated, started, queried or listened on.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/pglite";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import type { Database } from "./db/client";
import * as schema from "./db/schema";
import type { JobQueue } from "./jobs/queue";
import { createMediaStorage } from "./media";
import { systemClock } from "./platform/clock";
import { createLocalNotifier } from "./platform/notify";
import { createProviders } from "./providers/create-providers";

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-openapi-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", APP_URL: "http://localhost:8000" });
  const unused = async (): Promise<never> => {
    throw new Error("the OpenAPI document needs no database");
  };
  const database: Database = {
    kind: "pglite",
    // Drizzle without a connection: building the app prepares nothing, so it is never asked a query.
    db: drizzle.mock({ schema }),
    migrate: unused,
    executeSql: unused,
    ping: unused,
    close: async () => {},
    notifier: createLocalNotifier(),
  };
  const app = await buildApp({
    config,
    database,
    jobs: {} as JobQueue,
    providers: createProviders(config.providers),
    storage: createMediaStorage(config.storage, config.sessionSecret, systemClock),
    clock: systemClock,
    webDistDir: dataDir,
    logger: false,
  });
  await app.ready();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  const target = process.argv[2];
  if (target) await writeFile(target, document);
  else process.stdout.write(document);
}

await main();
