// Small factories for API tests. Users are seeded through the accounts repo (a verified account with its
// sign-up credits and a live session, as Outline's buildUser() does); the real register -> mail -> verify ->
// login path is `registerByMail`, kept for the accounts tests and the process start-up test.
import { randomBytes } from "node:crypto";
import { insertSession, insertUser } from "../src/accounts/repo";
import { digestToken, hashPassword, newToken } from "../src/accounts/secrets";
import { SESSION_TTL_MS } from "../src/accounts/sessions";
import type { AppContext } from "../src/context";
import { openAccountWithSignupBonus } from "../src/credits/service";
import type { Queryable } from "../src/db/client";
import { chatMessages } from "../src/db/schema";
import type { TestApp } from "./app";
import { linkFrom } from "./smtp-sink";

let addressCounter = 0;
/** A distinct client address per call, so rate limits only bite where a test means them to. */
export const freshAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

export type TestUser = { email: string; username: string; password: string; token: string; userId: string };

export function newCredentials() {
  const id = randomBytes(4).toString("hex");
  return { email: `user-${id}@example.com`, username: `user_${id}`, password: `secret-${id}` };
}

// Argon2 costs ~0.1 s a hash: each distinct password is hashed once per test process.
const passwordHashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let hashed = passwordHashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    passwordHashes.set(password, hashed);
  }
  return hashed;
};
const seededPassword = `secret-${randomBytes(4).toString("hex")}`;

/**
 * A verified user with the sign-up bonus and a live session, written through the accounts and credits repos
 * (no mail, no HTTP). The password works for a real sign-in.
 */
export async function createUser(
  t: { ctx: Pick<AppContext, "db" | "clock"> },
  overrides: Partial<ReturnType<typeof newCredentials>> = {},
): Promise<TestUser> {
  const credentials = { ...newCredentials(), password: seededPassword, ...overrides };
  const passwordHash = await hashOnce(credentials.password);
  const now = t.ctx.clock.now();
  const user = await t.ctx.db.transaction(async (tx) => {
    const row = await insertUser(tx, {
      email: credentials.email,
      username: credentials.username,
      passwordHash,
      createdAt: now,
      emailVerifiedAt: now,
    });
    await openAccountWithSignupBonus(tx, row.id, now);
    return row;
  });
  const token = newToken();
  await insertSession(t.ctx.db, {
    userId: user.id,
    tokenHash: digestToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  return { ...credentials, token, userId: user.id };
}

/** Registers, follows the verification link from the real mail, and signs in. */
export async function registerByMail(
  t: TestApp,
  overrides: Partial<ReturnType<typeof newCredentials>> = {},
): Promise<TestUser> {
  const credentials = { ...newCredentials(), ...overrides };
  const registered = await t.app.inject({
    method: "POST",
    url: "/api/register",
    payload: credentials,
    remoteAddress: freshAddress(),
  });
  if (registered.statusCode !== 200) throw new Error(`register failed: ${registered.body}`);
  const mail = await t.smtp.waitForMail(credentials.email);
  const token = new URL(linkFrom(mail, `${t.config.appUrl}/verify-email`)).searchParams.get("token")!;
  const verified = await t.app.inject({
    method: "GET",
    url: `/api/verify-email/${encodeURIComponent(token)}`,
    remoteAddress: freshAddress(),
  });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  const login = await t.app.inject({
    method: "POST",
    url: "/api/login",
    payload: { email: credentials.email, password: credentials.password },
    remoteAddress: freshAddress(),
  });
  const body = login.json();
  if (!body.access_token) throw new Error(`login failed: ${login.body}`);
  return { ...credentials, token: body.access_token, userId: body.user_id };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A user's balance as the API reports it, and the refunds the ledger holds for them. */
export function moneyOf(t: TestApp) {
  const balance = async (user: TestUser) =>
    (await t.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })).json()
      .remaining as number;
  const refunds = async (user: TestUser) =>
    (
      await t.database.executeSql(
        "select reference, amount_tenths from credit_transactions where user_id = $1 and transaction_type = 'refund'",
        [user.userId],
      )
    ).rows as { reference: string; amount_tenths: number }[];
  return { balance, refunds };
}

/** A narrator's answer in the user's main chat, written straight to the database (cache and repo tests). */
export async function insertNarration(db: Queryable, userId: string, content: string) {
  const [message] = await db
    .insert(chatMessages)
    .values({ userId, role: "assistant", content, createdAt: new Date(), updatedAt: new Date() })
    .returning();
  return message!;
}
