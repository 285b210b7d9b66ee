import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_EMBEDDING_DIMENSIONS,
  fakeEmbedding,
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
import type { EmbeddingsProvider } from "../types";
import { createOpenAIEmbeddingsProvider } from "./embeddings";

let fake: OpenAIFake;
let embeddings: EmbeddingsProvider;
let quick: EmbeddingsProvider;

function provider(timeoutMs: number, options: { apiKey?: string; model?: string } = {}): EmbeddingsProvider {
  return createOpenAIEmbeddingsProvider({
    vendor: "openai",
    apiKey: options.apiKey ?? fake.apiKey,
    baseUrl: fake.baseUrl,
    model: options.model ?? "text-embedding-3-small",
    timeoutMs,
  });
}

beforeAll(async () => {
  fake = await startOpenAIFake();
  embeddings = provider(5000);
  quick = provider(300);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.embeddings.vectors.clear();
});

describe("OpenAI-compatible embeddings", () => {
  it("sends the texts in one call as floats and answers one vector per text, in order", async () => {
    const vectors = await embeddings.embed(["The tavern keeper", "A storm at sea"]);
    expect(vectors).toEqual([fakeEmbedding("The tavern keeper"), fakeEmbedding("A storm at sea")]);
    expect(vectors[0]).toHaveLength(FAKE_EMBEDDING_DIMENSIONS);
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.json).toEqual({
      model: "text-embedding-3-small",
      input: ["The tavern keeper", "A storm at sea"],
      encoding_format: "float",
    });
    expect(embeddings.model).toBe("text-embedding-3-small");
  });

  it("answers the vector a test set for a text", async () => {
    fake.embeddings.vectors.set("lighthouse", [0, 3, 4]);
    await expect(embeddings.embed(["lighthouse"])).resolves.toEqual([[0, 0.6, 0.8]]);
  });

  it("makes no call for no texts", async () => {
    await expect(embeddings.embed([])).resolves.toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("says the provider is misconfigured when the model does not exist", async () => {
    const error = await catchProviderError(provider(5000, { model: "missing-model" }).embed(["a"]));
    expect(error.message).toBe(userMessages.misconfigured);
    expect(error.internal).toMatch(/model_not_found/);
    expect(error.retryable).toBe(false);
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const error = await catchProviderError((expected.failure === "hang" ? quick : embeddings).embed(["a"]));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("says the provider is misconfigured when the key is wrong", async () => {
    const wrongKey = "sk-wrong0123456789abcdef";
    const error = await catchProviderError(provider(5000, { apiKey: wrongKey }).embed(["a"]));
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
  });
});
