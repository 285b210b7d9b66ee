// Recall (issue #29): a name given at turn 5 of a long story comes back at the last turn, in the narrator's
// context and in the offline narrator's answer, when the player asks after it; pins and forgets; never another
// story's or another player's words; bad input changes nothing.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { chatMessages } from "../db/schema";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
});
afterAll(async () => {
  await t.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

/** A story of `exchanges` turns written straight to the database (fast); `told` at chosen turns. */
async function longStory(user: TestUser, title: string, exchanges: number, told: Record<number, string>) {
  const storyId = (await call(user, "POST", "/api/stories", { title })).json().story.id as string;
  await writeExchanges(t, user, storyId, exchanges, told);
  return storyId;
}

const OSWIN = "The tavern keeper, a broad man named Oswin, wipes the bar and nods to you.";
const QUESTION = "What was the name of the tavern keeper?";

type Recalled = {
  message_id: string;
  turn: number;
  matched: string[];
  pinned: boolean;
  narrator: string;
  score: number;
};

describe("recall", () => {
  it("brings turn 5 back at turn 300: in the context, with why, and in the offline narrator's answer", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, "The Long Road", 300, { 5: OSWIN });

    const preview = await call(
      user,
      "GET",
      `/api/stories/${storyId}/recall?prompt=${encodeURIComponent(QUESTION)}`,
    );
    expect(preview.statusCode).toBe(200);
    const [first] = preview.json().recalled as Recalled[];
    expect(first).toMatchObject({ turn: 5, pinned: false, narrator: OSWIN });
    expect(first!.matched).toEqual(expect.arrayContaining(["keeper", "tavern"]));
    expect(first!.score).toBeGreaterThan(0);

    const context = (
      await call(user, "GET", `/api/stories/${storyId}/context?prompt=${encodeURIComponent(QUESTION)}`)
    ).json();
    expect(context.recalled[0]).toMatchObject({ turn: 5, in_context: true });
    expect(context.parts.find((p: { part: string }) => p.part === "recall").tokens).toBeGreaterThan(0);
    expect(context.messages[0].content).toContain(`- Turn 5: You: I walk on (5) Narrator: ${OSWIN}`);

    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: QUESTION,
      chat_mode: "chat",
    });
    expect(turn.statusCode).toBe(200);
    expect(turn.json().story_text).toContain(
      "You think back to turn 5: the tavern keeper, a broad man named Oswin",
    );
    // And the message says what shaped it: turn 5, recalled.
    expect(turn.json().shaped_by.recalled).toEqual([5]);
  }, 120_000);

  it("puts a turn that names who is asked after above turns full of the question's other words", async () => {
    const user = await createUser(t);
    const stormy: Record<number, string> = {};
    for (let turn = 10; turn <= 30; turn += 1)
      stormy[turn] = "The storm howls. After the storm, another storm.";
    const storyId = await longStory(user, "Storms", 60, {
      ...stormy,
      7: "Zephyrine rode west into the hills.",
    });
    const recalled = (
      await call(
        user,
        "GET",
        `/api/stories/${storyId}/recall?prompt=${encodeURIComponent("Where did Zephyrine go after the storm at the river crossing by the mill?")}`,
      )
    ).json().recalled as Recalled[];
    // Why, in the words the player wrote: "Zephyrine", not the stem "zephyrin".
    expect(recalled[0]).toMatchObject({ turn: 7, matched: ["Zephyrine"] });
    expect(recalled).toHaveLength(4);
  }, 60_000);

  it("says why in the player's words, never their stems (issue 46: not 'somewher' or 'whatev')", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, "Hidden Things", 40, {
      4: "Whatever the smugglers hid, they buried it somewhere under the lighthouses.",
    });
    const recalled = (
      await call(
        user,
        "GET",
        `/api/stories/${storyId}/recall?prompt=${encodeURIComponent("Whatever happened to the Lighthouses? Somewhere the smugglers hid something.")}`,
      )
    ).json().recalled as Recalled[];
    expect(recalled[0]).toMatchObject({ turn: 4 });
    const why = recalled[0]!.matched;
    expect(why).toEqual(expect.arrayContaining(["Lighthouses", "smugglers", "Somewhere"]));
    for (const stem of ["somewher", "whatev", "lighthous", "smuggler"]) expect(why).not.toContain(stem);
  }, 60_000);

  it("searches a word common in a long story among its newest 2,000 older exchanges only, and every other word in all of it", async () => {
    const user = await createUser(t);
    // Every sixth exchange of the filler tells of the road, every sixth of the river: both common here.
    const storyId = await longStory(user, "Long Road", 2_300, {
      5: `${OSWIN} Outside, the road runs down to the river.`,
      10: "The road and the river, the road and the river, the road and the river.",
    });
    const ask = async (prompt: string) =>
      (await call(user, "GET", `/api/stories/${storyId}/recall?prompt=${encodeURIComponent(prompt)}`)).json()
        .recalled as Recalled[];
    // Words that are not common (tavern, keeper; the name Oswin) are searched for in the whole story.
    expect((await ask(QUESTION))[0]).toMatchObject({ turn: 5, narrator: expect.stringContaining("Oswin") });
    expect((await ask("Is Oswin still on the road by the river?"))[0]).toMatchObject({ turn: 5 });
    // Only common words: the newest older exchanges are ranked, not turn 10 that repeats them most.
    const common = await ask("the road by the river");
    expect(common).toHaveLength(4);
    for (const line of common) expect(line.turn).toBeGreaterThan(2_300 - 10 - 2_000);
    // Pinned, it is recalled all the same, first.
    const [turn10] = await t.ctx.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.storyId, storyId), like(chatMessages.content, "The road and the river%")));
    await call(user, "PUT", `/api/stories/${storyId}/recall/${turn10!.id}`, { pinned: true });
    expect((await ask("the road by the river"))[0]).toMatchObject({ turn: 10, pinned: true });
  }, 120_000);

  it("leaves out what the narrator still sees (the newest 20 messages) and what does not match", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, "Short Walk", 30, { 25: OSWIN, 3: "A heron stands in the reeds." });
    const recalled = (
      await call(user, "GET", `/api/stories/${storyId}/recall?prompt=${encodeURIComponent(QUESTION)}`)
    ).json().recalled as Recalled[];
    // Turn 25 is among the newest 20 messages: it is in the history already.
    expect(recalled).toEqual([]);
    const heron = (await call(user, "GET", `/api/stories/${storyId}/recall?prompt=the%20heron`)).json()
      .recalled as Recalled[];
    expect(heron.map((line) => line.turn)).toEqual([3]);
  }, 60_000);

  it("pins an exchange (always recalled, first) and forgets one (never recalled again)", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, "Pins", 60, {
      5: OSWIN,
      9: "A tavern sign creaks: The Grey Keeper.",
    });
    const ask = async () =>
      (
        await call(user, "GET", `/api/stories/${storyId}/recall?prompt=${encodeURIComponent(QUESTION)}`)
      ).json().recalled as Recalled[];
    const before = await ask();
    expect(before.map((line) => line.turn)).toEqual([5, 9]);

    const forgotten = await call(user, "PUT", `/api/stories/${storyId}/recall/${before[0]!.message_id}`, {
      forgotten: true,
    });
    expect(forgotten.json()).toEqual({
      success: true,
      message_id: before[0]!.message_id,
      pinned: false,
      forgotten: true,
    });
    expect((await ask()).map((line) => line.turn)).toEqual([9]);

    // A pinned exchange comes first, even when the words do not match it.
    const messages = (await call(user, "GET", `/api/stories/${storyId}/messages?limit=200`)).json()
      .messages as {
      id: string;
      role: string;
    }[];
    const turn12 = messages.filter((m) => m.role === "assistant")[11]!;
    const pinned = await call(user, "PUT", `/api/stories/${storyId}/recall/${turn12.id}`, { pinned: true });
    expect(pinned.json()).toMatchObject({ pinned: true, forgotten: false });
    const now = await ask();
    expect(now.map((line) => [line.turn, line.pinned])).toEqual([
      [12, true],
      [9, false],
    ]);
    expect(now[0]!.score).toBe(0);

    // Pinning the forgotten one remembers it again.
    await call(user, "PUT", `/api/stories/${storyId}/recall/${before[0]!.message_id}`, { pinned: true });
    expect((await ask()).map((line) => line.turn)).toEqual([5, 12, 9]);
  }, 60_000);

  it("never recalls another story's or another player's words, even when they share them", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const mine = await longStory(user, "Mine", 40, { 4: "A heron lands on the mill wheel." });
    await longStory(user, "My other", 40, { 4: "The tavern keeper Brom counts coins." });
    await longStory(other, "Theirs", 40, { 4: "The tavern keeper Hild pours cider." });
    const recalled = (
      await call(user, "GET", `/api/stories/${mine}/recall?prompt=${encodeURIComponent(QUESTION)}`)
    ).json().recalled as Recalled[];
    expect(recalled).toEqual([]);
    const context = (
      await call(user, "GET", `/api/stories/${mine}/context?prompt=${encodeURIComponent(QUESTION)}`)
    ).json();
    expect(JSON.stringify(context)).not.toMatch(/Brom|Hild/);
  }, 60_000);

  it("refuses bad input with a clear detail and other players' stories as not found, changing nothing", async () => {
    const user = await createUser(t);
    const stranger = await createUser(t);
    const storyId = await longStory(user, "Guarded", 30, { 2: OSWIN });
    const messages = (await call(user, "GET", `/api/stories/${storyId}/messages?limit=200`)).json()
      .messages as {
      id: string;
      role: string;
    }[];
    const narrator = messages.find((m) => m.role === "assistant")!;
    const player = messages.find((m) => m.role === "user")!;

    const noPrompt = await call(user, "GET", `/api/stories/${storyId}/recall`);
    expect(noPrompt.statusCode).toBe(400);
    const tooLong = await call(user, "GET", `/api/stories/${storyId}/recall?prompt=${"a".repeat(4001)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().detail).toMatch(/at most 4000 characters/);
    expect((await call(stranger, "GET", `/api/stories/${storyId}/recall?prompt=tavern`)).statusCode).toBe(
      404,
    );

    const url = `/api/stories/${storyId}/recall/${narrator.id}`;
    const empty = await call(user, "PUT", url, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toMatch(/Nothing to change/);
    expect((await call(user, "PUT", url, { pinned: "yes" })).statusCode).toBe(400);
    expect((await call(stranger, "PUT", url, { forgotten: true })).statusCode).toBe(404);
    const onPlayer = await call(user, "PUT", `/api/stories/${storyId}/recall/${player.id}`, { pinned: true });
    expect(onPlayer.statusCode).toBe(404);
    expect(onPlayer.json().detail).toBe("Message not found");
    expect(
      (await call(user, "PUT", `/api/stories/${storyId}/recall/not-an-id`, { pinned: true })).statusCode,
    ).toBe(400);
    // Nothing was marked: turn 2 is still recalled.
    const recalled = (
      await call(user, "GET", `/api/stories/${storyId}/recall?prompt=${encodeURIComponent(QUESTION)}`)
    ).json().recalled as Recalled[];
    expect(recalled.map((line) => [line.turn, line.pinned])).toEqual([[2, false]]);
  }, 60_000);
});
