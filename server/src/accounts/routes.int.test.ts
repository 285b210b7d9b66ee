import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, freshAddress, newCredentials, registerByMail } from "../../test/factories";
import { linkFrom } from "../../test/smtp-sink";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

const post = (url: string, payload: unknown, remoteAddress = freshAddress()) =>
  t.app.inject({ method: "POST", url, payload: payload as object, remoteAddress });
const get = (url: string, headers: Record<string, string> = {}, remoteAddress = freshAddress()) =>
  t.app.inject({ method: "GET", url, headers, remoteAddress });

async function linkToken(email: string, path: string): Promise<string> {
  const mail = await t.smtp.waitForMail(email);
  return new URL(linkFrom(mail, `${t.config.appUrl}${path}`)).searchParams.get("token")!;
}

describe("registration and verification", () => {
  it("creates an account with 15 credits that must verify its email first", async () => {
    const c = newCredentials();
    const res = await post("/api/register", c);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      access_token: null,
      email: c.email,
      username: c.username,
      requires_verification: true,
      email_verified: false,
      credits_remaining: 15,
    });

    const mail = await t.smtp.waitForMail(c.email);
    expect(mail.subject).toBe("Verify your Storyverse email");
    const link = linkFrom(mail, "http://app.test/verify-email?token=");
    expect(mail.html).toContain(link.replaceAll("&", "&amp;"));

    const early = await post("/api/login", { email: c.email, password: c.password });
    expect(early.json()).toMatchObject({ access_token: null, requires_verification: true });

    const token = new URL(link).searchParams.get("token")!;
    const verified = await get(`/api/verify-email/${token}`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().message).toBe("Email verified successfully! You can now log in.");
    // The address comes back, so the sign-in the web opens next can be filled in.
    expect(verified.json().email).toBe(c.email.toLowerCase());

    const reused = await get(`/api/verify-email/${token}`);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().detail).toContain("already been used");

    const login = await post("/api/login", { email: c.username.toUpperCase(), password: c.password });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({
      requires_verification: false,
      email_verified: true,
      credits_remaining: 15,
    });
    const session = await get("/api/user/verify", bearer(login.json().access_token));
    expect(session.json()).toMatchObject({ valid: true, email: c.email, username: c.username });
  });

  it("stores the token only hashed: the link's token is not in the database", async () => {
    const c = newCredentials();
    await post("/api/register", c);
    const token = await linkToken(c.email, "/verify-email");
    const { rows } = await t.database.executeSql("select token_hash from email_tokens");
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it("signs in the browser that signed up when it opens the link, and only that browser (decision 0153)", async () => {
    const c = newCredentials();
    const res = await post("/api/register", c);
    // The mark: HttpOnly, sent only to the verification call, for as long as the link lives.
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toMatch(
      /^sv_signup=[^;]+; Path=\/api\/verify-email; HttpOnly; SameSite=Lax; Max-Age=86400$/,
    );
    const cookie = setCookie.split(";")[0]!;
    const token = await linkToken(c.email, "/verify-email");

    // Another account's mark and a forged one sign nobody in (the link still verifies).
    const markOf = async (credentials: ReturnType<typeof newCredentials>) => {
      const mark = String((await post("/api/register", credentials)).headers["set-cookie"]).split(";")[0]!;
      return { mark, link: await linkToken(credentials.email, "/verify-email") };
    };
    const other = await markOf(newCredentials());
    const wrongAccount = await get(`/api/verify-email/${other.link}`, { cookie });
    expect(wrongAccount.statusCode).toBe(200);
    expect(wrongAccount.json().session).toBeUndefined();
    expect(wrongAccount.json().message).toBe("Email verified successfully! You can now log in.");
    const third = await markOf(newCredentials());
    const forged = await get(`/api/verify-email/${third.link}`, { cookie: `${third.mark.slice(0, -4)}AAAA` });
    expect(forged.statusCode).toBe(200);
    expect(forged.json().session).toBeUndefined();

    const verified = await get(`/api/verify-email/${token}`, { cookie });
    expect(verified.statusCode).toBe(200);
    expect(verified.headers["cache-control"]).toBe("no-store");
    expect(String(verified.headers["set-cookie"])).toMatch(/^sv_signup=; .*Max-Age=0/);
    expect(verified.json()).toMatchObject({
      message: "Email verified successfully! You're signed in.",
      email: c.email.toLowerCase(),
      session: { email: c.email, username: c.username, requires_verification: false, email_verified: true },
    });
    const session = await get("/api/user/verify", bearer(verified.json().session.access_token));
    expect(session.json()).toMatchObject({ valid: true, email: c.email });
    // The link works once: used again with the mark, it neither verifies nor signs in.
    const again = await get(`/api/verify-email/${token}`, { cookie });
    expect(again.statusCode).toBe(400);
    expect(again.json().session).toBeUndefined();

    // A mark past the link's lifetime signs nobody in, even with a fresh link.
    const late = newCredentials();
    const { mark: lateMark } = await markOf(late);
    t.clock.advance(24 * HOUR + 1000);
    await post("/api/resend-verification", { email: late.email });
    const lastLink = await linkToken(late.email, "/verify-email");
    const expired = await get(`/api/verify-email/${lastLink}`, { cookie: lateMark });
    expect(expired.statusCode).toBe(200);
    expect(expired.json().session).toBeUndefined();
  });

  it("rejects a verification link after 24 hours", async () => {
    const c = newCredentials();
    await post("/api/register", c);
    const token = await linkToken(c.email, "/verify-email");
    t.clock.advance(24 * HOUR + 1000);
    const res = await get(`/api/verify-email/${token}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("This verification link has expired. Please request a new one.");
  });

  it("resends a verification link; the new one works and the old one no longer does", async () => {
    const c = newCredentials();
    await post("/api/register", c);
    const first = await linkToken(c.email, "/verify-email");
    const resent = await post("/api/resend-verification", { email: c.email });
    expect(resent.json()).toEqual({
      success: true,
      message: "Verification email sent! Please check your inbox.",
    });
    const second = await linkToken(c.email, "/verify-email");
    expect((await get(`/api/verify-email/${first}`)).statusCode).toBe(400);
    expect((await get(`/api/verify-email/${second}`)).statusCode).toBe(200);
  });

  it("refuses taken emails and usernames without regard to case", async () => {
    const existing = await registerByMail(t);
    const byEmail = await post("/api/register", { ...newCredentials(), email: existing.email.toUpperCase() });
    expect(byEmail.statusCode).toBe(409);
    expect(byEmail.json().detail).toContain("already exists");
    const byName = await post("/api/register", {
      ...newCredentials(),
      username: existing.username.toUpperCase(),
    });
    expect(byName.statusCode).toBe(409);
    expect(byName.json().detail).toContain("already taken");
  });

  it.each([
    [{ password: "12345" }, "Password must be at least 6 characters"],
    [{ username: "ab" }, "at least 3"],
    [{ username: "a".repeat(31) }, "at most 30"],
    [{ username: "bad name!" }, "letters, digits"],
    [{ email: "nope" }, "valid email"],
    [{ email: undefined }, "email"],
  ])("rejects registration with %j (400, nothing created)", async (change, fragment) => {
    const c = { ...newCredentials(), ...change };
    const res = await post("/api/register", c);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(fragment);
    if (c.email)
      expect((await get(`/api/check-email/${encodeURIComponent(c.email)}`)).json().available ?? true).toBe(
        true,
      );
  });

  it("signs in straight away when REQUIRE_EMAIL_VERIFICATION is off", async () => {
    const open = await createTestApp({ env: { REQUIRE_EMAIL_VERIFICATION: "false" } });
    try {
      const c = newCredentials();
      const res = await open.app.inject({ method: "POST", url: "/api/register", payload: c });
      expect(res.json()).toMatchObject({ requires_verification: false, email_verified: false });
      const token = res.json().access_token as string;
      expect(token.length).toBeGreaterThanOrEqual(43);
      const profile = await open.app.inject({ method: "GET", url: "/api/profile", headers: bearer(token) });
      expect(profile.json()).toMatchObject({ email: c.email, credits_remaining: 15 });
      const config = await open.app.inject({ method: "GET", url: "/api/config" });
      expect(config.json().capabilities).not.toContain("email_verification");
    } finally {
      await open.cleanup();
    }
  });
});

describe("availability checks", () => {
  it("says whether a username or email is free, case-insensitively", async () => {
    const u = await registerByMail(t);
    expect((await get(`/api/check-username/${u.username.toUpperCase()}`)).json()).toEqual({
      available: false,
      message: `Username '${u.username.toUpperCase()}' is already taken`,
    });
    expect((await get("/api/check-username/fresh_name")).json()).toEqual({
      available: true,
      message: "Username 'fresh_name' is available",
    });
    expect((await get(`/api/check-email/${encodeURIComponent(u.email)}`)).json()).toEqual({
      available: false,
      message: `Email '${u.email}' is already registered`,
    });
    expect((await get("/api/check-email/new%40example.com")).json()).toEqual({
      available: true,
      message: "Email 'new@example.com' is available",
    });
  });

  it("answers 400 with a detail for a malformed name or address", async () => {
    const res = await get("/api/check-username/no%20spaces");
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain("letters, digits");
    expect((await get("/api/check-email/not-an-email")).statusCode).toBe(400);
  });
});

describe("sign-in and sessions", () => {
  it("gives the same answer for a wrong password and an unknown account", async () => {
    const u = await registerByMail(t);
    const wrong = await post("/api/login", { email: u.email, password: "wrong-password" });
    const unknown = await post("/api/login", { email: "nobody@example.com", password: "wrong-password" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it("ends the session on logout", async () => {
    const u = await registerByMail(t);
    expect((await get("/api/user/verify", bearer(u.token))).statusCode).toBe(200);
    const out = await t.app.inject({ method: "POST", url: "/api/logout", headers: bearer(u.token) });
    expect(out.json()).toEqual({ success: true });
    const after = await get("/api/user/verify", bearer(u.token));
    expect(after.statusCode).toBe(401);
    expect(after.json().detail).toContain("log in again");
  });

  it("keeps a used session alive for 30 days after its last use, and ends an idle one", async () => {
    const u = await registerByMail(t);
    t.clock.advance(29 * DAY);
    expect((await get("/api/profile", bearer(u.token))).statusCode).toBe(200);
    t.clock.advance(29 * DAY);
    expect((await get("/api/profile", bearer(u.token))).statusCode).toBe(200);
    t.clock.advance(30 * DAY + HOUR);
    expect((await get("/api/profile", bearer(u.token))).statusCode).toBe(401);
  });

  it("answers 401 without a token or with a made-up one", async () => {
    expect((await get("/api/profile")).statusCode).toBe(401);
    expect((await get("/api/profile", { authorization: "Bearer made-up" })).statusCode).toBe(401);
    expect((await get("/api/profile", { authorization: "Basic abc" })).statusCode).toBe(401);
  });
});

describe("password reset", () => {
  it("answers the same whether or not the account exists, and mails only real accounts", async () => {
    const u = await registerByMail(t);
    const known = await post("/api/forgot-password", { email: u.email });
    const unknown = await post("/api/forgot-password", { email: "ghost@example.com" });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json().message).toBe(
      `If an account exists with ${u.email}, we've sent a password reset link to your inbox.`,
    );
    expect(unknown.json().message).toBe(
      "If an account exists with ghost@example.com, we've sent a password reset link to your inbox.",
    );
    await t.smtp.waitForMail(u.email);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(t.smtp.mails.some((m) => m.to.includes("ghost@example.com"))).toBe(false);
  });

  it("resets the password once, signs out every session, and the old password stops working", async () => {
    const u = await registerByMail(t);
    const otherSession = (await post("/api/login", { email: u.username, password: u.password })).json()
      .access_token;
    await post("/api/forgot-password", { email: u.email });
    const token = await linkToken(u.email, "/forgot-password");

    const res = await post("/api/reset-password", { token, password: "brand-new-secret" });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(u.email.toLowerCase());
    for (const old of [u.token, otherSession]) {
      expect((await get("/api/user/verify", bearer(old))).statusCode).toBe(401);
    }
    expect((await post("/api/login", { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await post("/api/login", { email: u.email, password: "brand-new-secret" })).statusCode).toBe(200);

    const again = await post("/api/reset-password", { token, password: "another-secret" });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toContain("already been used");
  });

  it("refuses a reset link older than one hour", async () => {
    const u = await registerByMail(t);
    await post("/api/forgot-password", { email: u.email });
    const token = await linkToken(u.email, "/forgot-password");
    t.clock.advance(HOUR + 1000);
    const res = await post("/api/reset-password", { token, password: "brand-new-secret" });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("This reset link has expired. Please request a new one.");
    expect((await post("/api/login", { email: u.email, password: u.password })).statusCode).toBe(200);
  });

  it("rejects a short new password with the spec's message", async () => {
    const res = await post("/api/reset-password", { token: "whatever", password: "12345" });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain("Password must be at least 6 characters");
  });
});

describe("rate limits", () => {
  async function expectLimited(
    send: () => Promise<{
      statusCode: number;
      headers: Record<string, unknown>;
      json: () => { detail: string };
    }>,
    allowed: number,
  ) {
    for (let i = 0; i < allowed; i += 1) expect((await send()).statusCode).not.toBe(429);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json().detail).toMatch(
      /^Too many attempts\. Please wait \d+ (second|minute)s? and try again\.$/,
    );
  }

  it("refuses wrong guesses at an account after 10 failures, from the addresses that failed", async () => {
    const u = newCredentials();
    await post("/api/register", u);
    const token = await linkToken(u.email, "/verify-email");
    await get(`/api/verify-email/${token}`);
    const guesser = freshAddress();
    await expectLimited(() => post("/api/login", { email: u.email, password: "guess" }, guesser), 10);
    // The guessing address is refused even the right password until the window passes.
    expect((await post("/api/login", { email: u.email, password: u.password }, guesser)).statusCode).toBe(
      429,
    );
    t.clock.advance(15 * 60 * 1000);
    expect((await post("/api/login", { email: u.email, password: u.password }, guesser)).statusCode).toBe(
      200,
    );
  });

  it("limits sign-in attempts per address, whatever the account", async () => {
    const address = freshAddress();
    await expectLimited(
      () => post("/api/login", { email: newCredentials().email, password: "guess" }, address),
      30,
    );
  });

  it("limits registrations, availability checks, forgot-password and resend per address", async () => {
    const address = freshAddress();
    await expectLimited(() => post("/api/register", newCredentials(), address), 10);
    await expectLimited(() => get("/api/check-username/someone", {}, address), 120);
    await expectLimited(() => post("/api/forgot-password", { email: newCredentials().email }, address), 10);
    const other = freshAddress();
    await expectLimited(() => post("/api/resend-verification", { email: newCredentials().email }, other), 10);
  });

  it("lets the operator set how many accounts one address may create per hour", async () => {
    const office = await createTestApp({ env: { SIGNUPS_PER_ADDRESS_PER_HOUR: "3" } });
    try {
      const register = () =>
        office.app.inject({
          method: "POST",
          url: "/api/register",
          payload: newCredentials(),
          remoteAddress: "192.0.2.77",
        });
      for (let i = 0; i < 3; i++) expect((await register()).statusCode).toBe(200);
      const refused = await register();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/^Too many attempts\./);
      office.clock.advance(60 * 60 * 1000);
      expect((await register()).statusCode).toBe(200);
    } finally {
      await office.cleanup();
    }
  });

  it("lets the operator multiply the per-address limits for many people behind one address", async () => {
    const school = await createTestApp({ env: { ADDRESS_LIMITS_FACTOR: "2" } });
    try {
      const login = () =>
        school.app.inject({
          method: "POST",
          url: "/api/login",
          payload: { email: newCredentials().email, password: "guess" },
          remoteAddress: "192.0.2.78",
        });
      // Twice the 30 sign-ins (and the 30 wrong passwords) one address gets by default.
      for (let i = 0; i < 60; i++) expect((await login()).statusCode).toBe(401);
      const refused = await login();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/^Too many attempts\./);
    } finally {
      await school.cleanup();
    }
  });
});
