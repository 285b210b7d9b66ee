// npm run test:scale: the scale-out test. Two HTTP processes (WORKER=off) and two workers (WORKER=only),
// started exactly as `npm start` starts the server, on a throwaway PostgreSQL database and an S3-compatible
// store (s3rver), take story turns (pictures and clips) from many users spread over both HTTP processes.
// Mid-run one worker is killed with SIGKILL and replaced, and one HTTP process is killed and restarted.
// Afterwards it checks that every charge ended delivered or refunded, that every user's ledger adds up to
// the balance and never went below zero, that every finished picture and clip is in the store and downloads
// through the links of either HTTP process, that a logout on one process is refused on the other within a
// second, and that the sign-in limit per account holds across both. It prints a table and exits non-zero on
// any failed check. Settings: SCALE_TURNS (1000), SCALE_USERS (100), SCALE_DATABASE_URL (the local server).
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { refundReference } from "../server/src/credits/paid-work";
import { grant } from "../server/src/credits/service";
import { openDatabase } from "../server/src/db/client";
import { createMediaStorage } from "../server/src/media/storage/create-storage";
import { systemClock } from "../server/src/platform/clock";
import { freePort } from "../server/test/processes";
import { type Child, createDatabase, postgresReachable, startServerProcess, waitForOk } from "./processes";

const turns = wholeNumber("SCALE_TURNS", 1000);
const userCount = wholeNumber("SCALE_USERS", 100);
const serverUrl = process.env.SCALE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** Share of turns that ask for a clip (a clip also draws the scene first); the rest ask for a picture. */
const VIDEO_SHARE = 0.3;
/** A charge with no saved turn is refunded by the workers' sweep after this long (UNSETTLED_CHARGE_SECONDS). */
const UNSETTLED_CHARGE_SECONDS = 30;
/** Every tenth user has only the sign-up credits and runs out mid-run (402s, never a negative balance). */
const POOR_USER_EVERY = 10;
const GRANT_TENTHS = 400;
/** pg-boss declares a worker dead after 60 s without a heartbeat, and looks every 15 s; plus the retry. */
const RECOVERY_LIMIT_MS = 150_000;
/** After the last turn, every turn's media and every charge must be settled within this long. */
const SETTLE_LIMIT_MS = 5 * 60_000;
const PASSWORD = "scale-test-password";
const BUCKET = "storyverse-scale";
const SESSION_SECRET = randomBytes(32).toString("hex");

function wholeNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1`);
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failures: string[] = [];
const check = (ok: boolean, message: string) => {
  if (!ok) failures.push(message);
};
const log = (message: string) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}] ${message}`);

type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> };
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

// --- the processes ------------------------------------------------------------------------------------

type Api = { name: string; port: number; child: Child; up: boolean };

/** Every process started, killed ones included: their error lines are the diagnosis of a failed run. */
const everyChild: Child[] = [];

async function startApi(name: string, env: Record<string, string>, port?: number): Promise<Api> {
  port ??= await freePort();
  const child = startServerProcess(name, { ...env, WORKER: "off", PORT: String(port) });
  everyChild.push(child);
  await waitForOk(`http://127.0.0.1:${port}/api/ready`, child, 120_000);
  return { name, port, child, up: true };
}

function startWorker(name: string, env: Record<string, string>): Child {
  const child = startServerProcess(name, { ...env, WORKER: "only" });
  everyChild.push(child);
  child.exited.then((code) => {
    if (!killed.has(child) && !stopping)
      failures.push(`${name} exited on its own (${code}):\n${child.output()}`);
  });
  return child;
}

const killed = new Set<Child>();
let stopping = false;

// --- HTTP ---------------------------------------------------------------------------------------------

type User = { index: number; email: string; address: string; token: string; id: string; home: number };

async function call(
  api: Api,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; address?: string } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${api.port}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.address ? { "x-forwarded-for": options.address } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, json };
}

// --- the run ------------------------------------------------------------------------------------------

type TurnRecord = {
  user: User;
  mode: "image" | "video";
  api: string;
  ms: number;
  status: number | "cut off" | "503 refunded";
  /** The answer's detail, kept for an unexpected status. */
  detail?: string;
};

