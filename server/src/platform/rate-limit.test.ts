// Windows of the rate limiter under a test clock: moved a whole window, a new one starts; left alone, the
// window holds however much real time passes (the system clock moves on while the test clock stands).
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFakeClock } from "./clock";
import { createRateLimiter, TooManyRequests } from "./rate-limit";

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
    await expect(limiter.hit(rule, "192.0.2.1")).rejects.toBeInstanceOf(TooManyRequests);
    // Half a window of real time, and a little more: the window the test is in must not change.
    vi.setSystemTime(Date.now() + 31_000);
    await expect(limiter.hit(rule, "192.0.2.1")).rejects.toBeInstanceOf(TooManyRequests);
  });

  it("starts a new window when the test clock moves a whole window", async () => {
    const clock = createFakeClock(new Date());
    const limiter = createRateLimiter(clock, { kind: "pglite" });
    for (let i = 0; i < 3; i += 1) await limiter.hit(rule, "192.0.2.2");
    await expect(limiter.hit(rule, "192.0.2.2")).rejects.toBeInstanceOf(TooManyRequests);
    clock.advance(60_000);
    await expect(limiter.hit(rule, "192.0.2.2")).resolves.toBeUndefined();
  });
});
