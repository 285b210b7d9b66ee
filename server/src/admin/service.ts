// The admin console's rules (issue #44, decision 0140): find and open accounts, change their role, state
// and caps, grant or take back credits, end their sessions, set the install's caps, and write every one
// of these actions to the audit log (who, what, to whom, when, why). The HTTP routes and the command line
// (`npm run admin`) both come through here.
import { randomUUID } from "node:crypto";
import type {
  AdminCaps,
  AdminCapsResponse,
  AdminCreditsRequest,
  AdminUser,
  AdminUserSummary,
  AdminUsersQuery,
  AdminUsersResponse,
  AdminUserUpdate,
} from "@storyverse/contract/admin";
import { ADMIN_PAGE_SIZE } from "@storyverse/contract/admin";
import { TRANSACTION_TYPES } from "@storyverse/contract/billing";
import { formatCredits } from "@storyverse/contract/credits";
import type { SessionCache } from "../accounts";
import {
  type AccountAdminFields,
  accountByEmail,
  accountById,
  accountSessions,
  changeAccount,
  endSessionsEverywhere,
  searchAccounts,
  type UserRow,
} from "../accounts";
import { type Actor, auditAction, COMMAND_LINE } from "../audit";
import type { Config } from "../config";
import type { AppContext } from "../context";
import { fromTenths, grant, remainingCredits, setUnlimitedCredits, takeBack, toTenths } from "../credits";
import { storageUsage } from "../media";
import { Conflict, NotFound } from "../platform/errors";
import { storiesCreatedBetween } from "../stories";
import { accountSpending, capPassed, installSpentToday, readCaps, writeCaps } from "./caps";
import { decodeCursor, encodeCursor } from "./cursor";

export type AdminContext = Pick<AppContext, "db" | "clock" | "notify"> & {
  config: Pick<Config, "mediaQuotaMb">;
  /** The HTTP process's session cache; the command line has none. */
  sessions?: SessionCache;
};

const toCredits = (tenths: number | null) => (tenths === null ? null : fromTenths(tenths));
const toCapTenths = (credits: number | null) => (credits === null ? null : toTenths(credits));

function summary(row: UserRow): AdminUserSummary {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    role: row.role,
    verified: row.emailVerifiedAt !== null,
    disabled: row.disabledAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listUsers(ctx: AdminContext, query: AdminUsersQuery): Promise<AdminUsersResponse> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await searchAccounts(ctx, query.q || undefined, after, ADMIN_PAGE_SIZE + 1);
  const page = rows.slice(0, ADMIN_PAGE_SIZE);
  return {
    users: page.map(summary),
    next_cursor: rows.length > ADMIN_PAGE_SIZE ? encodeCursor(page.at(-1)!) : null,
  };
}

async function accountOrNotFound(ctx: AdminContext, userId: string): Promise<UserRow> {
  const row = await accountById(ctx, userId);
  if (!row) throw new NotFound("No account with this id");
  return row;
}

export async function userDetail(ctx: AdminContext, userId: string): Promise<AdminUser> {
  const row = await accountOrNotFound(ctx, userId);
  const now = ctx.clock.now();
  const [remaining, storage, stories, sessions, spent, atCap] = await Promise.all([
    remainingCredits(ctx.db, row.id),
    storageUsage(ctx, row.id),
    storiesCreatedBetween(ctx.db, row.id, new Date(0), new Date(now.getTime() + 1)),
    accountSessions(ctx, row.id),
    accountSpending(ctx, row.id),
    // At a cap: the smallest charge (a tenth) would pass it.
    capPassed(ctx, row.id, 1),
  ]);
  return {
    ...summary(row),
    balance: remaining,
    unlimited: remaining === -1,
    storage_used_bytes: storage.usedBytes,
    storage_limit_bytes: storage.limitBytes,
    stories,
    sessions: sessions.live,
    last_seen_at: sessions.lastSeenAt?.toISOString() ?? null,
    daily_cap: toCredits(row.dailyCapTenths),
    monthly_cap: toCredits(row.monthlyCapTenths),
    spent_today: fromTenths(spent.today),
    spent_this_month: fromTenths(spent.month),
    capped: atCap?.cap ?? null,
  };
}

export async function updateUser(
  ctx: AdminContext,
  actor: Actor,
  userId: string,
  update: AdminUserUpdate,
): Promise<AdminUser> {
  const row = await accountOrNotFound(ctx, userId);
  if (actor.id === row.id && (update.disabled === true || update.role === "player")) {
    throw new Conflict("You cannot disable your own account or remove your own admin role.");
  }
  const now = ctx.clock.now();
  const fields: AccountAdminFields = {};
  const changes: Record<string, unknown> = {};
  if (update.disabled !== undefined && update.disabled !== (row.disabledAt !== null)) {
    fields.disabledAt = update.disabled ? now : null;
    changes.disabled = update.disabled;
  }
  if (update.role !== undefined && update.role !== row.role) {
    fields.role = update.role;
    changes.role = update.role;
  }
  if (update.daily_cap !== undefined && toCapTenths(update.daily_cap) !== row.dailyCapTenths) {
    fields.dailyCapTenths = toCapTenths(update.daily_cap);
    changes.daily_cap = update.daily_cap;
  }
  if (update.monthly_cap !== undefined && toCapTenths(update.monthly_cap) !== row.monthlyCapTenths) {
    fields.monthlyCapTenths = toCapTenths(update.monthly_cap);
    changes.monthly_cap = update.monthly_cap;
  }
  if (update.verified && row.emailVerifiedAt === null) {
    fields.emailVerifiedAt = now;
    changes.verified = true;
  }
  if (Object.keys(fields).length > 0) await changeAccount(ctx, row.id, fields);
  if (
    update.unlimited !== undefined &&
    update.unlimited !== ((await remainingCredits(ctx.db, row.id)) === -1)
  ) {
    await setUnlimitedCredits(ctx.db, row.id, update.unlimited, now);
    changes.unlimited = update.unlimited;
  }
  if (Object.keys(changes).length > 0)
    await auditAction(ctx, actor, "update_user", row, changes, update.reason);
  return userDetail(ctx, row.id);
}

