// Sign-in by OIDC against a real provider (oidc-provider from npm, on a local port, its own login and consent
// pages walked over HTTP): a new account by auto-registration, an existing one linked only after its password,
// a group claim making an administrator, a domain outside the allowed list, a wrong state or nonce, a disabled
// account, RP-initiated and back-channel logout, and the switches (auto-registration off, password login off).
import { eq } from "drizzle-orm";
import { importJWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser } from "../../test/factories";
import {
  CookieJar,
  confirmProviderLogout,
  startTestProvider,
  TEST_CLIENT,
  type TestProvider,
  walkProvider,
} from "../../test/oidc-provider";
import { adminAudit, oidcLogins, users } from "../db/schema";

const APP_URL = "http://app.test";
const CALLBACK = `${APP_URL}/api/auth/oidc/callback`;

let provider: TestProvider;
let t: TestApp;
let closed: TestApp;
let base: string;

const oidcEnv = (issuer: string, extra: Record<string, string> = {}) => ({
  OIDC_ISSUER_URL: issuer,
  OIDC_CLIENT_ID: TEST_CLIENT.id,
  OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  OIDC_SCOPES: "openid email profile groups",
  OIDC_PROVIDER_NAME: "Guild ID",
  OIDC_ALLOWED_DOMAINS: "guild.test, Example.org",
  OIDC_ADMIN_GROUPS: "storyverse-admins",
  ...extra,
});

beforeAll(async () => {
  provider = await startTestProvider();
  t = await createTestApp({ env: oidcEnv(provider.issuer) });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  provider.serve({
    redirectUri: CALLBACK,
    postLogoutRedirectUri: `${APP_URL}/`,
    backchannelLogoutUri: `${base}/api/auth/oidc/backchannel-logout`,
  });
  closed = await createTestApp({
    env: oidcEnv(provider.issuer, { OIDC_AUTO_REGISTER: "false", PASSWORD_LOGIN: "off" }),
  });
}, 90_000);
afterAll(async () => {
  await t?.cleanup();
  await closed?.cleanup();
  await provider?.close();
});

type Landing = {
  access_token?: string;
  link?: string;
  email?: string;
  error?: string;
  code?: string;
  reason?: string;
};

/** A browser's whole round trip: the app's start, the provider's pages, the app's callback; where it lands. */
async function signIn(
  accountId: string,
  options: { app?: TestApp; jar?: CookieJar; tamper?: (callback: URL) => unknown; cookie?: string } = {},
): Promise<Landing> {
  const app = options.app ?? t;
  const start = await app.app.inject({ method: "GET", url: "/api/auth/oidc/start" });
  expect(start.statusCode).toBe(302);
  const stateCookie = String(start.headers["set-cookie"]).split(";")[0]!;
  expect(stateCookie).toMatch(/^sv_oidc_state=/);
  const jar = options.jar ?? new CookieJar();
  const callback = new URL(await walkProvider(String(start.headers.location), jar, accountId, CALLBACK));
  await options.tamper?.(callback);
  const landed = await app.app.inject({
    method: "GET",
    url: callback.pathname + callback.search,
    headers: { cookie: options.cookie ?? stateCookie },
  });
  expect(landed.statusCode).toBe(302);
  const location = new URL(String(landed.headers.location));
  expect(location.origin + location.pathname).toBe(`${APP_URL}/auth/oidc`);
  return Object.fromEntries(new URLSearchParams(location.hash.slice(1))) as Landing;
}

const me = (app: TestApp, token: string) =>
  app.app.inject({ method: "GET", url: "/api/user/verify", headers: bearer(token) });

