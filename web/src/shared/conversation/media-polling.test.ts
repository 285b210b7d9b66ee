import type { MediaStatus } from "@storyverse/contract/chat";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api-errors";
import {
  FIRST_POLL_DELAY_MS,
  MAX_POLL_ATTEMPTS,
  POLL_INTERVAL_MS,
  type PollOutcome,
  pollMediaStatus,
} from "./media-polling";

function status(patch: Partial<MediaStatus> = {}): MediaStatus {
  return {
    message_id: "m1",
    status: "pending",
    media_generation_completed: false,
    media_generation_failed: false,
    media_generation_error: null,
    image_url: null,
    video_url: null,
    ...patch,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("media polling schedule", () => {
  it("looks first after 2 s, then every 10 s", async () => {
    const check = vi.fn(async () => status());
    const stop = pollMediaStatus({ check, onOutcome: vi.fn() });

    await vi.advanceTimersByTimeAsync(FIRST_POLL_DELAY_MS - 1);
    expect(check).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(check).toHaveBeenCalledTimes(3);
    stop();
  });

  it("stops at the first completed answer and hands it over", async () => {
    const done = status({ status: "completed", media_generation_completed: true, image_url: "/media/a.png" });
    const check = vi.fn().mockResolvedValueOnce(status()).mockResolvedValueOnce(done);
    const outcomes: PollOutcome[] = [];
    pollMediaStatus({ check, onOutcome: (o) => outcomes.push(o) });
    await vi.advanceTimersByTimeAsync(FIRST_POLL_DELAY_MS + POLL_INTERVAL_MS);
    expect(outcomes).toEqual([{ kind: "completed", status: done }]);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it("reports a failure", async () => {
    const failed = status({
      status: "failed",
      media_generation_failed: true,
      media_generation_error: "boom",
    });
    const outcomes: PollOutcome[] = [];
    pollMediaStatus({ check: async () => failed, onOutcome: (o) => outcomes.push(o) });
    await vi.advanceTimersByTimeAsync(FIRST_POLL_DELAY_MS);
    expect(outcomes).toEqual([{ kind: "failed", status: failed }]);
  });

  it("gives up after 60 looks (about ten minutes) with a time-out", async () => {
    const check = vi.fn(async () => status());
    const outcomes: PollOutcome[] = [];
    pollMediaStatus({ check, onOutcome: (o) => outcomes.push(o) });
    const total = FIRST_POLL_DELAY_MS + (MAX_POLL_ATTEMPTS - 1) * POLL_INTERVAL_MS;
    await vi.advanceTimersByTimeAsync(total - 1);
    expect(check).toHaveBeenCalledTimes(MAX_POLL_ATTEMPTS - 1);
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(MAX_POLL_ATTEMPTS);
    expect(outcomes).toEqual([{ kind: "timeout" }]);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(check).toHaveBeenCalledTimes(MAX_POLL_ATTEMPTS);
    expect(MAX_POLL_ATTEMPTS).toBe(60);
    expect(total).toBeLessThanOrEqual(10 * 60_000);
  });

  it("retries a failed look on the same schedule, up to the limit", async () => {
    const done = status({ status: "completed", media_generation_completed: true, image_url: "/media/a.png" });
    const check = vi
      .fn()
      .mockRejectedValueOnce(new Error("offline"))
      .mockRejectedValueOnce(new Error("offline"))
      .mockResolvedValueOnce(done);
    const outcomes: PollOutcome[] = [];
    pollMediaStatus({ check, onOutcome: (o) => outcomes.push(o) });
    await vi.advanceTimersByTimeAsync(FIRST_POLL_DELAY_MS + 2 * POLL_INTERVAL_MS);
    expect(check).toHaveBeenCalledTimes(3);
    expect(outcomes).toEqual([{ kind: "completed", status: done }]);
  });

  it("ends with 'could not check' when the looks still fail at the limit", async () => {
    const check = vi.fn(async () => {
      throw new ApiError(0, "Network connection error. Please check your internet and try again.");
    });
    const outcomes: PollOutcome[] = [];
    pollMediaStatus({ check, onOutcome: (o) => outcomes.push(o) });
    await vi.advanceTimersByTimeAsync(FIRST_POLL_DELAY_MS + MAX_POLL_ATTEMPTS * POLL_INTERVAL_MS);
    expect(check).toHaveBeenCalledTimes(MAX_POLL_ATTEMPTS);
    expect(outcomes).toEqual([{ kind: "check-failed" }]);
  });

  it("keeps asking through busy or slow answers, but stops at once when the server refuses for good", async () => {
    const check = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(429, "Too many requests"))
      .mockRejectedValueOnce(new ApiError(503, "Service Unavailable"))
      .mockRejectedValueOnce(new ApiError(404, "Message not found"));
    const outcomes: PollOutcome[] = [];
    pollMediaStatus({ check, onOutcome: (o) => outcomes.push(o) });
    await vi.advanceTimersByTimeAsync(FIRST_POLL_DELAY_MS + 2 * POLL_INTERVAL_MS);
    expect(outcomes).toEqual([{ kind: "check-failed" }]);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it("stops when told to, aborting a look in flight", async () => {
    let signal: AbortSignal | undefined;
    const check = vi.fn((s: AbortSignal) => {
      signal = s;
      return new Promise<MediaStatus>(() => {});
    });
    const onOutcome = vi.fn();
    const stop = pollMediaStatus({ check, onOutcome });
    await vi.advanceTimersByTimeAsync(FIRST_POLL_DELAY_MS);
    stop();
    expect(signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 10);
    expect(check).toHaveBeenCalledTimes(1);
    expect(onOutcome).not.toHaveBeenCalled();
  });
});
