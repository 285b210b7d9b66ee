// The Studio over HTTP, with the vendors faked at the network boundary (OpenAI for text and images, ModelArk
// for a batch that comes back short): what a user gets, what they pay, and what is refused before paying.
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type BytePlusFake, startBytePlusFake } from "../../test/fakes/byteplus-fake";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { fetchMedia } from "../../test/media";
import { ledgerSum } from "../credits/repo";
import { charge } from "../credits/service";
import { ADVISOR_ROLE_LINE } from "./advisor-prompt";

let fake: OpenAIFake;
let t: TestApp;
beforeAll(async () => {
  fake = await startOpenAIFake();
  t = await createTestApp({
    env: {
      TEXT_PROVIDER: "openai",
      TEXT_BASE_URL: fake.baseUrl,
      TEXT_API_KEY: fake.apiKey,
      IMAGE_PROVIDER: "openai",
      IMAGE_BASE_URL: fake.baseUrl,
      IMAGE_API_KEY: fake.apiKey,
      PROVIDER_TIMEOUT_SECONDS: "5",
    },
  });
});
afterAll(async () => {
  await t?.cleanup();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  fake.images.bytes = fake.png;
  fake.chat.pieces = ["**Try this:**", "\n\n> A red fox in fresh snow, golden hour, low angle, 85 mm."];
});

type Json = Record<string, unknown>;
type Item = { id: string; url: string; thumbnail_url: string | null; source: string; description: string };

/** Posts, then moves the (fake) clock on, so each exchange has its own time and history order is real. */
async function post(user: TestUser | undefined, url: string, payload: object) {
  const res = await t.app.inject({ method: "POST", url, headers: user ? bearer(user.token) : {}, payload });
  t.clock.advance(1000);
  return res;
}
const generate = (user: TestUser | undefined, payload: object) =>
  post(user, "/api/studio/generate-image", payload);
const advise = (user: TestUser | undefined, prompt: string) =>
  post(user, "/api/studio/advisor-chat", { prompt });
const getJson = async (user: TestUser, url: string) =>
  (await t.app.inject({ method: "GET", url, headers: bearer(user.token) })).json();
const balance = async (user: TestUser): Promise<number> =>
  (await getJson(user, "/api/credit-balance")).remaining;
const imageCalls = () => fake.requests.filter((r) => r.path.includes("/images/"));
const pngDataUrl = async (color = "#aa3355") =>
  `data:image/png;base64,${(
    await sharp({ create: { width: 40, height: 30, channels: 3, background: color } })
      .png()
      .toBuffer()
  ).toString("base64")}`;

/** A user with one finished Studio image, to use as an input. */
async function userWithImage(): Promise<{ user: TestUser; item: Item }> {
  const user = await createUser(t);
  const res = await generate(user, { prompt: "a brass key on velvet", batch_size: 1 });
  expect(res.statusCode).toBe(200);
  return { user, item: res.json().items[0] };
}

