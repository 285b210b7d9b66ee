// Once per test run: a PGlite database with every migration applied, dumped to a file, so each test
// file starts from it in well under a second instead of running initdb (seconds) again.
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client";
import { runMigrations } from "../src/db/migrate";

export default async function setup(project: TestProject): Promise<void> {
  const database = await openDatabase({ pgliteDir: "memory://" });
  await runMigrations(database);
  const dump = await database.dump!();
  await database.close();
  const file = path.join(os.tmpdir(), `storyverse-pglite-template-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
