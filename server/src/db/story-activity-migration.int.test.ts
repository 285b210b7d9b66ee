// Migration 0031 (stories.last_activity, decision 0134) over stories written before it: each story's last
// activity is the later of its own updated_at and its newest shown message (a hidden retry version does not
// count), so the story list keeps the order it showed before the column existed.
import { afterAll, describe, expect, it } from "vitest";
import { migrationDatabases } from "../../test/migration-database";

const databases = migrationDatabases();
afterAll(() => databases.cleanup());

describe("migration 0031: the stories' last activity", () => {
  it("is backfilled from each story's newest shown message, or its own change when that is later", async () => {
    const database = await databases.before("0031_story_last_activity");
    const sql = database.executeSql;
    const userId = "00000000-0000-4000-8000-000000000001";
    const played = "00000000-0000-4000-8000-0000000000a1";
    const edited = "00000000-0000-4000-8000-0000000000a2";
    const untouched = "00000000-0000-4000-8000-0000000000a3";
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    await sql(
      "insert into users (id, email, username, password_hash, created_at) values ($1, 'a@example.com', 'a', 'x', $2)",
      [userId, day(1)],
    );
    const story = (id: string, updatedAt: Date) =>
      sql("insert into stories (id, user_id, title, created_at, updated_at) values ($1, $2, 'T', $3, $3)", [
        id,
        userId,
        updatedAt,
      ]);
    await story(played, day(2));
    await story(edited, day(9));
    await story(untouched, day(3));
    const message = (storyId: string, at: Date, hidden: boolean) =>
      sql(
        `insert into chat_messages (user_id, story_id, role, content, mode, hidden, created_at, updated_at)
         values ($1, $2, 'assistant', 'words', 'chat', $3, $4, $4)`,
        [userId, storyId, hidden, at],
      );
    await message(played, day(5), false);
    await message(played, day(6), false);
    // A retry's version that is not shown is not activity the list ever showed.
    await message(played, day(8), true);
    await message(edited, day(4), false);

    await databases.migrateAll(database);

    const rows = (await sql("select id, last_activity from stories order by id")).rows as {
      id: string;
      last_activity: Date | string;
    }[];
    expect(rows.map((row) => [row.id, new Date(row.last_activity).toISOString()])).toEqual([
      [played, day(6).toISOString()],
      [edited, day(9).toISOString()],
      [untouched, day(3).toISOString()],
    ]);
    // Every row has one from now on.
    await expect(
      sql("insert into stories (user_id, title, created_at, updated_at) values ($1, 'U', $2, $2)", [
        userId,
        day(10),
      ]),
    ).rejects.toThrow();
  });
});
