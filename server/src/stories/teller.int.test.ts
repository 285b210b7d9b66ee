// Who tells the story (issue 43 items 1 and 7, decision 0154) through the HTTP API on a real database, with the
// offline text provider: a card import starts in character mode with its card; a character-mode turn asks the
// text provider as the card in the first person (the card's system prompt and post-history rules kept) and the
// offline answer is the card speaking in the first person; each narrator message says who spoke; the settings
// refuse a card that is not this story's or character mode without a card, changing nothing; back to the narrator.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { multipart } from "../../test/multipart";
import { restoreBackup } from "../../test/restore-backup";
import type { TextRequest } from "../providers/types";

type TurnRequest = Extract<TextRequest, { purpose: "turn" | "continue" }>;

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/interop");

let t: TestApp;
/** The requests the text provider was sent, newest last. */
const sent: TextRequest[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const text = t.ctx.providers.text;
  const complete = text.complete.bind(text);
  const stream = text.stream.bind(text);
  text.complete = (request) => {
    sent.push(request);
    return complete(request);
  };
  text.stream = (request) => {
    sent.push(request);
    return stream(request);
  };
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function importCard(user: TestUser): Promise<string> {
  const body = multipart(await readFile(path.join(FIXTURES, "v2-every-field.json")), "mira.json");
  const res = await t.app.inject({
    method: "POST",
    url: "/api/stories/import",
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user.token) },
  });
  expect(res.statusCode).toBe(200);
  return res.json().story.id as string;
}

