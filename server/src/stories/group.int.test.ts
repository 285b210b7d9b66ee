// Group scenes (issue 43 item 2, decision 0164) on a real database with the offline providers: the settings
// take 2 to 8 present characters, an order of speakers and muted characters (refusals change nothing); twenty
// turns in each order give the right speakers; a muted character never speaks; the prompt is the speaker in the
// first person with the others present and the transcript labelled by speaker; the offline answers alternate
// speakers and address each other; the scene's references are the present portraits, the speaker's first; a
// stopped group turn is charged as any stopped turn, and a vendor failure refunds it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, desc, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { multipart } from "../../test/multipart";
import { grant, toTenths } from "../credits/service";
import { chatMessages, stories as dbStories } from "../db/schema";
import { ProviderError, type TextRequest } from "../providers/types";
import { storyCardsOfATurn } from "../story-cards/turn-cards";
import { chooseSpeaker } from "./group";
import * as stories from "./service";
import { writeStorySummary } from "./summary";

type TurnRequest = Extract<TextRequest, { purpose: "turn" | "continue" }>;

let t: TestApp;
const sent: TextRequest[] = [];
/** While set, the narrator's turn requests wait for it (a turn held in flight); how many are waiting. */
let hold: Promise<void> | null = null;
let held = 0;
const waitIfHeld = async (request: TextRequest) => {
  if (!hold || request.purpose !== "turn") return;
  held += 1;
  await hold;
  held -= 1;
};

beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
  const text = t.ctx.providers.text;
  const complete = text.complete.bind(text);
  const stream = text.stream.bind(text);
  text.complete = async (request) => {
    sent.push(request);
    await waitIfHeld(request);
    return complete(request);
  };
  text.stream = (request) => {
    sent.push(request);
    return (async function* () {
      await waitIfHeld(request);
      yield* stream(request);
    })();
  };
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

type Card = { id: string; name: string; portrait: { url: string } | null };

/** A story with three characters (Ada, Brannoc, Cel), each with a portrait; a rich player. */
async function groupStory(talk: [number, number, number] = [0.5, 0.5, 0.5]) {
  const user = await createUser(t);
  await grant(
    t.ctx.db,
    user.userId,
    toTenths(1000),
    "admin_grant",
    `test:${user.userId}`,
    new Date(),
    "test",
  );
  const story = await call(user, "POST", "/api/stories", { title: "The Inn", context: "A crowded inn." });
  const storyId = story.json().story.id as string;
  const cards: Card[] = [];
  const people: [string, string][] = [
    ["Ada Quill", "A sharp-tongued scribe who keeps the inn's ledgers."],
    ["Brannoc", "A retired soldier with a booming laugh."],
    ["Cel", "A quiet healer who hums old songs."],
  ];
  for (const [index, [name, about]] of people.entries()) {
    const res = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name,
      kind: "character",
      triggers: [name.split(" ")[0]!.toLowerCase()],
      description: about,
      talkativeness: talk[index],
      portrait: { data: PNG, name: `${index}.png` },
    });
    expect(res.statusCode, res.body).toBe(200);
    cards.push(res.json().card as Card);
  }
  return { user, storyId, cards };
}

const settings = (user: TestUser, storyId: string, payload: object) =>
  call(user, "PUT", `/api/stories/${storyId}/settings`, payload);

/** The story becomes a group scene of these characters, speaking in this order. */
/** The context the story routes give a turn: the app's, with the cards' part of it (app.ts composes the same). */
const play = () => ({ ...t.ctx, turnCards: storyCardsOfATurn });

const playAsGroup = (user: TestUser, storyId: string, characterIds: string[], order: string) =>
  settings(user, storyId, { teller: "group", character_ids: characterIds, speaker_order: order });

const turn = (user: TestUser, storyId: string, prompt: string, speakerId?: string) =>
  stories.chat(play(), user.userId, storyId, {
    prompt,
    mode: "chat",
    inputImages: [],
    ...(speakerId ? { speakerId } : {}),
  });

