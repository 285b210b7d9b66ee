// Once per test run and engine: a database with every migration applied, which each test file's database
// starts from instead of migrating again. PGlite: a dumped data directory in a file (loading it takes well
// under a second; initdb and the migrations take seconds). PostgreSQL: a template database that
// `create database ... template` copies.
import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/client";
import { runMigrations } from "../src/db/migrate";

async function pgliteTemplate(): Promise<{ file: string; remove: () => Promise<void> }> {
  const database = await openDatabase({ pgliteDir: "memory://" });
  await runMigrations(database);
  const dump = await database.dump!();
  await database.close();
  const file = path.join(
    os.tmpdir(),
    `storyverse-pglite-template-${process.pid}-${randomBytes(3).toString("hex")}.tar`,
  );
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return { file, remove: () => rm(file, { force: true }) };
}

async function postgresTemplate(serverUrl: string): Promise<{ name: string; remove: () => Promise<void> }> {
  const name = `storyverse_template_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }
  return { name, remove: () => admin(`drop database if exists "${name}" with (force)`) };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const removals: (() => Promise<void>)[] = [];
  // Every pass gets the PGlite template: the PGlite read cache's own test uses it on either engine.
  const pglite = await pgliteTemplate();
  removals.push(pglite.remove);
  project.provide("pgliteTemplate", pglite.file);
  if (project.config.env?.TEST_DB_ENGINE === "postgres") {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error("TEST_DATABASE_URL is required for the PostgreSQL pass");
    const template = await postgresTemplate(serverUrl);
    removals.push(template.remove);
    project.provide("postgresTemplate", template.name);
  } else {
    project.provide("postgresTemplate", "");
  }
  return async () => {
    for (const remove of removals) await remove();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** The migrated PostgreSQL template database's name (PostgreSQL pass only). */
    postgresTemplate: string;
  }
}
