// The admin console's API on a real database (both engines): the 404 every non-administrator gets, search
// and paging, grants and take-backs as ledger entries the player sees, the audit log, spending caps that
// refuse before the vendor is called or a credit moves, and disabling an account, which ends its sessions
// and event streams on a second API process at once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, freshAddress, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { type EventStream, openEventStream } from "../../test/sse";
import { changeAccount } from "../accounts/service";
import { buildApp } from "../app";
import { forgetAccountInAudit } from "../audit/log";
import { findAccount, ledgerSum } from "../credits/repo";
import { type Database, openDatabase } from "../db/client";
import type { TypedApp } from "../http/route-module";

let t: TestApp;
let openai: OpenAIFake;
let other: TypedApp;
let otherDatabase: Database;
let otherBase: string;
let admin: TestUser;
const streams: EventStream[] = [];

beforeAll(async () => {
  openai = await startOpenAIFake();
  t = await createTestApp({
    tickingClock: true,
    env: { TEXT_PROVIDER: "openai", TEXT_API_KEY: openai.apiKey, TEXT_BASE_URL: openai.baseUrl },
  });
  otherDatabase = t.database.kind === "postgres" ? await openDatabase(t.target) : t.database;
  other = await buildApp({
    config: t.config,
    database: otherDatabase,
    jobs: t.jobs,
    providers: t.providers,
    storage: t.storage,
    clock: t.clock,
    webDistDir: t.webDistDir,
    logger: false,
  });
  otherBase = await other.listen({ port: 0, host: "127.0.0.1" });
  admin = await createUser(t);
  await changeAccount(t.ctx, admin.userId, { role: "admin" });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await other.close();
  if (otherDatabase !== t.database) await otherDatabase.close();
  await t.cleanup();
  await openai.close();
});

type Method = "GET" | "PUT" | "POST";
const call = (user: TestUser | undefined, method: Method, url: string, payload?: object, app = t.app) =>
  app.inject({ method, url, headers: user ? bearer(user.token) : {}, ...(payload ? { payload } : {}) });

const ADMIN_CALLS = (id: string): [Method, string, object | undefined][] => [
  ["GET", "/api/admin/users", undefined],
  ["GET", "/api/admin/users?q=user", undefined],
  ["GET", `/api/admin/users/${id}`, undefined],
  ["PUT", `/api/admin/users/${id}`, { role: "admin" }],
  ["PUT", `/api/admin/users/${id}`, { nonsense: 1 }],
  ["POST", `/api/admin/users/${id}/credits`, { amount: 1000, reason: "mine now" }],
  ["POST", `/api/admin/users/${id}/sessions/revoke`, undefined],
  ["GET", "/api/admin/caps", undefined],
  ["PUT", "/api/admin/caps", { daily_default: 0, monthly_default: 0, install_daily: 0 }],
  ["GET", "/api/admin/audit", undefined],
  ["GET", "/api/admin/audit?cursor=not-a-cursor", undefined],
];

describe("every /api/admin/* call", () => {
  it("answers 404 to a player, a visitor and a disabled administrator, as a path that does not exist does", async () => {
    const player = await createUser(t);
    const demoted = await createUser(t);
    await changeAccount(t.ctx, demoted.userId, { role: "admin" });
    await changeAccount(t.ctx, demoted.userId, { disabledAt: new Date() });
    const before = await call(admin, "GET", `/api/admin/users/${player.userId}`);
    expect(before.json()).toMatchObject({ role: "player", balance: 15 });

    for (const [method, url, payload] of ADMIN_CALLS(player.userId)) {
      for (const caller of [player, undefined, demoted]) {
        const res = await call(caller, method, url, payload);
        const path = url.split("?")[0];
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ detail: `No API route ${method} ${path}`, code: "not_found" });
      }
    }
    // Nothing happened: the player is still a player with their credits, and no caps were set.
    expect((await call(admin, "GET", `/api/admin/users/${player.userId}`)).json()).toMatchObject({
      role: "player",
      balance: 15,
      sessions: 1,
    });
    const unknown = await call(player, "GET", "/api/admin/nothing-here");
    expect(unknown.json()).toEqual({ detail: "No API route GET /api/admin/nothing-here", code: "not_found" });
  });
});