describe("sign-in by OIDC", () => {
  it("reports the provider's button on /api/config, and password sign-in as on or off", async () => {
    const open = (await t.app.inject({ method: "GET", url: "/api/config" })).json();
    expect(open.sign_in).toEqual({ password: true, oidc: { name: "Guild ID" } });
    const only = (await closed.app.inject({ method: "GET", url: "/api/config" })).json();
    expect(only.sign_in).toEqual({ password: false, oidc: { name: "Guild ID" } });
  });

  it("opens a new account on first sign-in (auto-registration on) and signs the same account in again", async () => {
    provider.accounts.set("new-1", {
      email: "Mira@guild.test",
      email_verified: true,
      preferred_username: "mira",
    });
    const first = await signIn("new-1");
    expect(first.error).toBeUndefined();
    const profile = await me(t, first.access_token!);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      email: "Mira@guild.test",
      username: "mira",
      email_verified: true,
    });
    expect(profile.json().role).toBe("player");
    const again = await signIn("new-1");
    expect((await me(t, again.access_token!)).json().user_id).toBe(profile.json().user_id);
  });

  it("refuses a new address when auto-registration is off, and password sign-in when it is off", async () => {
    provider.accounts.set("stranger", { email: "stranger@guild.test", email_verified: true });
    const landing = await signIn("stranger", { app: closed });
    expect(landing.access_token).toBeUndefined();
    expect(landing.error).toContain("new accounts are not opened by Guild ID sign-in");
    expect(landing.reason).toBe("registration_off");
    const [row] = await closed.ctx.db.select().from(users).where(eq(users.email, "stranger@guild.test"));
    expect(row).toBeUndefined();
    const password = await closed.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: "someone@guild.test", password: "whatever-password" },
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().detail).toBe(
      "Signing in with a password is turned off here. Please sign in with Guild ID.",
    );
  });

  it("refuses an address outside the allowed domains, and an unverified address", async () => {
    provider.accounts.set("outsider", { email: "eve@elsewhere.test", email_verified: true });
    const outside = await signIn("outsider");
    expect(outside.access_token).toBeUndefined();
    expect(outside.error).toBe("Sign-in with Guild ID is open to addresses at guild.test, example.org only.");
    expect(outside.reason).toBe("domain_not_allowed");
    provider.accounts.set("unverified", { email: "una@guild.test", email_verified: false });
    const unverified = await signIn("unverified");
    expect(unverified.access_token).toBeUndefined();
    expect(unverified.error).toContain("did not give a verified email address");
    expect(unverified.reason).toBe("email_unverified");
  });

  it("links an existing password account by its verified email only after the account's password", async () => {
    const owner = await createUser(t, { email: "owner@example.org" });
    provider.accounts.set("owner-sub", { email: "owner@example.org", email_verified: true });
    const landing = await signIn("owner-sub");
    // No session yet: the link screen asks for the account's password.
    expect(landing.access_token).toBeUndefined();
    expect(landing.email).toBe("owner@example.org");
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/auth/oidc/link",
      payload: { token: landing.link, password: "not-the-password" },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({
      method: "POST",
      url: "/api/auth/oidc/link",
      payload: { token: landing.link, password: owner.password },
    });
    expect(right.statusCode).toBe(200);
    expect(right.json().user_id).toBe(owner.userId);
    // Linked: the next sign-in goes straight in, and the used link cannot be used again.
    const next = await signIn("owner-sub");
    expect((await me(t, next.access_token!)).json().user_id).toBe(owner.userId);
    const reused = await t.app.inject({
      method: "POST",
      url: "/api/auth/oidc/link",
      payload: { token: landing.link, password: owner.password },
    });
    expect(reused.statusCode).toBe(400);
  });

  it("makes a member of the admin group an administrator, in the audit log", async () => {
    provider.accounts.set("boss", {
      email: "boss@guild.test",
      email_verified: true,
      groups: ["Storyverse-Admins"],
    });
    const landing = await signIn("boss");
    const profile = (await me(t, landing.access_token!)).json();
    expect(profile.role).toBe("admin");
    const admin = await t.app.inject({
      method: "GET",
      url: "/api/admin/users",
      headers: bearer(landing.access_token!),
    });
    expect(admin.statusCode).toBe(200);
    const audit = await t.ctx.db.select().from(adminAudit).where(eq(adminAudit.targetId, profile.user_id));
    expect(audit.map((row) => row.actor)).toEqual(["Guild ID group claim"]);
    provider.accounts.set("member", {
      email: "member@guild.test",
      email_verified: true,
      groups: ["players"],
    });
    expect((await me(t, (await signIn("member")).access_token!)).json().role).toBe("player");
  });

  it("refuses a wrong state, a state from another browser and a callback whose nonce does not match", async () => {
    provider.accounts.set("careful", { email: "careful@guild.test", email_verified: true });
    const wrongState = await signIn("careful", { tamper: (url) => url.searchParams.set("state", "forged") });
    expect(wrongState.access_token).toBeUndefined();
    expect(wrongState.error).toContain("was not started in this browser");
    expect(wrongState.reason).toBe("state_mismatch");
    const otherBrowser = await signIn("careful", { cookie: "sv_oidc_state=someone-elses" });
    expect(otherBrowser.access_token).toBeUndefined();
    expect(otherBrowser.error).toContain("was not started in this browser");
    expect(otherBrowser.reason).toBe("state_mismatch");
    // The nonce this server expects differs from the one the provider put in the ID token.
    const wrongNonce = await signIn("careful", {
      tamper: (url) =>
        t.ctx.db
          .update(oidcLogins)
          .set({ nonce: "not-the-nonce" })
          .where(eq(oidcLogins.state, url.searchParams.get("state")!)),
    });
    expect(wrongNonce.access_token).toBeUndefined();
    expect(wrongNonce.error).toContain("could not be trusted");
    expect(wrongNonce.reason).toBe("untrusted_answer");
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, "careful@guild.test"));
    expect(row).toBeUndefined();
  });

  it("refuses a disabled account, linked or not", async () => {
    provider.accounts.set("gone", { email: "gone@guild.test", email_verified: true });
    const first = await signIn("gone");
    const userId = (await me(t, first.access_token!)).json().user_id;
    await t.ctx.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, userId));
    const refused = await signIn("gone");
    expect(refused.access_token).toBeUndefined();
    expect(refused.code).toBe("account_disabled");
    expect(refused.reason).toBeUndefined();
  });

  it("logs out at the app and at the provider (RP-initiated); the provider's back-channel logout ends the session", async () => {
    provider.accounts.set("leaver", { email: "leaver@guild.test", email_verified: true });
    const jar = new CookieJar();
    const first = await signIn("leaver", { jar });
    const out = await t.app.inject({
      method: "POST",
      url: "/api/auth/oidc/logout",
      headers: bearer(first.access_token!),
    });
    expect(out.statusCode).toBe(200);
    const endSession = new URL(out.json().end_session_url);
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get("id_token_hint")).toBeTruthy();
    expect((await me(t, first.access_token!)).statusCode).toBe(401);
    expect(await confirmProviderLogout(endSession.href, jar)).toBe(`${APP_URL}/`);

    // Signed in again; signing out at the provider alone (another app's logout) ends this app's session too.
    const second = await signIn("leaver", { jar });
    expect((await me(t, second.access_token!)).statusCode).toBe(200);
    const providerLogout = new URL("/session/end", provider.issuer);
    providerLogout.searchParams.set("client_id", TEST_CLIENT.id);
    await confirmProviderLogout(providerLogout.href, jar);
    await expect
      .poll(async () => (await me(t, second.access_token!)).statusCode, { timeout: 5000 })
      .toBe(401);
  });

  it("refuses a back-channel logout token not signed by the provider, or for another client", async () => {
    provider.accounts.set("kept", { email: "kept@guild.test", email_verified: true });
    const landing = await signIn("kept");
    const [sub] = [...provider.accounts.keys()].filter((id) => id === "kept");
    const logoutToken = async (key: Record<string, unknown>, audience: string) =>
      new SignJWT({ events: { "http://schemas.openid.net/event/backchannel-logout": {} }, sub })
        .setProtectedHeader({ alg: "RS256", kid: "test-key", typ: "logout+jwt" })
        .setIssuer(provider.issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .sign(await importJWK(key as never, "RS256"));
    const { generateKeyPairSync } = await import("node:crypto");
    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
    for (const token of [
      await logoutToken(stranger, TEST_CLIENT.id),
      await logoutToken(provider.signingKey, "other"),
    ]) {
      const refused = await fetch(`${base}/api/auth/oidc/backchannel-logout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ logout_token: token }),
      });
      expect(refused.status).toBe(400);
    }
    expect((await me(t, landing.access_token!)).statusCode).toBe(200);
  });
});
