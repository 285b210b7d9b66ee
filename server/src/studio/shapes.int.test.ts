// Seeds and shapes (issue 45 item 2, decision 0149) over HTTP with the offline painter at full size: a Studio
// batch in any of the six shapes is 2K on the long side; every picture keeps its seed (seed, seed + 1, ...) and
// the same seed with the same prompt repeats a picture byte for byte, made at once or queued; a story's scene
// in a new shape keeps its seed too; bad shapes and seeds are a 400 with a detail and nothing charged.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { fetchMedia, waitForMedia } from "../../test/media";
import { ledgerSum } from "../credits/repo";

let t: TestApp;
beforeAll(async () => {
  // Full-size pictures are the subject here (test apps paint small ones otherwise).
  t = await createTestApp({ env: { OFFLINE_MEDIA_SCALE: "1" } });
});
afterAll(async () => {
  await t?.cleanup();
});

type Item = { id: string; url: string; seed: number | null; width: number | null; height: number | null };

const generate = (user: TestUser, payload: object, prefer?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/studio/generate-image",
    headers: { ...bearer(user.token), ...(prefer ? { prefer } : {}) },
    payload,
  });
const getJson = async (user: TestUser, url: string) =>
  (await t.app.inject({ method: "GET", url, headers: bearer(user.token) })).json();
const balance = async (user: TestUser): Promise<number> =>
  (await getJson(user, "/api/credit-balance")).remaining;
async function picture(url: string) {
  const file = await fetchMedia(t, url);
  const meta = await sharp(file.body).metadata();
  return { bytes: file.body, width: meta.width, height: meta.height };
}

const PROMPT = "A paper lantern festival over a river, night";

