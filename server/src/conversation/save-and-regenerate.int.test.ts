// "Save and regenerate" on the player's newest line (issue #43 item 6), as the web does it: the edit is saved
// (free), then the answer below is retried (paid). The retry answers the edited words, is charged once, and
// a vendor failure refunds it whole while the saved words stay. Against a fake OpenAI server, so the words
// the narrator was sent can be read and a failure injected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";

let fake: OpenAIFake;
let t: TestApp;
beforeAll(async () => {
  fake = await startOpenAIFake();
  fake.chat.pieces = ["The keeper nods and lights the lamp."];
  t = await createTestApp({
    env: {
      TEXT_PROVIDER: "openai",
      TEXT_BASE_URL: fake.baseUrl,
      TEXT_API_KEY: fake.apiKey,
      PROVIDER_TIMEOUT_SECONDS: "5",
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
  await fake?.close();
});

const call = (user: TestUser, method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
const balance = async (user: TestUser) => (await call(user, "GET", "/api/credit-balance")).json().remaining;

/** A story with one chat exchange: its player line and the answer below it. */
async function oneExchange(user: TestUser) {
  const storyId = (await call(user, "POST", "/api/stories", { title: "Lighthouse" })).json().story
    .id as string;
  const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
    prompt: "I ask the keeper about the lamp",
    chat_mode: "chat",
  });
  expect(turn.statusCode, turn.body).toBe(200);
  const messages = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages as {
    id: string;
    role: string;
    content: string;
  }[];
  const [line, answer] = messages;
  return { storyId, line: line!, answer: answer! };
}

/** The narrator requests' newest user message (the turn's player words). */
const lastPlayerWords = () => {
  const narrator = fake.requests.filter(isTurnChat).at(-1)!;
  const body = JSON.parse(narrator.body.toString("utf8")) as {
    messages: { role: string; content: string }[];
  };
  return body.messages.findLast((m) => m.role === "user")!.content;
};

describe("save and regenerate", () => {
  it("saves the new words for free, then retries the answer below for them, charged once", async () => {
    const user = await createUser(t);
    const { storyId, line, answer } = await oneExchange(user);
    const before = await balance(user);
    const saved = await call(user, "PATCH", `/api/stories/${storyId}/messages/${line.id}`, {
      content: "I ask the keeper why the lamp is green",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await balance(user)).toBe(before);
    fake.chat.pieces = ["The keeper says the green glass keeps the drowned away."];
    const retried = await call(user, "POST", `/api/stories/${storyId}/messages/${answer.id}/retry`, {
      what: "both",
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(lastPlayerWords()).toContain("I ask the keeper why the lamp is green");
    expect(await balance(user)).toBe(before - 0.5);
    const shown = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(shown.map((m: { content: string }) => m.content)).toEqual([
      "I ask the keeper why the lamp is green",
      "The keeper says the green glass keeps the drowned away.",
    ]);
  });

  it("refunds the retry whole when the vendor fails; the saved words stay and the answer is as it was", async () => {
    const user = await createUser(t);
    fake.chat.pieces = ["The keeper nods and lights the lamp."];
    const { storyId, line, answer } = await oneExchange(user);
    const before = await balance(user);
    await call(user, "PATCH", `/api/stories/${storyId}/messages/${line.id}`, {
      content: "I ask about the storm",
    });
    fake.failNext({ status: 500 }, isTurnChat);
    const retried = await call(user, "POST", `/api/stories/${storyId}/messages/${answer.id}/retry`, {
      what: "both",
    });
    expect(retried.statusCode).toBe(502);
    expect(await balance(user)).toBe(before);
    const shown = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(shown.map((m: { content: string }) => m.content)).toEqual([
      "I ask about the storm",
      "The keeper nods and lights the lamp.",
    ]);
    // The ledger: the turn's charge, and the retry's charge with its refund; nothing else.
    const ledger = (await call(user, "GET", "/api/credit-history")).json().transactions as {
      transaction_type: string;
      credits_amount: number;
    }[];
    const amounts = ledger
      .filter((row) => row.transaction_type !== "signup_bonus")
      .map((row) => row.credits_amount);
    expect(amounts.sort()).toEqual([-0.5, -0.5, 0.5].sort());
  });
});
