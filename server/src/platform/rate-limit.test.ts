// Windows of the rate limiter under a test clock: moved a whole window, a new one starts; left alone, the
// window holds however much real time passes (the system clock moves on while the test clock stands).
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFakeClock } from "./clock";
import { addressBucket, createRateLimiter, RateLimited } from "./rate-limit";

const rule = { name: "drift-test", limit: 3, windowMs: 60_000 };

afterEach(() => {
  vi.useRealTimers();
});

describe("rate-limit windows under a test clock", () => {
  it("keeps refusing while real time passes and the test clock stands still", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const clock = createFakeClock(new Date());
    const limiter = createRateLimiter(clock, { kind: "pglite" });
    for (let i = 0; i < 3; i += 1) await limiter.hit(rule, "192.0.2.1");
    await expect(limiter.hit(rule, "192.0.2.1")).rejects.toBeInstanceOf(RateLimited);
    // Half a window of real time, and a little more: the window the test is in must not change.
    vi.setSystemTime(Date.now() + 31_000);
    await expect(limiter.hit(rule, "192.0.2.1")).rejects.toBeInstanceOf(RateLimited);
  });

  it("starts a new window when the test clock moves a whole window", async () => {
    const clock = createFakeClock(new Date());
    const limiter = createRateLimiter(clock, { kind: "pglite" });
    for (let i = 0; i < 3; i += 1) await limiter.hit(rule, "192.0.2.2");
    await expect(limiter.hit(rule, "192.0.2.2")).rejects.toBeInstanceOf(RateLimited);
    clock.advance(60_000);
    await expect(limiter.hit(rule, "192.0.2.2")).resolves.toBeUndefined();
  });
});

describe("places taken at once", () => {
  it("gives each of 200 reservations made at once a different count, and a released place to the next", async () => {
    const limiter = createRateLimiter(createFakeClock(new Date()), { kind: "pglite" });
    const places = await Promise.all(Array.from({ length: 200 }, () => limiter.reserve(rule, "user-1")));
    expect(places.map((place) => place.before).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    );
    expect(places.every((place) => place.retryAfterSeconds > 0)).toBe(true);
    await limiter.release(rule, "user-1");
    expect((await limiter.reserve(rule, "user-1")).before).toBe(199);
    expect((await limiter.peek(rule, "user-1")).count).toBe(200);
  });
});

describe("address buckets", () => {
  it.each([
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["::ffff:c000:207", "192.0.2.7"],
    ["192.0.2.7", "192.0.2.7"],
    ["user@example.com", "user@example.com"],
  ])("counts %s as %s", (address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });

  it("counts every address of one IPv6 /64 as one, also inside a key of several parts", async () => {
    const limiter = createRateLimiter(createFakeClock(new Date()), { kind: "pglite" });
    for (let i = 0; i < 3; i += 1) await limiter.hit(rule, `2001:db8:5:6::${i.toString(16)}`);
    await expect(limiter.hit(rule, "2001:db8:5:6:ffff::9")).rejects.toBeInstanceOf(RateLimited);
    await expect(limiter.hit(rule, "2001:db8:5:7::1")).resolves.toBeUndefined();
    for (let i = 0; i < 3; i += 1) await limiter.hit(rule, `someone@example.com|2001:db8:8:9::${i + 1}`);
    await expect(limiter.hit(rule, "someone@example.com|2001:db8:8:9::abcd")).rejects.toBeInstanceOf(
      RateLimited,
    );
    // IPv4 clients (also as a dual-stack socket reports them) stay one address each.
    for (let i = 0; i < 4; i += 1) await limiter.hit(rule, `::ffff:198.51.100.${i + 1}`);
  });

  it("remembers a key for a whole window after its last note", async () => {
    const clock = createFakeClock(new Date());
    const limiter = createRateLimiter(clock, { kind: "pglite" });
    const known = { name: "known-test", limit: 1, windowMs: 14 * 24 * 60 * 60_000 };
    expect((await limiter.peek(known, "k")).count).toBe(0);
    await limiter.remember(known, "k");
    await limiter.remember(known, "k");
    expect((await limiter.peek(known, "k")).count).toBe(1);
  });

  it("gives a rule's own words to its refusal (the HTTP edge answers it as a 429)", async () => {
    const limiter = createRateLimiter(createFakeClock(new Date()), { kind: "pglite" });
    const worded = {
      name: "worded-test",
      limit: 0,
      windowMs: 60_000,
      detail: (wait: string) => `Wait ${wait}.`,
    };
    const refusal = limiter.hit(worded, "x");
    await expect(refusal).rejects.toBeInstanceOf(RateLimited);
    await expect(refusal).rejects.toMatchObject({ retryAfterSeconds: 60, detail: "Wait 1 minute." });
  });
});
