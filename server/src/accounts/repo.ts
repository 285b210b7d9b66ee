// SQL for users, sessions and mail tokens.
import { and, asc, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { preparedPerHandle } from "../db/prepared";
import { emailTokens, sessions, users } from "../db/schema";
import { defineReadCache } from "../platform/read-cache";

export type UserRow = typeof users.$inferSelect;
export type TokenPurpose = "verify_email" | "reset_password";

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await q.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function findUserByUsername(q: Queryable, username: string): Promise<UserRow | undefined> {
  const [row] = await q.select().from(users).where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

export async function findUserByLogin(q: Queryable, login: string): Promise<UserRow | undefined> {
  const [row] = await q
    .select()
    .from(users)
    .where(or(sql`lower(${users.email}) = lower(${login})`, sql`lower(${users.username}) = lower(${login})`))
    .limit(1);
  return row;
}

/**
 * A user's row by id, kept per process (decision 0117). Every change to `users` is one of the writes
 * below, and each invalidates the user's entry after its statement.
 */
const userCache = defineReadCache<UserRow | undefined>("accounts.user", ["users"]);

const findUserByIdStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("find_user_by_id"),
);

export function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  return userCache.read(q, id, id, async () => {
    const [row] = await findUserByIdStatement(q).execute({ id });
    return row;
  });
}

/** Every account's name and address, by email (for operators). */
export async function listUsers(q: Queryable): Promise<Pick<UserRow, "id" | "email" | "username">[]> {
  return q
    .select({ id: users.id, email: users.email, username: users.username })
    .from(users)
    .orderBy(asc(sql`lower(${users.email})`));
}

export async function insertUser(
  q: Queryable,
  values: {
    email: string;
    username: string;
    passwordHash: string;
    createdAt: Date;
    emailVerifiedAt?: Date;
    locale?: string | null;
  },
): Promise<UserRow> {
  const [row] = await q.insert(users).values(values).returning();
  userCache.invalidate(q, row!.id);
  return row!;
}

/** Deletes the account's row (its own rows go with it by cascade); this process forgets it at once. */
export async function deleteUserRow(q: Queryable, userId: string): Promise<boolean> {
  const deleted = await q.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
  userCache.invalidate(q, userId);
  return deleted.length > 0;
}

export async function setEmailVerified(q: Queryable, userId: string, at: Date): Promise<void> {
  await q
    .update(users)
    .set({ emailVerifiedAt: at })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
  userCache.invalidate(q, userId);
}

export async function setPasswordHash(q: Queryable, userId: string, passwordHash: string): Promise<void> {
  // A new password also ends an administrator's demand for one (decision 0150).
  await q.update(users).set({ passwordHash, passwordResetRequiredAt: null }).where(eq(users.id, userId));
  userCache.invalidate(q, userId);
}

export async function insertSession(
  q: Queryable,
  values: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await q.insert(sessions).values(values);
}

/** The live session for a token digest, with its user. */
const findLiveSessionStatement = preparedPerHandle((q) =>
  q
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder("tokenHash")),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder("now")),
        // A disabled account has no live session, whatever its rows say (decision 0140).
        isNull(users.disabledAt),
      ),
    )
    .prepare("find_live_session"),
);

export async function findLiveSession(q: Queryable, tokenHash: string, now: Date) {
  const [row] = await findLiveSessionStatement(q).execute({ tokenHash, now });
  return row;
}

export async function extendSession(q: Queryable, sessionId: string, expiresAt: Date): Promise<void> {
  await q.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(q: Queryable, tokenHash: string, at: Date): Promise<void> {
  await q
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(q: Queryable, userId: string, at: Date): Promise<void> {
  await q
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function insertEmailToken(
  q: Queryable,
  values: { userId: string; purpose: TokenPurpose; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await q.insert(emailTokens).values(values);
}

export async function findEmailToken(q: Queryable, tokenHash: string, purpose: TokenPurpose) {
  const [row] = await q
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose)));
  return row;
}

/** Marks the token used unless it already was; false when another request used it first. */
export async function consumeEmailToken(q: Queryable, tokenId: string, at: Date): Promise<boolean> {
  const updated = await q
    .update(emailTokens)
    .set({ usedAt: at })
    .where(and(eq(emailTokens.id, tokenId), isNull(emailTokens.usedAt)))
    .returning({ id: emailTokens.id });
  return updated.length === 1;
}

/** A new link replaces older unused ones of the same purpose. */
export async function retireEmailTokens(
  q: Queryable,
  userId: string,
  purpose: TokenPurpose,
  at: Date,
): Promise<void> {
  await q
    .update(emailTokens)
    .set({ usedAt: at })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

/** An administrator's changes to an account (decision 0140); each field left out stays as it is. */
export type AccountAdminFields = Partial<
  Pick<
    UserRow,
    | "role"
    | "disabledAt"
    | "dailyCapTenths"
    | "monthlyCapTenths"
    | "emailVerifiedAt"
    | "passwordResetRequiredAt"
    | "locale"
  >
>;

export async function updateAccountAdminFields(
  q: Queryable,
  userId: string,
  fields: AccountAdminFields,
): Promise<UserRow | undefined> {
  const [row] = await q.update(users).set(fields).where(eq(users.id, userId)).returning();
  userCache.invalidate(q, userId);
  return row;
}

/**
 * One page of accounts for the admin console, newest first, paged by (created_at, id). `search` matches part
 * of an email or username (case-insensitive) or a whole id.
 */
export async function searchUsers(
  q: Queryable,
  search: string | undefined,
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
): Promise<UserRow[]> {
  const conditions = [];
  if (search) {
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(
        sql`lower(${users.email}) like ${pattern}`,
        sql`lower(${users.username}) like ${pattern}`,
        sql`${users.id}::text = ${search.toLowerCase()}`,
      ),
    );
  }
  if (after) {
    conditions.push(
      or(
        lt(users.createdAt, after.createdAt),
        and(eq(users.createdAt, after.createdAt), lt(users.id, after.id)),
      ),
    );
  }
  return q
    .select()
    .from(users)
    .where(and(...conditions))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}

/**
 * A user's live sessions (how many), and the latest expiry any session of theirs was given: its creation or
 * its last extension, which authentication writes at most hourly while the session is used.
 */
export async function sessionSummary(q: Queryable, userId: string, now: Date) {
  const [row] = await q
    .select({
      live: sql<number>`(count(*) filter (where ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${now.toISOString()}::timestamptz))::int`,
      lastExpiry: sql<string | null>`max(${sessions.expiresAt})`,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return {
    live: Number(row?.live ?? 0),
    lastExpiry: row?.lastExpiry ? new Date(row.lastExpiry) : null,
  };
}
