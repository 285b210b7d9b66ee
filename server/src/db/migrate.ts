// Applies the generated migrations in server/drizzle; the same files serve PGlite and PostgreSQL (each
// database brings its driver's migrator, see client.ts).
import { fileURLToPath } from "node:url";
import type { Database } from "./client";
import { setupVectors } from "./vectors";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

export async function runMigrations(database: Database): Promise<void> {
  await database.migrate(migrationsFolder);
  // Before the read cache's change signals: they go on the app's tables only.
  await setupVectors(database);
  if (database.kind === "postgres") await database.armReadCache?.();
}
