// The story speaks (issue #31): the voices on offer, a narrator voice per story and a voice per card, and the
// narration of a narrator message — offline (free, eSpeak NG) and through a vendor (paid per 1,000 characters,
// refunded on failure, one outcome under any race).
import {
  SPEECH_BUSY_DETAIL,
  SPEECH_OFF_DETAIL,
  speechCost,
  UNKNOWN_VOICE_DETAIL,
} from "@storyverse/contract/voice";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { fetchMedia } from "../../test/media";
import { findAccount, ledgerSum } from "../credits/repo";
import { charge } from "../credits/service";
import { chatMessages } from "../db/schema";
import { SPEECH_DEADLINE_MS } from "./narration";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const call = (t: TestApp, user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const LINES = 'Brannoc lifts his lantern. "Who goes there?" The wind answers.';

async function storyWithLine(t: TestApp, user: TestUser, content = LINES) {
  const storyId = (await call(t, user, "POST", "/api/stories", { title: "Salt Gate" })).json().story
    .id as string;
  const turn = await call(t, user, "POST", `/api/stories/${storyId}/chat`, {
    prompt: "I knock",
    chat_mode: "chat",
  });
  expect(turn.statusCode).toBe(200);
  const messageId = turn.json().message_id as string;
  const edited = await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content });
  expect(edited.statusCode).toBe(200);
  return { storyId, messageId, speech: `/api/stories/${storyId}/messages/${messageId}/speech` };
}

async function waitForSpeech(t: TestApp, user: TestUser, url: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const body = (await call(t, user, "GET", url)).json();
    if (body.status === "completed" || body.status === "failed") return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the narration did not finish in time");
}

/** The WAV's samples (after the 44-byte header) and their rate. */
function wavOf(body: Buffer) {
  expect(body.toString("ascii", 0, 4)).toBe("RIFF");
  return { rate: body.readUInt32LE(24), samples: body.subarray(44) };
}

const balance = async (t: TestApp, user: TestUser) =>
  (await call(t, user, "GET", "/api/credit-balance")).json().remaining as number;

