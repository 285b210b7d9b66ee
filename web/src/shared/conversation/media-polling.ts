// Polling one message's media: the first look after 2 s, then every 10 s, at most 60 looks (about ten
// minutes). A look that fails is retried on the same schedule until the limit; when the looks fail for
// good (the last one failed, or the server refused the question outright), the status could not be
// checked, which is not the same as media that took too long. A small timer chain rather than a query's refetchInterval, because the schedule (a short
// first delay, a hard stop) and the per-message lifetime are the point, and a chain is easy to test.
import {
  MEDIA_FIRST_POLL_DELAY_MS,
  MEDIA_MAX_POLL_ATTEMPTS,
  MEDIA_POLL_INTERVAL_MS,
  type MediaStatus,
} from "@storyverse/contract/chat";
import { ApiError } from "../../lib/api-errors";

// The server's media deadline (MEDIA_DEADLINE_MS) is set from these, so both sides give up together.
export const FIRST_POLL_DELAY_MS = MEDIA_FIRST_POLL_DELAY_MS;
export const POLL_INTERVAL_MS = MEDIA_POLL_INTERVAL_MS;
export const MAX_POLL_ATTEMPTS = MEDIA_MAX_POLL_ATTEMPTS;

/**
 * While the event stream is live the media arrive by event; a slow poll stays behind it in case an event
 * is lost, giving up at the same ten minutes or so.
 */
export const LIVE_POLL_SCHEDULE = {
  firstDelayMs: 30_000,
  intervalMs: 30_000,
  maxAttempts: Math.ceil((MEDIA_MAX_POLL_ATTEMPTS * MEDIA_POLL_INTERVAL_MS) / 30_000),
} as const;

export type PollOutcome =
  | { kind: "completed"; status: MediaStatus }
  | { kind: "failed"; status: MediaStatus }
  | { kind: "timeout" }
  /** The status could not be read: the looks kept failing to the limit, or one was refused for good. */
  | { kind: "check-failed" };

/** A refusal that asking again will not change (the message is gone, the request is wrong). */
function isFinalFailure(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

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
    let lookFailed = false;
    try {
      const status = await check(controller.signal);
      if (controller.signal.aborted) return;
      onStatus?.(status);
      if (status.media_generation_completed) return onOutcome({ kind: "completed", status });
      if (status.media_generation_failed) return onOutcome({ kind: "failed", status });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (isFinalFailure(error)) return onOutcome({ kind: "check-failed" });
      // A failed look says nothing about the media: try again on the schedule.
      lookFailed = true;
    }
    if (attempts >= maxAttempts) return onOutcome({ kind: lookFailed ? "check-failed" : "timeout" });
    schedule(intervalMs);
  };

  schedule(firstDelayMs);
  return () => {
    clearTimeout(timer);
    controller.abort();
  };
}
