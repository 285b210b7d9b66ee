// Polling one message's media (spec §4 "Sending a message", §9): the first look after 2 s, then every
// 10 s, at most 60 looks (about ten minutes). A look that fails is retried on the same schedule until
// the limit. A small timer chain rather than a query's refetchInterval, because the schedule (a short
// first delay, a hard stop) and the per-message lifetime are the point, and a chain is easy to test.
import type { MediaStatus } from "@storyverse/contract/chat";

export const FIRST_POLL_DELAY_MS = 2_000;
export const POLL_INTERVAL_MS = 10_000;
export const MAX_POLL_ATTEMPTS = 60;

export const MEDIA_FAILED_MESSAGE = "Media generation failed. Please try again.";
export const MEDIA_TIMED_OUT_MESSAGE = "Media generation timed out. Please try again.";

export type PollOutcome =
  | { kind: "completed"; status: MediaStatus }
  | { kind: "failed"; status: MediaStatus }
  | { kind: "timeout" };

export interface PollOptions {
  check: (signal: AbortSignal) => Promise<MediaStatus>;
  onOutcome: (outcome: PollOutcome) => void;
  /** Each look, for progress (e.g. a scene image that arrives before its video). */
  onStatus?: (status: MediaStatus) => void;
  firstDelayMs?: number;
  intervalMs?: number;
  maxAttempts?: number;
}

/** Starts polling; the returned function stops it (and aborts a look in flight). */
export function pollMediaStatus({
  check,
  onOutcome,
  onStatus,
  firstDelayMs = FIRST_POLL_DELAY_MS,
  intervalMs = POLL_INTERVAL_MS,
  maxAttempts = MAX_POLL_ATTEMPTS,
}: PollOptions): () => void {
  const controller = new AbortController();
  let attempts = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = (delay: number) => {
    timer = setTimeout(() => void look(), delay);
  };

  const look = async () => {
    attempts += 1;
    try {
      const status = await check(controller.signal);
      if (controller.signal.aborted) return;
      onStatus?.(status);
      if (status.media_generation_completed) return onOutcome({ kind: "completed", status });
      if (status.media_generation_failed) return onOutcome({ kind: "failed", status });
    } catch {
      if (controller.signal.aborted) return;
      // A failed look says nothing about the media: try again on the schedule.
    }
    if (attempts >= maxAttempts) return onOutcome({ kind: "timeout" });
    schedule(intervalMs);
  };

  schedule(firstDelayMs);
  return () => {
    clearTimeout(timer);
    controller.abort();
  };
}
