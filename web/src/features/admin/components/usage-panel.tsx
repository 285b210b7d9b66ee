// Usage: credits spent, net of refunds, per day, per kind (text, pictures, clips, speech, films) or per
// account, over a range of UTC days (at most 366), as a chart, a table and a CSV download.
import {
  type AdminUsageResponse,
  USAGE_CATEGORIES,
  USAGE_DEFAULT_DAYS,
  USAGE_MAX_DAYS,
} from "@storyverse/contract/admin";
import { Download } from "lucide-react";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { formatCreditAmount, formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { errorMessage } from "../../../lib/api-errors";
import { downloadUsageCsv, type UsageGroup, type UsageQuery, useAdminUsage } from "../api/admin-operations";
import { cardClasses } from "./admin-format";
import { categoryLabel, DailyChart, Legend, RowChart } from "./usage-chart";

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);
const GROUPS: UsageGroup[] = ["day", "kind", "user"];

/** Why a range cannot be asked for, or null. */
export function rangeProblem(from: string, to: string): string | null {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return i18n.t("admin:usage.chooseDays");
  if (start > end) return i18n.t("admin:usage.backwards");
  if ((end - start) / DAY_MS + 1 > USAGE_MAX_DAYS)
    return i18n.t("admin:usage.tooLong", { count: USAGE_MAX_DAYS });
  return null;
}

/** The chart's and the table's summary; the days are the report's UTC day keys (YYYY-MM-DD), as the axis shows them. */
function summaryOf(report: AdminUsageResponse): string {
  return i18n.t(`admin:usage.summary.${report.group_by}`, {
    from: report.from,
    to: report.to,
    total: formatCreditAmount(report.total_credits),
  });
}

function UsageTable({ report }: { report: AdminUsageResponse }) {
  const { t } = useTranslation("admin");
  const rows =
    report.group_by === "day" ? report.rows.filter((row) => row.uses > 0 || row.credits !== 0) : report.rows;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls; the keyboard must reach it
    <section className="mt-4 overflow-x-auto" tabIndex={0} aria-label={t("usage.table")}>
      <table className="w-full min-w-[36rem] text-start text-sm tabular-nums">
        <caption className="sr-only">{summaryOf(report)}</caption>
        <thead className="text-xs text-ink-muted uppercase">
          <tr>
            <th scope="col" className="py-2 pe-3 font-medium">
              {t(`usage.column.${report.group_by}`)}
            </th>
            {report.group_by === "kind"
              ? null
              : USAGE_CATEGORIES.map((category) => (
                  <th key={category} scope="col" className="py-2 pe-3 text-end font-medium">
                    {t(`usage.categories.${category}`)}
                  </th>
                ))}
            <th scope="col" className="py-2 pe-3 text-end font-medium">
              {t("usage.column.credits")}
            </th>
            <th scope="col" className="py-2 text-end font-medium">
              {t("usage.column.uses")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-t border-line">
              {report.group_by === "kind" ? (
                <th scope="row" className="max-w-56 truncate py-2 pe-3 font-medium">
                  {categoryLabel(row.key)}
                </th>
              ) : row.label === null ? (
                <th scope="row" className="max-w-56 truncate py-2 pe-3 font-medium">
                  {t("usage.deletedAccount")}
                </th>
              ) : (
                <th scope="row" className="max-w-56 truncate py-2 pe-3 font-medium" data-user-text>
                  {row.label}
                </th>
              )}
              {report.group_by === "kind"
                ? null
                : USAGE_CATEGORIES.map((category) => (
                    <td key={category} className="py-2 pe-3 text-end">
                      {formatNumber(row.by_kind[category])}
                    </td>
                  ))}
              <td className="py-2 pe-3 text-end font-semibold">{formatNumber(row.credits)}</td>
              <td className="py-2 text-end">{formatNumber(row.uses)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? <p className="mt-2 text-sm text-ink-muted">{t("usage.nothingSpent")}</p> : null}
    </section>
  );
}

export function UsagePanel() {
  const { t } = useTranslation("admin");
  const today = new Date();
  const [from, setFrom] = useState(isoDay(new Date(today.getTime() - (USAGE_DEFAULT_DAYS - 1) * DAY_MS)));
  const [to, setTo] = useState(isoDay(today));
  const [group, setGroup] = useState<UsageGroup>("day");
  const problem = rangeProblem(from, to);
  const [asked, setAsked] = useState<UsageQuery>({ from, to, group_by: group });
  const usage = useAdminUsage(asked);
  const [downloadProblem, setDownloadProblem] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);

  const ask = (next: Partial<UsageQuery>) => {
    const query = { from, to, group_by: group, ...next };
    if (rangeProblem(query.from, query.to) === null) setAsked(query);
  };
  const report = usage.data;

  const download = async () => {
    setDownloadProblem(null);
    setDownloading(true);
    try {
      await downloadUsageCsv(asked);
    } catch (error) {
      setDownloadProblem(errorMessage(error));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="admin-usage-title" className={cardClasses}>
      <h2 id="admin-usage-title" className="text-lg font-semibold tracking-tight">
        {t("usage.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("usage.lede")}</p>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <TextField
          label={t("usage.from")}
          type="date"
          value={from}
          max={to}
          onValueChange={(value) => {
            setFrom(value);
            ask({ from: value });
          }}
        />
        <TextField
          label={t("usage.to")}
          type="date"
          value={to}
          min={from}
          onValueChange={(value) => {
            setTo(value);
            ask({ to: value });
          }}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">{t("usage.show")}</legend>
          <div className="inline-flex rounded-xl border border-line bg-surface-2 p-1">
            {GROUPS.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={group === option}
                className={`h-9 rounded-lg px-3 text-sm font-semibold ${
                  group === option ? "bg-surface text-ink shadow-soft" : "text-ink-muted hover:text-ink"
                }`}
                onClick={() => {
                  setGroup(option);
                  ask({ group_by: option });
                }}
              >
                {t(`usage.groups.${option}`)}
              </button>
            ))}
          </div>
        </fieldset>
        <Button
          variant="secondary"
          size="md"
          loading={downloading}
          disabled={problem !== null}
          icon={<Download aria-hidden="true" className="size-4" />}
          onClick={() => void download()}
        >
          {t("usage.download")}
        </Button>
      </div>
      <FormAlert message={problem ?? downloadProblem} className="mt-3" />
      {usage.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">{t("usage.loading")}</p>
      ) : usage.isError || !report ? (
        <FormAlert message={errorMessage(usage.error)} className="mt-4" />
      ) : (
        <div aria-busy={usage.isFetching}>
          <p className="mt-5 text-sm">
            <Trans
              t={t}
              i18nKey="usage.totals"
              count={report.total_uses}
              values={{
                credits: formatCreditAmount(report.total_credits),
                count: report.total_uses,
                from: report.from,
                to: report.to,
              }}
              components={{ strong: <span className="font-semibold tabular-nums" /> }}
            />
          </p>
          <div className="mt-3">
            <Legend />
          </div>
          {report.group_by === "day" ? (
            <DailyChart rows={report.rows} summary={summaryOf(report)} />
          ) : (
            <RowChart
              rows={
                report.group_by === "kind"
                  ? report.rows.map((row) => ({
                      ...row,
                      label: categoryLabel(row.key),
                    }))
                  : report.rows
              }
              summary={summaryOf(report)}
            />
          )}
          <UsageTable report={report} />
        </div>
      )}
    </section>
  );
}