describe("offline narration", () => {
  let t: TestApp;
  let voices: { id: string; name: string; sample_url: string }[];
  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true });
    const user = await createUser(t);
    voices = (await call(t, user, "GET", "/api/voices")).json().voices;
  });
  afterAll(() => t.cleanup());

  it("lists the offline voices, free, each with a sample that plays as a WAV", async () => {
    const user = await createUser(t);
    const body = (await call(t, user, "GET", "/api/voices")).json();
    expect(body.provider).toBe("offline");
    expect(body.price_per_unit).toBe(0);
    expect(body.voices.length).toBeGreaterThanOrEqual(4);
    expect(body.voices.map((voice: { id: string }) => voice.id)).toContain(body.default_voice);
    const sample = await call(t, user, "GET", body.voices[0].sample_url);
    expect(sample.statusCode).toBe(200);
    expect(sample.headers["content-type"]).toBe("audio/wav");
    const { rate, samples } = wavOf(sample.rawPayload);
    // A sentence of speech: over a second of audio.
    expect(samples.length / 2 / rate).toBeGreaterThan(1);
    const again = await call(t, user, "GET", body.voices[0].sample_url);
    expect(again.rawPayload.equals(sample.rawPayload)).toBe(true);
    expect((await call(t, user, "GET", "/api/voices/no-such-voice/sample")).statusCode).toBe(404);
  }, 60_000);

  it("reads the narration in the narrator's voice and a character's line in its card's voice, for free", async () => {
    const user = await createUser(t);
    const { storyId, speech } = await storyWithLine(t, user);
    const [narrator, keeper] = [voices[0]!.id, voices[1]!.id];
    expect(
      (await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: narrator }))
        .statusCode,
    ).toBe(200);
    const card = await call(t, user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Brannoc",
      triggers: ["Brannoc"],
      voice: keeper,
    });
    expect(card.statusCode).toBe(200);
    expect(card.json().card.voice).toBe(keeper);
    const before = await balance(t, user);

    const started = await call(t, user, "POST", speech);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: "pending", cost: 0 });
    const done = await waitForSpeech(t, user, speech);
    expect(done.status).toBe("completed");
    expect(
      done.segments.map((s: { speaker: string; voice: string; text: string }) => [
        s.speaker,
        s.voice,
        s.text,
      ]),
    ).toEqual([
      ["Narrator", narrator, "Brannoc lifts his lantern."],
      ["Brannoc", keeper, "Who goes there?"],
      ["Narrator", narrator, "The wind answers."],
    ]);
    // The parts follow one another in time, and the audio is as long as the answer says.
    for (let i = 1; i < done.segments.length; i++) {
      expect(done.segments[i].start).toBeGreaterThanOrEqual(done.segments[i - 1].end);
    }
    const audio = await fetchMedia(t, done.audio_url);
    expect(audio.status).toBe(200);
    const { rate, samples } = wavOf(audio.body);
    expect(samples.length / 2 / rate).toBeCloseTo(done.duration_seconds, 1);
    expect(done.segments.at(-1).end).toBeCloseTo(done.duration_seconds, 1);
    expect(await balance(t, user)).toBe(before);
  }, 90_000);

  it("reads a character's message in that character's voice, unless a line is tagged with another", async () => {
    const user = await createUser(t);
    const storyId = (await call(t, user, "POST", "/api/stories", { title: "Lamp Rock" })).json().story
      .id as string;
    const [narrator, keeper, guest] = [voices[0]!.id, voices[1]!.id, voices[2]!.id];
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: narrator });
    const mira = (
      await call(t, user, "POST", `/api/stories/${storyId}/cards`, {
        name: "Mira",
        triggers: ["Mira"],
        voice: keeper,
      })
    ).json().card.id as string;
    await call(t, user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Tobin",
      triggers: ["Tobin"],
      voice: guest,
    });
    const told = await call(t, user, "PUT", `/api/stories/${storyId}/settings`, {
      teller: "character",
      character_ids: [mira],
    });
    expect(told.statusCode).toBe(200);
    const turn = await call(t, user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Hello",
      chat_mode: "chat",
    });
    expect(turn.json().speaker).toMatchObject({ name: "Mira" });
    const messageId = turn.json().message_id as string;
    await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, {
      content: '*I smile at the stranger.* "I keep the light." "Fine by me," Tobin says.',
    });
    const speech = `/api/stories/${storyId}/messages/${messageId}/speech`;
    expect((await call(t, user, "POST", speech)).statusCode).toBe(202);
    const done = await waitForSpeech(t, user, speech);
    expect(done.segments.map((s: { speaker: string; voice: string }) => [s.speaker, s.voice])).toEqual([
      ["Mira", keeper],
      ["Tobin", guest],
      ["Mira", keeper],
    ]);
  }, 90_000);

  it("reads each group scene message in its speaker's voice (decision 0164)", async () => {
    const user = await createUser(t);
    const storyId = (await call(t, user, "POST", "/api/stories", { title: "Two Keepers" })).json().story
      .id as string;
    const [narrator, keeper, guest] = [voices[0]!.id, voices[1]!.id, voices[2]!.id];
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: narrator });
    const card = async (name: string, voice: string) =>
      (await call(t, user, "POST", `/api/stories/${storyId}/cards`, { name, triggers: [name], voice })).json()
        .card.id as string;
    const mira = await card("Mira", keeper);
    const tobin = await card("Tobin", guest);
    const told = await call(t, user, "PUT", `/api/stories/${storyId}/settings`, {
      teller: "group",
      character_ids: [mira, tobin],
      speaker_order: "round_robin",
    });
    expect(told.statusCode).toBe(200);
    for (const [name, voice] of [
      ["Mira", keeper],
      ["Tobin", guest],
    ] as const) {
      const turn = await call(t, user, "POST", `/api/stories/${storyId}/chat`, {
        prompt: "Good evening.",
        chat_mode: "chat",
      });
      expect(turn.json().speaker).toMatchObject({ name });
      const messageId = turn.json().message_id as string;
      await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, {
        content: '*I nod.* "Welcome to the lighthouse."',
      });
      const speech = `/api/stories/${storyId}/messages/${messageId}/speech`;
      expect((await call(t, user, "POST", speech)).statusCode).toBe(202);
      const done = await waitForSpeech(t, user, speech);
      expect(done.segments.map((s: { speaker: string; voice: string }) => [s.speaker, s.voice])).toEqual([
        [name, voice],
      ]);
    }
  }, 90_000);

  it("makes a narration once; an edit or another voice makes a new one, and two voices sound different", async () => {
    const user = await createUser(t);
    const { storyId, messageId, speech } = await storyWithLine(t, user, "The tide turns over the harbour.");
    await call(t, user, "POST", speech);
    const first = await waitForSpeech(t, user, speech);
    const again = await call(t, user, "POST", speech);
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe("completed");
    const firstAudio = (await fetchMedia(t, first.audio_url)).body;
    expect((await fetchMedia(t, again.json().audio_url)).body.equals(firstAudio)).toBe(true);

    const otherVoice = voices.find((voice) => voice.id !== first.segments[0].voice)!.id;
    await call(t, user, "PUT", `/api/stories/${storyId}/settings`, { narrator_voice: otherVoice });
    expect((await call(t, user, "GET", speech)).json().status).toBe("none");
    await call(t, user, "POST", speech);
    const second = await waitForSpeech(t, user, speech);
    expect(second.segments[0].voice).toBe(otherVoice);
    expect((await fetchMedia(t, second.audio_url)).body.equals(firstAudio)).toBe(false);

    await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content: "Gulls cry." });
    expect((await call(t, user, "GET", speech)).json().status).toBe("none");
  }, 120_000);

  it("refuses bad input and other people's messages, changing nothing", async () => {
    const [owner, stranger] = await Promise.all([createUser(t), createUser(t)]);
    const { storyId, speech } = await storyWithLine(t, owner);
    for (const method of ["GET", "POST"] as const) {
      const res = await call(t, stranger, method, speech);
      expect(res.statusCode, method).toBe(404);
    }
    const messages = (await call(t, owner, "GET", `/api/stories/${storyId}/messages`)).json().messages as {
      id: string;
      role: string;
    }[];
    const playerMessage = messages.find((message) => message.role === "user")!;
    const player = await call(
      t,
      owner,
      "POST",
      `/api/stories/${storyId}/messages/${playerMessage.id}/speech`,
    );
    expect(player.statusCode).toBe(404);
    expect(player.json().detail).toBe("Message not found");
    expect((await call(t, owner, "POST", `/api/stories/${storyId}/messages/nope/speech`)).statusCode).toBe(
      400,
    );

    const badVoice = await call(t, owner, "PUT", `/api/stories/${storyId}/settings`, {
      narrator_voice: "nobody",
    });
    expect(badVoice.statusCode).toBe(400);
    expect(badVoice.json().detail).toBe(UNKNOWN_VOICE_DETAIL);
    const badCard = await call(t, owner, "POST", `/api/stories/${storyId}/cards`, {
      name: "Ilse",
      triggers: ["Ilse"],
      voice: "nobody",
    });
    expect(badCard.statusCode).toBe(400);
    expect((await call(t, owner, "GET", `/api/stories/${storyId}/cards`)).json().cards).toEqual([]);
    expect(
      (await call(t, owner, "GET", `/api/stories/${storyId}/settings`)).json().narrator_voice,
    ).toBeNull();

    const { speech: silent } = await storyWithLine(t, owner, "* * *");
    const nothing = await call(t, owner, "POST", silent);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().detail).toBe("This message has no words to read aloud.");
  }, 60_000);

  it("deletes a story's narration audio with the story", async () => {
    const user = await createUser(t);
    const { storyId, speech } = await storyWithLine(t, user, "Night falls on the Salt Gate.");
    await call(t, user, "POST", speech);
    const done = await waitForSpeech(t, user, speech);
    expect((await fetchMedia(t, done.audio_url)).status).toBe(200);
    expect((await call(t, user, "DELETE", `/api/stories/${storyId}`)).statusCode).toBe(200);
    expect((await fetchMedia(t, done.audio_url)).status).toBe(404);
  }, 60_000);
});

