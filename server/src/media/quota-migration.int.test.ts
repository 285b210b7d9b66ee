// Migration 0027 (storage quotas, decision 0122) over a database that already holds gallery items: each
// original is counted with the size its row holds, each account's total is their sum, and objects whose size
// the database does not hold (thumbnails) are not counted.
import { afterAll, describe, expect, it } from "vitest";
import { migrationDatabases } from "../../test/migration-database";
import { storageUsage } from "./quota";

const databases = migrationDatabases();
afterAll(() => databases.cleanup());

describe("migration 0027: storage quotas", () => {
  it("counts every gallery original an account already has, and nothing for an account without media", async () => {
    const database = await databases.before("0027_storage_quota");
    const sql = database.executeSql;
    const now = new Date();
    const users = [
      "00000000-0000-4000-8000-000000000001",
      "00000000-0000-4000-8000-000000000002",
      "00000000-0000-4000-8000-000000000003",
    ] as const;
    for (const [n, id] of users.entries()) {
      await sql(
        "insert into users (id, email, username, password_hash, created_at) values ($1, $2, $3, 'x', $4)",
        [id, `u${n}@example.com`, `u${n}`, now],
      );
    }
    const item = (id: string, userId: string, kind: string, bytes: number) =>
      sql(
        `insert into media_items (id, user_id, kind, storage_key, thumbnail_key, mime_type, bytes, source, created_at)
         values ($1, $2, $3, $4, $5, 'image/png', $6, 'studio', $7)`,
        [id, userId, kind, `u/${userId}/${id}.png`, `u/${userId}/${id}.thumb.webp`, bytes, now],
      );
    await item("00000000-0000-4000-8000-0000000000a1", users[0], "image", 1_000);
    await item("00000000-0000-4000-8000-0000000000a2", users[0], "video", 2_500);
    await item("00000000-0000-4000-8000-0000000000b1", users[1], "image", 700);

    await databases.migrateAll(database);
    const config = { mediaQuotaMb: 2048 };
    expect(await storageUsage({ db: database.db, config }, users[0])).toEqual({
      usedBytes: 3_500,
      limitBytes: 2048 * 1024 * 1024,
    });
    expect((await storageUsage({ db: database.db, config }, users[1])).usedBytes).toBe(700);
    expect((await storageUsage({ db: database.db, config }, users[2])).usedBytes).toBe(0);
    const counted = await sql("select key, bytes from media_objects order by bytes");
    expect(counted.rows.map((row) => [row.key, Number(row.bytes)])).toEqual([
      [`u/${users[1]}/00000000-0000-4000-8000-0000000000b1.png`, 700],
      [`u/${users[0]}/00000000-0000-4000-8000-0000000000a1.png`, 1_000],
      [`u/${users[0]}/00000000-0000-4000-8000-0000000000a2.png`, 2_500],
    ]);
  });
});
