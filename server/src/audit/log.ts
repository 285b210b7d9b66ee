// The audit log (issue #44, decision 0140): who did what to whom, when and why. The admin console's actions
// write it; an account's deletion makes its rows anonymous (decision 0143). Its own module so that leaving
// (server/src/leave) can forget an account in it without importing the admin console, which closes accounts.
import { ADMIN_PAGE_SIZE, type AdminAuditResponse } from "@storyverse/contract/admin";
import type { UserRow } from "../accounts";
import type { AppContext } from "../context";
import { InvalidInput } from "../platform/errors";
import { anonymiseAudit, auditPage, insertAudit } from "./repo";

/** Who acts: an administrator's account, or the command line. */
export type Actor = { id: string | null; label: string };
export const COMMAND_LINE: Actor = { id: null, label: "command line" };

/** The actor for an administrator's request. */
export function actorOf(user: { id: string; email: string }): Actor {
  return { id: user.id, label: user.email };
}

export async function auditAction(
  ctx: Pick<AppContext, "db" | "clock">,
  actor: Actor,
  action: string,
  target: Pick<UserRow, "id" | "email"> | undefined,
  details: Record<string, unknown>,
  reason?: string,
) {
  await insertAudit(ctx.db, {
    at: ctx.clock.now(),
    actorId: actor.id,
    actor: actor.label,
    action,
    targetId: target?.id || null,
    target: target?.email ?? null,
    details,
    reason: reason || null,
  });
}

export async function auditLog(
  ctx: Pick<AppContext, "db">,
  cursor: string | undefined,
): Promise<AdminAuditResponse> {
  if (cursor !== undefined && !/^\d{1,18}$/.test(cursor)) {
    throw new InvalidInput("cursor must be the next_cursor of a previous page");
  }
  const rows = await auditPage(
    ctx.db,
    cursor === undefined ? undefined : Number(cursor),
    ADMIN_PAGE_SIZE + 1,
  );
  const page = rows.slice(0, ADMIN_PAGE_SIZE);
  return {
    entries: page.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      actor: row.actor,
      actor_id: row.actorId,
      action: row.action,
      target: row.target,
      target_id: row.targetId,
      details: row.details,
      reason: row.reason,
    })),
    next_cursor: rows.length > ADMIN_PAGE_SIZE ? String(page.at(-1)!.id) : null,
  };
}

/**
 * For an account's deletion: the audit log keeps every action but no longer names the account (its id and
 * address become "a deleted account"), so no row of the log points at the person.
 */
export async function forgetAccountInAudit(ctx: Pick<AppContext, "db">, userId: string): Promise<void> {
  await anonymiseAudit(ctx.db, userId, "a deleted account");
}
