// Attacks on the account endpoints from the outside audit, replayed against the real app: argon2 work for
// bogus reset links, unlimited link checks, and strangers locking an owner out of sign-in or reset mail.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { freshAddress, newCredentials, registerByMail } from "../../test/factories";
import { linkFrom } from "../../test/smtp-sink";
import { sessions } from "../db/schema";
import { accountLimits } from "./limits";
import { MAX_CONCURRENT_PASSWORD_HASHES, passwordHashingActivity } from "./secrets";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

const post = (url: string, payload: unknown, remoteAddress = freshAddress()) =>
  t.app.inject({ method: "POST", url, payload: payload as object, remoteAddress });
const login = (name: string, password: string, remoteAddress = freshAddress()) =>
  post("/api/login", { email: name, password }, remoteAddress);

describe("password hashing under a flood", () => {
  it("does no password hashing for reset requests with made-up tokens", async () => {
    const before = passwordHashingActivity().hashes;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post("/api/reset-password", { token: `bogus-${i}`, password: "a-long-new-password" }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(40).fill(400));
    expect(answers[0]!.json().detail).toBe(
      "This reset link is invalid or has already been used. Please request a new one.",
    );
    expect(passwordHashingActivity().hashes).toBe(before);
  });

  it("limits reset-password and verify-email per address", async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i += 1) {
      const res = await post("/api/reset-password", { token: `bogus-${i}`, password: "whatever1" }, address);
      expect(res.statusCode).toBe(400);
    }
    const limited = await post("/api/reset-password", { token: "one-more", password: "whatever1" }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many attempts\. Please wait/);

    const other = freshAddress();
    const verify = (token: string) =>
      t.app.inject({ method: "GET", url: `/api/verify-email/${token}`, remoteAddress: other });
    for (let i = 0; i < 30; i += 1) expect((await verify(`bogus-${i}`)).statusCode).toBe(400);
    expect((await verify("one-more")).statusCode).toBe(429);
  });

  it("never runs more password hashes at once than its bound, however many sign-ins arrive", async () => {
    const u = await registerByMail(t);
    const answers = await Promise.all(Array.from({ length: 16 }, () => login(u.email, "wrong-password")));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(16).fill(401));
    // The flood filled every slot, and never more.
    expect(passwordHashingActivity().peakRunning).toBe(MAX_CONCURRENT_PASSWORD_HASHES);
  });
});

describe("sign-in lock-out", () => {
  it("lets the owner in from their own address after strangers failed 10 times elsewhere", async () => {
    const u = await registerByMail(t);
    for (let i = 0; i < 10; i += 1) expect((await login(u.email, `guess-${i}`)).statusCode).toBe(401);
    const owner = await login(u.email, u.password);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().access_token).toEqual(expect.any(String));
  });

  it("counts email and username as one account, and blocks an address that keeps guessing", async () => {
    const u = await registerByMail(t);
    const attacker = freshAddress();
    for (let i = 0; i < 5; i += 1) {
      expect((await login(u.email, `guess-${i}`, attacker)).statusCode).toBe(401);
      expect((await login(u.username.toUpperCase(), `guess-u${i}`, attacker)).statusCode).toBe(401);
    }
    expect((await login(u.email, "guess-again", attacker)).statusCode).toBe(429);
    expect((await login(u.username, u.password, attacker)).statusCode).toBe(429);
    // A fresh address gets one wrong try at a locked account, then is refused too.
    const next = freshAddress();
    expect((await login(u.email, "guess-fresh", next)).statusCode).toBe(401);
    expect((await login(u.email, "guess-fresh-2", next)).statusCode).toBe(429);
  });

  it("never counts successful sign-ins against the account", async () => {
    const u = await registerByMail(t);
    const address = freshAddress();
    for (let i = 0; i < 15; i += 1)
      expect((await login(u.username, u.password, address)).statusCode).toBe(200);
  });
});

let v6Counter = 0;
/** A fresh IPv6 /64 (2001:db8::/32, the documentation range); `host` picks an address inside it. */
const freshV6Net = () => {
  v6Counter += 1;
  const net = `2001:db8:${(v6Counter >> 16).toString(16)}:${(v6Counter & 0xffff).toString(16)}`;
  return (host: number) => `${net}:${(host >> 16).toString(16)}:${(host & 0xffff).toString(16)}:0:1`;
};

