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
};

export function createRateLimiter(clock: Clock, maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { startedAt: number; count: number }>();
  return {
    hit(rule, key) {
      const now = clock.now().getTime();
      const id = `${rule.name}:${key}`;
      let window = windows.get(id);
      if (!window || now - window.startedAt >= rule.windowMs) {
        // Bounded memory: a flood of distinct keys evicts the oldest windows first.
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        window = { startedAt: now, count: 0 };
        windows.delete(id);
        windows.set(id, window);
      }
      window.count += 1;
      if (window.count > rule.limit) {
        throw new TooManyRequests(Math.max(1, Math.ceil((window.startedAt + rule.windowMs - now) / 1000)));
      }
    },
  };
}