describe("users", () => {
  it("finds accounts by part of an email or name, or by id, a page at a time", async () => {
    const marker = randomUUID().slice(0, 6);
    const made: TestUser[] = [];
    for (let i = 0; i < 27; i++) {
      made.push(
        await createUser(t, { email: `find-${marker}-${i}@example.com`, username: `f${marker}_${i}` }),
      );
    }
    const first = (await call(admin, "GET", `/api/admin/users?q=find-${marker.toUpperCase()}`)).json();
    expect(first.users).toHaveLength(25);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (
      await call(
        admin,
        "GET",
        `/api/admin/users?q=find-${marker}&cursor=${encodeURIComponent(first.next_cursor)}`,
      )
    ).json();
    expect(second.users).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    const emails = [...first.users, ...second.users].map((user: { email: string }) => user.email);
    expect(new Set(emails).size).toBe(27);
    expect(emails.sort()).toEqual(made.map((user) => user.email).sort());

    const byName = (await call(admin, "GET", `/api/admin/users?q=f${marker}_26`)).json();
    expect(byName.users.map((user: { id: string }) => user.id)).toEqual([made[26]!.userId]);
    const byId = (await call(admin, "GET", `/api/admin/users?q=${made[3]!.userId}`)).json();
    expect(byId.users).toEqual([
      expect.objectContaining({ id: made[3]!.userId, verified: true, disabled: false, role: "player" }),
    ]);
    expect((await call(admin, "GET", "/api/admin/users?cursor=garbage")).statusCode).toBe(400);

    const detail = (await call(admin, "GET", `/api/admin/users/${made[0]!.userId}`)).json();
    expect(detail).toMatchObject({
      email: made[0]!.email,
      balance: 15,
      unlimited: false,
      storage_used_bytes: 0,
      stories: 0,
      sessions: 1,
      daily_cap: null,
      monthly_cap: null,
      spent_today: 0,
      capped: null,
    });
    expect(Date.parse(detail.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await call(admin, "GET", `/api/admin/users/${randomUUID()}`)).statusCode).toBe(404);
  });
});