async function main(): Promise<number> {
  if (!(await postgresReachable(serverUrl))) {
    console.error(`test:scale needs PostgreSQL: nothing answers at ${serverUrl} (set SCALE_DATABASE_URL).`);
    return 1;
  }
  const started = performance.now();
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanUp = async () => {
    stopping = true;
    for (const cleanup of cleanups.reverse().splice(0)) {
      await cleanup().catch((error) => console.error("cleanup:", error));
    }
  };
  // Interrupted: the processes, the store and the database still go.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  }
  try {
    const database = await createDatabase(serverUrl, `storyverse_scale_${process.pid}`);
    cleanups.push(() => database.drop());
    const s3Dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-scale-s3-"));
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-scale-data-"));
    cleanups.push(() => rm(s3Dir, { recursive: true, force: true }));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET }],
    });
    const s3Port = (await s3.run()).port;
    cleanups.push(() => s3.close());

    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      APP_URL: "http://scale.test",
      LOG_LEVEL: "warn",
      SESSION_SECRET,
      MEDIA_STORAGE: "s3",
      S3_BUCKET: BUCKET,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      REQUIRE_EMAIL_VERIFICATION: "false",
      // The users stand behind one proxy (this script), each with its own address.
      TRUST_PROXY: "true",
      SIGNUPS_PER_ADDRESS_PER_HOUR: "10000",
      OFFLINE_TEXT_WORDS_PER_SECOND: "0",
      OFFLINE_MEDIA_SCALE: "0.125",
      UNSETTLED_CHARGE_SECONDS: String(UNSETTLED_CHARGE_SECONDS),
    };

    // The first process migrates the fresh database before the others start.
    log(`starting 2 HTTP processes and 2 workers on ${new URL(database.url).pathname.slice(1)}`);
    const first = await startApi("http-a", env);
    const apis: Api[] = [first, await startApi("http-b", env)];
    const workers = [startWorker("worker-1", env), startWorker("worker-2", env)];
    cleanups.push(async () => {
      stopping = true;
      await Promise.all([...apis.map((api) => api.child.kill9()), ...workers.map((w) => w.kill9())]);
    });

    // --- users ---
    const users: User[] = [];
    for (let batch = 0; batch < userCount; batch += 10) {
      const made = await Promise.all(
        Array.from({ length: Math.min(10, userCount - batch) }, async (_, offset) => {
          const index = batch + offset;
          const home = index % 2;
          const email = `scale-${index}-${randomBytes(3).toString("hex")}@example.com`;
          const address = `10.77.${index >> 8}.${index & 255}`;
          const res = await call(apis[home]!, "POST", "/api/register", {
            body: { email, username: `scale${index}x${randomBytes(2).toString("hex")}`, password: PASSWORD },
            address,
          });
          if (res.status !== 200 || !res.json.access_token)
            throw new Error(`register: ${JSON.stringify(res)}`);
          return {
            index,
            email,
            address,
            home,
            token: String(res.json.access_token),
            id: String(res.json.user_id),
          };
        }),
      );
      users.push(...made);
    }
    const db = await openDatabase({ url: database.url });
    cleanups.push(() => db.close());
    for (const user of users) {
      if (user.index % POOR_USER_EVERY === 0) continue;
      await grant(
        db.db,
        user.id,
        GRANT_TENTHS,
        "grant",
        `scale-${user.id}`,
        new Date(),
        "Scale test credits",
      );
    }
    log(`${users.length} users signed up (every ${POOR_USER_EVERY}th with only the sign-up credits)`);

    // --- the turns, with the kills in the middle ---
    const records: TurnRecord[] = [];
    let sent = 0;
    const events: {
      workerKilledAt?: number;
      activeAtKill?: string[];
      httpKilledAt?: number;
      httpBackMs?: number;
    } = {};
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    cleanups.push(() => pool.end());

    let recovery: Promise<number | undefined> = Promise.resolve(undefined);
    const chaos = (async () => {
      // Mid-run, while both workers are busy: one of the media jobs running then is the killed worker's.
      while (sent < turns * 0.3) await sleep(100);
      const busySince = Date.now();
      let active: { rows: { id: string }[] } = { rows: [] };
      while (active.rows.length < 2) {
        if (Date.now() - busySince > 120_000) {
          failures.push("the two workers were never both running a media job: nothing to kill mid-job");
          break;
        }
        await sleep(100);
        active = await pool.query<{ id: string }>(
          "select id from pgboss.job where name = 'chat-generate-media' and state = 'active'",
        );
      }
      events.activeAtKill = active.rows.map((row) => row.id);
      events.workerKilledAt = Date.now();
      killed.add(workers[0]!);
      await workers[0]!.kill9();
      log(`worker-1 killed (SIGKILL) with ${active.rows.length} media jobs running; starting worker-3`);
      workers.push(startWorker("worker-3", env));
      recovery = watchRecovery(pool, events.activeAtKill, events.workerKilledAt).catch(() => undefined);

      while (sent < turns * 0.6) await sleep(100);
      const victim = apis[0]!;
      victim.up = false;
      events.httpKilledAt = Date.now();
      killed.add(victim.child);
      await victim.child.kill9();
      log(`${victim.name} killed (SIGKILL) with turns in flight; restarting it on the same port`);
      const restarted = await startApi(`${victim.name}-2`, env, victim.port);
      events.httpBackMs = Date.now() - events.httpKilledAt;
      apis[0] = restarted;
      log(`${restarted.name} ready after ${(events.httpBackMs / 1000).toFixed(1)} s`);
    })().catch((error: unknown) => {
      // Reported as a failure (and the processes still stopped), not an unhandled rejection mid-run.
      failures.push(`the kills mid-run failed: ${error instanceof Error ? error.stack : String(error)}`);
    });

    const perUser = (index: number) => Math.floor(turns / userCount) + (index < turns % userCount ? 1 : 0);
    await Promise.all(
      users.map(async (user) => {
        for (let t = 0; t < perUser(user.index); t += 1) {
          const mode = ((user.index * 7 + t * 3) % 10) / 10 < VIDEO_SHARE ? "video" : "image";
          // Like a load balancer: the user's home process, or the other one while it is down.
          const api = apis[user.home]!.up ? apis[user.home]! : apis[1 - user.home]!;
          const begun = performance.now();
          sent += 1;
          let status: TurnRecord["status"];
          let detail: string | undefined;
          try {
            const res = await call(api, "POST", "/api/chat", {
              token: user.token,
              address: user.address,
              body: { prompt: `Turn ${t}: the lantern flickers in the ${mode} hall`, chat_mode: mode },
            });
            // A turn slower than UNSETTLED_CHARGE_SECONDS loses the race to the sweep, and one the database
            // could not finish under load is refused: refunded (now, or by the sweep), not saved.
            status =
              res.status === 503 && /Your credits (were|will be) returned/.test(String(res.json.detail))
                ? "503 refunded"
                : res.status;
            detail = typeof res.json.detail === "string" ? res.json.detail : undefined;
          } catch {
            status = "cut off";
          }
          records.push({ user, mode, api: api.name, ms: performance.now() - begun, status, detail });
        }
      }),
    );
    await chaos;
    const sentAt = Date.now();
    log(`${records.length} turns sent in ${((performance.now() - started) / 1000).toFixed(0)} s so far`);

    // --- wait for every turn to settle: no pending media, no unsettled charge ---
    const pendingMedia = async () =>
      Number(
        (await pool.query("select count(*) from chat_messages where media_status = 'pending'")).rows[0].count,
      );
    const settleDeadline = Date.now() + SETTLE_LIMIT_MS;
    for (;;) {
      const pending = await pendingMedia();
      const unsettled = Number((await pool.query("select count(*) from unsettled_charges")).rows[0].count);
      if (pending === 0 && unsettled === 0) break;
      if (Date.now() > settleDeadline) {
        failures.push(
          `${SETTLE_LIMIT_MS / 1000} s after the last turn: ${pending} turns still pending, ${unsettled} charges unsettled`,
        );
        break;
      }
      await sleep(1000);
    }
    log(`settled ${((Date.now() - sentAt) / 1000).toFixed(0)} s after the last turn was sent`);
    const recoveryMs = await recovery;
    check(
      recoveryMs !== undefined && recoveryMs <= RECOVERY_LIMIT_MS,
      `the killed worker's media jobs were not finished within ${RECOVERY_LIMIT_MS / 1000} s of the kill`,
    );

    // --- money ---
    const ledger = await pool.query<{ user_id: string; amount_tenths: number; balance_after_tenths: number }>(
      "select user_id, amount_tenths, balance_after_tenths from credit_transactions",
    );
    const accounts = await pool.query<{ user_id: string; balance_tenths: number }>(
      "select user_id, balance_tenths from credit_accounts",
    );
    const sums = new Map<string, number>();
    for (const row of ledger.rows) {
      sums.set(row.user_id, (sums.get(row.user_id) ?? 0) + row.amount_tenths);
      check(
        row.balance_after_tenths >= 0,
        `user ${row.user_id}: a ledger row left the balance at ${row.balance_after_tenths}`,
      );
    }
    for (const account of accounts.rows) {
      check(
        sums.get(account.user_id) === account.balance_tenths,
        `user ${account.user_id}: ledger sums to ${sums.get(account.user_id)} tenths, balance is ${account.balance_tenths}`,
      );
    }
    const orphans = await orphanCharges(pool);
    check(
      orphans.length === 0,
      `${orphans.length} charges have neither a saved turn nor a refund: ${orphans.join(", ")}`,
    );
    const messages = await pool.query<{
      id: string;
      user_id: string;
      mode: string;
      media_status: string;
      image_key: string | null;
      video_key: string | null;
      ms: number;
    }>(
      `select m.id, m.user_id, m.mode, m.media_status, m.image_key, m.video_key,
              extract(epoch from (m.updated_at - m.created_at)) * 1000 as ms
         from chat_messages m where m.role = 'assistant'`,
    );
    const refunds = new Set(
      (
        await pool.query<{ reference: string }>(
          "select reference from credit_transactions where transaction_type = 'refund'",
        )
      ).rows.map((row) => row.reference),
    );
    // Turns charged whose answer was never saved (the request died with its process, or the narrator failed).
    const refundedUnsaved = Number(
      (
        await pool.query(
          `select count(*) from credit_transactions t where t.transaction_type = 'refund'
              and not exists (select 1 from chat_messages m where 'refund:' || m.id = t.reference)`,
        )
      ).rows[0].count,
    );
    let completed = 0;
    let refunded = 0;
    for (const message of messages.rows) {
      if (message.media_status === "completed") completed += 1;
      else if (message.media_status === "failed" && refunds.has(refundReference(message.id))) refunded += 1;
      else failures.push(`turn ${message.id} ended ${message.media_status} without a refund`);
    }

    // --- media: in the store, and downloadable through the links of either process ---
    const storage = createMediaStorage(
      {
        kind: "s3",
        bucket: BUCKET,
        region: "us-east-1",
        endpoint: env.S3_ENDPOINT,
        accessKeyId: "S3RVER",
        secretAccessKey: "S3RVER",
        forcePathStyle: true,
        urlTtlSeconds: 3600,
      },
      SESSION_SECRET,
      systemClock,
    );
    const byId = new Map(users.map((user) => [user.id, user]));
    const done = messages.rows.filter((message) => message.media_status === "completed");
    for (let i = 0; i < done.length; i += 20) {
      await Promise.all(
        done.slice(i, i + 20).map(async (message) => {
          const keys = [message.image_key, message.mode === "video" ? message.video_key : null];
          check(
            Boolean(message.image_key) && (message.mode !== "video" || Boolean(message.video_key)),
            `turn ${message.id}: completed without its ${message.mode}`,
          );
          const sizes = new Map<string, number>();
          for (const key of keys) {
            if (!key) continue;
            const size = await storage.size(key).catch(() => -1);
            check(size > 0, `turn ${message.id}: ${key} is not in the store`);
            sizes.set(key, size);
          }
          const user = byId.get(message.user_id)!;
          for (const api of apis) {
            const status = await call(api, "GET", `/api/chat/media-status/${message.id}`, {
              token: user.token,
              address: user.address,
            });
            const links = [status.json.image_url, message.mode === "video" ? status.json.video_url : null];
            for (const link of links) {
              if (link === null) continue;
              const file = typeof link === "string" ? await fetch(link).catch(() => undefined) : undefined;
              const bytes = file?.ok ? (await file.arrayBuffer()).byteLength : 0;
              check(
                bytes > 0 && [...sizes.values()].includes(bytes),
                `turn ${message.id}: ${api.name}'s link ${String(link)} did not download the stored file`,
              );
            }
          }
        }),
      );
    }

    // --- sessions and sign-in limits across the processes ---
    const logoutMs = await logoutReachesOtherProcess(apis, users[1]!);
    check(
      logoutMs !== undefined && logoutMs < 1000,
      `a logout on ${apis[0]!.name} was still accepted on ${apis[1]!.name} after 1 s`,
    );
    const limitHeld = await signInLimitAcrossProcesses(apis, users[2]!);
    check(limitHeld, "the sign-in limit per account did not hold across both processes");

    // --- the table ---
    const accepted = records.filter((r) => r.status === 200);
    const turnMs = accepted.map((r) => r.ms).sort((a, b) => a - b);
    const mediaMs = done.map((m) => Number(m.ms)).sort((a, b) => a - b);
    const count = (status: TurnRecord["status"]) => records.filter((r) => r.status === status).length;
    const other = records.filter((r) => ![200, 402, "cut off", "503 refunded"].includes(r.status));
    check(other.length === 0, `unexpected answers to turns: ${other.map((r) => r.status).join(", ")}`);
    const refusedWhy = new Map<string, number>();
    for (const r of records.filter((record) => record.status === "503 refunded"))
      refusedWhy.set(r.detail ?? "", (refusedWhy.get(r.detail ?? "") ?? 0) + 1);
    for (const [why, n] of refusedWhy) console.log(`${n} turns answered 503: ${why}`);
    for (const r of other) {
      console.error(
        `unexpected ${r.status} from ${r.api} to user ${r.user.index}'s ${r.mode} turn after ${ms(r.ms)}: ${r.detail ?? "(no detail)"}`,
      );
    }
    console.log("");
    console.log(
      "| turns sent | answered 200 | refused 402 (no credits) | 503, too slow or busy, refunded | cut off by the kill | media completed | media failed, refunded | charged, not saved, refunded |",
    );
    console.log("|---|---|---|---|---|---|---|---|");
    console.log(
      `| ${records.length} | ${accepted.length} | ${count(402)} | ${count("503 refunded")} | ${count("cut off")} | ${completed} | ${refunded} | ${refundedUnsaved} |`,
    );
    console.log("");
    console.log(
      "| turn request p50 / p95 | media ready p50 / p95 | worker kill: its jobs done after | HTTP kill: back after | logout seen by the other process |",
    );
    console.log("|---|---|---|---|---|");
    console.log(
      `| ${ms(quantile(turnMs, 0.5))} / ${ms(quantile(turnMs, 0.95))} | ${ms(quantile(mediaMs, 0.5))} / ${ms(quantile(mediaMs, 0.95))} | ${recoveryMs === undefined ? "never" : ms(recoveryMs)} | ${events.httpBackMs === undefined ? "-" : ms(events.httpBackMs)} | ${logoutMs === undefined ? "never" : ms(logoutMs)} |`,
    );
    // What every process (killed ones included) logged as errors, whole, for a failed run's diagnosis.
    printErrors(everyChild, failures.length > 0);
    console.log("");
    log(
      `${users.length} users, ${turns} turns, whole run ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await cleanUp();
  }
  if (failures.length > 0) {
    console.error(
      `\nFAILED (${failures.length}):\n${failures
        .slice(0, 50)
        .map((f) => `- ${f}`)
        .join("\n")}`,
    );
    return 1;
  }
  console.log("All scale checks passed.");
  return 0;
}

/** Each process's error lines: a count per message, then (when the run failed) every line in full. */
function printErrors(children: Child[], whole: boolean): void {
  for (const child of children) {
    const lines = child.errors();
    if (lines.length === 0) continue;
    const byMessage = new Map<string, number>();
    for (const line of lines) {
      let key = line.slice(0, 200);
      try {
        const entry = JSON.parse(line) as {
          msg?: string;
          err?: { type?: string; message?: string; code?: string };
        };
        key = [entry.msg, entry.err?.type, entry.err?.code, entry.err?.message].filter(Boolean).join(" | ");
      } catch {
        // not JSON: the line's start is its key
      }
      byMessage.set(key, (byMessage.get(key) ?? 0) + 1);
    }
    console.error(`\n${child.name} logged ${lines.length} errors:`);
    for (const [key, n] of byMessage) console.error(`  ${n} x ${key}`);
    if (whole) console.error(lines.join("\n"));
  }
}

/** Milliseconds from the kill until none of the jobs running then is pending; undefined past the limit. */
async function watchRecovery(pool: pg.Pool, ids: string[], killedAt: number): Promise<number | undefined> {
  while (Date.now() - killedAt <= RECOVERY_LIMIT_MS) {
    const open = await pool.query(
      "select count(*) from chat_messages where id = any($1::uuid[]) and media_status = 'pending'",
      [ids],
    );
    if (Number(open.rows[0].count) === 0) return Date.now() - killedAt;
    await sleep(500);
  }
  return undefined;
}

/** Charges (usage rows) with neither a saved answer (paid for by it) nor a refund. */
async function orphanCharges(pool: pg.Pool): Promise<string[]> {
  // Each turn charges once; its answer message or its refund is its outcome. Per user: charges beyond
  // (answers + refunds of turns that saved no answer) have no outcome.
  const result = await pool.query<{ user_id: string; missing: string }>(
    `select c.user_id, c.charges - coalesce(a.answers, 0) - coalesce(r.refunds, 0) as missing
       from (select user_id, count(*) as charges from credit_transactions
              where transaction_type like 'usage_%' group by user_id) c
       left join (select user_id, count(*) as answers from chat_messages
              where role = 'assistant' group by user_id) a using (user_id)
       left join (select t.user_id, count(*) as refunds from credit_transactions t
              where t.transaction_type = 'refund'
                and not exists (select 1 from chat_messages m where 'refund:' || m.id = t.reference)
              group by t.user_id) r using (user_id)`,
  );
  return result.rows
    .filter((row) => Number(row.missing) !== 0)
    .map((row) => `${row.user_id} (${row.missing})`);
}

async function logoutReachesOtherProcess(apis: Api[], user: User): Promise<number | undefined> {
  const [one, other] = apis as [Api, Api];
  const login = await call(one, "POST", "/api/login", {
    body: { email: user.email, password: PASSWORD },
    address: user.address,
  });
  const token = String(login.json.access_token);
  // The other process has the session in its cache before the logout.
  for (let i = 0; i < 2; i += 1) {
    if ((await call(other, "GET", "/api/user/verify", { token, address: user.address })).status !== 200)
      return undefined;
  }
  if ((await call(one, "POST", "/api/logout", { token, address: user.address })).status !== 200)
    return undefined;
  const begun = performance.now();
  while (performance.now() - begun < 2000) {
    if ((await call(other, "GET", "/api/user/verify", { token, address: user.address })).status === 401) {
      return performance.now() - begun;
    }
    await sleep(20);
  }
  return undefined;
}

/** Ten wrong passwords, alternating between the processes (each saw five): both then refuse the right one. */
async function signInLimitAcrossProcesses(apis: Api[], user: User): Promise<boolean> {
  for (let i = 0; i < 10; i += 1) {
    const res = await call(apis[i % 2]!, "POST", "/api/login", {
      body: { email: user.email, password: "a-wrong-guess" },
      address: user.address,
    });
    if (res.status !== 401) return false;
  }
  for (const api of apis) {
    const res = await call(api, "POST", "/api/login", {
      body: { email: user.email, password: PASSWORD },
      address: user.address,
    });
    if (res.status !== 429) return false;
  }
  return true;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const ms = (value: number) =>
  Number.isNaN(value) ? "-" : value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("test:scale failed:", error);
    // What the processes logged (the killed ones too) is the diagnosis of a run that stopped early.
    printErrors(everyChild, true);
    process.exit(1);
  },
);
