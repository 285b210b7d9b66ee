// Time comes from here so tests can move it (token expiry, rate-limit windows, sliding sessions).
export type Clock = {
  now: () => Date;
  /**
   * Test clocks only: how far tests have moved this clock (advance, set) in all, in ms. Limits counted by a
   * library on the system's clock start new windows from it; a frozen clock must not drift against them.
   */
  movedMs?: () => number;
};

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export function createFakeClock(start = new Date("2026-01-01T12:00:00Z")): Clock & {
  advance: (ms: number) => void;
  set: (at: Date) => void;
} {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    movedMs: () => current - start.getTime(),
    advance: (ms) => {
      current += ms;
    },
    set: (at) => {
      current = at.getTime();
    },
  };
}

/** Real time plus an offset tests can push forward: order-by-time stays meaningful, expiry stays testable. */
export function createTickingClock(): Clock & { advance: (ms: number) => void; set: (at: Date) => void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    movedMs: () => offset,
    advance: (ms) => {
      offset += ms;
    },
    set: (at) => {
      offset = at.getTime() - Date.now();
    },
  };
}
