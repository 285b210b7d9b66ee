import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readMultipart } from "../../../test/fakes/fake-server";
import { type OpenAIFake, startOpenAIFake } from "../../../test/fakes/openai-fake";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import type { SpeechProvider } from "../types";
import { createOpenAISpeechProvider } from "./speech";

let fake: OpenAIFake;
let quick: SpeechProvider;
let speech: SpeechProvider;
const audio = Buffer.from("1a45dfa3fakewebmaudio", "latin1");

function provider(timeoutMs: number, apiKey = fake.apiKey): SpeechProvider {
  return createOpenAISpeechProvider({
    vendor: "openai",
    apiKey,
    baseUrl: fake.baseUrl,
    model: "whisper-1",
    timeoutMs,
  });
}

beforeAll(async () => {
  fake = await startOpenAIFake();
  speech = provider(5000);
  // For the time-out cases: a short limit keeps the suite fast; other tests get room for a cold start.
  quick = provider(300);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.transcript.text = " Hello from the microphone. ";
});

describe("OpenAI-compatible transcription", () => {
  it("uploads the recording as a multipart file and answers the trimmed text", async () => {
    await expect(speech.transcribe({ audio, mimeType: "audio/webm", filename: "clip.webm" })).resolves.toBe(
      "Hello from the microphone.",
    );
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/audio/transcriptions");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    const form = await readMultipart(request!);
    const file = form.get("file");
    if (!file || typeof file === "string") throw new Error("file must be a file");
    expect(file.name).toBe("clip.webm");
    expect(file.type).toBe("audio/webm");
    expect(Buffer.from(await file.arrayBuffer()).equals(audio)).toBe(true);
    expect(form.get("model")).toBe("whisper-1");
  });

  it("answers an empty string for silence", async () => {
    fake.transcript.text = "   ";
    await expect(speech.transcribe({ audio, mimeType: "audio/mp4", filename: "clip.mp4" })).resolves.toBe("");
  });

  it("passes the vendor's reason on when it refuses the format", async () => {
    const error = await catchProviderError(
      speech.transcribe({ audio, mimeType: "audio/x-unknown", filename: "clip.xyz" }),
    );
    expect(error.message).toMatch(/^The AI provider rejected the request: Invalid file format/);
    expect(error.retryable).toBe(false);
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : speech;
    const error = await catchProviderError(
      subject.transcribe({ audio, mimeType: "audio/webm", filename: "a.webm" }),
    );
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("says the provider is misconfigured when the key is wrong", async () => {
    const wrongKey = "gsk_wrongGroqKey0123456789abcdef";
    const wrong = provider(5000, wrongKey);
    const error = await catchProviderError(
      wrong.transcribe({ audio, mimeType: "audio/webm", filename: "a.webm" }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
  });
});