type Card = { id: string; name: string; from_character_card: boolean };
const cardsOf = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as Card[];
const settingsOf = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/settings`)).json();
type Message = { role: string; content: string; speaker: { card_id: string; name: string } | null };
const messagesOf = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages as Message[];

describe("who tells the story", () => {
  it("starts an imported card's story in character mode; its turn is the card speaking in the first person", async () => {
    const user = await createUser(t);
    const storyId = await importCard(user);
    const mira = (await cardsOf(user, storyId)).find((card) => card.from_character_card)!;
    expect(mira.name).toBe("Mira Voss");
    const settings = await settingsOf(user, storyId);
    expect(settings).toMatchObject({ teller: "character", character_ids: [mira.id] });
    // The greeting is the character's first words.
    const [opening] = await messagesOf(user, storyId);
    expect(opening!.speaker).toEqual({ card_id: mira.id, name: "Mira Voss" });

    sent.length = 0;
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: 'You say "Who are you, and why do you keep this light?"',
      chat_mode: "chat",
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.speaker).toEqual({ card_id: mira.id, name: "Mira Voss" });

    // The prompt: the card in the first person, its own system prompt around it ({{original}}), its rules after.
    const request = sent.find((r) => r.purpose === "turn") as TurnRequest;
    const system = request.messages[0]!.content;
    expect(system).toMatch(/You are Mira Voss, .* in the first person\./);
    expect(system).toContain("Write as Mira Voss in the third person.");
    expect(system).toContain("lighthouse keeper on the storm coast of Calder");
    expect(system).not.toMatch(/continue the story in the second person/);
    expect(request.messages.some((m) => m.content === "Keep replies under 200 words.")).toBe(true);
    expect(request.character).toMatchObject({ name: "Mira Voss" });

    // The offline answer: Mira acts in italics and speaks in the first person, in quotes.
    const text = answer.story_text as string;
    expect(text).toMatch(/^\*Mira Voss [^*]+\.\* "/);
    expect(text).toMatch(/"[^"]*\b(?:I|my|me)\b[^"]*"/);
    expect(text).not.toMatch(/^You /);
    const messages = await messagesOf(user, storyId);
    expect(messages.find((m) => m.content === text)).toMatchObject({
      role: "assistant",
      speaker: { card_id: mira.id, name: "Mira Voss" },
    });
    expect(messages.find((m) => m.role === "user")).toMatchObject({ speaker: null });
  });

  it("switches to the narrator and back, and a narrator turn has no speaker", async () => {
    const user = await createUser(t);
    const storyId = await importCard(user);
    const mira = (await cardsOf(user, storyId)).find((card) => card.from_character_card)!;
    const back = await call(user, "PUT", `/api/stories/${storyId}/settings`, { teller: "narrator" });
    expect(back.statusCode).toBe(200);
    // The card is remembered for when the character tells again.
    expect(back.json()).toMatchObject({ teller: "narrator", character_ids: [mira.id] });

    sent.length = 0;
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I climb the stairs",
      chat_mode: "chat",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().speaker).toBeNull();
    const request = sent.find((r) => r.purpose === "turn") as TurnRequest;
    expect(request.character).toBeUndefined();
    expect(request.messages[0]!.content).toMatch(/second person/);
    const told = (await messagesOf(user, storyId)).find((m) => m.content === res.json().story_text);
    expect(told!.speaker).toBeNull();

    const again = await call(user, "PUT", `/api/stories/${storyId}/settings`, { teller: "character" });
    expect(again.json()).toMatchObject({ teller: "character", character_ids: [mira.id] });
  });

  it("plays a card made here: a story's own card chosen in the settings", async () => {
    const user = await createUser(t);
    const story = await call(user, "POST", "/api/stories", {
      title: "The Drowned Bell",
      context: "A harbour town.",
    });
    const storyId = story.json().story.id as string;
    const made = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Captain Ysolde",
      kind: "character",
      triggers: ["Ysolde"],
      description: "She commands the salt barge Heron and trusts nobody who cannot swim.",
    });
    expect(made.statusCode).toBe(200);
    const cardId = made.json().card.id as string;
    expect((await settingsOf(user, storyId)).teller).toBe("narrator");
    const res = await call(user, "PUT", `/api/stories/${storyId}/settings`, {
      teller: "character",
      character_ids: [cardId],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ teller: "character", character_ids: [cardId] });
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Where are we sailing?",
      chat_mode: "chat",
    });
    const text = turn.json().story_text as string;
    expect(text).toMatch(/^\*Captain Ysolde [^*]+\.\* "/);
    expect(text).toMatch(/\bI\b/);
    expect(turn.json().speaker).toEqual({ card_id: cardId, name: "Captain Ysolde" });
  });

  it("refuses character mode without a card, an unknown card and another story's card, changing nothing", async () => {
    const user = await createUser(t);
    const other = await importCard(user);
    const otherCard = (await cardsOf(user, other))[0]!;
    const story = await call(user, "POST", "/api/stories", { title: "Plain" });
    const storyId = story.json().story.id as string;
    const url = `/api/stories/${storyId}/settings`;
    const cases: [object, RegExp][] = [
      [{ teller: "character" }, /character teller plays one of this story's cards.*character_ids/],
      [{ teller: "character", character_ids: [] }, /character_ids \(exactly one\)/],
      [
        { teller: "character", character_ids: ["0b5b2f8e-9a52-4c1e-9d1c-0d7c0e9b1a11"] },
        /there is no card 0b5b2f8e-9a52-4c1e-9d1c-0d7c0e9b1a11/,
      ],
      [{ teller: "character", character_ids: [otherCard.id] }, /belongs to another story/],
      [{ teller: "group" }, /at least 2 ids in character_ids/],
      [{ character_ids: ["not-an-id"] }, /character_ids must hold card ids/],
    ];
    for (const [payload, detail] of cases) {
      const res = await call(user, "PUT", url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toMatch(detail);
    }
    expect(await settingsOf(user, storyId)).toMatchObject({ teller: "narrator", character_ids: [] });
    // Another player's card is unknown here.
    const stranger = await createUser(t);
    const theirs = await call(stranger, "POST", "/api/stories", { title: "Theirs" });
    const res = await call(stranger, "PUT", `/api/stories/${theirs.json().story.id}/settings`, {
      teller: "character",
      character_ids: [otherCard.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/there is no card/);
  });

  it("keeps who tells the story and who spoke through a backup restored by another player", async () => {
    const user = await createUser(t);
    const storyId = await importCard(user);
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Hello",
      chat_mode: "chat",
    });
    expect(turn.statusCode).toBe(200);
    const backup = (await call(user, "GET", `/api/stories/${storyId}/backup`)).rawPayload;

    const other = await createUser(t);
    const restored = await restoreBackup(t, other, backup);
    const mira = (await cardsOf(other, restored.story.id)).find((card) => card.name === "Mira Voss")!;
    expect(await settingsOf(other, restored.story.id)).toMatchObject({
      teller: "character",
      character_ids: [mira.id],
    });
    const spoken = (await messagesOf(other, restored.story.id)).filter((m) => m.role === "assistant");
    expect(spoken.length).toBe(2);
    for (const message of spoken) expect(message.speaker).toEqual({ card_id: mira.id, name: "Mira Voss" });
    expect(restored.notes.filter((note) => note.name.startsWith("Who tells"))).toEqual([]);

    // The next turn of the restored story is Mira's again.
    const next = await call(other, "POST", `/api/stories/${restored.story.id}/chat`, {
      prompt: "And you?",
      chat_mode: "chat",
    });
    expect(next.json().speaker).toEqual({ card_id: mira.id, name: "Mira Voss" });
  });
});
