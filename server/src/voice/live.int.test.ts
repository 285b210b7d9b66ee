// Live reading (issue #31): "Read new turns aloud" speaks each sentence while the turn is written, through
// POST /api/stories/{id}/speech/live: at once, in the story's voices, free, offline only, never for another
// player's story, a few at a time per player and per process, and never ahead of everyone's narration for good
// (decision 0125).
import {
  LIVE_SPEECH_BUSY_DETAIL,
  LIVE_SPEECH_MAX_CHARACTERS,
  LIVE_SPEECH_OFFLINE_ONLY_DETAIL,
  SPEECH_OFF_DETAIL,
} from "@storyverse/contract/voice";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { LIVE_SPEECH_PER_PROCESS, LIVE_SPEECH_SERVER_BUSY_DETAIL } from "./live";

const call = (
  t: TestApp,
  user: TestUser | null,
  method: "GET" | "POST" | "PUT" | "PATCH",
  url: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: user ? bearer(user.token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const live = (t: TestApp, user: TestUser | null, storyId: string, text: unknown) =>
  call(t, user, "POST", `/api/stories/${storyId}/speech/live`, { text });

const newStory = async (t: TestApp, user: TestUser) =>
  (await call(t, user, "POST", "/api/stories", { title: "Salt Gate" })).json().story.id as string;

/** Seconds of audio in a WAV answer. */
function secondsOf(body: Buffer): number {
  expect(body.toString("ascii", 0, 4)).toBe("RIFF");
  const rate = body.readUInt32LE(24);
  return body.subarray(44).length / 2 / rate;
}

const LINE = '"Who goes there?" Brannoc asks.';

describe("live reading with the offline voice", () => {
  let t: TestApp;
  let voices: string[];
  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true });
    voices = (await call(t, await createUser(t), "GET", "/api/voices"))
      .json()
      .voices.map((v: { id: string }) => v.id);
  });
  afterAll(() => t.cleanup());

  it("answers the sentence as a WAV at once, longer for a longer sentence, and charges nothing", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const before = (await call(t, user, "GET", "/api/credit-balance")).json().remaining;
    const short = await live(t, user, storyId, "The gate creaks.");
    expect(short.statusCode).toBe(200);
    expect(short.headers["content-type"]).toBe("audio/wav");
    expect(short.headers["cache-control"]).toBe("no-store");
    const long = await live(
      t,
      user,
      storyId,
      "The gate creaks open, and beyond it the salt flats shine white under a moon as thin as a knife.",
    );
    expect(long.statusCode).toBe(200);
    expect(secondsOf(short.rawPayload)).toBeGreaterThan(0.5);
    expect(secondsOf(long.rawPayload)).toBeGreaterThan(2 * secondsOf(short.rawPayload));
    expect((await call(t, user, "GET", "/api/credit-balance")).json().remaining).toBe(before);
  }, 60_000);

  it("speaks in the story's narrator voice, and a quote in the voice of the card that says it", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const plain = (await live(t, user, storyId, LINE)).rawPayload;
    // The narrator's voice changes how the sentence sounds.
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: voices[2] });
    const otherNarrator = (await live(t, user, storyId, LINE)).rawPayload;
    expect(otherNarrator.equals(plain)).toBe(false);
    // A card named in the sentence gives its quote the card's voice: the audio changes again.
    const card = await call(t, user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Brannoc",
      triggers: ["Brannoc"],
      voice: voices[1],
    });
    expect(card.statusCode).toBe(200);
    const voiced = (await live(t, user, storyId, LINE)).rawPayload;
    expect(voiced.equals(otherNarrator)).toBe(false);
    // The narration outside the quote stays the narrator's: the same sentence without a quote is unchanged.
    const narration = "Brannoc lifts his lantern.";
    const withCard = (await live(t, user, storyId, narration)).rawPayload;
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: voices[2] });
    expect((await live(t, user, storyId, narration)).rawPayload.equals(withCard)).toBe(true);
  }, 60_000);

  it("reads a turn told by a character in that character's voice (decision 0154)", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: voices[0] });
    const sentence = "I lift my lantern and look out over the water.";
    const byNarrator = (await live(t, user, storyId, sentence)).rawPayload;
    const mira = (
      await call(t, user, "POST", `/api/stories/${storyId}/cards`, {
        name: "Mira",
        triggers: ["Mira"],
        voice: voices[2],
      })
    ).json().card.id as string;
    const told = await call(t, user, "PUT", `/api/stories/${storyId}/settings`, {
      teller: "character",
      character_ids: [mira],
    });
    expect(told.statusCode).toBe(200);
    const byMira = (await live(t, user, storyId, sentence)).rawPayload;
    expect(byMira.equals(byNarrator)).toBe(false);
    // It is Mira's voice: the narrator speaking in that voice sounds the same (a voice without eSpeak's random
    // breath, so the same words sound the same each time).
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, {
      teller: "narrator",
      narrator_voice: voices[2],
    });
    expect((await live(t, user, storyId, sentence)).rawPayload.equals(byMira)).toBe(true);
  }, 60_000);

  it("reads a group scene's turn in its speaker's voice, named by speaker_id (decision 0164)", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: voices[0] });
    const card = async (name: string, voice: string | undefined) =>
      (await call(t, user, "POST", `/api/stories/${storyId}/cards`, { name, triggers: [name], voice })).json()
        .card.id as string;
    const mira = await card("Mira", voices[2]);
    const tobin = await card("Tobin", voices[1]);
    const told = await call(t, user, "PUT", `/api/stories/${storyId}/settings`, {
      teller: "group",
      character_ids: [mira, tobin],
    });
    expect(told.statusCode).toBe(200);
    const sentence = "I lift my lantern and look out over the water.";
    const say = (speaker_id?: string) =>
      call(t, user, "POST", `/api/stories/${storyId}/speech/live`, { text: sentence, speaker_id });
    const byNarrator = (await say()).rawPayload;
    const byMira = (await say(mira)).rawPayload;
    const byTobin = (await say(tobin)).rawPayload;
    expect(byMira.equals(byNarrator)).toBe(false);
    expect(byMira.equals(byTobin)).toBe(false);
    // It is Mira's voice: the narrator speaking in that voice sounds the same.
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: voices[2] });
    expect((await say()).rawPayload.equals(byMira)).toBe(true);
    const stranger = await say("0b5b2f8e-9a52-4c1e-9d1c-0d7c0e9b1a11");
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().detail).toMatch(/speaker_id: .* is not one of this story's cards/);
  }, 60_000);

  it("refuses bad input with a clear detail, and another player's story as not found", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const empty = await live(t, user, storyId, "   ");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toMatch(/give the sentence/);
    const tooLong = await live(t, user, storyId, "a".repeat(LIVE_SPEECH_MAX_CHARACTERS + 1));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().detail).toMatch(/at most 1000 characters/);
    expect((await live(t, user, storyId, 42)).statusCode).toBe(400);
    expect((await live(t, null, storyId, "Hello.")).statusCode).toBe(401);
    const stranger = await createUser(t);
    const theirs = await live(t, stranger, storyId, "Hello.");
    expect(theirs.statusCode).toBe(404);
    const malformed = await live(t, user, "not-a-uuid", "Hello.");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().detail).toMatch(/Story not found/);
    expect((await live(t, user, "00000000-0000-4000-8000-000000000000", "Hello.")).statusCode).toBe(404);
  }, 60_000);

  it("speaks at most two sentences at once per player: more are told to try again", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const sentence = "The wind howls across the salt flats and the lantern gutters. ".repeat(14).trim();
    const answers = await Promise.all(Array.from({ length: 5 }, () => live(t, user, storyId, sentence)));
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(answers.filter((answer) => answer.statusCode === 200).length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.json().detail).toBe(LIVE_SPEECH_BUSY_DETAIL);
    // Once they are done, the player is free again.
    expect((await live(t, user, storyId, "Quiet.")).statusCode).toBe(200);
  }, 120_000);

  it("speaks at most LIVE_SPEECH_PER_PROCESS sentences at once for all players: more get a 503 to retry", async () => {
    // Five players, each within their own cap of two: ten sentences at once, over the process's eight.
    const players = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const user = await createUser(t);
        return { user, storyId: await newStory(t, user) };
      }),
    );
    const sentence = "The wind howls across the salt flats and the lantern gutters. ".repeat(14).trim();
    const answers = await Promise.all(
      players.flatMap(({ user, storyId }) => [1, 2].map(() => live(t, user, storyId, sentence))),
    );
    const served = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(served.length).toBeGreaterThanOrEqual(LIVE_SPEECH_PER_PROCESS);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer.statusCode).toBe(503);
      expect(answer.json().detail).toBe(LIVE_SPEECH_SERVER_BUSY_DETAIL);
      expect(answer.headers["retry-after"]).toBe("2");
    }
    // Nothing is held once they are done: every player is served again.
    for (const { user, storyId } of players)
      expect((await live(t, user, storyId, "Quiet.")).statusCode).toBe(200);
  }, 180_000);

  it("does not starve another player's narration: it is made while three players keep reading live", async () => {
    const reader = await createUser(t);
    const storyId = await newStory(t, reader);
    const turn = await call(t, reader, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I knock",
      chat_mode: "chat",
    });
    expect(turn.statusCode).toBe(200);
    const messageId = turn.json().message_id as string;
    const speech = `/api/stories/${storyId}/messages/${messageId}/speech`;
    expect(
      (
        await call(t, reader, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, {
          content: "The tide turns under the gate.",
        })
      ).statusCode,
    ).toBe(200);

    // Three players, two sentences in flight each, each sending the next as soon as one is answered (a
    // long turn read aloud): live sentences are always waiting in the one worker's queue.
    const flooders = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const user = await createUser(t);
        return { user, storyId: await newStory(t, user) };
      }),
    );
    const SENTENCES_PER_CHAIN = 12;
    const chains = flooders.length * 2;
    let answered = 0;
    let narrationDone = false;
    const flood = flooders.flatMap(({ user, storyId: theirs }) =>
      [1, 2].map(async () => {
        for (let index = 0; index < SENTENCES_PER_CHAIN && !narrationDone; index++) {
          const answer = await live(t, user, theirs, "Run, the tide is coming.");
          expect(answer.statusCode).toBe(200);
          answered += 1;
        }
      }),
    );
    while (answered < chains) await new Promise((resolve) => setTimeout(resolve, 20));
    const answeredBefore = answered;
    const started = await call(t, reader, "POST", speech);
    expect(started.statusCode).toBe(202);
    let status = started.json().status as string;
    while (status === "pending") {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await call(t, reader, "GET", speech)).json().status;
    }
    const answeredWhenDone = answered;
    narrationDone = true;
    await Promise.all(flood);
    expect(status).toBe("completed");
    // Made while the flood went on, well before the flooders' sentences ran out; with live sentences always
    // first (the worker before decision 0125), it waited for all of them.
    expect(answeredBefore).toBeGreaterThanOrEqual(chains);
    expect(answeredWhenDone).toBeLessThan((chains * SENTENCES_PER_CHAIN) / 2);
  }, 240_000);
});

