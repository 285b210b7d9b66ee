// Migration 0015 (chat_messages.story_id becomes a foreign key to stories) over a database that already
// holds turns whose story was deleted (committed while their story's deletion ran, before the key existed):
// those rows go, and media still owed for them is refunded once by the unsettled-charge sweep.
import { afterAll, describe, expect, it } from "vitest";
import { migrationDatabases } from "../../test/migration-database";
import { sweepUnsettledCharges } from "../credits/service";

const databases = migrationDatabases();
afterAll(() => databases.cleanup());

describe("migration 0015: the story key of chat messages", () => {
  it("removes turns whose story is gone, refunds the media they still owed once, and keeps every other turn", async () => {
    const database = await databases.before("0015_chat_messages_story_fk");
    const sql = database.executeSql;
    const now = new Date();
    const userId = "00000000-0000-4000-8000-000000000001";
    const storyId = "00000000-0000-4000-8000-0000000000a1";
    const goneStoryId = "00000000-0000-4000-8000-0000000000b2";
    const ids = {
      kept: "00000000-0000-4000-8000-000000000011",
      main: "00000000-0000-4000-8000-000000000012",
      orphanPending: "00000000-0000-4000-8000-000000000013",
      orphanDone: "00000000-0000-4000-8000-000000000014",
      orphanRefunded: "00000000-0000-4000-8000-000000000015",
    };
    await sql(
      "insert into users (id, email, username, password_hash, created_at) values ($1, 'a@example.com', 'a', 'x', $2)",
      [userId, now],
    );
    await sql("insert into credit_accounts (user_id, balance_tenths) values ($1, 120)", [userId]);
    await sql(
      "insert into stories (id, user_id, title, created_at, updated_at) values ($1, $2, 'Kept', $3, $3)",
      [storyId, userId, now],
    );
    const message = (id: string, story: string | null, status: string, charged: number) =>
      sql(
        `insert into chat_messages (id, user_id, story_id, role, content, mode, media_status, charged_tenths, created_at, updated_at)
         values ($1, $2, $3, 'assistant', 'words', 'image', $4, $5, $6, $6)`,
        [id, userId, story, status, charged, now],
      );
    await message(ids.kept, storyId, "pending", 15);
    await message(ids.main, null, "pending", 15);
    await message(ids.orphanPending, goneStoryId, "pending", 30);
    await message(ids.orphanDone, goneStoryId, "completed", 15);
    await message(ids.orphanRefunded, goneStoryId, "pending", 15);
    // This one's media part was refunded already: the migration must not owe it again.
    await sql(
      `insert into credit_transactions (user_id, transaction_type, amount_tenths, balance_after_tenths, reference, created_at)
       values ($1, 'refund', 10, 120, $2, $3)`,
      [userId, `refund:${ids.orphanRefunded}`, now],
    );

    await databases.migrateAll(database);

    const left = (await sql("select id from chat_messages order by id")).rows.map((row) => row.id);
    expect(left).toEqual([ids.kept, ids.main]);
    const owed = (await sql("select paid_for, refund_tenths, delivered from unsettled_charges")).rows;
    expect(owed).toEqual([{ paid_for: ids.orphanPending, refund_tenths: 25, delivered: true }]);
    // The key holds from now on.
    await expect(message("00000000-0000-4000-8000-000000000016", goneStoryId, "none", 5)).rejects.toThrow();

    const later = new Date(now.getTime() + 60 * 60_000);
    expect(await sweepUnsettledCharges(database.db, later, 0)).toBe(1);
    expect(await sweepUnsettledCharges(database.db, later, 0)).toBe(0);
    const balance = (await sql("select balance_tenths from credit_accounts where user_id = $1", [userId]))
      .rows[0];
    expect(balance).toEqual({ balance_tenths: 145 });
  });
});