describe("narration limits", () => {
  let t: TestApp;
  // No workers: narrations stay pending, as while a worker is busy.
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(() => t.cleanup());

  it("refuses a third narration while two are being made, with a clear detail", async () => {
    const user = await createUser(t);
    const urls = [];
    for (const words of ["One bell.", "Two bells.", "Three bells."])
      urls.push((await storyWithLine(t, user, words)).speech);
    expect((await call(t, user, "POST", urls[0]!)).statusCode).toBe(202);
    expect((await call(t, user, "POST", urls[1]!)).statusCode).toBe(202);
    const third = await call(t, user, "POST", urls[2]!);
    expect(third.statusCode).toBe(429);
    expect(third.json().detail).toBe(SPEECH_BUSY_DETAIL);
    expect((await call(t, user, "GET", urls[2]!)).json().status).toBe("none");
  }, 60_000);

  it("fails a narration whose worker never finished it, and frees its place", async () => {
    const user = await createUser(t);
    const { speech } = await storyWithLine(t, user, "The lantern gutters.");
    expect((await call(t, user, "POST", speech)).statusCode).toBe(202);
    t.clock.advance(SPEECH_DEADLINE_MS + 1000);
    const body = (await call(t, user, "GET", speech)).json();
    expect(body.status).toBe("failed");
    expect(body.error).toMatch(/could not be made/);
    // A failed narration can be asked for again.
    expect((await call(t, user, "POST", speech)).statusCode).toBe(202);
  }, 60_000);
});

