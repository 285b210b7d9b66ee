// Studio credits and uploads under faults, against the real app and database with the OpenAI vendor faked at
// the network boundary: a user who cannot pay makes the server decode and store nothing, a failed request
// leaves no uploads behind, one user cannot run unbounded heavy requests at once, and the advisor refunds
// its charge when the exchange cannot be stored.
import { readdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { ddlRetryingDeadlocks } from "../../test/database";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { MAX_HEAVY_REQUESTS_PER_USER } from "../credits/paid-work";
import { ledgerSum } from "../credits/repo";
import { charge } from "../credits/service";
import { IMAGE_ROUTE_BODY_LIMIT } from "../media/images";
import type { ImageProvider } from "../providers/types";

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
  fake.chat.pieces = ["**Try this:** a red fox in fresh snow."];
});

const post = (user: TestUser, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, headers: bearer(user.token), payload });
const balance = async (user: TestUser): Promise<number> =>
  (await t.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })).json()
    .remaining;
const pngDataUrl = async () =>
  `data:image/png;base64,${(
    await sharp({ create: { width: 40, height: 30, channels: 3, background: "#aa3355" } })
      .png()
      .toBuffer()
  ).toString("base64")}`;

/** The user's stored uploads (files under their inputs folder). */
async function storedUploads(user: TestUser): Promise<string[]> {
  if (t.config.storage.kind !== "local") throw new Error("these tests read local storage");
  try {
    return await readdir(path.join(t.config.storage.dir, "u", user.userId, "inputs"));
  } catch {
    return [];
  }
}

async function spendAll(user: TestUser) {
  await charge(t.ctx.db, user.userId, "image", 10, t.clock.now(), "spent elsewhere");
  expect(await balance(user)).toBe(0);
}

