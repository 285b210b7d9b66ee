// Rate limits keyed by any string (an address, an account), counted by rate-limiter-flexible: in Redis when
// REDIS_URL is set, else in PostgreSQL when the app runs on it, so every API process counts into the same
// windows, and in this process's memory on embedded PGlite (one process). One request may be counted under several keys (login:
// per address and per account), which is why this wraps the library rather than using @fastify/rate-limit.
//
// A window starts at a key's first hit and lasts the rule's window (the library's clock, the system's).
// Tests move the app's clock instead: a test clock moved by a whole window starts new windows, so "wait
// until the window passes" stays testable; a frozen test clock does not drift into new windows as real time
// passes (it once did, and a test's 121st check within a minute was let through); production's clock is
// the system's.
//
// Client addresses are counted by bucket, not whole: an IPv6 client usually holds a whole /64 (a home or a
// cloud machine gets one), so counting /128s would give it 2^64 fresh allowances. Every part of a key (split
// at "|") that is an IP address is counted by `addressBucket`, so every per-address limit, wherever it is
// declared, counts an IPv6 /64 as one address.
import { createHash } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from "rate-limiter-flexible";
import type { Database } from "../db/client";
import type { Clock } from "./clock";
import type { RedisClient } from "./redis";

export type RateLimitRule = {
  name: string;
  limit: number;
  windowMs: number;
  /** The refusal's detail, given how long to wait ("3 minutes"); without it, "Too many attempts...". */
  detail?: (wait: string) => string;
};

/** Windows longer than this would overflow the in-memory store's timers (2^31 ms, about 24.8 days). */
const MAX_WINDOW_MS = 20 * 24 * 60 * 60_000;

/**
 * A key over its limit. Platform code knows nothing of HTTP: the HTTP edge (http/errors.ts) answers it as a
 * 429 with `Retry-After`.
 */
export class RateLimited extends Error {
  readonly detail: string;
  constructor(
    readonly retryAfterSeconds: number,
    detail: (wait: string) => string = (wait) => `Too many attempts. Please wait ${wait} and try again.`,
  ) {
    const text = detail(formatWait(retryAfterSeconds));
    super(text);
    this.detail = text;
  }
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * The bucket an address is counted in: an IPv6 address by its /64 ("2001:db8:1:2::/64"), an IPv4 address
 * (also written IPv4-mapped, "::ffff:192.0.2.1") whole. Anything else is returned as it is.
 */
export function addressBucket(address: string): string {
  const bare = address.replace(/%.*$/, "");
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = expandIPv6(bare);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (with "::" and a dotted IPv4 tail expanded). */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group, 16));
}

/** A key with each of its "|"-separated parts that is an address replaced by the address's bucket. */
const bucketAddresses = (key: string) => key.split("|").map(addressBucket).join("|");

export type RateLimiter = {
  /** Counts one hit for the key; throws RateLimited if it is over the rule's limit. */
  hit: (rule: RateLimitRule, key: string) => Promise<void>;
  /** Counts one hit; false (instead of throwing) when the key is over its limit. */
  allow: (rule: RateLimitRule, key: string) => Promise<boolean>;
  /** The hits counted in the key's current window, without adding one. */
  peek: (rule: RateLimitRule, key: string) => Promise<{ count: number; retryAfterSeconds: number }>;
  /** Notes the key as seen now: peek counts it (1) until a whole window has passed since the last note. */
  remember: (rule: RateLimitRule, key: string) => Promise<void>;
  /**
   * Takes one place in the key's window in one atomic step of the store (memory, PostgreSQL's upsert,
   * Redis's script) and says how many places were taken before it: callers racing for the last place each
   * see a different count, where a peek followed by a hit lets them all through.
   */
  reserve: (rule: RateLimitRule, key: string) => Promise<{ before: number; retryAfterSeconds: number }>;
  /** Gives back a place `reserve` took (a refused or a successful sign-in is not a failure). */
  release: (rule: RateLimitRule, key: string) => Promise<void>;
};

/** The table the PostgreSQL store keeps its windows in (created by the library on first use). */
export const RATE_LIMIT_TABLE = "rate_limits";

/** Where windows are counted: the app's database, or Redis when one is configured. */
type Store = Pick<Database, "kind" | "pool"> | { kind: "redis"; client: RedisClient };

/** The windows live with the store they belong to: every app built on one store counts together. */
const limitersByStore = new WeakMap<object, Map<number, Promise<RateLimiterAbstract>>>();

