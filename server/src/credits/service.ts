// Credits: balances in tenths with an append-only ledger. This module owns every change to a balance.
import { NEW_ACCOUNT_CREDITS } from "@storyverse/contract/accounts";
import type { Queryable } from "../db/client";
import { findAccount, insertAccount, insertTransaction } from "./repo";

export const UNLIMITED = -1;

export const toTenths = (credits: number) => Math.round(credits * 10);
export const fromTenths = (tenths: number) => tenths / 10;

/** Opens a new user's account with the free signup credits; call inside the registration transaction. */
export async function openAccountWithSignupBonus(q: Queryable, userId: string, at: Date): Promise<void> {
  const tenths = toTenths(NEW_ACCOUNT_CREDITS);
  await insertAccount(q, userId, tenths, at);
  await insertTransaction(q, {
    userId,
    transactionType: "signup_bonus",
    amountTenths: tenths,
    balanceAfterTenths: tenths,
    description: `${NEW_ACCOUNT_CREDITS} free credits for joining`,
    createdAt: at,
  });
}

/** Remaining credits as the API reports them: a number with decimals kept, or -1 for unlimited. */
export async function remainingCredits(q: Queryable, userId: string): Promise<number> {
  const account = await findAccount(q, userId);
  if (!account) return 0;
  return account.unlimited ? UNLIMITED : fromTenths(account.balanceTenths);
}
