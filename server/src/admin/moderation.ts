// The console's Moderation tab and the account actions added with it (decision 0150): list and search the
// live share links and take one down with a reason its owner sees (the link stops working at once); require a
// new password of an account (its sessions end, a reset link is mailed); delete an account, as its owner
// could (decision 0143), leaving only the anonymised ledger. Each action is written to the audit log.
import {
  ADMIN_PAGE_SIZE,
  type AdminShare,
  type AdminSharesQuery,
  type AdminSharesResponse,
  type AdminUserDeleting,
} from "@storyverse/contract/admin";
import { accountById, requirePasswordReset, searchAccounts } from "../accounts";
import { type Actor, auditAction } from "../audit";
import type { AppContext } from "../context";
import { closeAccount } from "../leave";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import { liftShareTakedown, liveLinks, type ModeratedLink, shareTokenIn, takeDownShare } from "../sharing";
import { ownedStoryRecord, storiesTitled } from "../stories";
import { orderDeletion } from "./archives";
import { decodeCursor, encodeCursor } from "./cursor";
import type { AdminContext } from "./service";

type ModerationContext = AdminContext & Pick<AppContext, "jobs" | "storage" | "log" | "config">;

/** Accounts a search by email or username reaches for the share list, at most. */
const OWNERS_SEARCHED = 100;
/** Stories a search by title reaches for the share list, at most (the newest). */
const STORIES_SEARCHED = 200;
const DELETED_STORY = "(a story that no longer exists)";

async function storyTitle(ctx: ModerationContext, userId: string, storyId: string): Promise<string> {
  try {
    return (await ownedStoryRecord(ctx, userId, storyId)).title;
  } catch (error) {
    if (error instanceof NotFound) return DELETED_STORY;
    throw error;
  }
}

async function described(ctx: ModerationContext, link: ModeratedLink): Promise<AdminShare> {
  const [owner, title] = await Promise.all([
    accountById(ctx, link.userId),
    storyTitle(ctx, link.userId, link.storyId),
  ]);
  return {
    token: link.token,
    url: link.url,
    story_id: link.storyId,
    story_title: title,
    owner_id: link.userId,
    owner_email: owner?.email ?? "",
    created_at: link.createdAt.toISOString(),
    taken_down: link.takenDown
      ? { at: link.takenDown.at.toISOString(), reason: link.takenDown.reason }
      : null,
  };
}

/**
 * Share links, newest first, live or taken down: all, the one a pasted link or token names, or those of matching
 * owners or of stories whose title holds the words.
 */
export async function listShares(
  ctx: ModerationContext,
  query: AdminSharesQuery,
): Promise<AdminSharesResponse> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const q = query.q?.trim() || undefined;
  const token = q ? shareTokenIn(q) : undefined;
  let filter: { userIds?: string[]; token?: string; storyIds?: string[] } = {};
  if (token) filter = { token };
  else if (q) {
    const [owners, storyIds] = await Promise.all([
      searchAccounts(ctx, q, undefined, OWNERS_SEARCHED),
      storiesTitled(ctx, q, STORIES_SEARCHED),
    ]);
    filter = { userIds: owners.map((owner) => owner.id), storyIds };
  }
  const links = await liveLinks(
    ctx,
    { ...filter, ...(query.status === "taken_down" ? { takenDown: true } : {}) },
    after,
    ADMIN_PAGE_SIZE + 1,
  );
  const page = links.slice(0, ADMIN_PAGE_SIZE);
  return {
    shares: await Promise.all(page.map((link) => described(ctx, link))),
    next_cursor: links.length > ADMIN_PAGE_SIZE ? encodeCursor(page.at(-1)!) : null,
  };
}

/** Writes a moderation action on a link to the audit log, naming its owner and story; the story's title. */
async function auditLink(
  ctx: ModerationContext,
  actor: Actor,
  action: string,
  link: ModeratedLink,
  reason: string | undefined,
): Promise<string> {
  const [owner, title] = await Promise.all([
    accountById(ctx, link.userId),
    storyTitle(ctx, link.userId, link.storyId),
  ]);
  await auditAction(
    ctx,
    actor,
    action,
    owner ?? undefined,
    { story_id: link.storyId, story_title: title },
    reason,
  );
  return title;
}

/** Takes a live link down: it stops working at once and its owner sees the reason (audited). */
export async function takeDown(ctx: ModerationContext, actor: Actor, token: string, reason: string) {
  const link = await takeDownShare(ctx, token, reason);
  if (!link) throw new NotFound("No live share link has this token");
  return {
    taken_down: true as const,
    story_title: await auditLink(ctx, actor, "take_down_share", link, reason),
  };
}

/** Lifts a takedown: the link works again and its owner no longer sees the reason (audited). */
export async function liftTakedown(
  ctx: ModerationContext,
  actor: Actor,
  token: string,
  reason: string | undefined,
) {
  const link = await liftShareTakedown(ctx, token);
  if (!link) throw new NotFound("No taken-down share link has this token, or its story has a newer link");
  return { lifted: true as const, story_title: await auditLink(ctx, actor, "lift_takedown", link, reason) };
}

/** The account must set a new password: its sessions end and a reset link is mailed (audited). */
export async function forcePasswordReset(
  ctx: ModerationContext,
  actor: Actor,
  userId: string,
  reason: string | undefined,
) {
  const row = await accountById(ctx, userId);
  if (!row) throw new NotFound("No account with this id");
  if (actor.id === row.id) {
    throw new Conflict("You cannot force a reset of your own password: change it from your account instead.");
  }
  const ended = await requirePasswordReset(ctx, row.id);
  await auditAction(ctx, actor, "force_password_reset", row, { sessions_ended: ended }, reason);
  return { sessions_ended: ended, mail_sent_to: row.email };
}

/**
 * Deletes the account as its owner could (decision 0143): everything it owns but the ledger's money facts,
 * kept anonymised. The email typed again must match. The audit log keeps the deletion without naming the
 * account, as it forgets the account in its other rows. When the install keeps archives of deleted accounts
 * (DELETED_ACCOUNT_ARCHIVE_DAYS > 0, decision 0157) the account is only locked out here, and the worker makes
 * its archive before it deletes it: `deleting` answers the archive to follow (202).
 */
export async function deleteUser(
  ctx: ModerationContext,
  actor: Actor,
  userId: string,
  request: { reason: string; confirm_email: string },
): Promise<{ deleting: AdminUserDeleting } | { deleted: { deleted: true; ledger_rows_kept: number } }> {
  const row = await accountById(ctx, userId);
  if (!row) throw new NotFound("No account with this id");
  if (actor.id === row.id) {
    throw new Conflict(
      "You cannot delete your own account from the console: use Delete account in Settings.",
    );
  }
  if (request.confirm_email.trim().toLowerCase() !== row.email.toLowerCase()) {
    throw new InvalidInput("Type the account's email exactly to confirm. Nothing was deleted.");
  }
  if (ctx.config.deletedAccountArchiveDays > 0) {
    return { deleting: await orderDeletion(ctx, actor, row, request.reason) };
  }
  const { ledgerRowsKept } = await closeAccount(ctx, row.id);
  await auditAction(
    ctx,
    actor,
    "delete_user",
    { id: "", email: "a deleted account" },
    { ledger_rows_kept: ledgerRowsKept },
    request.reason,
  );
  return { deleted: { deleted: true as const, ledger_rows_kept: ledgerRowsKept } };
}
