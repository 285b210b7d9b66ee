// npm run admin -- <command>: maintenance for self-hosters, against the same database the server uses.
import { markEmailVerified } from "./accounts/service";
import { ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/client";
import { runMigrations } from "./db/migrate";
import { systemClock } from "./platform/clock";
import { databaseTarget } from "./server";

const usage = `Usage: npm run admin -- <command>

Commands:
  verify-email <email>   mark an account's email as verified (for installs without SMTP)`;

export async function runAdmin(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === "help" || command === "--help") {
    console.log(usage);
    return command ? 0 : 1;
  }
  const config = loadConfig(env);
  const database = await openDatabase(databaseTarget(config));
  try {
    await runMigrations(database);
    switch (command) {
      case "verify-email": {
        const email = rest[0];
        if (!email) {
          console.error("verify-email needs an email address");
          return 1;
        }
        const found = await markEmailVerified({ db: database.db, clock: systemClock }, email);
        console.log(found ? `Verified ${email}.` : `No account with the email ${email}.`);
        return found ? 0 : 1;
      }
      default:
        console.error(`Unknown command "${command}".\n\n${usage}`);
        return 1;
    }
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runAdmin(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
