// The only module that reads process.env: one zod schema, parsed once at boot.
import { randomBytes } from "node:crypto";
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { type ComfyWorkflows, readWorkflowDir, WorkflowError } from "./providers/comfyui/workflows";

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const portSchema = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/**
 * Which hops may set X-Forwarded-For: a hop count ("1": the proxy right in front) or proxy addresses and
 * CIDRs ("10.0.0.0/8,127.0.0.1"). "true" trusts whatever a client writes in the header, so every
 * per-address limit could be dodged; it is refused in production.
 */
const trustProxySchema = z
  .string()
  .trim()
  .transform((value, context): TrustProxy => {
    const lower = value.toLowerCase();
    if (["false", "no", "0", "off"].includes(lower)) return false;
    if (["true", "yes", "on"].includes(lower)) return true;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 32) return hops;
    }
    const entries = value.split(",").map((entry) => entry.trim());
    if (entries.length > 0 && entries.every(isAddressOrCidr)) return entries;
    context.addIssue({
      code: "custom",
      message:
        "must be a hop count (e.g. 1) or proxy addresses and CIDRs separated by commas (e.g. 10.0.0.0/8,127.0.0.1)",
    });
    return z.NEVER;
  });

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split("/");
  if (!address || rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** A comma-separated list, trimmed and lower-cased, empty entries dropped. */
const commaList = z.string().transform((value) =>
  value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean),
);

