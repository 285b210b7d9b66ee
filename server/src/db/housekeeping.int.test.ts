// PGlite's housekeeping: a started process vacuums and analyzes its embedded database (what PostgreSQL's
// autovacuum does for a server), so the planner has statistics and index-only scans (recall's turn numbers)
// are possible. On PostgreSQL it leaves that to the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testEngine } from "../../test/database";
import { startHousekeeping } from "./housekeeping";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test.cleanup();
});

/** When chat_messages was last vacuumed and analyzed by a statement (not by autovacuum). */
async function lastHousekeeping() {
  const { rows } = await test.database.executeSql(
    "select last_vacuum, last_analyze from pg_stat_user_tables where relname = 'chat_messages'",
  );
  return rows[0] as { last_vacuum: unknown; last_analyze: unknown };
}

describe("database housekeeping", () => {
  it(`${testEngine === "pglite" ? "vacuums and analyzes PGlite soon after the start" : "leaves PostgreSQL to its autovacuum"}`, async () => {
    expect(await lastHousekeeping()).toEqual({ last_vacuum: null, last_analyze: null });
    const warnings: string[] = [];
    const stop = startHousekeeping(
      test.database,
      { warn: (_obj, msg) => warnings.push(msg) },
      { firstAfterMs: 0 },
    );
    let after = await lastHousekeeping();
    for (let i = 0; i < 100 && testEngine === "pglite" && after.last_analyze === null; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await lastHousekeeping();
    }
    await stop();
    if (testEngine === "pglite") {
      expect(after.last_vacuum).not.toBeNull();
      expect(after.last_analyze).not.toBeNull();
    } else {
      expect(await lastHousekeeping()).toEqual({ last_vacuum: null, last_analyze: null });
    }
    expect(warnings).toEqual([]);
  });
});
