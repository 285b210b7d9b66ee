// Story Cards in a turn, through the HTTP API on a real database: the cards a prompt wakes reach the
// narrator's context (and "What the narrator sees" says so), and their portraits reach the painter after
// the player's selected images, within the 10-reference limit, pulling the scene toward their colours.
// The narrator is a fake OpenAI server (its wire format) so the scene text is the same with or without
// cards; the painter is the offline one, recorded.
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { fetchMedia, galleryImage, waitForMedia } from "../../test/media";
import { createOfflineImageProvider } from "../providers/offline/image";
import { type ImageRequest, ProviderError } from "../providers/types";

let openai: OpenAIFake;
let t: TestApp;
const painted: ImageRequest[] = [];
/** While set, the painter's next call waits for `held`, then fails once as a busy vendor (retryable). */
let painterHold: { held: Promise<void>; fail: boolean } | null = null;

beforeAll(async () => {
  openai = await startOpenAIFake();
  const painter = createOfflineImageProvider();
  t = await createTestApp({
    env: { TEXT_PROVIDER: "openai", TEXT_API_KEY: openai.apiKey, TEXT_BASE_URL: openai.baseUrl },
    tickingClock: true,
    providers: {
      image: {
        ...painter,
        generate: async (request) => {
          painted.push(request);
          const hold = painterHold;
          if (hold) {
            painterHold = null;
            await hold.held;
            if (hold.fail) throw new ProviderError("The image service is busy.", true);
          }
          return painter.generate(request);
        },
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), openai?.close()]);
});
beforeEach(() => {
  openai.reset();
  openai.chat.pieces = ["The harbour bell rings twice.\n\nSCENE: A grey harbour at dawn, boats and gulls."];
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
  return (await call(user, "POST", "/api/stories", { title: "The Drowned Bell", context: "" })).json().story
    .id as string;
}

const narratorSystemMessage = () => {
  const request = openai.requests.filter(isTurnChat).at(-1);
  return (request?.json as { messages: { role: string; content: string }[] }).messages[0]!.content;
};

/** How far red leads green and blue over a whole picture. */
async function redLead(png: Buffer): Promise<number> {
  const [r, g, b] = (await sharp(png).stats()).channels.map((c) => c.mean);
  return r! - (g! + b!) / 2;
}

async function paintedScene(user: TestUser, storyId: string, prompt: string, extra: object = {}) {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
    prompt,
    chat_mode: "image",
    ...extra,
  });
  expect(res.statusCode).toBe(200);
  const done = await waitForMedia(
    t,
    user.token,
    `/api/stories/${storyId}/media-status/${res.json().message_id}`,
  );
  expect(done.status).toBe("completed");
  return (await fetchMedia(t, done.image_url!)).body;
}

