// Generation settings through the HTTP API on a real database (both engines): GET/PUT a story's settings and their
// bad input, the owner rule, GET /api/models from the provider's GET /v1/models, and real turns sending the
// story's model, temperature and max tokens, placing the Author's Note at its depth and reading the player's
// words as Do / Say / Story. The narrator is a fake OpenAI server, so the exact request a turn sent is read back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { waitForMedia } from "../../test/media";
import { restoreBackup } from "../../test/restore-backup";
import { MODEL_LIST_TTL_MS } from "./settings";

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
    // Turns made one after another keep their order.
    tickingClock: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), openai?.close()]);
});
beforeEach(() => {
  openai.reset();
  openai.chat.pieces = ["The gulls circle the harbour."];
  openai.models.ids = ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"];
  // Each test starts with a model list older than the cache keeps.
  t.clock.advance(MODEL_LIST_TTL_MS);
});

type Method = "GET" | "POST" | "PUT";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function newStory(user: TestUser) {
  const res = await call(user, "POST", "/api/stories", {
    title: "The Drowned Bell",
    context: "A harbour town.",
  });
  expect(res.statusCode).toBe(200);
  return res.json().story.id as string;
}

const DEFAULTS = {
  success: true,
  output_length: "medium",
  temperature: 0.9,
  text_model: null,
  authors_note_depth: 1,
  art_style: "",
  aspect_ratio: "4:3",
  input_mode: "story",
  narrator_voice: null,
  read_aloud: false,
  persona_id: null,
  teller: "narrator",
  character_ids: [],
  speaker_order: "natural",
  muted_ids: [],
  knows_what_they_saw: false,
  effective_text_model: "gpt-4o-mini",
  max_tokens: 900,
};

const chatRequests = () => openai.requests.filter(isTurnChat);
const lastChatBody = () =>
  chatRequests().at(-1)?.json as {
    model: string;
    max_tokens: number;
    temperature: number;
    messages: { role: string; content: string }[];
  };

describe("a story's generation settings", () => {
  it("reads the defaults, changes the fields sent and keeps the others", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const url = `/api/stories/${storyId}/settings`;
    expect((await call(user, "GET", url)).json()).toEqual(DEFAULTS);

    const changed = await call(user, "PUT", url, {
      output_length: "long",
      temperature: 0.35,
      text_model: "gpt-4o",
      art_style: "  ink wash, muted  ",
    });
    expect(changed.statusCode).toBe(200);
    const expected = {
      ...DEFAULTS,
      output_length: "long",
      temperature: 0.35,
      text_model: "gpt-4o",
      art_style: "ink wash, muted",
      effective_text_model: "gpt-4o",
      max_tokens: 1600,
    };
    expect(changed.json()).toEqual(expected);
    await call(user, "PUT", url, {
      authors_note_depth: 4,
      aspect_ratio: "16:9",
      input_mode: "do",
      read_aloud: true,
    });
    expect((await call(user, "GET", url)).json()).toEqual({
      ...expected,
      authors_note_depth: 4,
      aspect_ratio: "16:9",
      input_mode: "do",
      read_aloud: true,
    });
    // null goes back to the provider's default model.
    const back = await call(user, "PUT", url, { text_model: null });
    expect(back.json()).toMatchObject({ text_model: null, effective_text_model: "gpt-4o-mini" });
  });

  it("refuses values outside their ranges and unknown models with a 400 naming them, changing nothing", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const url = `/api/stories/${storyId}/settings`;
    await call(user, "PUT", url, { temperature: 0.5, text_model: "gpt-4o" });
    const before = (await call(user, "GET", url)).json();
    const bad: [unknown, string][] = [
      [{ temperature: -0.1 }, "temperature must be a number from 0 to 1.5"],
      [{ temperature: 1.6 }, "temperature must be a number from 0 to 1.5"],
      [{ temperature: "hot" }, "temperature must be a number from 0 to 1.5"],
      [{ output_length: "epic" }, "output_length must be one of short, medium or long"],
      [{ authors_note_depth: 0 }, "authors_note_depth must be a whole number from 1 to 20"],
      [{ authors_note_depth: 21 }, "authors_note_depth must be a whole number from 1 to 20"],
      [{ authors_note_depth: 2.5 }, "authors_note_depth must be a whole number from 1 to 20"],
      [{ aspect_ratio: "2:3" }, "aspect_ratio must be one of 1:1, 4:3, 3:4, 16:9, 9:16 or 21:9"],
      [{ input_mode: "shout" }, "input_mode must be one of do, say or story"],
      [{ art_style: "x".repeat(201) }, "art_style must be at most 200 characters"],
      [{}, "Nothing to update"],
      [{ text_model: "gpt-5-imaginary" }, 'does not offer the model "gpt-5-imaginary"'],
      // One good field with a bad one: nothing at all changes.
      [{ temperature: 0.2, text_model: "llama-nowhere" }, 'does not offer the model "llama-nowhere"'],
      [
        { output_length: "short", aspect_ratio: "2:1" },
        "aspect_ratio must be one of 1:1, 4:3, 3:4, 16:9, 9:16 or 21:9",
      ],
    ];
    for (const [payload, detail] of bad) {
      const res = await call(user, "PUT", url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toContain(detail);
    }
    expect((await call(user, "GET", url)).json()).toEqual(before);
  });

  it("is the owner's only: anyone else gets a 404 and changes nothing", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(owner);
    const url = `/api/stories/${storyId}/settings`;
    expect((await call(other, "GET", url)).statusCode).toBe(404);
    expect((await call(other, "PUT", url, { temperature: 0.1 })).statusCode).toBe(404);
    expect((await call(owner, "GET", url)).json().temperature).toBe(0.9);
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
  });
});

