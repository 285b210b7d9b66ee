// This process's AI vendor calls, counted per minute, vendor and kind for the admin console's Health (decisions
// 0150 and 0159): calls, errors, the shortest and longest call and a fixed log-scale latency histogram. The
// figures are written to the database by the admin module's reporter (`admin/health-report.ts`), where every
// process's rows are summed: counts add, so the histograms of many processes merge exactly, and the quantiles
// of the merged histogram are as precise as one process's (one bucket: within 9.05% of the true value).
// Bounded: one entry per minute, vendor and kind not yet written, and none older than the window.

/** The Health tab's window. */
export const VENDOR_WINDOW_MS = 60 * 60 * 1000;
export const MINUTE_MS = 60_000;

/** Buckets per octave: each bucket's upper bound is 2^(1/4) (about 1.19) times its lower one. */
const PER_OCTAVE = 4;
/**
 * How many buckets a histogram has: bucket 0 holds calls under 1 ms, bucket i (1 to 79) calls from
 * 2^((i-1)/4) ms to under 2^(i/4) ms, and bucket 80 everything from 2^(79/4) ms (about 14.7 minutes) on.
 */
export const HISTOGRAM_BUCKETS = 81;

/** The bucket a call of `ms` milliseconds falls in. */
export function bucketOf(ms: number): number {
  if (!(ms >= 1)) return 0;
  return Math.min(HISTOGRAM_BUCKETS - 1, Math.floor(Math.log2(ms) * PER_OCTAVE) + 1);
}

/** The bucket's value: the geometric middle of its bounds (0.5 ms for bucket 0). */
function middleOf(bucket: number): number {
  if (bucket === 0) return 0.5;
  return 2 ** ((bucket - 0.5) / PER_OCTAVE);
}

export function emptyHistogram(): number[] {
  return new Array<number>(HISTOGRAM_BUCKETS).fill(0);
}

/**
 * The value at quantile q (0..1) of the calls a histogram counts, by the nearest rank: the middle of the bucket
 * that holds the call of that rank, kept within the shortest and the longest call seen (so one call, or calls
 * all in one bucket at its edge, read exactly). null when it counts nothing.
 */
export function histogramQuantile(
  histogram: readonly number[],
  q: number,
  range: { minMs: number; maxMs: number },
): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let bucket = 0; bucket < histogram.length; bucket++) {
    seen += histogram[bucket] ?? 0;
    if (seen >= rank) return Math.min(range.maxMs, Math.max(range.minMs, middleOf(bucket)));
  }
  return range.maxMs;
}

export type VendorMinute = {
  /** The minute's start, in milliseconds since the epoch. */
  minute: number;
  vendor: string;
  kind: string;
  calls: number;
  errors: number;
  minMs: number;
  maxMs: number;
  histogram: number[];
};

type Entry = VendorMinute & { version: number; written: number };

/** A snapshot of a minute not yet written, with the version it was taken at. */
export type UnwrittenMinute = VendorMinute & { version: number };

export function minuteOf(at: number): number {
  return Math.floor(at / MINUTE_MS) * MINUTE_MS;
}

export type VendorMinutes = ReturnType<typeof createVendorMinutes>;

export function createVendorMinutes(now: () => number = Date.now) {
  const entries = new Map<string, Entry>();

  /** Entries of minutes past the window go, written or not: the database would prune them at once. */
  const forgetOld = (at: number) => {
    const oldest = minuteOf(at - VENDOR_WINDOW_MS);
    for (const [key, entry] of entries) if (entry.minute < oldest) entries.delete(key);
  };

  return {
    record(vendor: string, kind: string, ms: number, error: boolean): void {
      const minute = minuteOf(now());
      const key = `${minute}\n${vendor}\n${kind}`;
      let entry = entries.get(key);
      if (!entry) {
        if (entries.size > 0) forgetOld(minute);
        entry = {
          minute,
          vendor,
          kind,
          calls: 0,
          errors: 0,
          minMs: ms,
          maxMs: ms,
          histogram: emptyHistogram(),
          version: 0,
          written: 0,
        };
        entries.set(key, entry);
      }
      entry.calls += 1;
      if (error) entry.errors += 1;
      entry.minMs = Math.min(entry.minMs, ms);
      entry.maxMs = Math.max(entry.maxMs, ms);
      entry.histogram[bucketOf(ms)]! += 1;
      entry.version += 1;
    },
    /**
     * The minutes changed since they were last written, as copies holding the minute's whole figures so far
     * (a write replaces the row, so writing one twice, or again after a failed write, counts nothing twice).
     */
    unwritten(): UnwrittenMinute[] {
      forgetOld(now());
      const rows: UnwrittenMinute[] = [];
      for (const entry of entries.values()) {
        if (entry.version === entry.written) continue;
        const { written: _written, ...row } = entry;
        rows.push({ ...row, histogram: [...entry.histogram] });
      }
      return rows;
    },
    /** The rows were written: a past minute written in full is forgotten (no call can land in it any more). */
    written(rows: readonly UnwrittenMinute[]): void {
      const current = minuteOf(now());
      for (const row of rows) {
        const entry = entries.get(`${row.minute}\n${row.vendor}\n${row.kind}`);
        if (entry) entry.written = Math.max(entry.written, row.version);
      }
      for (const [key, entry] of entries)
        if (entry.minute < current && entry.written === entry.version) entries.delete(key);
    },
    /** How many minutes, vendors and kinds are held (for tests of the bound). */
    size(): number {
      return entries.size;
    },
  };
}
