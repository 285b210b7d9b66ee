// The Health tab's last hour of vendor calls: nearest-rank quantiles, the error rate, and calls older than
// the hour dropped.
import { describe, expect, it } from "vitest";
import { createVendorWindow, quantile, VENDOR_WINDOW_MS } from "./vendor-window";

describe("the vendor window", () => {
  it("takes quantiles by nearest rank", () => {
    const values = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    expect(quantile(values, 0.5)).toBe(100);
    expect(quantile(values, 0.95)).toBe(190);
    expect(quantile([], 0.5)).toBeNull();
  });

  it("shows each vendor and kind's latency and error rate over the last hour only", () => {
    let now = 1_000_000;
    const window = createVendorWindow(() => now);
    for (let i = 1; i <= 10; i++) window.record("openai", "text", i * 100, i === 10);
    window.record("replicate", "image", 5000, true);
    now += VENDOR_WINDOW_MS - 1;
    window.record("openai", "text", 50, false);
    expect(window.summary().vendors).toEqual([
      { vendor: "openai", kind: "text", calls: 11, errors: 1, errorRate: 1 / 11, p50Ms: 500, p95Ms: 1000 },
      { vendor: "replicate", kind: "image", calls: 1, errors: 1, errorRate: 1, p50Ms: 5000, p95Ms: 5000 },
    ]);
    now += 2;
    expect(window.summary().vendors).toEqual([
      { vendor: "openai", kind: "text", calls: 1, errors: 0, errorRate: 0, p50Ms: 50, p95Ms: 50 },
    ]);
    expect(window.summary().since.getTime()).toBe(now - VENDOR_WINDOW_MS);
  });
});
