// A Story Card's reference pictures (issue 45 item 3, decision 0161) through the HTTP API on a real database:
// up to four (views, outfits), the portrait first, each a gallery image of the player's or an upload; they
// round-trip through the API, the limits are a 400 that changes nothing, and a turn with the card active sends
// all four to the painter (Seedream 4 on BytePlus ModelArk, its fake speaking its wire format) after the
// player's selected image. A story backup carries them and a restore brings them back.
import {
  KEPT_REFERENCE_UNKNOWN_DETAIL,
  PORTRAIT_AND_REFERENCES_DETAIL,
  REFERENCE_NOT_YOURS_DETAIL,
  TOO_MANY_CARD_REFERENCES_DETAIL,
} from "@storyverse/contract/story-cards";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type BytePlusFake, startBytePlusFake } from "../../test/fakes/byteplus-fake";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia, galleryImage, waitForMedia } from "../../test/media";
import { uploadBackup } from "../../test/restore-backup";

let fake: BytePlusFake;
let t: TestApp;
beforeAll(async () => {
  fake = await startBytePlusFake();
  t = await createTestApp({
    env: { IMAGE_PROVIDER: "byteplus", IMAGE_BASE_URL: fake.baseUrl, IMAGE_API_KEY: fake.apiKey },
    tickingClock: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), fake?.close()]);
});
beforeEach(() => {
  fake.reset();
  fake.images.itemErrors = "none";
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
  return (await call(user, "POST", "/api/stories", { title: "The Four Views", context: "" })).json().story
    .id as string;
}

const dataUrl = async (color: string) =>
  `data:image/png;base64,${(await samplePng(32, 32, color)).toString("base64")}`;

type Reference = { url: string; gallery_item_id: string | null };
type Card = { id: string; portrait: Reference | null; references: Reference[] };

const cardsOf = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as Card[];

/** The colour a stored or sent picture mostly is: red, green, blue, yellow, or other. */
async function colourOf(picture: Buffer): Promise<string> {
  const [r, g, b] = (await sharp(picture).stats()).channels.map((c) => c.mean);
  const high = (value: number | undefined) => (value ?? 0) > 170;
  const low = (value: number | undefined) => (value ?? 0) < 80;
  if (high(r) && high(g) && low(b)) return "yellow";
  if (high(r) && low(g) && low(b)) return "red";
  if (low(r) && high(g) && low(b)) return "green";
  if (low(r) && low(g) && high(b)) return "blue";
  return "other";
}

const colourAt = async (url: string) => colourOf((await fetchMedia(t, url)).body);

/** A card named Mara with four pictures: two gallery images and two uploads, in that mixed order. */
async function maraWithFour(user: TestUser, storyId: string) {
  const red = await galleryImage(t, user.userId, "#e01010");
  const blue = await galleryImage(t, user.userId, "#1010e0");
  const res = await call(user, "POST", `/api/stories/${storyId}/cards`, {
    name: "Mara",
    kind: "character",
    triggers: ["Mara"],
    description: "A cartographer in a long coat.",
    references: [
      { gallery_item_id: red.id },
      { data: await dataUrl("#10e010"), name: "side.png" },
      { gallery_item_id: blue.id },
      { data: await dataUrl("#f0f010"), name: "outfit.png" },
    ],
  });
  expect(res.statusCode, res.body).toBe(200);
  return { card: res.json().card as Card, red, blue };
}

describe("a story card's reference pictures", () => {
  it("keeps four pictures in order, the portrait first, and round-trips them through the API", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const { card, red, blue } = await maraWithFour(user, storyId);
    expect(card.references.map((reference) => reference.gallery_item_id)).toEqual([
      red.id,
      null,
      blue.id,
      null,
    ]);
    expect(card.portrait?.gallery_item_id).toBe(red.id);
    const [listed] = await cardsOf(user, storyId);
    expect(listed!.references.map((reference) => reference.gallery_item_id)).toEqual([
      red.id,
      null,
      blue.id,
      null,
    ]);
    expect(await Promise.all(listed!.references.map((reference) => colourAt(reference.url)))).toEqual([
      "red",
      "green",
      "blue",
      "yellow",
    ]);

    // A new portrait alone replaces the first picture and keeps the others.
    const green = await galleryImage(t, user.userId, "#10e010");
    const newPortrait = await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, {
      portrait: { gallery_item_id: green.id },
    });
    expect(newPortrait.statusCode, newPortrait.body).toBe(200);
    expect((newPortrait.json().card as Card).references.map((r) => r.gallery_item_id)).toEqual([
      green.id,
      null,
      blue.id,
      null,
    ]);

    // Sending the list replaces them all: the uploads the card no longer shows are deleted.
    const uploadUrls = listed!.references.filter((reference) => !reference.gallery_item_id).map((r) => r.url);
    const fewer = await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, {
      references: [{ gallery_item_id: blue.id }, { gallery_item_id: red.id }],
    });
    expect(fewer.statusCode, fewer.body).toBe(200);
    expect((fewer.json().card as Card).references.map((r) => r.gallery_item_id)).toEqual([blue.id, red.id]);
    expect((fewer.json().card as Card).portrait?.gallery_item_id).toBe(blue.id);
    for (const url of uploadUrls) expect((await fetchMedia(t, url)).status).toBe(404);

    // Removing the portrait makes the next picture the portrait.
    const noPortrait = await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, {
      portrait: null,
    });
    expect((noPortrait.json().card as Card).references.map((r) => r.gallery_item_id)).toEqual([red.id]);
    expect((noPortrait.json().card as Card).portrait?.gallery_item_id).toBe(red.id);
    const none = await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, { references: [] });
    expect(none.json().card).toMatchObject({ portrait: null, references: [] });
  });

  it("keeps one of the card's own uploads named by its url when the list is sent again, and deletes the one left out", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const { card, blue } = await maraWithFour(user, storyId);
    const [, green, , yellow] = card.references;
    const url = `/api/stories/${storyId}/cards/${card.id}`;
    const kept = await call(user, "PUT", url, {
      references: [{ kept_url: green!.url }, { gallery_item_id: blue.id }],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const now = kept.json().card as Card;
    expect(now.references.map((r) => r.gallery_item_id)).toEqual([null, blue.id]);
    expect(await colourAt(now.portrait!.url)).toBe("green");
    expect((await fetchMedia(t, green!.url)).status).toBe(200);
    expect((await fetchMedia(t, yellow!.url)).status).toBe(404);

    // A url that names none of the card's own pictures is refused, and nothing changes.
    const other = await createUser(t);
    const theirs = (await maraWithFour(other, await newStory(other))).card.references[1]!;
    const foreign = await call(user, "PUT", url, { references: [{ kept_url: theirs.url }] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toBe(KEPT_REFERENCE_UNKNOWN_DETAIL);
    expect((await cardsOf(user, storyId))[0]!.references.map((r) => r.gallery_item_id)).toEqual([
      null,
      blue.id,
    ]);
  });

  it("refuses a fifth picture, another player's picture, or a portrait sent beside the list, changing nothing", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(user);
    const { card } = await maraWithFour(user, storyId);
    const before = await cardsOf(user, storyId);
    const mine = await galleryImage(t, user.userId, "#e01010");
    const theirs = await galleryImage(t, other.userId, "#e01010");
    const url = `/api/stories/${storyId}/cards/${card.id}`;

    const five = await call(user, "PUT", url, {
      references: Array.from({ length: 5 }, () => ({ gallery_item_id: mine.id })),
    });
    expect(five.statusCode).toBe(400);
    expect(five.json().detail).toContain(TOO_MANY_CARD_REFERENCES_DETAIL);

    const foreign = await call(user, "PUT", url, {
      references: [{ gallery_item_id: mine.id }, { gallery_item_id: theirs.id }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toBe(REFERENCE_NOT_YOURS_DETAIL);

    const both = await call(user, "PUT", url, {
      portrait: { gallery_item_id: mine.id },
      references: [{ gallery_item_id: mine.id }],
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().detail).toContain(PORTRAIT_AND_REFERENCES_DETAIL);

    const created = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Ivo",
      triggers: ["Ivo"],
      references: [{ gallery_item_id: theirs.id }],
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().detail).toBe(REFERENCE_NOT_YOURS_DETAIL);

    // Nothing changed: the same card with the same four pictures, and no new card.
    const after = await cardsOf(user, storyId);
    expect(after.map((c) => c.id)).toEqual([card.id]);
    expect(after[0]!.references.map((r) => r.gallery_item_id)).toEqual(
      before[0]!.references.map((r) => r.gallery_item_id),
    );
    // The other player cannot see or change the card at all.
    expect((await call(other, "PUT", url, { references: [] })).statusCode).toBe(404);
  });

  it("sends all four pictures to the painter when the card is active, after the player's selected image", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await maraWithFour(user, storyId);
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Mara unrolls a map by the fire.",
      chat_mode: "image",
      inputImages: [{ data: await dataUrl("#ffffff"), name: "fire.png", role: "style" }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const done = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${res.json().message_id}`,
    );
    expect(done.status).toBe("completed");
    const request = fake.requests.find((r) => r.path === "/api/v3/images/generations");
    const sent = (request?.json as { image?: string[] }).image ?? [];
    // Seedream 4 takes its references inline as data URLs: the selected picture, then Mara's four, in order.
    expect(sent).toHaveLength(5);
    const colours = await Promise.all(
      sent.map((url) => colourOf(Buffer.from(url.replace(/^data:[^,]*,/, ""), "base64"))),
    );
    expect(colours).toEqual(["other", "red", "green", "blue", "yellow"]);
    // Seedream reads roles from the prompt: the player's picture keeps the style role it was sent with, and
    // Mara's four pictures are named as the character.
    const prompt = (request?.json as { prompt: string }).prompt;
    for (const n of [2, 3, 4, 5]) {
      expect(prompt).toContain(
        `Image ${n} shows a character in the scene: keep their face, build and clothes.`,
      );
    }
    expect(prompt).toContain(
      "Image 1 is a style reference: take its look (palette, light, medium), not its subject.",
    );
  });

  it("asks before a gallery picture one of the card's views shows is deleted, and the card then lists the rest", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const { card, blue } = await maraWithFour(user, storyId);
    const refused = await call(user, "DELETE", `/api/media/${blue.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "media_in_use",
      used_in: [{ story_id: storyId, story_title: "The Four Views", shared: false }],
    });
    expect((await cardsOf(user, storyId))[0]!.references).toHaveLength(4);
    const confirmed = await call(user, "DELETE", `/api/media/${blue.id}?confirm=1`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const [after] = await cardsOf(user, storyId);
    expect(after!.id).toBe(card.id);
    expect(await Promise.all(after!.references.map((reference) => colourAt(reference.url)))).toEqual([
      "red",
      "green",
      "yellow",
    ]);
  });

  it("carries the four pictures in a story backup, and a restore brings them back as the restorer's", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const storyId = await newStory(alice);
    await maraWithFour(alice, storyId);
    const backup = await call(alice, "GET", `/api/stories/${storyId}/backup`);
    expect(backup.statusCode).toBe(200);
    const upload = await uploadBackup(t, bob, backup.rawPayload);
    expect(upload.statusCode, upload.body).toBe(200);
    const id = upload.json().restore.id as string;
    expect((await call(bob, "POST", `/api/stories/restore/${id}/confirm`)).statusCode).toBe(202);
    let restored: { status: string; story: { id: string } | null } | undefined;
    for (let i = 0; i < 600; i++) {
      restored = (await call(bob, "GET", `/api/stories/restore/${id}`)).json().restore;
      if (restored?.status === "completed" || restored?.status === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(restored?.status).toBe("completed");
    const [card] = await cardsOf(bob, restored!.story!.id);
    expect(card!.references).toHaveLength(4);
    expect(await Promise.all(card!.references.map((reference) => colourAt(reference.url)))).toEqual([
      "red",
      "green",
      "blue",
      "yellow",
    ]);
    // Bob's own files: the uploads under his keys, nothing of Alice's named.
    for (const reference of card!.references) {
      expect(t.storage.keyFromUrl(reference.url) ?? "").toMatch(new RegExp(`^u/${bob.userId}/`));
    }
  });
});