describe("Studio batches take a shape and a seed", () => {
  it("a 9:16 batch of 2 from seed 4242 is upright at 2K and keeps seeds 4242 and 4243", async () => {
    const user = await createUser(t);
    const res = await generate(user, { prompt: PROMPT, batch_size: 2, aspect_ratio: "9:16", seed: 4242 });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as Item[];
    expect(items.map((item) => [item.seed, item.width, item.height])).toEqual([
      [4242, 1152, 2048],
      [4243, 1152, 2048],
    ]);
    const first = await picture(items[0]!.url);
    expect([first.width, first.height]).toEqual([1152, 2048]);
    expect(res.json().quota_info).toMatchObject({ charged: 3 });

    // The same seed and prompt repeat the second picture alone, byte for byte; a changed prompt paints another.
    const again = await generate(user, { prompt: PROMPT, aspect_ratio: "9:16", seed: 4243 });
    const repeated = again.json().items[0] as Item;
    expect(repeated.seed).toBe(4243);
    expect((await picture(repeated.url)).bytes.equals((await picture(items[1]!.url)).bytes)).toBe(true);
    const changed = await generate(user, {
      prompt: `${PROMPT}, with fireworks`,
      aspect_ratio: "9:16",
      seed: 4243,
    });
    expect(changed.json().items[0].seed).toBe(4243);
    expect((await picture(changed.json().items[0].url)).bytes.equals(first.bytes)).toBe(false);

    // The Gallery and its details carry the seed.
    const gallery = await getJson(user, "/api/gallery");
    expect((gallery.items as Item[]).map((item) => item.seed).sort()).toEqual([4242, 4243, 4243, 4243]);
    const details = await getJson(user, `/api/media/${items[0]!.id}/details`);
    expect(details).toMatchObject({ seed: 4242, width: 1152, height: 2048 });
  }, 90_000);

  it("paints each of the six shapes 2K on the long side; without a seed each picture gets its own", async () => {
    const user = await createUser(t);
    const sizes: Record<string, [number, number]> = {
      "1:1": [2048, 2048],
      "4:3": [2048, 1536],
      "3:4": [1536, 2048],
      "16:9": [2048, 1152],
      "9:16": [1152, 2048],
      "21:9": [2048, 878],
    };
    for (const [aspectRatio, size] of Object.entries(sizes)) {
      const res = await generate(user, { prompt: "A fox in snow", aspect_ratio: aspectRatio });
      expect(res.statusCode, res.body).toBe(200);
      const item = res.json().items[0] as Item;
      const painted = await picture(item.url);
      expect([painted.width, painted.height], aspectRatio).toEqual(size);
      expect(Number.isInteger(item.seed) && item.seed! >= 0 && item.seed! <= 4_294_967_295).toBe(true);
    }
    // Without aspect_ratio a batch is 4:3, as before.
    const plain = await generate(user, { prompt: "A fox in snow", batch_size: 2 });
    const [a, b] = plain.json().items as Item[];
    expect([a!.width, a!.height]).toEqual([2048, 1536]);
    expect(b!.seed).toBe((a!.seed! + 1) % 2 ** 32);
  }, 120_000);

  it("refuses a bad shape or seed with a 400 that says why, charging and keeping nothing", async () => {
    const user = await createUser(t);
    const bad: [object, string][] = [
      [{ aspect_ratio: "2:3" }, "aspect_ratio must be one of 1:1, 4:3, 3:4, 16:9, 9:16 or 21:9"],
      [{ aspect_ratio: "16x9" }, "aspect_ratio must be one of 1:1, 4:3, 3:4, 16:9, 9:16 or 21:9"],
      [{ aspect_ratio: 1.5 }, "aspect_ratio must be one of 1:1, 4:3, 3:4, 16:9, 9:16 or 21:9"],
      [{ seed: -1 }, "seed must be a whole number from 0 to 4294967295"],
      [{ seed: 1.5 }, "seed must be a whole number from 0 to 4294967295"],
      [{ seed: 4_294_967_296 }, "seed must be a whole number from 0 to 4294967295"],
      [{ seed: "12" }, "seed must be a whole number from 0 to 4294967295"],
    ];
    for (const [extra, detail] of bad) {
      for (const prefer of [undefined, "respond-async"]) {
        const res = await generate(user, { prompt: PROMPT, ...extra }, prefer);
        expect(res.statusCode, JSON.stringify(extra)).toBe(400);
        expect(res.json().detail).toContain(detail);
      }
    }
    expect(await balance(user)).toBe(15);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(150);
    expect((await getJson(user, "/api/gallery")).items).toEqual([]);
    expect((await getJson(user, "/api/studio/messages")).messages).toEqual([]);
  });

  it("a queued batch keeps its shape and seeds, and repeats what the same seed made at once", async () => {
    const user = await createUser(t);
    const res = await generate(
      user,
      { prompt: PROMPT, batch_size: 2, aspect_ratio: "21:9", seed: 77 },
      "respond-async",
    );
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().message_id as string;
    const deadline = Date.now() + 60_000;
    let batch = await getJson(user, `/api/studio/batches/${id}`);
    while (batch.status === "pending" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      batch = await getJson(user, `/api/studio/batches/${id}`);
    }
    expect(batch.status).toBe("completed");
    const items = batch.items as Item[];
    expect(items.map((item) => [item.seed, item.width, item.height])).toEqual([
      [77, 2048, 878],
      [78, 2048, 878],
    ]);
    const now = await generate(user, { prompt: PROMPT, aspect_ratio: "21:9", seed: 78 });
    const same = (await picture(now.json().items[0].url)).bytes;
    expect(same.equals((await picture(items[1]!.url)).bytes)).toBe(true);
  }, 90_000);
});

describe("stories' scenes take the six shapes and keep their seed", () => {
  it("paints a 9:16 story's scene upright at 2K, its gallery item knowing its seed", async () => {
    const user = await createUser(t);
    const story = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: bearer(user.token),
      payload: { title: "The Tall Tower", context: "A tower above the clouds." },
    });
    const storyId = story.json().story.id as string;
    const settings = await t.app.inject({
      method: "PUT",
      url: `/api/stories/${storyId}/settings`,
      headers: bearer(user.token),
      payload: { aspect_ratio: "9:16" },
    });
    expect(settings.json()).toMatchObject({ aspect_ratio: "9:16" });
    const turn = await t.app.inject({
      method: "POST",
      url: `/api/stories/${storyId}/chat`,
      headers: bearer(user.token),
      payload: { prompt: "I climb the stairs" },
    });
    expect(turn.statusCode, turn.body).toBe(200);
    const status = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${turn.json().message_id}`,
    );
    expect(status.media_generation_completed).toBe(true);
    const scene = await picture(status.image_url!);
    expect([scene.width, scene.height]).toEqual([1152, 2048]);
    const [item] = (await getJson(user, "/api/gallery")).items as Item[];
    expect(Number.isInteger(item!.seed)).toBe(true);
  }, 90_000);
});
