// The per-user cap on heavy paid requests (uploads decoded, a vendor held for a whole batch): a rule of this
// process's memory, tested directly.
import { describe, expect, it } from "vitest";
import { MAX_HEAVY_REQUESTS_PER_USER, takeHeavySlot, withHeavySlot } from "./paid-work";

const tooMany = { code: "rate_limited" };

describe("heavy request slots", () => {
  it("lets a user hold at most the cap at once, counts users apart, and frees a slot once however often it is released", () => {
    const releases = Array.from({ length: MAX_HEAVY_REQUESTS_PER_USER }, () => takeHeavySlot("ada"));
    expect(() => takeHeavySlot("ada")).toThrow(expect.objectContaining(tooMany));
    // Another user is not held up by Ada's requests.
    const other = takeHeavySlot("grace");
    releases[0]!();
    releases[0]!();
    const again = takeHeavySlot("ada");
    expect(() => takeHeavySlot("ada")).toThrow(expect.objectContaining(tooMany));
    for (const release of [...releases.slice(1), again, other]) release();
  });

  it("gives the slot back when the work throws, and takes none for a request whose upload gate holds one", async () => {
    await expect(
      withHeavySlot("lin", async () => {
        throw new Error("vendor down");
      }),
    ).rejects.toThrow("vendor down");
    const held = Array.from({ length: MAX_HEAVY_REQUESTS_PER_USER }, () => takeHeavySlot("lin"));
    await expect(withHeavySlot("lin", async () => "done", { slotHeld: true })).resolves.toBe("done");
    await expect(withHeavySlot("lin", async () => "done")).rejects.toMatchObject(tooMany);
    for (const release of held) release();
  });
});
