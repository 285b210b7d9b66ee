// Whole-story backup and restore through the HTTP API on a real database: a story played with the offline
// providers (real scene pictures, a retried answer with two versions, an edited message), with Memory, note,
// summary, lore settings and cards with portraits, is backed up and restored by ANOTHER user as a new story
// with the same messages, versions, cards and settings, its media stored under the new user's keys and in
// the new user's gallery; the first story is untouched. Bad archives are a 400 that creates nothing.
import { readdir } from "node:fs/promises";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { ZipFile } from "yazl";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { fetchMedia, waitForMedia } from "../../test/media";
import { uploadBackup } from "../../test/restore-backup";
import { stories, storyCards } from "../db/schema";
import { IMPORT_BUSY_DETAIL, withImportSlot } from "./import-gate";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PUT" | "PATCH";
const call = (user: TestUser, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function paintedTurn(user: TestUser, storyId: string, prompt: string, mode = "image") {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  expect(res.statusCode).toBe(200);
  const id = res.json().message_id as string;
  const done = await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${id}`);
  expect(done.status).toBe("completed");
  return id;
}

/** Polls a confirmed restore until it has ended; its GET answer. */
async function waitForRestore(user: TestUser, id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call(user, "GET", `/api/stories/restore/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json().restore.status as string;
    if (status === "completed" || status === "failed") return res;
    if (Date.now() > deadline) throw new Error(`restore ${id} still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The whole restore as a player does it: upload (the preview), confirm, poll until done. A refused upload is
 * its own answer; otherwise the last poll's, whose json() is the restore (status, story, notes, error).
 */
async function restore(user: TestUser, data: Buffer) {
  const upload = await uploadBackup(t, user, data);
  if (upload.statusCode !== 200) return upload;
  const id = upload.json().restore.id as string;
  const confirmed = await call(user, "POST", `/api/stories/restore/${id}/confirm`);
  expect(confirmed.statusCode, confirmed.body).toBe(202);
  const done = await waitForRestore(user, id);
  return { statusCode: done.statusCode, body: done.body, json: () => done.json().restore };
}

/** A restore that completed, and the restored story. */
async function restored(user: TestUser, data: Buffer) {
  const res = await restore(user, data);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json(), res.body).toMatchObject({ status: "completed", error: null });
  return res.json() as {
    story: { id: string; title: string; message_count: number };
    notes: { name: string; reason: string }[];
  };
}

/** The names and bytes of every file in a zip. */
function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(data, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(files));
      zip.readEntry();
    });
  });
}

function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of Object.entries(files)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

async function storedFiles(): Promise<number> {
  const dir = (t.config.storage as { dir: string }).dir;
  const names = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return names.filter((entry) => entry.isFile()).length;
}

async function counts() {
  const { rows } = await t.database.executeSql(
    `select (select count(*)::int from stories) as stories, (select count(*)::int from chat_messages) as messages,
            (select count(*)::int from media_items) as media, (select count(*)::int from story_cards) as cards`,
  );
  const row = rows[0] as { stories: number; messages: number; media: number; cards: number };
  return { ...row, files: await storedFiles() };
}

const keyOf = (url: string) => t.storage.keyFromUrl(url) ?? "";

async function chatTurn(user: TestUser, storyId: string, prompt: string) {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat" });
  expect(res.statusCode, res.body).toBe(200);
}

type Draft = { id: string; name: string; triggers: string[] };
const offeredDrafts = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/lore-suggestions`)).json().suggestions as Draft[];

/**
 * Polls the drafts until one is offered for each of `triggers` (living lore reads a turn in the worker, after
 * it; the offline narrator writes a place with or without its article).
 */
async function waitForDrafts(user: TestUser, storyId: string, triggers: string[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const offered = await offeredDrafts(user, storyId);
    if (triggers.every((word) => offered.some((draft) => draft.triggers[0] === word))) return offered;
    if (Date.now() > deadline) throw new Error(`no drafts ${triggers}: ${JSON.stringify(offered)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("story backup and restore", () => {
  it("restores a played story as another user's new story: messages with versions, cards with portraits, settings, media under the new user's keys and in their gallery", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const storyId = (
      await call(alice, "POST", "/api/stories", { title: "The Drowned Bell", context: "A harbour town." })
    ).json().story.id as string;
    expect(
      (
        await call(alice, "PUT", `/api/stories/${storyId}/memory`, {
          memory: "Mara is a lighthouse keeper.",
          authors_note: "Keep it eerie.",
          summary: "Mara heard the bell ring under the sea.",
        })
      ).statusCode,
    ).toBe(200);
    await t.ctx.db
      .update(stories)
      .set({
        narratorInstructions: "You are Mara's narrator. {{original}}",
        postHistoryInstructions: "Stay in the harbour.",
        creatorNotes: "Made for the test.",
        characterName: "Mara",
        loreBudgetPercent: 30,
        loreScanDepth: 7,
      })
      .where(eq(stories.id, storyId));

    const first = await paintedTurn(alice, storyId, "I climb the lighthouse");
    const second = await paintedTurn(alice, storyId, "I ring the bell");
    const retried = await call(alice, "POST", `/api/stories/${storyId}/messages/${second}/retry`, {
      chat_mode: "image",
    });
    expect(retried.statusCode).toBe(200);
    await waitForMedia(t, alice.token, `/api/stories/${storyId}/media-status/${retried.json().message_id}`);
    expect(
      (
        await call(alice, "PATCH", `/api/stories/${storyId}/messages/${first}`, {
          content: "The lamp is cold. (edited)",
        })
      ).statusCode,
    ).toBe(200);

    await paintedTurn(alice, storyId, "I watch the waves", "video");

    const gallery = (await call(alice, "GET", "/api/gallery")).json().items as {
      id: string;
      story_id: string;
      type: string;
    }[];
    const scene = gallery.find((item) => item.story_id === storyId && item.type === "image")!;
    const uploaded = `data:image/png;base64,${(await samplePng(48, 48, "#d01010")).toString("base64")}`;
    const mara = await call(alice, "POST", `/api/stories/${storyId}/cards`, {
      name: "Mara",
      kind: "character",
      triggers: ["Mara", "keeper"],
      description: "A keeper with salt in her hair.",
      portrait: { data: uploaded },
      appearance: "A torn grey cloak; carries a brass lantern.",
    });
    expect(mara.statusCode).toBe(200);
    // What the camera sees of the scene goes with the story.
    const scened = await call(alice, "PUT", `/api/stories/${storyId}/scene-state`, {
      place: "the harbour wall",
      time_of_day: "night",
      weather: "sea fog",
    });
    expect(scened.statusCode).toBe(200);
    const bell = await call(alice, "POST", `/api/stories/${storyId}/cards`, {
      name: "The Bell",
      kind: "thing",
      triggers: ["bell"],
      description: "Bronze, green with age.",
      portrait: { gallery_item_id: scene.id },
    });
    expect(bell.statusCode).toBe(200);
    await t.ctx.db
      .update(storyCards)
      .set({
        secondaryTriggers: ["night"],
        selectiveLogic: "not_any",
        constant: true,
        insertionOrder: 5,
        priority: 40,
        caseSensitive: true,
        extensions: { depth: 4, sillytavern: { probability: 80 } },
        characterCard: { name: "Mara", creator_notes: "hi", tags: ["sea"] },
      })
      .where(eq(storyCards.id, mara.json().card.id));

    const aliceMessages = (await call(alice, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    const aliceGalleryCount = gallery.length;

    const res = await call(alice, "GET", `/api/stories/${storyId}/backup`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(String(res.headers["content-disposition"])).toContain(
      'filename="The-Drowned-Bell.storyverse.zip"',
    );
    const files = await unzip(res.rawPayload);
    const json = JSON.parse(files.get("storyverse-story.json")!.toString("utf8"));
    expect(json).toMatchObject({ format: "storyverse-story", version: 2 });
    // Three questions, the first answer, both versions of the second and the third (a clip).
    expect(json.messages).toHaveLength(7);
    expect(json.media.map((item: { kind: string }) => item.kind).sort()).toEqual([
      "image",
      "image",
      "image",
      "image",
      "video",
    ]);
    for (const item of json.media) expect(files.has(item.path)).toBe(true);
    expect(JSON.stringify(json)).not.toContain(alice.userId);

    const before = await counts();
    const upload = await uploadBackup(t, bob, res.rawPayload);
    expect(upload.statusCode, upload.body).toBe(200);
    // The preview says what the backup holds before anything is written.
    expect(upload.json().restore).toMatchObject({
      status: "previewed",
      preview: {
        title: "The Drowned Bell (restored)",
        exchanges: 3,
        branches: 1,
        checkpoints: 0,
        media: json.media.length,
      },
    });
    expect(await counts()).toEqual(before);
    const restoredBack = await restored(bob, res.rawPayload);
    const story = restoredBack.story;
    expect(story.id).not.toBe(storyId);
    expect(story).toMatchObject({
      title: "The Drowned Bell (restored)",
      context: "A harbour town.",
      message_count: 6,
    });
    expect(restoredBack.notes).toEqual([]);

    // The same story as Bob reads it: the shown messages, in order, with their versions.
    const bobMessages = (await call(bob, "GET", `/api/stories/${story.id}/messages`)).json().messages;
    expect(bobMessages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual(
      aliceMessages.map((m: { role: string; content: string }) => [m.role, m.content]),
    );
    expect(bobMessages[1].content).toBe("The lamp is cold. (edited)");
    expect(bobMessages[3]).toMatchObject({ version: 2, version_count: 2 });
    const versions = (
      await call(bob, "GET", `/api/stories/${story.id}/messages/${bobMessages[3].id}/versions`)
    ).json().versions;
    expect(versions.map((v: { selected: boolean }) => v.selected)).toEqual([false, true]);
    for (const message of bobMessages)
      expect(aliceMessages.map((m: { id: string }) => m.id)).not.toContain(message.id);

    // Its pictures are Bob's files, served, and in Bob's gallery under the new story.
    for (const message of bobMessages.filter((m: { role: string }) => m.role === "assistant")) {
      expect(keyOf(message.image_url)).toMatch(new RegExp(`^u/${bob.userId}/`));
      const picture = await fetchMedia(t, message.image_url);
      expect(picture.status).toBe(200);
      expect(picture.type).toMatch(/^image\//);
    }
    const clip = bobMessages.at(-1);
    expect(keyOf(clip.video_url)).toMatch(new RegExp(`^u/${bob.userId}/.*\\.mp4$`));
    const video = await fetchMedia(t, clip.video_url);
    expect(video).toMatchObject({ status: 200, type: "video/mp4" });
    expect(video.body.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const bobGallery = (await call(bob, "GET", "/api/gallery")).json().items as {
      id: string;
      story_id: string;
      source: string;
      url: string;
    }[];
    expect(bobGallery.length).toBe(json.media.length);
    for (const item of bobGallery) {
      expect(item).toMatchObject({ story_id: story.id, source: "story" });
      expect(keyOf(item.url)).toMatch(new RegExp(`^u/${bob.userId}/`));
    }

    // Memory, note, summary and the lore settings.
    expect((await call(bob, "GET", `/api/stories/${story.id}/memory`)).json()).toMatchObject({
      memory: "Mara is a lighthouse keeper.",
      authors_note: "Keep it eerie.",
      summary: "Mara heard the bell ring under the sea.",
    });
    const [row] = await t.ctx.db.select().from(stories).where(eq(stories.id, story.id));
    expect(row).toMatchObject({
      userId: bob.userId,
      narratorInstructions: "You are Mara's narrator. {{original}}",
      postHistoryInstructions: "Stay in the harbour.",
      creatorNotes: "Made for the test.",
      characterName: "Mara",
      loreBudgetPercent: 30,
      loreScanDepth: 7,
    });

    // Cards with every field; the uploaded portrait is Bob's own upload, the gallery one Bob's gallery item.
    const cards = (await call(bob, "GET", `/api/stories/${story.id}/cards`)).json().cards as {
      name: string;
      description: string;
      triggers: string[];
      portrait: { url: string; gallery_item_id: string | null } | null;
    }[];
    expect(cards.map((card) => card.name)).toEqual(["Mara", "The Bell"]);
    expect(cards[0]).toMatchObject({
      triggers: ["Mara", "keeper"],
      description: "A keeper with salt in her hair.",
      appearance: "A torn grey cloak; carries a brass lantern.",
    });
    expect((await call(bob, "GET", `/api/stories/${story.id}/scene-state`)).json()).toMatchObject({
      scene_state: { place: "the harbour wall", time_of_day: "night", weather: "sea fog" },
    });
    expect(cards[0]!.portrait?.gallery_item_id).toBeNull();
    expect(keyOf(cards[0]!.portrait!.url)).toMatch(new RegExp(`^u/${bob.userId}/portraits/`));
    expect((await fetchMedia(t, cards[0]!.portrait!.url)).status).toBe(200);
    expect(bobGallery.map((item) => item.id)).toContain(cards[1]!.portrait?.gallery_item_id);
    const [maraRow] = await t.ctx.db
      .select()
      .from(storyCards)
      .where(sql`${storyCards.storyId} = ${story.id} and ${storyCards.name} = 'Mara'`);
    expect(maraRow).toMatchObject({
      userId: bob.userId,
      secondaryTriggers: ["night"],
      selectiveLogic: "not_any",
      constant: true,
      insertionOrder: 5,
      priority: 40,
      caseSensitive: true,
      extensions: { depth: 4, sillytavern: { probability: 80 } },
      characterCard: { name: "Mara", creator_notes: "hi", tags: ["sea"] },
    });

    const after = await counts();
    expect(after).toMatchObject({
      stories: before.stories + 1,
      messages: before.messages + 7,
      media: before.media + json.media.length,
      cards: before.cards + 2,
    });

    // Alice's story is untouched, and her files still hers.
    const aliceAfter = (await call(alice, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    // Signed links change with time: the files behind them are compared.
    const unsigned = (messages: { image_url: string | null; video_url: string | null }[]) =>
      messages.map((m) => ({
        ...m,
        image_url: m.image_url && keyOf(m.image_url),
        video_url: m.video_url && keyOf(m.video_url),
      }));
    expect(unsigned(aliceAfter)).toEqual(unsigned(aliceMessages));
    expect((await call(alice, "GET", "/api/gallery")).json().items).toHaveLength(aliceGalleryCount);
    for (const message of aliceAfter.filter((m: { role: string }) => m.role === "assistant")) {
      expect(keyOf(message.image_url)).toMatch(new RegExp(`^u/${alice.userId}/`));
    }
  }, 120_000);

  it("answers 404 for someone else's story, and restoring is free", async () => {
    const alice = await createUser(t);
    const eve = await createUser(t);
    const storyId = (await call(alice, "POST", "/api/stories", { title: "Private", context: "" })).json()
      .story.id;
    const res = await call(eve, "GET", `/api/stories/${storyId}/backup`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("not_found");

    const backup = (await call(alice, "GET", `/api/stories/${storyId}/backup`)).rawPayload;
    const balance = async (user: TestUser) => (await call(user, "GET", "/api/credit-balance")).body;
    const before = await balance(eve);
    await restored(eve, backup);
    expect(await balance(eve)).toBe(before);
  });

  it("carries the living-lore drafts: a waiting draft waits again, a dismissed name is never offered again, within the app's limits", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const storyId = (await call(alice, "POST", "/api/stories", { title: "Salt Roads", context: "" })).json()
      .story.id as string;
    // The offline narrator repeats the player's words: names written twice become drafts.
    await chatTurn(alice, storyId, "I follow Brannoc to the Salt Gate");
    await chatTurn(alice, storyId, "I ask Brannoc about the Salt Gate");
    const drafts = await waitForDrafts(alice, storyId, ["Brannoc", "Salt Gate"]);
    const gate = drafts.find((draft) => draft.triggers[0] === "Salt Gate")!;
    const dismissed = await call(
      alice,
      "POST",
      `/api/stories/${storyId}/lore-suggestions/${gate.id}/dismiss`,
    );
    expect(dismissed.statusCode).toBe(200);

    const backup = (await call(alice, "GET", `/api/stories/${storyId}/backup`)).rawPayload;
    const files = await unzip(backup);
    const json = JSON.parse(files.get("storyverse-story.json")!.toString("utf8"));
    expect(json.lore_drafts).toHaveLength(2);
    expect(json.lore_drafts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Brannoc", kind: "character", status: "offered" }),
        expect.objectContaining({ name: gate.name, kind: "place", status: "dismissed" }),
      ]),
    );

    const copyId = (await restored(bob, backup)).story.id;
    expect((await offeredDrafts(bob, copyId)).map((draft) => draft.name)).toEqual(["Brannoc"]);
    // The restored story's next turns name the dismissed gate again and someone new: only the new one is offered.
    await chatTurn(bob, copyId, "I lead Oswin to the Salt Gate");
    await chatTurn(bob, copyId, "I show Oswin the Salt Gate");
    const later = await waitForDrafts(bob, copyId, ["Oswin"]);
    expect(later.map((draft) => draft.name)).toEqual(["Brannoc", "Oswin"]);

    // A hand-made archive past the app's limits: at most 20 drafts wait, names as long as a card's.
    const many = Array.from({ length: 25 }, (_, i) => ({
      name: `Wanderer ${String(i + 1).padStart(2, "0")}${i === 0 ? "x".repeat(80) : ""}`,
      kind: "character",
      description: "Someone on the road.",
      status: "offered",
      created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      updated_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }));
    files.set(
      "storyverse-story.json",
      Buffer.from(JSON.stringify({ ...json, lore_drafts: [...many, { ...many[1], status: "dismissed" }] })),
    );
    const crowded = await restored(bob, await zipOf(Object.fromEntries(files)));
    const waiting = await offeredDrafts(bob, crowded.story.id);
    expect(waiting).toHaveLength(20);
    expect(waiting[0]!.name).toHaveLength(60);
    // The same name listed again as dismissed stays dismissed.
    expect(waiting.map((draft) => draft.name)).not.toContain("Wanderer 02");
    expect(waiting.at(-1)!.name).toBe("Wanderer 21");
    expect(crowded.notes).toContainEqual({
      name: "Living-lore drafts",
      reason: "kept the oldest 20 of 24 waiting drafts",
    });
  }, 120_000);

  describe("bad archives: a 400 that names the problem, and nothing is created", () => {
    const picture = () => samplePng(32, 32, "#2266aa");
    const minimal = (overrides: Record<string, unknown> = {}) => ({
      format: "storyverse-story",
      version: 1,
      exported_at: "2026-01-01T00:00:00.000Z",
      story: {
        title: "Tiny",
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      },
      messages: [
        {
          id: "m1",
          role: "user",
          content: "Hello",
          mode: "image",
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        },
        {
          id: "m2",
          role: "assistant",
          content: "A door opens.",
          mode: "image",
          media_status: "completed",
          image: "media/images/0001.png",
          created_at: "2026-01-01T00:00:01.000Z",
          updated_at: "2026-01-01T00:00:01.000Z",
        },
      ],
      media: [
        {
          path: "media/images/0001.png",
          kind: "image",
          message: "m2",
          created_at: "2026-01-01T00:00:01.000Z",
        },
      ],
      cards: [],
      ...overrides,
    });

    /**
     * Refused with `detail`, and nothing kept: at the upload (a 400 before anything is written) or, for what
     * only storing can tell (a picture that does not decode, a clip that does not parse), by the job, which
     * removes what it stored before.
     */
    async function expectRefused(
      user: TestUser,
      data: Buffer,
      detail: RegExp | string,
      where: "upload" | "job" = "upload",
    ) {
      const before = await counts();
      const res = await restore(user, data);
      let said: string;
      if (where === "upload") {
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().code).toBe("invalid_file");
        said = res.json().detail;
      } else {
        expect(res.json(), res.body).toMatchObject({ status: "failed", story: null });
        said = res.json().error;
      }
      if (typeof detail === "string") expect(said).toBe(detail);
      else expect(said).toMatch(detail);
      expect(await counts()).toEqual(before);
    }

    it("restores the minimal archive these cases are made from (the control)", async () => {
      const user = await createUser(t);
      const res = await restore(
        user,
        await zipOf({
          "storyverse-story.json": JSON.stringify(minimal()),
          "media/images/0001.png": await picture(),
        }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: "completed", error: null });
      expect(res.json().story).toMatchObject({ title: "Tiny (restored)", message_count: 2 });
    });

    it("cuts what is over the app's limits and says so in the notes, never silently", async () => {
      const user = await createUser(t);
      const card = (name: string, triggers: string[], second: number) => ({
        name,
        kind: "character",
        triggers,
        created_at: `2026-01-01T00:00:0${second}.000Z`,
        updated_at: `2026-01-01T00:00:0${second}.000Z`,
      });
      const json = minimal({
        story: {
          title: "Tiny",
          memory: "m".repeat(65_500),
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        },
        cards: [card("Mara", ["Mara", "/(a+)+$/"], 1), card("mara", ["keeper"], 2)],
      });
      const res = await restore(
        user,
        await zipOf({
          "storyverse-story.json": JSON.stringify(json),
          "media/images/0001.png": await picture(),
        }),
      );
      expect(res.json()).toMatchObject({ status: "completed", error: null });
      const notes = res.json().notes as { name: string; reason: string }[];
      expect(notes).toEqual(
        expect.arrayContaining([
          { name: "Memory", reason: "cut from 65500 to 65000 characters to fit the app's limit" },
          expect.objectContaining({
            name: 'Card "Mara"',
            reason: expect.stringMatching(/^left out a trigger/),
          }),
          { name: 'Card "mara"', reason: 'renamed "mara (2)": another card has that name' },
        ]),
      );
      const storyId = res.json().story.id;
      expect((await call(user, "GET", `/api/stories/${storyId}/memory`)).json().memory).toHaveLength(65_000);
      const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
      expect(cards.map((c: { name: string; triggers: string[] }) => [c.name, c.triggers])).toEqual([
        ["Mara", ["Mara"]],
        ["mara (2)", ["keeper"]],
      ]);
    });

    it("keeps the app's rules: lore settings' limits, a trigger on every card that is not always on, one card per portrait file", async () => {
      const user = await createUser(t);
      const card = (name: string, triggers: string[], portrait: string | null) => ({
        name,
        kind: "character",
        triggers,
        portrait,
        created_at: "2026-01-01T00:00:01.000Z",
        updated_at: "2026-01-01T00:00:01.000Z",
      });
      const json = minimal({
        story: {
          title: "Tiny",
          narrator_instructions: "n".repeat(33_000),
          post_history_instructions: "p".repeat(32_500),
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        },
        cards: [
          card("Mara", ["Mara"], "media/portraits/shared.png"),
          card("Ivo", ["Ivo"], "media/portraits/shared.png"),
          card("Keeper", ["/(a+)+$/"], null),
        ],
      });
      const res = await restore(
        user,
        await zipOf({
          "storyverse-story.json": JSON.stringify(json),
          "media/images/0001.png": await picture(),
          "media/portraits/shared.png": await picture(),
        }),
      );
      expect(res.json()).toMatchObject({ status: "completed", error: null });
      expect(res.json().notes).toEqual(
        expect.arrayContaining([
          {
            name: "Narrator instructions",
            reason: "cut from 33000 to 32000 characters to fit the app's limit",
          },
          {
            name: "Post-history instructions",
            reason: "cut from 32500 to 32000 characters to fit the app's limit",
          },
          {
            name: 'Card "Keeper"',
            reason: "none of its trigger words could be kept: its name is its trigger",
          },
        ]),
      );
      const storyId = res.json().story.id;
      const lore = (await call(user, "GET", `/api/stories/${storyId}/lore-settings`)).json();
      expect(lore.narrator_instructions).toHaveLength(32_000);
      // The settings panel can save what the restore made.
      const saved = await call(user, "PUT", `/api/stories/${storyId}/lore-settings`, {
        narrator_instructions: lore.narrator_instructions,
        post_history_instructions: lore.post_history_instructions,
        lore_budget_percent: lore.lore_budget_percent,
        lore_scan_depth: lore.lore_scan_depth,
      });
      expect(saved.statusCode).toBe(200);
      type Card = { id: string; name: string; triggers: string[]; portrait: { url: string } | null };
      const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as Card[];
      const byName = new Map(cards.map((c) => [c.name, c]));
      expect(byName.get("Keeper")!.triggers).toEqual(["Keeper"]);
      // The Keeper can be edited (a card that is not always on with no trigger could not be).
      const edit = await t.app.inject({
        method: "PUT",
        url: `/api/stories/${storyId}/cards/${byName.get("Keeper")!.id}`,
        headers: bearer(user.token),
        payload: { enabled: false },
      });
      expect(edit.statusCode).toBe(200);
      const mara = byName.get("Mara")!.portrait!.url;
      const ivo = byName.get("Ivo")!.portrait!.url;
      expect(keyOf(mara)).not.toBe(keyOf(ivo));
      // Deleting Mara deletes her portrait file, and Ivo keeps his.
      const removed = await t.app.inject({
        method: "DELETE",
        url: `/api/stories/${storyId}/cards/${byName.get("Mara")!.id}`,
        headers: bearer(user.token),
      });
      expect(removed.statusCode).toBe(200);
      expect((await fetchMedia(t, mara)).status).toBe(404);
      expect((await fetchMedia(t, ivo)).status).toBe(200);
    });

    it("refuses a story picture that is a card's portrait, not a gallery item's", async () => {
      const json = minimal({
        story: {
          title: "Tiny",
          pinned_thumbnail: "media/portraits/p.png",
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        },
        cards: [
          {
            name: "Mara",
            kind: "character",
            triggers: ["Mara"],
            portrait: "media/portraits/p.png",
            created_at: "2026-01-01T00:00:01.000Z",
            updated_at: "2026-01-01T00:00:01.000Z",
          },
        ],
      });
      await expectRefused(
        await createUser(t),
        await zipOf({
          "storyverse-story.json": JSON.stringify(json),
          "media/images/0001.png": await picture(),
          "media/portraits/p.png": await picture(),
        }),
        'The backup pins "media/portraits/p.png" as the story\'s picture but lists it under no media item.',
      );
    });

    it("takes one upload of a player's at a time (one meanwhile is a 429); others are not held back", async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      const archive = await zipOf({
        "storyverse-story.json": JSON.stringify(minimal()),
        "media/images/0001.png": await picture(),
      });
      // Another import of the player's holds their one slot until released.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered!: () => void;
      const holding = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const noLimit = { hit: async () => {} } as unknown as Parameters<typeof withImportSlot>[0];
      const first = withImportSlot(noLimit, user.userId, async () => {
        entered();
        await held;
      });
      try {
        await holding;
        const second = await uploadBackup(t, user, archive);
        expect(second.statusCode).toBe(429);
        expect(second.json().detail).toBe(IMPORT_BUSY_DETAIL);
        await restored(other, archive);
        release();
        await first;
        await restored(user, archive);
      } finally {
        release();
      }
    });

    it("refuses a card carrying more than 1 MB of data besides its text", async () => {
      const json = minimal({
        cards: [
          {
            name: "Hoarder",
            kind: "character",
            triggers: ["Hoarder"],
            character_card: { name: "Hoarder", extensions: { bulk: "x".repeat(1100 * 1024) } },
            created_at: "2026-01-01T00:00:01.000Z",
            updated_at: "2026-01-01T00:00:01.000Z",
          },
        ],
      });
      await expectRefused(
        await createUser(t),
        await zipOf({
          "storyverse-story.json": JSON.stringify(json),
          "media/images/0001.png": await picture(),
        }),
        /^Card 1 \("Hoarder"\) carries 1\d{3} KB of data besides its text; a card can keep at most 1024 KB\.$/,
      );
    });

    it("refuses a file that is not a zip", async () => {
      await expectRefused(await createUser(t), Buffer.from("just some words"), /not a readable zip archive/);
    });

    it("refuses an archive with a path that climbs out of it", async () => {
      const good = await zipOf({
        "storyverse-story.json": JSON.stringify(minimal()),
        "media/images/0001.png": await picture(),
        "media/xx/evil.png": await picture(),
      });
      // yazl will not write "..": the name is patched in place (local header and central directory).
      const evil = Buffer.from(
        good.toString("latin1").replaceAll("media/xx/evil.png", "media/../evil.png"),
        "latin1",
      );
      await expectRefused(await createUser(t), evil, /unsafe path/);
    });

    it("refuses an archive without storyverse-story.json", async () => {
      await expectRefused(
        await createUser(t),
        await zipOf({ "media/images/0001.png": await picture() }),
        "This is not a Storyverse story backup: it has no storyverse-story.json.",
      );
    });

    it("refuses an entry that inflates to more than it declares (a zip bomb's trick)", async () => {
      const zip = await zipOf({
        "storyverse-story.json": JSON.stringify(minimal()),
        "media/images/0001.png": await picture(),
      });
      // The JSON's central directory entry is made to declare 10 bytes unpacked.
      const name = Buffer.from("storyverse-story.json");
      let at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      while (at >= 0 && !zip.subarray(at + 46, at + 46 + name.length).equals(name)) {
        at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4);
      }
      zip.writeUInt32LE(10, at + 24);
      await expectRefused(
        await createUser(t),
        zip,
        /unpacks to more than|damaged or not what its entry says/,
      );
    });

    it("refuses a backup made by a newer version, saying so", async () => {
      await expectRefused(
        await createUser(t),
        await zipOf({
          "storyverse-story.json": JSON.stringify(minimal({ version: 3 })),
          "media/images/0001.png": await picture(),
        }),
        "This backup was made by a newer Storyverse (format 3); this server reads format 2.",
      );
    });

    it("refuses a backup that names a media file it does not hold", async () => {
      await expectRefused(
        await createUser(t),
        await zipOf({ "storyverse-story.json": JSON.stringify(minimal()) }),
        'The backup names "media/images/0001.png", but that file is not in the archive.',
      );
    });

    it("refuses a 'picture' that is not an image, and removes what it stored before it", async () => {
      const json = minimal({
        media: [
          {
            path: "media/images/0001.png",
            kind: "image",
            message: "m2",
            created_at: "2026-01-01T00:00:01.000Z",
          },
          {
            path: "media/images/0002.png",
            kind: "image",
            message: null,
            created_at: "2026-01-01T00:00:02.000Z",
          },
        ],
      });
      await expectRefused(
        await createUser(t),
        await zipOf({
          "storyverse-story.json": JSON.stringify(json),
          "media/images/0001.png": await picture(),
          "media/images/0002.png": "<svg onload=alert(1)></svg>",
        }),
        /"media\/images\/0002.png" in the archive is not a picture/,
        "job",
      );
    });
  });
});
