import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../test/database";
import { findUserByEmail, insertUser } from "./accounts/repo";
import { runAdmin } from "./admin";
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
  });
});
