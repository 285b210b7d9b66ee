// Read aloud starts at once (issue #42 item 7, decision 0133): a narration's first sentence is spoken first and
// can be fetched and played while the rest is still being spoken. Proved by order, not by time: the voice is
// held after its first piece, and the first piece is there (and plays as the start of the finished file) while
// the rest waits. With a vendor's voice the narration is still charged once, when asked for.
import { SPEECH_CHUNK_GONE_DETAIL } from "@storyverse/contract/voice";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { fetchMedia } from "../../test/media";
import { findAccount, ledgerSum } from "../credits/repo";
import type { SpeakRequest, VoiceProvider } from "../providers/types";
import { SPEECH_CHUNK_KEEP_MS, sweepSpeechChunks } from "./chunk-sweep";

const call = (t: TestApp, user: TestUser, method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

const FIRST = "Brannoc lifts his lantern over the Salt Gate.";
const MESSAGE = `${FIRST} "Who goes there?" The wind answers him from the black water, and the chain of the gate rattles once. Far below, a bell rings for the night watch.`;

/** The app's voice, held after its first piece until `release()`; `asked` lists what it was asked to say. */
function holdAfterFirstPiece(t: TestApp) {
  const voice = t.providers.voice as VoiceProvider;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const asked: string[] = [];
  const spoken: string[] = [];
  // Everything else (name, voices, default voice, price) is the app's own voice.
  const holding = Object.create(voice) as VoiceProvider;
  holding.speak = async (request: SpeakRequest) => {
    asked.push(request.text);
    if (asked.length > 1) await held;
    const audio = await voice.speak(request);
    spoken.push(request.text);
    return audio;
  };
  t.providers.voice = holding;
  return { asked, spoken, release, restore: () => (t.providers.voice = voice) };
}

async function storyWith(t: TestApp, user: TestUser, content: string) {
  const storyId = (await call(t, user, "POST", "/api/stories", { title: "Salt Gate" })).json().story
    .id as string;
  const turn = await call(t, user, "POST", `/api/stories/${storyId}/chat`, {
    prompt: "I knock",
    chat_mode: "chat",
  });
  expect(turn.statusCode).toBe(200);
  const messageId = turn.json().message_id as string;
  expect(
    (await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content })).statusCode,
  ).toBe(200);
  return `/api/stories/${storyId}/messages/${messageId}/speech`;
}

