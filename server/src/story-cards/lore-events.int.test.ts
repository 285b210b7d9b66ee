// Living lore's drafts reach the open story by the event stream (decision 0130), not by polling: the job that
// offers new drafts records a "lore" event that the user's open tabs hear with the story's id; a run that
// offers nothing new says nothing; another user hears nothing. Both engines, over real HTTP.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type EventStream, openEventStream } from "../../test/sse";
import { userEvents } from "../db/schema";
import { updateLivingLore } from "./living-lore";

let t: TestApp;
let base: string;
const open: EventStream[] = [];

beforeAll(async () => {
  // No workers: the test runs the living-lore job itself, so it knows when it ran.
  t = await createTestApp({ workers: false });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
}, 60_000);
afterAll(async () => {
  for (const stream of open) stream.close();
  await t?.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function stream(user: TestUser) {
  const opened = await openEventStream(base, user.token);
  open.push(opened);
  expect(opened.status).toBe(200);
  return opened;
}

const loreEvents = async (user: TestUser) =>
  (
    await t.ctx.db
      .select()
      .from(userEvents)
      .where(and(eq(userEvents.userId, user.userId), eq(userEvents.kind, "lore")))
  ).length;

describe("lore events", () => {
  it("tells the user's open tabs when new drafts are offered, and says nothing when none are", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const created = await call(user, "POST", "/api/stories", { title: "Salt Roads", context: "A port town" });
    const storyId = created.json().story.id as string;
    const [tab, stranger] = [await stream(user), await stream(other)];
    for (const prompt of ["I follow Brannoc to the Salt Gate", "I ask Brannoc about the Salt Gate"]) {
      const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat" });
      expect(res.statusCode, res.body).toBe(200);
    }

    await updateLivingLore(t.ctx, { userId: user.userId, storyId });
    const heard = await tab.next((event) => event.event === "lore");
    expect(heard.data).toEqual({ story_id: storyId });
    const drafts = (await call(user, "GET", `/api/stories/${storyId}/lore-suggestions`)).json().suggestions;
    expect(drafts.map((d: { name: string }) => d.name)).toEqual(
      expect.arrayContaining(["Brannoc", "the Salt Gate"]),
    );
    expect(await loreEvents(user)).toBe(1);

    // Read again with nothing new to offer: no event, so the tabs do not read the drafts again.
    await updateLivingLore(t.ctx, { userId: user.userId, storyId });
    expect(await loreEvents(user)).toBe(1);
    expect(stranger.events.filter((event) => event.event === "lore")).toEqual([]);
    expect(await loreEvents(other)).toBe(0);
  });
});
