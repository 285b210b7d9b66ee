// "Make a card" through the HTTP API with the offline drafter: a draft from a narrator message, within the
// card limits, never a subject that already has a card, a real name or none, the message's picture offered as the
// portrait, nothing saved; other players and other messages 404.
import {
  CARD_DESCRIPTION_MAX_LENGTH,
  CARD_NAME_MAX_LENGTH,
  CARD_TRIGGERS_MAX,
} from "@storyverse/contract/story-cards";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";
import type { TextProvider } from "../providers/types";
import { readDraft } from "./card-draft";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PATCH";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const PASSAGE =
  "The lantern gutters as Mara Vell steps out of the fog. Mara Vell is a blind cartographer with ink-stained " +
  "fingers and a coat of sewn-together maps. Behind her the drowned bell tolls once under the harbour.";

/** A story with one narrator answer whose words are PASSAGE (edited, so the test knows them). */
async function storyWithPassage(user: TestUser) {
  const story = (
    await call(user, "POST", "/api/stories", { title: "Salt Roads", context: "A port town" })
  ).json().story.id as string;
  const turn = await call(user, "POST", `/api/stories/${story}/chat`, {
    prompt: "I wait by the quay",
    chat_mode: "chat",
  });
  expect(turn.statusCode).toBe(200);
  const answerId = turn.json().message_id as string;
  expect(
    (await call(user, "PATCH", `/api/stories/${story}/messages/${answerId}`, { content: PASSAGE }))
      .statusCode,
  ).toBe(200);
  const messages = (await call(user, "GET", `/api/stories/${story}/messages`)).json().messages as {
    id: string;
    role: string;
  }[];
  const question = messages.find((m) => m.role === "user")!.id;
  return { story, answerId, question };
}

