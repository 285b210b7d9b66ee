// Account rules: registration, sign-in, sessions, email verification and password reset.
// Services take plain values and throw typed HTTP errors; routes only translate HTTP.
import {
  type AuthResponse,
  EMAIL_VERIFIED_MESSAGE,
  forgotPasswordMessage,
  LOCALES,
  type Locale,
  type ProfileUpdate,
  RESEND_VERIFICATION_MESSAGE,
  RESET_LINK_TTL_MINUTES,
  type RegisterRequest,
  SIGNED_IN_BY_LINK_MESSAGE,
  type User,
  VERIFY_LINK_TTL_HOURS,
} from "@storyverse/contract/accounts";
import { openAccountWithSignupBonus, remainingCredits } from "../credits";
import { closeSessionStreams, closeUserStreams } from "../events";
import type { Mailer } from "../mail/mailer";
import { passwordResetMail, verificationMail } from "../mail/templates";
import { Conflict, DomainError, Forbidden, InvalidInput, NotAuthenticated } from "../platform/errors";
import { RateLimited, type RateLimiter } from "../platform/rate-limit";
import { sendAccountLinkJob } from "./jobs";
import type { AccountLimits } from "./limits";
import {
  type AccountAdminFields,
  consumeEmailToken,
  findEmailToken,
  findUserByEmail,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  insertEmailToken,
  insertSession,
  insertUser,
  retireEmailTokens,
  revokeAllSessions,
  revokeSession,
  searchUsers,
  sessionSummary,
  setEmailVerified,
  setPasswordHash,
  type TokenPurpose,
  type UserRow,
  updateAccountAdminFields,
} from "./repo";
import { digestToken, hashPassword, newToken, spendPasswordCheckTime, verifyPassword } from "./secrets";
import { announceRevocation } from "./session-cache";
import { type AccountsContext, type AuthenticatedUser, SESSION_TTL_MS } from "./sessions";

const LINK_TTL_MS: Record<TokenPurpose, number> = {
  verify_email: VERIFY_LINK_TTL_HOURS * 60 * 60 * 1000,
  reset_password: RESET_LINK_TTL_MINUTES * 60 * 1000,
};

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";

export async function toUser(ctx: AccountsContext, row: UserRow): Promise<User> {
  return {
    user_id: row.id,
    email: row.email,
    username: row.username,
    email_verified: row.emailVerifiedAt !== null,
    credits_remaining: await remainingCredits(ctx.db, row.id),
    created_at: row.createdAt.toISOString(),
    role: row.role,
    locale: asLocale(row.locale),
  };
}

/** A stored language the app still speaks, or null (a value from a removed translation reads as none). */
export function asLocale(value: string | null): Locale | null {
  return value !== null && (LOCALES as readonly string[]).includes(value) ? (value as Locale) : null;
}

/** The player chose their interface language: kept on the account for every device and for the mails. */
export async function updateProfile(
  ctx: AccountsContext,
  userId: string,
  update: ProfileUpdate,
): Promise<User> {
  const row = await updateAccountAdminFields(ctx.db, userId, { locale: update.locale });
  if (!row) throw new NotAuthenticated();
  return toUser(ctx, row);
}

/** An administrator disabled the account: it cannot sign in (decision 0140). */
export class AccountDisabled extends DomainError {
  constructor() {
    super("account_disabled", "This account has been disabled. Please contact the site's administrator.");
  }
}

/** Sign-in with the right password while an administrator requires a new one (decision 0150). */
export const PASSWORD_RESET_REQUIRED_MESSAGE =
  "An administrator has asked you to set a new password. Use the link we emailed you, or choose Forgot password for a new one.";

async function authResponse(
  ctx: AccountsContext,
  row: UserRow,
  accessToken: string | null,
): Promise<AuthResponse> {
  const user = await toUser(ctx, row);
  return {
    access_token: accessToken,
    token_type: "bearer",
    user_id: user.user_id,
    email: user.email,
    username: user.username,
    requires_verification: accessToken === null,
    email_verified: user.email_verified,
    credits_remaining: user.credits_remaining,
  };
}