describe("group scenes", () => {
  it("takes a group in the settings and answers it; refuses bad groups with a detail, changing nothing", async () => {
    const { user, storyId, cards } = await groupStory();
    const other = await groupStory();
    const [ada, brannoc, cel] = cards.map((card) => card.id) as [string, string, string];
    // A card of another of this player's stories.
    const second = await call(user, "POST", "/api/stories", { title: "Elsewhere" });
    const elsewhere = await call(user, "POST", `/api/stories/${second.json().story.id}/cards`, {
      name: "Dun",
      kind: "character",
      triggers: ["dun"],
    });
    const elsewhereId = elsewhere.json().card.id as string;
    const before = (await call(user, "GET", `/api/stories/${storyId}/settings`)).json();
    const cases: [object, RegExp][] = [
      [{ teller: "group" }, /at least 2 ids in character_ids/],
      [{ teller: "group", character_ids: [ada] }, /at least 2 ids in character_ids/],
      [
        { teller: "group", character_ids: [ada, "0b5b2f8e-9a52-4c1e-9d1c-0d7c0e9b1a11"] },
        /there is no card 0b5b2f8e/,
      ],
      [{ teller: "group", character_ids: [ada, elsewhereId] }, /belongs to another story/],
      [{ teller: "group", character_ids: [ada, other.cards[0]!.id] }, /there is no card/],
      [
        { teller: "group", character_ids: [ada, brannoc], muted_ids: [cel] },
        /not one of the group's characters/,
      ],
      [
        { teller: "group", character_ids: [ada, brannoc], muted_ids: [ada, brannoc] },
        /at least one character/,
      ],
      [{ teller: "group", character_ids: [ada, ada] }, /each character of the group once/],
      [{ teller: "group", character_ids: [ada, brannoc], speaker_order: "loudest" }, /speaker_order must be/],
      [{ teller: "character", character_ids: [ada, brannoc] }, /exactly one card/],
    ];
    for (const [payload, detail] of cases) {
      const res = await settings(user, storyId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toMatch(detail);
    }
    expect((await call(user, "GET", `/api/stories/${storyId}/settings`)).json()).toEqual(before);

    const res = await settings(user, storyId, {
      teller: "group",
      character_ids: [cel, ada, brannoc],
      speaker_order: "round_robin",
      muted_ids: [brannoc],
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      teller: "group",
      character_ids: [cel, ada, brannoc],
      speaker_order: "round_robin",
      muted_ids: [brannoc],
    };
    expect(res.json()).toMatchObject(expected);
    expect((await call(user, "GET", `/api/stories/${storyId}/settings`)).json()).toMatchObject(expected);
    // A speaker_id outside a group, or of a muted or absent character, is refused before any charge.
    const { balance } = moneyOf(t);
    const paid = await balance(user);
    for (const [speaker_id, detail] of [
      [brannoc, /muted/],
      [other.cards[0]!.id, /not one of the characters present/],
    ] as const) {
      const refused = await call(user, "POST", `/api/stories/${storyId}/chat`, {
        prompt: "Hello",
        chat_mode: "chat",
        speaker_id,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toMatch(detail);
    }
    const plain = await call(other.user, "POST", `/api/stories/${other.storyId}/chat`, {
      prompt: "Hello",
      chat_mode: "chat",
      speaker_id: other.cards[0]!.id,
    });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().detail).toMatch(/only a group scene/);
    expect(await balance(user)).toBe(paid);
  });

  it("keeps a card's talkativeness (0 to 1, 0.5 when not given) and refuses one out of range", async () => {
    const { user, storyId, cards } = await groupStory([0.5, 0.2, 0]);
    const url = `/api/stories/${storyId}/cards`;
    const listed = (await call(user, "GET", url)).json().cards as { name: string; talkativeness: number }[];
    expect(listed.map((card) => [card.name, card.talkativeness])).toEqual([
      ["Ada Quill", 0.5],
      ["Brannoc", 0.2],
      ["Cel", 0],
    ]);
    const plain = await call(user, "POST", url, { name: "Dov", kind: "character", triggers: ["dov"] });
    expect(plain.json().card.talkativeness).toBe(0.5);
    const changed = await call(user, "PUT", `${url}/${cards[2]!.id}`, { talkativeness: 0.9 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().card.talkativeness).toBe(0.9);
    const refused = await call(user, "PUT", `${url}/${cards[2]!.id}`, { talkativeness: 1.5 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatch(/talkativeness must be a number from 0 to 1/);
    const after = (await call(user, "GET", url)).json().cards as { id: string; talkativeness: number }[];
    expect(after.find((card) => card.id === cards[2]!.id)!.talkativeness).toBe(0.9);
  });

  it("reads a SillyTavern card's talkativeness on import", async () => {
    const user = await createUser(t);
    const fixture = path.resolve(import.meta.dirname, "../../test/fixtures/interop/v2-every-field.json");
    const card = JSON.parse(await readFile(fixture, "utf8"));
    card.data.extensions.talkativeness = "0.8";
    const body = multipart(Buffer.from(JSON.stringify(card)), "mira.json");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/stories/import",
      payload: body.payload,
      headers: { ...body.headers, ...bearer(user.token) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const cards = (await call(user, "GET", `/api/stories/${res.json().story.id}/cards`)).json().cards as {
      name: string;
      talkativeness: number;
    }[];
    expect(cards.find((row) => row.name === "Mira Voss")!.talkativeness).toBe(0.8);
  });

  it("round robin cycles through the unmuted characters for twenty turns; muted never speaks", async () => {
    const { user, storyId, cards } = await groupStory();
    const [ada, brannoc, cel] = cards as [Card, Card, Card];
    await playAsGroup(user, storyId, [ada.id, brannoc.id, cel.id], "round_robin");
    const speakers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await turn(user, storyId, `I raise my cup, round ${i}.`);
      speakers.push(answer.speaker!.name);
    }
    expect(speakers).toEqual(Array.from({ length: 20 }, (_, i) => [ada, brannoc, cel][i % 3]!.name));
    // Mute Brannoc: only Ada and Cel speak, in turn.
    await settings(user, storyId, { muted_ids: [brannoc.id] });
    const after: string[] = [];
    for (let i = 0; i < 6; i++) after.push((await turn(user, storyId, `Another round ${i}.`)).speaker!.name);
    expect(after).not.toContain("Brannoc");
    expect(new Set(after)).toEqual(new Set(["Ada Quill", "Cel"]));
    for (let i = 1; i < after.length; i++) expect(after[i]).not.toBe(after[i - 1]);
    // The message list carries each answer's speaker.
    const listed = (await call(user, "GET", `/api/stories/${storyId}/messages?limit=4`)).json().messages as {
      role: string;
      speaker: { name: string } | null;
    }[];
    expect(listed.filter((m) => m.role === "assistant").map((m) => m.speaker?.name)).toEqual(after.slice(-2));
  });

  it("natural order: a named character answers, else by talkativeness, never a muted one, for twenty turns", async () => {
    // Cel never volunteers (talkativeness 0); Ada and Brannoc do.
    const { user, storyId, cards } = await groupStory([0.5, 0.5, 0]);
    const [ada, brannoc, cel] = cards as [Card, Card, Card];
    await settings(user, storyId, {
      teller: "group",
      character_ids: [ada.id, brannoc.id, cel.id],
      muted_ids: [brannoc.id],
    });
    const named = [
      "Cel, what is that song?",
      "What do you think, ada?",
      "I wave at CEL.",
      "Ada Quill, the ledger!",
    ];
    const speakers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const line = i % 2 === 0 ? named[(i / 2) % named.length]! : `I look around the room (${i}).`;
      const answer = await turn(user, storyId, line);
      speakers.push(answer.speaker!.name);
      if (i % 2 === 0) expect(answer.speaker!.name, line).toBe(/cel/i.test(line) ? "Cel" : "Ada Quill");
      // Nobody named: Cel (talkativeness 0) and muted Brannoc stay quiet unless nobody else may speak.
      else expect(answer.speaker!.name, line).toBe("Ada Quill");
    }
    expect(speakers).not.toContain("Brannoc");
    // Naming the muted Brannoc does not make him speak.
    expect((await turn(user, storyId, "Brannoc, sing!")).speaker!.name).not.toBe("Brannoc");
    // The draw is deterministic and weighed by talkativeness; the last speaker is passed over when possible.
    const present = [
      { id: "a", name: "Ada", triggers: [], talkativeness: 0.9 },
      { id: "b", name: "Bo", triggers: [], talkativeness: 0.1 },
      { id: "c", name: "Cy", triggers: [], talkativeness: 0.9 },
    ];
    const picks = Array.from(
      { length: 200 },
      (_, i) =>
        chooseSpeaker({
          present,
          mutedIds: [],
          order: "natural",
          words: null,
          lastSpeakerId: "a",
          seed: `s${i}`,
        }).speaker.id,
    );
    expect(picks).not.toContain("a");
    expect(picks.filter((id) => id === "c").length).toBeGreaterThan(
      picks.filter((id) => id === "b").length * 4,
    );
    expect(
      chooseSpeaker({ present, mutedIds: [], order: "natural", words: null, lastSpeakerId: "a", seed: "s1" }),
    ).toEqual(
      chooseSpeaker({ present, mutedIds: [], order: "natural", words: null, lastSpeakerId: "a", seed: "s1" }),
    );
  });

  it("continue waits for a turn still being written: 409 turn_in_progress, nothing charged", async () => {
    const { user, storyId, cards } = await groupStory();
    await playAsGroup(
      user,
      storyId,
      cards.map((card) => card.id),
      "round_robin",
    );
    const { balance } = moneyOf(t);
    let release = () => {};
    hold = new Promise((resolve) => {
      release = resolve;
    });
    const writing = call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Good evening, all.",
      chat_mode: "chat",
    });
    try {
      await expect.poll(() => held).toBe(1);
      const paid = await balance(user);
      const refused = await call(user, "POST", `/api/stories/${storyId}/continue`, {});
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: "turn_in_progress" });
      expect(await balance(user)).toBe(paid);
    } finally {
      hold = null;
      release();
    }
    expect((await writing).statusCode).toBe(200);
    const next = await call(user, "POST", `/api/stories/${storyId}/continue`, {});
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().speaker).not.toBeNull();
  }, 60_000);

  it("manual order refuses a turn without speaker_id and plays the one named, for twenty turns", async () => {
    const { user, storyId, cards } = await groupStory();
    await playAsGroup(
      user,
      storyId,
      cards.map((card) => card.id),
      "manual",
    );
    const { balance } = moneyOf(t);
    const paid = await balance(user);
    const refused = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Hi",
      chat_mode: "chat",
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatch(/speaker_id: .*chosen by the player/);
    const refusedContinue = await call(user, "POST", `/api/stories/${storyId}/continue`, {});
    expect(refusedContinue.statusCode).toBe(400);
    expect(await balance(user)).toBe(paid);
    for (let i = 0; i < 20; i++) {
      const card = cards[(i * 7) % 3]!;
      const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
        prompt: `A word for you (${i}).`,
        chat_mode: "chat",
        speaker_id: card.id,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().speaker).toEqual({ card_id: card.id, name: card.name });
    }
  }, 60_000);

  it("all order: the first answers and names the rest; continue with each speaker_id lets them speak", async () => {
    const { user, storyId, cards } = await groupStory();
    const [ada, brannoc, cel] = cards as [Card, Card, Card];
    await settings(user, storyId, {
      teller: "group",
      character_ids: [ada.id, brannoc.id, cel.id],
      speaker_order: "all",
      muted_ids: [cel.id],
    });
    const { balance } = moneyOf(t);
    let spoken = 0;
    for (let round = 0; spoken < 20; round++) {
      const before = await balance(user);
      const first = await turn(user, storyId, `Everyone, a toast (${round})!`);
      expect(first.speaker).toEqual({ card_id: ada.id, name: ada.name });
      expect(first.next_speakers).toEqual([{ card_id: brannoc.id, name: brannoc.name }]);
      spoken += 1;
      for (const next of first.next_speakers ?? []) {
        const res = await call(user, "POST", `/api/stories/${storyId}/continue`, {
          speaker_id: next.card_id,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().speaker).toEqual(next);
        // A new message of its own, not the last one carried on.
        expect(res.json().message_id).not.toBe(first.message_id);
        spoken += 1;
      }
      // Each speaking turn is its own paid unit.
      const costs = before - (await balance(user));
      expect(costs).toBeGreaterThan(0);
    }
    // Continue without speaker_id: the next unmuted character after the last speaker speaks.
    const next = await call(user, "POST", `/api/stories/${storyId}/continue`, {});
    expect(next.json().speaker.name).toBe("Ada Quill");
  }, 60_000);

  it("sends the speaker in the first person with the others present and a labelled transcript; offline alternates", async () => {
    const { user, storyId, cards } = await groupStory();
    const [ada, brannoc, cel] = cards as [Card, Card, Card];
    await playAsGroup(user, storyId, [ada.id, brannoc.id, cel.id], "round_robin");
    const first = await turn(user, storyId, "Good evening, all.");
    sent.length = 0;
    const second = await turn(user, storyId, "What news?");
    expect(first.speaker!.name).toBe("Ada Quill");
    expect(second.speaker!.name).toBe("Brannoc");
    const request = sent.find((r) => r.purpose === "turn") as TurnRequest;
    const system = request.messages[0]!.content;
    expect(system).toMatch(/You are Brannoc, .* in the first person/);
    expect(system).toMatch(
      /Also present in this scene[^\n]*:\n- Ada Quill: A sharp-tongued scribe[^\n]*\n- Cel: A quiet healer/,
    );
    expect(system).not.toMatch(/- Brannoc:/);
    const transcript = request.messages.filter((m) => m.role !== "system").map((m) => m.content);
    expect(transcript).toContain(`Ada Quill: ${first.story_text}`);
    expect(transcript.some((line) => line.endsWith(": Good evening, all."))).toBe(true);
    expect(request.character).toMatchObject({ name: "Brannoc", others: ["Ada Quill", "Cel"] });
    // Offline, Brannoc speaks in the first person and turns to another present character by name.
    expect(second.story_text).toMatch(/^\*Brannoc [^*]+\.\* "/);
    expect(second.story_text).toMatch(/\bI\b/);
    expect(second.story_text).toMatch(/\*Brannoc (?:turns to|glances at|nods towards) (?:Ada Quill|Cel)\.\*/);
    // Continue: Cel speaks next and answers Brannoc by name.
    const third = await stories.continueStory(play(), user.userId, storyId);
    expect(third.speaker!.name).toBe("Cel");
    expect(third.story_text).toMatch(/Brannoc/);
  });

  it("shows in what the narrator sees the prompt of the character who would speak next", async () => {
    const { user, storyId, cards } = await groupStory();
    await settings(user, storyId, {
      teller: "group",
      character_ids: cards.map((card) => card.id),
    });
    const url = (prompt: string) => `/api/stories/${storyId}/context?prompt=${encodeURIComponent(prompt)}`;
    const named = (await call(user, "GET", url("Brannoc, a song!"))).json();
    expect(named.messages[0].content).toMatch(/You are Brannoc, /);
    expect(named.messages[0].content).toMatch(/Also present in this scene/);
    await settings(user, storyId, { speaker_order: "manual" });
    const manual = await call(user, "GET", url("Hello"));
    expect(manual.statusCode).toBe(200);
  });

  it("a branch plays the group with its own copies of the cards", async () => {
    const { user, storyId, cards } = await groupStory();
    await settings(user, storyId, {
      teller: "group",
      character_ids: cards.map((card) => card.id),
      speaker_order: "round_robin",
      muted_ids: [cards[2]!.id],
    });
    await turn(user, storyId, "Evening.");
    await turn(user, storyId, "More ale!");
    const shown = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages as {
      id: string;
    }[];
    const created = await call(user, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: shown[1]!.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    // The story now shows the branch: its settings name the branch's cards, the same characters in order.
    const branchCards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as Card[];
    const idOf = (name: string) => branchCards.find((card) => card.name === name)!.id;
    expect(idOf("Ada Quill")).not.toBe(cards[0]!.id);
    const shownSettings = (await call(user, "GET", `/api/stories/${storyId}/settings`)).json();
    expect(shownSettings).toMatchObject({
      teller: "group",
      character_ids: [idOf("Ada Quill"), idOf("Brannoc"), idOf("Cel")],
      muted_ids: [idOf("Cel")],
    });
    // A retry of the answer from before the fork: the same character, the branch's copy of them, speaks again.
    const retried = await call(user, "POST", `/api/stories/${storyId}/messages/${shown[1]!.id}/retry`, {
      chat_mode: "chat",
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().speaker).toEqual({ card_id: idOf("Ada Quill"), name: "Ada Quill" });
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Again.",
      chat_mode: "chat",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().speaker).toEqual({ card_id: idOf("Brannoc"), name: "Brannoc" });
  });

  it("a retry of a group message is the same character speaking again", async () => {
    const { user, storyId, cards } = await groupStory();
    await playAsGroup(
      user,
      storyId,
      cards.map((card) => card.id),
      "round_robin",
    );
    await turn(user, storyId, "Evening.");
    const second = await turn(user, storyId, "More ale!");
    expect(second.speaker!.name).toBe("Brannoc");
    const retried = await call(user, "POST", `/api/stories/${storyId}/messages/${second.message_id}/retry`, {
      chat_mode: "chat",
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().speaker).toEqual({ card_id: cards[1]!.id, name: "Brannoc" });
  });

  it("streams who speaks before the first word", async () => {
    const { user, storyId, cards } = await groupStory();
    await playAsGroup(
      user,
      storyId,
      cards.map((card) => card.id),
      "round_robin",
    );
    const res = await t.app.inject({
      method: "POST",
      url: `/api/stories/${storyId}/chat`,
      headers: { ...bearer(user.token), accept: "text/event-stream" },
      payload: { prompt: "Evening.", chat_mode: "chat" },
    });
    const events = [...res.body.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map(([, event, data]) => ({
      event,
      data: JSON.parse(data!),
    }));
    expect(events[0]).toEqual({ event: "speaker", data: { card_id: cards[0]!.id, name: "Ada Quill" } });
    expect(events[1]?.event).toBe("delta");
    expect(events.at(-1)).toMatchObject({ event: "done", data: { speaker: { name: "Ada Quill" } } });
  });

  it("paints the scene from the present characters' portraits, the speaker's first", async () => {
    const { user, storyId, cards } = await groupStory();
    const [ada, brannoc, cel] = cards as [Card, Card, Card];
    await playAsGroup(user, storyId, [ada.id, brannoc.id, cel.id], "manual");
    const answer = await stories.chat(play(), user.userId, storyId, {
      prompt: "Cel, look at this.",
      mode: "image",
      inputImages: [],
      speakerId: cel.id,
    });
    const { rows } = await t.database.executeSql("select reference_keys from chat_messages where id = $1", [
      answer.message_id,
    ]);
    const keys = (rows[0] as { reference_keys: string[] }).reference_keys;
    const portraits = (
      await t.database.executeSql("select id, portrait_key from story_cards where story_id = $1", [storyId])
    ).rows as { id: string; portrait_key: string }[];
    const keyOf = (id: string) => portraits.find((row) => row.id === id)!.portrait_key;
    expect(keys.slice(0, 3)).toEqual([keyOf(cel.id), keyOf(ada.id), keyOf(brannoc.id)]);
  });

  it("a stopped group turn is charged as a stopped turn is; a vendor failure refunds the group turn", async () => {
    const { refunds, balance } = moneyOf(t);
    const stoppedTurn = async (user: TestUser, storyId: string) => {
      const stop = new AbortController();
      return stories.chat(
        play(),
        user.userId,
        storyId,
        { prompt: "Tell me everything.", mode: "image", inputImages: [] },
        { onText: () => stop.abort(), stop: stop.signal },
      );
    };
    // The same stopped turn in a narrator story and in a group scene.
    const plain = await groupStory();
    const group = await groupStory();
    await settings(group.user, group.storyId, {
      teller: "group",
      character_ids: group.cards.map((card) => card.id),
    });
    const plainBefore = await balance(plain.user);
    const groupBefore = await balance(group.user);
    const plainAnswer = await stoppedTurn(plain.user, plain.storyId);
    const groupAnswer = await stoppedTurn(group.user, group.storyId);
    expect(groupAnswer).toMatchObject({ stopped: true, media_generation: { status: "none" } });
    expect(groupAnswer.speaker).not.toBeNull();
    expect(plainAnswer.stopped).toBe(true);
    expect(groupBefore - (await balance(group.user))).toBe(plainBefore - (await balance(plain.user)));
    expect((await refunds(group.user)).map((r) => r.amount_tenths)).toEqual(
      (await refunds(plain.user)).map((r) => r.amount_tenths),
    );

    // The text vendor fails: the group turn is refunded in full, once, and nothing is kept.
    const text = t.ctx.providers.text;
    const complete = text.complete;
    text.complete = async () => {
      throw new ProviderError("The text vendor is down.", true, "test");
    };
    const before = await balance(group.user);
    const refundsBefore = (await refunds(group.user)).length;
    try {
      const res = await call(group.user, "POST", `/api/stories/${group.storyId}/chat`, {
        prompt: "Anyone?",
        chat_mode: "image",
      });
      expect(res.statusCode).toBe(502);
    } finally {
      text.complete = complete;
    }
    expect(await balance(group.user)).toBe(before);
    expect((await refunds(group.user)).length).toBe(refundsBefore + 1);
    const listed = (await call(group.user, "GET", `/api/stories/${group.storyId}/messages`)).json().messages;
    expect(listed.some((m: { content: string }) => m.content.includes("Anyone?"))).toBe(false);
  });
});

describe("characters know what they saw (decision 0165)", () => {
  const MARIGOLD = "Listen, all of you: the password is marigold.";
  const ANVIL = "Keep this from Cel: the vault key is under the anvil.";
  /** All the words the newest turn sent the narrator. */
  const lastSent = () => {
    const request = sent.findLast((r) => r.purpose === "turn") as TurnRequest;
    return { text: request.messages.map((m) => m.content).join("\n"), request };
  };

  it("a character who was away is not sent what was said; the others are; the option off sends all", async () => {
    const { user, storyId, cards } = await groupStory();
    const [ada, brannoc, cel] = cards.map((card) => card.id) as [string, string, string];
    const defaults = (await call(user, "GET", `/api/stories/${storyId}/settings`)).json();
    expect(defaults.knows_what_they_saw).toBe(false);
    const all = { teller: "group", character_ids: [ada, brannoc, cel], speaker_order: "manual" };
    const put = await settings(user, storyId, { ...all, knows_what_they_saw: true });
    expect(put.json().knows_what_they_saw).toBe(true);
    const refused = await settings(user, storyId, { knows_what_they_saw: "yes" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatch(/knows_what_they_saw must be true or false/);

    await turn(user, storyId, MARIGOLD, ada);
    // Cel leaves the scene; Brannoc tells Ada a secret.
    await settings(user, storyId, { character_ids: [ada, brannoc] });
    const secret = await turn(user, storyId, ANVIL, brannoc);
    await settings(user, storyId, { character_ids: [ada, brannoc, cel] });

    await turn(user, storyId, "Cel, what have you heard tonight?", cel);
    const toCel = lastSent().text;
    expect(toCel).toContain("marigold");
    expect(toCel).not.toContain("anvil");
    expect(toCel).not.toContain(secret.story_text);
    await turn(user, storyId, "Ada, what have you heard tonight?", ada);
    expect(lastSent().text).toContain("anvil");
    expect(lastSent().text).toContain(secret.story_text);

    await settings(user, storyId, { knows_what_they_saw: false });
    await turn(user, storyId, "Cel, and now?", cel);
    expect(lastSent().text).toContain("anvil");
  });

  it("keeps the summary and recall of what a character missed from them", async () => {
    const { user, storyId, cards } = await groupStory();
    const [ada, brannoc, cel] = cards as [Card, Card, Card];
    await writeExchanges(t, user, storyId, 25, {
      3: "Brannoc lifts the anvil and slides the vault key beneath it while Ada keeps watch.",
      7: "The lamp gutters while everyone sings.",
    });
    // That exchange happened while Cel was away; the summary folds it.
    const away = [ada, brannoc].map((card) => ({ card_id: card.id, name: card.name }));
    await t.ctx.db
      .update(chatMessages)
      .set({ present: away })
      .where(and(eq(chatMessages.storyId, storyId), like(chatMessages.content, "%anvil%")));
    // Everyone saw the lamp gutter, but only Ada and Brannoc heard the player's line before it.
    await t.ctx.db
      .update(chatMessages)
      .set({ present: away, content: "Ada, a whisper: the password is marigold." })
      .where(and(eq(chatMessages.storyId, storyId), eq(chatMessages.content, "I walk on (7)")));
    await t.ctx.db
      .update(dbStories)
      .set({ summary: "Brannoc hid the vault key under the anvil.", summaryWitnesses: away })
      .where(eq(dbStories.id, storyId));
    await settings(user, storyId, {
      teller: "group",
      character_ids: [ada.id, brannoc.id, cel.id],
      speaker_order: "manual",
      knows_what_they_saw: true,
    });
    const question = "Where is the vault key, the one by the anvil? And why did the lamp gutter?";
    await turn(user, storyId, question, cel.id);
    const toCel = lastSent();
    expect(toCel.request.recalled.some((line) => line.narrator.includes("anvil"))).toBe(false);
    expect(toCel.request.recalled.some((line) => line.narrator.includes("lamp gutters"))).toBe(true);
    expect(toCel.text).not.toContain("marigold");
    expect(toCel.text).not.toContain("Brannoc hid the vault key");
    await turn(user, storyId, question, ada.id);
    const toAda = lastSent();
    expect(toAda.request.recalled.some((line) => line.narrator.includes("anvil"))).toBe(true);
    expect(toAda.text).toContain("marigold");
    expect(toAda.text).toContain("Brannoc hid the vault key");
  });

  it("records who was present on each message, and the summary job keeps who witnessed all it folds", async () => {
    const { user, storyId, cards } = await groupStory();
    const [ada, brannoc, cel] = cards as [Card, Card, Card];
    await writeExchanges(t, user, storyId, 25, {});
    // The oldest messages were written while only Ada and Brannoc were there: Cel never witnessed them.
    const oldest = await t.ctx.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(eq(chatMessages.storyId, storyId))
      .orderBy(asc(chatMessages.createdAt))
      .limit(4);
    await t.ctx.db
      .update(chatMessages)
      .set({ present: [ada, brannoc].map((card) => ({ card_id: card.id, name: card.name })) })
      .where(
        inArray(
          chatMessages.id,
          oldest.map((row) => row.id),
        ),
      );
    await writeStorySummary(t.ctx, { userId: user.userId, storyId });
    const [row] = await t.ctx.db.select().from(dbStories).where(eq(dbStories.id, storyId));
    expect(row!.summary).not.toBe("");
    expect(row!.summaryWitnesses!.map((one) => one.name).sort()).toEqual(["Ada Quill", "Brannoc"]);

    await playAsGroup(user, storyId, [cel.id, brannoc.id], "round_robin");
    await turn(user, storyId, "Evening.");
    const newest = await t.ctx.db
      .select({ role: chatMessages.role, present: chatMessages.present })
      .from(chatMessages)
      .where(eq(chatMessages.storyId, storyId))
      .orderBy(desc(chatMessages.createdAt))
      .limit(2);
    // The answer and the player's line both record the two present.
    expect(newest.map((m) => m.role)).toEqual(["assistant", "user"]);
    for (const message of newest) expect(message.present!.map((one) => one.name)).toEqual(["Cel", "Brannoc"]);
  });
});