describe("sign-in guessing from many addresses (audit N4)", () => {
  it("counts one IPv6 /64 as one address: 300 wrong guesses from 300 of its addresses, then the right password, is refused", async () => {
    const u = await registerByMail(t);
    const attacker = freshV6Net();
    const answers: number[] = [];
    for (let i = 0; i < 300; i += 1)
      answers.push((await login(u.email, `guess-${i}`, attacker(i))).statusCode);
    // 10 wrong passwords reach the account; then its /64 has failed and is refused like one address.
    expect(answers.filter((status) => status === 401)).toHaveLength(10);
    expect(answers.slice(10).every((status) => status === 429)).toBe(true);
    const right = await login(u.email, u.password, attacker(301));
    expect(right.statusCode).toBe(429);
    expect(right.json().detail).toMatch(/^Too many attempts\. Please wait/);
    expect(Number(right.headers["retry-after"])).toBeGreaterThan(0);
    // The owner, elsewhere, still gets in.
    expect((await login(u.email, u.password)).statusCode).toBe(200);
  });

  it("past 50 failures refuses addresses that never signed in, and still lets the owner in from a known one or after a reset", async () => {
    const u = await registerByMail(t);
    const home = freshV6Net();
    expect((await login(u.email, u.password, home(1))).statusCode).toBe(200);

    // One wrong guess from each of 60 different /64s: 50 reach the account, then strangers are refused.
    const answers: number[] = [];
    for (let i = 0; i < 60; i += 1)
      answers.push((await login(u.email, `guess-${i}`, freshV6Net()(1))).statusCode);
    expect(answers.slice(0, 50)).toEqual(Array(50).fill(401));
    expect(answers.slice(50)).toEqual(Array(10).fill(429));
    const stranger = await login(u.email, u.password, freshV6Net()(1));
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().detail).toMatch(
      /too many wrong passwords\. Please sign in from a device you have used before/,
    );
    expect(Number(stranger.headers["retry-after"])).toBeGreaterThan(0);

    // The owner's own network (another address of the same /64) still signs in.
    expect((await login(u.email, u.password, home(2))).statusCode).toBe(200);

    // On a network the account has never seen, the owner's way in is the reset mail.
    const cafe = freshV6Net();
    expect((await login(u.email, u.password, cafe(1))).statusCode).toBe(429);
    expect((await post("/api/forgot-password", { email: u.email }, cafe(1))).statusCode).toBe(200);
    const mail = await t.smtp.waitForMail(u.email);
    const token = new URL(linkFrom(mail, `${t.config.appUrl}/forgot-password`)).searchParams.get("token")!;
    expect(
      (await post("/api/reset-password", { token, password: "owner-fresh-secret" }, cafe(2))).statusCode,
    ).toBe(200);
    expect((await login(u.email, "owner-fresh-secret", cafe(3))).statusCode).toBe(200);
  });
});

