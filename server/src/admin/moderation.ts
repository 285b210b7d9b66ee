// The console's Moderation tab and the account actions added with it (decision 0150): list and search the
// live share links and take one down with a reason its owner sees (the link stops working at once); require a
// new password of an account (its sessions end, a reset link is mailed); delete an account, as its owner
// could (decision 0143), leaving only the anonymised ledger. Each action is written to the audit log.
import {
  ADMIN_PAGE_SIZE,
  type AdminShare,
  type AdminSharesQuery,
  type AdminSharesResponse,
} from "@storyverse/contract/admin";
import { closeAccount } from "../accounts/leave-delete";
import { accountById, requirePasswordReset, searchAccounts } from "../accounts/service";
import type { AppContext } from "../context";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import { liveLinks, type ModeratedLink, shareTokenIn, takeDownShare } from "../sharing/service";
import { ownedStoryRecord } from "../stories/service";
import { type Actor, type AdminContext, auditAction } from "./service";

type ModerationContext = AdminContext & Pick<AppContext, "jobs" | "storage" | "log" | "config">;

/** Accounts a search by email or username reaches for the share list, at most. */
const OWNERS_SEARCHED = 100;
const DELETED_STORY = "(a story that no longer exists)";

const encodeCursor = (link: ModeratedLink) =>
  Buffer.from(JSON.stringify([link.createdAt.toISOString(), link.id])).toString("base64url");

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) throw new Error("bad cursor");
    return { createdAt, id };
  } catch {
    throw new InvalidInput("cursor must be the next_cursor of a previous page");
  }
}

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
  };
}

/** Live share links, newest first: all, the one a pasted link or token names, or those of matching owners. */
export async function listShares(
  ctx: ModerationContext,
  query: AdminSharesQuery,
): Promise<AdminSharesResponse> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const q = query.q?.trim() || undefined;
  const token = q ? shareTokenIn(q) : undefined;
  let filter: { userIds?: string[]; token?: string } = {};
  if (token) filter = { token };
  else if (q) {
    const owners = await searchAccounts(ctx, q, undefined, OWNERS_SEARCHED);
    if (owners.length === 0) return { shares: [], next_cursor: null };
    filter = { userIds: owners.map((owner) => owner.id) };
  }
  const links = await liveLinks(ctx, filter, after, ADMIN_PAGE_SIZE + 1);
  const page = links.slice(0, ADMIN_PAGE_SIZE);
  return {
    shares: await Promise.all(page.map((link) => described(ctx, link))),
    next_cursor: links.length > ADMIN_PAGE_SIZE ? encodeCursor(page.at(-1)!) : null,
  };
}

/** Takes a live link down: it stops working at once and its owner sees the reason (audited). */
export async function takeDown(ctx: ModerationContext, actor: Actor, token: string, reason: string) {
  const link = await takeDownShare(ctx, token, reason);
  if (!link) throw new NotFound("No live share link has this token");
  const [owner, title] = await Promise.all([
    accountById(ctx, link.userId),
    storyTitle(ctx, link.userId, link.storyId),
  ]);
  await auditAction(
    ctx,
    actor,
    "take_down_share",
    owner ?? undefined,
    { story_id: link.storyId, story_title: title },
    reason,
  );
  return { taken_down: true as const, story_title: title };
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
 * account, as it forgets the account in its other rows.
 */
export async function deleteUser(
  ctx: ModerationContext,
  actor: Actor,
  userId: string,
  request: { reason: string; confirm_email: string },
) {
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
  const { ledgerRowsKept } = await closeAccount(ctx, row.id);
  await auditAction(
    ctx,
    actor,
    "delete_user",
    { id: "", email: "a deleted account" },
    { ledger_rows_kept: ledgerRowsKept },
    request.reason,
  );
  return { deleted: true as const, ledger_rows_kept: ledgerRowsKept };
}
