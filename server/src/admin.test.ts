import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../test/database";
import { findUserByEmail, insertUser } from "./accounts/repo";
import { runAdmin } from "./admin";
import { findAccount } from "./credits/repo";
import { openAccountWithSignupBonus, remainingCredits } from "./credits/service";
import { openDatabase } from "./db/client";

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
    await reopened.close();
    await testDb.cleanup();
  }, 120_000);
});
