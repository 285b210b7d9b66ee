// Rate limits in Redis (REDIS_URL): two app instances that share nothing but the Redis, each on its own
// database, count sign-ins from one address into the same window; without Redis the same two instances count
// apart. Runs when TEST_REDIS_URL is set (.ci/run sets it); vitest.config.ts says so when it is not.
import { randomInt } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { accountLimits } from "../accounts/limits";
import type { TypedApp } from "../http/route-module";
import { createFakeClock } from "./clock";
import { createRateLimiter } from "./rate-limit";
import { connectRedis } from "./redis";

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error("TEST_REDIS_URL is required for the Redis rate-limit test");

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.cleanup();
});

async function twoInstances(env: Record<string, string>): Promise<[TypedApp, TypedApp]> {
  const first = await createTestApp({ env, workers: false });
  apps.push(first);
  const second = await createTestApp({ env, workers: false });
  apps.push(second);
  return [first.app, second.app];
}

/** An address no earlier run has used: the Redis outlives the test run, and its windows last 15 minutes. */
const unusedAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const signIn = (app: TypedApp, address: string) =>
  app.inject({
    method: "POST",
    url: "/api/login",
    payload: { email: `nobody-${randomInt(1e9)}@example.com`, password: "a-wrong-guess" },
    remoteAddress: address,
  });

describe("rate limits in Redis", () => {
  const limit = accountLimits.loginPerAddress.limit;

  it("holds the sign-in limit per address across two instances that share only the Redis", async () => {
    const [one, two] = await twoInstances({ REDIS_URL: redisUrl });
    const address = unusedAddress();
    // The limit's worth of attempts, alternating: each instance saw only half.
    for (let i = 0; i < limit; i += 1)
      expect((await signIn(i % 2 === 0 ? one : two, address)).statusCode).toBe(401);
    for (const app of [one, two]) {
      const refused = await signIn(app, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/^Too many attempts\. Please wait/);
    }
    // Another address is not affected.
    expect((await signIn(two, unusedAddress())).statusCode).toBe(401);
  });

  it("without Redis, the same two instances on their own databases count apart", async () => {
    const [one, two] = await twoInstances({});
    const address = unusedAddress();
    for (let i = 0; i < limit; i += 1)
      expect((await signIn(i % 2 === 0 ? one : two, address)).statusCode).toBe(401);
    expect((await signIn(one, address)).statusCode).toBe(401);
    expect((await signIn(two, address)).statusCode).toBe(401);
  });
});

describe("address buckets and remembered keys in Redis", () => {
  it("counts one IPv6 /64 as one address across instances, and remembers a key for its window", async () => {
    const [one, two] = await twoInstances({ REDIS_URL: redisUrl });
    const net = `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}`;
    for (let i = 0; i < accountLimits.loginPerAddress.limit; i += 1)
      expect((await signIn(i % 2 === 0 ? one : two, `${net}::${(i + 1).toString(16)}`)).statusCode).toBe(401);
    expect((await signIn(one, `${net}:ffff::1`)).statusCode).toBe(429);

    const client = await connectRedis(redisUrl!);
    try {
      const limiter = createRateLimiter(createFakeClock(new Date()), { kind: "redis", client });
      const known = { name: "known-redis-test", limit: 1, windowMs: 14 * 24 * 60 * 60_000 };
      const key = `user-${randomInt(1e9)}|${net}::9`;
      expect((await limiter.peek(known, key)).count).toBe(0);
      await limiter.remember(known, key);
      await limiter.remember(known, key);
      // Another address of the same /64 is the same bucket.
      expect((await limiter.peek(known, key.replace("::9", "::abcd"))).count).toBe(1);
    } finally {
      client.disconnect();
    }
  });
});
