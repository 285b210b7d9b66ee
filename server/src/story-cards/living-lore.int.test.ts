// Living lore and what the camera sees (issue #29 parts 2 and 3) through the HTTP API on a real database (both
// engines), with the real job worker and the offline narrator: names the narration repeats are offered as
// drafts that can be accepted (a card is made) or dismissed (never offered again); the scene state and a
// card's appearance are read and corrected by hand, bad input changes nothing, others get 404; and what the
// camera keeps reaches the next scene's picture prompt, which the painter (a fake OpenAI server) records.
import { NEXT_SCENE_PLACEHOLDER } from "@storyverse/contract/camera";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { waitForMedia } from "../../test/media";

let openai: OpenAIFake;
let t: TestApp;

beforeAll(async () => {
  openai = await startOpenAIFake();
  // The narrator is the offline one (TEXT_PROVIDER's default); only the painter is the fake vendor.
  t = await createTestApp({
    env: { IMAGE_PROVIDER: "openai", IMAGE_API_KEY: openai.apiKey, IMAGE_BASE_URL: openai.baseUrl },
    tickingClock: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), openai?.close()]);
});
beforeEach(() => {
  openai.reset();
});

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function newStory(user: TestUser) {
  const res = await call(user, "POST", "/api/stories", { title: "Salt Roads", context: "A port town" });
  expect(res.statusCode).toBe(200);
  return res.json().story.id as string;
}

async function turn(user: TestUser, storyId: string, prompt: string, mode: "chat" | "image" = "chat") {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { message_id: string };
}

