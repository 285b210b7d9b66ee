// Editing a picture through the hosted vendors other than OpenAI (decision 0162), each faked at the network
// boundary in its wire format: Seedream 4 on BytePlus ModelArk (a variation and an extension, by instruction,
// no mask) and Replicate (an inpaint through FLUX.1 Fill [pro], an upscale through Real-ESRGAN). Each result is a
// gallery item that knows its parent; a vendor failure refunds the charge in full; what a vendor cannot make is
// a 400 before any charge; /api/config offers the web only the edits the configured vendor declares.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { type BytePlusFake, startBytePlusFake } from "../../test/fakes/byteplus-fake";
import { type ReplicateFake, startReplicateFake } from "../../test/fakes/replicate-fake";
import { fetchMedia, galleryImage } from "../../test/media";

const edit = (t: TestApp, user: TestUser, id: string, payload: object) =>
  t.app.inject({ method: "POST", url: `/api/media/${id}/edit`, headers: bearer(user.token), payload });
const raw = async (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
const pixel = (picture: { data: Buffer; info: { width: number } }, x: number, y: number) => [
  ...picture.data.subarray((y * picture.info.width + x) * 3, (y * picture.info.width + x) * 3 + 3),
];
const galleryText = async (t: TestApp, user: TestUser) =>
  JSON.stringify(
    (await t.app.inject({ method: "GET", url: "/api/gallery", headers: bearer(user.token) })).json(),
  );

describe("editing a picture through Seedream 4 on BytePlus ModelArk", () => {
  let fake: BytePlusFake;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startBytePlusFake();
    t = await createTestApp({
      env: {
        IMAGE_PROVIDER: "byteplus",
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
    fake.images.itemErrors = "none";
  });

  it("/api/config offers a variation and an extension only (Seedream has no mask and no upscaler)", async () => {
    const config = (await t.app.inject({ method: "GET", url: "/api/config" })).json();
    expect(config.image_edit_kinds).toEqual(["outpaint", "vary"]);
  });

  it("extends the canvas: a new gallery item with its parent, the original's pixels unchanged", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#0000ff", 48, 32);
    const before = await balance(user);
    const res = await edit(t, user, parent.id, { kind: "outpaint", prompt: "more sea", direction: "right" });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().item;
    expect(item.parent_id).toBe(parent.id);
    expect(await balance(user)).toBe(before - CREDIT_COSTS.image_outpaint);

    const request = fake.requests.find((r) => r.path === "/api/v3/images/generations");
    const body = request?.json as { image: string[]; prompt: string; seed: number };
    expect(body.image).toHaveLength(1);
    expect(body.prompt).toMatch(/grey strip at its right edge.*more sea$/);
    expect(body.seed).toBe(item.seed & 0x7fffffff);

    const out = await raw((await fetchMedia(t, item.url)).body);
    expect([out.info.width, out.info.height]).toEqual([60, 32]);
    expect(pixel(out, 5, 10)).toEqual([0, 0, 255]);
    expect(pixel(out, 47, 31)).toEqual([0, 0, 255]);
    expect(pixel(out, 55, 10)).toEqual([0x88, 0x44, 0x22]);
  });

  it("a refused variation is a 502 and the charge is refunded in full", async () => {
    const user = await createUser(t);
    const { balance, refunds } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#00ff00", 48, 32);
    const before = await balance(user);
    fake.images.itemErrors = "all";
    const res = await edit(t, user, parent.id, { kind: "vary", strength: "strong" });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toMatch(/^The AI provider could not make this image: /);
    expect(await balance(user)).toBe(before);
    const refunded = await refunds(user);
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.amount_tenths).toBe(CREDIT_COSTS.image_vary * 10);
    expect(await galleryText(t, user)).not.toContain(`"parent_id":"${parent.id}"`);
  });

  it("an upscale (Seedream would repaint, not enlarge) is a 400 before any charge and any call", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#00ff00", 48, 32);
    const before = await balance(user);
    const res = await edit(t, user, parent.id, { kind: "upscale" });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("The configured image service (byteplus) cannot make upscaled x2.");
    expect(await balance(user)).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });

  it("a Studio batch with two references sends both as Seedream's `image` list", async () => {
    const user = await createUser(t);
    const first = await galleryImage(t, user.userId, "#ff0000", 40, 30);
    const second = await galleryImage(t, user.userId, "#00ff00", 40, 30);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/studio/generate-image",
      headers: bearer(user.token),
      payload: { prompt: "the two of them", batch_size: 2, input_images: [first.id, second.id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = fake.requests.find((r) => r.path === "/api/v3/images/generations")?.json as {
      image: string[];
    };
    expect(body.image).toHaveLength(2);
    const colours = await Promise.all(
      body.image.map(async (url) => {
        const picture = await raw(Buffer.from(url.replace(/^data:image\/\w+;base64,/, ""), "base64"));
        return pixel(picture, 5, 5);
      }),
    );
    expect(colours[0]![0]).toBeGreaterThan(200);
    expect(colours[1]![1]).toBeGreaterThan(200);
  });
});

describe("editing a picture through Replicate", () => {
  let fake: ReplicateFake;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startReplicateFake();
    t = await createTestApp({
      env: {
        IMAGE_PROVIDER: "replicate",
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
    Object.assign(fake.predictions, { finishWhileWaiting: true, outcome: "succeeded", pollsBeforeDone: 2 });
  });

  /** Our mask: opaque (repaint) in the left half of a 48x32 picture. */
  async function leftHalfMask() {
    const png = await sharp({ create: { width: 48, height: 32, channels: 4, background: "#00000000" } })
      .composite([
        {
          input: { create: { width: 24, height: 32, channels: 4, background: "#ffffffff" } },
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    return `data:image/png;base64,${png.toString("base64")}`;
  }

  it("/api/config offers all four edits", async () => {
    const config = (await t.app.inject({ method: "GET", url: "/api/config" })).json();
    expect(config.image_edit_kinds).toEqual(["inpaint", "outpaint", "vary", "upscale"]);
  });

  it("inpaints through FLUX.1 Fill [pro]: only the brushed half changes, and the item knows its parent", async () => {
    const user = await createUser(t);
    const parent = await galleryImage(t, user.userId, "#0000ff", 48, 32);
    const res = await edit(t, user, parent.id, {
      kind: "inpaint",
      prompt: "a red door",
      mask: await leftHalfMask(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item.parent_id).toBe(parent.id);
    const request = fake.requests.find((r) => r.method === "POST");
    expect(request?.path).toBe("/v1/models/black-forest-labs/flux-fill-pro/predictions");
    expect((request?.json as { input: { prompt: string } }).input.prompt).toBe("a red door");

    const out = await raw((await fetchMedia(t, res.json().item.url)).body);
    expect([out.info.width, out.info.height]).toEqual([48, 32]);
    expect(pixel(out, 5, 10)[0]).toBeGreaterThan(240);
    for (let y = 0; y < 32; y++) {
      for (let x = 24; x < 48; x++) expect(pixel(out, x, y)).toEqual([0, 0, 255]);
    }
  });

  it("upscales x2 through Real-ESRGAN: both sides doubled", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#336699", 40, 30);
    const before = await balance(user);
    const res = await edit(t, user, parent.id, { kind: "upscale" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item.parent_id).toBe(parent.id);
    expect(await balance(user)).toBe(before - CREDIT_COSTS.image_upscale);
    expect(fake.requests.find((r) => r.method === "POST")?.json).toMatchObject({ input: { scale: 2 } });
    const out = await sharp((await fetchMedia(t, res.json().item.url)).body).metadata();
    expect([out.width, out.height]).toEqual([80, 60]);
  });

  it("a failed prediction is a 502 and the charge is refunded in full: one outcome per charge", async () => {
    const user = await createUser(t);
    const { balance, refunds } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#00ff00", 48, 32);
    const before = await balance(user);
    fake.predictions.outcome = "failed";
    const res = await edit(t, user, parent.id, { kind: "outpaint", prompt: "more sky", direction: "up" });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toMatch(/^The AI provider could not make this image: /);
    expect(await balance(user)).toBe(before);
    const refunded = await refunds(user);
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.amount_tenths).toBe(CREDIT_COSTS.image_outpaint * 10);
    expect(await galleryText(t, user)).not.toContain(`"parent_id":"${parent.id}"`);
  });

  it("an inpaint without a mask is a 400 before any charge and any prediction", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#00ff00", 48, 32);
    const before = await balance(user);
    const res = await edit(t, user, parent.id, { kind: "inpaint", prompt: "a door" });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("Brush over the part to repaint first: an inpaint needs a mask.");
    expect(await balance(user)).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });
});
