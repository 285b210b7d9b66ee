// Reading a session: the bearer token to its user, with the process's session cache, and the accounts
// context that carries it. Apart from the account service so that the HTTP edge's auth hook can use it
// without loading the services behind accounts (credits, events), whose routes use that hook.
import type { Config } from "../config";
import type { Queryable } from "../db/client";
import type { JobQueue } from "../jobs/queue";
import type { Clock } from "../platform/clock";
import type { Notifier } from "../platform/notify";
import { extendSession, findLiveSession } from "./repo";
import { digestToken } from "./secrets";
import type { SessionCache } from "./session-cache";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry is pushed forward at most this often, so reads don't turn into writes. */
const SESSION_EXTEND_EVERY_MS = 60 * 60 * 1000;

export type AccountsContext = {
  db: Queryable;
  clock: Clock;
  jobs: JobQueue;
  config: Pick<
    Config,
    | "appUrl"
    | "requireEmailVerification"
    | "signupsPerAddressPerHour"
    | "addressLimitsFactor"
    | "sessionSecret"
  >;
  /** Tells every process's session cache about a revocation. */
  notify: Pick<Notifier, "publish">;
  /** Present in the HTTP app; workers and the admin CLI do without. */
  sessions?: SessionCache;
};

export type AuthenticatedUser = { id: string; email: string; username: string; sessionTokenHash: string };

/** The signed-in user for a bearer token, or undefined; slides the session's expiry forward. */
export async function authenticate(
  ctx: AccountsContext,
  token: string,
): Promise<AuthenticatedUser | undefined> {
  const tokenHash = digestToken(token);
  const cached = ctx.sessions?.get(tokenHash);
  if (cached) return { ...cached, sessionTokenHash: tokenHash };
  const lookup = async () => {
    const readAt = ctx.sessions?.generation() ?? 0;
    const now = ctx.clock.now();
    const found = await findLiveSession(ctx.db, tokenHash, now);
    if (!found) return undefined;
    const renewedExpiry = now.getTime() + SESSION_TTL_MS;
    let expiresAt = found.session.expiresAt;
    if (renewedExpiry - expiresAt.getTime() > SESSION_EXTEND_EVERY_MS) {
      expiresAt = new Date(renewedExpiry);
      await extendSession(ctx.db, found.session.id, expiresAt);
    }
    const user = { id: found.user.id, email: found.user.email, username: found.user.username };
    ctx.sessions?.set(tokenHash, user, expiresAt, readAt);
    return user;
  };
  const user = await (ctx.sessions ? ctx.sessions.share(tokenHash, lookup) : lookup());
  return user && { ...user, sessionTokenHash: tokenHash };
}

/** Whether the session is live in the database right now (no cache): the event stream's check after registering. */
export async function sessionIsLive(ctx: Pick<AccountsContext, "db" | "clock">, tokenHash: string) {
  return (await findLiveSession(ctx.db, tokenHash, ctx.clock.now())) !== undefined;
}
