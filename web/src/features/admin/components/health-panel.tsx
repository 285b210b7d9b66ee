// Health: the install's AI vendor calls over the last hour (latency p50 and p95, error rate), the job queue
// and the jobs that failed for good (each can be queued again), the media storage every account keeps, the
// live event streams open, and how many server processes reported them (decision 0159: every process's
// figures, summed). Refreshed every 30 seconds.
import { RefreshCw, RotateCcw } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminHealth, useRetryJob } from "../api/admin-operations";
import { cardClasses, dateTimeText, storageText } from "./admin-format";

const ms = (value: number | null) =>
  value === null ? "–" : i18n.t("admin:health.milliseconds", { value: formatNumber(value) });
const percent = (rate: number) => {
  const digits = rate > 0 && rate < 0.01 ? 1 : 0;
  return formatNumber(rate, {
    style: "percent",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
};
const when = (iso: string | null) => (iso ? dateTimeText(iso) : i18n.t("admin:health.unknown"));

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

const th = "py-2 pe-3 font-medium";

export function HealthPanel() {
  const { t } = useTranslation("admin");
  const health = useAdminHealth();
  const retry = useRetryJob();
  const [message, setMessage] = useState<{ text: string; tone: "danger" | "success" } | null>(null);
  const data = health.data;

  return (
    <section aria-labelledby="admin-health-title" className={cardClasses}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="admin-health-title" className="text-lg font-semibold tracking-tight">
            {t("health.title")}
          </h2>
          <p className="mt-1 text-sm text-ink-muted">{t("health.lede")}</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          loading={health.isFetching}
          icon={<RefreshCw aria-hidden="true" className="size-4" />}
          onClick={() => void health.refetch()}
        >
          {t("health.refresh")}
        </Button>
      </div>
      {health.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">{t("health.loading")}</p>
      ) : health.isError || !data ? (
        <FormAlert message={errorMessage(health.error)} className="mt-4" />
      ) : (
        <>
          <dl className="mt-5 grid grid-cols-2 gap-4 lg:grid-cols-4">
            <div>
              <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">
                {t("health.storageUsed")}
              </dt>
              <dd className="mt-1 text-sm font-semibold tabular-nums">
                {t("health.storageBy", {
                  size: storageText(data.storage.used_bytes),
                  count: data.storage.accounts,
                })}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">
                {t("health.streamsOpen")}
              </dt>
              <dd className="mt-1 text-sm font-semibold tabular-nums">
                {formatNumber(data.event_streams_open)}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">
                {t("health.processes")}
              </dt>
              <dd className="mt-1 text-sm font-semibold tabular-nums">
                {t("health.processesValue", {
                  count: data.processes.reporting,
                  http: data.processes.http,
                  worker: data.processes.worker,
                })}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">
                {t("health.jobsWaiting")}
              </dt>
              <dd className="mt-1 text-sm font-semibold tabular-nums">
                {formatNumber(data.queue.waiting.reduce((sum, row) => sum + row.count, 0))}
              </dd>
            </div>
          </dl>

          <Block title={t("health.vendors")} id="admin-health-vendors">
            <p className="mt-1 text-sm text-ink-muted">{t("health.since", { when: when(data.since) })}</p>
            {data.vendors.length === 0 ? (
              <p className="mt-2 text-sm text-ink-muted">{t("health.noVendorCalls")}</p>
            ) : (
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls; the keyboard must reach it
              <section className="mt-2 overflow-x-auto" tabIndex={0} aria-label={t("health.vendorCalls")}>
                <table className="w-full min-w-[32rem] text-start text-sm tabular-nums">
                  <thead className="text-xs text-ink-muted uppercase">
                    <tr>
                      <th scope="col" className={th}>
                        {t("health.column.vendor")}
                      </th>
                      <th scope="col" className={th}>
                        {t("health.column.kind")}
                      </th>
                      <th scope="col" className={`${th} text-end`}>
                        {t("health.column.calls")}
                      </th>
                      <th scope="col" className={`${th} text-end`}>
                        {t("health.column.errors")}
                      </th>
                      <th scope="col" className={`${th} text-end`}>
                        {t("health.column.p50")}
                      </th>
                      <th scope="col" className={`${th} text-end`}>
                        {t("health.column.p95")}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.vendors.map((row) => (
                      <tr key={`${row.vendor} ${row.kind}`} className="border-t border-line">
                        <th scope="row" className="py-2 pe-3 font-medium" data-user-text>
                          {row.vendor}
                        </th>
                        <td className="py-2 pe-3" data-user-text>
                          {row.kind}
                        </td>
                        <td className="py-2 pe-3 text-end">{formatNumber(row.calls)}</td>
                        <td
                          className={`py-2 pe-3 text-end ${row.errors > 0 ? "font-semibold text-danger" : ""}`}
                        >
                          {percent(row.error_rate)}
                        </td>
                        <td className="py-2 pe-3 text-end">{ms(row.p50_ms)}</td>
                        <td className="py-2 pe-3 text-end">{ms(row.p95_ms)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            )}
          </Block>

          <Block title={t("health.queue")} id="admin-health-queue">
            {data.queue.waiting.length === 0 ? (
              <p className="mt-2 text-sm text-ink-muted">{t("health.nothingWaiting")}</p>
            ) : (
              <ul className="mt-2 flex flex-col gap-1 text-sm">
                {data.queue.waiting.map((row) => (
                  <li key={`${row.kind} ${row.state}`} className="flex flex-wrap gap-x-2">
                    <span className="font-semibold" data-user-text>
                      {row.kind}
                    </span>
                    <span className="text-ink-muted">
                      <span data-user-text>{row.state}</span>: {formatNumber(row.count)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Block>

          <Block title={t("health.failed")} id="admin-health-failed">
            <p className="mt-1 text-sm text-ink-muted">{t("health.failedLede")}</p>
            <FormAlert message={message?.text ?? null} tone={message?.tone} className="mt-3" />
            {data.queue.failed.length === 0 ? (
              <p className="mt-2 text-sm text-ink-muted">{t("health.noFailed")}</p>
            ) : (
              <ul aria-label={t("health.failed")} className="mt-2 flex flex-col gap-2">
                {data.queue.failed.map((job) => (
                  <li
                    key={job.id}
                    className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line p-3"
                  >
                    <div className="min-w-0">
                      <p className="text-sm font-semibold" data-user-text>
                        {job.kind}
                      </p>
                      <p className="text-xs text-ink-muted">
                        {t("health.failedAt", { when: when(job.failed_at) })}
                      </p>
                      {job.error ? (
                        <p className="mt-1 text-sm break-words" data-server-text>
                          {translateServerMessage(job.error)}
                        </p>
                      ) : null}
                    </div>
                    <Button
                      variant="secondary"
                      size="sm"
                      loading={retry.isPending && retry.variables?.id === job.id}
                      icon={<RotateCcw aria-hidden="true" className="size-4" />}
                      aria-label={t("health.retryLabel", { kind: job.kind })}
                      onClick={() =>
                        retry.mutate(
                          { kind: job.kind, id: job.id },
                          {
                            onSuccess: () =>
                              setMessage({ text: t("health.retried", { kind: job.kind }), tone: "success" }),
                            onError: (error) =>
                              setMessage({
                                text: errorMessage(error),
                                tone: "danger",
                              }),
                          },
                        )
                      }
                    >
                      {t("health.retry")}
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