export function createRateLimiter(clock: Clock, store: Store): RateLimiter {
  const owner = store.kind === "redis" ? store.client : store;
  // One library limiter per window length; the rule's name is part of the key and its limit is checked
  // here, so rules that share a window share a limiter (and, on PostgreSQL, the table).
  let limiters = limitersByStore.get(owner);
  if (!limiters) {
    limiters = new Map();
    limitersByStore.set(owner, limiters);
  }
  const limiterFor = (windowMs: number) => {
    if (windowMs > MAX_WINDOW_MS) throw new Error(`a rate-limit window of ${windowMs} ms is too long`);
    let limiter = limiters?.get(windowMs);
    if (!limiter) {
      const duration = Math.max(1, Math.ceil(windowMs / 1000));
      const options = { points: Number.MAX_SAFE_INTEGER, duration, keyPrefix: "rl" };
      limiter = storeLimiter(store, options);
      // A failed table creation is retried by the next hit rather than remembered.
      limiter.catch(() => limiters?.delete(windowMs));
      limiters?.set(windowMs, limiter);
    }
    return limiter;
  };
  const storeKey = (rule: RateLimitRule, key: string) => {
    const epoch = Math.round((clock.movedMs?.() ?? 0) / rule.windowMs);
    const bucketed = bucketAddresses(key);
    // The PostgreSQL store's keys are at most 255 characters; long ones (an email and an address) are hashed.
    const id = bucketed.length > 160 ? createHash("sha256").update(bucketed).digest("base64url") : bucketed;
    return `${rule.name}:${epoch}:${id}`;
  };
  const retryAfter = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 1000));
  const count = async (rule: RateLimitRule, key: string) => {
    const limiter = await limiterFor(rule.windowMs);
    const res = await limiter.penalty(storeKey(rule, key), 1);
    return { over: res.consumedPoints > rule.limit, retryAfterSeconds: retryAfter(res.msBeforeNext) };
  };
  return {
    hit(rule, key) {
      const counted = count(rule, key).then(({ over, retryAfterSeconds }) => {
        if (over) throw new RateLimited(retryAfterSeconds, rule.detail);
      });
      // A caller that forgot `await` must not crash the process with an unhandled rejection; awaiting
      // callers still get the refusal.
      counted.catch(() => {});
      return counted;
    },
    allow: async (rule, key) => !(await count(rule, key)).over,
    async peek(rule, key) {
      const limiter = await limiterFor(rule.windowMs);
      const res = await limiter.get(storeKey(rule, key));
      return res
        ? { count: res.consumedPoints, retryAfterSeconds: retryAfter(res.msBeforeNext) }
        : { count: 0, retryAfterSeconds: 0 };
    },
    async remember(rule, key) {
      const limiter = await limiterFor(rule.windowMs);
      await limiter.set(storeKey(rule, key), 1, Math.max(1, Math.ceil(rule.windowMs / 1000)));
    },
    async reserve(rule, key) {
      const limiter = await limiterFor(rule.windowMs);
      const res = await limiter.penalty(storeKey(rule, key), 1);
      return { before: res.consumedPoints - 1, retryAfterSeconds: retryAfter(res.msBeforeNext) };
    },
    async release(rule, key) {
      const limiter = await limiterFor(rule.windowMs);
      // A window that ended in between starts again at -1: one extra place in the next, never one fewer.
      await limiter.reward(storeKey(rule, key), 1);
    },
  };
}

type LimiterOptions = { points: number; duration: number; keyPrefix: string };

function storeLimiter(store: Store, options: LimiterOptions): Promise<RateLimiterAbstract> {
  if (store.kind === "redis") {
    // While Redis is unreachable each process counts in its own memory: limits stay on (per process)
    // instead of every limited request failing.
    return Promise.resolve(
      new RateLimiterRedis({
        ...options,
        // Other applications may share the Redis: the keys say whose they are.
        keyPrefix: `storyverse:${options.keyPrefix}`,
        storeClient: store.client,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
    );
  }
  const { pool } = store;
  if (store.kind === "postgres" && pool) {
    const create = () =>
      new Promise<RateLimiterAbstract>((resolve, reject) => {
        const created: RateLimiterPostgres = new RateLimiterPostgres(
          { ...options, storeClient: pool, storeType: "pool", tableName: RATE_LIMIT_TABLE },
          (error?: Error) => (error ? reject(error) : resolve(created)),
        );
      });
    // The library creates its table on first use. Several processes (or limiters) doing that at once on a
    // new database race inside PostgreSQL's CREATE TABLE IF NOT EXISTS; the loser finds the table there on
    // a second try, so the request is not failed for it.
    return create().catch(async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return create();
    });
  }
  return Promise.resolve(new RateLimiterMemory(options));
}