const needsVerification = (ctx: AccountsContext, row: UserRow) =>
  ctx.config.requireEmailVerification && row.emailVerifiedAt === null;

async function createSession(ctx: AccountsContext, userId: string): Promise<string> {
  const token = newToken();
  const now = ctx.clock.now();
  await insertSession(ctx.db, {
    userId,
    tokenHash: digestToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  return token;
}

/** A new session for an account another way has signed in (OIDC, decision 0146): the ordinary answer and token. */
export async function startSession(ctx: AccountsContext, row: UserRow): Promise<AuthResponse> {
  return authResponse(ctx, row, await createSession(ctx, row.id));
}

/**
 * An account for an address another way has verified (OIDC, decision 0146): a free username near `hint`, a
 * password nobody knows (a reset by mail can set one), the sign-up bonus.
 */
export async function registerVerified(ctx: AccountsContext, email: string, hint: string): Promise<UserRow> {
  const base = (hint.replace(/[^A-Za-z0-9_.-]/g, "") || "player").slice(0, 25);
  const stem = base.length >= 3 ? base : `${base}player`;
  let username = stem;
  for (let attempt = 0; await findUserByUsername(ctx.db, username); attempt++) {
    if (attempt >= 20) throw new Conflict("No free username could be found. Please try again.");
    username = `${stem}-${Math.floor(1000 + Math.random() * 9000)}`;
  }
  const passwordHash = await hashPassword(newToken());
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        email,
        username,
        passwordHash,
        createdAt: now,
        emailVerifiedAt: now,
      });
      await openAccountWithSignupBonus(tx, user.id, now);
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new Conflict("That email or username was just taken. Please try again.");
    throw error;
  }
}

export async function register(ctx: AccountsContext, input: RegisterRequest): Promise<AuthResponse> {
  if (await findUserByEmail(ctx.db, input.email)) {
    throw new Conflict("An account with this email already exists. Try signing in instead.");
  }
  if (await findUserByUsername(ctx.db, input.username)) {
    throw new Conflict(`Username '${input.username}' is already taken`);
  }
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  let row: UserRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        email: input.email,
        username: input.username,
        passwordHash,
        createdAt: now,
        locale: input.locale ?? null,
      });
      await openAccountWithSignupBonus(tx, user.id, now);
      return user;
    });
  } catch (error) {
    // Two sign-ups racing for the same name: the unique index decides, the loser gets a clear 409.
    if (isUniqueViolation(error))
      throw new Conflict("That email or username was just taken. Please choose another.");
    throw error;
  }
  await ctx.jobs.send(sendAccountLinkJob, { purpose: "verify_email", email: row.email });
  const token = needsVerification(ctx, row) ? null : await createSession(ctx, row.id);
  return authResponse(ctx, row, token);
}

/** Where a sign-in comes from, for the failure counts that guard accounts against guessing. */
export type LoginGuard = { limiter: RateLimiter; address: string; limits: AccountLimits };

/**
 * Failures count per user id (email and username name one account) and per address. An account with many
 * recent failures only refuses addresses that have failed themselves: a stranger guessing from elsewhere
 * cannot lock the owner out, while each guessing address is cut off after its first wrong try. Past a second,
 * higher count (guessers with many addresses) it refuses every address that has not signed in to it
 * recently: the owner still gets in from a device they used before, or after using a reset link.
 *
 * Each guess takes its place in both counts atomically before the password is checked (decision 0124): a
 * burst sent at once sees the places taken by the guesses still being checked, so no more guesses are judged
 * than the counts allow however many are in flight. A refused guess and a right password give their places
 * back (neither is a failure); a wrong one keeps them.
 */
