// The audit's CPU attack on "What the narrator sees" (N7), replayed: one player calling it from 8 connections
// at once gets 30 answers a minute and 429s for the rest, and another player's call is answered meanwhile.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.cleanup();
});

async function storyOf(user: TestUser): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/stories",
    headers: bearer(user.token),
    payload: { title: "Context", context: "A lighthouse on a cliff" },
  });
  return res.json().story.id as string;
}

const readContext = (user: TestUser, storyId: string) =>
  t.app.inject({
    method: "GET",
    url: `/api/stories/${storyId}/context?prompt=${encodeURIComponent("I climb the stairs")}`,
    headers: bearer(user.token),
  });

describe("what the narrator sees, under a flood (audit N7)", () => {
  it("answers one player's 120 calls in a minute from 8 connections with 30 contexts and 90 refusals, while serving another player", async () => {
    const flooder = await createUser(t);
    const other = await createUser(t);
    const [floodStory, otherStory] = await Promise.all([storyOf(flooder), storyOf(other)]);

    const statuses: number[] = [];
    let detail = "";
    let retryAfter = 0;
    // 8 connections, each calling again as soon as it is answered, 15 calls each.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 15; i += 1) {
          const res = await readContext(flooder, floodStory);
          statuses.push(res.statusCode);
          if (res.statusCode === 429) {
            detail = res.json().detail;
            retryAfter = Number(res.headers["retry-after"]);
          }
        }
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);
    expect(detail).toMatch(/^"What the narrator sees" can be opened at most 30 times a minute\. Please wait/);
    expect(retryAfter).toBeGreaterThan(0);

    const theirs = await readContext(other, otherStory);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().messages.length).toBeGreaterThan(0);

    t.clock.advance(60_000);
    expect((await readContext(flooder, floodStory)).statusCode).toBe(200);
  });
});
