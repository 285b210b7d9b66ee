import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFakeWebDist } from "../test/app";
import { createPostgresDatabase, createTestDatabase, testEngine } from "../test/database";
import { freePort } from "../test/processes";
import { findUserByEmail, insertUser } from "./accounts/repo";
import { runAdmin } from "./admin";
import { loadConfig } from "./config";
import { findAccount } from "./credits/repo";
import { openAccountWithSignupBonus, remainingCredits } from "./credits/service";
import { DataDirectoryInUse, openDatabase } from "./db/client";
import { storageUsage } from "./media/quota";
import { startServer } from "./server";

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("npm run admin", () => {
  it("verify-email marks an existing account verified, and fails for an unknown address", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-admin-"));
    dirs.push(dataDir);
    const testDb = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
    await insertUser(testDb.database.db, {
      email: "Writer@Example.com",
      username: "writer",
      passwordHash: "x",
      createdAt: new Date(),
    });
    await testDb.database.close();
    const env = "url" in testDb.target ? { DATABASE_URL: testDb.target.url } : { DATA_DIR: dataDir };
    const log = vi.spyOn(console, "log").mockImplementation(() => {});

    expect(await runAdmin(["verify-email", "writer@example.com"], env)).toBe(0);
    expect(log).toHaveBeenCalledWith("Verified writer@example.com.");
    expect(await runAdmin(["verify-email", "ghost@example.com"], env)).toBe(1);
    expect(await runAdmin(["frobnicate"], env)).toBe(1);

    const reopened = await openDatabase(testDb.target);
    const row = await findUserByEmail(reopened.db, "writer@example.com");
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    await reopened.close();
    await testDb.cleanup();
  }, 120_000);
});

describe("npm run admin: credits", () => {
  it("grants credits, switches unlimited on and off, and lists balances", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-admin-"));
    dirs.push(dataDir);
    const testDb = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
    for (const [email, username] of [
      ["reader@example.com", "reader"],
      ["writer@example.com", "writer"],
    ] as const) {
      const user = await insertUser(testDb.database.db, {
        email,
        username,
        passwordHash: "x",
        createdAt: new Date(),
      });
      await openAccountWithSignupBonus(testDb.database.db, user.id, new Date());
    }
    await testDb.database.close();
    const env = "url" in testDb.target ? { DATABASE_URL: testDb.target.url } : { DATA_DIR: dataDir };
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});

    expect(await runAdmin(["grant-credits", "writer@example.com", "2.5"], env)).toBe(0);
    expect(log).toHaveBeenLastCalledWith("Granted 2.5 credits to writer@example.com. Balance: 17.5 credits.");
    expect(await runAdmin(["set-unlimited", "reader@example.com", "on"], env)).toBe(0);
    expect(log).toHaveBeenLastCalledWith("Unlimited credits on for reader@example.com. Balance: unlimited.");

    log.mockClear();
    expect(await runAdmin(["list-balances"], env)).toBe(0);
    const table = log.mock.calls.map((call) => String(call[0]));
    expect(table[0]).toMatch(/^EMAIL\s+USERNAME\s+CREDITS$/);
    expect(table[1]).toMatch(/^reader@example\.com\s+reader\s+unlimited \(15 kept\)$/);
    expect(table[2]).toMatch(/^writer@example\.com\s+writer\s+17\.5$/);

    expect(await runAdmin(["set-unlimited", "reader@example.com", "off"], env)).toBe(0);
    // Each run opens the database afresh, so only a few representative mistakes.
    for (const bad of [
      ["grant-credits", "writer@example.com", "1.25"],
      ["grant-credits", "ghost@example.com", "5"],
      ["set-unlimited", "reader@example.com", "maybe"],
    ]) {
      expect(await runAdmin(bad, env), bad.join(" ")).toBe(1);
    }
    expect(error).toHaveBeenCalled();

    const reopened = await openDatabase(testDb.target);
    const writer = await findUserByEmail(reopened.db, "writer@example.com");
    const reader = await findUserByEmail(reopened.db, "reader@example.com");
    expect(await remainingCredits(reopened.db, writer!.id)).toBe(17.5);
    expect(await findAccount(reopened.db, reader!.id)).toMatchObject({
      unlimited: false,
      balanceTenths: 150,
    });
    // The command line goes through the admin console's service: its ledger entry and its audit log.
    const ledger = await reopened.executeSql(
      "select description from credit_transactions where user_id = $1 and transaction_type = 'admin_grant'",
      [writer!.id],
    );
    expect(ledger.rows).toEqual([
      { description: "2.5 credits granted by an administrator: from the command line" },
    ]);
    const audit = await reopened.executeSql(
      "select actor, action, target, details from admin_audit order by id",
      [],
    );
    expect(audit.rows).toEqual([
      {
        actor: "command line",
        action: "grant_credits",
        target: "writer@example.com",
        details: { amount: 2.5 },
      },
      {
        actor: "command line",
        action: "update_user",
        target: "reader@example.com",
        details: { unlimited: true },
      },
      {
        actor: "command line",
        action: "update_user",
        target: "reader@example.com",
        details: { unlimited: false },
      },
    ]);
    await reopened.close();
    await testDb.cleanup();
  }, 120_000);
});