export async function login(
  ctx: AccountsContext,
  loginName: string,
  password: string,
  guard?: LoginGuard,
): Promise<AuthResponse> {
  const row = await findUserByLogin(ctx.db, loginName);
  const places = guard ? await takeFailurePlaces(guard, row?.id) : undefined;
  const ok = row ? await verifyPassword(row.passwordHash, password) : await spendPasswordCheckTime(password);
  if (!row || !ok) throw new NotAuthenticated("Incorrect email, username or password.");
  await places?.giveBack();
  // Said only to whoever knows the password, so a guesser learns nothing of the account.
  if (row.disabledAt !== null) throw new AccountDisabled();
  if (row.passwordResetRequiredAt !== null) throw new Forbidden(PASSWORD_RESET_REQUIRED_MESSAGE);
  if (guard) await guard.limiter.remember(guard.limits.loginKnownAddress, `${row.id}|${guard.address}`);
  const token = needsVerification(ctx, row) ? null : await createSession(ctx, row.id);
  return authResponse(ctx, row, token);
}

/**
 * Takes this guess's places in the address's and the account's failure counts, then applies the account's
 * rules to the places taken before it; a refused guess gives its places back and throws RateLimited. An
 * unknown account has only the address's count (decision 0004: it answers as a wrong password does).
 */
async function takeFailurePlaces(guard: LoginGuard, userId: string | undefined) {
  const { limiter, limits, address } = guard;
  const [fromAddress, onAccount] = await Promise.all([
    limiter.reserve(limits.loginFailuresPerAddress, address),
    userId ? limiter.reserve(limits.loginFailuresPerAccount, userId) : undefined,
  ]);
  const giveBack = async () => {
    await Promise.all([
      limiter.release(limits.loginFailuresPerAddress, address),
      userId ? limiter.release(limits.loginFailuresPerAccount, userId) : undefined,
    ]);
  };
  if (userId && onAccount && onAccount.before >= limits.loginFailuresPerAccount.limit) {
    let refusal: RateLimited | undefined;
    if (fromAddress.before > 0) refusal = new RateLimited(onAccount.retryAfterSeconds);
    else if (
      onAccount.before >= limits.loginFailuresPerAccountStrangers.limit &&
      (await limiter.peek(limits.loginKnownAddress, `${userId}|${address}`)).count === 0
    ) {
      refusal = new RateLimited(onAccount.retryAfterSeconds, limits.loginFailuresPerAccountStrangers.detail);
    }
    if (refusal) {
      await giveBack();
      throw refusal;
    }
  }
  return { giveBack };
}

export async function logout(ctx: AccountsContext, user: AuthenticatedUser): Promise<void> {
  await revokeSession(ctx.db, user.sessionTokenHash, ctx.clock.now());
  ctx.sessions?.evict(user.sessionTokenHash);
  // Caches first, streams second: a stream opened with a session a process still had cached is closed by
  // the notice that follows (and the stream route checks the database once its stream is registered).
  await announceRevocation(ctx.notify, { tokenHash: user.sessionTokenHash });
  await closeSessionStreams(ctx, user.sessionTokenHash);
}

/**
 * Signs the user out on every device and process at once: revokes every session (unless the caller's own
 * transaction already did: `revoked`), evicts them from this process's cache, announces the revocation to
 * every other process's cache and closes the user's event streams everywhere.
 */
export async function endSessionsEverywhere(
  ctx: Pick<AccountsContext, "db" | "clock" | "notify" | "sessions">,
  userId: string,
  options: { revoked?: boolean } = {},
): Promise<void> {
  if (!options.revoked) await revokeAllSessions(ctx.db, userId, ctx.clock.now());
  ctx.sessions?.evictUser(userId);
  await announceRevocation(ctx.notify, { userId });
  await closeUserStreams(ctx, userId);
}

export async function getUser(ctx: AccountsContext, userId: string): Promise<User> {
  const row = await findUserById(ctx.db, userId);
  if (!row) throw new NotAuthenticated();
  return toUser(ctx, row);
}

