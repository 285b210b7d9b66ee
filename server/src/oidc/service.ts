// Sign-in by OIDC (issue 44 item 2, decision 0146): discovery, the authorization code flow with PKCE, state
// and nonce, the ID token checked by openid-client, accounts found by (issuer, subject), linked by verified
// email only after the player's password, created when auto-registration is on, refused outside the allowed
// domains or when disabled; a group claim makes an administrator. The session that follows is the app's own.
// The same flow, begun by a signed-in account with a forced fresh login, confirms that account's deletion
// (decision 0158).
import {
  type AuthResponse,
  OIDC_REFUSALS,
  type OidcRefusal,
  oidcNotLinkedMessage,
} from "@storyverse/contract/accounts";
import {
  FRESH_SIGN_IN_SECONDS,
  OIDC_DELETE_REFUSALS,
  type OidcDeleteRefusal,
} from "@storyverse/contract/leave";
import { and, eq, lt, sql } from "drizzle-orm";
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as client from "openid-client";
import {
  AccountDisabled,
  type AccountsContext,
  accountByEmail,
  accountById,
  digestToken,
  type LoginGuard,
  login,
  logout,
  markEmailVerified,
  newToken,
  registerVerified,
  sessionIsLive,
  startSession,
  type UserRow,
} from "../accounts";
import { type AdminContext, makeAdminByClaim } from "../admin/index";
import type { OidcConfig } from "../config";
import type { AppContext } from "../context";
import { oidcIdentities, oidcLinks, oidcLogins, oidcSessions } from "../db/schema";
import { deleteOwnAccount } from "../leave";
import { DomainError, Forbidden, InvalidInput, NotAuthenticated } from "../platform/errors";

/** How long a sign-in may take at the provider, and a link may wait for the password. */
const LOGIN_TTL_MS = 10 * 60 * 1000;
const LINK_TTL_MS = 15 * 60 * 1000;
const BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout";

export type OidcContext = AccountsContext & AdminContext & { oidc: OidcConfig };
/** A deletion also removes the account's stored files. */
export type OidcDeleteContext = OidcContext & Pick<AppContext, "storage" | "log">;

/** A refused sign-in, with the reason the web app words itself (decision 0147). */
function refused(
  code: "invalid_request" | "not_authenticated" | "forbidden",
  reason: OidcRefusal,
  detail: string,
): DomainError {
  return new DomainError(code, detail, { extra: { reason } });
}

/** The refusal a sign-in error stands for, if it is one of finishSignIn's. */
export function refusalOf(error: DomainError): OidcRefusal | undefined {
  const reason = error.options.extra?.reason;
  return OIDC_REFUSALS.find((known) => known === reason);
}

/** The refusal a deletion's error stands for (finishDeleteAccount's), if it is one. */
export function deleteRefusalOf(error: DomainError): OidcDeleteRefusal | undefined {
  const reason = error.options.extra?.reason;
  return OIDC_DELETE_REFUSALS.find((known) => known === reason);
}

/** A refused deletion, with the reason the web app words itself; nothing was deleted. */
function deleteRefused(
  code: "invalid_request" | "not_authenticated" | "forbidden",
  reason: OidcDeleteRefusal,
  detail: string,
): DomainError {
  return new DomainError(code, `${detail} Nothing was deleted.`, { extra: { reason } });
}

