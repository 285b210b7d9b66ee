// Rate limits in Redis (REDIS_URL): two app instances that share nothing but the Redis, each on its own
// database, count sign-ins from one address into the same window; without Redis the same two instances count
// apart. Runs when TEST_REDIS_URL is set (.ci/run sets it); vitest.config.ts says so when it is not.
import { randomInt } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { registerByMail } from "../../test/factories";
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

describe("the sign-in cap in Redis under parallel guesses (audit T4-3)", () => {
  it("hands each of 200 places taken at once through two clients a different count", async () => {
    const clients = [await connectRedis(redisUrl!), await connectRedis(redisUrl!)];
    try {
      const limiters = clients.map((client) =>
        createRateLimiter(createFakeClock(new Date()), { kind: "redis", client }),
      );
      const rule = { name: "reserve-redis-test", limit: 50, windowMs: 15 * 60_000 };
      const key = `user-${randomInt(1e9)}`;
      const taken = await Promise.all(
        Array.from({ length: 200 }, (_, i) => limiters[i % 2]!.reserve(rule, key)),
      );
      expect(taken.map((place) => place.before).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 200 }, (_, i) => i),
      );
      // Places given back are free again for the next taker.
      await Promise.all(Array.from({ length: 150 }, (_, i) => limiters[i % 2]!.release(rule, key)));
      expect((await limiters[0]!.reserve(rule, key)).before).toBe(50);
    } finally {
      for (const client of clients) client.disconnect();
    }
  });

  it("judges 50 of 300 guesses sent at once from 300 /64s, and gives no session to the right password among them", async () => {
    const t = await createTestApp({ env: { REDIS_URL: redisUrl!, TRUST_PROXY: "1" } });
    apps.push(t);
    const u = await registerByMail(t);
    const net = () => `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}::1`;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/login",
          payload: { email: u.email, password: i === 149 ? u.password : `guess-${i}` },
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": net() },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status !== 429)).toEqual(Array(50).fill(401));
    expect(answers[149]!.statusCode).toBe(429);
    expect(answers.some((answer) => answer.body.includes('access_token":"'))).toBe(false);
  });
});
