// The worker's sweep of charges left without an outcome: a process killed between taking a charge and
// delivering (or refunding) it leaves its unsettled row behind, and the sweep refunds it once it is older
// than any delivery may take (UNSETTLED_CHARGE_SECONDS). Runs in every worker process; two sweepers
// cannot refund one row twice (see sweepUnsettledCharges).
import type { AppContext } from "../context";
import { startPeriodic } from "../platform/periodic";
import { sweepUnsettledCharges } from "./service";

type SweepContext = Pick<AppContext, "db" | "clock" | "log"> & { config: { unsettledChargeMs: number } };

/** Sweeps now and then every so often (a quarter of the age, at most a minute); returns the stop. */
export function startUnsettledChargeSweep(ctx: SweepContext): () => Promise<void> {
  const ageMs = ctx.config.unsettledChargeMs;
  const everyMs = Math.min(60_000, Math.max(1_000, Math.floor(ageMs / 4)));
  return startPeriodic({
    run: async () => {
      const refunded = await sweepUnsettledCharges(ctx.db, ctx.clock.now(), ageMs);
      if (refunded > 0) ctx.log.warn({ refunded }, "refunded charges a stopped process left unsettled");
    },
    everyMs,
    log: ctx.log,
    failure: "unsettled charges could not be swept",
  });
}
