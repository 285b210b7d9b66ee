// The Studio with no vendor at all (the default install): offline images at 2K and an advisor-style answer.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser } from "../../test/factories";
import { fetchMedia } from "../../test/media";

let t: TestApp;
beforeAll(async () => {
  // Full-size pictures are the subject here (test apps paint small ones otherwise).
  t = await createTestApp({ env: { OFFLINE_MEDIA_SCALE: "1" } });
});
afterAll(async () => {
  await t?.cleanup();
});

describe("the Studio with the offline providers", () => {
  it("makes a batch of 4 different 2K images from a prompt and an input, for 6 credits", async () => {
    const user = await createUser(t);
    const input = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#aa2244" } })
      .png()
      .toBuffer();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/studio/generate-image",
      headers: bearer(user.token),
      payload: {
        prompt: "A clockwork owl on a library shelf, warm lamplight",
        batch_size: 4,
        input_images: [{ data: `data:image/png;base64,${input.toString("base64")}`, name: "owl.png" }],
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.images).toHaveLength(4);
    expect(body.quota_info).toMatchObject({ remaining: 9, charged: 6 });
    const files = await Promise.all(body.images.map((url: string) => fetchMedia(t, url)));
    const meta = await sharp(files[0]!.body).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeGreaterThanOrEqual(2048);
    // A batch is four takes on the prompt, not one image four times.
    expect(new Set(files.map((file) => file.body.toString("base64"))).size).toBe(4);
  }, 60_000);

  it("the advisor answers in Markdown for 0.5 credits", async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/studio/advisor-chat",
      headers: bearer(user.token),
      payload: { prompt: "How do I make my dragon prompt better?" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().response.length).toBeGreaterThan(40);
    expect(res.json().quota_info).toMatchObject({ remaining: 14.5, charged: 0.5 });
  });
});
