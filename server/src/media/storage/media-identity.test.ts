// Signed links change at every expiry-window boundary, so two reads of the same media a second apart can
// give different URLs. This pins that down with a frozen clock, and shows the identity helper the tests
// use to compare media links is blind to it.
import { describe, expect, it } from "vitest";
import { createFakeClock } from "../../platform/clock";
import { LocalMediaStorage } from "./local";
import { mediaIdentity, sameMedia } from "./media-identity";
import { createMediaSigner } from "./signing";

const TTL = 3600;
const STEP = TTL / 10;

function storageAt(clock: ReturnType<typeof createFakeClock>) {
  return new LocalMediaStorage({
    dir: "/nonexistent",
    urlTtlSeconds: TTL,
    signer: createMediaSigner("a-test-secret-that-is-long-enough-0123"),
    clock,
  });
}

describe("signed media links across an expiry window", () => {
  it("differ for the same media when read one second before and at a window boundary", async () => {
    // exp = floor((now + TTL) / STEP) * STEP changes when now + TTL crosses a multiple of STEP.
    const boundary = Math.ceil(Date.parse("2026-01-01T12:00:00Z") / 1000 / STEP) * STEP;
    const clock = createFakeClock(new Date((boundary - 1) * 1000));
    const storage = storageAt(clock);

    const before = await storage.signedUrl("u/1/scene.png");
    clock.advance(1000);
    const after = await storage.signedUrl("u/1/scene.png");

    expect(after).not.toBe(before);
    expect(new URL(after, "http://x").searchParams.get("exp")).not.toBe(
      new URL(before, "http://x").searchParams.get("exp"),
    );
    // ...yet they are the same media, which is what tests must compare.
    expect(sameMedia(before, after)).toBe(true);
    expect(mediaIdentity(before)).toBe("/api/media/u/1/scene.png");
  });

  it("are identical within one window", async () => {
    const clock = createFakeClock(new Date("2026-01-01T12:00:01Z"));
    const storage = storageAt(clock);
    const first = await storage.signedUrl("u/1/scene.png");
    clock.advance(60_000);
    expect(await storage.signedUrl("u/1/scene.png")).toBe(first);
  });
});

describe("mediaIdentity", () => {
  it("ignores origin, expiry and signature but not the media path", () => {
    expect(mediaIdentity("https://cdn.example/bucket/u/2/a.png?X-Amz-Signature=abc&X-Amz-Date=1")).toBe(
      "/bucket/u/2/a.png",
    );
    expect(sameMedia("/api/media/u/1/a.png?exp=1&sig=aa", "http://h/api/media/u/1/a.png?exp=2&sig=bb")).toBe(
      true,
    );
    expect(sameMedia("/api/media/u/1/a.png?exp=1&sig=aa", "/api/media/u/1/b.png?exp=1&sig=aa")).toBe(false);
    expect(sameMedia("/api/media/u/1/a.png", "/api/media/u/2/a.png")).toBe(false);
  });
});
