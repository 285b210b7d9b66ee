// The Health tab's latency histograms (decision 0159): buckets, nearest-rank quantiles within one bucket of the
// exact value, histograms of two processes merged by adding counts (the same quantiles as one process that saw
// every call), and the per-minute figures a process keeps until they are written.
import { describe, expect, it } from "vitest";
import {
  bucketOf,
  createVendorMinutes,
  emptyHistogram,
  HISTOGRAM_BUCKETS,
  histogramQuantile,
  MINUTE_MS,
  VENDOR_WINDOW_MS,
} from "./vendor-minutes";

/** The exact nearest-rank quantile, as decision 0150's window took it. */
const exact = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
};

const histogramOf = (values: number[]) => {
  const histogram = emptyHistogram();
  for (const value of values) histogram[bucketOf(value)]! += 1;
  return histogram;
};

const rangeOf = (values: number[]) => ({ minMs: Math.min(...values), maxMs: Math.max(...values) });

/** A repeatable spread of latencies from 1 ms to about 12 minutes. */
const latencies = (count: number, seed: number) => {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return 2 ** ((state / 2 ** 31) * 19.4);
  });
};

describe("latency histograms", () => {
  it("puts each duration in its log-scale bucket", () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(0.99)).toBe(0);
    expect(bucketOf(1)).toBe(1);
    expect(bucketOf(1.18)).toBe(1);
    expect(bucketOf(1.19)).toBe(2);
    expect(bucketOf(1000)).toBe(40);
    expect(bucketOf(2 ** 19.74)).toBe(79);
    expect(bucketOf(2 ** 19.76)).toBe(80);
    expect(bucketOf(3_600_000)).toBe(HISTOGRAM_BUCKETS - 1);
    expect(bucketOf(Number.NaN)).toBe(0);
  });

  it("reads quantiles within 9.05% of the exact nearest rank (0.5 ms under 1 ms), and exactly for one call", () => {
    const values = latencies(5_000, 7);
    const histogram = histogramOf(values);
    for (const q of [0.01, 0.5, 0.9, 0.95, 0.99, 1]) {
      const read = histogramQuantile(histogram, q, rangeOf(values))!;
      const truth = exact(values, q);
      expect(Math.abs(read - truth) / truth).toBeLessThanOrEqual(2 ** (1 / 8) - 1 + 1e-9);
    }
    expect(histogramQuantile(histogramOf([1234]), 0.5, rangeOf([1234]))).toBe(1234);
    expect(histogramQuantile(histogramOf([1234]), 0.95, rangeOf([1234]))).toBe(1234);
    expect(histogramQuantile(emptyHistogram(), 0.5, { minMs: 0, maxMs: 0 })).toBeNull();
    const quick = [0.1, 0.3, 0.6, 0.9];
    expect(
      Math.abs(histogramQuantile(histogramOf(quick), 0.5, rangeOf(quick))! - exact(quick, 0.5)),
    ).toBeLessThanOrEqual(0.5);
    // The longest bucket has no upper bound: its calls read as the longest call seen.
    expect(histogramQuantile(histogramOf([2_000_000]), 0.5, rangeOf([2_000_000]))).toBe(2_000_000);
  });

  it("merges two processes' histograms by adding counts: the quantiles of every call together", () => {
    const worker = latencies(700, 11).map((ms) => ms * 3);
    const api = latencies(300, 23);
    const merged = histogramOf(worker).map((count, bucket) => count + histogramOf(api)[bucket]!);
    const all = [...worker, ...api];
    expect(merged).toEqual(histogramOf(all));
    const range = { minMs: Math.min(...all), maxMs: Math.max(...all) };
    for (const q of [0.5, 0.95]) {
      const read = histogramQuantile(merged, q, range)!;
      expect(Math.abs(read - exact(all, q)) / exact(all, q)).toBeLessThanOrEqual(2 ** (1 / 8) - 1 + 1e-9);
    }
    // Not the average of each process's quantile: the busier process weighs more.
    const p50Worker = histogramQuantile(histogramOf(worker), 0.5, rangeOf(worker))!;
    const p50Api = histogramQuantile(histogramOf(api), 0.5, rangeOf(api))!;
    expect(histogramQuantile(merged, 0.5, range)).not.toBe((p50Worker + p50Api) / 2);
  });
});

describe("a process's vendor minutes", () => {
  it("counts calls, errors and latency per minute, vendor and kind until they are written", () => {
    let now = 100 * MINUTE_MS + 5_000;
    const minutes = createVendorMinutes(() => now);
    minutes.record("openai", "text", 100, false);
    minutes.record("openai", "text", 300, true);
    minutes.record("replicate", "image", 5_000, false);
    const first = minutes.unwritten();
    expect(
      first.map(({ vendor, kind, minute, calls, errors, minMs, maxMs }) => ({
        vendor,
        kind,
        minute,
        calls,
        errors,
        minMs,
        maxMs,
      })),
    ).toEqual([
      {
        vendor: "openai",
        kind: "text",
        minute: 100 * MINUTE_MS,
        calls: 2,
        errors: 1,
        minMs: 100,
        maxMs: 300,
      },
      {
        vendor: "replicate",
        kind: "image",
        minute: 100 * MINUTE_MS,
        calls: 1,
        errors: 0,
        minMs: 5_000,
        maxMs: 5_000,
      },
    ]);
    expect(first[0]!.histogram.reduce((sum, count) => sum + count, 0)).toBe(2);

    // A call while the write is under way: the minute is written again, whole, next time.
    minutes.record("openai", "text", 200, false);
    minutes.written(first);
    const second = minutes.unwritten();
    expect(second.map((row) => [row.vendor, row.calls])).toEqual([["openai", 3]]);
    minutes.written(second);
    expect(minutes.unwritten()).toEqual([]);
    // The current minute is kept (more calls may come); a past one written in full is forgotten.
    expect(minutes.size()).toBe(2);
    now += MINUTE_MS;
    minutes.record("openai", "text", 50, false);
    minutes.written(minutes.unwritten());
    expect(minutes.size()).toBe(1);
  });

  it("keeps what a failed write did not take, and nothing past the hour", () => {
    let now = 500 * MINUTE_MS;
    const minutes = createVendorMinutes(() => now);
    for (let i = 0; i < 90; i++) {
      minutes.record("openai", "text", 10, false);
      now += MINUTE_MS;
    }
    // Never written (the database away): at most the hour's minutes are held.
    const held = minutes.unwritten();
    expect(held.length).toBeLessThanOrEqual(VENDOR_WINDOW_MS / MINUTE_MS + 1);
    expect(minutes.size()).toBe(held.length);
    expect(Math.min(...held.map((row) => row.minute))).toBeGreaterThanOrEqual(
      now - VENDOR_WINDOW_MS - MINUTE_MS,
    );
  });
});
