// The audit's disk attack through Story Card portraits (N3), replayed: a player with no credits sent 30
// cards with 9 MB portraits (decision 0067) and the server kept all 276 MB. Now an upload is kept as a small WebP,
// a player has one upload in flight at a time, uploads are limited per user, and an account keeps at most
// PORTRAIT_UPLOADS_MAX of them.

import { randomBytes } from "node:crypto";
import {
  PORTRAIT_MAX_EDGE,
  PORTRAIT_UPLOADS_MAX,
  TOO_MANY_PORTRAITS_DETAIL,
} from "@storyverse/contract/story-cards";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia, galleryImage } from "../../test/media";
import { charge } from "../credits/service";
import { PORTRAIT_BUSY_DETAIL } from "./portrait-gate";
import {
  MAX_CONCURRENT_PORTRAIT_ENCODES,
  PORTRAIT_MAX_STORED_BYTES,
  portraitEncodingActivity,
} from "./portraits";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function newStory(user: TestUser) {
  const res = await call(user, "POST", "/api/stories", { title: "The Ember Crown", context: "" });
  return res.json().story.id as string;
}

/** A player who has spent every credit (cards are free: the attack needs none). */
async function brokePlayer() {
  const user = await createUser(t);
  await charge(t.ctx.db, user.userId, "image", 10, t.clock.now(), "spent elsewhere");
  return user;
}

/** A PNG of random pixels: it hardly compresses, so 1700 x 1700 is about 9 MB, as in the audit. */
async function noisePng(side: number): Promise<Buffer> {
  const raw = randomBytes(side * side * 3);
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`;
const card = (name: string, portrait: unknown) => ({ name, triggers: [name], portrait });

/** Every uploaded portrait the player's cards show, as stored: bytes, format and size. */
async function keptPortraits(user: TestUser, storyId: string) {
  const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as {
    portrait: { url: string; gallery_item_id: string | null } | null;
  }[];
  return Promise.all(
    cards
      .filter((c) => c.portrait && c.portrait.gallery_item_id === null)
      .map(async (c) => {
        const file = await fetchMedia(t, c.portrait!.url);
        const meta = await sharp(file.body).metadata();
        return { bytes: file.body.length, format: meta.format, edge: Math.max(meta.width, meta.height) };
      }),
  );
}

describe("uploaded card portraits (audit N3)", () => {
  it("replays 30 cards with large portraits from a player with no credits: 20 kept as small WebPs, 10 refused with 429", async () => {
    const user = await brokePlayer();
    const storyId = await newStory(user);
    // The audit's 30 requests at a third of its size (3.6 MB each, still over 1024 px; the next test sends
    // the full 9 MB), so the suite stays quick.
    const portrait = dataUrl(await noisePng(1100));
    expect(portrait.length).toBeGreaterThan(1024 * 1024);

    const answers = [];
    for (let i = 0; i < 30; i += 1) {
      answers.push(
        await call(user, "POST", `/api/stories/${storyId}/cards`, card(`Card ${i}`, { data: portrait })),
      );
    }
    expect(answers.slice(0, 20).map((res) => res.statusCode)).toEqual(Array(20).fill(200));
    const refused = answers.slice(20);
    expect(refused.map((res) => res.statusCode)).toEqual(Array(10).fill(429));
    expect(refused[0]!.json().detail).toMatch(
      /^You can upload at most 20 portraits in 10 minutes\. Please wait/,
    );
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);

    const kept = await keptPortraits(user, storyId);
    expect(kept).toHaveLength(20);
    for (const file of kept) {
      expect(file.format).toBe("webp");
      expect(file.edge).toBeLessThanOrEqual(PORTRAIT_MAX_EDGE);
      expect(file.bytes).toBeLessThanOrEqual(PORTRAIT_MAX_STORED_BYTES);
    }
    // The audit kept 276 MB; at most 20 x 512 KB now.
    const total = kept.reduce((sum, file) => sum + file.bytes, 0);
    expect(total).toBeLessThanOrEqual(20 * PORTRAIT_MAX_STORED_BYTES);

    // Ten minutes later the player may upload again.
    t.clock.advance(10 * 60_000);
    const later = await call(
      user,
      "POST",
      `/api/stories/${storyId}/cards`,
      card("Later", { data: portrait }),
    );
    expect(later.statusCode).toBe(200);
  });

  it("takes one portrait upload at a time per player: six 9 MB portraits sent at once keep one small WebP, the rest get 429 before their bodies are read", async () => {
    const user = await brokePlayer();
    const storyId = await newStory(user);
    const portrait = dataUrl(await noisePng(1700));
    expect(portrait.length).toBeGreaterThan(12_000_000);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(user, "POST", `/api/stories/${storyId}/cards`, card(`At once ${i}`, { data: portrait })),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json().detail).toBe(PORTRAIT_BUSY_DETAIL);
    const kept = await keptPortraits(user, storyId);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ format: "webp" });
    expect(kept[0]!.edge).toBeLessThanOrEqual(PORTRAIT_MAX_EDGE);
    expect(kept[0]!.bytes).toBeLessThanOrEqual(PORTRAIT_MAX_STORED_BYTES);
    // However many players upload at once, the process re-encodes at most its bound.
    expect(portraitEncodingActivity().peakRunning).toBeLessThanOrEqual(MAX_CONCURRENT_PORTRAIT_ENCODES);
  });

  it(`keeps at most ${PORTRAIT_UPLOADS_MAX} uploaded portraits an account: the next is refused with 413, while replacing one, a gallery portrait or a freed place still work`, async () => {
    const user = await brokePlayer();
    const stories = [await newStory(user), await newStory(user)];
    const small = dataUrl(await samplePng(16, 16, "#3366aa"));
    const ids: string[] = [];
    for (let i = 0; i < PORTRAIT_UPLOADS_MAX; i += 1) {
      // The upload limit allows 20 every 10 minutes.
      if (i > 0 && i % 20 === 0) t.clock.advance(10 * 60_000);
      const storyId = stories[i % 2]!;
      const res = await call(
        user,
        "POST",
        `/api/stories/${storyId}/cards`,
        card(`Many ${i}`, { data: small }),
      );
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().card.id);
    }
    t.clock.advance(10 * 60_000);
    const over = await call(
      user,
      "POST",
      `/api/stories/${stories[0]}/cards`,
      card("One more", { data: small }),
    );
    expect(over.statusCode).toBe(413);
    expect(over.json().detail).toBe(TOO_MANY_PORTRAITS_DETAIL);
    const onto = await call(user, "PUT", `/api/stories/${stories[0]}/cards/${ids[2]}`, {
      portrait: { data: small },
    });
    // ids[2] is in stories[0] (even index): replacing its own upload keeps the count.
    expect(onto.statusCode, onto.body).toBe(200);

    const image = await galleryImage(t, user.userId, "#cc3322", 64, 48);
    const fromGallery = await call(
      user,
      "POST",
      `/api/stories/${stories[0]}/cards`,
      card("From the gallery", { gallery_item_id: image.id }),
    );
    expect(fromGallery.statusCode).toBe(200);

    expect((await call(user, "DELETE", `/api/stories/${stories[0]}/cards/${ids[0]}`)).statusCode).toBe(200);
    const freed = await call(
      user,
      "POST",
      `/api/stories/${stories[0]}/cards`,
      card("Freed", { data: small }),
    );
    expect(freed.statusCode).toBe(200);
    const kept = [...(await keptPortraits(user, stories[0]!)), ...(await keptPortraits(user, stories[1]!))];
    expect(kept).toHaveLength(PORTRAIT_UPLOADS_MAX);
  });
});
