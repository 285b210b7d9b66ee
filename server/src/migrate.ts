// npm run migrate: applies the pending migrations and exits, as a step of its own before the new version's
// processes start (docs/deployment.md, "Upgrades"). Every start migrates too, so this is optional; it moves
// the migrations' time and any failure out of the rollout. Prints one JSON line; exits 1 when a migration fails.
import { loadConfig } from "./config";
import { openDatabase } from "./db/client";
import { describeMigrations, runMigrations } from "./db/migrate";
import { databaseTarget } from "./db/target";

async function migrate(): Promise<number> {
  const config = loadConfig(process.env);
  const database = await openDatabase(databaseTarget(config));
  try {
    const report = describeMigrations(await runMigrations(database));
    const line = JSON.stringify({ level: report.level, msg: report.msg, ...report.fields });
    if (report.level === "warn") console.warn(line);
    else console.log(line);
    return 0;
  } finally {
    await database.close();
  }
}

migrate().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // The message is the whole story: a setting's rule, the data directory's owner, or the migration, the
    // database's own error and the statement (db/migrate.ts).
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