describe("narration turned off", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: false, env: { TTS_PROVIDER: "none" } });
  });
  afterAll(() => t.cleanup());

  it("offers no voices and says narration is off", async () => {
    const user = await createUser(t);
    expect((await call(t, user, "GET", "/api/voices")).json()).toMatchObject({
      provider: "none",
      voices: [],
    });
    const { speech } = await storyWithLine(t, user);
    const res = await call(t, user, "POST", speech);
    expect(res.statusCode).toBe(503);
    expect(res.json().detail).toBe(SPEECH_OFF_DETAIL);
  }, 60_000);
});

describe("vendor narration (OpenAI speech format)", () => {
  let t: TestApp;
  let fake: OpenAIFake;
  beforeAll(async () => {
    fake = await startOpenAIFake();
    t = await createTestApp({
      tickingClock: true,
      env: { TTS_PROVIDER: "openai", TTS_API_KEY: fake.apiKey, TTS_BASE_URL: fake.baseUrl },
    });
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("charges per 1,000 characters once, and gives it back when the vendor fails", async () => {
    const user = await createUser(t);
    const long = `${"The harbour bells ring out across the water. ".repeat(30).trim()}`;
    const { storyId, messageId, speech } = await storyWithLine(t, user, long);
    const price = speechCost(0.5, long.length);
    expect(price).toBe(1);
    const before = await balance(t, user);
    expect((await call(t, user, "GET", speech)).json().cost).toBe(price);
    expect((await call(t, user, "POST", speech)).statusCode).toBe(202);
    expect(await balance(t, user)).toBe(before - price);
    const done = await waitForSpeech(t, user, speech);
    expect(done.status).toBe("completed");
    expect(fake.requests.some((request) => request.path === "/v1/audio/speech")).toBe(true);
    // Asked again: the same audio, no second charge.
    expect((await call(t, user, "POST", speech)).json().status).toBe("completed");
    expect(await balance(t, user)).toBe(before - price);

    await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content: "Short now." });
    fake.failNext({ status: 400, message: "Invalid voice." }, "/audio/speech");
    expect((await call(t, user, "POST", speech)).statusCode).toBe(202);
    const failed = await waitForSpeech(t, user, speech);
    expect(failed.status).toBe("failed");
    expect(await balance(t, user)).toBe(before - price);
    const account = await findAccount(t.database.db, user.userId);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
  }, 90_000);

  it("refuses a narration the balance cannot pay for, changing nothing", async () => {
    const user = await createUser(t);
    const { speech } = await storyWithLine(t, user, "A gull cries.");
    await charge(t.database.db, user.userId, "video", 4, new Date(), "Spent elsewhere");
    await charge(t.database.db, user.userId, "chat", 5, new Date(), "Spent elsewhere");
    expect(await balance(t, user)).toBe(0);
    const res = await call(t, user, "POST", speech);
    expect(res.statusCode).toBe(402);
    expect((await call(t, user, "GET", speech)).json().status).toBe("none");
  }, 60_000);

  it("keeps the ledger whole under 50 concurrent narrations from a user with few credits", async () => {
    const user = await createUser(t);
    const { storyId } = await storyWithLine(t, user, "The first bell.");
    const now = new Date();
    const rows = await t.database.db
      .insert(chatMessages)
      .values(
        Array.from({ length: 50 }, (_, index) => ({
          userId: user.userId,
          storyId,
          role: "assistant" as const,
          content: `Bell number ${index + 1} rings over the harbour.`,
          createdAt: new Date(now.getTime() + index + 1),
          updatedAt: now,
        })),
      )
      .returning({ id: chatMessages.id });
    // 14.5 left; spend 13.5 elsewhere: 1 credit, two narrations at most.
    await charge(t.database.db, user.userId, "video", 4, new Date(), "Spent elsewhere");
    await charge(t.database.db, user.userId, "chat", 3, new Date(), "Spent elsewhere");
    const results = await Promise.all(
      rows.map((row) => call(t, user, "POST", `/api/stories/${storyId}/messages/${row.id}/speech`)),
    );
    const codes = results.map((res) => res.statusCode);
    expect(codes.filter((code) => ![202, 402, 429].includes(code))).toEqual([]);
    expect(codes.filter((code) => code === 202).length).toBeGreaterThanOrEqual(1);
    expect(codes.filter((code) => code === 202).length).toBeLessThanOrEqual(2);
    for (const row of rows) {
      const url = `/api/stories/${storyId}/messages/${row.id}/speech`;
      if ((await call(t, user, "GET", url)).json().status === "pending") await waitForSpeech(t, user, url);
    }
    const account = await findAccount(t.database.db, user.userId);
    expect(account!.balanceTenths).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
    expect(account!.balanceTenths).toBe(10 - 5 * codes.filter((code) => code === 202).length);
  }, 120_000);
});