describe("story cards in a turn", () => {
  it("wakes a card by its trigger: the narrator reads its description, the context lists it, the scene takes its portrait's colours", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const portrait = await galleryImage(t, user.userId, "#d01010");
    const card = (
      await call(user, "POST", `/api/stories/${storyId}/cards`, {
        name: "Captain Rell",
        kind: "character",
        triggers: ["Rell", "the captain"],
        description: "A one-eyed captain in a scarlet coat.",
        portrait: { gallery_item_id: portrait.id },
      })
    ).json().card;
    await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Lighthouse",
      kind: "place",
      triggers: ["lighthouse"],
      description: "A white tower on the rocks.",
    });

    // Not mentioned: asleep.
    const quiet = (await call(user, "GET", `/api/stories/${storyId}/context?prompt=I%20wait`)).json();
    expect(quiet.active_cards).toEqual([]);
    expect(quiet.image_references).toEqual([]);
    expect(quiet.parts.find((p: { part: string }) => p.part === "cards").tokens).toBe(0);

    const prompt = "I salute the Captain";
    const preview = (
      await call(
        user,
        "GET",
        `/api/stories/${storyId}/context?prompt=${encodeURIComponent(prompt)}&chat_mode=image&selected_images=2`,
      )
    ).json();
    expect(preview.active_cards).toEqual([
      {
        id: card.id,
        name: "Captain Rell",
        kind: "character",
        in_context: true,
        reason: { kind: "key", key: "the captain", where: "your message", messages_back: 0 },
        because: '"the captain" in your message',
        dropped_for_budget: false,
      },
    ]);
    expect(preview.messages[0].content).toContain(
      "- Captain Rell (character): A one-eyed captain in a scarlet coat.",
    );
    expect(preview.messages[0].content).not.toContain("Lighthouse");
    expect(preview.image_references).toEqual([
      { source: "selected", position: 0 },
      { source: "selected", position: 1 },
      { source: "portrait", card_id: card.id, name: "Captain Rell", url: expect.any(String) },
    ]);
    expect((await fetchMedia(t, preview.image_references[2].url)).status).toBe(200);
    // Chat mode paints nothing, so nothing is referenced.
    const chatPreview = (
      await call(
        user,
        "GET",
        `/api/stories/${storyId}/context?prompt=${encodeURIComponent(prompt)}&chat_mode=chat`,
      )
    ).json();
    expect(chatPreview.image_references).toEqual([]);
    expect(chatPreview.active_cards).toHaveLength(1);

    painted.length = 0;
    const withCard = await paintedScene(user, storyId, prompt);
    expect(narratorSystemMessage()).toContain("A one-eyed captain in a scarlet coat.");
    expect(narratorSystemMessage()).toBe(preview.messages[0].content);
    expect(painted.at(-1)!.references).toHaveLength(1);

    // The same scene in a story without the card: the portrait's red is what moved the palette.
    const plainStory = await newStory(user);
    const without = await paintedScene(user, plainStory, prompt);
    expect(painted.at(-1)!.references).toHaveLength(0);
    expect(await redLead(withCard)).toBeGreaterThan((await redLead(without)) + 10);

    // Disabled, the card sleeps even when named.
    await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, { enabled: false });
    const disabled = (
      await call(user, "GET", `/api/stories/${storyId}/context?prompt=${encodeURIComponent(prompt)}`)
    ).json();
    expect(disabled.active_cards).toEqual([]);
  }, 120_000);

  it("sends the selected images first, then portraits by most recent mention, at most 10", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const colours = ["#102030", "#203040", "#304050"];
    const portraits = await Promise.all(colours.map((colour) => galleryImage(t, user.userId, colour)));
    const names = ["Ada", "Bram", "Cole"];
    for (const [i, name] of names.entries()) {
      await call(user, "POST", `/api/stories/${storyId}/cards`, {
        name,
        triggers: [name],
        portrait: { gallery_item_id: portraits[i]!.id },
      });
    }
    // An earlier message names Ada; the prompt names Cole, then Bram (the later mention is the more recent).
    await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt: "Ada waves", chat_mode: "chat" });
    const selected = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => ({
        url: await t.storage.signedUrl((await galleryImage(t, user.userId, `#0${i}0000`)).storageKey),
      })),
    );
    const prompt = "Cole nods to Bram";
    const preview = (
      await call(
        user,
        "GET",
        `/api/stories/${storyId}/context?prompt=${encodeURIComponent(prompt)}&chat_mode=image&selected_images=8`,
      )
    ).json();
    expect(preview.active_cards.map((c: { name: string }) => c.name)).toEqual(["Bram", "Cole", "Ada"]);
    expect(
      preview.image_references.map((r: { source: string; name?: string }) => r.name ?? r.source),
    ).toEqual([...Array(8).fill("selected"), "Bram", "Cole"]);

    painted.length = 0;
    await paintedScene(user, storyId, prompt, { inputImages: selected });
    const references = painted.at(-1)!.references;
    expect(references).toHaveLength(10);
    // The last two are Bram's and Cole's portraits, in that order (their colours, read back).
    const mean = async (data: Buffer) =>
      (await sharp(data).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));
    expect(await mean(references[8]!.data)).toEqual([32, 48, 64]);
    expect(await mean(references[9]!.data)).toEqual([48, 64, 80]);
  }, 120_000);

  it("refuses a bad selected_images count with a 400 naming it", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    for (const value of ["11", "-1", "two"]) {
      const res = await call(user, "GET", `/api/stories/${storyId}/context?selected_images=${value}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/selected_images/);
    }
  });

  it("paints the scene without a portrait whose card was deleted before the picture was made", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const upload = `data:image/png;base64,${(await samplePng(32, 32, "#d01010")).toString("base64")}`;
    const card = (
      await call(user, "POST", `/api/stories/${storyId}/cards`, {
        name: "Rell",
        triggers: ["Rell"],
        portrait: { data: upload },
      })
    ).json().card;
    // The painter's first try waits, then fails as a busy vendor does; the card is deleted meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    painterHold = { held, fail: true };
    painted.length = 0;
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I wave to Rell",
      chat_mode: "image",
    });
    expect(turn.statusCode).toBe(200);
    while (painted.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(painted[0]!.references).toHaveLength(1);
    expect((await call(user, "DELETE", `/api/stories/${storyId}/cards/${card.id}`)).statusCode).toBe(200);
    release();
    // The retry finds the portrait gone and paints the scene without it, rather than failing the turn.
    const done = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${turn.json().message_id}`,
    );
    expect(done.status).toBe("completed");
    expect(painted.at(-1)!.references).toHaveLength(0);
  }, 120_000);
});
