// The one periodic starter the worker's sweeps share (restores, orphaned media, unsettled charges): runs at
// once and on every tick, never two runs at once, a failure logged and the next tick tried again, and the stop
// waits for the run in progress.
import { afterEach, describe, expect, it, vi } from "vitest";
import { startPeriodic } from "./periodic";

afterEach(() => {
  vi.useRealTimers();
});

const flush = () => vi.advanceTimersByTimeAsync(0);

describe("startPeriodic", () => {
  it("runs now and on every tick, skips a tick while a run is still going, and logs a failure", async () => {
    vi.useFakeTimers();
    const errors: string[] = [];
    let runs = 0;
    let release: (() => void) | undefined;
    const stop = startPeriodic({
      run: async () => {
        runs += 1;
        if (runs === 2) throw new Error("database away");
        if (runs === 3) await new Promise<void>((resolve) => (release = resolve));
      },
      everyMs: 1000,
      log: { error: (_obj, msg) => errors.push(msg ?? "") },
      failure: "the sweep could not run",
    });
    await flush();
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    expect(errors).toEqual(["the sweep could not run"]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(3);
    // The third run is still going: two more ticks start nothing.
    await vi.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(3);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await flush();
    expect(stopped).toBe(false);
    release?.();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(3);
  });
});