export async function usernameAvailability(ctx: AccountsContext, username: string) {
  const taken = Boolean(await findUserByUsername(ctx.db, username));
  return {
    available: !taken,
    message: taken ? `Username '${username}' is already taken` : `Username '${username}' is available`,
  };
}

export async function emailAvailability(ctx: AccountsContext, email: string) {
  const taken = Boolean(await findUserByEmail(ctx.db, email));
  return {
    available: !taken,
    message: taken ? `Email '${email}' is already registered` : `Email '${email}' is available`,
  };
}

/**
 * Same answer and the same work whether or not the account exists; the job does the rest. With
 * `sendMail: false` (the account's mail allowance is spent) nothing is sent and the last link stays live.
 */
export async function requestPasswordReset(ctx: AccountsContext, email: string, sendMail = true) {
  if (sendMail) await ctx.jobs.send(sendAccountLinkJob, { purpose: "reset_password", email });
  return { success: true as const, message: forgotPasswordMessage(email) };
}

export async function resendVerification(ctx: AccountsContext, email: string, sendMail = true) {
  if (sendMail) await ctx.jobs.send(sendAccountLinkJob, { purpose: "verify_email", email });
  return { success: true as const, message: RESEND_VERIFICATION_MESSAGE };
}

/** Job: create a fresh link (retiring older ones) and mail it, if the account exists and needs it. */
export async function sendAccountLink(
  ctx: AccountsContext & { mailer: Mailer },
  purpose: TokenPurpose,
  email: string,
): Promise<void> {
  const row = await findUserByEmail(ctx.db, email);
  if (!row) return;
  if (purpose === "verify_email" && row.emailVerifiedAt !== null) return;
  const token = newToken();
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await retireEmailTokens(tx, row.id, purpose, now);
    await insertEmailToken(tx, {
      userId: row.id,
      purpose,
      tokenHash: digestToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + LINK_TTL_MS[purpose]),
    });
  });
  const mail =
    purpose === "verify_email"
      ? verificationMail(ctx.config.appUrl, row.email, row.username, token, asLocale(row.locale))
      : passwordResetMail(ctx.config.appUrl, row.email, row.username, token, asLocale(row.locale));
  await ctx.mailer.send(mail);
}

async function useLink(ctx: AccountsContext, purpose: TokenPurpose, token: string) {
  const what = purpose === "verify_email" ? "verification" : "reset";
  const row = await findEmailToken(ctx.db, digestToken(token), purpose);
  const now = ctx.clock.now();
  if (!row || row.usedAt !== null) {
    throw new InvalidInput(
      `This ${what} link is invalid or has already been used. Please request a new one.`,
    );
  }
  if (row.expiresAt <= now) {
    throw new InvalidInput(`This ${what} link has expired. Please request a new one.`);
  }
  if (!(await consumeEmailToken(ctx.db, row.id, now))) {
    throw new InvalidInput(
      `This ${what} link is invalid or has already been used. Please request a new one.`,
    );
  }
  return row;
}

/**
 * Uses a verification link. `signedUpHere` says whether the request comes from the browser that signed the
 * link's account up (decision 0153): that browser is signed in too, unless the account is disabled or must
 * set a new password.
 */
export async function verifyEmail(
  ctx: AccountsContext,
  token: string,
  signedUpHere: (userId: string) => boolean = () => false,
) {
  const link = await useLink(ctx, "verify_email", token);
  await setEmailVerified(ctx.db, link.userId, ctx.clock.now());
  // The address goes back to whoever used the link: the mail reached them there, so it is theirs to see.
  const row = await findUserById(ctx.db, link.userId);
  const answer = { success: true as const, message: EMAIL_VERIFIED_MESSAGE, email: row?.email };
  if (!row || !signedUpHere(row.id) || row.disabledAt !== null || row.passwordResetRequiredAt !== null) {
    return answer;
  }
  return { ...answer, message: SIGNED_IN_BY_LINK_MESSAGE, session: await startSession(ctx, row) };
}

