// npm run admin -- <command>: maintenance for self-hosters, against the same database the server uses.
import { formatStorageBytes } from "@storyverse/contract/media";
import { findUserByEmail, listUsers } from "./accounts";
import { type AdminContext, adjustCredits, makeAdmin, updateUser } from "./admin/index";
import { COMMAND_LINE } from "./audit";
import { ConfigError, loadConfig } from "./config";
import { fromTenths, listBalances, remainingCredits } from "./credits";
import { type Database, DataDirectoryInUse, openDatabase, type Queryable } from "./db/client";
import { runMigrations } from "./db/migrate";
import { databaseTarget } from "./db/target";
import { setStorageQuota, storageUsage } from "./media";
import { systemClock } from "./platform/clock";

const usage = `Usage: npm run admin -- <command>

Commands:
  verify-email <email>              mark an account's email as verified (for installs without SMTP)
  grant-credits <email> <credits> [reason]
                                    add credits (e.g. 50 or 2.5); they show, with the reason, in the account's history
  set-unlimited <email> on|off      switch unlimited credits on or off (usage is still logged)
  list-balances                     every account's email, username and credits
  set-quota <email> <MB>|default    an account's media storage in MB (0: unlimited; default: MEDIA_QUOTA_MB)
  make-admin <email>                make the account an administrator (the admin console)

Every change but set-quota is written to the admin console's audit log, as made by the command line.`;

/** Largest single grant, so a typo (an extra zero or five) cannot mint a fortune. */
const MAX_GRANT_CREDITS = 1_000_000;

const describeCredits = (remaining: number) => (remaining === -1 ? "unlimited" : `${remaining} credits`);

async function grantCredits(
  ctx: AdminContext,
  email: string | undefined,
  amount: string | undefined,
  reason = "from the command line",
): Promise<number> {
  const { db } = ctx;
  const credits = Number(amount);
  if (!email || !amount || !/^\d+(\.\d)?$/.test(amount) || credits <= 0 || credits > MAX_GRANT_CREDITS) {
    console.error(
      `grant-credits needs an email and a number of credits above 0 and up to ${MAX_GRANT_CREDITS}, with at most one decimal (e.g. 50 or 2.5)`,
    );
    return 1;
  }
  const user = await findUserByEmail(db, email);
  if (!user) {
    console.error(`No account with the email ${email}.`);
    return 1;
  }
  // The console's own path: a ledger entry with the reason, and the audit log.
  await adjustCredits(ctx, COMMAND_LINE, user.id, { amount: credits, reason });
  console.log(
    `Granted ${credits} credits to ${user.email}. Balance: ${describeCredits(await remainingCredits(db, user.id))}.`,
  );
  return 0;
}

async function switchUnlimited(
  ctx: AdminContext,
  email: string | undefined,
  flag: string | undefined,
): Promise<number> {
  const { db } = ctx;
  if (!email || (flag !== "on" && flag !== "off")) {
    console.error("set-unlimited needs an email and on or off");
    return 1;
  }
  const user = await findUserByEmail(db, email);
  if (!user) {
    console.error(`No account with the email ${email}.`);
    return 1;
  }
  await updateUser(ctx, COMMAND_LINE, user.id, { unlimited: flag === "on" });
  console.log(
    `Unlimited credits ${flag} for ${user.email}. Balance: ${describeCredits(await remainingCredits(db, user.id))}.`,
  );
  return 0;
}

/** Largest per-account quota (1 PB in MB), so a typo cannot overflow the byte count. */
const MAX_QUOTA_MB = 1_000_000_000;

async function setQuota(
  db: Queryable,
  defaultQuotaMb: number,
  email: string | undefined,
  amount: string | undefined,
): Promise<number> {
  const quotaMb = amount === "default" ? null : Number(amount);
  if (!email || !amount || (quotaMb !== null && (!/^\d+$/.test(amount) || quotaMb > MAX_QUOTA_MB))) {
    console.error(
      `set-quota needs an email and a whole number of MB from 0 (unlimited) to ${MAX_QUOTA_MB}, or "default" (MEDIA_QUOTA_MB)`,
    );
    return 1;
  }
  const user = await findUserByEmail(db, email);
  if (!user) {
    console.error(`No account with the email ${email}.`);
    return 1;
  }
  await setStorageQuota(db, user.id, quotaMb);
  const usage = await storageUsage({ db, config: { mediaQuotaMb: defaultQuotaMb } }, user.id);
  const limit = usage.limitBytes === null ? "unlimited" : formatStorageBytes(usage.limitBytes);
  console.log(
    `Media storage of ${user.email}: ${limit}${quotaMb === null ? " (the install's MEDIA_QUOTA_MB)" : ""}, ${formatStorageBytes(usage.usedBytes)} used.`,
  );
  return 0;
}

async function printBalances(db: Queryable): Promise<number> {
  const balances = new Map((await listBalances(db)).map((row) => [row.userId, row]));
  const rows = (await listUsers(db)).flatMap((user) => {
    const balance = balances.get(user.id);
    return balance ? [{ ...user, ...balance }] : [];
  });
  if (rows.length === 0) {
    console.log("No accounts yet.");
    return 0;
  }
  const emailWidth = Math.max(5, ...rows.map((row) => row.email.length));
  const nameWidth = Math.max(8, ...rows.map((row) => row.username.length));
  console.log(`${"EMAIL".padEnd(emailWidth)}  ${"USERNAME".padEnd(nameWidth)}  CREDITS`);
  for (const row of rows) {
    const credits = row.unlimited
      ? `unlimited (${fromTenths(row.balanceTenths)} kept)`
      : String(fromTenths(row.balanceTenths));
    console.log(`${row.email.padEnd(emailWidth)}  ${row.username.padEnd(nameWidth)}  ${credits}`);
  }
  return 0;
}

export async function runAdmin(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === "help" || command === "--help") {
    console.log(usage);
    return command ? 0 : 1;
  }
  const config = loadConfig(env);
  let database: Database;
  try {
    // On PGlite this takes the data directory's lock, so a running server makes the command refuse
    // instead of writing where the server never looks.
    database = await openDatabase(databaseTarget(config));
  } catch (error) {
    if (!(error instanceof DataDirectoryInUse)) throw error;
    console.error(error.message);
    return 1;
  }
  try {
    await runMigrations(database, { vectors: false });
    const admin: AdminContext = { db: database.db, clock: systemClock, notify: database.notifier, config };
    switch (command) {
      case "verify-email": {
        const email = rest[0];
        if (!email) {
          console.error("verify-email needs an email address");
          return 1;
        }
        const found = await findUserByEmail(database.db, email);
        if (found) await updateUser(admin, COMMAND_LINE, found.id, { verified: true });
        console.log(found ? `Verified ${email}.` : `No account with the email ${email}.`);
        return found ? 0 : 1;
      }
      case "grant-credits":
        return await grantCredits(admin, rest[0], rest[1], rest.slice(2).join(" ") || undefined);
      case "set-unlimited":
        return await switchUnlimited(admin, rest[0], rest[1]);
      case "list-balances":
        return await printBalances(database.db);
      case "set-quota":
        return await setQuota(database.db, config.mediaQuotaMb, rest[0], rest[1]);
      case "make-admin": {
        const email = rest[0];
        if (!email) {
          console.error("make-admin needs an email address");
          return 1;
        }
        const row = await makeAdmin(admin, email);
        if (!row) {
          console.error(`No account with the email ${email}.`);
          return 1;
        }
        console.log(`${row.email} is an administrator: the admin console is in their account menu.`);
        return 0;
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
