// Editing a picture through OpenAI's image edits, faked at the network boundary in its wire format (decision
// 0145): an inpaint sends the picture and a mask (transparent where it may paint, the picture's size) as
// multipart, keeps every pixel outside the brushed region, and a vendor failure refunds the charge in full.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { readMultipart } from "../../test/fakes/fake-server";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { fetchMedia, galleryImage } from "../../test/media";

let fake: OpenAIFake;
let t: TestApp;
beforeAll(async () => {
  fake = await startOpenAIFake();
  t = await createTestApp({
    env: {
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
beforeEach(async () => {
  fake.reset();
  // The vendor answers a solid red picture at its own size.
  fake.images.bytes = await sharp({ create: { width: 96, height: 64, channels: 3, background: "#ff0000" } })
    .png()
    .toBuffer();
});

const edit = (user: TestUser, id: string, payload: object) =>
  t.app.inject({ method: "POST", url: `/api/media/${id}/edit`, headers: bearer(user.token), payload });

/** Our mask: opaque (repaint) in the left half of a 48x32 picture. */
async function leftHalfMask() {
  const half = await sharp({ create: { width: 24, height: 32, channels: 4, background: "#ffffffff" } })
    .png()
    .toBuffer();
  const png = await sharp({ create: { width: 48, height: 32, channels: 4, background: "#00000000" } })
    .composite([{ input: half, left: 0, top: 0 }])
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

const raw = async (png: Buffer) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

describe("editing a picture through OpenAI", () => {
  it("/api/config offers only the edits OpenAI's adapter declares (the web shows no other button)", async () => {
    const config = (await t.app.inject({ method: "GET", url: "/api/config" })).json();
    expect(config.image_edit_kinds).toEqual(["inpaint", "vary"]);
  });

  it("sends image, mask (transparent where it may paint), prompt and model as multipart; keeps the rest", async () => {
    const user = await createUser(t);
    const parent = await galleryImage(t, user.userId, "#0000ff", 48, 32);
    const res = await edit(user, parent.id, {
      kind: "inpaint",
      prompt: "a red door",
      mask: await leftHalfMask(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item.parent_id).toBe(parent.id);

    const request = fake.requests.find((r) => r.path === "/v1/images/edits");
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const form = await readMultipart(request!);
    expect(form.get("prompt")).toBe("a red door");
    expect(form.get("model")).toBe("gpt-image-1");
    expect(form.get("size")).toBe("1536x1024");
    const mask = await raw(Buffer.from(await (form.get("mask") as File).arrayBuffer()));
    expect([mask.info.width, mask.info.height]).toEqual([48, 32]);
    // Left half transparent (paint here), right half opaque (keep).
    expect(mask.data[(5 * 48 + 3) * 4 + 3]).toBe(0);
    expect(mask.data[(5 * 48 + 40) * 4 + 3]).toBe(255);

    const out = await raw((await fetchMedia(t, res.json().item.url)).body);
    expect([out.info.width, out.info.height]).toEqual([48, 32]);
    const left = out.data.subarray((10 * 48 + 5) * 4, (10 * 48 + 5) * 4 + 3);
    const right = out.data.subarray((10 * 48 + 40) * 4, (10 * 48 + 40) * 4 + 3);
    expect([...left]).toEqual([255, 0, 0]);
    expect([...right]).toEqual([0, 0, 255]);
  });

  it("a vendor failure is a 502 and the charge is refunded: one outcome per charge", async () => {
    const user = await createUser(t);
    const { balance, refunds } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#00ff00", 48, 32);
    const before = await balance(user);
    fake.failNext({ status: 500 }, "/images/edits");
    const res = await edit(user, parent.id, { kind: "vary", strength: "strong" });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toBeTruthy();
    expect(await balance(user)).toBe(before);
    const refunded = await refunds(user);
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.amount_tenths).toBe(CREDIT_COSTS.image_vary * 10);
    const gallery = await t.app.inject({ method: "GET", url: "/api/gallery", headers: bearer(user.token) });
    expect(JSON.stringify(gallery.json())).not.toContain('"parent_id":"');
  });

  it("an edit the vendor cannot make is a 400 before any charge", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const parent = await galleryImage(t, user.userId, "#00ff00", 48, 32);
    const before = await balance(user);
    const res = await edit(user, parent.id, { kind: "outpaint", prompt: "more sea", direction: "up" });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("The configured image service (openai) cannot make an extended canvas.");
    expect(await balance(user)).toBe(before);
    expect(fake.requests.filter((r) => r.path === "/v1/images/edits")).toHaveLength(0);
  });
});