export async function adjustCredits(
  ctx: AdminContext,
  actor: Actor,
  userId: string,
  request: AdminCreditsRequest,
): Promise<AdminUser> {
  const row = await accountOrNotFound(ctx, userId);
  const now = ctx.clock.now();
  const tenths = toTenths(Math.abs(request.amount));
  const credits = formatCredits(fromTenths(tenths));
  const reference = `admin:${randomUUID()}`;
  if (request.amount > 0) {
    await grant(
      ctx.db,
      row.id,
      tenths,
      TRANSACTION_TYPES.adminGrant,
      reference,
      now,
      `${credits} granted by an administrator: ${request.reason}`,
    );
  } else {
    const taken = await takeBack(
      ctx.db,
      row.id,
      tenths,
      TRANSACTION_TYPES.adminTakeBack,
      reference,
      now,
      `${credits} taken back by an administrator: ${request.reason}`,
    );
    if (!taken) {
      const remaining = await remainingCredits(ctx.db, row.id);
      throw new Conflict(
        `The account holds ${formatCredits(remaining === -1 ? 0 : remaining)}: take back at most that.`,
      );
    }
  }
  await auditAction(
    ctx,
    actor,
    request.amount > 0 ? "grant_credits" : "take_back_credits",
    row,
    { amount: fromTenths(request.amount > 0 ? tenths : -tenths) },
    request.reason,
  );
  return userDetail(ctx, row.id);
}

export async function revokeSessions(ctx: AdminContext, actor: Actor, userId: string) {
  const row = await accountOrNotFound(ctx, userId);
  const { live } = await accountSessions(ctx, row.id);
  await endSessionsEverywhere(ctx, row.id);
  await auditAction(ctx, actor, "revoke_sessions", row, { sessions: live });
  return { revoked: live };
}

/** Accounts at their daily or monthly cap now, one page at most (the console shows who is capped). */
async function cappedUsers(ctx: AdminContext): Promise<AdminCapsResponse["capped_users"]> {
  const capped: AdminCapsResponse["capped_users"] = [];
  let after: { createdAt: Date; id: string } | undefined;
  // Reads accounts a page at a time and stops at a page of results; installs with caps are small groups.
  for (let pages = 0; pages < 20 && capped.length < ADMIN_PAGE_SIZE; pages++) {
    const rows = await searchAccounts(ctx, undefined, after, 100);
    for (const row of rows) {
      const passed = await capPassed(ctx, row.id, 1);
      if (passed && passed.cap !== "install")
        capped.push({ id: row.id, email: row.email, cap: passed.cap, limit: fromTenths(passed.limitTenths) });
    }
    if (rows.length < 100) break;
    const last = rows.at(-1)!;
    after = { createdAt: last.createdAt, id: last.id };
  }
  return capped.slice(0, ADMIN_PAGE_SIZE);
}

export async function getCaps(ctx: AdminContext): Promise<AdminCapsResponse> {
  const caps = await readCaps(ctx);
  const anyCap = caps.dailyDefaultTenths !== null || caps.monthlyDefaultTenths !== null;
  return {
    daily_default: toCredits(caps.dailyDefaultTenths),
    monthly_default: toCredits(caps.monthlyDefaultTenths),
    install_daily: toCredits(caps.installDailyTenths),
    install_spent_today: fromTenths(await installSpentToday(ctx)),
    capped_users: anyCap ? await cappedUsers(ctx) : [],
  };
}

export async function setCaps(ctx: AdminContext, actor: Actor, caps: AdminCaps): Promise<AdminCapsResponse> {
  await writeCaps(ctx, {
    dailyDefaultTenths: toCapTenths(caps.daily_default),
    monthlyDefaultTenths: toCapTenths(caps.monthly_default),
    installDailyTenths: toCapTenths(caps.install_daily),
  });
  await auditAction(ctx, actor, "set_caps", undefined, { ...caps });
  return getCaps(ctx);
}

/** The command line's make-admin: the account by email becomes an administrator (audited). */
export async function makeAdmin(ctx: AdminContext, email: string): Promise<UserRow | undefined> {
  const row = await accountByEmail(ctx, email);
  if (!row) return undefined;
  if (row.role !== "admin") {
    await changeAccount(ctx, row.id, { role: "admin" });
    await auditAction(ctx, COMMAND_LINE, "update_user", row, { role: "admin" });
  }
  return row;
}

/** Sign-in by OIDC (decision 0146): a member of an admin group becomes an administrator, audited as `actor`. */
export async function makeAdminByClaim(
  ctx: AdminContext,
  actor: Actor,
  row: UserRow,
  reason: string,
): Promise<UserRow> {
  if (row.role === "admin") return row;
  const changed = await changeAccount(ctx, row.id, { role: "admin" });
  await auditAction(ctx, actor, "update_user", row, { role: "admin" }, reason);
  return changed ?? row;
}

/** Whether the account is an enabled administrator (the gate of every /api/admin/* call). */
export async function isAdmin(ctx: Pick<AdminContext, "db">, userId: string): Promise<boolean> {
  const row = await accountById(ctx, userId);
  return row !== undefined && row.role === "admin" && row.disabledAt === null;
}
