// Health: this server's AI vendor calls over the last hour (latency p50 and p95, error rate), the job queue
// and the jobs that failed for good (each can be queued again), the media storage every account keeps, and
// the live event streams open on this server. Refreshed every 30 seconds.
import { formatStorageBytes } from "@storyverse/contract/media";
import { RefreshCw, RotateCcw } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminHealth, useRetryJob } from "../api/admin-operations";
import { cardClasses } from "./admin-format";

const ms = (value: number | null) => (value === null ? "–" : `${value.toLocaleString()} ms`);
const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 1 : 0)}%`;
const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "Unknown";

function Block({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-6 border-t border-line pt-5">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

const th = "py-2 pr-3 font-medium";

export function HealthPanel() {
  const health = useAdminHealth();
  const retry = useRetryJob();
  const [message, setMessage] = useState<{ text: string; tone: "danger" | "success" } | null>(null);
  const data = health.data;

  return (
    <section aria-labelledby="admin-health-title" className={cardClasses}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="admin-health-title" className="text-lg font-semibold tracking-tight">
            Health
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            Vendor calls and event streams are this server's; the queue and storage are the whole install's.
          </p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          loading={health.isFetching}
          icon={<RefreshCw aria-hidden="true" className="size-4" />}
          onClick={() => void health.refetch()}
        >
          Refresh
        </Button>
      </div>
      {health.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">Loading health…</p>
      ) : health.isError || !data ? (
        <FormAlert message={errorMessage(health.error)} className="mt-4" />
      ) : (
        <>
          <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-3">
            <div>
              <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">Storage used</dt>
              <dd className="mt-1 text-sm font-semibold tabular-nums">
                {formatStorageBytes(data.storage.used_bytes)} by {data.storage.accounts}{" "}
                {data.storage.accounts === 1 ? "account" : "accounts"}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">
                Event streams open
              </dt>
              <dd className="mt-1 text-sm font-semibold tabular-nums">{data.event_streams_open}</dd>
            </div>
            <div>
              <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">Jobs waiting</dt>
              <dd className="mt-1 text-sm font-semibold tabular-nums">
                {data.queue.waiting.reduce((sum, row) => sum + row.count, 0)}
              </dd>
            </div>
          </dl>

          <Block title="AI vendors, last hour" id="admin-health-vendors">
            <p className="mt-1 text-sm text-ink-muted">Since {when(data.since)}.</p>
            {data.vendors.length === 0 ? (
              <p className="mt-2 text-sm text-ink-muted">No vendor calls in the last hour on this server.</p>
            ) : (
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls; the keyboard must reach it
              <section className="mt-2 overflow-x-auto" tabIndex={0} aria-label="Vendor calls">
                <table className="w-full min-w-[32rem] text-left text-sm tabular-nums">
                  <thead className="text-xs text-ink-muted uppercase">
                    <tr>
                      <th scope="col" className={th}>
                        Vendor
                      </th>
                      <th scope="col" className={th}>
                        Kind
                      </th>
                      <th scope="col" className={`${th} text-right`}>
                        Calls
                      </th>
                      <th scope="col" className={`${th} text-right`}>
                        Errors
                      </th>
                      <th scope="col" className={`${th} text-right`}>
                        p50
                      </th>
                      <th scope="col" className={`${th} text-right`}>
                        p95
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.vendors.map((row) => (
                      <tr key={`${row.vendor} ${row.kind}`} className="border-t border-line">
                        <th scope="row" className="py-2 pr-3 font-medium">
                          {row.vendor}
                        </th>
                        <td className="py-2 pr-3">{row.kind}</td>
                        <td className="py-2 pr-3 text-right">{row.calls}</td>
                        <td
                          className={`py-2 pr-3 text-right ${row.errors > 0 ? "font-semibold text-danger" : ""}`}
                        >
                          {percent(row.error_rate)}
                        </td>
                        <td className="py-2 pr-3 text-right">{ms(row.p50_ms)}</td>
                        <td className="py-2 pr-3 text-right">{ms(row.p95_ms)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            )}
          </Block>

          <Block title="Job queue" id="admin-health-queue">
            {data.queue.waiting.length === 0 ? (
              <p className="mt-2 text-sm text-ink-muted">Nothing is waiting.</p>
            ) : (
              <ul className="mt-2 flex flex-col gap-1 text-sm">
                {data.queue.waiting.map((row) => (
                  <li key={`${row.kind} ${row.state}`} className="flex flex-wrap gap-x-2">
                    <span className="font-semibold">{row.kind}</span>
                    <span className="text-ink-muted">
                      {row.state}: {row.count}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Block>

          <Block title="Failed jobs" id="admin-health-failed">
            <p className="mt-1 text-sm text-ink-muted">
              Jobs that used every try. Retry runs one again as it was sent.
            </p>
            <FormAlert message={message?.text ?? null} tone={message?.tone} className="mt-3" />
            {data.queue.failed.length === 0 ? (
              <p className="mt-2 text-sm text-ink-muted">No failed jobs.</p>
            ) : (
              <ul aria-label="Failed jobs" className="mt-2 flex flex-col gap-2">
                {data.queue.failed.map((job) => (
                  <li
                    key={job.id}
                    className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line p-3"
                  >
                    <div className="min-w-0">
                      <p className="text-sm font-semibold">{job.kind}</p>
                      <p className="text-xs text-ink-muted">Failed {when(job.failed_at)}</p>
                      {job.error ? <p className="mt-1 text-sm break-words">{job.error}</p> : null}
                    </div>
                    <Button
                      variant="secondary"
                      size="sm"
                      loading={retry.isPending && retry.variables?.id === job.id}
                      icon={<RotateCcw aria-hidden="true" className="size-4" />}
                      aria-label={`Retry ${job.kind} job`}
                      onClick={() =>
                        retry.mutate(
                          { kind: job.kind, id: job.id },
                          {
                            onSuccess: () =>
                              setMessage({ text: `The ${job.kind} job is queued again.`, tone: "success" }),
                            onError: (error) => setMessage({ text: errorMessage(error), tone: "danger" }),
                          },
                        )
                      }
                    >
                      Retry
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </Block>
        </>
      )}
    </section>
  );
}
