// Work a worker process repeats on a timer (the sweeps): run now and every `everyMs`, never two runs at once
// (a tick that comes while a run is still going is skipped), a failure logged and the next tick tried again.
// The timer does not keep the process alive; the stop clears it and waits for a run in progress.

export type PeriodicWork = {
  /** One run (it logs what it did itself). */
  run: () => Promise<void>;
  everyMs: number;
  log: { error: (obj: object, msg?: string) => void };
  /** Said in the log line when a run fails, e.g. "restores could not be swept". */
  failure: string;
};

/** Starts the work now and every `everyMs`; returns the stop. */
export function startPeriodic(work: PeriodicWork): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= work
      .run()
      .catch((error: Error) => work.log.error({ err: error }, work.failure))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  void tick();
  const timer = setInterval(tick, work.everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
