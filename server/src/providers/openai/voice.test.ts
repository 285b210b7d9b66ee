import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  fakeSecondsPerCharacter,
  fakeToneFrequency,
  measuredToneFrequency,
  type OpenAIFake,
  startOpenAIFake,
} from "../../../test/fakes/openai-fake";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import type { VoiceProvider } from "../types";
import { createOpenAIVoiceProvider } from "./voice";

let fake: OpenAIFake;
let voice: VoiceProvider;
let quick: VoiceProvider;

function provider(timeoutMs: number, apiKey = fake.apiKey): VoiceProvider {
  return createOpenAIVoiceProvider({
    vendor: "openai",
    apiKey,
    baseUrl: fake.baseUrl,
    model: "gpt-4o-mini-tts",
    timeoutMs,
  });
}

beforeAll(async () => {
  fake = await startOpenAIFake();
  voice = provider(5000);
  quick = provider(300);
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("OpenAI-compatible text to speech", () => {
  it("asks for raw PCM in the chosen voice and answers it at 24 kHz", async () => {
    const text = "The lantern flickers.";
    const audio = await voice.speak({ text, voice: "onyx" });
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/audio/speech");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.json).toMatchObject({
      model: "gpt-4o-mini-tts",
      input: text,
      voice: "onyx",
      response_format: "pcm",
    });
    expect(audio.sampleRate).toBe(24000);
    expect(audio.pcm.length / 2 / 24000).toBeCloseTo(text.length * fakeSecondsPerCharacter, 2);
    expect(measuredToneFrequency(audio.pcm, 24000)).toBeCloseTo(fakeToneFrequency("onyx"), -1);
  });

  it("gives different voices different sounds", async () => {
    const [nova, echo] = await Promise.all([
      voice.speak({ text: "Hello", voice: "nova" }),
      voice.speak({ text: "Hello", voice: "echo" }),
    ]);
    expect(nova.pcm.equals(echo.pcm)).toBe(false);
  });

  it("lists OpenAI's documented voices with the default among them", async () => {
    const voices = await voice.listVoices();
    expect(voices.map((entry) => entry.id)).toEqual(expect.arrayContaining(["alloy", "onyx", "shimmer"]));
    expect(voices.map((entry) => entry.id)).toContain(voice.defaultVoice);
    expect(voices.every((entry) => entry.language === "")).toBe(true);
    expect(voice.maxCharacters).toBe(4096);
    expect(fake.requests).toHaveLength(0);
  });

  it("answers silence for empty text without a call", async () => {
    await expect(voice.speak({ text: "  ", voice: "alloy" })).resolves.toEqual({
      pcm: Buffer.alloc(0),
      sampleRate: 24000,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("passes the vendor's reason on when it refuses a voice", async () => {
    const error = await catchProviderError(voice.speak({ text: "Hi", voice: "en-us+f3" }));
    expect(error.message).toMatch(/^The AI provider rejected the request: Invalid value: 'en-us\+f3'/);
    expect(error.retryable).toBe(false);
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : voice;
    const error = await catchProviderError(subject.speak({ text: "Hello", voice: "alloy" }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("says the provider is misconfigured when the key is wrong", async () => {
    const wrongKey = "sk-wrongOpenAIKey0123456789abcdef";
    const error = await catchProviderError(provider(5000, wrongKey).speak({ text: "Hi", voice: "alloy" }));
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
  });

  it("gives up on a caller's cancel with the caller's reason", async () => {
    fake.failNext("hang");
    const controller = new AbortController();
    const spoken = voice.speak({ text: "Hello", voice: "alloy", signal: controller.signal });
    setTimeout(() => controller.abort(new Error("narration stopped")), 50);
    await expect(spoken).rejects.toThrow("narration stopped");
  });
});
