// "What shaped this message" through the HTTP API on a real database (docs/decisions/0105): a story's narrator
// message records the Story Cards, Memory, summary and reference images its turn sent, and every listing of it
// says so; the player's messages and the main chat's record nothing. The narrator is a fake OpenAI server
// (its wire format); the painter is the offline one.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { galleryImage, waitForMedia } from "../../test/media";

let openai: OpenAIFake;
let t: TestApp;

beforeAll(async () => {
  openai = await startOpenAIFake();
  t = await createTestApp({
    env: { TEXT_PROVIDER: "openai", TEXT_API_KEY: openai.apiKey, TEXT_BASE_URL: openai.baseUrl },
    tickingClock: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), openai?.close()]);
});
beforeEach(() => {
  openai.reset();
  openai.chat.pieces = ["The harbour bell rings twice.\n\nSCENE: A grey harbour at dawn, boats and gulls."];
});

type Method = "GET" | "POST" | "PUT";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

type Listed = { id: string; role: string; shaped_by?: unknown; version?: number };

async function newStory(user: TestUser) {
  return (await call(user, "POST", "/api/stories", { title: "The Drowned Bell", context: "" })).json().story
    .id as string;
}

/** Captain Rell, woken by "captain", with a portrait from the user's gallery. */
async function captainWithPortrait(user: TestUser, storyId: string) {
  const portrait = await galleryImage(t, user.userId, "#d01010");
  const res = await call(user, "POST", `/api/stories/${storyId}/cards`, {
    name: "Captain Rell",
    kind: "character",
    triggers: ["captain"],
    description: "A one-eyed captain in a scarlet coat.",
    portrait: { gallery_item_id: portrait.id },
  });
  expect(res.statusCode).toBe(200);
  return res.json().card.id as string;
}

const setMemory = async (user: TestUser, storyId: string, memory: string) =>
  expect(
    (await call(user, "PUT", `/api/stories/${storyId}/memory`, { memory, authors_note: "" })).statusCode,
  ).toBe(200);

async function turn(user: TestUser, storyId: string, prompt: string, mode: "chat" | "image") {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  expect(res.statusCode).toBe(200);
  return res.json() as { message_id: string; shaped_by?: unknown };
}

const settled = (user: TestUser, storyId: string, messageId: string) =>
  waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${messageId}`);

const listed = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages as Listed[];

describe("what shaped a narrator message", () => {
  it("names the triggered card with its portrait, the Memory and the references; the player's message has none", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await setMemory(user, storyId, "The harbour town floods at every full moon.");
    const cardId = await captainWithPortrait(user, storyId);

    const answer = await turn(user, storyId, "I salute the captain", "image");
    const expected = {
      cards: [{ id: cardId, name: "Captain Rell", portrait_used: true }],
      memory: true,
      summary: false,
      references: 1,
    };
    // The turn's answer says it, and so does the story's list, for as long as the message lives.
    expect(answer.shaped_by).toEqual(expected);
    expect((await settled(user, storyId, answer.message_id)).status).toBe("completed");
    const [mine, narrator] = await listed(user, storyId);
    expect(mine).toMatchObject({ role: "user" });
    expect(mine).not.toHaveProperty("shaped_by");
    expect(narrator).toMatchObject({ id: answer.message_id, shaped_by: expected });
  }, 120_000);

  it("lists no card when no card triggers, and no references for a turn that paints nothing", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await setMemory(user, storyId, "The harbour town floods at every full moon.");
    await captainWithPortrait(user, storyId);

    const answer = await turn(user, storyId, "I wait by the fire", "chat");
    const expected = { cards: [], memory: true, summary: false, references: 0 };
    expect(answer.shaped_by).toEqual(expected);
    expect((await listed(user, storyId)).at(-1)).toMatchObject({ shaped_by: expected });
  }, 60_000);

  it("gives a retry's new version its own record, and leaves the first version's as it was", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    // No Memory and no cards yet: the first answer was shaped by the story alone.
    const first = await turn(user, storyId, "I hail the captain", "chat");
    const alone = { cards: [], memory: false, summary: false, references: 0 };
    expect(first.shaped_by).toEqual(alone);

    await setMemory(user, storyId, "The harbour town floods at every full moon.");
    const cardId = await captainWithPortrait(user, storyId);
    const retried = await call(user, "POST", `/api/stories/${storyId}/messages/${first.message_id}/retry`, {
      what: "both",
      chat_mode: "image",
    });
    expect(retried.statusCode).toBe(200);
    const second = retried.json() as { message_id: string };
    const shaped = {
      cards: [{ id: cardId, name: "Captain Rell", portrait_used: true }],
      memory: true,
      summary: false,
      references: 1,
    };
    expect(retried.json().shaped_by).toEqual(shaped);
    expect((await settled(user, storyId, second.message_id)).status).toBe("completed");
    expect((await listed(user, storyId)).at(-1)).toMatchObject({ id: second.message_id, shaped_by: shaped });

    const versions = (
      await call(user, "GET", `/api/stories/${storyId}/messages/${second.message_id}/versions`)
    ).json().versions as Listed[];
    expect(versions.map((v) => [v.version, v.shaped_by])).toEqual([
      [1, alone],
      [2, shaped],
    ]);

    // New words keeping that picture: the words' own record (the prompt still wakes the captain), the picture's
    // portrait and references kept.
    const text = await call(user, "POST", `/api/stories/${storyId}/messages/${second.message_id}/retry`, {
      what: "text",
    });
    expect(text.statusCode).toBe(200);
    expect(text.json().shaped_by).toEqual(shaped);
    // So does Continue, which grows the message in place; the list shows the grown version's record.
    const grown = await call(user, "POST", `/api/stories/${storyId}/continue`, {});
    expect(grown.statusCode).toBe(200);
    expect(grown.json().shaped_by).toEqual(shaped);
    expect((await listed(user, storyId)).at(-1)).toMatchObject({
      id: grown.json().message_id,
      shaped_by: shaped,
    });
  }, 120_000);

  it("records nothing for the main chat", async () => {
    const user = await createUser(t);
    const res = await call(user, "POST", "/api/chat", { prompt: "Hello there", chat_mode: "chat" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty("shaped_by");
    const history = (await call(user, "GET", "/api/chat/history")).json().messages as Listed[];
    expect(history.length).toBeGreaterThan(0);
    for (const message of history) expect(message).not.toHaveProperty("shaped_by");
  }, 60_000);
});
