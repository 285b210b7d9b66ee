// The last hour of AI vendor calls in this process, for the admin console's Health (decision 0150): per vendor
// and kind, each call's duration and whether it failed, so the console can show p50 and p95 latency and the
// error rate without a Prometheus server. Bounded: calls older than the window are dropped as new ones come,
// and at most MAX_SAMPLES are kept per vendor and kind (the oldest go first).
export const VENDOR_WINDOW_MS = 60 * 60 * 1000;
const MAX_SAMPLES = 5_000;

type Sample = { at: number; ms: number; error: boolean };

export type VendorHealth = {
  vendor: string;
  kind: string;
  calls: number;
  errors: number;
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
};

/** The value at quantile q (0..1) of sorted values, by the nearest rank. */
export function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

export function createVendorWindow(now: () => number = Date.now) {
  const samples = new Map<string, Sample[]>();
  const startedAt = now();

  const prune = (list: Sample[], since: number) => {
    let drop = 0;
    while (drop < list.length && list[drop]!.at < since) drop += 1;
    if (drop > 0) list.splice(0, drop);
    if (list.length > MAX_SAMPLES) list.splice(0, list.length - MAX_SAMPLES);
  };

  return {
    record(vendor: string, kind: string, ms: number, error: boolean): void {
      const key = `${vendor}\n${kind}`;
      let list = samples.get(key);
      if (!list) {
        list = [];
        samples.set(key, list);
      }
      const at = now();
      list.push({ at, ms, error });
      prune(list, at - VENDOR_WINDOW_MS);
    },
    /** Every vendor and kind called within the window, busiest first; and since when the window counts. */
    summary(): { since: Date; vendors: VendorHealth[] } {
      const at = now();
      const since = Math.max(startedAt, at - VENDOR_WINDOW_MS);
      const vendors: VendorHealth[] = [];
      for (const [key, list] of samples) {
        prune(list, at - VENDOR_WINDOW_MS);
        if (list.length === 0) continue;
        const [vendor = "", kind = ""] = key.split("\n");
        const errors = list.filter((sample) => sample.error).length;
        const durations = list.map((sample) => sample.ms).sort((a, b) => a - b);
        vendors.push({
          vendor,
          kind,
          calls: list.length,
          errors,
          errorRate: errors / list.length,
          p50Ms: quantile(durations, 0.5),
          p95Ms: quantile(durations, 0.95),
        });
      }
      vendors.sort(
        (a, b) => b.calls - a.calls || a.vendor.localeCompare(b.vendor) || a.kind.localeCompare(b.kind),
      );
      return { since: new Date(since), vendors };
    },
  };
}
