// The event stream's heartbeat: an idle stream gets a comment line at the configured interval (15 s by
// default; 1 s here), so a proxy in between sees bytes and keeps it open, and the web's 20 s silence check
// never fires on a healthy stream.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser } from "../../test/factories";
import { openEventStream } from "../../test/sse";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ env: { EVENT_HEARTBEAT_SECONDS: "1" } });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await t.cleanup();
});

it("writes a heartbeat comment on an idle stream at the configured interval", async () => {
  const user = await createUser(t);
  const stream = await openEventStream(base, user.token);
  expect(stream.status).toBe(200);
  // ": connected" at once.
  await expect.poll(() => stream.comments(), { timeout: 2_000 }).toBe(1);
  // Then one a second, with no event in between.
  await expect.poll(() => stream.comments(), { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
  expect(stream.events).toEqual([]);
  stream.close();
});

it("refuses a heartbeat interval outside 1 to 300 seconds at start", async () => {
  await expect(createTestApp({ env: { EVENT_HEARTBEAT_SECONDS: "0" } })).rejects.toThrow(
    /EVENT_HEARTBEAT_SECONDS/,
  );
});