describe("make a card", () => {
  it("drafts the passage's main character from a narrator message, and saves nothing", async () => {
    const user = await createUser(t);
    const { story, answerId } = await storyWithPassage(user);
    const res = await call(user, "POST", `/api/stories/${story}/messages/${answerId}/card-draft`);
    expect(res.statusCode).toBe(200);
    const { draft } = res.json();
    expect(draft.name).toBe("Mara Vell");
    expect(draft.kind).toBe("character");
    expect(draft.triggers).toContain("Mara Vell");
    expect(draft.description).toContain("blind cartographer");
    expect((await call(user, "GET", `/api/stories/${story}/cards`)).json().cards).toEqual([]);

    // Saved as it came, the draft is a valid card; the next draft picks something else.
    const saved = await call(user, "POST", `/api/stories/${story}/cards`, {
      ...draft,
      portrait: null,
      enabled: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const next = (await call(user, "POST", `/api/stories/${story}/messages/${answerId}/card-draft`)).json()
      .draft;
    // The passage names no one else, so the next draft leaves the name to the player, never "The" or "Behind".
    expect(next).toMatchObject({ name: "", triggers: [], portrait: null });
    expect(next.description.length).toBeGreaterThan(0);
  });

  it("names no card after a sentence's first word, and offers the message's picture as the portrait", async () => {
    const user = await createUser(t);
    const story = (await call(user, "POST", "/api/stories", { title: "Storm", context: "A coast" })).json()
      .story.id as string;
    const turn = await call(user, "POST", `/api/stories/${story}/chat`, {
      prompt: "I open the door",
      chat_mode: "image",
    });
    expect(turn.statusCode).toBe(200);
    const answerId = turn.json().message_id as string;
    await waitForMedia(t, user.token, `/api/stories/${story}/media-status/${answerId}`);
    const url = `/api/stories/${story}/messages/${answerId}/card-draft`;

    await call(user, "PATCH", `/api/stories/${story}/messages/${answerId}`, { content: "The door opened." });
    const unnamed = (await call(user, "POST", url)).json().draft;
    expect(unnamed).toMatchObject({ name: "", triggers: [], description: "The door opened." });

    await call(user, "PATCH", `/api/stories/${story}/messages/${answerId}`, {
      content: "The storm hit. Mara lifted her lantern.",
    });
    const draft = (await call(user, "POST", url)).json().draft;
    expect(draft).toMatchObject({ name: "Mara", triggers: ["Mara"] });
    // The offered portrait is this message's picture, as the gallery item a card may take.
    const gallery = (await call(user, "GET", "/api/user/images")).json().images as { id: string }[];
    expect(gallery.map((item) => item.id)).toEqual([draft.portrait.gallery_item_id]);
    expect(draft.portrait.url).toBeTruthy();
    const saved = await call(user, "POST", `/api/stories/${story}/cards`, {
      name: draft.name,
      kind: draft.kind,
      triggers: draft.triggers,
      description: draft.description,
      portrait: { gallery_item_id: draft.portrait.gallery_item_id },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().card.portrait.gallery_item_id).toBe(draft.portrait.gallery_item_id);
  });

  it("answers 404 for another player's story, a player message, or an unknown one; 400 for a bad id", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const { story, answerId, question } = await storyWithPassage(owner);
    const draft = (who: TestUser, id: string) =>
      call(who, "POST", `/api/stories/${story}/messages/${id}/card-draft`);
    expect((await draft(stranger, answerId)).statusCode).toBe(404);
    expect((await draft(owner, question)).statusCode).toBe(404);
    expect((await draft(owner, crypto.randomUUID())).json()).toMatchObject({ detail: "Message not found" });
    const bad = await draft(owner, "not-a-uuid");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBeTruthy();
  });

  it("answers 502 with a clear detail when the text provider's answer holds no card", async () => {
    const user = await createUser(t);
    const { story, answerId } = await storyWithPassage(user);
    const narrator = t.providers.text;
    t.providers.text = {
      ...narrator,
      purposes: narrator.purposes,
      complete: async () => "I would rather not.",
    } satisfies TextProvider;
    try {
      const res = await call(user, "POST", `/api/stories/${story}/messages/${answerId}/card-draft`);
      expect(res.statusCode).toBe(502);
      expect(res.json().detail).toMatch(/could not draft a card/);
    } finally {
      t.providers.text = narrator;
    }
  });
});

describe("how often a player may draft (audit N6)", () => {
  it("answers 120 drafts in a minute with 10 drafts and 110 refusals (429, detail, Retry-After), asking the vendor 10 times", async () => {
    const user = await createUser(t);
    const { story, answerId } = await storyWithPassage(user);
    const narrator = t.providers.text;
    let asked = 0;
    t.providers.text = {
      ...narrator,
      purposes: narrator.purposes,
      complete: (request) => {
        asked += 1;
        return narrator.complete(request);
      },
    } satisfies TextProvider;
    try {
      const url = `/api/stories/${story}/messages/${answerId}/card-draft`;
      const answers = await Promise.all(Array.from({ length: 120 }, () => call(user, "POST", url)));
      expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(10);
      const refused = answers.filter((res) => res.statusCode === 429);
      expect(refused).toHaveLength(110);
      expect(refused[0]!.json().detail).toMatch(/^You can draft at most 10 cards a minute\. Please wait/);
      expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
      expect(asked).toBe(10);

      // Another player is not held up by it; the player drafts again a minute later.
      const other = await createUser(t);
      const theirs = await storyWithPassage(other);
      const url2 = `/api/stories/${theirs.story}/messages/${theirs.answerId}/card-draft`;
      expect((await call(other, "POST", url2)).statusCode).toBe(200);
      t.clock.advance(60_000);
      expect((await call(user, "POST", url)).statusCode).toBe(200);
    } finally {
      t.providers.text = narrator;
    }
  });
});

describe("reading a model's draft", () => {
  it("cuts every field to the card limits and fills what a model left out", () => {
    const draft = readDraft(
      `Sure! \`\`\`json\n${JSON.stringify({
        name: "N".repeat(200),
        kind: "dragon",
        triggers: Array.from({ length: 30 }, (_, i) => `word${i}`).concat(["WORD1"]),
        description: "d".repeat(CARD_DESCRIPTION_MAX_LENGTH + 5000),
      })}\n\`\`\``,
    )!;
    expect(draft.name).toHaveLength(CARD_NAME_MAX_LENGTH);
    expect(draft.kind).toBe("other");
    expect(draft.triggers).toHaveLength(CARD_TRIGGERS_MAX);
    expect(draft.description).toHaveLength(CARD_DESCRIPTION_MAX_LENGTH);
    expect(readDraft('{"name": "Ysolde"}')).toEqual({
      name: "Ysolde",
      kind: "other",
      triggers: ["Ysolde"],
      description: "",
    });
    expect(readDraft("no card here")).toBeNull();
    expect(readDraft('{"name": ""}')).toBeNull();
    // No name but a description: a draft the player names, with no trigger until then.
    expect(readDraft('{"name": "", "description": "A door."}')).toMatchObject({ name: "", triggers: [] });
  });
});