export async function resetPassword(
  ctx: AccountsContext,
  token: string,
  password: string,
  /** Where the link was used: that address proved the mailbox, so the account's sign-in knows it. */
  guard?: LoginGuard,
) {
  // The link is checked and used up before the (costly) hash, so bogus tokens cost a lookup only.
  const link = await useLink(ctx, "reset_password", token);
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await setPasswordHash(tx, link.userId, passwordHash);
    // Whoever had the old password is signed out everywhere.
    await revokeAllSessions(tx, link.userId, now);
    // The link arrived by mail, which proves the address.
    await setEmailVerified(tx, link.userId, now);
  });
  await endSessionsEverywhere(ctx, link.userId, { revoked: true });
  if (guard) await guard.limiter.remember(guard.limits.loginKnownAddress, `${link.userId}|${guard.address}`);
  const row = await findUserById(ctx.db, link.userId);
  return {
    success: true as const,
    message: "Your password has been reset. You can now sign in with it.",
    email: row?.email,
  };
}

/** Admin CLI: mark an address verified without a mail round trip. */
export async function markEmailVerified(
  ctx: Pick<AccountsContext, "db" | "clock">,
  email: string,
): Promise<boolean> {
  const row = await findUserByEmail(ctx.db, email);
  if (!row) return false;
  await setEmailVerified(ctx.db, row.id, ctx.clock.now());
  return true;
}

/** A user's public name, for pages the owner chose to sign (never the email). */
export async function publicUsername(
  ctx: Pick<AccountsContext, "db">,
  userId: string,
): Promise<string | null> {
  const row = await findUserById(ctx.db, userId);
  return row?.username ?? null;
}

// --- What the admin module reads and changes of an account (decision 0140) ---

export type { AccountAdminFields, UserRow };

/** An account's row by id (the per-process cache, kept current by every process's writes). */
export function accountById(ctx: Pick<AccountsContext, "db">, userId: string) {
  return findUserById(ctx.db, userId);
}

/** An account's row by email, or undefined. */
export function accountByEmail(ctx: Pick<AccountsContext, "db">, email: string) {
  return findUserByEmail(ctx.db, email);
}

/** One page of accounts, newest first, matching part of an email or username or a whole id. */
export function searchAccounts(
  ctx: Pick<AccountsContext, "db">,
  search: string | undefined,
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
) {
  return searchUsers(ctx.db, search, after, limit);
}

/** Live sessions, and when the account was last seen (a session created or extended, within the hour). */
export async function accountSessions(ctx: Pick<AccountsContext, "db" | "clock">, userId: string) {
  const summary = await sessionSummary(ctx.db, userId, ctx.clock.now());
  return {
    live: summary.live,
    lastSeenAt: summary.lastExpiry ? new Date(summary.lastExpiry.getTime() - SESSION_TTL_MS) : null,
  };
}

/**
 * An administrator requires a new password (decision 0150): the old one no longer signs in, every session and
 * event stream ends at once, and a reset link is mailed through the usual job. Answers how many sessions ended.
 */
export async function requirePasswordReset(ctx: AccountsContext, userId: string): Promise<number> {
  const row = await updateAccountAdminFields(ctx.db, userId, { passwordResetRequiredAt: ctx.clock.now() });
  if (!row) return 0;
  const { live } = await accountSessions(ctx, userId);
  await endSessionsEverywhere(ctx, userId);
  await ctx.jobs.send(sendAccountLinkJob, { purpose: "reset_password", email: row.email });
  return live;
}

/**
 * Applies an administrator's changes to an account. Disabling it also ends its sessions and event streams on
 * every process at once; the account's sign-in refuses it until it is enabled again.
 */
export async function changeAccount(
  ctx: Pick<AccountsContext, "db" | "clock" | "notify" | "sessions">,
  userId: string,
  fields: AccountAdminFields,
): Promise<UserRow | undefined> {
  const row = await updateAccountAdminFields(ctx.db, userId, fields);
  if (row && fields.disabledAt) await endSessionsEverywhere(ctx, userId);
  return row;
}
