// Deleting an account confirmed by a fresh sign-in at the OIDC provider (decision 0158), against a real
// provider (oidc-provider from npm, its own login and consent pages walked over HTTP): an account opened by the
// provider, whose password nobody knows, deletes itself (its rows gone but the anonymised ledger, its sessions
// ended); the provider is made to ask for the login again even while it remembers the person; a sign-in that is
// not fresh, a wrong or replayed state, another person at the provider, a session ended meanwhile and an
// account with no provider link are refused with nothing deleted; without OIDC the calls do not exist.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { fillAccount } from "../../test/full-account";
import {
  CookieJar,
  startTestProvider,
  TEST_CLIENT,
  type TestProvider,
  walkProvider,
} from "../../test/oidc-provider";
import { closedAccountLedger, oidcIdentities, oidcLogins, users } from "../db/schema";
import { RATE_LIMIT_TABLE } from "../platform/rate-limit";

const APP_URL = "http://app.test";
const CALLBACK = `${APP_URL}/api/auth/oidc/callback`;

let provider: TestProvider;
let t: TestApp;

beforeAll(async () => {
  provider = await startTestProvider();
  t = await createTestApp({
    tickingClock: true,
    env: {
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      OIDC_SCOPES: "openid email profile",
      OIDC_PROVIDER_NAME: "Guild ID",
    },
  });
  provider.serve({ redirectUri: CALLBACK, postLogoutRedirectUri: `${APP_URL}/` });
}, 90_000);
afterAll(async () => {
  await t?.cleanup();
  await provider?.close();
});