type Suggestion = { id: string; name: string; kind: string; triggers: string[]; description: string };
const suggestions = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/lore-suggestions`)).json().suggestions as Suggestion[];

/** Polls the drafts until `names` are all offered (the job runs after the turn, in the worker). */
async function waitForDrafts(user: TestUser, storyId: string, names: string[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const offered = await suggestions(user, storyId);
    if (names.every((name) => offered.some((s) => s.name === name))) return offered;
    if (Date.now() > deadline) throw new Error(`no drafts ${names}: ${JSON.stringify(offered)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const cardNames = async (user: TestUser, storyId: string) =>
  ((await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as { name: string }[]).map(
    (card) => card.name,
  );

describe("living lore", () => {
  it("offers the names the narration repeats, makes an accepted draft a card and never offers a dismissed one again", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await turn(user, storyId, "I follow Brannoc to the Salt Gate");
    await turn(user, storyId, "I ask Brannoc about the Heron Lantern at the Salt Gate");
    const drafts = await waitForDrafts(user, storyId, ["Brannoc", "the Salt Gate", "the Heron Lantern"]);
    const byName = new Map(drafts.map((draft) => [draft.name, draft]));
    expect(byName.get("the Salt Gate")).toMatchObject({ kind: "place", triggers: ["Salt Gate"] });
    expect(byName.get("the Heron Lantern")).toMatchObject({ kind: "thing", triggers: ["Heron Lantern"] });
    expect(byName.get("Brannoc")!.description).toContain("Brannoc");

    // Accepted with the player's edits: the card is made through the cards' own rules.
    const accepted = await call(
      user,
      "POST",
      `/api/stories/${storyId}/lore-suggestions/${byName.get("Brannoc")!.id}/accept`,
      { description: "The keeper of the Salt Gate." },
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().card).toMatchObject({
      name: "Brannoc",
      kind: "character",
      triggers: ["Brannoc"],
      description: "The keeper of the Salt Gate.",
      appearance: "",
    });
    expect(await cardNames(user, storyId)).toEqual(["Brannoc"]);
    // Accepted without a body: the draft as offered.
    const gate = await call(
      user,
      "POST",
      `/api/stories/${storyId}/lore-suggestions/${byName.get("the Salt Gate")!.id}/accept`,
    );
    expect(gate.statusCode, gate.body).toBe(200);
    expect(gate.json().card).toMatchObject({ name: "the Salt Gate", kind: "place", triggers: ["Salt Gate"] });

    const lantern = byName.get("the Heron Lantern")!.id;
    const dismissed = await call(user, "POST", `/api/stories/${storyId}/lore-suggestions/${lantern}/dismiss`);
    expect(dismissed.statusCode).toBe(200);
    expect((await suggestions(user, storyId)).map((s) => s.name)).not.toContain("the Heron Lantern");
    // Handled drafts cannot be handled again.
    for (const action of ["dismiss", "accept"]) {
      const again = await call(user, "POST", `/api/stories/${storyId}/lore-suggestions/${lantern}/${action}`);
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe("This draft was already accepted or dismissed.");
    }

    // More turns name the lantern again and bring up someone new: only the new name is offered.
    await turn(user, storyId, "I lift the Heron Lantern and call for Oswin");
    await turn(user, storyId, "I show Oswin the Heron Lantern");
    const later = await waitForDrafts(user, storyId, ["Oswin"]);
    expect(later.map((s) => s.name)).toEqual(["Oswin"]);
    expect(await cardNames(user, storyId)).toEqual(["Brannoc", "the Salt Gate"]);
  });

  it("refuses bad drafts and others' stories, and changes nothing", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(user);
    await turn(user, storyId, "I follow Brannoc to the Salt Gate");
    await turn(user, storyId, "I ask Brannoc about the Salt Gate");
    const [draft] = await waitForDrafts(user, storyId, ["Brannoc"]);
    const base = `/api/stories/${storyId}/lore-suggestions`;

    for (const [method, url] of [
      ["GET", base],
      ["POST", `${base}/${draft!.id}/accept`],
      ["POST", `${base}/${draft!.id}/dismiss`],
    ] as const) {
      const res = await call(other, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().detail).toBeTruthy();
    }
    const unknown = await call(user, "POST", `${base}/00000000-0000-4000-8000-000000000000/accept`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe("Draft not found");
    const notAnId = await call(user, "POST", `${base}/not-an-id/dismiss`);
    expect(notAnId.statusCode).toBe(404);

    for (const [edits, detail] of [
      [{ kind: "dragon" }, "kind must be character, place, thing or other"],
      [{ name: "" }, "name is required"],
      [{ triggers: [] }, "triggers: give at least one trigger word"],
      [{ colour: "red" }, "colour"],
    ] as const) {
      const res = await call(user, "POST", `${base}/${draft!.id}/accept`, edits);
      expect(res.statusCode, JSON.stringify(edits)).toBe(400);
      expect(res.json().detail).toContain(detail);
    }
    expect(await cardNames(user, storyId)).toEqual([]);
    expect((await suggestions(user, storyId)).map((s) => s.name)).toContain("Brannoc");

    // A card made by hand with that name: the draft is no longer offered.
    await call(user, "POST", `/api/stories/${storyId}/cards`, { name: "Brannoc", triggers: ["Brannoc"] });
    expect((await suggestions(user, storyId)).map((s) => s.name)).not.toContain("Brannoc");
  });
});

describe("what the camera sees", () => {
  it("reads and corrects the scene state by hand; bad input and others change nothing", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(user);
    const url = `/api/stories/${storyId}/scene-state`;
    expect((await call(user, "GET", url)).json()).toEqual({
      success: true,
      scene_state: { place: "", time_of_day: "", weather: "" },
    });
    const put = await call(user, "PUT", url, { place: " the Salt Gate ", weather: "rain" });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().scene_state).toEqual({ place: "the Salt Gate", time_of_day: "", weather: "rain" });

    for (const [body, detail] of [
      [{ place: "x".repeat(101) }, "place must be at most 100 characters"],
      [{ weather: 5 }, "weather must be text"],
      [{}, "Nothing to update"],
      [{ season: "winter" }, "season"],
    ] as const) {
      const res = await call(user, "PUT", url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toContain(detail);
    }
    for (const method of ["GET", "PUT"] as const) {
      const res = await call(other, method, url, method === "PUT" ? { place: "Elsewhere" } : undefined);
      expect(res.statusCode).toBe(404);
    }
    expect((await call(user, "GET", url)).json().scene_state).toEqual({
      place: "the Salt Gate",
      time_of_day: "",
      weather: "rain",
    });
  });

  it("keeps a card's appearance, within its limit", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const made = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Mara",
      triggers: ["Mara"],
      appearance: "a grey cloak",
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().card.appearance).toBe("a grey cloak");
    const cardUrl = `/api/stories/${storyId}/cards/${made.json().card.id}`;
    const changed = await call(user, "PUT", cardUrl, { appearance: "a torn grey cloak, bleeding" });
    expect(changed.json().card.appearance).toBe("a torn grey cloak, bleeding");
    const tooLong = await call(user, "PUT", cardUrl, { appearance: "x".repeat(301) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().detail).toContain("appearance must be at most 300 characters");
    const refused = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Oswin",
      triggers: ["Oswin"],
      appearance: ["a hat"],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("appearance must be text");
    const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
    expect(cards.map((card: { appearance: string }) => card.appearance)).toEqual([
      "a torn grey cloak, bleeding",
    ]);
  });

  it("paints the next scene with the scene state and the appearance the context's camera shows", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Mara",
      triggers: ["Mara"],
      appearance: "a torn red cloak, carries the Heron Lantern",
    });
    await call(user, "PUT", `/api/stories/${storyId}/scene-state`, {
      place: "the Salt Gate",
      time_of_day: "night",
      weather: "rain",
    });
    const context = (await call(user, "GET", `/api/stories/${storyId}/context?prompt=I%20wait`)).json();
    expect(context.camera.scene_state).toEqual({
      place: "the Salt Gate",
      time_of_day: "night",
      weather: "rain",
    });
    expect(context.camera.characters).toEqual([
      expect.objectContaining({ name: "Mara", appearance: "a torn red cloak, carries the Heron Lantern" }),
    ]);
    const kept = [
      "Keep from earlier scenes:",
      "Place: the Salt Gate.",
      "Time of day: night.",
      "Weather: rain.",
      "Mara: a torn red cloak, carries the Heron Lantern",
    ].join("\n");
    expect(context.camera.scene_prompt).toBe(`${NEXT_SCENE_PLACEHOLDER}\n\n${kept}`);

    const { message_id } = await turn(user, storyId, "I wait with Mara", "image");
    const status = await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${message_id}`);
    expect(status.media_generation_completed).toBe(true);
    const painted = openai.requests.find((r) => r.path === "/v1/images/generations")?.json as {
      prompt: string;
    };
    // The exact prompt the camera showed, with the scene the illustrator wrote in the placeholder's place.
    expect(painted.prompt.endsWith(`\n\n${kept}`)).toBe(true);
    expect(painted.prompt).not.toContain(NEXT_SCENE_PLACEHOLDER);

    // A correction by hand reaches the next scene.
    await call(user, "PUT", `/api/stories/${storyId}/scene-state`, { time_of_day: "dawn", weather: "" });
    openai.reset();
    const next = await turn(user, storyId, "I look around", "image");
    await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${next.message_id}`);
    const repainted = openai.requests.find((r) => r.path === "/v1/images/generations")?.json as {
      prompt: string;
    };
    expect(repainted.prompt).toContain("Time of day: dawn.");
    expect(repainted.prompt).not.toContain("Weather:");
  });

  it("updates the scene state and a character's appearance from the offline narration", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const made = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Mara",
      triggers: ["Mara"],
    });
    const cardId = made.json().card.id as string;
    // The offline narrator repeats the player's action: it names Mara's cloak, the place and the night.
    await turn(user, storyId, "I see that Mara wears a torn cloak at the Salt Gate, at night, in the rain");
    const deadline = Date.now() + 30_000;
    for (;;) {
      const scene = (await call(user, "GET", `/api/stories/${storyId}/scene-state`)).json().scene_state;
      const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
      const mara = cards.find((card: { id: string }) => card.id === cardId);
      if (scene.time_of_day && mara.appearance) {
        expect(scene).toMatchObject({ place: "the Salt Gate", time_of_day: "night" });
        expect(mara.appearance).toContain("torn cloak");
        break;
      }
      if (Date.now() > deadline) throw new Error(`no scene state: ${JSON.stringify({ scene, mara })}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});

describe("reading the narration again", () => {
  const sceneOf = async (user: TestUser, storyId: string) =>
    (await call(user, "GET", `/api/stories/${storyId}/scene-state`)).json().scene_state as {
      place: string;
      time_of_day: string;
    };

  /** Polls the scene state until it is `want` (the reading runs in the worker, after the call). */
  async function waitForScene(user: TestUser, storyId: string, want: { place: string; time_of_day: string }) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const scene = await sceneOf(user, storyId);
      if (scene.place === want.place && scene.time_of_day === want.time_of_day) return;
      if (Date.now() > deadline)
        throw new Error(`scene ${JSON.stringify(scene)}, not ${JSON.stringify(want)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const edit = async (user: TestUser, storyId: string, messageId: string, content: string) => {
    const res = await call(user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content });
    expect(res.statusCode, res.body).toBe(200);
  };

  it("reads an edited narrator message's new words: new names, the scene and a character's looks", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const mara = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Mara",
      triggers: ["Mara"],
    });
    const { message_id: answer } = await turn(user, storyId, "I wait");
    await edit(user, storyId, answer, "You meet Corvin at dusk. You follow Corvin home.");
    await waitForDrafts(user, storyId, ["Corvin"]);
    // Corvin was read, so the turn's own reading is done: what follows is the second edit's.
    await edit(
      user,
      storyId,
      answer,
      "At night you hear Ysolde sing at the Old Mill. You thank Ysolde. Mara wears a torn grey cloak.",
    );
    const drafts = await waitForDrafts(user, storyId, ["Ysolde"]);
    expect(drafts.map((draft) => draft.name)).toEqual(["Corvin", "Ysolde"]);
    await waitForScene(user, storyId, { place: "the Old Mill", time_of_day: "night" });
    const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
    expect(cards.find((card: { id: string }) => card.id === mara.json().card.id).appearance).toBe(
      "Mara wears a torn grey cloak.",
    );
  });

  it("follows Undo back to the narration now newest, and Redo forward again", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const first = await turn(user, storyId, "I walk");
    await edit(user, storyId, first.message_id, "You reach the Salt Gate at dawn.");
    await waitForScene(user, storyId, { place: "the Salt Gate", time_of_day: "dawn" });
    const second = await turn(user, storyId, "I walk on");
    await edit(user, storyId, second.message_id, "You reach the Old Mill at night.");
    await waitForScene(user, storyId, { place: "the Old Mill", time_of_day: "night" });

    expect((await call(user, "POST", `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
    await waitForScene(user, storyId, { place: "the Salt Gate", time_of_day: "dawn" });
    expect((await call(user, "POST", `/api/stories/${storyId}/redo`)).statusCode).toBe(200);
    await waitForScene(user, storyId, { place: "the Old Mill", time_of_day: "night" });
  });
});

describe("with a real text provider", () => {
  let vendor: OpenAIFake;
  let v: TestApp;
  beforeAll(async () => {
    vendor = await startOpenAIFake();
    v = await createTestApp({
      env: { TEXT_PROVIDER: "openai", TEXT_API_KEY: vendor.apiKey, TEXT_BASE_URL: vendor.baseUrl },
      tickingClock: true,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([v?.cleanup(), vendor?.close()]);
  });

  const ask = (user: TestUser, method: Method, url: string, payload?: unknown) =>
    v.app.inject({
      method,
      url,
      headers: bearer(user.token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function playAndWait(user: TestUser, storyId: string, name: string) {
    const res = await ask(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I look",
      chat_mode: "chat",
    });
    expect(res.statusCode, res.body).toBe(200);
    return waitForDraft(user, storyId, name);
  }

  async function waitForDraft(user: TestUser, storyId: string, name: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const drafts = (await ask(user, "GET", `/api/stories/${storyId}/lore-suggestions`)).json().suggestions;
      if (drafts.some((draft: Suggestion) => draft.name === name)) return drafts as Suggestion[];
      if (Date.now() > deadline) throw new Error(`no draft ${name}: ${JSON.stringify(drafts)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("asks the model in the background (free) and offers what its JSON names", async () => {
    const user = await createUser(v);
    const story = await ask(user, "POST", "/api/stories", { title: "Salt Roads", context: "" });
    const storyId = story.json().story.id as string;
    // The fake answers every chat request alike: the narration carries the JSON the lore keeper reads.
    vendor.chat.pieces = [
      'The keeper nods. {"names":[{"name":"Ysolde","kind":"character","description":"The keeper."}],"scene":{"time_of_day":"dusk"}}',
    ];
    const drafts = await playAndWait(user, storyId, "Ysolde");
    expect(drafts.find((draft) => draft.name === "Ysolde")).toMatchObject({
      kind: "character",
      description: "The keeper.",
    });
    const keeper = vendor.requests.find((r) => r.path === "/v1/chat/completions" && !isTurnChat(r));
    expect((keeper?.json as { messages: { content: string }[] }).messages[0]!.content).toMatch(
      /^Role: lore keeper\./,
    );
    expect(
      (await ask(user, "GET", `/api/stories/${storyId}/scene-state`)).json().scene_state.time_of_day,
    ).toBe("dusk");
    // The turn cost what a chat turn costs: the reading was free.
    expect((await ask(user, "GET", "/api/credit-balance")).json().remaining).toBe(14.5);
  });

  it("reads a retried answer's new words again", async () => {
    const user = await createUser(v);
    const story = await ask(user, "POST", "/api/stories", { title: "Salt Roads", context: "" });
    const storyId = story.json().story.id as string;
    vendor.chat.pieces = ['Fog. {"names":[{"name":"Corvin","kind":"character"}]}'];
    const first = await ask(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I wait",
      chat_mode: "chat",
    });
    expect(first.statusCode, first.body).toBe(200);
    await waitForDraft(user, storyId, "Corvin");
    vendor.chat.pieces = ['Rain. {"names":[{"name":"Maud","kind":"character"}]}'];
    const retried = await ask(
      user,
      "POST",
      `/api/stories/${storyId}/messages/${first.json().message_id}/retry`,
      {
        what: "text",
      },
    );
    expect(retried.statusCode, retried.body).toBe(200);
    await waitForDraft(user, storyId, "Maud");
  });

  it("falls back to the offline reader when the model's answer is not the JSON asked for", async () => {
    const user = await createUser(v);
    const story = await ask(user, "POST", "/api/stories", { title: "Salt Roads", context: "" });
    vendor.chat.pieces = ["You meet Brannoc at the quay. Later, Brannoc waves from the boat."];
    await playAndWait(user, story.json().story.id as string, "Brannoc");
  });
});