describe("paid Studio work under faults", () => {
  it("a user with no credits gets 402 before any upload is decoded or stored", async () => {
    const user = await createUser(t);
    await spendAll(user);
    const good = await post(user, "/api/studio/generate-image", {
      prompt: "a fox",
      batch_size: 1,
      input_images: [await pngDataUrl()],
    });
    expect(good.statusCode).toBe(402);
    expect(good.json()).toMatchObject({ quota_exceeded: true });
    // A damaged upload is not even looked at: the answer is about paying, not about the file.
    const damaged = await post(user, "/api/studio/generate-image", {
      prompt: "a fox",
      batch_size: 1,
      input_images: [`data:image/png;base64,${Buffer.from("not really a png").toString("base64")}`],
    });
    expect(damaged.statusCode).toBe(402);
    expect(await storedUploads(user)).toEqual([]);
    expect(fake.requests.filter((r) => r.path.includes("/images/"))).toEqual([]);
  });

  it("a story turn from a user who cannot pay stores none of its uploads", async () => {
    const user = await createUser(t);
    const story = (await post(user, "/api/stories", { title: "Fox", context: "" })).json().story.id;
    await spendAll(user);
    const res = await post(user, `/api/stories/${story}/chat`, {
      prompt: "Go on",
      chat_mode: "image",
      inputImages: [await pngDataUrl()],
    });
    expect(res.statusCode).toBe(402);
    expect(await storedUploads(user)).toEqual([]);
  });

  it("a batch the vendor refuses is refunded and leaves none of its uploads behind", async () => {
    const user = await createUser(t);
    fake.failNext({ status: 400, message: "Your request was rejected by the safety system." }, "/images/");
    const res = await post(user, "/api/studio/generate-image", {
      prompt: "a fox",
      batch_size: 2,
      input_images: [await pngDataUrl(), { data: await pngDataUrl(), name: "fox.png" }],
    });
    expect(res.statusCode).toBe(502);
    expect(await balance(user)).toBe(15);
    expect(await storedUploads(user)).toEqual([]);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(150);
  });

  it("a story turn whose narrator fails is refunded and leaves none of its uploads behind", async () => {
    const user = await createUser(t);
    const story = (await post(user, "/api/stories", { title: "Fox", context: "" })).json().story.id;
    fake.failNext({ status: 500 }, "/chat/completions");
    const res = await post(user, `/api/stories/${story}/chat`, {
      prompt: "Go on",
      chat_mode: "image",
      inputImages: [await pngDataUrl()],
    });
    expect(res.statusCode).toBe(502);
    expect(await balance(user)).toBe(15);
    expect(await storedUploads(user)).toEqual([]);
  });

  it(`one user runs at most ${MAX_HEAVY_REQUESTS_PER_USER} batches at once; the rest get 429 and pay nothing`, async () => {
    const user = await createUser(t);
    const vendor = t.providers.image;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = 0;
    const held: ImageProvider = {
      name: vendor.name,
      async generate(request) {
        entered += 1;
        await released;
        return vendor.generate(request);
      },
    };
    t.providers.image = held;
    try {
      const statuses: number[] = [];
      const requests = Array.from({ length: 5 }, () =>
        post(user, "/api/studio/generate-image", { prompt: "a fox", batch_size: 1 }).then((res) => {
          statuses.push(res.statusCode);
          return res;
        }),
      );
      // The requests over the cap are answered while the first ones are still held at the vendor.
      const settled = () =>
        statuses.length >= 5 - MAX_HEAVY_REQUESTS_PER_USER && entered >= MAX_HEAVY_REQUESTS_PER_USER;
      for (let i = 0; i < 600 && !settled(); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(statuses).toEqual(Array(5 - MAX_HEAVY_REQUESTS_PER_USER).fill(429));
      expect(entered).toBe(MAX_HEAVY_REQUESTS_PER_USER);
      release();
      const answers = await Promise.all(requests);
      expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(MAX_HEAVY_REQUESTS_PER_USER);
      expect(answers.find((res) => res.statusCode === 429)?.json().detail).toMatch(/in progress/);
      expect(await balance(user)).toBe(15 - 1.5 * MAX_HEAVY_REQUESTS_PER_USER);
    } finally {
      release();
      t.providers.image = vendor;
    }
  });

  it("refuses a body larger than ten uploads at the size limit with 413, before reading it", async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/studio/generate-image",
      headers: {
        ...bearer(user.token),
        "content-type": "application/json",
        "content-length": String(IMAGE_ROUTE_BODY_LIMIT + 1),
      },
      payload: "{}",
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toBeTruthy();
    expect(IMAGE_ROUTE_BODY_LIMIT).toBeLessThan(141 * 1024 * 1024);
  });

  it("the advisor refunds its 0.5 when the exchange cannot be stored", async () => {
    const user = await createUser(t);
    // The database refuses new Studio messages (existing rows stay valid).
    await ddlRetryingDeadlocks(
      t.database,
      "alter table studio_messages add constraint refuse_new_rows check (false) not valid",
    );
    try {
      const res = await post(user, "/api/studio/advisor-chat", { prompt: "Help me with a fox" });
      expect(res.statusCode).toBe(500);
    } finally {
      await ddlRetryingDeadlocks(t.database, "alter table studio_messages drop constraint refuse_new_rows");
    }
    expect(await balance(user)).toBe(15);
    const { rows } = await t.database.executeSql(
      "select reference, amount_tenths from credit_transactions where user_id = $1 and transaction_type = 'refund'",
      [user.userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_tenths: 5 });
    expect(String(rows[0]!.reference)).toMatch(/^refund:[0-9a-f-]{36}$/);
  });

  it("a batch whose exchange cannot be stored is refunded and keeps neither images nor uploads", async () => {
    const user = await createUser(t);
    await ddlRetryingDeadlocks(
      t.database,
      "alter table studio_messages add constraint refuse_new_rows check (false) not valid",
    );
    try {
      const res = await post(user, "/api/studio/generate-image", {
        prompt: "a fox",
        batch_size: 2,
        input_images: [await pngDataUrl()],
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await ddlRetryingDeadlocks(t.database, "alter table studio_messages drop constraint refuse_new_rows");
    }
    expect(await balance(user)).toBe(15);
    const gallery = await t.app.inject({
      method: "GET",
      url: "/api/user/images",
      headers: bearer(user.token),
    });
    expect(gallery.json().images).toEqual([]);
    expect(await storedUploads(user)).toEqual([]);
  });
});
