// The session cache's shared lookups: requests with one token that miss together read the session once,
// and a revocation in between means a fresh read, never the older one's answer.
import { describe, expect, it } from "vitest";
import { createFakeClock } from "../platform/clock";
import { createSessionCache } from "./session-cache";

describe("shared session lookups", () => {
  it("reads a token's session once for requests that miss together", async () => {
    const cache = createSessionCache(createFakeClock());
    let reads = 0;
    let open = () => {};
    const lookup = async () => {
      reads += 1;
      await new Promise<void>((resolve) => {
        open = resolve;
      });
      return { id: "u1", email: "a@example.com", username: "ada" };
    };
    const together = Array.from({ length: 50 }, () => cache.share("token", lookup));
    open();
    const users = await Promise.all(together);
    expect(reads).toBe(1);
    expect(users.every((user) => user.id === "u1")).toBe(true);

    // Settled: the next miss reads again.
    const again = cache.share("token", lookup);
    open();
    await again;
    expect(reads).toBe(2);
  });

  it("does not hand a lookup begun before a logout to a request after it", async () => {
    const cache = createSessionCache(createFakeClock());
    let live = true;
    const gates: (() => void)[] = [];
    const lookup = async () => {
      const seen = live;
      await new Promise<void>((resolve) => gates.push(resolve));
      return seen ? { id: "u1", email: "a@example.com", username: "ada" } : undefined;
    };
    const before = cache.share("token", lookup);
    live = false;
    cache.evict("token");
    const after = cache.share("token", lookup);
    for (const open of gates) open();
    expect(await before).toBeDefined();
    expect(await after).toBeUndefined();
    expect(gates).toHaveLength(2);
  });
});
