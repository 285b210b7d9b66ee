// The console's Usage tab (decision 0150): credits spent per day, per kind (text, pictures, clips, speech,
// films) or per account, for the install or one account, over at most 366 UTC days, as JSON for the charts
// or as CSV. The ledger is grouped in SQL by the credits module (credits/usage-report.ts).
import {
  type AdminUsageQuery,
  type AdminUsageResponse,
  type AdminUsageRow,
  USAGE_CATEGORIES,
  USAGE_DEFAULT_DAYS,
  USAGE_MAX_DAYS,
  USAGE_MAX_USERS,
  type UsageCategory,
} from "@storyverse/contract/admin";
import { accountById } from "../accounts";
import { type UsageBucket, usageCells } from "../credits";
import { InvalidInput } from "../platform/errors";
import type { AdminContext } from "./service";

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const parseDay = (day: string) => new Date(`${day}T00:00:00Z`);
const round = (credits: number) => Math.round(credits * 10) / 10;

function emptyKinds(): Record<UsageCategory, number> {
  return Object.fromEntries(USAGE_CATEGORIES.map((category) => [category, 0])) as Record<
    UsageCategory,
    number
  >;
}

/** The report's days: [from, to] inclusive, checked against the limit. */
export function usageRange(query: Pick<AdminUsageQuery, "from" | "to">, now: Date) {
  const to = query.to ? parseDay(query.to) : parseDay(dayOf(now));
  const from = query.from ? parseDay(query.from) : new Date(to.getTime() - (USAGE_DEFAULT_DAYS - 1) * DAY_MS);
  if (from > to) throw new InvalidInput("from must be on or before to");
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS) + 1;
  if (days > USAGE_MAX_DAYS) {
    throw new InvalidInput(`A usage report covers at most ${USAGE_MAX_DAYS} days; this range has ${days}.`);
  }
  return { from, to, days };
}

export async function usageReport(ctx: AdminContext, query: AdminUsageQuery): Promise<AdminUsageResponse> {
  const { from, to, days } = usageRange(query, ctx.clock.now());
  const bucket: UsageBucket = query.group_by === "day" ? "day" : query.group_by === "user" ? "user" : "all";
  const cells = await usageCells(ctx.db, {
    from,
    to: new Date(to.getTime() + DAY_MS),
    bucket,
    userId: query.user_id,
    maxUsers: USAGE_MAX_USERS,
  });

  const rows = new Map<string, AdminUsageRow>();
  const rowFor = (key: string): AdminUsageRow => {
    let row = rows.get(key);
    if (!row) {
      row = { key, label: key, credits: 0, uses: 0, by_kind: emptyKinds() };
      rows.set(key, row);
    }
    return row;
  };
  // Every day of the range has a row (a chart's quiet days are days too); every category for group_by=kind.
  if (query.group_by === "day") {
    for (let i = 0; i < days; i++) rowFor(dayOf(new Date(from.getTime() + i * DAY_MS)));
  }
  if (query.group_by === "kind") for (const category of USAGE_CATEGORIES) rowFor(category);

  for (const cell of cells) {
    const row = rowFor(query.group_by === "kind" ? cell.category : cell.bucket);
    row.credits = round(row.credits + cell.credits);
    row.uses += cell.uses;
    row.by_kind[cell.category] = round(row.by_kind[cell.category] + cell.credits);
  }

  let list = [...rows.values()];
  if (query.group_by === "user") {
    const accounts = await Promise.all(list.map((row) => accountById(ctx, row.key)));
    list = list.map((row, i) => ({ ...row, label: accounts[i]?.email ?? null }));
    list.sort((a, b) => b.credits - a.credits || b.uses - a.uses || a.key.localeCompare(b.key));
  }
  return {
    from: dayOf(from),
    to: dayOf(to),
    group_by: query.group_by,
    user_id: query.user_id ?? null,
    total_credits: round(list.reduce((sum, row) => sum + row.credits, 0)),
    total_uses: list.reduce((sum, row) => sum + row.uses, 0),
    rows: list,
  };
}

/** A CSV cell: quoted when it needs to be, and never read as a formula by a spreadsheet. */
function cell(value: string | number | null): string {
  let text = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === "string") text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The report as CSV: one line per row, a column per category, then the totals. */
export function usageCsv(report: AdminUsageResponse): string {
  const first = report.group_by === "day" ? "date" : report.group_by === "kind" ? "kind" : "account_id";
  const header = [first, ...(report.group_by === "user" ? ["email"] : [])];
  const lines = [[...header, ...USAGE_CATEGORIES, "credits", "uses"].join(",")];
  for (const row of report.rows) {
    lines.push(
      [
        cell(row.key),
        ...(report.group_by === "user" ? [cell(row.label)] : []),
        ...USAGE_CATEGORIES.map((category) => cell(row.by_kind[category])),
        cell(row.credits),
        cell(row.uses),
      ].join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

export function usageCsvFilename(report: AdminUsageResponse): string {
  return `storyverse-usage-${report.group_by}-${report.from}-to-${report.to}.csv`;
}