describe("GET /api/models", () => {
  it("lists what the provider's /v1/models offers, the default first, asking it at most once a minute", async () => {
    const user = await createUser(t);
    openai.models.ids = ["gpt-4o", "gpt-4o-mini", "o3-mini"];
    const res = await call(user, "GET", "/api/models");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      provider: "openai",
      default_model: "gpt-4o-mini",
      models: [{ id: "gpt-4o-mini" }, { id: "gpt-4o" }, { id: "o3-mini" }],
    });
    openai.models.ids = ["gpt-4o-mini", "brand-new"];
    await call(user, "GET", "/api/models");
    expect(openai.requests.filter((r) => r.path === "/v1/models")).toHaveLength(1);
    t.clock.advance(MODEL_LIST_TTL_MS);
    expect((await call(user, "GET", "/api/models")).json().models).toEqual([
      { id: "gpt-4o-mini" },
      { id: "brand-new" },
    ]);
    expect((await t.app.inject({ method: "GET", url: "/api/models" })).statusCode).toBe(401);
  });

  it("answers 502 with a clear detail when the provider cannot list its models", async () => {
    const user = await createUser(t);
    openai.failNext({ status: 500 });
    const res = await call(user, "GET", "/api/models");
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toContain("could not list its models");
  });
});

describe("turns use the story's generation settings", () => {
  const turn = (user: TestUser, storyId: string, prompt: string, extra: object = {}) =>
    call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat", ...extra });

  it("sends the chosen model, temperature and max tokens to the provider", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    expect((await turn(user, storyId, "I look around")).statusCode).toBe(200);
    expect(lastChatBody()).toMatchObject({ model: "gpt-4o-mini", temperature: 0.9, max_tokens: 900 });

    await call(user, "PUT", `/api/stories/${storyId}/settings`, {
      text_model: "gpt-4.1-mini",
      temperature: 0.25,
      output_length: "short",
    });
    expect((await turn(user, storyId, "I listen")).statusCode).toBe(200);
    expect(lastChatBody()).toMatchObject({ model: "gpt-4.1-mini", temperature: 0.25, max_tokens: 400 });
  });

  it("places the Author's Note at the chosen depth, and What the narrator sees shows the same", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    for (const words of ["I walk to the pier", "I wave at the boat"]) {
      expect((await turn(user, storyId, words)).statusCode).toBe(200);
    }
    await call(user, "PUT", `/api/stories/${storyId}/memory`, { memory: "", authors_note: "Tone: eerie." });
    await call(user, "PUT", `/api/stories/${storyId}/settings`, { authors_note_depth: 3 });
    expect((await turn(user, storyId, "I ring the bell")).statusCode).toBe(200);
    const roles = (messages: { role: string; content: string }[]) =>
      messages.map((m) => (m.content.startsWith("Author's Note") ? "note" : m.role));
    // Two history messages and the player's after the note.
    expect(roles(lastChatBody().messages)).toEqual([
      "system",
      "user",
      "assistant",
      "note",
      "user",
      "assistant",
      "user",
    ]);

    const preview = await call(user, "GET", `/api/stories/${storyId}/context?prompt=hello&input_mode=say`);
    expect(preview.statusCode).toBe(200);
    const body = preview.json();
    expect(roles(body.messages).slice(-4)).toEqual(["note", "user", "assistant", "user"]);
    expect(body.messages.at(-1).content).toBe('You say "hello"');
    expect(body.generation).toEqual({
      text_model: "gpt-4o-mini",
      max_tokens: 900,
      temperature: 0.9,
      output_length: "medium",
      authors_note_depth: 3,
      input_mode: "say",
      art_style: "",
      aspect_ratio: "4:3",
    });
  });

  it("reads the player's words as Do, Say or Story: the turn's own mode, else the story's", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await turn(user, storyId, "open the rusty door", { input_mode: "do" });
    expect(lastChatBody().messages.at(-1)).toEqual({ role: "user", content: "You open the rusty door." });
    await turn(user, storyId, "Who goes there?", { input_mode: "say" });
    expect(lastChatBody().messages.at(-1)?.content).toBe('You say "Who goes there?"');
    await turn(user, storyId, "The fog rolls in.", { input_mode: "story" });
    expect(lastChatBody().messages.at(-1)?.content).toBe("The fog rolls in.");

    // Without a mode the story's default applies; the story shows the words as the narrator read them.
    await call(user, "PUT", `/api/stories/${storyId}/settings`, { input_mode: "do" });
    await turn(user, storyId, "climb the tower");
    expect(lastChatBody().messages.at(-1)?.content).toBe("You climb the tower.");
    const shown = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json();
    const players = (shown.messages as { role: string; content: string }[])
      .filter((m) => m.role === "user")
      .map((m) => m.content);
    expect(players).toEqual([
      "You open the rusty door.",
      'You say "Who goes there?"',
      "The fog rolls in.",
      "You climb the tower.",
    ]);

    const bad = await turn(user, storyId, "hm", { input_mode: "whisper" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain("input_mode must be one of do, say or story");
  });

  it("paints the scene in the story's art style and shape", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await call(user, "PUT", `/api/stories/${storyId}/settings`, {
      art_style: "ink wash",
      aspect_ratio: "3:4",
    });
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "I climb the tower" });
    expect(res.statusCode).toBe(200);
    const status = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${res.json().message_id}`,
    );
    expect(status.media_generation_completed).toBe(true);
    const painted = openai.requests.find((r) => r.path === "/v1/images/generations")?.json as {
      prompt: string;
      size: string;
    };
    expect(painted.size).toBe("1024x1536");
    expect(painted.prompt).toMatch(/\n\nArt style: ink wash$/);
  });
});

describe("backups carry the generation settings", () => {
  it("restores a story with its settings; a model this provider does not offer goes back to the default", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const chosen = {
      output_length: "short",
      temperature: 0.4,
      text_model: "gpt-4o",
      authors_note_depth: 5,
      art_style: "charcoal",
      aspect_ratio: "16:9",
      input_mode: "say",
    };
    await call(user, "PUT", `/api/stories/${storyId}/settings`, chosen);
    const backup = (await call(user, "GET", `/api/stories/${storyId}/backup`)).rawPayload;

    const copy = (await restoreBackup(t, user, backup)).story.id;
    expect((await call(user, "GET", `/api/stories/${copy}/settings`)).json()).toMatchObject(chosen);

    openai.models.ids = ["gpt-4o-mini"];
    t.clock.advance(MODEL_LIST_TTL_MS);
    const elsewhere = await restoreBackup(t, user, backup);
    expect(elsewhere.notes).toContainEqual({
      name: "Generation settings",
      reason: "text_model: not valid here, the default is used",
    });
    const settings = (await call(user, "GET", `/api/stories/${elsewhere.story.id}/settings`)).json();
    expect(settings).toMatchObject({ ...chosen, text_model: null, effective_text_model: "gpt-4o-mini" });
  });
});
