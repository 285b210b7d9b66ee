// The Studio on the operator's own GPU (decision 0156): the real app with IMAGE_PROVIDER=a1111 pointed at a fake
// AUTOMATIC1111 speaking its HTTP API. A batch delivers pictures of the shape and seeds asked for and charges
// for them; a failure of the GPU box refunds the whole batch and records nothing.
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type A1111Fake, seedColour, startA1111Fake } from "../../test/fakes/a1111-fake";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia } from "../../test/media";
import { ledgerSum } from "../credits/repo";

let fake: A1111Fake;
let t: TestApp;
beforeAll(async () => {
  fake = await startA1111Fake({ apiKey: "storyteller:gpu-box-password" });
  t = await createTestApp({
    env: {
      IMAGE_PROVIDER: "a1111",
      IMAGE_BASE_URL: fake.baseUrl,
      IMAGE_API_KEY: fake.apiKey!,
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
  fake.behaviour.scripts = [];
});

const generate = (user: TestUser, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/studio/generate-image", headers: bearer(user.token), payload });
const getJson = async (user: TestUser, url: string) =>
  (await t.app.inject({ method: "GET", url, headers: bearer(user.token) })).json();
const balance = async (user: TestUser): Promise<number> =>
  (await getJson(user, "/api/credit-balance")).remaining;

describe("a Studio batch on AUTOMATIC1111", () => {
  it("delivers the pictures of the shape and seeds asked for, and charges for them", async () => {
    const user = await createUser(t);
    const res = await generate(user, {
      prompt: "two lanterns",
      batch_size: 2,
      aspect_ratio: "16:9",
      seed: 700,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.images).toHaveLength(2);
    expect(body.items.map((item: { seed: number }) => item.seed)).toEqual([700, 701]);
    expect(body.quota_info).toEqual({ remaining: 12, unlimited: false, cost: 3, charged: 3 });
    expect(await balance(user)).toBe(12);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(120);

    // One call for the batch, made with the seed asked for.
    expect(fake.requests.map((request) => request.path)).toEqual(["/sdapi/v1/txt2img"]);
    expect(fake.requests[0]!.json).toMatchObject({ prompt: "two lanterns", seed: 700, batch_size: 2 });
    for (const [index, url] of (body.images as string[]).entries()) {
      const stored = await fetchMedia(t, url);
      expect(stored.status).toBe(200);
      const { data, info } = await sharp(stored.body)
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect({ width: info.width, height: info.height }).toEqual({ width: 1280, height: 720 });
      expect({ r: data[0], g: data[1], b: data[2] }).toEqual(seedColour(700 + index));
    }
    expect((await getJson(user, "/api/gallery")).items).toHaveLength(2);
    // Every picture edit is on offer with this painter.
    expect((await t.app.inject({ method: "GET", url: "/api/config" })).json().image_edit_kinds).toEqual([
      "inpaint",
      "outpaint",
      "vary",
      "upscale",
    ]);
  });

  it("sends each input image with the role the creator marked it with (decision 0161)", async () => {
    // The box has ControlNet: the Studio's app is new, so it asks which scripts there are at the first batch.
    fake.behaviour.scripts = ["controlnet"];
    const user = await createUser(t);
    const dataUrl = async (colour: string) =>
      `data:image/png;base64,${(await samplePng(32, 32, colour)).toString("base64")}`;
    const res = await generate(user, {
      prompt: "the knight in the rain",
      batch_size: 1,
      seed: 9,
      input_images: [
        { data: await dataUrl("#ff0000"), name: "palette.png", role: "style" },
        { data: await dataUrl("#00ff00"), name: "scene.png" },
        { data: await dataUrl("#0000ff"), name: "knight.png", role: "character" },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const painting = fake.requests.find((request) => request.method === "POST")!;
    expect(painting.path).toBe("/sdapi/v1/img2img");
    const body = painting.json as {
      init_images: string[];
      alwayson_scripts: { controlnet: { args: { module: string; image: string }[] } };
    };
    const colourOf = async (base64: string) => {
      const { data } = await sharp(Buffer.from(base64, "base64")).removeAlpha().raw().toBuffer({
        resolveWithObject: true,
      });
      // References are re-encoded on the way (prepareReference): the colour, not the exact bytes.
      const [r, g, b] = [data[0]!, data[1]!, data[2]!];
      return r > 200 && g < 40 && b < 40
        ? "red"
        : g > 200 && r < 40 && b < 40
          ? "green"
          : b > 200
            ? "blue"
            : "other";
    };
    // The unmarked (content) picture starts the painting; the style and the character steer it by role.
    expect(await colourOf(body.init_images[0]!)).toBe("green");
    const units = body.alwayson_scripts.controlnet.args;
    expect(units.map((unit) => unit.module)).toEqual(["reference_adain", "reference_adain+attn"]);
    expect(await Promise.all(units.map((unit) => colourOf(unit.image)))).toEqual(["red", "blue"]);
  });

  it("keeps the roles of a queued batch (Prefer: respond-async) until its job paints it", async () => {
    fake.behaviour.scripts = ["controlnet"];
    const user = await createUser(t);
    const dataUrl = async (colour: string) =>
      `data:image/png;base64,${(await samplePng(32, 32, colour)).toString("base64")}`;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/studio/generate-image",
      headers: { ...bearer(user.token), prefer: "respond-async" },
      payload: {
        prompt: "the knight at the gate",
        input_images: [
          { data: await dataUrl("#00ff00"), name: "gate.png" },
          { data: await dataUrl("#0000ff"), name: "knight.png", role: "character" },
          { data: await dataUrl("#ff0000"), name: "palette.png", role: "style" },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().message_id as string;
    let status = "pending";
    for (let i = 0; i < 600 && status === "pending"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await getJson(user, `/api/studio/batches/${id}`)).status;
    }
    expect(status).toBe("completed");
    const painting = fake.requests.find((request) => request.method === "POST")!;
    const units = (painting.json as { alwayson_scripts: { controlnet: { args: { module: string }[] } } })
      .alwayson_scripts.controlnet.args;
    expect(units.map((unit) => unit.module)).toEqual(["reference_adain+attn", "reference_adain"]);
  });

  it("refuses a role it does not know with a 400, charging nothing", async () => {
    const user = await createUser(t);
    const res = await generate(user, {
      prompt: "the knight",
      input_images: [{ data: "data:image/png;base64,AAAA", role: "mood" }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/input_images/);
    expect(fake.requests).toHaveLength(0);
    expect(await balance(user)).toBe(15);
  });

  it("refunds the whole batch and records nothing when the GPU box fails", async () => {
    const user = await createUser(t);
    fake.failNext({ status: 500, code: "OutOfMemoryError", message: "CUDA out of memory." });
    const res = await generate(user, { prompt: "two lanterns", batch_size: 3 });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toBe("The AI provider had a problem. Please try again.");
    expect(res.body).not.toContain(fake.origin);
    expect(await balance(user)).toBe(15);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(150);
    expect((await getJson(user, "/api/gallery")).items).toEqual([]);
    expect((await getJson(user, "/api/studio/messages")).messages).toEqual([]);
  });
});
