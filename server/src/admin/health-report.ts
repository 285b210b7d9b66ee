// Each server process's report for the console's Health tab (decision 0159): every HEALTH_REPORT_EVERY_MS, and
// when it stops, a process writes the vendor calls it made by minute, vendor and kind (platform/vendor-minutes.ts,
// fed by the metrics' vendorCall) and a heartbeat with its role and the event streams it holds open. The tab
// then sums every live process's figures, so a worker's picture calls and each API process's streams count.
// The writer also prunes what is past: minute rows older than the hour and heartbeats not renewed for two
// minutes, each in bounded statements. A write that fails (the database away) is logged and tried again on
// the next tick with the figures kept in memory; it never throws out of the timer.
import { randomUUID } from "node:crypto";
import type { AppContext, Logger } from "../context";
import { metrics } from "../platform/metrics";
import {
  createVendorMinutes,
  MINUTE_MS,
  minuteOf,
  VENDOR_WINDOW_MS,
  type VendorMinutes,
} from "../platform/vendor-minutes";
import {
  deleteHeartbeat,
  pruneHeartbeats,
  pruneVendorMinutes,
  writeHeartbeat,
  writeVendorMinutes,
} from "./health-repo";

export const HEALTH_REPORT_EVERY_MS = 20_000;
/** A process not heard from for this long is gone: its streams no longer count. */
export const PROCESS_STALE_SECONDS = 120;
/** Rows a prune deletes per statement (a tick runs one statement per table). */
const PRUNE_BATCH = 1_000;

/** http: serves the API only; worker: runs jobs only; both: one process doing both (`npm start`). */
export type ProcessRole = "http" | "worker" | "both";

export type HealthReport = {
  processId: string;
  role: ProcessRole;
  /** Writes what is pending now (the Health tab's answer calls it first, so a call just made shows). */
  flush: () => Promise<void>;
  /** One run of the timer's work: write, then prune; a failure is logged, never thrown. */
  tick: () => Promise<void>;
  /** Stops the timer, writes the last figures and removes the heartbeat; never throws. */
  stop: () => Promise<void>;
};

/** The minute rows before this are past the window. */
export function windowStart(now: number): number {
  return minuteOf(now) - VENDOR_WINDOW_MS + MINUTE_MS;
}

let processFiguresTaken = false;

export function startHealthReport(
  ctx: Pick<AppContext, "db"> & { log: Pick<Logger, "warn" | "info"> },
  options: {
    role: ProcessRole;
    /**
     * Where the vendor calls come from, and the streams open: by default this process's own (the metrics).
     * Only one report in a process may write those (two would count them twice); another one started in the
     * same process (tests build several apps in one) reports no calls and no streams unless given its own.
     */
    figures?: { minutes: VendorMinutes; eventStreamsOpen: () => number };
    everyMs?: number;
    now?: () => number;
  },
): HealthReport {
  const processId = randomUUID();
  const startedAt = new Date();
  const now = options.now ?? Date.now;
  let releaseOwn = false;
  let figures = options.figures;
  if (!figures) {
    if (processFiguresTaken) {
      figures = { minutes: createVendorMinutes(now), eventStreamsOpen: () => 0 };
    } else {
      processFiguresTaken = true;
      releaseOwn = true;
      figures = { minutes: metrics.vendorMinutes(), eventStreamsOpen: () => metrics.eventStreamsOpen() };
    }
  }
  const { minutes, eventStreamsOpen } = figures;
  let failing = false;

  const write = async () => {
    const rows = minutes.unwritten();
    await writeVendorMinutes(ctx.db, processId, rows);
    minutes.written(rows);
    await writeHeartbeat(ctx.db, {
      id: processId,
      role: options.role,
      startedAt,
      eventStreamsOpen: eventStreamsOpen(),
    });
  };
  const prune = async () => {
    await pruneVendorMinutes(ctx.db, new Date(windowStart(now())), PRUNE_BATCH);
    await pruneHeartbeats(ctx.db, PROCESS_STALE_SECONDS, PRUNE_BATCH);
  };

  // One write at a time: the timer's and a Health answer's flush never run over each other.
  let queue: Promise<void> = Promise.resolve();
  const serially = (work: () => Promise<void>) => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };

  const tick = () =>
    serially(async () => {
      await write();
      await prune();
    }).then(
      () => {
        if (failing) ctx.log.info({ processId }, "Health figures written again");
        failing = false;
      },
      (error: Error) => {
        // Logged once per outage; the figures stay in memory for the next tick.
        if (!failing) ctx.log.warn({ err: error, processId }, "Health figures could not be written");
        failing = true;
      },
    );

  void tick();
  const timer = setInterval(tick, options.everyMs ?? HEALTH_REPORT_EVERY_MS);
  timer.unref();
  let stopping: Promise<void> | undefined;

  return {
    processId,
    role: options.role,
    flush: () => serially(write),
    tick,
    stop: () => {
      stopping ??= (async () => {
        clearInterval(timer);
        await serially(async () => {
          await write();
          await deleteHeartbeat(ctx.db, processId);
        }).catch((error: Error) =>
          ctx.log.warn({ err: error, processId }, "Health figures could not be written at stop"),
        );
        if (releaseOwn) processFiguresTaken = false;
      })();
      return stopping;
    },
  };
}