describe("live reading elsewhere", () => {
  it("is off with narration off (TTS_PROVIDER=none)", async () => {
    const t = await createTestApp({ env: { TTS_PROVIDER: "none" } });
    try {
      const user = await createUser(t);
      const answer = await live(t, user, await newStory(t, user), "Hello there.");
      expect(answer.statusCode).toBe(503);
      expect(answer.json().detail).toBe(SPEECH_OFF_DETAIL);
    } finally {
      await t.cleanup();
    }
  }, 60_000);

  describe("with a vendor's voice", () => {
    let fake: OpenAIFake;
    let t: TestApp;
    beforeAll(async () => {
      fake = await startOpenAIFake();
      t = await createTestApp({
        env: { TTS_PROVIDER: "openai", TTS_API_KEY: fake.apiKey, TTS_BASE_URL: fake.baseUrl },
      });
    });
    afterAll(async () => {
      await t.cleanup();
      await fake.close();
    });

    it("is refused (the finished message is narrated instead): the vendor is not called and nothing is charged", async () => {
      const user = await createUser(t);
      const storyId = await newStory(t, user);
      const before = (await call(t, user, "GET", "/api/credit-balance")).json().remaining;
      fake.reset();
      const answer = await live(t, user, storyId, "Hello there.");
      expect(answer.statusCode).toBe(409);
      expect(answer.json().detail).toBe(LIVE_SPEECH_OFFLINE_ONLY_DETAIL);
      expect(fake.requests.some((request) => request.path === "/v1/audio/speech")).toBe(false);
      expect((await call(t, user, "GET", "/api/credit-balance")).json().remaining).toBe(before);
    }, 60_000);
  });
});