/** Each provider's discovered metadata, once per process (a failed discovery is tried again next time). */
const discovered = new Map<string, Promise<client.Configuration>>();
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function providerConfiguration(oidc: OidcConfig): Promise<client.Configuration> {
  const key = `${oidc.issuerUrl}|${oidc.clientId}|${oidc.clientSecret ?? ""}`;
  let found = discovered.get(key);
  if (!found) {
    const insecure = new URL(oidc.issuerUrl).protocol === "http:";
    found = client.discovery(
      new URL(oidc.issuerUrl),
      oidc.clientId,
      oidc.clientSecret,
      oidc.clientSecret ? client.ClientSecretBasic(oidc.clientSecret) : client.None(),
      // http only for a local provider: the config refuses it when APP_ENV=production.
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

/** What a sign-in under way is for: signing in, or confirming a signed-in account's deletion (decision 0158). */
export type OidcPurpose = "sign_in" | "delete_account";

/** The account, and its app session, that began a deletion at the provider. */
type DeleteBinding = { userId: string; sessionTokenHash: string };

/** Starts a sign-in: the provider's authorization URL and the state the browser's cookie must carry back. */
export async function beginSignIn(
  ctx: OidcContext,
  deleting?: DeleteBinding,
): Promise<{ url: string; state: string }> {
  const config = await providerConfiguration(ctx.oidc);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const now = ctx.clock.now();
  await ctx.db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, now));
  await ctx.db.insert(oidcLogins).values({
    state,
    nonce,
    codeVerifier,
    expiresAt: new Date(now.getTime() + LOGIN_TTL_MS),
    ...(deleting && {
      purpose: "delete_account" as const,
      userId: deleting.userId,
      sessionTokenHash: deleting.sessionTokenHash,
    }),
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: ctx.oidc.redirectUrl,
    scope: ctx.oidc.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    // A deletion asks the provider to sign the person in again, whatever session it holds; the callback
    // still checks auth_time, since a provider may ignore both.
    ...(deleting && { prompt: "login", max_age: "0" }),
  });
  return { url: url.href, state };
}

/** Whether the account signs in through the provider (a linked provider account): it may confirm there. */
export async function linkedToProvider(ctx: Pick<OidcContext, "db">, userId: string): Promise<boolean> {
  const [identity] = await ctx.db
    .select({ userId: oidcIdentities.userId })
    .from(oidcIdentities)
    .where(eq(oidcIdentities.userId, userId))
    .limit(1);
  return identity !== undefined;
}

/** A deletion's start: refused for an account no provider account is linked to. */
export async function beginDeleteAccount(
  ctx: OidcContext,
  binding: DeleteBinding,
): Promise<{ url: string; state: string }> {
  if (!(await linkedToProvider(ctx, binding.userId))) {
    throw new Forbidden(oidcNotLinkedMessage(ctx.oidc.providerName));
  }
  return beginSignIn(ctx, binding);
}

/** What a finished callback leads to: a session, or the link screen asking for the account's password. */
type SignInOutcome =
  | { kind: "signed_in"; auth: AuthResponse }
  | { kind: "link"; token: string; email: string };

type ProviderAccount = {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  admin: boolean;
  sid: string | undefined;
  idToken: string;
};

type Exchanged = {
  login: typeof oidcLogins.$inferSelect;
  config: client.Configuration;
  tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
};

type Refuse = (
  code: "invalid_request" | "not_authenticated" | "forbidden",
  reason: "provider_error" | "state_mismatch" | "untrusted_answer",
  detail: string,
) => DomainError;

/**
 * The provider's answer at the redirect URL: the state must be the one this browser's cookie holds and one
 * this server began for this purpose (used once); openid-client then checks the code exchange (PKCE), the
 * ID token's signature, issuer, audience, expiry and nonce.
 */
async function exchange(
  ctx: OidcContext,
  callbackQuery: string,
  cookieState: string | undefined,
  purpose: OidcPurpose,
  refuse: Refuse,
): Promise<Exchanged> {
  const params = new URLSearchParams(callbackQuery);
  const state = params.get("state");
  if (params.get("error")) {
    throw refuse(
      "invalid_request",
      "provider_error",
      `${ctx.oidc.providerName} did not sign you in: ${params.get("error_description") ?? params.get("error")}`,
    );
  }
  if (!state || !cookieState || state !== cookieState) {
    throw refuse(
      "invalid_request",
      "state_mismatch",
      "This sign-in was not started in this browser, or it has expired. Please try again.",
    );
  }
  const [login] = await ctx.db.delete(oidcLogins).where(eq(oidcLogins.state, state)).returning();
  if (!login || login.expiresAt <= ctx.clock.now() || login.purpose !== purpose) {
    throw refuse(
      "invalid_request",
      "state_mismatch",
      "This sign-in was not started in this browser, or it has expired. Please try again.",
    );
  }
  const config = await providerConfiguration(ctx.oidc);
  const callbackUrl = new URL(ctx.oidc.redirectUrl);
  callbackUrl.search = params.toString();
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    return { login, config, tokens };
  } catch (error) {
    throw refuse(
      "not_authenticated",
      "untrusted_answer",
      `${ctx.oidc.providerName}'s answer could not be trusted (${(error as Error).message}). Please try again.`,
    );
  }
}

