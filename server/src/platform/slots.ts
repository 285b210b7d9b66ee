// A counting semaphore: at most `max` pieces of work run at once; the rest wait their turn, first come first
// served. A finishing piece hands its slot straight to the next waiter, so a newcomer cannot slip in between
// and a waiter is never passed over. Used where work takes libuv's thread pool (password hashing, picture
// re-encoding), so a flood of one kind always leaves threads for serving files.

export type Slots = {
  /** Runs `work` once a slot is free; the slot is freed when it settles, whether it resolves or throws. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** How many run now, and the most that ever ran at once. */
  activity(): { running: number; peakRunning: number; waiting: number };
};

export function createSlots(max: number): Slots {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`slots: ${max} is not a whole number above 0`);
  let running = 0;
  let peakRunning = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(work) {
      if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      else running += 1;
      peakRunning = Math.max(peakRunning, running);
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
    activity: () => ({ running, peakRunning, waiting: waiting.length }),
  };
}
