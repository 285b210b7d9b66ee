// Spending caps (decision 0140): each account's daily and monthly caps (its own, else the install's
// defaults) and the install's daily cap, all in credits spent net of refunds over the UTC day or month.
// Checked by the paid-work path (credits/paid-work.ts payFor) before the charge, so a capped player gets a
// 429 before any vendor call or any credit moves. Unlimited accounts are never charged and never capped.
// The check is not a lock: requests racing at the edge of a cap may each pass it (a cap is a budget, not
// the balance, which stays the atomic guard).
import { formatCredits } from "@storyverse/contract/credits";
import { accountById } from "../accounts";
import type { AppContext } from "../context";
import { fromTenths, remainingCredits, spentBetween } from "../credits";
import { DomainError } from "../platform/errors";
import { defineReadCache } from "../platform/read-cache";
import { type CapsRow, readCapsRow, writeCapsRow } from "./repo";

type CapContext = Pick<AppContext, "db" | "clock">;
export type CapName = "daily" | "monthly" | "install";

const capsCache = defineReadCache<CapsRow>("admin.caps", ["usage_caps"]);
const INSTALL = "install";

export function readCaps(ctx: Pick<AppContext, "db">): Promise<CapsRow> {
  return capsCache.read(ctx.db, INSTALL, INSTALL, () => readCapsRow(ctx.db));
}

export async function writeCaps(ctx: CapContext, caps: CapsRow): Promise<void> {
  await writeCapsRow(ctx.db, caps, ctx.clock.now());
  capsCache.invalidate(ctx.db, INSTALL);
}

export const dayStart = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
const nextDay = (now: Date) => new Date(dayStart(now).getTime() + 24 * 60 * 60 * 1000);
export const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const nextMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

export class UsageCapReached extends DomainError {
  constructor(cap: CapName, limitTenths: number, resetsAt: Date, now: Date) {
    const limit = fromTenths(limitTenths);
    const when = resetsAt.toISOString().replace(".000Z", "Z");
    super(
      "usage_cap",
      cap === "install"
        ? `This Storyverse has reached its daily spending limit of ${formatCredits(limit)}. It resets at ${when}.`
        : `You have reached your ${cap} limit of ${formatCredits(limit)}. It resets at ${when}.`,
      {
        extra: { cap, limit, resets_at: resetsAt.toISOString() },
        retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
      },
    );
  }
}

/** An account's caps in tenths: its own where set, else the install's defaults. */
function accountCaps(
  caps: CapsRow,
  user: { dailyCapTenths: number | null; monthlyCapTenths: number | null } | undefined,
) {
  return {
    daily: user?.dailyCapTenths ?? caps.dailyDefaultTenths,
    monthly: user?.monthlyCapTenths ?? caps.monthlyDefaultTenths,
  };
}

/** Spent today and this month (tenths) by one account. */
export async function accountSpending(ctx: CapContext, userId: string) {
  const now = ctx.clock.now();
  const [today, month] = await Promise.all([
    spentBetween(ctx.db, userId, dayStart(now), nextDay(now)),
    spentBetween(ctx.db, userId, monthStart(now), nextMonth(now)),
  ]);
  return { today, month };
}

/** Credits the whole install spent today (tenths). */
export function installSpentToday(ctx: CapContext) {
  const now = ctx.clock.now();
  return spentBetween(ctx.db, undefined, dayStart(now), nextDay(now));
}

/**
 * The cap `costTenths` more would pass for this account now, or undefined. Reads nothing but the (cached)
 * caps and account rows when no cap applies.
 */
export async function capPassed(ctx: CapContext, userId: string, costTenths: number) {
  const caps = await readCaps(ctx);
  const own = accountCaps(caps, await accountById(ctx, userId));
  if (own.daily === null && own.monthly === null && caps.installDailyTenths === null) return undefined;
  if ((await remainingCredits(ctx.db, userId)) === -1) return undefined;
  const now = ctx.clock.now();
  if (own.daily !== null || own.monthly !== null) {
    const spent = await accountSpending(ctx, userId);
    if (own.daily !== null && spent.today + costTenths > own.daily)
      return { cap: "daily" as const, limitTenths: own.daily, resetsAt: nextDay(now) };
    if (own.monthly !== null && spent.month + costTenths > own.monthly)
      return { cap: "monthly" as const, limitTenths: own.monthly, resetsAt: nextMonth(now) };
  }
  if (caps.installDailyTenths !== null) {
    const spent = await installSpentToday(ctx);
    if (spent + costTenths > caps.installDailyTenths)
      return { cap: "install" as const, limitTenths: caps.installDailyTenths, resetsAt: nextDay(now) };
  }
  return undefined;
}

/** Throws UsageCapReached (429, code usage_cap) when `costTenths` more would pass one of the caps. */
export async function assertUnderCaps(ctx: CapContext, userId: string, costTenths: number): Promise<void> {
  const passed = await capPassed(ctx, userId, costTenths);
  if (passed) throw new UsageCapReached(passed.cap, passed.limitTenths, passed.resetsAt, ctx.clock.now());
}