describe("npm run admin: storage quota", () => {
  it("sets an account's own media quota in MB, 0 for unlimited, and 'default' returns it to MEDIA_QUOTA_MB", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-admin-"));
    dirs.push(dataDir);
    const testDb = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
    const user = await insertUser(testDb.database.db, {
      email: "keeper@example.com",
      username: "keeper",
      passwordHash: "x",
      createdAt: new Date(),
    });
    await testDb.database.close();
    const base = "url" in testDb.target ? { DATABASE_URL: testDb.target.url } : { DATA_DIR: dataDir };
    const env = { ...base, MEDIA_QUOTA_MB: "512" };
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});

    expect(await runAdmin(["set-quota", "keeper@example.com", "100"], env)).toBe(0);
    expect(log).toHaveBeenLastCalledWith("Media storage of keeper@example.com: 100.0 MB, 0 B used.");
    const reopened = await openDatabase(testDb.target);
    const usageOf = () => storageUsage({ db: reopened.db, config: { mediaQuotaMb: 512 } }, user.id);
    expect(await usageOf()).toEqual({ usedBytes: 0, limitBytes: 100 * 1024 * 1024 });
    await reopened.close();

    expect(await runAdmin(["set-quota", "keeper@example.com", "0"], env)).toBe(0);
    expect(log).toHaveBeenLastCalledWith("Media storage of keeper@example.com: unlimited, 0 B used.");
    expect(await runAdmin(["set-quota", "keeper@example.com", "default"], env)).toBe(0);
    expect(log).toHaveBeenLastCalledWith(
      "Media storage of keeper@example.com: 512.0 MB (the install's MEDIA_QUOTA_MB), 0 B used.",
    );
    for (const bad of [
      ["set-quota", "keeper@example.com", "-5"],
      ["set-quota", "keeper@example.com", "1.5"],
      ["set-quota", "ghost@example.com", "10"],
    ]) {
      expect(await runAdmin(bad, env), bad.join(" ")).toBe(1);
    }
    const again = await openDatabase(testDb.target);
    expect(await storageUsage({ db: again.db, config: { mediaQuotaMb: 512 } }, user.id)).toEqual({
      usedBytes: 0,
      limitBytes: 512 * 1024 * 1024,
    });
    await again.close();
    await testDb.cleanup();
  }, 120_000);
});

