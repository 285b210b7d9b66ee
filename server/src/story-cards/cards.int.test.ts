// Story Cards through the HTTP API on a real database: create, list, change and delete, portraits from the
// gallery or uploaded, every bad input (400 naming the field, nothing changed) and other players (404).
import { CARD_DESCRIPTION_MAX_LENGTH, STORY_CARDS_MAX } from "@storyverse/contract/story-cards";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia, galleryImage } from "../../test/media";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
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

const dataUrl = async (color = "#22aa44") =>
  `data:image/png;base64,${(await samplePng(32, 32, color)).toString("base64")}`;

const mara = {
  name: "Mara",
  kind: "character",
  triggers: ["Mara", "the cartographer"],
  description: "A blind cartographer who maps by sound.",
};

describe("story cards", () => {
  it("creates, lists, changes and deletes a card with a gallery portrait", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const image = await galleryImage(t, user.userId, "#cc3322", 64, 48);
    expect((await call(user, "GET", `/api/stories/${storyId}/cards`)).json()).toEqual({
      success: true,
      cards: [],
    });

    const created = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      ...mara,
      portrait: { gallery_item_id: image.id },
    });
    expect(created.statusCode).toBe(200);
    const card = created.json().card;
    expect(card).toMatchObject({ ...mara, enabled: true, portrait: { gallery_item_id: image.id } });
    const shown = await fetchMedia(t, card.portrait.url);
    expect(shown.status).toBe(200);
    expect(shown.type).toMatch(/^image\//);

    await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Ashford",
      kind: "place",
      triggers: ["Ashford"],
    });
    const listed = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
    expect(listed.map((c: { name: string }) => c.name)).toEqual(["Mara", "Ashford"]);
    expect(listed[1]).toMatchObject({ kind: "place", description: "", portrait: null, enabled: true });

    const changed = await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, {
      enabled: false,
      triggers: ["Mara", "mara", " cartographer "],
      portrait: null,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().card).toMatchObject({
      name: "Mara",
      enabled: false,
      triggers: ["Mara", "cartographer"],
      portrait: null,
    });

    expect((await call(user, "DELETE", `/api/stories/${storyId}/cards/${card.id}`)).statusCode).toBe(200);
    const after = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
    expect(after.map((c: { name: string }) => c.name)).toEqual(["Ashford"]);
    expect((await call(user, "DELETE", `/api/stories/${storyId}/cards/${card.id}`)).statusCode).toBe(404);
    // The gallery image was only lent to the card.
    expect((await fetchMedia(t, await t.storage.signedUrl(image.storageKey))).status).toBe(200);
  });

  it("keeps an uploaded portrait as the card's own file: replaced or deleted with the card and its story", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const created = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      ...mara,
      portrait: { data: await dataUrl(), name: "mara.png" },
    });
    expect(created.statusCode).toBe(200);
    const card = created.json().card;
    expect(card.portrait).toMatchObject({ gallery_item_id: null });
    const firstKey = t.storage.keyFromUrl(card.portrait.url)!;
    expect((await fetchMedia(t, card.portrait.url)).status).toBe(200);

    // A new upload replaces the old file.
    const replaced = await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, {
      portrait: { data: await dataUrl("#aa2244") },
    });
    const secondKey = t.storage.keyFromUrl(replaced.json().card.portrait.url)!;
    expect(secondKey).not.toBe(firstKey);
    await expect(t.storage.read(firstKey)).rejects.toThrow();

    // Deleting the story deletes its cards and the portraits they uploaded; the gallery keeps its own.
    const image = await galleryImage(t, user.userId, "#cc3322", 64, 48);
    await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Lantern",
      kind: "thing",
      triggers: ["lantern"],
      portrait: { gallery_item_id: image.id },
    });
    expect((await call(user, "DELETE", `/api/stories/${storyId}`)).statusCode).toBe(200);
    await expect(t.storage.read(secondKey)).rejects.toThrow();
    expect((await t.storage.read(image.storageKey)).length).toBeGreaterThan(0);
    expect((await call(user, "GET", `/api/stories/${storyId}/cards`)).statusCode).toBe(404);
  });

  it("answers 404 to anyone but the owner, and for unknown cards", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(owner);
    const card = (await call(owner, "POST", `/api/stories/${storyId}/cards`, mara)).json().card;
    const base = `/api/stories/${storyId}/cards`;
    expect((await call(other, "GET", base)).statusCode).toBe(404);
    expect((await call(other, "POST", base, { ...mara, name: "Intruder" })).statusCode).toBe(404);
    expect((await call(other, "PUT", `${base}/${card.id}`, { enabled: false })).statusCode).toBe(404);
    expect((await call(other, "DELETE", `${base}/${card.id}`)).statusCode).toBe(404);
    // A card of another story of the owner's is not reachable through this one.
    const otherStory = await newStory(owner);
    expect(
      (await call(owner, "PUT", `/api/stories/${otherStory}/cards/${card.id}`, { enabled: false }))
        .statusCode,
    ).toBe(404);
    expect((await call(owner, "GET", base)).json().cards).toEqual([card]);
    expect((await t.app.inject({ method: "GET", url: base })).statusCode).toBe(401);
  });

  it("refuses bad input with a 400 naming the field, changing nothing", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(user);
    const base = `/api/stories/${storyId}/cards`;
    const theirs = await galleryImage(t, other.userId, "#cc3322", 64, 48);
    const existing = (await call(user, "POST", base, mara)).json().card;
    const cases: [unknown, RegExp][] = [
      [{ ...mara, name: "" }, /name/],
      [{ ...mara, name: "   " }, /name/],
      [{ ...mara, name: "x".repeat(61) }, /name/],
      [{ ...mara, name: undefined }, /name/],
      [{ ...mara, name: "Mara Two", triggers: [] }, /triggers/],
      [{ ...mara, name: "Mara Two", triggers: Array.from({ length: 11 }, (_, i) => `w${i}`) }, /triggers/],
      [{ ...mara, name: "Mara Two", triggers: ["x".repeat(41)] }, /trigger/],
      [{ ...mara, name: "Mara Two", triggers: [" "] }, /trigger/],
      [{ ...mara, name: "Mara Two", triggers: "Mara" }, /triggers/],
      [
        { ...mara, name: "Mara Two", description: "x".repeat(CARD_DESCRIPTION_MAX_LENGTH + 1) },
        /description/,
      ],
      [{ ...mara, name: "Mara Two", kind: "monster" }, /kind/],
      [{ ...mara, name: "Mara Two", enabled: "yes" }, /enabled/],
      [{ ...mara, name: "mARA" }, /name/],
      [{ ...mara, name: "Mara Two", portrait: { gallery_item_id: theirs.id } }, /portrait/],
      [{ ...mara, name: "Mara Two", portrait: { gallery_item_id: "not-an-id" } }, /portrait/],
      [
        { ...mara, name: "Mara Two", portrait: { data: "data:image/png;base64,aGVsbG8gd29ybGQ=" } },
        /portrait/,
      ],
      [{ ...mara, name: "Mara Two", portrait: { data: "https://example.com/x.png" } }, /portrait/],
      [{ ...mara, name: "Mara Two", portrait: { url: "https://example.com/x.png" } }, /portrait/],
    ];
    for (const [body, field] of cases) {
      const res = await call(user, "POST", base, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.json().detail).toMatch(field);
    }
    const updates: [unknown, RegExp][] = [
      [{}, /Nothing to update/],
      [{ name: "x".repeat(61) }, /name/],
      [{ triggers: [] }, /triggers/],
      [{ description: "x".repeat(CARD_DESCRIPTION_MAX_LENGTH + 1) }, /description/],
      [{ portrait: { gallery_item_id: theirs.id } }, /portrait/],
    ];
    for (const [body, field] of updates) {
      const res = await call(user, "PUT", `${base}/${existing.id}`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.json().detail).toMatch(field);
    }
    // A rename onto another card's name (any case) is a duplicate too.
    const second = (await call(user, "POST", base, { ...mara, name: "Ashford", kind: "place" })).json().card;
    const rename = await call(user, "PUT", `${base}/${second.id}`, { name: "MARA" });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().detail).toMatch(/name/);
    expect((await call(user, "GET", base)).json().cards).toEqual([existing, second]);
  });

  it(`holds at most ${STORY_CARDS_MAX} cards a story, even when created at once`, async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const base = `/api/stories/${storyId}/cards`;
    const results = await Promise.all(
      Array.from({ length: STORY_CARDS_MAX + 5 }, (_, i) =>
        call(user, "POST", base, { name: `Card ${i}`, triggers: [`word${i}`] }),
      ),
    );
    const refused = results.filter((res) => res.statusCode === 400);
    expect(results.filter((res) => res.statusCode === 200)).toHaveLength(STORY_CARDS_MAX);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json().detail).toMatch(/at most 100 cards/);
    expect((await call(user, "GET", base)).json().cards).toHaveLength(STORY_CARDS_MAX);
    const oneMore = await call(user, "POST", base, { name: "One more", triggers: ["more"] });
    expect(oneMore.statusCode).toBe(400);
  });
});