describe("sign-in guesses sent all at once (audit T4-3)", () => {
  // Behind a proxy, as the red team ran it: each guess names its /64 in X-Forwarded-For.
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ env: { TRUST_PROXY: "1" } });
  });
  afterAll(async () => {
    await proxied.cleanup();
  });

  it("judges 50 of 300 guesses sent at once from 300 /64s, and gives no session to the right password among them", async () => {
    const u = await registerByMail(proxied);
    const guesses = Array.from({ length: 300 }, (_, i) => (i === 149 ? u.password : `guess-${i}`));
    const answers = await Promise.all(
      guesses.map((password) =>
        proxied.app.inject({
          method: "POST",
          url: "/api/login",
          payload: { email: u.email, password },
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": freshV6Net()(1) },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // Every address is new, so only the account's 50 places decide: exactly 50 guesses are checked (all
    // wrong: the right password, guess 150, arrives after the places are taken) and the rest are refused.
    expect(statuses.filter((status) => status !== 429)).toEqual(Array(50).fill(401));
    expect(statuses.filter((status) => status === 429)).toHaveLength(250);
    const refused = answers[149]!;
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(
      /too many wrong passwords\. Please sign in from a device you have used before/,
    );
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(answers.some((answer) => answer.body.includes('access_token":"'))).toBe(false);
    // The only session is the one registerByMail's own sign-in made.
    const held = await proxied.database.db.select().from(sessions).where(eq(sessions.userId, u.userId));
    expect(held).toHaveLength(1);
    // The 50 failures stay counted: a later try with the right password from another new /64 is refused too.
    const later = await proxied.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: u.email, password: u.password },
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": freshV6Net()(1) },
    });
    expect(later.statusCode).toBe(429);
  });

  it("judges one guess from a /64 sending its 30 sign-ins at once at an account already at 10 failures", async () => {
    const u = await registerByMail(proxied);
    for (let i = 0; i < 10; i += 1) {
      const res = await proxied.app.inject({
        method: "POST",
        url: "/api/login",
        payload: { email: u.email, password: `early-${i}` },
        remoteAddress: "127.0.0.1",
        headers: { "x-forwarded-for": freshV6Net()(1) },
      });
      expect(res.statusCode).toBe(401);
    }
    const attacker = freshV6Net();
    const answers = await Promise.all(
      // The address's whole sign-in allowance (30 per 15 minutes), so every refusal here is the account's.
      Array.from({ length: accountLimits.loginPerAddress.limit }, (_, i) =>
        proxied.app.inject({
          method: "POST",
          url: "/api/login",
          payload: { email: u.email, password: `burst-${i}` },
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": attacker(i) },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // One at a time, an address gets one wrong try at an account past 10 failures; all at once, the same.
    expect(statuses.filter((status) => status === 401)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(accountLimits.loginPerAddress.limit - 1);
  });
});

describe("reset mail lock-out", () => {
  it("still mails the owner a working reset link after a stranger used up their own allowance", async () => {
    const u = await registerByMail(t);
    const stranger = freshAddress();
    for (let i = 0; i < 5; i += 1) {
      expect((await post("/api/forgot-password", { email: u.email }, stranger)).statusCode).toBe(200);
    }
    expect((await post("/api/forgot-password", { email: u.email }, stranger)).statusCode).toBe(429);

    const owner = await post("/api/forgot-password", { email: u.email.toUpperCase() });
    expect(owner.statusCode).toBe(200);
    const mails = [];
    for (let i = 0; i < 6; i += 1) mails.push(await t.smtp.waitForMail(u.email));
    const tokens = mails.map(
      (mail) => new URL(linkFrom(mail, `${t.config.appUrl}/forgot-password`)).searchParams.get("token")!,
    );
    // Each request retires the links before it; whichever was mailed last is live.
    const answers = [];
    for (const token of tokens) {
      answers.push((await post("/api/reset-password", { token, password: "owner-new-secret" })).statusCode);
    }
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect((await login(u.email, "owner-new-secret")).statusCode).toBe(200);
  });

  it("still mails the owner after strangers at two addresses spent the account's whole mail allowance", async () => {
    const u = await registerByMail(t);
    const strangers = [freshAddress(), freshAddress()];
    for (const stranger of strangers) {
      for (let i = 0; i < 5; i += 1) {
        expect((await post("/api/forgot-password", { email: u.email }, stranger)).statusCode).toBe(200);
      }
    }
    const strangerMails = [];
    for (let i = 0; i < 10; i += 1) strangerMails.push(await t.smtp.waitForMail(u.email));

    // The account's 10 mails an hour are spent; the owner, asking from an address of their own, still gets one.
    expect((await post("/api/forgot-password", { email: u.email })).statusCode).toBe(200);
    const ownerMail = await t.smtp.waitForMail(u.email);
    const token = new URL(linkFrom(ownerMail, `${t.config.appUrl}/forgot-password`)).searchParams.get(
      "token",
    )!;
    expect((await post("/api/reset-password", { token, password: "owner-second-secret" })).statusCode).toBe(
      200,
    );
    expect((await login(u.email, "owner-second-secret")).statusCode).toBe(200);
  });

  it("still mails a new verification link to its owner after strangers spent the allowance", async () => {
    const c = newCredentials();
    expect((await post("/api/register", c)).statusCode).toBe(200);
    await t.smtp.waitForMail(c.email);
    for (const stranger of [freshAddress(), freshAddress()]) {
      for (let i = 0; i < 5; i += 1) {
        expect((await post("/api/resend-verification", { email: c.email }, stranger)).statusCode).toBe(200);
      }
    }
    for (let i = 0; i < 10; i += 1) await t.smtp.waitForMail(c.email);

    expect((await post("/api/resend-verification", { email: c.email })).statusCode).toBe(200);
    const mail = await t.smtp.waitForMail(c.email);
    const token = new URL(linkFrom(mail, `${t.config.appUrl}/verify-email`)).searchParams.get("token")!;
    const verified = await t.app.inject({
      method: "GET",
      url: `/api/verify-email/${encodeURIComponent(token)}`,
      remoteAddress: freshAddress(),
    });
    expect(verified.statusCode).toBe(200);
    expect((await login(c.email, c.password)).statusCode).toBe(200);
  });
});
