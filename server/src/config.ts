// The only module that reads process.env: one zod schema, parsed once at boot.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const portSchema = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const envSchema = z.object({
  PORT: portSchema.default(3000),
  HOST: z.string().min(1, "must not be empty").default("0.0.0.0"),
  DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  APP_URL: z.url("must be an absolute http(s) URL").optional(),
  APP_ENV: z.enum(["local", "production"], { error: "must be local or production" }).default("local"),
  LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(", ")}` }).default("info"),
  WORKER: z.enum(["on", "off", "only"], { error: "must be on, off or only" }).default("on"),
  TRUST_PROXY: booleanFlag.default(false),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3, "must be an address like Storyverse <no-reply@example.com>").optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL over the network; when absent the embedded PGlite under dataDir is used. */
  databaseUrl: string | undefined;
  appUrl: string;
  appEnv: "local" | "production";
  logLevel: (typeof logLevels)[number];
  /** on: http and worker in one process; off: http only; only: worker only. */
  worker: "on" | "off" | "only";
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** Signs media URLs; a random per-process secret locally, required in production. */
  sessionSecret: string;
  requireEmailVerification: boolean;
  /** SMTP when set; otherwise mails are written to the server log. */
  smtpUrl: string | undefined;
  mailFrom: string;
};

export class ConfigError extends Error {}

/** Parses an environment map; throws ConfigError whose message is one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "not set", as in most .env files.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(
      `Invalid environment variable ${name}: ${issue.message} (got "${present[name] ?? ""}")`,
    );
  }
  const e = parsed.data;
  if (e.APP_ENV === "production") refuseUnsafeProductionDefaults(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    appEnv: e.APP_ENV,
    logLevel: e.LOG_LEVEL,
    worker: e.WORKER,
    trustProxy: e.TRUST_PROXY,
    sessionSecret: e.SESSION_SECRET ?? randomBytes(32).toString("hex"),
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? "Storyverse <no-reply@localhost>",
  };
}

/** APP_ENV=production must not run on the conveniences of a local install; each refusal names its variable. */
function refuseUnsafeProductionDefaults(e: z.infer<typeof envSchema>): void {
  if (!e.SESSION_SECRET) {
    throw new ConfigError("Invalid environment variable SESSION_SECRET: required when APP_ENV=production");
  }
  if (!e.APP_URL) {
    throw new ConfigError(
      "Invalid environment variable APP_URL: required when APP_ENV=production (links in mails)",
    );
  }
  if (e.REQUIRE_EMAIL_VERIFICATION && !e.SMTP_URL) {
    throw new ConfigError(
      "Invalid environment variable SMTP_URL: required when APP_ENV=production and REQUIRE_EMAIL_VERIFICATION is on",
    );
  }
}
