// Usage: credits spent, net of refunds, per day, per kind (text, pictures, clips, speech, films) or per
// account, over a range of UTC days (at most 366), as a chart, a table and a CSV download.
import {
  type AdminUsageResponse,
  USAGE_CATEGORIES,
  USAGE_DEFAULT_DAYS,
  USAGE_MAX_DAYS,
} from "@storyverse/contract/admin";
import { formatCredits } from "@storyverse/contract/credits";
import { Download } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { downloadUsageCsv, type UsageGroup, type UsageQuery, useAdminUsage } from "../api/admin-operations";
import { cardClasses } from "./admin-format";
import { CATEGORY_LABELS, DailyChart, Legend, RowChart } from "./usage-chart";

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);
const GROUPS: { value: UsageGroup; label: string }[] = [
  { value: "day", label: "By day" },
  { value: "kind", label: "By kind" },
  { value: "user", label: "By account" },
];

/** Why a range cannot be asked for, or null. */
export function rangeProblem(from: string, to: string): string | null {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return "Choose a first and a last day.";
  if (start > end) return "The first day must be on or before the last.";
  if ((end - start) / DAY_MS + 1 > USAGE_MAX_DAYS) return `Choose at most ${USAGE_MAX_DAYS} days.`;
  return null;
}

function summaryOf(report: AdminUsageResponse): string {
  const by = report.group_by === "day" ? "per day" : report.group_by === "kind" ? "per kind" : "per account";
  return `Credits spent ${by} from ${report.from} to ${report.to}: ${formatCredits(report.total_credits)} in all.`;
}

function UsageTable({ report }: { report: AdminUsageResponse }) {
  const first = report.group_by === "day" ? "Day" : report.group_by === "kind" ? "Kind" : "Account";
  const rows =
    report.group_by === "day" ? report.rows.filter((row) => row.uses > 0 || row.credits !== 0) : report.rows;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls; the keyboard must reach it
    <section className="mt-4 overflow-x-auto" tabIndex={0} aria-label="Usage table">
      <table className="w-full min-w-[36rem] text-left text-sm tabular-nums">
        <caption className="sr-only">{summaryOf(report)}</caption>
        <thead className="text-xs text-ink-muted uppercase">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {first}
            </th>
            {report.group_by === "kind"
              ? null
              : USAGE_CATEGORIES.map((category) => (
                  <th key={category} scope="col" className="py-2 pr-3 text-right font-medium">
                    {CATEGORY_LABELS[category]}
                  </th>
                ))}
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Credits
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Uses
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-t border-line">
              <th scope="row" className="max-w-56 truncate py-2 pr-3 font-medium">
                {report.group_by === "kind"
                  ? CATEGORY_LABELS[row.key as keyof typeof CATEGORY_LABELS]
                  : (row.label ?? "A deleted account")}
              </th>
              {report.group_by === "kind"
                ? null
                : USAGE_CATEGORIES.map((category) => (
                    <td key={category} className="py-2 pr-3 text-right">
                      {row.by_kind[category]}
                    </td>
                  ))}
              <td className="py-2 pr-3 text-right font-semibold">{row.credits}</td>
              <td className="py-2 text-right">{row.uses}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">Nothing was spent in these days.</p>
      ) : null}
    </section>
  );
}

export function UsagePanel() {
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
        Usage
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Credits spent by everyone, net of refunds, per UTC day. Uses count everything paid for, also by
        unlimited accounts.
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <TextField
          label="From"
          type="date"
          value={from}
          max={to}
          onValueChange={(value) => {
            setFrom(value);
            ask({ from: value });
          }}
        />
        <TextField
          label="To"
          type="date"
          value={to}
          min={from}
          onValueChange={(value) => {
            setTo(value);
            ask({ to: value });
          }}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">Show</legend>
          <div className="inline-flex rounded-xl border border-line bg-surface-2 p-1">
            {GROUPS.map((option) => (
              <button
                key={option.value}
                type="button"
                aria-pressed={group === option.value}
                className={`h-9 rounded-lg px-3 text-sm font-semibold ${
                  group === option.value ? "bg-surface text-ink shadow-soft" : "text-ink-muted hover:text-ink"
                }`}
                onClick={() => {
                  setGroup(option.value);
                  ask({ group_by: option.value });
                }}
              >
                {option.label}
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
          Download CSV
        </Button>
      </div>
      <FormAlert message={problem ?? downloadProblem} className="mt-3" />
      {usage.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">Loading usage…</p>
      ) : usage.isError || !report ? (
        <FormAlert message={errorMessage(usage.error)} className="mt-4" />
      ) : (
        <div aria-busy={usage.isFetching}>
          <p className="mt-5 text-sm">
            <span className="font-semibold tabular-nums">{formatCredits(report.total_credits)}</span> spent,{" "}
            <span className="font-semibold tabular-nums">{report.total_uses}</span>{" "}
            {report.total_uses === 1 ? "use" : "uses"}, from {report.from} to {report.to}.
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
                      label: CATEGORY_LABELS[row.key as keyof typeof CATEGORY_LABELS] ?? row.key,
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