describe("POST /api/studio/generate-image", () => {
  it("a batch of 4 gives 4 images, 4 studio gallery items, and costs 6 credits", async () => {
    const user = await createUser(t);
    const res = await generate(user, { prompt: "A lighthouse in a storm, oil painting", batch_size: 4 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.images).toHaveLength(4);
    expect(body.items).toHaveLength(4);
    expect(body.quota_info).toEqual({ remaining: 9, unlimited: false, cost: 6, charged: 6 });
    expect(await balance(user)).toBe(9);

    // One vendor call for the whole batch.
    expect(imageCalls()).toHaveLength(1);
    expect(imageCalls()[0]!.json).toMatchObject({ prompt: "A lighthouse in a storm, oil painting", n: 4 });

    for (const item of body.items as Item[]) {
      expect(item).toMatchObject({ source: "studio", description: "A lighthouse in a storm, oil painting" });
      expect(body.images).toContain(item.url);
    }
    const image = await fetchMedia(t, body.images[0]);
    expect(image).toMatchObject({ status: 200, type: "image/png" });
    const thumb = await fetchMedia(t, body.items[0].thumbnail_url);
    expect(thumb.type).toBe("image/webp");

    const gallery = await getJson(user, "/api/gallery");
    expect(gallery.items).toHaveLength(4);
    expect(gallery.items.every((i: Item) => i.source === "studio")).toBe(true);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(90);

    const { messages } = await getJson(user, "/api/studio/messages");
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      role: "user",
      content: "A lighthouse in a storm, oil painting",
      isAdvisor: false,
      batchSize: 4,
      images: [],
      input_images: [],
    });
    expect(messages[1]).toMatchObject({
      id: body.message_id,
      role: "assistant",
      isAdvisor: false,
      batchSize: 4,
    });
    expect(messages[1].images).toHaveLength(4);
    expect(messages[1].image_items.map((i: Item) => i.id)).toEqual(body.items.map((i: Item) => i.id));
    expect(messages[1].image_items[0].thumbnail_url).toBeTruthy();
  });

  it("batch_size defaults to 1 and costs 1.5", async () => {
    const user = await createUser(t);
    const res = await generate(user, { prompt: "a teacup" });
    expect(res.json().images).toHaveLength(1);
    expect(await balance(user)).toBe(13.5);
  });

  it("refuses batch sizes outside 1..4 before charging", async () => {
    const user = await createUser(t);
    for (const batch_size of [0, 5, 2.5, "3"]) {
      const res = await generate(user, { prompt: "a teacup", batch_size });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/batch_size/);
    }
    expect(imageCalls()).toHaveLength(0);
    expect(await balance(user)).toBe(15);
  });

  it("asks OpenAI for the nearest size of a shape; a seed it cannot take is a 400 before charging", async () => {
    const user = await createUser(t);
    const upright = await generate(user, { prompt: "A tall tower", aspect_ratio: "9:16" });
    expect(upright.statusCode, upright.body).toBe(200);
    expect(imageCalls()[0]!.json).toMatchObject({ size: "1024x1536" });
    expect(imageCalls()[0]!.json).not.toHaveProperty("seed");
    // OpenAI takes no seed: its pictures record none rather than one that would not repeat them.
    expect(upright.json().items[0]).toMatchObject({ seed: null });
    const before = await balance(user);
    const seeded = await generate(user, { prompt: "A tall tower", aspect_ratio: "9:16", seed: 5 });
    expect(seeded.statusCode).toBe(400);
    expect(seeded.json().detail).toBe(
      "The configured image service (openai) cannot repeat a seed: leave the seed empty.",
    );
    expect(await balance(user)).toBe(before);
    expect(imageCalls()).toHaveLength(1);
  });

  it("refuses a blank or overlong prompt", async () => {
    const user = await createUser(t);
    expect((await generate(user, { prompt: "   ", batch_size: 1 })).statusCode).toBe(400);
    expect((await generate(user, { prompt: "x".repeat(4001), batch_size: 1 })).statusCode).toBe(400);
    expect(await balance(user)).toBe(15);
  });

  it("takes the user's own gallery items by id, by URL and as the picker sends them, plus uploads", async () => {
    const { user, item } = await userWithImage();
    fake.reset();
    const res = await generate(user, {
      prompt: "the same key, now in a lock",
      batch_size: 2,
      input_images: [
        item.id,
        item.url,
        { url: item.thumbnail_url, id: item.id },
        await pngDataUrl(),
        { data: await pngDataUrl("#113355"), name: "sketch.png" },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().images).toHaveLength(2);
    expect(await balance(user)).toBe(15 - 1.5 - 3);

    // References make it an edit call carrying every input as a file.
    const [call] = imageCalls();
    expect(call!.path).toBe("/v1/images/edits");
    expect(call!.body.toString("latin1").match(/filename="reference-\d+\.jpg"/g)).toHaveLength(5);

    const { messages } = await getJson(user, "/api/studio/messages");
    const sent = messages.at(-2);
    expect(sent).toMatchObject({ role: "user", batchSize: 2 });
    expect(sent.input_images).toHaveLength(5);
    // The history's 48-px input strip gets a gallery picture's small thumbnail, never its 2K original.
    const shown = (sent.input_images as string[]).map((url) => new URL(url, "http://x").pathname);
    expect(shown.slice(0, 3)).toEqual([
      new URL(item.thumbnail_url!, "http://x").pathname,
      new URL(item.thumbnail_url!, "http://x").pathname,
      new URL(item.thumbnail_url!, "http://x").pathname,
    ]);
    for (const url of sent.input_images as string[]) {
      expect((await fetchMedia(t, url)).status).toBe(200);
    }
  });

  it("accepts uploads far beyond the 1 MB body limit other routes keep", async () => {
    const user = await createUser(t);
    const width = 1200;
    const height = 900;
    // Random pixels do not compress: a PNG of several megabytes.
    const noise = randomBytes(width * height * 3);
    const png = await sharp(noise, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
    const dataUrl = `data:image/png;base64,${png.toString("base64")}`;
    expect(dataUrl.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await generate(user, {
      prompt: "keep this texture",
      batch_size: 1,
      input_images: [dataUrl, dataUrl],
    });
    expect(res.statusCode).toBe(200);
    expect(await balance(user)).toBe(13.5);
  });

  it("refuses another user's gallery item, by id or URL, without charging", async () => {
    const { item } = await userWithImage();
    const user = await createUser(t);
    fake.reset();
    for (const input of [item.id, item.url, { url: item.url, id: item.id }]) {
      const res = await generate(user, { prompt: "steal it", batch_size: 1, input_images: [input] });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/not yours or no longer exists/);
    }
    expect(imageCalls()).toHaveLength(0);
    expect(await balance(user)).toBe(15);
  });

  it("refuses an outside URL or an unknown id without fetching or charging", async () => {
    const user = await createUser(t);
    for (const input of ["https://example.com/cat.png", "00000000-0000-4000-8000-000000000000"]) {
      const res = await generate(user, { prompt: "x", batch_size: 1, input_images: [input] });
      expect(res.statusCode).toBe(400);
    }
    expect(imageCalls()).toHaveLength(0);
    expect(await balance(user)).toBe(15);
  });

  it("refuses 11 input images with the spec's message, without charging", async () => {
    const { user, item } = await userWithImage();
    fake.reset();
    const res = await generate(user, {
      prompt: "too many",
      batch_size: 1,
      input_images: Array.from({ length: 11 }, () => item.id),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(
      "Maximum 10 images allowed for Seedream-4. You currently have 11 images.",
    );
    expect(imageCalls()).toHaveLength(0);
    expect(await balance(user)).toBe(13.5);
  });

  it("refuses uploads that are not images, judged by content, without charging", async () => {
    const user = await createUser(t);
    const text = Buffer.from("just some notes").toString("base64");
    for (const input of [
      `data:text/plain;base64,${text}`,
      `data:image/png;base64,${text}`,
      { data: `data:image/jpeg;base64,${text}`, name: "photo.jpg" },
    ]) {
      const res = await generate(user, { prompt: "x", batch_size: 1, input_images: [input] });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe("Please select image files only.");
    }
    expect(imageCalls()).toHaveLength(0);
    expect(await balance(user)).toBe(15);
  });

  it("answers 402 with quota_exceeded when the batch costs more than the balance", async () => {
    const user = await createUser(t);
    await charge(t.database.db, user.userId, "test_spend", 14, t.clock.now(), "spent elsewhere");
    const res = await generate(user, { prompt: "one more", batch_size: 1 });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      quota_exceeded: true,
      quota_info: { remaining: 1, unlimited: false, cost: 1.5, charged: 0 },
    });
    expect(res.json().detail).toMatch(/^Insufficient credits/);
    expect(imageCalls()).toHaveLength(0);
    expect(await balance(user)).toBe(1);
  });

  it("a vendor failure answers 502 with a safe message, refunds everything and records nothing", async () => {
    const user = await createUser(t);
    fake.failNext({ status: 400, message: "Your request was rejected by the safety system." }, "/images/");
    const res = await generate(user, { prompt: "something", batch_size: 3 });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toContain("rejected by the safety system");
    expect(res.body).not.toContain(fake.apiKey);
    expect(res.body).not.toContain(fake.origin);
    expect(await balance(user)).toBe(15);
    expect((await getJson(user, "/api/studio/messages")).messages).toEqual([]);
    expect((await getJson(user, "/api/gallery")).items).toEqual([]);

    fake.failNext({ status: 500 }, "/images/");
    const again = await generate(user, { prompt: "something", batch_size: 1 });
    expect(again.statusCode).toBe(502);
    expect(again.json().detail).toBe("The AI provider had a problem. Please try again.");
    expect(await balance(user)).toBe(15);
  });

  it("bytes from the vendor that are not a readable image are refunded, never shown", async () => {
    const user = await createUser(t);
    // A PNG signature in front of garbage: it passes a sniff, not a decode.
    fake.images.bytes = Buffer.concat([fake.png.subarray(0, 16), Buffer.alloc(64, 1)]);
    const res = await generate(user, { prompt: "broken", batch_size: 2 });
    expect(res.statusCode).toBe(502);
    expect(await balance(user)).toBe(15);
    expect((await getJson(user, "/api/gallery")).items).toEqual([]);
  });

  it("needs a session", async () => {
    expect((await generate(undefined, { prompt: "x", batch_size: 1 })).statusCode).toBe(401);
  });
});

describe("POST /api/studio/advisor-chat", () => {
  it("answers in Markdown for 0.5 credits, remembers the conversation and lists it in order", async () => {
    const user = await createUser(t);
    const first = await advise(user, "How do I make a fox look cinematic?");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      response: "**Try this:**\n\n> A red fox in fresh snow, golden hour, low angle, 85 mm.",
      quota_info: { remaining: 14.5, cost: 0.5, charged: 0.5 },
    });
    expect(await balance(user)).toBe(14.5);

    const [call] = fake.requests.filter((r) => r.path.endsWith("/chat/completions"));
    const sent = (call!.json as { messages: { role: string; content: string }[] }).messages;
    expect(sent[0]!.role).toBe("system");
    expect(sent[0]!.content.split("\n")).toContain(ADVISOR_ROLE_LINE);
    expect(sent.at(-1)).toEqual({ role: "user", content: "How do I make a fox look cinematic?" });

    // An image batch in between is not advisor history.
    await generate(user, { prompt: "a fox", batch_size: 1 });
    fake.reset();
    fake.chat.pieces = ["Use *rim light*."];
    const second = await advise(user, "And the lighting?");
    expect(second.json().response).toBe("Use *rim light*.");
    const secondSent = (fake.requests[0]!.json as { messages: { role: string; content: string }[] }).messages;
    expect(secondSent.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(secondSent[1]!.content).toBe("How do I make a fox look cinematic?");
    expect(await balance(user)).toBe(15 - 0.5 - 1.5 - 0.5);

    const { messages } = await getJson(user, "/api/studio/messages");
    expect(messages.map((m: Json) => [m.role, m.isAdvisor])).toEqual([
      ["user", true],
      ["assistant", true],
      ["user", false],
      ["assistant", false],
      ["user", true],
      ["assistant", true],
    ]);
    expect(messages[1]).toMatchObject({
      id: first.json().message_id,
      images: [],
      content: first.json().response,
    });
    expect(messages[5].content).toBe("Use *rim light*.");
    const times = messages.map((m: Json) => Date.parse(String(m.timestamp)));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("only the last 10 advisor messages go to the model", async () => {
    const user = await createUser(t);
    for (let i = 1; i <= 6; i += 1) {
      expect((await advise(user, `question ${i}`)).statusCode).toBe(200);
    }
    const last = fake.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!;
    const sent = (last.json as { messages: { content: string }[] }).messages;
    // The system prompt, the 5 earlier questions with their answers, the new question.
    expect(sent).toHaveLength(1 + 10 + 1);
    expect(sent[1]!.content).toBe("question 1");
    expect(sent.at(-1)!.content).toBe("question 6");
    expect((await getJson(user, "/api/studio/messages")).messages).toHaveLength(12);
    const after = await advise(user, "question 7");
    expect(after.statusCode).toBe(200);
    const newest = fake.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!;
    const newestSent = (newest.json as { messages: { content: string }[] }).messages;
    expect(newestSent).toHaveLength(12);
    expect(newestSent[1]!.content).toBe("question 2");
  });

  it("a vendor failure answers 502 with a safe message and refunds the 0.5", async () => {
    const user = await createUser(t);
    fake.failNext({ status: 503 }, "/chat/completions");
    const res = await advise(user, "help");
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toBeTruthy();
    expect(res.body).not.toContain(fake.apiKey);
    expect(await balance(user)).toBe(15);
    expect((await getJson(user, "/api/studio/messages")).messages).toEqual([]);
  });

  it("refuses a blank prompt and answers 402 when out of credits", async () => {
    const user = await createUser(t);
    expect((await advise(user, "  ")).statusCode).toBe(400);
    await charge(t.database.db, user.userId, "test_spend", 15, t.clock.now(), "spent elsewhere");
    const res = await advise(user, "help");
    expect(res.statusCode).toBe(402);
    expect(res.json().quota_exceeded).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });

  it("needs a session", async () => {
    expect((await advise(undefined, "x")).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/studio/messages" })).statusCode).toBe(401);
  });
});

describe("GET /api/studio/messages", () => {
  it("shows only the caller's conversation", async () => {
    const { user } = await userWithImage();
    const other = await createUser(t);
    expect((await getJson(other, "/api/studio/messages")).messages).toEqual([]);
    expect((await getJson(user, "/api/studio/messages")).messages).toHaveLength(2);
  });
});

describe("a batch that comes back short (ModelArk Seedream)", () => {
  let seedream: BytePlusFake;
  let s: TestApp;
  beforeAll(async () => {
    seedream = await startBytePlusFake();
    s = await createTestApp({
      env: {
        IMAGE_PROVIDER: "byteplus",
        IMAGE_BASE_URL: seedream.baseUrl,
        IMAGE_API_KEY: seedream.apiKey,
        PROVIDER_TIMEOUT_SECONDS: "5",
      },
    });
  });
  afterAll(async () => {
    await s?.cleanup();
    await seedream?.close();
  });

  it("delivers what was made and refunds the rest", async () => {
    const user = await createUser(s);
    seedream.images.itemErrors = "some";
    const res = await s.app.inject({
      method: "POST",
      url: "/api/studio/generate-image",
      headers: bearer(user.token),
      payload: { prompt: "three knights", batch_size: 3 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().images).toHaveLength(2);
    expect(res.json().quota_info).toEqual({ remaining: 12, unlimited: false, cost: 4.5, charged: 3 });
    const remaining = (
      await s.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })
    ).json().remaining;
    expect(remaining).toBe(12);
    const { messages } = (
      await s.app.inject({ method: "GET", url: "/api/studio/messages", headers: bearer(user.token) })
    ).json();
    expect(messages[1].images).toHaveLength(2);
    expect(messages[1].content).toMatch(/2 images of the 3 you asked for/);
  });
});
