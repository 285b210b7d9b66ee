import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenAIFake, startOpenAIFake } from "../../../test/fakes/openai-fake";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import { TEXT_PURPOSES, type TextProvider } from "../types";
import { createOpenAITextProvider } from "./text";

let fake: OpenAIFake;
let text: TextProvider;
/** For the time-out cases: a short limit keeps the suite fast; other tests get room for a cold start. */
let quick: TextProvider;
const messages = [
  { role: "system" as const, content: "You are the narrator." },
  { role: "user" as const, content: "Begin." },
];

function provider(overrides: { apiKey?: string; model?: string; timeoutMs?: number } = {}): TextProvider {
  return createOpenAITextProvider({
    vendor: "openai",
    apiKey: overrides.apiKey ?? fake.apiKey,
    baseUrl: fake.baseUrl,
    model: overrides.model ?? "gpt-4o-mini",
    timeoutMs: overrides.timeoutMs ?? 5000,
  });
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of stream) pieces.push(piece);
  return pieces;
}

beforeAll(async () => {
  fake = await startOpenAIFake();
  text = provider();
  quick = provider({ timeoutMs: 300 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.chat.midStream = "none";
});

describe("OpenAI text: complete", () => {
  it("answers the whole text and sends the documented request", async () => {
    await expect(
      text.complete({ purpose: "advice", messages, maxTokens: 400, temperature: 0.8 }),
    ).resolves.toBe("Once upon a time.");
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.json).toEqual({ model: "gpt-4o-mini", messages, max_tokens: 400, temperature: 0.8 });
  });

  it("sends the story's chosen model instead of the configured one", async () => {
    await text.complete({ purpose: "advice", messages, model: "gpt-4o" });
    expect(fake.requests[0]?.json).toMatchObject({ model: "gpt-4o" });
  });

  it("lists the server's models from GET /v1/models", async () => {
    fake.models.ids = ["gpt-4o", "llama3.1:8b"];
    await expect(text.listModels?.()).resolves.toEqual(["gpt-4o", "llama3.1:8b"]);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
    expect(text.defaultModel).toBe("gpt-4o-mini");
    fake.models.ids = ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"];
  });

  it("leaves out optional settings the caller did not give", async () => {
    await text.complete({ purpose: "advice", messages });
    expect(fake.requests[0]?.json).toEqual({ model: "gpt-4o-mini", messages });
  });

  it("sends a request's purpose and facts to no vendor: the body is the documented one (decision 0151)", async () => {
    await text.complete({
      purpose: "turn",
      story: { title: "The Drowned Bell", context: "A city under the sea." },
      cards: [{ name: "Mara", kind: "character" }],
      recalled: [{ turn: 2, narrator: "The bell rang." }],
      attempt: 2,
      messages,
    });
    expect(fake.requests[0]?.json).toEqual({ model: "gpt-4o-mini", messages });
    expect(text.purposes).toEqual(TEXT_PURPOSES);
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : text;
    const error = await catchProviderError(subject.complete({ purpose: "advice", messages }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("passes the vendor's reason for a 400 on, without secrets, in at most about 200 characters", async () => {
    fake.failNext({
      status: 400,
      message: `Invalid 'messages[0]': key ${fake.apiKey} at ${fake.baseUrl}/chat/completions ${"is wrong ".repeat(40)}`,
    });
    const error = await catchProviderError(text.complete({ purpose: "advice", messages }));
    expect(error.message).toMatch(/^The AI provider rejected the request: Invalid 'messages\[0\]'/);
    expect(error.message.length).toBeLessThan(250);
    expect(error.retryable).toBe(false);
    expectNoSecrets(error, fake);
    expect(error.internal).toContain("HTTP 400");
  });

  it("says the provider is misconfigured when the key is wrong, without echoing any of it", async () => {
    const wrongKey = "sk-wrong-key-abcdefghijklmnop";
    const error = await catchProviderError(
      provider({ apiKey: wrongKey }).complete({ purpose: "advice", messages }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expect(error.retryable).toBe(false);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
    expect(error.internal).toContain("401");
    expect(error.internal).toContain("invalid_api_key");
  });

  it("treats an unknown model (404) as misconfiguration", async () => {
    const error = await catchProviderError(
      provider({ model: "missing-model" }).complete({ purpose: "advice", messages }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expect(error.internal).toContain("model_not_found");
  });

  it("says the provider could not be reached when nothing listens", async () => {
    const unreachable = createOpenAITextProvider({
      vendor: "openai",
      apiKey: fake.apiKey,
      baseUrl: "http://127.0.0.1:9/v1",
      model: "gpt-4o-mini",
      timeoutMs: 2000,
    });
    const error = await catchProviderError(unreachable.complete({ purpose: "advice", messages }));
    expect(error.message).toBe(userMessages.unreachable);
    expect(error.retryable).toBe(true);
  });

  it("gives the caller's own cancel back as it is, not as a provider failure", async () => {
    fake.failNext("hang");
    const controller = new AbortController();
    const reason = new Error("user left");
    setTimeout(() => controller.abort(reason), 50);
    await expect(
      provider({ timeoutMs: 5000 }).complete({ purpose: "advice", messages, signal: controller.signal }),
    ).rejects.toBe(reason);
  });
});

describe("OpenAI text: stream", () => {
  it("delivers the pieces in order and skips the comment lines", async () => {
    await expect(collect(text.stream({ purpose: "advice", messages }))).resolves.toEqual([
      "Once",
      " upon",
      " a time.",
    ]);
    expect(fake.requests[0]?.json).toMatchObject({ model: "gpt-4o-mini", messages, stream: true });
  });

  it("turns an error event in the middle of the stream into a ProviderError after the pieces so far", async () => {
    fake.chat.midStream = "error";
    const pieces: string[] = [];
    const error = await catchProviderError(async () => {
      for await (const piece of text.stream({ purpose: "advice", messages })) pieces.push(piece);
    });
    expect(pieces).toEqual(["Once"]);
    expect(error.message).toBe(userMessages.failed);
    expect(error.retryable).toBe(true);
    expect(error.internal).toContain("502");
  });

  it("times out a stream that goes silent", async () => {
    fake.chat.midStream = "hang";
    const pieces: string[] = [];
    const error = await catchProviderError(async () => {
      for await (const piece of quick.stream({ purpose: "advice", messages })) pieces.push(piece);
    });
    expect(pieces).toEqual(["Once"]);
    expect(error.message).toBe(userMessages.timeout);
    expect(error.retryable).toBe(true);
  });

  it("does not count a slow reader's own time against the vendor", async () => {
    const pieces: string[] = [];
    for await (const piece of quick.stream({ purpose: "advice", messages })) {
      pieces.push(piece);
      await new Promise((resolve) => setTimeout(resolve, 350));
    }
    expect(pieces.join("")).toBe("Once upon a time.");
  });

  it.each(
    standardFailures.filter(({ failure }) => typeof failure === "object" || failure === "hang"),
  )("maps $name before the stream starts", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : text;
    const error = await catchProviderError(collect(subject.stream({ purpose: "advice", messages })));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it.each([
    "malformed-json",
    "html",
  ] as const)("calls a %s body instead of events unreadable", async (failure) => {
    fake.failNext(failure);
    const error = await catchProviderError(collect(text.stream({ purpose: "advice", messages })));
    expect(error.message).toBe(userMessages.malformed);
    expect(error.retryable).toBe(true);
  });

  it("calls an event that is not JSON unreadable", async () => {
    fake.chat.midStream = "garbage";
    const error = await catchProviderError(collect(text.stream({ purpose: "advice", messages })));
    expect(error.message).toBe(userMessages.malformed);
  });

  it("stops reading when the caller breaks off", async () => {
    for await (const piece of text.stream({ purpose: "advice", messages })) {
      expect(piece).toBe("Once");
      break;
    }
  });
});
