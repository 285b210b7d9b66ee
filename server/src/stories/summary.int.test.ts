// The rolling summary on a real database with the real job worker and the offline summariser: a story that
// outgrows the narrator's window gets a summary of what left it, the next turn's narrator reads it, the
// player's correction becomes the base of the next one, and a failing summariser never blocks a turn.
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import { SUMMARY_MAX_LENGTH } from "@storyverse/contract/story-craft";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { SUMMARY_HEADING } from "../conversation/narrator-context";
import type { TextProvider } from "../providers/types";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function newStory(user: TestUser) {
  const res = await call(user, "POST", "/api/stories", { title: "Salt Roads", context: "A port town" });
  return res.json().story.id as string;
}

async function turns(user: TestUser, storyId: string, prompts: string[]) {
  for (const prompt of prompts) {
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat" });
    expect(res.statusCode, res.body).toBe(200);
  }
}

const memory = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/memory`)).json() as {
    memory: string;
    authors_note: string;
    summary: string;
    summary_updated_at: string | null;
    summary_covers_messages: number;
  };

async function waitForSummary(user: TestUser, storyId: string, covers: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const current = await memory(user, storyId);
    if (current.summary_covers_messages >= covers) return current;
    if (Date.now() > deadline) throw new Error(`no summary covering ${covers}: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Enough exchanges that `exchanges - HISTORY_WINDOW / 2` of them have left the narrator's window. */
const prompts = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `I light the brass lantern number ${i + 1} of the ${tag}`);

describe("the rolling summary", () => {
  it("summarises what left the window, and the next turn's narrator reads it after the Memory", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    // 10 exchanges fill the window exactly: nothing has left it, nothing to summarise.
    await turns(user, storyId, prompts(HISTORY_WINDOW / 2, "quay"));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await memory(user, storyId)).summary).toBe("");

    // Two more exchanges push the first four messages out.
    await turns(
      user,
      storyId,
      prompts(2, "harbour").map((p) => `${p} again`),
    );
    const summarised = await waitForSummary(user, storyId, 4);
    expect(summarised.summary_covers_messages).toBe(4);
    expect(summarised.summary).toMatch(/you light the brass lantern number 1 of the quay/i);
    expect(summarised.summary).toContain("number 2 of the quay");
    expect(summarised.summary).not.toContain("number 3 of the quay");
    expect(summarised.summary_updated_at).not.toBeNull();

    const context = (
      await call(user, "GET", `/api/stories/${storyId}/context?prompt=I%20look%20back`)
    ).json();
    expect(context.messages[0].content).toContain(`${SUMMARY_HEADING}\n${summarised.summary}`);
    expect(context.parts.find((p: { part: string }) => p.part === "summary").tokens).toBeGreaterThan(0);
  });

  it("keeps the player's correction, which the narrator reads and the next summary builds on", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await turns(user, storyId, prompts(HISTORY_WINDOW / 2 + 2, "pier"));
    await waitForSummary(user, storyId, 4);

    const correction = "You are secretly the heir of the lighthouse.";
    const saved = await call(user, "PUT", `/api/stories/${storyId}/memory`, {
      memory: "",
      authors_note: "",
      summary: correction,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().summary).toBe(correction);
    const context = (await call(user, "GET", `/api/stories/${storyId}/context`)).json();
    expect(context.messages[0].content).toContain(correction);

    // Two more exchanges leave the window: the new summary starts from the player's words.
    await turns(user, storyId, prompts(2, "breakwater"));
    const next = await waitForSummary(user, storyId, 8);
    expect(next.summary.startsWith(correction)).toBe(true);
    expect(next.summary).toContain("number 3 of the pier");

    // A PUT without a summary (as clients written before it existed send) leaves it alone.
    await call(user, "PUT", `/api/stories/${storyId}/memory`, { memory: "Salt", authors_note: "" });
    expect((await memory(user, storyId)).summary).toBe(next.summary);
  });

  it("never blocks a turn when the summariser fails, and summarises on a later turn", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const narrator = t.providers.text;
    const failing: TextProvider = {
      ...narrator,
      purposes: narrator.purposes,
      async complete(request) {
        if (request.purpose === "summary") {
          throw new Error("the vendor is down");
        }
        return narrator.complete(request);
      },
    };
    t.providers.text = failing;
    try {
      await turns(user, storyId, prompts(HISTORY_WINDOW / 2 + 2, "jetty"));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await memory(user, storyId)).summary).toBe("");
    } finally {
      t.providers.text = narrator;
    }
    await turns(user, storyId, prompts(1, "slipway"));
    const later = await waitForSummary(user, storyId, 6);
    expect(later.summary).toContain("number 1 of the jetty");
  });

  it("refuses an over-long summary (400 naming it, nothing changed) and another player's story (404)", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const storyId = await newStory(owner);
    const tooLong = await call(owner, "PUT", `/api/stories/${storyId}/memory`, {
      memory: "",
      authors_note: "",
      summary: "x".repeat(SUMMARY_MAX_LENGTH + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().detail).toContain("summary");
    expect((await memory(owner, storyId)).summary).toBe("");
    const foreign = await call(stranger, "PUT", `/api/stories/${storyId}/memory`, {
      memory: "",
      authors_note: "",
      summary: "Mine now.",
    });
    expect(foreign.statusCode).toBe(404);
    expect((await memory(owner, storyId)).summary).toBe("");
  });
});