/** The provider's answer to a sign-in: a session, the link screen, or a refusal (decision 0146). */
export async function finishSignIn(
  ctx: OidcContext,
  callbackQuery: string,
  cookieState: string | undefined,
): Promise<SignInOutcome> {
  const { config, tokens } = await exchange(ctx, callbackQuery, cookieState, "sign_in", refused);
  const claims = tokens.claims()!;
  let merged: Record<string, unknown> = { ...claims };
  if (tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    merged = { ...info, ...claims };
  }
  const account: ProviderAccount = {
    issuer: claims.iss,
    subject: claims.sub,
    email: typeof merged.email === "string" ? merged.email.trim() : undefined,
    emailVerified: merged.email_verified === true,
    admin: inAdminGroup(ctx.oidc, merged[ctx.oidc.groupsClaim]),
    sid: typeof claims.sid === "string" ? claims.sid : undefined,
    idToken: tokens.id_token!,
  };
  return signInWith(ctx, account, nameHint(merged));
}

/**
 * The provider's answer to a deletion begun by a signed-in account (decision 0158). Besides the sign-in's
 * checks: the session that began it is still live, the ID token names the provider account linked to that
 * very account (another person's, or one linked elsewhere, deletes nothing), and the provider signed the
 * person in within FRESH_SIGN_IN_SECONDS (auth_time; a provider that reused its session is refused). Then
 * the account is deleted as DELETE /api/account deletes it.
 */
export async function finishDeleteAccount(
  ctx: OidcDeleteContext,
  callbackQuery: string,
  cookieState: string | undefined,
): Promise<{ ledgerRowsKept: number }> {
  const { login, tokens } = await exchange(ctx, callbackQuery, cookieState, "delete_account", deleteRefused);
  const claims = tokens.claims()!;
  if (!login.userId || !login.sessionTokenHash || !(await sessionIsLive(ctx, login.sessionTokenHash))) {
    throw deleteRefused(
      "not_authenticated",
      "session_ended",
      "You were signed out before the confirmation came back.",
    );
  }
  const [identity] = await ctx.db
    .select()
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.issuer, claims.iss), eq(oidcIdentities.subject, claims.sub)));
  if (!identity || identity.userId !== login.userId) {
    throw deleteRefused(
      "forbidden",
      "other_account",
      `You signed in at ${ctx.oidc.providerName} as someone else than this account.`,
    );
  }
  const authTime = claims.auth_time;
  const age = typeof authTime === "number" ? ctx.clock.now().getTime() / 1000 - authTime : Number.NaN;
  // A small allowance for clocks that disagree; NaN (no auth_time) fails both comparisons.
  if (!(age <= FRESH_SIGN_IN_SECONDS && age >= -FRESH_SIGN_IN_SECONDS)) {
    throw deleteRefused(
      "forbidden",
      "stale_sign_in",
      `${ctx.oidc.providerName} did not ask you to sign in again just now.`,
    );
  }
  const deleted = await deleteOwnAccount(ctx, login.userId, {
    freshSignIn: { issuer: claims.iss, subject: claims.sub },
  });
  return { ledgerRowsKept: deleted.ledger_rows_kept };
}

function inAdminGroup(oidc: OidcConfig, claim: unknown): boolean {
  if (oidc.adminGroups.length === 0) return false;
  const groups = Array.isArray(claim) ? claim : typeof claim === "string" ? claim.split(/[\s,]+/) : [];
  return groups.some((group) => typeof group === "string" && oidc.adminGroups.includes(group.toLowerCase()));
}

