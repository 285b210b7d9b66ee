// The Usage tab's charts, drawn by hand as SVG and HTML bars (decision 0150: a chart library would weigh more
// than the console it draws). Each chart is an image with a summary for screen readers, and the same figures
// are in the table beside it; each colour has its name in the legend.
import { type AdminUsageRow, USAGE_CATEGORIES, type UsageCategory } from "@storyverse/contract/admin";
import { useTranslation } from "react-i18next";
import { formatCreditAmount, formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";

/** A kind's name in the interface's language ("Pictures"); a kind this page does not know shows as it came. */
export function categoryLabel(category: string): string {
  return (USAGE_CATEGORIES as readonly string[]).includes(category)
    ? i18n.t(`admin:usage.categories.${category as UsageCategory}`)
    : category;
}

const FILL: Record<UsageCategory, string> = {
  text: "fill-violet-500",
  pictures: "fill-sky-500",
  clips: "fill-amber-500",
  speech: "fill-emerald-500",
  films: "fill-pink-500",
  other: "fill-slate-400",
};

const SWATCH: Record<UsageCategory, string> = {
  text: "bg-violet-500",
  pictures: "bg-sky-500",
  clips: "bg-amber-500",
  speech: "bg-emerald-500",
  films: "bg-pink-500",
  other: "bg-slate-400",
};

/** Credits of a category that a bar can show (a day of refunds only is drawn as nothing). */
const shown = (row: AdminUsageRow, category: UsageCategory) => Math.max(0, row.by_kind[category]);
const barTotal = (row: AdminUsageRow) => USAGE_CATEGORIES.reduce((sum, c) => sum + shown(row, c), 0);

export function Legend() {
  const { t } = useTranslation("admin");
  return (
    <ul aria-label={t("usage.kinds")} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {USAGE_CATEGORIES.map((category) => (
        <li key={category} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${SWATCH[category]}`} />
          {t(`usage.categories.${category}`)}
        </li>
      ))}
    </ul>
  );
}

const HEIGHT = 160;
const BAR = 10;
const GAP = 2;

/** Stacked bars, one a day, each split by kind. */
export function DailyChart({ rows, summary }: { rows: AdminUsageRow[]; summary: string }) {
  const most = Math.max(0, ...rows.map(barTotal));
  const width = rows.length * (BAR + GAP);
  return (
    <figure className="mt-4">
      <div className="flex items-stretch gap-2">
        <div className="flex w-16 shrink-0 flex-col justify-between text-end text-xs text-ink-muted tabular-nums">
          <span>{formatCreditAmount(most)}</span>
          <span>{formatNumber(0)}</span>
        </div>
        <svg
          role="img"
          aria-label={summary}
          viewBox={`0 0 ${Math.max(width, 1)} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 min-w-0 flex-1 rounded-lg bg-surface-2"
        >
          {rows.map((row, index) => {
            let top = HEIGHT;
            return (
              <g key={row.key}>
                {USAGE_CATEGORIES.map((category) => {
                  const value = shown(row, category);
                  if (value === 0 || most === 0) return null;
                  const height = (value / most) * HEIGHT;
                  top -= height;
                  return (
                    <rect
                      key={category}
                      className={FILL[category]}
                      x={index * (BAR + GAP) + GAP / 2}
                      y={top}
                      width={BAR}
                      height={height}
                    />
                  );
                })}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="mt-1 flex justify-between ps-18 text-xs text-ink-muted tabular-nums">
        <span>{rows[0]?.key}</span>
        <span>{rows.at(-1)?.key}</span>
      </figcaption>
    </figure>
  );
}

/** One bar a row (a kind or an account), split by kind, longest for the most credits. */
export function RowChart({ rows, summary }: { rows: AdminUsageRow[]; summary: string }) {
  const { t } = useTranslation("admin");
  const most = Math.max(0, ...rows.map(barTotal));
  return (
    <figure className="mt-4" role="img" aria-label={summary}>
      <ul className="flex flex-col gap-2">
        {rows.map((row) => (
          <li
            key={row.key}
            className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)_auto] items-center gap-3"
          >
            {row.label === null ? (
              <span className="truncate text-sm">{t("usage.deletedAccount")}</span>
            ) : (
              <span className="truncate text-sm" data-user-text>
                {row.label}
              </span>
            )}
            <span className="flex h-4 overflow-hidden rounded bg-surface-2">
              {most === 0
                ? null
                : USAGE_CATEGORIES.map((category) =>
                    shown(row, category) === 0 ? null : (
                      <span
                        key={category}
                        className={SWATCH[category]}
                        style={{ width: `${(shown(row, category) / most) * 100}%` }}
                      />
                    ),
                  )}
            </span>
            <span className="text-sm font-semibold tabular-nums">{formatCreditAmount(row.credits)}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
