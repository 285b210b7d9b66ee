// PGlite's housekeeping: a started process vacuums and analyzes the tables of its embedded database that need
// it (what PostgreSQL's autovacuum does for a server), so the planner has statistics and index-only scans
// (recall's turn numbers) are possible, without going over unchanged tables again (PGlite answers nothing else
// while it runs). On PostgreSQL it leaves that to the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testEngine } from "../../test/database";
import { housekeep, startHousekeeping } from "./housekeeping";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
  await test.database.executeSql("create table housekeeping_probe (id int, note text)");
});
afterAll(async () => {
  await test.cleanup();
});

const addRows = (count: number) =>
  test.database.executeSql(
    `insert into housekeeping_probe select i, md5(i::text) from generate_series(1, ${count}) i`,
  );

/** When the probe table was last vacuumed and analyzed by a statement (not by autovacuum). */
async function lastHousekeeping() {
  const { rows } = await test.database.executeSql(
    "select last_vacuum, last_analyze from pg_stat_user_tables where relname = 'housekeeping_probe'",
  );
  return rows[0] as { last_vacuum: unknown; last_analyze: unknown };
}

describe("database housekeeping", () => {
  it(`${testEngine === "pglite" ? "vacuums and analyzes PGlite soon after the start" : "leaves PostgreSQL to its autovacuum"}`, async () => {
    await addRows(3_000);
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

  it("goes over a table again only once it has grown by a tenth", async () => {
    await housekeep(test.database);
    expect(await housekeep(test.database)).not.toContain("public.housekeeping_probe");
    await addRows(100);
    expect(await housekeep(test.database)).not.toContain("public.housekeeping_probe");
    await addRows(3_000);
    expect(await housekeep(test.database)).toContain("public.housekeeping_probe");
    expect(await housekeep(test.database)).not.toContain("public.housekeeping_probe");
  });
});