function nameHint(claims: Record<string, unknown>): string {
  for (const key of ["preferred_username", "nickname", "email"]) {
    const value = claims[key];
    if (typeof value === "string" && value) return value.split("@")[0]!;
  }
  return "player";
}

function refuseDomain(ctx: OidcContext, email: string | undefined): void {
  if (ctx.oidc.allowedDomains.length === 0) return;
  const domain = email?.split("@").pop()?.toLowerCase();
  if (!domain || !ctx.oidc.allowedDomains.includes(domain)) {
    throw refused(
      "forbidden",
      "domain_not_allowed",
      `Sign-in with ${ctx.oidc.providerName} is open to addresses at ${ctx.oidc.allowedDomains.join(", ")} only.`,
    );
  }
}

async function signInWith(ctx: OidcContext, account: ProviderAccount, hint: string): Promise<SignInOutcome> {
  refuseDomain(ctx, account.email);
  const [identity] = await ctx.db
    .select()
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.issuer, account.issuer), eq(oidcIdentities.subject, account.subject)));
  if (identity) {
    const row = await accountById(ctx, identity.userId);
    if (!row) throw new NotAuthenticated();
    return { kind: "signed_in", auth: await sessionFor(ctx, row, account) };
  }
  if (!account.email || !account.emailVerified) {
    throw refused(
      "forbidden",
      "email_unverified",
      `${ctx.oidc.providerName} did not give a verified email address for your account, so it cannot be used to sign in here.`,
    );
  }
  const existing = await accountByEmail(ctx, account.email);
  if (existing) {
    if (existing.disabledAt !== null) throw new AccountDisabled();
    // Linked only with the player's consent: the account's password, once (decision 0146).
    const token = newToken();
    const now = ctx.clock.now();
    await ctx.db.delete(oidcLinks).where(lt(oidcLinks.expiresAt, now));
    await ctx.db.insert(oidcLinks).values({
      tokenHash: digestToken(token),
      userId: existing.id,
      issuer: account.issuer,
      subject: account.subject,
      sid: account.sid ?? null,
      idToken: account.idToken,
      admin: account.admin,
      expiresAt: new Date(now.getTime() + LINK_TTL_MS),
    });
    return { kind: "link", token, email: existing.email };
  }
  if (!ctx.oidc.autoRegister) {
    throw refused(
      "forbidden",
      "registration_off",
      `There is no account for ${account.email} here, and new accounts are not opened by ${ctx.oidc.providerName} sign-in. Please ask the site's administrator.`,
    );
  }
  const row = await registerVerified(ctx, account.email, hint);
  await ctx.db
    .insert(oidcIdentities)
    .values({ issuer: account.issuer, subject: account.subject, userId: row.id, createdAt: ctx.clock.now() });
  return { kind: "signed_in", auth: await sessionFor(ctx, row, account) };
}

/** The app's ordinary session for the account, remembered with the provider session it came from. */
async function sessionFor(
  ctx: OidcContext,
  row: UserRow,
  account: Pick<ProviderAccount, "issuer" | "subject" | "sid" | "idToken" | "admin">,
): Promise<AuthResponse> {
  if (row.disabledAt !== null) throw new AccountDisabled();
  let current = row;
  if (account.admin) {
    current = await makeAdminByClaim(
      ctx,
      { id: null, label: `${ctx.oidc.providerName} group claim` },
      row,
      `A member of ${ctx.oidc.adminGroups.join(", ")} at sign-in`,
    );
  }
  if (current.emailVerifiedAt === null) await markEmailVerified(ctx, current.email);
  const auth = await startSession(ctx, current);
  await ctx.db.insert(oidcSessions).values({
    tokenHash: digestToken(auth.access_token!),
    userId: row.id,
    issuer: account.issuer,
    subject: account.subject,
    sid: account.sid ?? null,
    idToken: account.idToken,
  });
  return auth;
}