/** Follows the app's redirect to its landing and reads the fragment. */
function landingOf(response: { statusCode: number; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(location.origin + location.pathname).toBe(`${APP_URL}/auth/oidc`);
  return Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
}

/** A person at the provider signed in to the app in the browser `jar`: their account as a TestUser. */
async function providerAccount(id: string, jar: CookieJar): Promise<TestUser> {
  provider.accounts.set(id, { email: `${id}@guild.test`, email_verified: true, preferred_username: id });
  const start = await t.app.inject({ method: "GET", url: "/api/auth/oidc/start" });
  const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
  const callback = new URL(await walkProvider(String(start.headers.location), jar, id, CALLBACK));
  const landing = landingOf(
    await t.app.inject({ method: "GET", url: callback.pathname + callback.search, headers: { cookie } }),
  );
  const token = landing.access_token!;
  expect(token).toBeTruthy();
  const me = (await t.app.inject({ method: "GET", url: "/api/user/verify", headers: bearer(token) })).json();
  return { userId: me.user_id, email: me.email, username: me.username, password: "", token };
}

type Walk = {
  /** Who signs in at the provider's login page. */
  as?: string;
  /** Changes the provider's address before the browser goes there (a provider that ignores the prompt). */
  editStart?: (url: URL) => void;
  /** Changes the callback before the browser returns (a forged state). */
  tamper?: (callback: URL) => void;
  /** Runs just before the callback reaches the app. */
  beforeCallback?: () => unknown;
  cookie?: (own: string) => string;
};

/** The delete dialog's "Confirm with Guild ID": the start, the provider's pages, the callback; the landing. */
async function confirmDelete(user: TestUser, id: string, jar: CookieJar, walk: Walk = {}) {
  const start = await t.app.inject({
    method: "POST",
    url: "/api/auth/oidc/delete-account",
    headers: bearer(user.token),
  });
  expect(start.statusCode, start.body).toBe(200);
  const own = String(start.headers["set-cookie"]).split(";")[0]!;
  expect(own).toMatch(/^sv_oidc_delete=/);
  const url = new URL(start.json().url);
  walk.editStart?.(url);
  const seen: string[] = [];
  const callback = new URL(await walkProvider(url.href, jar, walk.as ?? id, CALLBACK, seen));
  walk.tamper?.(callback);
  await walk.beforeCallback?.();
  const answer = await t.app.inject({
    method: "GET",
    url: callback.pathname + callback.search,
    headers: { cookie: walk.cookie ? walk.cookie(own) : own },
  });
  return { landing: landingOf(answer), seen, callback, cookie: own, startUrl: url };
}

const profileStatus = async (user: TestUser) =>
  (await t.app.inject({ method: "GET", url: "/api/profile", headers: bearer(user.token) })).statusCode;

const accountRow = async (user: TestUser) =>
  (await t.ctx.db.select().from(users).where(eq(users.id, user.userId)))[0];

/** The tables with a row that names the account anywhere (any column as text), rate-limit counters aside. */
async function tablesNaming(user: TestUser): Promise<string[]> {
  const tables = await t.ctx.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const naming: string[] = [];
  for (const { table_name: table } of tables.rows as { table_name: string }[]) {
    if (table === RATE_LIMIT_TABLE) continue;
    const result = await t.ctx.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)} as t
          where t::text ilike ${`%${user.userId}%`} or t::text ilike ${`%${user.email}%`}
             or t::text ilike ${`%${user.username}%`}`,
    );
    if (((result.rows[0] as { n: number }).n ?? 0) > 0) naming.push(table);
  }
  return naming.sort();
}

describe("deleting an account confirmed by a fresh sign-in at the provider", () => {
  it("deletes an account the provider opened: the provider asks for the login again, the rows go but the anonymised ledger, the sessions end", async () => {
    const jar = new CookieJar();
    const user = await providerAccount("del-leaver", jar);
    await fillAccount(t, user);
    const ledgerBefore = await t.ctx.db.execute(
      sql`select count(*)::int as n from credit_transactions where user_id = ${user.userId}`,
    );
    const ledgerRows = (ledgerBefore.rows[0] as { n: number }).n;
    expect(ledgerRows).toBeGreaterThan(0);
    const option = await t.app.inject({
      method: "GET",
      url: "/api/auth/oidc/delete-account",
      headers: bearer(user.token),
    });
    expect(option.json()).toEqual({ linked: true });

    const { landing, seen, startUrl } = await confirmDelete(user, "del-leaver", jar);
    // Forced afresh: the provider still knew this browser, and asked for the login all the same.
    expect(startUrl.searchParams.get("prompt")).toBe("login");
    expect(startUrl.searchParams.get("max_age")).toBe("0");
    expect(seen).toContain("login");
    expect(landing).toEqual({ deleted: "1" });

    expect(await accountRow(user)).toBeUndefined();
    expect(await tablesNaming(user)).toEqual([]);
    expect(await profileStatus(user)).toBe(401);
    const kept = await t.ctx.db.select().from(closedAccountLedger);
    const formerIds = new Set(kept.map((row) => row.formerAccount));
    expect(kept.length).toBeGreaterThanOrEqual(ledgerRows);
    expect(formerIds.size).toBeGreaterThan(0);
    // The provider account is free again: signing in opens a new, empty account.
    const again = await providerAccount("del-leaver", new CookieJar());
    expect(again.userId).not.toBe(user.userId);
  });

  it("refuses a sign-in that is not fresh (a provider that reused its session), and its replay; nothing is deleted", async () => {
    const jar = new CookieJar();
    const user = await providerAccount("del-stale", jar);
    // A provider that ignores prompt=login and max_age reuses the sign-in it remembers: six minutes old by the
    // time its answer arrives.
    const stale = await confirmDelete(user, "del-stale", jar, {
      editStart: (url) => {
        url.searchParams.delete("prompt");
        url.searchParams.delete("max_age");
      },
      beforeCallback: () => t.clock.advance(6 * 60_000),
    });
    t.clock.advance(-6 * 60_000);
    expect(stale.seen).not.toContain("login");
    expect(stale.landing.delete_refused).toBe("stale_sign_in");
    expect(stale.landing.error).toBe(
      "Guild ID did not ask you to sign in again just now. Nothing was deleted.",
    );
    expect(await accountRow(user)).toBeDefined();
    expect(await profileStatus(user)).toBe(200);

    // The same answer again (a replayed callback): its state was used.
    const replay = await t.app.inject({
      method: "GET",
      url: stale.callback.pathname + stale.callback.search,
      headers: { cookie: stale.cookie },
    });
    expect(landingOf(replay).delete_refused).toBe("state_mismatch");
    expect(await accountRow(user)).toBeDefined();
    expect(await profileStatus(user)).toBe(200);
  });

  it("refuses a wrong state and a state this browser's cookie does not hold; nothing is deleted", async () => {
    const jar = new CookieJar();
    const user = await providerAccount("del-forged", jar);
    const forged = await confirmDelete(user, "del-forged", jar, {
      tamper: (callback) => callback.searchParams.set("state", "forged"),
    });
    expect(forged.landing.delete_refused).toBe("state_mismatch");
    const otherCookie = await confirmDelete(user, "del-forged", jar, {
      cookie: () => "sv_oidc_delete=someone-elses",
    });
    expect(otherCookie.landing.delete_refused).toBe("state_mismatch");
    // A sign-in's state cannot finish a deletion either (nor the other way round): each has its purpose.
    const signInStart = await t.app.inject({ method: "GET", url: "/api/auth/oidc/start" });
    const signInState = new URL(String(signInStart.headers.location)).searchParams.get("state")!;
    const crossed = await confirmDelete(user, "del-forged", jar, {
      tamper: (callback) => callback.searchParams.set("state", signInState),
      cookie: () => `sv_oidc_delete=${signInState}`,
    });
    expect(crossed.landing.delete_refused).toBe("state_mismatch");
    expect(await accountRow(user)).toBeDefined();
    expect(await profileStatus(user)).toBe(200);
  });

  it("one account's confirmation cannot delete another: another person at the provider, or a session ended meanwhile", async () => {
    const aliceJar = new CookieJar();
    const alice = await providerAccount("del-alice", aliceJar);
    const bob = await providerAccount("del-bob", new CookieJar());
    // Alice's deletion, answered at the provider by Bob's login: neither account is deleted.
    const crossed = await confirmDelete(alice, "del-alice", aliceJar, { as: "del-bob" });
    expect(crossed.landing.delete_refused).toBe("other_account");
    expect(await accountRow(alice)).toBeDefined();
    expect(await accountRow(bob)).toBeDefined();
    expect(await profileStatus(alice)).toBe(200);
    expect(await profileStatus(bob)).toBe(200);

    // Alice signs out before the answer arrives: the deletion her session began is refused.
    const ended = await confirmDelete(alice, "del-alice", aliceJar, {
      beforeCallback: () =>
        t.app.inject({ method: "POST", url: "/api/logout", headers: bearer(alice.token) }),
    });
    expect(ended.landing.delete_refused).toBe("session_ended");
    expect(await accountRow(alice)).toBeDefined();
    expect(await t.ctx.db.select().from(oidcLogins).where(eq(oidcLogins.userId, alice.userId))).toEqual([]);
  });

  it("an account with no provider link is refused the start and keeps its password's way", async () => {
    const user = await createUser(t);
    const option = await t.app.inject({
      method: "GET",
      url: "/api/auth/oidc/delete-account",
      headers: bearer(user.token),
    });
    expect(option.json()).toEqual({ linked: false });
    const start = await t.app.inject({
      method: "POST",
      url: "/api/auth/oidc/delete-account",
      headers: bearer(user.token),
    });
    expect(start.statusCode).toBe(403);
    expect(start.json().detail).toBe(
      "This account does not sign in with Guild ID. Please confirm with your password.",
    );
    expect(
      await t.ctx.db.select().from(oidcIdentities).where(eq(oidcIdentities.userId, user.userId)),
    ).toEqual([]);
    const unauthenticated = await t.app.inject({ method: "POST", url: "/api/auth/oidc/delete-account" });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it("without OIDC configured, the calls do not exist", async () => {
    const plain = await createTestApp();
    try {
      const user = await createUser(plain);
      for (const method of ["GET", "POST"] as const) {
        const res = await plain.app.inject({
          method,
          url: "/api/auth/oidc/delete-account",
          headers: bearer(user.token),
        });
        expect(res.statusCode).toBe(404);
      }
    } finally {
      await plain.cleanup();
    }
  });
});
