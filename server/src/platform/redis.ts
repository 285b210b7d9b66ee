// The optional Redis connection (REDIS_URL) for rate limits. ioredis is loaded only when a URL is set, so an
// install without Redis never needs the package at run time. Losing the connection and getting it back are
// logged once each, and /api/ready shows which it is (decision 0128): while Redis is away the limiter counts
// in memory, so the process still serves (degraded) instead of refusing every request.
import type { Redis } from "ioredis";
import type { Logger } from "../context";
import { metrics } from "./metrics";

export type RedisClient = Redis;

/** Connects, or throws (the process refuses to start rather than count limits nowhere). */
export async function connectRedis(url: string): Promise<RedisClient> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    lazyConnect: true,
    // While Redis is unreachable a command fails at once (the limiter then counts in memory) instead of
    // queueing and holding the request.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  // Reconnection is ioredis's job; without a listener each failed attempt would be an unhandled "error" event.
  client.on("error", () => {});
  await client.connect();
  return client;
}

export type RedisWatch = {
  /** "ok" while connected; "lost" from the first sign of a lost connection until it is ready again. */
  state: () => "ok" | "lost";
  /** Quits the connection, which is not logged as a loss. */
  close: () => Promise<void>;
};

/**
 * Follows a connected client: one warning when the connection is lost (with the client's last error: each
 * failed reconnection is an "error" event, and none of them is logged again) and one line when it is back.
 */
export function watchRedis(client: RedisClient, log: Logger): RedisWatch {
  let state: "ok" | "lost" = client.status === "ready" ? "ok" : "lost";
  let lastError: string | undefined;
  let closing = false;
  metrics.redis(state === "ok");
  const lost = () => {
    if (state === "lost" || closing) return;
    state = "lost";
    metrics.redis(false);
    log.warn(
      { redis: "lost", err: lastError },
      "Redis connection lost: rate limits count in this process's memory until it returns",
    );
  };
  client.on("error", (error: Error) => {
    lastError = error.message;
    if (client.status !== "ready") lost();
  });
  client.on("close", lost);
  client.on("ready", () => {
    metrics.redis(true);
    if (state === "ok") return;
    state = "ok";
    lastError = undefined;
    log.info({ redis: "ok" }, "Redis connection back: rate limits count in Redis again");
  });
  return {
    state: () => state,
    close: async () => {
      closing = true;
      await client.quit();
    },
  };
}