describe("npm run admin beside a running server", () => {
  it("refuses on PGlite while the server runs (and works once it stops); works beside it on PostgreSQL", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-admin-"));
    dirs.push(dataDir);
    const postgres = testEngine === "postgres" ? await createPostgresDatabase() : undefined;
    const env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      WORKER: "off",
      REQUIRE_EMAIL_VERIFICATION: "false",
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    };
    const server = await startServer(loadConfig(env), { webDistDir: await createFakeWebDist() });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const registered = await fetch(`${server.url}/api/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "owner@example.com", username: "owner", password: "secret-owner" }),
      });
      const { access_token: token } = (await registered.json()) as { access_token: string };
      const credits = async () => {
        const profile = await fetch(`${server.url}/api/profile`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await profile.json()) as { credits_remaining: number }).credits_remaining;
      };

      const granted = await runAdmin(["grant-credits", "owner@example.com", "50"], env);
      if (postgres) {
        // PostgreSQL serves both processes: the running server sees the grant at once.
        expect(granted).toBe(0);
        expect(await credits()).toBe(65);
        return;
      }
      // On PGlite the write would land where the running server never looks, so the CLI refuses.
      expect(granted).toBe(1);
      expect(String(error.mock.lastCall?.[0])).toContain("stop the server first");
      expect(await runAdmin(["verify-email", "owner@example.com"], env)).toBe(1);
      expect(await credits()).toBe(15);
      // A second server on the same directory is refused the same way.
      await expect(startServer(loadConfig({ ...env, PORT: String(await freePort()) }))).rejects.toThrow(
        DataDirectoryInUse,
      );

      await server.stop();
      expect(await runAdmin(["grant-credits", "owner@example.com", "50"], env)).toBe(0);
      const reopened = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
      const owner = await findUserByEmail(reopened.db, "owner@example.com");
      expect(await remainingCredits(reopened.db, owner!.id)).toBe(65);
      await reopened.close();
    } finally {
      await server.stop();
      await postgres?.drop();
    }
  }, 180_000);
});

describe("npm run admin -- make-admin", () => {
  it("makes an administrator: beside a running server on PostgreSQL, while it is stopped on PGlite", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-admin-"));
    dirs.push(dataDir);
    const postgres = testEngine === "postgres" ? await createPostgresDatabase() : undefined;
    const env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      WORKER: "off",
      REQUIRE_EMAIL_VERIFICATION: "false",
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    };
    const server = await startServer(loadConfig(env), { webDistDir: await createFakeWebDist() });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const registered = await fetch(`${server.url}/api/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "owner@example.com", username: "owner", password: "secret-owner" }),
      });
      const { access_token: token } = (await registered.json()) as { access_token: string };
      const audit = () =>
        fetch(`${server.url}/api/admin/audit`, { headers: { authorization: `Bearer ${token}` } });
      expect((await audit()).status).toBe(404);

      const made = await runAdmin(["make-admin", "owner@example.com"], env);
      if (postgres) {
        expect(made).toBe(0);
        expect(log).toHaveBeenLastCalledWith(
          "owner@example.com is an administrator: the admin console is in their account menu.",
        );
        // The running server hears of the change (the users table's change signal) and opens the console.
        const started = performance.now();
        let answer = await audit();
        while (answer.status === 404 && performance.now() - started < 2000) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          answer = await audit();
        }
        expect(answer.status).toBe(200);
        const { entries } = (await answer.json()) as { entries: Record<string, unknown>[] };
        expect(entries[0]).toMatchObject({
          actor: "command line",
          actor_id: null,
          action: "update_user",
          target: "owner@example.com",
          details: { role: "admin" },
        });
        expect(await runAdmin(["make-admin", "ghost@example.com"], env)).toBe(1);
        expect(error).toHaveBeenLastCalledWith("No account with the email ghost@example.com.");
        return;
      }
      expect(made).toBe(1);
      expect(String(error.mock.lastCall?.[0])).toContain("stop the server first");
      await server.stop();
      expect(await runAdmin(["make-admin", "owner@example.com"], env)).toBe(0);
      expect(await runAdmin(["make-admin"], env)).toBe(1);
      const reopened = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
      expect((await findUserByEmail(reopened.db, "owner@example.com"))?.role).toBe("admin");
      await reopened.close();
    } finally {
      await server.stop();
      await postgres?.drop();
    }
  }, 180_000);
});
