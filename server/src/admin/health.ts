// The console's Health tab (decision 0150): this process's AI vendor calls over the last hour (p50 and p95
// latency and error rate per vendor and kind), the job queue's depth and the jobs that failed for good (an
// administrator can queue one again, audited), the media storage every account keeps, and the event streams
// open on this process. Vendor figures and streams are this process's own (as the metrics are, decision 0128);
// the queue and storage figures are the install's, read from the database.
import type { AdminHealth } from "@storyverse/contract/admin";
import type { AppContext } from "../context";
import { installStorageUsage } from "../media/quota";
import { NotFound } from "../platform/errors";
import { metrics } from "../platform/metrics";
import { type Actor, type AdminContext, auditAction } from "./service";

/** How many failed jobs the tab lists, newest first. */
export const FAILED_JOBS_SHOWN = 25;

type HealthContext = AdminContext & Pick<AppContext, "jobs">;

export async function health(ctx: HealthContext): Promise<AdminHealth> {
  const [waiting, failed, storage] = await Promise.all([
    ctx.jobs.depth(),
    ctx.jobs.failed(FAILED_JOBS_SHOWN),
    installStorageUsage(ctx),
  ]);
  const vendors = metrics.vendorHealth();
  return {
    since: vendors.since.toISOString(),
    vendors: vendors.vendors.map((row) => ({
      vendor: row.vendor,
      kind: row.kind,
      calls: row.calls,
      errors: row.errors,
      error_rate: Math.round(row.errorRate * 1000) / 1000,
      p50_ms: row.p50Ms === null ? null : Math.round(row.p50Ms),
      p95_ms: row.p95Ms === null ? null : Math.round(row.p95Ms),
    })),
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
    event_streams_open: metrics.eventStreamsOpen(),
  };
}

export async function retryJob(ctx: HealthContext, actor: Actor, kind: string, jobId: string) {
  if (!(await ctx.jobs.retry(kind, jobId))) throw new NotFound("No failed job of this kind with this id");
  await auditAction(ctx, actor, "retry_job", undefined, { kind, job_id: jobId });
  return { retried: true as const };
}
