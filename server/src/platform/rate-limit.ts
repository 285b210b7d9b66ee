// Fixed-window rate limits kept in this process's memory, keyed by any string (an address, an account).
// Chosen over @fastify/rate-limit because one request may be counted under two keys (login: per address
// and per account) and because windows follow the app's clock. With several API processes, each counts
// its own share; put the limits at the proxy too if that matters.

import { HttpError } from "../http/errors";
import type { Clock } from "./clock";

export type RateLimitRule = { name: string; limit: number; windowMs: number };

export class TooManyRequests extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      `Too many attempts. Please wait ${formatWait(retryAfterSeconds)} and try again.`,
      {},
      {
        "retry-after": String(retryAfterSeconds),
      },
    );
  }
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export type RateLimiter = {
  /** Counts one hit for each key; throws TooManyRequests if any key is over its rule's limit. */
  hit: (rule: RateLimitRule, key: string) => void;
  /** Counts one hit; false (instead of throwing) when the key is over its limit. */
  allow: (rule: RateLimitRule, key: string) => boolean;
  /** The hits counted in the key's current window, without adding one. */
  peek: (rule: RateLimitRule, key: string) => { count: number; retryAfterSeconds: number };
};

export function createRateLimiter(clock: Clock, maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { startedAt: number; count: number }>();
  const retryAfter = (rule: RateLimitRule, startedAt: number, now: number) =>
    Math.max(1, Math.ceil((startedAt + rule.windowMs - now) / 1000));
  const current = (rule: RateLimitRule, key: string, now: number) => {
    const window = windows.get(`${rule.name}:${key}`);
    return window && now - window.startedAt < rule.windowMs ? window : undefined;
  };
  const count = (rule: RateLimitRule, key: string) => {
    const now = clock.now().getTime();
    const id = `${rule.name}:${key}`;
    let window = current(rule, key, now);
    if (!window) {
      // Bounded memory: a flood of distinct keys evicts the oldest windows first.
      if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
      window = { startedAt: now, count: 0 };
      windows.delete(id);
      windows.set(id, window);
    }
    window.count += 1;
    return { over: window.count > rule.limit, retryAfterSeconds: retryAfter(rule, window.startedAt, now) };
  };
  return {
    hit(rule, key) {
      const { over, retryAfterSeconds } = count(rule, key);
      if (over) throw new TooManyRequests(retryAfterSeconds);
    },
    allow: (rule, key) => !count(rule, key).over,
    peek(rule, key) {
      const now = clock.now().getTime();
      const window = current(rule, key, now);
      return window
        ? { count: window.count, retryAfterSeconds: retryAfter(rule, window.startedAt, now) }
        : { count: 0, retryAfterSeconds: 0 };
    },
  };
}
