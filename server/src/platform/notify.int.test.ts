// The notifier carries a signal to every subscriber, across processes on PostgreSQL (two separate
// connections stand in for two processes) and within the process on PGlite.
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { type Database, openDatabase } from "../db/client";

function nextPayload(database: Database, channel: string): Promise<string> {
  return new Promise((resolve) => {
    const stop = database.notifier.subscribe(channel, (payload) => {
      stop();
      resolve(payload);
    });
  });
}

describe("notifier", () => {
  const opened: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  it("delivers a published payload to a subscriber, and not after unsubscribing", async () => {
    const test: TestDatabase = await createTestDatabase();
    opened.push({ close: test.cleanup });
    const received = nextPayload(test.database, "test_signal");
    await new Promise((resolve) => setTimeout(resolve, 200)); // LISTEN is set up asynchronously
    await test.database.notifier.publish("test_signal", '{"id":"a"}');
    expect(await received).toBe('{"id":"a"}');

    const late: string[] = [];
    const stop = test.database.notifier.subscribe("test_other", (payload) => late.push(payload));
    stop();
    await test.database.notifier.publish("test_other", "x");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(late).toEqual([]);
  });

  it("reaches every listener of the database: another process's pool on PostgreSQL, the process on PGlite", async () => {
    const test = await createTestDatabase();
    opened.push({ close: test.cleanup });
    let other = test.database;
    if ("url" in test.target) {
      other = await openDatabase({ url: test.target.url });
      opened.push(other);
    }
    const received = nextPayload(other, "test_cross");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await test.database.notifier.publish("test_cross", "hello");
    expect(await received).toBe("hello");
  });

  it("refuses a channel name that is not a plain identifier", async () => {
    const test = await createTestDatabase();
    opened.push({ close: test.cleanup });
    expect(() => test.database.notifier.subscribe("bad; drop table users", () => {})).toThrow(/invalid/);
  });
});
