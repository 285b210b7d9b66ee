// The connection to GET /api/events: opens it, reads its events, and keeps it open. A drop reconnects with
// Last-Event-ID (the server replays what was missed) after a growing, jittered pause. While it is not
// connected the state is "fallback", which tells the app to poll as the spec says; a 404 (a server without
// the stream), a proxy that buffers (no byte for SILENCE_MS, though the server writes at once and every
// 15 s) and a refused session all land there silently. Pure timers and a function to open the stream, so
// tests can drive it.
import { EVENT_HEARTBEAT_MS } from "@storyverse/contract/events";
import { readEventStream, type StreamEvent } from "../../lib/api-client";

export type LiveState = "connecting" | "live" | "fallback";

/** No byte for this long means the stream is not reaching us (the server's heartbeat is every 15 s). */
export const SILENCE_MS = EVENT_HEARTBEAT_MS + 5_000;
/** Pauses before reconnecting, by attempt; the last one repeats. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** A connection that lasted this long was a good one: the next drop starts the pauses over. */
const STEADY_MS = 60_000;
/** A server that answered 404 has no event stream: ask again only this rarely. */
export const NOT_FOUND_RETRY_MS = 5 * 60_000;

export interface ConnectionOptions {
  open: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;
  onEvent: (event: StreamEvent) => void;
  onState: (state: LiveState) => void;
  random?: () => number;
}

/** Starts the connection; the returned function ends it for good. */
export function connectEvents({
  open,
  onEvent,
  onState,
  random = Math.random,
}: ConnectionOptions): () => void {
  let stopped = false;
  let lastEventId: string | undefined;
  let failures = 0;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let state: LiveState | null = null;

  const setState = (next: LiveState) => {
    if (next === state) return;
    state = next;
    onState(next);
  };

  const retryLater = (delay?: number) => {
    if (stopped) return;
    setState("fallback");
    const base = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)] ?? 30_000;
    failures += 1;
    // Up to a quarter more, so many tabs dropped at once do not all come back in the same instant.
    retryTimer = setTimeout(() => void attempt(), delay ?? base + Math.round(base * 0.25 * random()));
  };

  const attempt = async () => {
    if (stopped) return;
    if (state === null) setState("connecting");
    const current = new AbortController();
    controller = current;
    const armSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => current.abort(), SILENCE_MS);
    };
    armSilence();
    let liveSince: number | undefined;
    try {
      const response = await open(lastEventId, current.signal);
      if (response.status === 404) return retryLater(NOT_FOUND_RETRY_MS);
      // Signed out: the app handles the 401; nothing to reconnect to.
      if (response.status === 401) return setState("fallback");
      const isStream = /text\/event-stream/.test(response.headers.get("Content-Type") ?? "");
      if (!response.ok || !response.body || !isStream) return retryLater();
      const watched = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, out) {
            armSilence();
            // Bytes arrive: the stream reaches us (the server writes ": connected" at once).
            liveSince ??= Date.now();
            setState("live");
            out.enqueue(chunk);
          },
        }),
        // Silence (or the end) aborts the reading too, whatever the body does with the fetch's abort.
        { signal: current.signal },
      );
      try {
        for await (const event of readEventStream(watched)) {
          if (event.id) lastEventId = event.id;
          onEvent(event);
        }
      } catch {
        // Dropped, or silent for too long (aborted): reconnect below.
      }
      // Ended (by the server: logout elsewhere, the per-user cap, a restart; or dropped): come back.
      // Not reset on the first byte: a stream the server keeps closing (more tabs than the per-user cap)
      // must not be reopened every second.
      if (liveSince !== undefined && Date.now() - liveSince > STEADY_MS) failures = 0;
      retryLater();
    } catch {
      // The stream could not be opened (network, silence before the answer).
      retryLater();
    } finally {
      clearTimeout(silenceTimer);
      current.abort();
    }
  };

  void attempt();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(silenceTimer);
    controller?.abort();
  };
}
