// The optional Redis connection (REDIS_URL) for rate limits. ioredis is loaded only when a URL is set, so an
// install without Redis never needs the package at run time.
import type { Redis } from "ioredis";

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