const envSchema = z.object({
  PORT: portSchema.default(3000),
  HOST: z.string().min(1, "must not be empty").default("0.0.0.0"),
  DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** Rate-limit windows in Redis instead of PostgreSQL or memory (operators who already run Redis). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  APP_URL: z.url("must be an absolute http(s) URL").optional(),
  APP_ENV: z.enum(["local", "production"], { error: "must be local or production" }).default("local"),
  LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(", ")}` }).default("info"),
  /** GET /metrics on a port of its own (decision 0128); unset: no metrics port. */
  METRICS_PORT: portSchema.optional(),
  /** GET /metrics on the main port too, for `Authorization: Bearer <token>` only; unset: a 404 there. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** A worker-only process (WORKER=only) answers GET /health on this port; unset: no health port. */
  WORKER_HEALTH_PORT: portSchema.optional(),
  WORKER: z.enum(["on", "off", "only"], { error: "must be on, off or only" }).default("on"),
  /**
   * PostgreSQL: keep the hot reads' answers in each process until a change signal (or 1 s) says otherwise.
   * Off: every read asks PostgreSQL (embedded PGlite always caches: one process sees every write).
   */
  READ_CACHE: booleanFlag.default(true),
  TRUST_PROXY: trustProxySchema.default(false),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3, "must be an address like Storyverse <no-reply@example.com>").optional(),
  TEXT_PROVIDER: z
    .enum(["offline", "openai", "byteplus"], { error: "must be offline, openai or byteplus" })
    .default("offline"),
  TEXT_API_KEY: z.string().optional(),
  TEXT_BASE_URL: z.url("must be an absolute URL").optional(),
  TEXT_MODEL: z.string().optional(),
  IMAGE_PROVIDER: z
    .enum(["offline", "openai", "byteplus", "replicate", "a1111", "comfyui"], {
      error: "must be offline, openai, byteplus, replicate, a1111 or comfyui",
    })
    .default("offline"),
  IMAGE_API_KEY: z.string().optional(),
  IMAGE_BASE_URL: z.url("must be an absolute URL").optional(),
  IMAGE_MODEL: z.string().optional(),
  /** The upscaler an own-GPU upscale uses: an A1111 upscaler's name, a ComfyUI upscale model's file (decision 0156). */
  IMAGE_UPSCALER: z.string().trim().min(1).optional(),
  /** Replicate's inpainting model for inpaints and extensions, "owner/name[:version]" (decision 0162). */
  REPLICATE_INPAINT_MODEL: z
    .string()
    .trim()
    .regex(/^[\w.-]+\/[\w.-]+(:[0-9a-f]{64})?$/, "must be owner/name or owner/name:version")
    .optional(),
  /** Replicate's upscaler for an upscale x2, "owner/name[:version]" (decision 0162). */
  REPLICATE_UPSCALE_MODEL: z
    .string()
    .trim()
    .regex(/^[\w.-]+\/[\w.-]+(:[0-9a-f]{64})?$/, "must be owner/name or owner/name:version")
    .optional(),
  VIDEO_PROVIDER: z
    .enum(["offline", "byteplus", "replicate", "comfyui"], {
      error: "must be offline, byteplus, replicate or comfyui",
    })
    .default("offline"),
  VIDEO_API_KEY: z.string().optional(),
  VIDEO_BASE_URL: z.url("must be an absolute URL").optional(),
  VIDEO_MODEL: z.string().optional(),
  /** A folder of the operator's own ComfyUI workflows (API format) replacing the shipped ones by name. */
  COMFYUI_WORKFLOW_DIR: z.string().trim().min(1).optional(),
  SPEECH_PROVIDER: z.enum(["none", "openai"], { error: "must be none or openai" }).default("none"),
  SPEECH_API_KEY: z.string().optional(),
  SPEECH_BASE_URL: z.url("must be an absolute URL").optional(),
  SPEECH_MODEL: z.string().optional(),
  /** Text to speech (narration). Offline is eSpeak NG on this machine: robotic but real, so production allows it. */
  TTS_PROVIDER: z
    .enum(["offline", "openai", "elevenlabs", "none"], {
      error: "must be offline, openai, elevenlabs or none",
    })
    .default("offline"),
  TTS_API_KEY: z.string().optional(),
  TTS_BASE_URL: z.url("must be an absolute URL").optional(),
  TTS_MODEL: z.string().optional(),
  /** Recall by meaning (decision 0113): an OpenAI-compatible /embeddings server; none: text search only. */
  EMBEDDINGS_PROVIDER: z.enum(["none", "openai"], { error: "must be none or openai" }).default("none"),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_BASE_URL: z.url("must be an absolute URL").optional(),
  EMBEDDINGS_MODEL: z.string().optional(),
  /** The narrator's context budget in tokens, for the configured text model. */
  TEXT_CONTEXT_TOKENS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1000, "must be at least 1000")
    .max(2_000_000)
    .default(8000),
  PROVIDER_TIMEOUT_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int()
    .min(1)
    .max(1800)
    .default(120),
  ALLOW_OFFLINE_AI: booleanFlag.default(false),
  /** The ffmpeg that decodes and muxes media; else one on the PATH, else the bundled (old) build. */
  FFMPEG_PATH: z.string().optional(),
  /** Lets APP_ENV=production use the bundled ffmpeg (4.1, 2018) when no current one is installed. */
  ALLOW_BUNDLED_FFMPEG: booleanFlag.default(false),
  PATH: z.string().optional(),
  OFFLINE_TEXT_WORDS_PER_SECOND: z.coerce
    .number({ error: "must be a number" })
    .min(0, "must be 0 (no pause) or more")
    .max(100_000)
    .default(40),
  /** The offline painter's and animator's picture size, as a fraction of full size (load and scale tests). */
  OFFLINE_MEDIA_SCALE: z.coerce
    .number({ error: "must be a number" })
    .min(0.05, "must be between 0.05 and 1")
    .max(1, "must be between 0.05 and 1")
    .default(1),
  MEDIA_STORAGE: z.enum(["local", "s3"], { error: "must be local or s3" }).default("local"),
  /** Each account's media storage in MB unless an administrator set its own (0: unlimited; decision 0122). */
  MEDIA_QUOTA_MB: z.coerce
    .number({ error: "must be a number of MB" })
    .int("must be a whole number of MB")
    .min(0, "must be 0 (unlimited) or more")
    .max(1_000_000_000)
    .default(2048),
  /**
   * Days an administrator-deleted account's data export is kept for the operator before it is removed (decision
   * 0157); 0 keeps none (the deletion is then done at once, as a player's own is).
   */
  DELETED_ACCOUNT_ARCHIVE_DAYS: z.coerce
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(0, "must be 0 (keep none) or more")
    .max(3650, "must be at most 3650 days")
    .default(30),
  MEDIA_URL_TTL_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: z.url("must be an absolute URL").optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  PAYMENT_PROVIDER: z.enum(["sandbox", "stripe"], { error: "must be sandbox or stripe" }).default("sandbox"),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, "must be a Stripe secret key (sk_... or rk_...)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, "must be a webhook signing secret (whsec_...)")
    .optional(),
  /** Only for tests and Stripe-compatible fakes; the SDK talks to api.stripe.com otherwise. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
  /** Lets APP_ENV=production run on Stripe test keys or STRIPE_API_BASE (a staging install). */
  ALLOW_STRIPE_TEST_MODE: booleanFlag.default(false),
  /** Hosts vendor result files may come from, on top of the private-address refusal; empty means any. */
  VENDOR_DOWNLOAD_HOSTS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    )
    .optional(),
  /** How long a client may take to send a whole request (headers and body). */
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 3600")
    .max(3600, "must be between 1 and 3600")
    .default(120),
  /** How long a client may take to send an ordinary request's body (uploads get REQUEST_TIMEOUT_SECONDS). */
  BODY_TIMEOUT_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 3600")
    .max(3600, "must be between 1 and 3600")
    .default(15),
  /** A charge not delivered after this long belongs to a dead process and is refunded by a worker. */
  UNSETTLED_CHARGE_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(5, "must be between 5 and 86400")
    .max(86400, "must be between 5 and 86400")
    .default(900),
  /** A running job with no heartbeat for this long belongs to a dead worker and is run again (crash tests shorten it). */
  DEAD_WORKER_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(2, "must be between 2 and 3600")
    .max(3600, "must be between 2 and 3600")
    .default(60),
  /** How often the event stream (GET /api/events) and a streamed turn get a heartbeat comment, so proxies keep them open. */
  EVENT_HEARTBEAT_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 300")
    .max(300, "must be between 1 and 300")
    .default(15),
  /** On SIGTERM, how long readiness fails while requests are still served, before connections close. */
  SHUTDOWN_DELAY_SECONDS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be between 0 and 300")
    .max(300, "must be between 0 and 300")
    .default(0),
  /** Open connections one client address may hold; 0 turns the cap off. Not applied behind TRUST_PROXY. */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 (off) or more")
    .default(256),
  /** New accounts one client address may create per hour (a school or office behind one NAT needs more). */
  SIGNUPS_PER_ADDRESS_PER_HOUR: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 10000")
    .max(10000, "must be between 1 and 10000")
    .default(10),
  /**
   * Multiplies the other per-address account limits (sign-ins, wrong passwords, link checks, availability
   * checks, mail requests): many people behind one address (a school or office NAT) need more.
   */
  ADDRESS_LIMITS_FACTOR: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 1000")
    .max(1000, "must be between 1 and 1000")
    .default(1),
  /** Sign-in by OIDC (decision 0146): the provider's issuer URL (discovery reads its .well-known document). */
  OIDC_ISSUER_URL: z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** Where the provider sends the browser back; APP_URL + /api/auth/oidc/callback when unset. */
  OIDC_REDIRECT_URL: z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
  OIDC_SCOPES: z.string().trim().default("openid email profile"),
  /** The button's label: "Sign in with <name>". */
  OIDC_PROVIDER_NAME: z.string().trim().min(1).max(40, "must be at most 40 characters").default("SSO"),
  /** Whether a first OIDC sign-in with an unknown email creates an account. */
  OIDC_AUTO_REGISTER: booleanFlag.default(true),
  /** Email domains that may sign in by OIDC (comma-separated); empty means any. */
  OIDC_ALLOWED_DOMAINS: commaList.optional(),
  /** Groups (or roles) whose members become administrators at sign-in. */
  OIDC_ADMIN_GROUPS: commaList.optional(),
  /** The ID token or userinfo claim that lists the groups. */
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default("groups"),
  /** off: only OIDC signs in (the password form, registration and password resets are turned off). */
  PASSWORD_LOGIN: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
});

/** Fastify's trustProxy: off, everything (local only), a hop count, or the proxies' addresses. */
export type TrustProxy = boolean | number | string[];

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL over the network; when absent the embedded PGlite under dataDir is used. */
  databaseUrl: string | undefined;
  /** When set, rate limits count in this Redis (shared by every process) rather than in the database. */
  redisUrl: string | undefined;
  appUrl: string;
  appEnv: "local" | "production";
  /** Which ffmpeg runs: FFMPEG_PATH, else the system's (on the PATH), else the bundled one (warned at start). */
  ffmpeg: FfmpegChoice;
  logLevel: (typeof logLevels)[number];
  /** Observability (decision 0128): the metrics port and token, the worker's health port. */
  metricsPort: number | undefined;
  metricsToken: string | undefined;
  workerHealthPort: number | undefined;
  /** on: http and worker in one process; off: http only; only: worker only. */
  worker: "on" | "off" | "only";
  /** PostgreSQL: the per-process read cache (`db/read-cache-postgres.ts`). */
  readCache: boolean;
  /** Behind a reverse proxy: which hops' X-Forwarded-For entries to believe (see TrustProxy). */
  trustProxy: TrustProxy;
  /** Slow clients are cut off when a request has not fully arrived after this long. */
  requestTimeoutMs: number;
  /** Ordinary (non-upload) requests must have sent their whole body within this long. */
  bodyTimeoutMs: number;
  /** On stop, how long readiness fails while requests are still served (the balancer's reaction time). */
  shutdownDelayMs: number;
  /** Charges still unsettled after this long are refunded by the worker's sweep (a process died). */
  unsettledChargeMs: number;
  /** A running job without a heartbeat for this long is retried by another worker. */
  deadWorkerSeconds: number;
  /** The event stream's heartbeat interval. */
  eventHeartbeatMs: number;
  /** Open connections per client address (0: no cap); the cap is off behind a proxy. */
  maxConnectionsPerAddress: number;
  /** Accounts one client address may register per hour. */
  signupsPerAddressPerHour: number;
  addressLimitsFactor: number;
  /** Signs media URLs; a random per-process secret locally, required in production. */
  sessionSecret: string;
  requireEmailVerification: boolean;
  /** SMTP when set; otherwise mails are written to the server log. */
  smtpUrl: string | undefined;
  mailFrom: string;
  providers: ProvidersConfig;
  /** Tokens the narrator's context may use (TEXT_CONTEXT_TOKENS). */
  narratorContextTokens: number;
  storage: StorageConfig;
  /** Each account's media storage in MB unless set per account (MEDIA_QUOTA_MB; 0: unlimited). */
  mediaQuotaMb: number;
  /** Days an administrator-deleted account's data export is kept for the operator (0: none; decision 0157). */
  deletedAccountArchiveDays: number;
  payments: PaymentsConfig;
  /** Sign-in by OIDC when OIDC_ISSUER_URL is set (decision 0146). */
  oidc: OidcConfig | undefined;
  /** PASSWORD_LOGIN=off: email and password sign-in, registration and resets are refused. */
  passwordLogin: boolean;
};

export type OidcConfig = {
  issuerUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUrl: string;
  scopes: string;
  providerName: string;
  autoRegister: boolean;
  /** Lower-cased; empty: any domain. */
  allowedDomains: string[];
  /** Lower-cased; empty: no group makes an administrator. */
  adminGroups: string[];
  groupsClaim: string;
};

export type ProviderSettings<Kind extends string> = {
  kind: Kind;
  apiKey: string | undefined;
  /** Overrides the vendor's default base URL (OpenAI-compatible servers, regions, test fakes). */
  baseUrl: string | undefined;
  model: string | undefined;
};

export type ProvidersConfig = {
  text: ProviderSettings<"offline" | "openai" | "byteplus">;
  image: ProviderSettings<"offline" | "openai" | "byteplus" | "replicate" | "a1111" | "comfyui">;
  video: ProviderSettings<"offline" | "byteplus" | "replicate" | "comfyui">;
  /** The upscaler an own-GPU upscale asks for (IMAGE_UPSCALER); absent: the adapter's default. */
  imageUpscaler?: string | undefined;
  /** Replicate's inpainting model and upscaler (REPLICATE_INPAINT_MODEL, REPLICATE_UPSCALE_MODEL); absent: defaults. */
  replicateInpaintModel?: string | undefined;
  replicateUpscaleModel?: string | undefined;
  /** The operator's own ComfyUI workflows (COMFYUI_WORKFLOW_DIR), read and checked at start. */
  comfyuiWorkflows?: Partial<ComfyWorkflows> | undefined;
  speech: ProviderSettings<"none" | "openai">;
  /** Text to speech; "none" turns narration off. */
  voice: ProviderSettings<"offline" | "openai" | "elevenlabs" | "none">;
  /** Recall by meaning; "none" keeps recall to text search. */
  embeddings?: ProviderSettings<"none" | "openai">;
  /** Every vendor call gives up after this long. */
  timeoutMs: number;
  /** The offline narrator's streaming pace (0: no pause between words). */
  offlineWordsPerSecond?: number;
  /** The offline pictures' and clips' size as a fraction of full size (1: 2048x1536 and 640x480). */
  offlineMediaScale?: number;
  /** When set, vendor result files are fetched only from these hosts (or their subdomains). */
  downloadHosts?: string[] | undefined;
};

export type StorageConfig =
  | { kind: "local"; dir: string; urlTtlSeconds: number }
  | {
      kind: "s3";
      bucket: string;
      region: string;
      endpoint: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
      urlTtlSeconds: number;
    };

/** sandbox: the app's own checkout page, no card charged (local only); stripe: Stripe Checkout. */
export type PaymentsConfig =
  | { provider: "sandbox" }
  | {
      provider: "stripe";
      secretKey: string;
      webhookSecret: string;
      /** Where the SDK sends requests instead of api.stripe.com (tests point it at a local fake). */
      apiBase: { host: string; port: number; protocol: "http" | "https" } | undefined;
    };

export class ConfigError extends Error {}

export type FfmpegChoice = { path: string; source: "FFMPEG_PATH" | "system" | "bundled" };

/** ffmpeg on the PATH (an executable file named ffmpeg), or undefined. */
function ffmpegOnPath(pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === "win32" ? "ffmpeg.exe" : "ffmpeg");
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/** The static build inside the @ffmpeg-installer packages (loaded only when needed: it throws on an odd platform). */
function bundledFfmpeg(): string {
  try {
    return (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  } catch {
    throw new ConfigError(
      "Invalid environment variable FFMPEG_PATH: no ffmpeg on the PATH and no bundled build for this platform; install ffmpeg or set FFMPEG_PATH",
    );
  }
}

function chooseFfmpeg(e: z.infer<typeof envSchema>): FfmpegChoice {
  if (e.FFMPEG_PATH) return { path: e.FFMPEG_PATH, source: "FFMPEG_PATH" };
  const system = ffmpegOnPath(e.PATH);
  if (system) return { path: system, source: "system" };
  if (e.APP_ENV === "production" && !e.ALLOW_BUNDLED_FFMPEG) {
    throw new ConfigError(
      "Invalid environment variable ALLOW_BUNDLED_FFMPEG: no ffmpeg on the PATH and FFMPEG_PATH is unset, and the bundled ffmpeg (4.1, 2018) should not decode vendor media when APP_ENV=production; install a current ffmpeg (Debian: apt-get install ffmpeg), set FFMPEG_PATH, or set ALLOW_BUNDLED_FFMPEG=true",
    );
  }
  return { path: bundledFfmpeg(), source: "bundled" };
}

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
      `Invalid environment variable ${name}: ${issue.message}${shownValue(name, present[name])}`,
    );
  }
  const e = parsed.data;
  requireProviderKeys(e);
  requirePaymentKeys(e);
  if (e.MEDIA_STORAGE === "s3" && !e.S3_BUCKET) {
    throw new ConfigError("Invalid environment variable S3_BUCKET: required when MEDIA_STORAGE=s3");
  }
  if (e.APP_ENV === "production") refuseUnsafeProductionDefaults(e);
  const dataDir = path.resolve(e.DATA_DIR);
  const ffmpeg = chooseFfmpeg(e);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    appUrl,
    appEnv: e.APP_ENV,
    ffmpeg,
    logLevel: e.LOG_LEVEL,
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    workerHealthPort: e.WORKER_HEALTH_PORT,
    worker: e.WORKER,
    readCache: e.READ_CACHE,
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    bodyTimeoutMs: Math.min(e.BODY_TIMEOUT_SECONDS, e.REQUEST_TIMEOUT_SECONDS) * 1000,
    shutdownDelayMs: e.SHUTDOWN_DELAY_SECONDS * 1000,
    unsettledChargeMs: e.UNSETTLED_CHARGE_SECONDS * 1000,
    deadWorkerSeconds: e.DEAD_WORKER_SECONDS,
    eventHeartbeatMs: e.EVENT_HEARTBEAT_SECONDS * 1000,
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    signupsPerAddressPerHour: e.SIGNUPS_PER_ADDRESS_PER_HOUR,
    addressLimitsFactor: e.ADDRESS_LIMITS_FACTOR,
    sessionSecret: e.SESSION_SECRET ?? randomBytes(32).toString("hex"),
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? "Storyverse <no-reply@localhost>",
    narratorContextTokens: e.TEXT_CONTEXT_TOKENS,
    providers: {
      text: { kind: e.TEXT_PROVIDER, apiKey: e.TEXT_API_KEY, baseUrl: e.TEXT_BASE_URL, model: e.TEXT_MODEL },
      image: {
        kind: e.IMAGE_PROVIDER,
        apiKey: e.IMAGE_API_KEY,
        baseUrl: e.IMAGE_BASE_URL,
        model: e.IMAGE_MODEL,
      },
      video: {
        kind: e.VIDEO_PROVIDER,
        apiKey: e.VIDEO_API_KEY,
        baseUrl: e.VIDEO_BASE_URL,
        model: e.VIDEO_MODEL,
      },
      speech: {
        kind: e.SPEECH_PROVIDER,
        apiKey: e.SPEECH_API_KEY,
        baseUrl: e.SPEECH_BASE_URL,
        model: e.SPEECH_MODEL,
      },
      voice: { kind: e.TTS_PROVIDER, apiKey: e.TTS_API_KEY, baseUrl: e.TTS_BASE_URL, model: e.TTS_MODEL },
      embeddings: {
        kind: e.EMBEDDINGS_PROVIDER,
        apiKey: e.EMBEDDINGS_API_KEY,
        baseUrl: e.EMBEDDINGS_BASE_URL,
        model: e.EMBEDDINGS_MODEL,
      },
      imageUpscaler: e.IMAGE_UPSCALER,
      replicateInpaintModel: e.REPLICATE_INPAINT_MODEL,
      replicateUpscaleModel: e.REPLICATE_UPSCALE_MODEL,
      comfyuiWorkflows: comfyuiWorkflows(e),
      timeoutMs: e.PROVIDER_TIMEOUT_SECONDS * 1000,
      offlineWordsPerSecond: e.OFFLINE_TEXT_WORDS_PER_SECOND,
      offlineMediaScale: e.OFFLINE_MEDIA_SCALE,
      downloadHosts: e.VENDOR_DOWNLOAD_HOSTS?.length ? e.VENDOR_DOWNLOAD_HOSTS : undefined,
    },
    storage:
      e.MEDIA_STORAGE === "s3"
        ? {
            kind: "s3",
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION ?? "us-east-1",
            endpoint: e.S3_ENDPOINT,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            urlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
          }
        : { kind: "local", dir: path.join(dataDir, "media"), urlTtlSeconds: e.MEDIA_URL_TTL_SECONDS },
    mediaQuotaMb: e.MEDIA_QUOTA_MB,
    deletedAccountArchiveDays: e.DELETED_ACCOUNT_ARCHIVE_DAYS,
    payments:
      e.PAYMENT_PROVIDER === "stripe"
        ? {
            provider: "stripe",
            secretKey: e.STRIPE_SECRET_KEY!,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
            apiBase: e.STRIPE_API_BASE ? stripeApiBase(e.STRIPE_API_BASE) : undefined,
          }
        : { provider: "sandbox" },
    oidc: oidcConfig(e, appUrl),
    passwordLogin: e.PASSWORD_LOGIN === "on",
  };
}

function oidcConfig(e: z.infer<typeof envSchema>, appUrl: string): OidcConfig | undefined {
  if (!e.OIDC_ISSUER_URL) {
    if (e.PASSWORD_LOGIN === "off") {
      throw new ConfigError(
        "Invalid environment variable PASSWORD_LOGIN: off needs OIDC_ISSUER_URL, or nobody could sign in",
      );
    }
    return undefined;
  }
  if (!e.OIDC_CLIENT_ID) {
    throw new ConfigError(
      "Invalid environment variable OIDC_CLIENT_ID: required when OIDC_ISSUER_URL is set",
    );
  }
  if (e.APP_ENV === "production" && new URL(e.OIDC_ISSUER_URL).protocol !== "https:") {
    throw new ConfigError(
      "Invalid environment variable OIDC_ISSUER_URL: must be https when APP_ENV=production",
    );
  }
  if (!e.OIDC_SCOPES.split(/\s+/).includes("openid")) {
    throw new ConfigError(
      `Invalid environment variable OIDC_SCOPES: must include openid (got "${e.OIDC_SCOPES}")`,
    );
  }
  return {
    issuerUrl: e.OIDC_ISSUER_URL,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    redirectUrl: e.OIDC_REDIRECT_URL ?? `${appUrl}/api/auth/oidc/callback`,
    scopes: e.OIDC_SCOPES,
    providerName: e.OIDC_PROVIDER_NAME,
    autoRegister: e.OIDC_AUTO_REGISTER,
    allowedDomains: e.OIDC_ALLOWED_DOMAINS ?? [],
    adminGroups: e.OIDC_ADMIN_GROUPS ?? [],
    groupsClaim: e.OIDC_GROUPS_CLAIM,
  };
}

/** Variables whose values are credentials: a config error names them but never prints them. */
const secretVariables = /(SECRET|KEY|PASSWORD|TOKEN)|^(SMTP_URL|DATABASE_URL|REDIS_URL)$/;

/** ` (got "...")` for a harmless value; nothing for a secret or a value carrying user:password@. */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined || secretVariables.test(name)) return "";
  const withoutCredentials = value.replace(/\/\/[^/@\s]*@/, "//");
  if (withoutCredentials !== value) return "";
  return ` (got "${value.length > 100 ? `${value.slice(0, 100)}…` : value}")`;
}

function stripeApiBase(url: string): { host: string; port: number; protocol: "http" | "https" } {
  const parsed = new URL(url);
  const protocol = parsed.protocol === "http:" ? "http" : "https";
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : protocol === "http" ? 80 : 443,
    protocol,
  };
}

/** Stripe needs both its API key and the webhook signing secret: without the second no purchase is credited. */
function requirePaymentKeys(e: z.infer<typeof envSchema>): void {
  if (e.PAYMENT_PROVIDER !== "stripe") return;
  for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
    if (!e[name]) {
      throw new ConfigError(`Invalid environment variable ${name}: required when PAYMENT_PROVIDER=stripe`);
    }
  }
}

/** The operator's ComfyUI workflows, when ComfyUI is in use and COMFYUI_WORKFLOW_DIR names a folder of them. */
function comfyuiWorkflows(e: z.infer<typeof envSchema>): Partial<ComfyWorkflows> | undefined {
  if (!e.COMFYUI_WORKFLOW_DIR || (e.IMAGE_PROVIDER !== "comfyui" && e.VIDEO_PROVIDER !== "comfyui")) {
    return undefined;
  }
  try {
    return readWorkflowDir(path.resolve(e.COMFYUI_WORKFLOW_DIR));
  } catch (error) {
    if (!(error instanceof WorkflowError)) throw error;
    throw new ConfigError(`Invalid environment variable COMFYUI_WORKFLOW_DIR: ${error.message}`);
  }
}

/**
 * A hosted vendor needs its key; an OpenAI-compatible server on a custom base URL (Ollama, vLLM) may not, nor
 * the operator's own GPU (AUTOMATIC1111, ComfyUI), which takes none unless it was started with one.
 */
function requireProviderKeys(e: z.infer<typeof envSchema>): void {
  const checks = [
    ["TEXT", e.TEXT_PROVIDER, e.TEXT_API_KEY, e.TEXT_BASE_URL],
    ["IMAGE", e.IMAGE_PROVIDER, e.IMAGE_API_KEY, e.IMAGE_BASE_URL],
    ["VIDEO", e.VIDEO_PROVIDER, e.VIDEO_API_KEY, e.VIDEO_BASE_URL],
    ["SPEECH", e.SPEECH_PROVIDER, e.SPEECH_API_KEY, e.SPEECH_BASE_URL],
    ["TTS", e.TTS_PROVIDER, e.TTS_API_KEY, e.TTS_BASE_URL],
    ["EMBEDDINGS", e.EMBEDDINGS_PROVIDER, e.EMBEDDINGS_API_KEY, e.EMBEDDINGS_BASE_URL],
  ] as const;
  for (const [prefix, kind, key, baseUrl] of checks) {
    const keyless =
      kind === "offline" ||
      kind === "none" ||
      kind === "a1111" ||
      kind === "comfyui" ||
      (kind === "openai" && baseUrl);
    if (!keyless && !key) {
      throw new ConfigError(
        `Invalid environment variable ${prefix}_API_KEY: required when ${prefix}_PROVIDER=${kind}`,
      );
    }
  }
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
  // TTS_PROVIDER=offline is not on this list: eSpeak NG speaks the real text (plainly), unlike the offline
  // narrator and painter, whose stand-in results would mislead paying users.
  const offline = [e.TEXT_PROVIDER, e.IMAGE_PROVIDER, e.VIDEO_PROVIDER].filter((kind) => kind === "offline");
  if (offline.length > 0 && !e.ALLOW_OFFLINE_AI) {
    throw new ConfigError(
      "Invalid environment variable ALLOW_OFFLINE_AI: set TEXT_PROVIDER, IMAGE_PROVIDER and VIDEO_PROVIDER to real providers, or ALLOW_OFFLINE_AI=1, when APP_ENV=production",
    );
  }
  if (e.PAYMENT_PROVIDER === "sandbox") {
    throw new ConfigError(
      "Invalid environment variable PAYMENT_PROVIDER: set PAYMENT_PROVIDER=stripe (with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET) when APP_ENV=production; the sandbox adds credits without any payment",
    );
  }
  if (e.TRUST_PROXY === true) {
    throw new ConfigError(
      "Invalid environment variable TRUST_PROXY: true would believe any client's X-Forwarded-For when APP_ENV=production; set the number of proxies in front (e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=10.0.0.0/8,127.0.0.1)",
    );
  }
  if (e.PAYMENT_PROVIDER === "stripe" && !e.ALLOW_STRIPE_TEST_MODE) {
    if (/^(sk|rk)_test_/.test(e.STRIPE_SECRET_KEY ?? "")) {
      throw new ConfigError(
        "Invalid environment variable STRIPE_SECRET_KEY: a test-mode key (sk_test_/rk_test_) takes no real payments when APP_ENV=production; use a live key, or set ALLOW_STRIPE_TEST_MODE=1 for a staging install",
      );
    }
    if (e.STRIPE_API_BASE) {
      throw new ConfigError(
        "Invalid environment variable STRIPE_API_BASE: payments would go somewhere other than Stripe when APP_ENV=production; unset it, or set ALLOW_STRIPE_TEST_MODE=1 for a staging install",
      );
    }
  }
  if (e.REQUIRE_EMAIL_VERIFICATION && !e.SMTP_URL) {
    throw new ConfigError(
      "Invalid environment variable SMTP_URL: required when APP_ENV=production and REQUIRE_EMAIL_VERIFICATION is on",
    );
  }
}