async function until<T>(look: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  let value: T | undefined;
  for (let tries = 0; tries < 300; tries += 1) {
    value = await look();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
}

const samplesOf = (wav: Buffer) => {
  expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
  return { rate: wav.readUInt32LE(24), samples: wav.subarray(44) };
};

/**
 * Asks for the narration with the voice held after its first piece: the first sentence is spoken alone, its
 * piece is served while the rest waits, then the rest is spoken and the whole file starts with that piece.
 */
async function firstSentenceBeforeTheRest(t: TestApp, user: TestUser, speech: string) {
  const voice = holdAfterFirstPiece(t);
  try {
    const started = await call(t, user, "POST", speech);
    expect(started.statusCode).toBe(202);
    const pending = await until(
      async () => (await call(t, user, "GET", speech)).json(),
      (body) => body.chunks.length > 0,
      "the first piece",
    );
    // The first sentence was asked for alone, first, and the rest is still waiting in the voice.
    expect(voice.asked[0]).toBe(FIRST);
    expect(voice.spoken).toEqual([FIRST]);
    expect(voice.asked.length).toBe(2);
    expect(pending.status).toBe("pending");
    expect(pending.chunks).toHaveLength(1);

    const first = await call(t, user, "GET", `${speech}/chunks/0`);
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("audio/wav");
    expect(first.headers["cache-control"]).toBe("no-store");
    const piece = samplesOf(first.rawPayload);
    expect(piece.samples.length / 2 / piece.rate).toBeCloseTo(pending.chunks[0].duration_seconds, 2);
    // Nothing of the rest yet.
    expect((await call(t, user, "GET", `${speech}/chunks/1`)).statusCode).toBe(404);

    voice.release();
    const done = await until(
      async () => (await call(t, user, "GET", speech)).json(),
      (body) => body.status !== "pending",
      "the narration",
    );
    expect(done.status).toBe("completed");
    expect(done.chunks).toEqual([]);
    // The first piece played is the start of the file, sample for sample.
    const whole = samplesOf((await fetchMedia(t, done.audio_url)).body);
    expect(whole.rate).toBe(piece.rate);
    expect(whole.samples.length).toBeGreaterThan(piece.samples.length);
    expect(whole.samples.subarray(0, piece.samples.length).equals(piece.samples)).toBe(true);
    // Stored: a piece listed just before is still served, sweeps within the keep time or not.
    const listed = await call(t, user, "GET", `${speech}/chunks/0`);
    expect(listed.statusCode).toBe(200);
    expect(samplesOf(listed.rawPayload).samples.equals(piece.samples)).toBe(true);
    const soon = {
      ...t.ctx,
      clock: { now: () => new Date(t.clock.now().getTime() + SPEECH_CHUNK_KEEP_MS / 2) },
    };
    await sweepSpeechChunks(soon);
    expect((await call(t, user, "GET", `${speech}/chunks/0`)).statusCode).toBe(200);
    // Once the keep time is over, the sweep deletes them.
    const later = {
      ...t.ctx,
      clock: { now: () => new Date(t.clock.now().getTime() + SPEECH_CHUNK_KEEP_MS + 1) },
    };
    expect(await sweepSpeechChunks(later)).toBeGreaterThan(0);
    const gone = await call(t, user, "GET", `${speech}/chunks/0`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe(SPEECH_CHUNK_GONE_DETAIL);
  } finally {
    voice.release();
    voice.restore();
  }
}

describe("Read aloud's first sentence, offline voice", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true });
  });
  afterAll(() => t.cleanup());

  it("serves the first sentence's piece while the rest is still being spoken", async () => {
    const user = await createUser(t);
    await firstSentenceBeforeTheRest(t, user, await storyWith(t, user, MESSAGE));
  }, 90_000);

  it("serves a piece to the story's owner only, and answers a bad index with 400", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const speech = await storyWith(t, owner, MESSAGE);
    const voice = holdAfterFirstPiece(t);
    try {
      await call(t, owner, "POST", speech);
      await until(
        async () => (await call(t, owner, "GET", speech)).json(),
        (body) => body.chunks.length > 0,
        "the first piece",
      );
      expect((await call(t, other, "GET", `${speech}/chunks/0`)).statusCode).toBe(404);
      const bad = await call(t, owner, "GET", `${speech}/chunks/first`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().detail).toBeTruthy();
    } finally {
      voice.release();
      voice.restore();
    }
    await until(
      async () => (await call(t, owner, "GET", speech)).json(),
      (body) => body.status !== "pending",
      "the narration",
    );
  }, 90_000);
});

describe("Read aloud's first sentence, a vendor's voice", () => {
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

  it("plays the first sentence first and charges the narration once, not per piece", async () => {
    const user = await createUser(t);
    const speech = await storyWith(t, user, MESSAGE);
    const before = (await call(t, user, "GET", "/api/credit-balance")).json().remaining as number;
    const price = (await call(t, user, "GET", speech)).json().cost as number;
    expect(price).toBeGreaterThan(0);
    await firstSentenceBeforeTheRest(t, user, speech);
    expect((await call(t, user, "GET", "/api/credit-balance")).json().remaining).toBe(before - price);
    // Asked again: the stored file, no second charge.
    expect((await call(t, user, "POST", speech)).json().status).toBe("completed");
    expect((await call(t, user, "GET", "/api/credit-balance")).json().remaining).toBe(before - price);
    const account = await findAccount(t.database.db, user.userId);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
  }, 90_000);
});
