import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BytePlusFake, startBytePlusFake } from "../../../test/fakes/byteplus-fake";
import { catchProviderError, expectNoSecrets } from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import { createBytePlusTextProvider } from "./text";

let fake: BytePlusFake;
const messages = [{ role: "user" as const, content: "Continue the story." }];

function provider(apiKey = fake.apiKey) {
  return createBytePlusTextProvider({
    apiKey,
    baseUrl: fake.baseUrl,
    model: "seed-1-6-250615",
    timeoutMs: 5000,
  });
}

beforeAll(async () => {
  fake = await startBytePlusFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("BytePlus ModelArk chat", () => {
  it("completes through the OpenAI-compatible endpoint and names itself byteplus", async () => {
    const text = provider();
    expect(text.name).toBe("byteplus");
    await expect(text.complete({ purpose: "advice", messages })).resolves.toBe("The tide turns.");
    expect(fake.requests[0]?.path).toBe("/api/v3/chat/completions");
    expect(fake.requests[0]?.json).toMatchObject({ model: "seed-1-6-250615", messages });
  });

  it("streams the pieces in order", async () => {
    const pieces: string[] = [];
    for await (const piece of provider().stream({ purpose: "advice", messages })) pieces.push(piece);
    expect(pieces).toEqual(["The", " tide", " turns."]);
  });

  it("maps ModelArk's errors: a wrong key, a busy endpoint", async () => {
    const wrongKey = "ark-wrong-0123456789abcdefghij";
    const keyError = await catchProviderError(provider(wrongKey).complete({ purpose: "advice", messages }));
    expect(keyError.message).toBe(userMessages.misconfigured);
    expectNoSecrets(keyError, { apiKey: wrongKey, baseUrl: fake.baseUrl });
    fake.failNext({ status: 429 });
    const busy = await catchProviderError(provider().complete({ purpose: "advice", messages }));
    expect(busy.message).toBe(userMessages.busy);
    expect(busy.retryable).toBe(true);
    expect(busy.internal).toContain("RateLimitExceeded");
  });
});
