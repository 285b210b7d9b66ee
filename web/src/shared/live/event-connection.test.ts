// The event stream's connection on its own: events read as they arrive, a reconnect that resumes with the
// last id after a pause, silence treated as a stream that does not reach us, and a 404 as no stream at all
// (fallback to polling, asked again only rarely).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { StreamEvent } from "../../lib/api-client";
import { connectEvents, type LiveState, NOT_FOUND_RETRY_MS, SILENCE_MS } from "./event-connection";

/** A server stream the test writes to and ends. */
function serverStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const response = new Response(body, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } });
  return {
    response,
    write: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
    end: () => controller.close(),
  };
}

function harness(answers: (() => Response)[]) {
  const opened: { lastEventId: string | undefined; signal: AbortSignal }[] = [];
  const events: StreamEvent[] = [];
  const states: LiveState[] = [];
  const stop = connectEvents({
    open: async (lastEventId, signal) => {
      opened.push({ lastEventId, signal });
      const next = answers.shift();
      if (!next) return new Promise<Response>(() => {});
      return next();
    },
    onEvent: (event) => events.push(event),
    onState: (state) => states.push(state),
    random: () => 0,
  });
  return { opened, events, states, stop };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("connectEvents", () => {
  it("is live once bytes arrive, and reconnects after a drop resuming from the last event id", async () => {
    const first = serverStream();
    const second = serverStream();
    const h = harness([() => first.response, () => second.response]);
    await vi.advanceTimersByTimeAsync(0);
    first.write(": connected\n\n");
    first.write('id: 41\nevent: credits\ndata: {"remaining":12,"unlimited":false}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.states).toEqual(["connecting", "live"]);
    expect(h.events).toEqual([{ event: "credits", data: { remaining: 12, unlimited: false }, id: "41" }]);

    first.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.states.at(-1)).toBe("fallback");
    expect(h.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.opened.map((o) => o.lastEventId)).toEqual([undefined, "41"]);
    second.write(": connected\n\n");
    await vi.advanceTimersByTimeAsync(0);
    expect(h.states.at(-1)).toBe("live");
    h.stop();
    expect(h.opened[1]!.signal.aborted).toBe(true);
  });

  it("treats a stream that stays silent as not reaching us: polling, and a new attempt", async () => {
    const buffered = serverStream();
    const h = harness([() => buffered.response]);
    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1);
    expect(h.states).toEqual(["connecting"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.states).toEqual(["connecting", "fallback"]);
    expect(h.opened[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.opened).toHaveLength(2);
    h.stop();
  });

  it("falls back on a 404 and asks again only after minutes", async () => {
    const h = harness([() => new Response(null, { status: 404 })]);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.states).toEqual(["connecting", "fallback"]);
    await vi.advanceTimersByTimeAsync(NOT_FOUND_RETRY_MS - 1);
    expect(h.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.opened).toHaveLength(2);
    h.stop();
  });

  it("stops for good when the session is refused (401)", async () => {
    const h = harness([() => new Response(null, { status: 401 })]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.states).toEqual(["connecting", "fallback"]);
    expect(h.opened).toHaveLength(1);
    h.stop();
  });
});
