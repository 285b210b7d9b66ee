// Personas through the HTTP API on a real database (both engines, decision 0152): create, list, change and
// delete with their bad input and the cap, one default at a time, another account's persona a 404, a story
// played as a persona (chosen, or the default when none is), and what the narrator is sent: the persona's name
// for `{{user}}` and its name and description as the player's character. The narrator is a fake OpenAI server,
// so the exact request a turn sent is read back; its portrait goes to the painter as a reference.
import {
  PERSONA_DESCRIPTION_MAX_LENGTH,
  PERSONAS_MAX,
  STORY_PERSONA_NOT_YOURS_DETAIL,
  TOO_MANY_PERSONAS_DETAIL,
} from "@storyverse/contract/personas";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { galleryImage, waitForMedia } from "../../test/media";
import { multipart } from "../../test/multipart";

let openai: OpenAIFake;
let t: TestApp;

beforeAll(async () => {
  openai = await startOpenAIFake();
  t = await createTestApp({
    env: {
      TEXT_PROVIDER: "openai",
      TEXT_API_KEY: openai.apiKey,
      TEXT_BASE_URL: openai.baseUrl,
      IMAGE_PROVIDER: "openai",
      IMAGE_API_KEY: openai.apiKey,
      IMAGE_BASE_URL: openai.baseUrl,
    },
    tickingClock: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), openai?.close()]);
});
beforeEach(() => {
  openai.reset();
  openai.chat.pieces = ["The gulls circle the harbour."];
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const create = async (user: TestUser, body: Record<string, unknown>) => {
  const res = await call(user, "POST", "/api/personas", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().persona as { id: string; name: string; is_default: boolean };
};

const list = async (user: TestUser) =>
  (await call(user, "GET", "/api/personas")).json().personas as {
    id: string;
    name: string;
    is_default: boolean;
  }[];

/** The system message of the newest turn the narrator was sent. */
const lastSystemPrompt = () =>
  (openai.requests.filter(isTurnChat).at(-1)?.json as { messages: { role: string; content: string }[] })
    .messages[0]!.content;

/** A story whose Memory names the player as `{{user}}` (the story's texts have their macros replaced per turn). */
async function newStory(user: TestUser, memory: string) {
  const res = await call(user, "POST", "/api/stories", { title: "The Drowned Bell", context: "A harbour." });
  expect(res.statusCode).toBe(200);
  const id = res.json().story.id as string;
  const set = await call(user, "PUT", `/api/stories/${id}/memory`, { memory, authors_note: "" });
  expect(set.statusCode, set.body).toBe(200);
  return id;
}

describe("personas", () => {
  it("creates, lists, changes and deletes a persona, with one default at a time", async () => {
    const user = await createUser(t);
    expect((await call(user, "GET", "/api/personas")).json()).toEqual({
      success: true,
      personas: [],
      max: PERSONAS_MAX,
    });
    const image = await galleryImage(t, user.userId, "#3366cc", 64, 64);
    const ash = await create(user, {
      name: "  Ash  ",
      description: "A lamplighter with burnt fingers.",
      portrait_item_id: image.id,
      is_default: true,
    });
    expect(ash).toMatchObject({
      name: "Ash",
      description: "A lamplighter with burnt fingers.",
      portrait: { gallery_item_id: image.id },
      voice: null,
      is_default: true,
    });
    const bo = await create(user, { name: "Bo", is_default: true });
    // Making Bo the default took it from Ash.
    expect((await list(user)).map((p) => [p.name, p.is_default])).toEqual([
      ["Ash", false],
      ["Bo", true],
    ]);

    const changed = await call(user, "PUT", `/api/personas/${ash.id}`, {
      description: "Older now.",
      portrait_item_id: null,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().persona).toMatchObject({ name: "Ash", description: "Older now.", portrait: null });

    expect((await call(user, "DELETE", `/api/personas/${bo.id}`)).statusCode).toBe(200);
    expect((await list(user)).map((p) => p.name)).toEqual(["Ash"]);
    const again = await call(user, "DELETE", `/api/personas/${bo.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe("Persona not found");
  });

  it("refuses bad input with a detail and changes nothing", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const theirs = await galleryImage(t, other.userId, "#cc3322", 32, 32);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: "" }, /name must be 1 to 60 characters/],
      [{ name: "x".repeat(61) }, /name must be 1 to 60 characters/],
      [{ name: "Two\nlines" }, /name must be one line/],
      [{ name: "Ash", description: "x".repeat(PERSONA_DESCRIPTION_MAX_LENGTH + 1) }, /at most 4,000/],
      [{ name: "Ash", portrait_item_id: theirs.id }, /one of your own gallery pictures/],
      [{ name: "Ash", voice: "nobody-speaks-so" }, /voices listed by GET \/api\/voices/],
      [{ name: "Ash", colour: "red" }, /colour/],
    ];
    for (const [body, detail] of cases) {
      const res = await call(user, "POST", "/api/personas", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toMatch(detail);
    }
    const ash = await create(user, { name: "Ash" });
    const empty = await call(user, "PUT", `/api/personas/${ash.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toMatch(/Nothing to update/);
    expect((await list(user)).map((p) => p.name)).toEqual(["Ash"]);
  });

  it(`keeps at most ${PERSONAS_MAX} a player`, async () => {
    const user = await createUser(t);
    for (let i = 1; i <= PERSONAS_MAX; i++) await create(user, { name: `Persona ${i}` });
    const over = await call(user, "POST", "/api/personas", { name: "One too many" });
    expect(over.statusCode).toBe(400);
    expect(over.json().detail).toBe(TOO_MANY_PERSONAS_DETAIL);
    expect(await list(user)).toHaveLength(PERSONAS_MAX);
  });

  it("keeps each player's personas their own", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const ash = await create(owner, { name: "Ash" });
    expect(await list(other)).toEqual([]);
    for (const [method, payload] of [
      ["PUT", { name: "Stolen" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call(other, method, `/api/personas/${ash.id}`, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe("Persona not found");
    }
    const theirStory = await newStory(other, "A harbour town.");
    const chosen = await call(other, "PUT", `/api/stories/${theirStory}/settings`, { persona_id: ash.id });
    expect(chosen.statusCode).toBe(400);
    expect(chosen.json().detail).toBe(STORY_PERSONA_NOT_YOURS_DETAIL);
    expect((await call(other, "GET", `/api/stories/${theirStory}/settings`)).json().persona_id).toBeNull();
    expect((await list(owner)).map((p) => p.name)).toEqual(["Ash"]);
  });
});

describe("a story played as a persona", () => {
  it("names the persona for {{user}} and tells the narrator who the player is", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "{{user}} wakes in the bell tower.");
    const ash = await create(user, { name: "Ash", description: "A lamplighter; {{user}} fears the sea." });
    const set = await call(user, "PUT", `/api/stories/${storyId}/settings`, { persona_id: ash.id });
    expect(set.statusCode).toBe(200);
    expect(set.json().persona_id).toBe(ash.id);

    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I ring the bell",
      chat_mode: "chat",
    });
    expect(turn.statusCode, turn.body).toBe(200);
    const system = lastSystemPrompt();
    expect(system).toContain("Ash wakes in the bell tower.");
    expect(system).toContain(
      `The player's character ("you" in the story):\nAsh: A lamplighter; Ash fears the sea.`,
    );
    expect(system).not.toContain("{{user}}");

    // What the narrator sees shows the same.
    const seen = await call(user, "GET", `/api/stories/${storyId}/context?chat_mode=chat`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(JSON.stringify(seen.json())).toContain("Ash: A lamplighter; Ash fears the sea.");
  });

  it("plays as the default persona when the story chose none, and as the username when there is none", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "{{user}} wakes.");
    await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "I look around", chat_mode: "chat" });
    expect(lastSystemPrompt()).toContain(`${user.username} wakes.`);
    expect(lastSystemPrompt()).not.toContain("The player's character");

    const wren = await create(user, { name: "Wren", is_default: true });
    await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "I look around", chat_mode: "chat" });
    expect(lastSystemPrompt()).toContain("Wren wakes.");

    // A chosen persona that is deleted leaves the story on the default.
    const ash = await create(user, { name: "Ash" });
    await call(user, "PUT", `/api/stories/${storyId}/settings`, { persona_id: ash.id });
    await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "I look around", chat_mode: "chat" });
    expect(lastSystemPrompt()).toContain("Ash wakes.");
    await call(user, "DELETE", `/api/personas/${ash.id}`);
    expect((await call(user, "GET", `/api/stories/${storyId}/settings`)).json().persona_id).toBeNull();
    await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "I look around", chat_mode: "chat" });
    expect(lastSystemPrompt()).toContain(`${wren.name} wakes.`);
  });

  it("paints the scene with the persona's portrait as a reference", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user, "A harbour town.");
    const image = await galleryImage(t, user.userId, "#22aa55", 64, 64);
    const ash = await create(user, { name: "Ash", portrait_item_id: image.id });
    await call(user, "PUT", `/api/stories/${storyId}/settings`, { persona_id: ash.id });
    // What the narrator sees names it as the next scene's reference; a chat turn paints none.
    const seen = (await call(user, "GET", `/api/stories/${storyId}/context`)).json();
    expect(seen.image_references).toEqual([{ source: "persona", name: "Ash", url: expect.any(String) }]);
    expect(seen.camera.references).toEqual(seen.image_references);
    const chatOnly = (await call(user, "GET", `/api/stories/${storyId}/context?chat_mode=chat`)).json();
    expect(chatOnly.image_references).toEqual([]);
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "I climb the tower" });
    expect(res.statusCode, res.body).toBe(200);
    const status = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${res.json().message_id}`,
    );
    expect(status.media_generation_completed).toBe(true);
    // With no Story Card in the scene and no picture selected, the persona's portrait is the reference.
    expect(openai.requests.some((r) => r.path === "/v1/images/edits")).toBe(true);
  });
});

describe("a card imported as a new story", () => {
  it("names the default persona where the card's opening says {{user}}", async () => {
    const user = await createUser(t);
    await create(user, { name: "Wren", is_default: true });
    const card = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        name: "Mira Voss",
        description: "{{char}} keeps the lighthouse.",
        personality: "",
        scenario: "{{user}} washes up below the light.",
        first_mes: "You're lucky the tide turned, {{user}}.",
        mes_example: "",
      },
    };
    const body = multipart(Buffer.from(JSON.stringify(card)), "mira.json");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/stories/import",
      payload: body.payload,
      headers: { ...body.headers, ...bearer(user.token) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const story = res.json().story as { id: string; context: string };
    expect(story.context).toContain("Wren washes up below the light.");
    const messages = (await call(user, "GET", `/api/stories/${story.id}/messages`)).json().messages;
    expect(messages[0].content).toBe("You're lucky the tide turned, Wren.");
  });
});
