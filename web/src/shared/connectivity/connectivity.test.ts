import { afterEach, describe, expect, it, vi } from "vitest";
import { createConnectivity } from "./connectivity";

afterEach(() => {
  vi.useRealTimers();
});

/** A probe whose answer the test sets. */
function scriptedProbe(answers: { up: boolean }) {
  return vi.fn(async () => answers.up);
}

describe("connectivity", () => {
  it("stays online when a lost request is followed by a probe the server answers", async () => {
    const probe = scriptedProbe({ up: true });
    const connectivity = createConnectivity({ probe });
    connectivity.reportUnreachable();
    await vi.waitFor(() => expect(probe).toHaveBeenCalledTimes(1));
    expect(connectivity.getState().online).toBe(true);
  });

  it("goes offline when the probe fails too, probes on, and comes back once with a reconnect", async () => {
    vi.useFakeTimers();
    const answers = { up: false };
    const probe = scriptedProbe(answers);
    const connectivity = createConnectivity({ probe, intervalMs: 3_000, now: () => 1_000 });
    const reconnected = vi.fn();
    connectivity.onReconnect(reconnected);

    connectivity.reportUnreachable();
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.getState()).toEqual({ online: false, lostAt: 1_000 });
    // More lost requests while offline do not start more probes: the schedule is on it.
    connectivity.reportUnreachable();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(connectivity.getState().online).toBe(false);

    answers.up = true;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(connectivity.getState()).toEqual({ online: true, lostAt: null });
    expect(reconnected).toHaveBeenCalledTimes(1);
    // Online again: no more probes.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(probe).toHaveBeenCalledTimes(3);
    connectivity.dispose();
  });

  it("takes the browser's offline at its word and any answer from the server as back", async () => {
    vi.useFakeTimers();
    const connectivity = createConnectivity({ probe: scriptedProbe({ up: false }) });
    const reconnected = vi.fn();
    connectivity.onReconnect(reconnected);
    connectivity.setBrowserOnline(false);
    expect(connectivity.getState().online).toBe(false);
    connectivity.reportReachable();
    expect(connectivity.getState().online).toBe(true);
    expect(reconnected).toHaveBeenCalledTimes(1);
    connectivity.dispose();
  });
});
