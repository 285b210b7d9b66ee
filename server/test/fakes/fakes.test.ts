// The fakes must refuse what the real vendors refuse, or the adapter tests would pass against a pushover.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BytePlusFake, startBytePlusFake } from "./byteplus-fake";
import { samplePng } from "./media";
import { type OpenAIFake, startOpenAIFake } from "./openai-fake";
import { type ReplicateFake, startReplicateFake } from "./replicate-fake";

let openai: OpenAIFake;
let byteplus: BytePlusFake;
let replicate: ReplicateFake;
let dataUrl: string;

beforeAll(async () => {
  [openai, byteplus, replicate] = await Promise.all([
    startOpenAIFake(),
    startBytePlusFake(),
    startReplicateFake(),
  ]);
  dataUrl = `data:image/png;base64,${(await samplePng(8, 8)).toString("base64")}`;
});
afterAll(() => Promise.all([openai.close(), byteplus.close(), replicate.close()]));

async function post(url: string, key: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe("OpenAI fake", () => {
  const images = (body: unknown, key = openai.apiKey) =>
    post(`${openai.baseUrl}/images/generations`, key, body);

  it("answers a wrong key with 401 invalid_api_key", async () => {
    const answer = await images({ model: "gpt-image-1", prompt: "x" }, "sk-wrong");
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { type: "invalid_request_error", code: "invalid_api_key" } });
  });

  it.each([
    [{ model: "gpt-image-1" }, "missing_required_parameter"],
    [{ model: "gpt-image-1", prompt: "x", size: "2048x2048" }, "invalid_value"],
    [{ model: "gpt-image-1", prompt: "x", n: 11 }, "integer_above_max_value"],
  ])("refuses %j with 400", async (body, code) => {
    const answer = await images(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code } });
  });

  it("refuses more than 16 images to edit", async () => {
    const form = new FormData();
    for (let index = 0; index < 17; index += 1) form.append("image[]", new Blob([Buffer.from("x")]), "a.png");
    form.append("prompt", "x");
    const response = await fetch(`${openai.baseUrl}/images/edits`, {
      method: "POST",
      headers: { authorization: `Bearer ${openai.apiKey}` },
      body: form,
    });
    expect(response.status).toBe(400);
  });

  it("refuses a chat without messages", async () => {
    const answer = await post(`${openai.baseUrl}/chat/completions`, openai.apiKey, {
      model: "m",
      messages: [],
    });
    expect(answer.status).toBe(400);
  });
});

describe("BytePlus fake", () => {
  const images = (body: Record<string, unknown>, key = byteplus.apiKey) =>
    post(`${byteplus.baseUrl}/images/generations`, key, { model: "seedream-4-0-250828", ...body });

  it("answers a wrong key with 401 AuthenticationError", async () => {
    const answer = await images({ prompt: "x" }, "wrong");
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: "AuthenticationError" } });
  });

  it.each([
    ["no prompt", {}, "MissingParameter"],
    [
      "11 references",
      { prompt: "x", image: Array.from({ length: 11 }, () => "https://a/b.png") },
      "InvalidParameter",
    ],
    [
      "a reference that is neither a link nor a data URL",
      { prompt: "x", image: ["/etc/passwd"] },
      "InvalidParameter",
    ],
    ["size 3K", { prompt: "x", size: "3K" }, "InvalidParameter"],
    [
      "16 images",
      {
        prompt: "x",
        sequential_image_generation: "auto",
        sequential_image_generation_options: { max_images: 16 },
      },
      "InvalidParameter",
    ],
    [
      "references plus outputs over 15",
      {
        prompt: "x",
        image: Array.from({ length: 10 }, () => "https://a/b.png"),
        sequential_image_generation: "auto",
        sequential_image_generation_options: { max_images: 6 },
      },
      "InvalidParameter",
    ],
  ])("refuses %s with 400", async (_name, body, code) => {
    const answer = await images(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code } });
  });

  it("refuses a video task of 20 seconds and one with a bad first frame", async () => {
    const task = (text: string, url: string) =>
      post(`${byteplus.baseUrl}/contents/generations/tasks`, byteplus.apiKey, {
        model: "seedance-1-0-pro-250528",
        content: [
          { type: "text", text },
          { type: "image_url", image_url: { url }, role: "first_frame" },
        ],
      });
    expect((await task("x --duration 20", dataUrl)).status).toBe(400);
    expect((await task("x --duration 5", "not a url")).status).toBe(400);
    expect((await task("x --duration 5", dataUrl)).status).toBe(200);
  });
});

describe("Replicate fake", () => {
  const seedream = (input: Record<string, unknown>, key = replicate.apiKey) =>
    post(`${replicate.baseUrl}/models/bytedance/seedream-4/predictions`, key, { input });

  it("answers a wrong token with 401 problem details", async () => {
    const answer = await seedream({ prompt: "x" }, "r8_wrong");
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ title: "Unauthenticated", status: 401 });
  });

  it.each([
    ["no prompt", {}],
    ["11 references", { prompt: "x", image_input: Array.from({ length: 11 }, () => dataUrl) }],
    ["size 3K", { prompt: "x", size: "3K" }],
    ["aspect ratio 5:4", { prompt: "x", aspect_ratio: "5:4" }],
    ["16 images", { prompt: "x", sequential_image_generation: "auto", max_images: 16 }],
  ])("refuses %s with 422", async (_name, input) => {
    const answer = await seedream(input);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ title: "Input validation failed", status: 422 });
  });

  it("does not know other models", async () => {
    const answer = await post(`${replicate.baseUrl}/models/someone/else/predictions`, replicate.apiKey, {
      input: { prompt: "x" },
    });
    expect(answer.status).toBe(404);
  });
});
