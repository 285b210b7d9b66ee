// Deleting an account (issue #44 item 4, decision 0143), confirmed by the current password or by a fresh
// sign-in at the OIDC provider (decision 0158):
//
// 1. The account is signed out everywhere at once (every session revoked, every process's session cache told,
//    every live event stream closed: endSessionsEverywhere, as a password reset does), so nothing more arrives.
// 2. Its archives' files and every object it owns in media storage (media_objects, a page at a time) are
//    removed through the metered store.
// 3. One transaction keeps the ledger's money facts for accounting (closed_account_ledger: kind, amount,
//    quantity, balance after, reference, time and a purchase's payment, under a random id that names no one;
//    no description, which holds what the player wrote) and deletes the user's row: every other row of the
//    account goes with it (each table's user_id is ON DELETE CASCADE), share links included, so another
//    person's link to the account's stories answers 404 from then on.
// 4. A file stored while this ran (a picture a job finished meanwhile) is found in that transaction and
//    removed after it; a store after it is refused (its quota row can no longer name the user).
//
// closeAccount does 1-4 without a password: for an administrator's delete (server/src/admin).
import { randomUUID } from "node:crypto";
import { ACCOUNT_DELETED_MESSAGE, WRONG_PASSWORD_DETAIL } from "@storyverse/contract/leave";
import {
  type AccountsContext,
  deleteUserRow,
  endSessionsEverywhere,
  findUserById,
  verifyPassword,
} from "../accounts";
import { forgetAccountInAudit } from "../audit";
import type { AppContext } from "../context";
import { accountLedgerCount, closeLedger } from "../credits";
import { ownedObjectKeysPage } from "../media";
import { paidCheckouts } from "../payments";
import { Forbidden, NotAuthenticated } from "../platform/errors";
import { accountExportKeys } from "./repo";

/** Objects removed per page; also the most a deleting transaction collects of files stored meanwhile. */
export const DELETE_PAGE = 200;

type LeaveDeleteContext = Pick<AccountsContext, "db" | "clock" | "notify" | "sessions"> &
  Pick<AppContext, "storage" | "log">;

/** Each try checks the password or begins a fresh sign-in at the provider: as few as sign-in allows guesses. */
export const ACCOUNT_DELETE_RULE = { name: "account-delete-user", limit: 5, windowMs: 15 * 60_000 };

/**
 * How the player confirmed deleting their own account: the current password (DELETE /api/account), or a
 * fresh sign-in at the OIDC provider as the provider account linked to it, which the oidc module checked
 * (auth_time, subject, the session that began it: decision 0158).
 */
export type DeleteConfirmation = { password: string } | { freshSignIn: { issuer: string; subject: string } };

/** The player deletes their own account; a wrong password is refused (403) with nothing deleted. */
export async function deleteOwnAccount(
  ctx: LeaveDeleteContext,
  userId: string,
  confirmation: DeleteConfirmation,
) {
  const row = await findUserById(ctx.db, userId);
  if (!row) throw new NotAuthenticated();
  if ("password" in confirmation && !(await verifyPassword(row.passwordHash, confirmation.password))) {
    throw new Forbidden(WRONG_PASSWORD_DETAIL);
  }
  if ("freshSignIn" in confirmation) {
    ctx.log.info(
      { userId, issuer: confirmation.freshSignIn.issuer },
      "account deletion confirmed at the provider",
    );
  }
  const closed = await closeAccount(ctx, userId);
  return {
    success: true as const,
    message: ACCOUNT_DELETED_MESSAGE,
    ledger_rows_kept: closed.ledgerRowsKept,
  };
}

async function removeStored(ctx: LeaveDeleteContext, keys: string[]) {
  for (const key of keys) {
    await ctx.storage.delete(key).catch((error: unknown) => {
      ctx.log.warn({ err: error, key }, "a deleted account's file could not be removed");
    });
  }
}

/** Deletes the account and everything it owns but the anonymised ledger; answers how many ledger rows stay. */
export async function closeAccount(
  ctx: LeaveDeleteContext,
  userId: string,
): Promise<{ ledgerRowsKept: number }> {
  // Signed out everywhere, as a password reset does: sessions revoked, every process's cache told, streams closed.
  await endSessionsEverywhere(ctx, userId);

  await removeStored(ctx, await accountExportKeys(ctx.db, userId));
  // Each delete also drops the key's media_objects row, so the next page starts after the last key removed.
  let after: string | null = null;
  for (;;) {
    const keys = await ownedObjectKeysPage(ctx.db, userId, after, DELETE_PAGE);
    await removeStored(ctx, keys);
    if (keys.length < DELETE_PAGE) break;
    after = keys.at(-1)!;
  }

  const payments = await paidCheckouts(ctx.db, userId);
  const ledgerRowsKept = await accountLedgerCount(ctx.db, userId);
  const closedAt = ctx.clock.now();
  const straggling = await ctx.db.transaction(async (tx) => {
    await closeLedger(tx, userId, randomUUID(), closedAt, payments);
    // The audit log keeps what administrators did to the account, no longer naming it (decision 0140).
    await forgetAccountInAudit({ db: tx }, userId);
    const keys = [
      ...(await ownedObjectKeysPage(tx, userId, null, DELETE_PAGE)),
      ...(await accountExportKeys(tx, userId)),
    ];
    await deleteUserRow(tx, userId);
    return keys;
  });
  await removeStored(ctx, straggling);
  ctx.log.info({ userId, ledgerRowsKept }, "account deleted");
  return { ledgerRowsKept };
}
