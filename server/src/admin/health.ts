// The console's Health tab (decisions 0150 and 0159): the install's AI vendor calls over the last hour (p50 and
// p95 latency and error rate per vendor and kind), the job queue's depth and the jobs that failed for good (an
// administrator can queue one again, audited), the media storage every account keeps, and the event streams
// open. Vendor calls and streams are every live process's: each process writes its own to the database
// (health-report.ts) and this sums them, the answering process writing its pending figures first so a call it
// has just made shows at once. Latency quantiles come from the summed log-scale histograms (within 9.05% of
// the true value; exact for one call). The queue and storage figures are read from their own tables.
import type { AdminHealth } from "@storyverse/contract/admin";
import { type Actor, auditAction } from "../audit";
import type { AppContext } from "../context";
import { installStorageUsage } from "../media";
import { NotFound } from "../platform/errors";
import { HISTOGRAM_BUCKETS, histogramQuantile } from "../platform/vendor-minutes";
import { readLiveProcesses, readVendorBuckets, readVendorTotals } from "./health-repo";
import { type HealthReport, PROCESS_STALE_SECONDS, windowStart } from "./health-report";
import type { AdminContext } from "./service";

/** How many failed jobs the tab lists, newest first. */
export const FAILED_JOBS_SHOWN = 25;

type HealthContext = AdminContext & Pick<AppContext, "jobs" | "log">;

/** Every live process's vendor calls since the window's start, with merged latency quantiles. */
async function vendorHealth(ctx: HealthContext, since: Date) {
  const [totals, buckets] = await Promise.all([
    readVendorTotals(ctx.db, since),
    readVendorBuckets(ctx.db, since),
  ]);
  const histograms = new Map<string, number[]>();
  for (const row of buckets) {
    const key = `${row.vendor}\n${row.kind}`;
    let histogram = histograms.get(key);
    if (!histogram) {
      histogram = new Array<number>(HISTOGRAM_BUCKETS).fill(0);
      histograms.set(key, histogram);
    }
    if (row.bucket >= 0 && row.bucket < HISTOGRAM_BUCKETS) histogram[row.bucket]! += row.count;
  }
  const rounded = (ms: number | null) => (ms === null ? null : Math.round(ms));
  const rows = totals.map((row) => {
    const histogram = histograms.get(`${row.vendor}\n${row.kind}`) ?? [];
    return {
      vendor: row.vendor,
      kind: row.kind,
      calls: row.calls,
      errors: row.errors,
      error_rate: row.calls === 0 ? 0 : Math.round((row.errors / row.calls) * 1000) / 1000,
      p50_ms: rounded(histogramQuantile(histogram, 0.5, row)),
      p95_ms: rounded(histogramQuantile(histogram, 0.95, row)),
    };
  });
  rows.sort((a, b) => b.calls - a.calls || a.vendor.localeCompare(b.vendor) || a.kind.localeCompare(b.kind));
  const firstMinute = Math.min(...totals.map((row) => row.firstMinute.getTime()));
  return { rows, firstMinute };
}

export async function health(ctx: HealthContext, report: Pick<HealthReport, "flush">): Promise<AdminHealth> {
  // This process's own calls so far, written before the read; if the write fails the read still answers.
  await report
    .flush()
    .catch((error: Error) => ctx.log.warn({ err: error }, "Health figures could not be written"));
  const windowFrom = windowStart(Date.now());
  const [waiting, failed, storage, vendors, processes] = await Promise.all([
    ctx.jobs.depth(),
    ctx.jobs.failed(FAILED_JOBS_SHOWN),
    installStorageUsage(ctx),
    vendorHealth(ctx, new Date(windowFrom)),
    readLiveProcesses(ctx.db, PROCESS_STALE_SECONDS),
  ]);
  // Since when the figures count: the window's start, or the install's first figure or live process if later.
  const earliest = Math.min(vendors.firstMinute, ...processes.map((row) => row.startedAt.getTime()));
  const count = (role: string) => processes.find((row) => row.role === role)?.processes ?? 0;
  return {
    since: new Date(Number.isFinite(earliest) ? Math.max(windowFrom, earliest) : windowFrom).toISOString(),
    vendors: vendors.rows,
    queue: {
      waiting: waiting.sort((a, b) => a.kind.localeCompare(b.kind) || a.state.localeCompare(b.state)),
      failed: failed.map((job) => ({
        id: job.id,
        kind: job.kind,
        failed_at: job.failedAt?.toISOString() ?? null,
        error: job.error,
      })),
    },
    storage: { used_bytes: storage.usedBytes, accounts: storage.accounts },
    event_streams_open: processes.reduce((sum, row) => sum + row.eventStreamsOpen, 0),
    processes: {
      reporting: processes.reduce((sum, row) => sum + row.processes, 0),
      http: count("http") + count("both"),
      worker: count("worker") + count("both"),
    },
  };
}

export async function retryJob(ctx: HealthContext, actor: Actor, kind: string, jobId: string) {
  if (!(await ctx.jobs.retry(kind, jobId))) throw new NotFound("No failed job of this kind with this id");
  await auditAction(ctx, actor, "retry_job", undefined, { kind, job_id: jobId });
  return { retried: true as const };
}