describe("credits", () => {
  it("grants and takes back with a reason, as ledger entries the player sees, each in the audit log", async () => {
    const player = await createUser(t);
    const url = `/api/admin/users/${player.userId}/credits`;
    expect((await call(admin, "POST", url, { amount: 10 })).statusCode).toBe(400);
    expect((await call(admin, "POST", url, { amount: 10, reason: "  " })).statusCode).toBe(400);
    expect((await call(admin, "POST", url, { amount: 1.25, reason: "x" })).statusCode).toBe(400);

    const granted = await call(admin, "POST", url, { amount: 10, reason: "Thanks for the bug report" });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().balance).toBe(25);
    const tooMuch = await call(admin, "POST", url, { amount: -30, reason: "Refunded by the bank" });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().detail).toBe("The account holds 25 credits: take back at most that.");
    const taken = await call(admin, "POST", url, { amount: -2.5, reason: "Refunded by the bank" });
    expect(taken.json().balance).toBe(22.5);

    const history = (await call(player, "GET", "/api/credit-history")).json().transactions;
    expect(history.slice(0, 2)).toEqual([
      expect.objectContaining({
        transaction_type: "admin_take_back",
        credits_amount: -2.5,
        balance_after: 22.5,
        description: "2.5 credits taken back by an administrator: Refunded by the bank",
      }),
      expect.objectContaining({
        transaction_type: "admin_grant",
        credits_amount: 10,
        balance_after: 25,
        description: "10 credits granted by an administrator: Thanks for the bug report",
      }),
    ]);
    expect(await ledgerSum(t.ctx.db, player.userId)).toBe(225);

    const audit = (await call(admin, "GET", "/api/admin/audit")).json().entries;
    expect(audit.slice(0, 2)).toEqual([
      expect.objectContaining({
        actor: admin.email,
        actor_id: admin.userId,
        action: "take_back_credits",
        target: player.email,
        target_id: player.userId,
        details: { amount: -2.5 },
        reason: "Refunded by the bank",
      }),
      expect.objectContaining({ action: "grant_credits", details: { amount: 10 } }),
    ]);
    expect(Date.parse(audit[0].at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("switches unlimited credits, marks an email verified and sets the role, each audited", async () => {
    const player = await createUser(t);
    await changeAccount(t.ctx, player.userId, { emailVerifiedAt: null });
    const res = await call(admin, "PUT", `/api/admin/users/${player.userId}`, {
      unlimited: true,
      verified: true,
      role: "admin",
      reason: "Co-organiser",
    });
    expect(res.json()).toMatchObject({ unlimited: true, balance: -1, verified: true, role: "admin" });
    const [entry] = (await call(admin, "GET", "/api/admin/audit")).json().entries;
    expect(entry).toMatchObject({
      action: "update_user",
      target_id: player.userId,
      details: { role: "admin", verified: true, unlimited: true },
      reason: "Co-organiser",
    });
    // The new administrator's own calls now answer; an administrator cannot demote or disable themselves.
    expect((await call(player, "GET", "/api/admin/caps")).statusCode).toBe(200);
    expect(
      (await call(admin, "PUT", `/api/admin/users/${admin.userId}`, { disabled: true })).statusCode,
    ).toBe(409);
    expect((await call(player, "GET", "/api/user/verify")).json().role).toBe("admin");
  });

  it("pages the audit log by cursor, newest first", async () => {
    for (let i = 0; i < 26; i++) {
      await call(admin, "PUT", "/api/admin/caps", {
        daily_default: null,
        monthly_default: null,
        install_daily: i + 1000,
      });
    }
    await call(admin, "PUT", "/api/admin/caps", {
      daily_default: null,
      monthly_default: null,
      install_daily: null,
    });
    const first = (await call(admin, "GET", "/api/admin/audit")).json();
    expect(first.entries).toHaveLength(25);
    expect(first.entries[0].details).toEqual({
      daily_default: null,
      monthly_default: null,
      install_daily: null,
    });
    const second = (await call(admin, "GET", `/api/admin/audit?cursor=${first.next_cursor}`)).json();
    expect(Number(second.entries[0].id)).toBeLessThan(Number(first.entries.at(-1).id));
    expect(second.entries[0].details.install_daily).toBe(1001);
  });
});

describe("caps", () => {
  const turn = (user: TestUser) =>
    call(user, "POST", "/api/chat", { prompt: "I open the door", chat_mode: "chat" });

  it("refuses a player at their daily cap with 429 usage_cap before the vendor is called or a credit moves", async () => {
    const player = await createUser(t);
    const set = await call(admin, "PUT", `/api/admin/users/${player.userId}`, { daily_cap: 1 });
    expect(set.json()).toMatchObject({ daily_cap: 1, capped: null });
    expect((await turn(player)).statusCode).toBe(200);
    expect((await turn(player)).statusCode).toBe(200);

    const vendorCalls = openai.requests.length;
    const balance = (await findAccount(t.ctx.db, player.userId))!.balanceTenths;
    const refused = await turn(player);
    expect(refused.statusCode).toBe(429);
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    expect(refused.json()).toEqual({
      code: "usage_cap",
      cap: "daily",
      limit: 1,
      resets_at: tomorrow.toISOString(),
      detail: `You have reached your daily limit of 1 credit. It resets at ${tomorrow.toISOString().replace(".000Z", "Z")}.`,
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(openai.requests.length).toBe(vendorCalls);
    expect((await findAccount(t.ctx.db, player.userId))!.balanceTenths).toBe(balance);
    expect(balance).toBe(140);

    // The console shows who is capped; lifting the account's cap lets the next turn through.
    expect((await call(admin, "GET", `/api/admin/users/${player.userId}`)).json().capped).toBe("daily");
    await call(admin, "PUT", "/api/admin/caps", {
      daily_default: 50,
      monthly_default: null,
      install_daily: null,
    });
    const caps = (await call(admin, "GET", "/api/admin/caps")).json();
    expect(caps.capped_users).toContainEqual({
      id: player.userId,
      email: player.email,
      cap: "daily",
      limit: 1,
    });
    await call(admin, "PUT", `/api/admin/users/${player.userId}`, { daily_cap: null });
    expect((await turn(player)).statusCode).toBe(200);
    await call(admin, "PUT", "/api/admin/caps", {
      daily_default: null,
      monthly_default: null,
      install_daily: null,
    });
  });

  it("refuses everyone at the install's daily cap, and a default cap applies to accounts without their own", async () => {
    const spender = await createUser(t);
    const latecomer = await createUser(t);
    const spentSoFar = (await call(admin, "GET", "/api/admin/caps")).json().install_spent_today as number;
    await call(admin, "PUT", "/api/admin/caps", {
      daily_default: null,
      monthly_default: 0.5,
      install_daily: spentSoFar + 1,
    });
    expect((await turn(spender)).statusCode).toBe(200);
    const monthly = await turn(spender);
    expect(monthly.json()).toMatchObject({ code: "usage_cap", cap: "monthly", limit: 0.5 });
    await call(admin, "PUT", `/api/admin/users/${spender.userId}`, { monthly_cap: 100 });
    expect((await turn(spender)).statusCode).toBe(200);

    const vendorCalls = openai.requests.length;
    const install = await turn(latecomer);
    expect(install.statusCode).toBe(429);
    expect(install.json()).toMatchObject({ code: "usage_cap", cap: "install", limit: spentSoFar + 1 });
    expect(install.json().detail).toMatch(/^This Storyverse has reached its daily spending limit/);
    expect(openai.requests.length).toBe(vendorCalls);
    expect((await findAccount(t.ctx.db, latecomer.userId))!.balanceTenths).toBe(150);
    await call(admin, "PUT", "/api/admin/caps", {
      daily_default: null,
      monthly_default: null,
      install_daily: null,
    });
  });
});

describe("disabling an account", () => {
  it("ends its sessions and event streams on every process at once, and refuses its sign-in until enabled", async () => {
    const player = await createUser(t);
    const elsewhere = await other.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: player.email, password: player.password },
      remoteAddress: freshAddress(),
    });
    const secondToken = elsewhere.json().access_token as string;
    const verify = (token: string) =>
      other.inject({ method: "GET", url: "/api/user/verify", headers: bearer(token) });
    // The other process has both sessions cached and holds a live event stream.
    for (const token of [player.token, secondToken]) expect((await verify(token)).statusCode).toBe(200);
    const stream = await openEventStream(otherBase, secondToken);
    streams.push(stream);
    expect(stream.status).toBe(200);

    const started = performance.now();
    const disabled = await call(admin, "PUT", `/api/admin/users/${player.userId}`, {
      disabled: true,
      reason: "Spam",
    });
    expect(disabled.json()).toMatchObject({ disabled: true, sessions: 0 });
    await stream.ended;
    for (const token of [player.token, secondToken]) {
      for (;;) {
        const status = (await verify(token)).statusCode;
        if (status === 401) break;
        expect(performance.now() - started).toBeLessThan(1000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(performance.now() - started).toBeLessThan(1000);

    const login = () =>
      t.app.inject({
        method: "POST",
        url: "/api/login",
        payload: { email: player.email, password: player.password },
        remoteAddress: freshAddress(),
      });
    const refused = await login();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: "account_disabled",
      detail: "This account has been disabled. Please contact the site's administrator.",
    });
    // A wrong password says nothing of the account's state.
    const guess = await t.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: player.email, password: "a-wrong-guess" },
      remoteAddress: freshAddress(),
    });
    expect(guess.statusCode).toBe(401);

    await call(admin, "PUT", `/api/admin/users/${player.userId}`, { disabled: false });
    expect((await login()).statusCode).toBe(200);
    const [entry, before] = (await call(admin, "GET", "/api/admin/audit")).json().entries;
    expect(entry).toMatchObject({ action: "update_user", details: { disabled: false } });
    expect(before).toMatchObject({ action: "update_user", details: { disabled: true }, reason: "Spam" });
  });

  it("revokes an account's sessions on demand", async () => {
    const player = await createUser(t);
    const res = await call(admin, "POST", `/api/admin/users/${player.userId}/sessions/revoke`);
    expect(res.json()).toEqual({ revoked: 1 });
    expect((await call(player, "GET", "/api/user/verify")).statusCode).toBe(401);
    const [entry] = (await call(admin, "GET", "/api/admin/audit")).json().entries;
    expect(entry).toMatchObject({
      action: "revoke_sessions",
      target_id: player.userId,
      details: { sessions: 1 },
    });
  });
});

describe("an account's deletion", () => {
  it("leaves the audit log's entries about it, and by it, naming no one", async () => {
    const player = await createUser(t);
    const helper = await createUser(t);
    await changeAccount(t.ctx, helper.userId, { role: "admin" });
    await call(helper, "POST", `/api/admin/users/${player.userId}/credits`, { amount: 1, reason: "Thanks" });
    await forgetAccountInAudit(t.ctx, player.userId);
    await forgetAccountInAudit(t.ctx, helper.userId);
    const [entry] = (await call(admin, "GET", "/api/admin/audit")).json().entries;
    expect(entry).toMatchObject({
      action: "grant_credits",
      actor: "a deleted account",
      actor_id: null,
      target: "a deleted account",
      target_id: null,
      reason: "Thanks",
    });
  });
});