/** The link screen's answer: the account's password links the provider account and signs in. */
export async function confirmLink(
  ctx: OidcContext,
  token: string,
  password: string,
  guard: LoginGuard,
): Promise<AuthResponse> {
  const [link] = await ctx.db
    .select()
    .from(oidcLinks)
    .where(eq(oidcLinks.tokenHash, digestToken(token)));
  if (!link || link.expiresAt <= ctx.clock.now()) {
    throw new InvalidInput("This link request has expired. Please sign in again.");
  }
  const row = await accountById(ctx, link.userId);
  if (!row) throw new InvalidInput("This link request has expired. Please sign in again.");
  // The ordinary password check: its failure counts and limits, and the disabled account's answer.
  const checked = await login(ctx, row.email, password, guard);
  if (checked.access_token) await logout(ctx, sessionOf(row, checked.access_token));
  await ctx.db.delete(oidcLinks).where(eq(oidcLinks.tokenHash, link.tokenHash));
  await ctx.db
    .insert(oidcIdentities)
    .values({ issuer: link.issuer, subject: link.subject, userId: row.id, createdAt: ctx.clock.now() })
    .onConflictDoNothing();
  return sessionFor(ctx, row, {
    issuer: link.issuer,
    subject: link.subject,
    sid: link.sid ?? undefined,
    idToken: link.idToken,
    admin: link.admin,
  });
}

const sessionOf = (row: UserRow, token: string) => ({
  id: row.id,
  email: row.email,
  username: row.username,
  sessionTokenHash: digestToken(token),
});

/**
 * Signs this session out; for a session begun at the provider, the provider's end-session URL (RP-initiated
 * logout) to send the browser to, when the provider offers one.
 */
export async function signOut(
  ctx: OidcContext,
  user: { id: string; email: string; username: string; sessionTokenHash: string },
): Promise<string | null> {
  const [session] = await ctx.db
    .delete(oidcSessions)
    .where(eq(oidcSessions.tokenHash, user.sessionTokenHash))
    .returning();
  await logout(ctx, user);
  if (!session) return null;
  const config = await providerConfiguration(ctx.oidc);
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client.buildEndSessionUrl(config, {
    id_token_hint: session.idToken,
    post_logout_redirect_uri: `${new URL(ctx.oidc.redirectUrl).origin}/`,
  }).href;
}

/**
 * Back-channel logout: the provider's signed logout token (its keys, issuer, this client as audience, the
 * logout event, no nonce) ends the app sessions begun in that provider session (sid), or all of the
 * subject's when it names no sid. Answers how many sessions ended.
 */
export async function backchannelLogout(ctx: OidcContext, logoutToken: string): Promise<number> {
  const config = await providerConfiguration(ctx.oidc);
  const metadata = config.serverMetadata();
  if (!metadata.jwks_uri) throw new InvalidInput("The provider publishes no keys.");
  let keys = keySets.get(metadata.jwks_uri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
    keySets.set(metadata.jwks_uri, keys);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(logoutToken, keys, {
      issuer: metadata.issuer,
      audience: ctx.oidc.clientId,
      maxTokenAge: "10m",
      requiredClaims: ["iat", "jti", "events"],
    }));
  } catch (error) {
    throw new InvalidInput(`The logout token is not valid: ${(error as Error).message}`);
  }
  const events = payload.events as Record<string, unknown> | undefined;
  if (!events || typeof events !== "object" || !(BACKCHANNEL_EVENT in events) || "nonce" in payload) {
    throw new InvalidInput("The logout token is not a back-channel logout token.");
  }
  const sid = typeof payload.sid === "string" ? payload.sid : undefined;
  const sub = typeof payload.sub === "string" ? payload.sub : undefined;
  if (!sid && !sub) throw new InvalidInput("The logout token names neither a session nor a subject.");
  const ended = await ctx.db
    .delete(oidcSessions)
    .where(
      and(
        eq(oidcSessions.issuer, metadata.issuer),
        sid ? eq(oidcSessions.sid, sid) : sql`true`,
        sub ? eq(oidcSessions.subject, sub) : sql`true`,
      ),
    )
    .returning();
  for (const session of ended) {
    await logout(ctx, { id: session.userId, email: "", username: "", sessionTokenHash: session.tokenHash });
  }
  return ended.length;
}
