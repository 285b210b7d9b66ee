import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ElevenLabsFake, startElevenLabsFake } from "../../../test/fakes/elevenlabs-fake";
import {
  fakeSecondsPerCharacter,
  fakeToneFrequency,
  measuredToneFrequency,
} from "../../../test/fakes/openai-fake";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import type { VoiceProvider } from "../types";
import { createElevenLabsVoiceProvider, type ElevenLabsSettings } from "./voice";

let fake: ElevenLabsFake;
let voice: VoiceProvider;
let quick: VoiceProvider;
const george = "JBFqnCBsd6RMkjVDRZzb";
const sarah = "EXAVITQu4vr4xnSDxMaL";

function provider(overrides: Partial<ElevenLabsSettings> = {}): VoiceProvider {
  return createElevenLabsVoiceProvider({
    vendor: "elevenlabs",
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    model: "eleven_multilingual_v2",
    timeoutMs: 5000,
    ...overrides,
  });
}

beforeAll(async () => {
  fake = await startElevenLabsFake();
  voice = provider();
  quick = provider({ timeoutMs: 300 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("ElevenLabs text to speech", () => {
  it("asks for 22.05 kHz PCM in the chosen voice with the key header", async () => {
    const text = "The lantern flickers.";
    const audio = await voice.speak({ text, voice: sarah });
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe(`/v1/text-to-speech/${sarah}`);
    expect(fake.queries[0]?.get("output_format")).toBe("pcm_22050");
    expect(request?.headers["xi-api-key"]).toBe(fake.apiKey);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.json).toEqual({ text, model_id: "eleven_multilingual_v2" });
    expect(audio.sampleRate).toBe(22050);
    expect(audio.pcm.length / 2 / 22050).toBeCloseTo(text.length * fakeSecondsPerCharacter, 2);
    expect(measuredToneFrequency(audio.pcm, 22050)).toBeCloseTo(fakeToneFrequency(sarah), -1);
  });

  it("lists the account's voices with their language, and asks again only after a minute", async () => {
    let now = 1_000_000;
    const cached = provider({ now: () => now });
    const voices = await cached.listVoices();
    expect(voices).toContainEqual({ id: george, name: "George", language: "" });
    expect(voices).toContainEqual({ id: sarah, name: "Sarah", language: "en" });
    expect(voices.map((entry) => entry.id)).toContain(cached.defaultVoice);
    expect(fake.requests[0]?.path).toBe("/v1/voices");
    now += 59_000;
    await cached.listVoices();
    expect(fake.requests).toHaveLength(1);
    now += 2_000;
    await cached.listVoices();
    expect(fake.requests).toHaveLength(2);
  });

  it("passes ElevenLabs' reason on when a voice does not exist", async () => {
    const error = await catchProviderError(voice.speak({ text: "Hi", voice: "alloy" }));
    expect(error.message).toBe(userMessages.misconfigured);
    expect(error.retryable).toBe(false);
    expect(error.internal).toMatch(/HTTP 404 voice_not_found/);
  });

  it("says why it refused an over-long text", async () => {
    const error = await catchProviderError(voice.speak({ text: "a".repeat(5001), voice: george }));
    expect(error.message).toMatch(/^The AI provider rejected the request: Text is longer than 5000/);
    expect(error.retryable).toBe(false);
  });

  it("answers silence for empty text without a call", async () => {
    await expect(voice.speak({ text: "", voice: george })).resolves.toEqual({
      pcm: Buffer.alloc(0),
      sampleRate: 22050,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it.each(standardFailures)("maps $name to a safe message when speaking", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : voice;
    const error = await catchProviderError(subject.speak({ text: "Hello", voice: george }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it.each(standardFailures)("maps $name to a safe message when listing voices", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? provider({ timeoutMs: 300 }) : provider();
    const error = await catchProviderError(subject.listVoices());
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("says the provider is misconfigured when the key is wrong", async () => {
    const wrongKey = "sk_wrongElevenLabsKey0123456789abcdef";
    const error = await catchProviderError(
      provider({ apiKey: wrongKey }).speak({ text: "Hi", voice: george }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
  });
});
