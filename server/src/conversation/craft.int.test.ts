// Story craft through the HTTP API on a real database: retry with versions, edit, undo and continue. The
// narrator is a fake OpenAI server (its wire format), so a test can read exactly what the next turn sent.
import {
  NEWEST_ONLY_DETAIL,
  NOTHING_TO_CONTINUE_DETAIL,
  NOTHING_TO_REDO_DETAIL,
  NOTHING_TO_UNDO_DETAIL,
  RETRY_WHAT_DETAIL,
  SCENE_NEEDS_MEDIA_DETAIL,
  STILL_PAINTING_DETAIL,
  STILL_WRITING_DETAIL,
} from "@storyverse/contract/story-craft";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { waitForMedia } from "../../test/media";
import { postTurnStream } from "../../test/sse";
import { findAccount, ledgerSum } from "../credits/repo";
import { charge } from "../credits/service";
import { createOfflineImageProvider } from "../providers/offline/image";
import { ProviderError } from "../providers/types";
import { CONTINUE_INSTRUCTION } from "./turn";

let openai: OpenAIFake;
let t: TestApp;

/**
 * The image service answers only while the gate is open; a test closes it to keep a scene "being made".
 * The painter behind it is the offline one, unchanged.
 */
let gate: { open: Promise<void>; release: () => void } | null = null;
function holdImages() {
  let release = () => {};
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  gate = { open, release };
}
function releaseImages() {
  gate?.release();
  gate = null;
}

beforeAll(async () => {
  openai = await startOpenAIFake();
  const painter = createOfflineImageProvider();
  t = await createTestApp({
    env: {
      TEXT_PROVIDER: "openai",
      TEXT_API_KEY: openai.apiKey,
      TEXT_BASE_URL: openai.baseUrl,
      // Long enough that a loaded machine answering 50 requests at once still hears the narrator (the hang
      // test below waits this long once).
      PROVIDER_TIMEOUT_SECONDS: "10",
    },
    tickingClock: true,
    providers: {
      image: {
        ...painter,
        generate: async (request) => {
          await gate?.open;
          return painter.generate(request);
        },
      },
    },
  });
}, 60_000);
afterAll(async () => {
  releaseImages();
  await Promise.all([t.cleanup(), openai.close()]);
});
beforeEach(() => {
  releaseImages();
  openai.reset();
  answer("The tower door creaks open.");
});

/** What the narrator answers next. */
function answer(text: string, scene = "A stone tower at dusk.") {
  openai.chat.pieces = [`${text}\n\nSCENE: ${scene}`];
}

/** The messages the newest narrator request carried. */
function lastNarratorRequest(): { role: string; content: string }[] {
  const requests = openai.requests.filter(isTurnChat);
  return (requests.at(-1)?.json as { messages: { role: string; content: string }[] }).messages;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (app: TestApp, user: TestUser, method: Method, url: string, payload?: unknown) =>
  app.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function newStory(app: TestApp, user: TestUser) {
  const res = await call(app, user, "POST", "/api/stories", { title: "The Ember Crown", context: "" });
  return res.json().story.id as string;
}

async function turn(app: TestApp, user: TestUser, storyId: string, prompt: string, mode = "chat") {
  const res = await call(app, user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  expect(res.statusCode).toBe(200);
  return res.json() as { message_id: string; story_text: string; quota_info: { remaining: number } };
}

type Listed = { id: string; role: string; content: string; version?: number; version_count?: number };
const messagesOf = async (app: TestApp, user: TestUser, storyId: string) =>
  (await call(app, user, "GET", `/api/stories/${storyId}/messages`)).json().messages as Listed[];
const balance = async (app: TestApp, user: TestUser) =>
  (await call(app, user, "GET", "/api/credit-balance")).json().remaining as number;

describe("retry with versions", () => {
  it("writes a new answer with new media in the same mode, keeps the old one, and the shown version is what the narrator sees", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    answer("First answer: the door holds.");
    const first = await turn(t, user, storyId, "I push the door", "image");
    await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${first.message_id}`);
    expect(await balance(t, user)).toBe(13.5);

    answer("Second answer: the door bursts.", "A burst door in a storm.");
    const retried = await call(
      t,
      user,
      "POST",
      `/api/stories/${storyId}/messages/${first.message_id}/retry`,
      {},
    );
    expect(retried.statusCode).toBe(200);
    const second = retried.json();
    expect(second).toMatchObject({
      story_text: "Second answer: the door bursts.",
      media_generation: { status: "started", type: "image" },
      quota_info: { charged: 1.5, remaining: 12 },
    });
    expect(second.message_id).not.toBe(first.message_id);
    // The retry answered the same player message, and did not see the answer it replaces.
    const sent = lastNarratorRequest();
    expect(sent.at(-1)).toEqual({ role: "user", content: "I push the door" });
    expect(JSON.stringify(sent)).not.toContain("First answer");
    const media = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${second.message_id}`,
    );
    expect(media.image_url).toBeTruthy();

    let listed = await messagesOf(t, user, storyId);
    expect(listed.map((m) => m.content)).toEqual(["I push the door", "Second answer: the door bursts."]);
    expect(listed[1]).toMatchObject({ id: second.message_id, version: 2, version_count: 2 });

    const versions = (
      await call(t, user, "GET", `/api/stories/${storyId}/messages/${first.message_id}/versions`)
    ).json();
    expect(
      versions.versions.map((v: { content: string; version: number; selected: boolean }) => [
        v.version,
        v.content,
        v.selected,
      ]),
    ).toEqual([
      [1, "First answer: the door holds.", false],
      [2, "Second answer: the door bursts.", true],
    ]);
    // Both versions keep their own picture.
    expect(versions.versions.every((v: { image_url: string | null }) => v.image_url)).toBe(true);

    const selected = await call(
      t,
      user,
      "PUT",
      `/api/stories/${storyId}/messages/${second.message_id}/versions/1/select`,
    );
    expect(selected.statusCode).toBe(200);
    expect(selected.json().message).toMatchObject({ id: first.message_id, version: 1, version_count: 2 });
    listed = await messagesOf(t, user, storyId);
    expect(listed.map((m) => m.content)).toEqual(["I push the door", "First answer: the door holds."]);
    const [story] = (await call(t, user, "GET", "/api/stories")).json().stories;
    expect(story.message_count).toBe(2);

    await turn(t, user, storyId, "I step through");
    const context = JSON.stringify(lastNarratorRequest());
    expect(context).toContain("First answer: the door holds.");
    expect(context).not.toContain("Second answer");
  }, 120_000);

  it("only retries the newest narrator answer, and not while it is being made", async () => {
    holdImages();
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const old = await turn(t, user, storyId, "I wait");
    const newest = await turn(t, user, storyId, "I wait longer");
    const retry = (id: string) => call(t, user, "POST", `/api/stories/${storyId}/messages/${id}/retry`, {});

    const stale = await retry(old.message_id);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toBe(NEWEST_ONLY_DETAIL);

    const messages = await messagesOf(t, user, storyId);
    const userMessage = messages.find((m) => m.role === "user")!;
    const wrongRole = await retry(userMessage.id);
    expect(wrongRole.statusCode).toBe(400);
    expect(wrongRole.json().detail).toMatch(/narrator/);

    const painting = await turn(t, user, storyId, "I draw the scene", "image");
    const busy = await retry(painting.message_id);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ detail: STILL_PAINTING_DETAIL, code: "media_in_progress" });
    expect(newest.message_id).toBeTruthy();
    // Nothing was charged for the refused retries: 15 - 0.5 - 0.5 - 1.5.
    expect(await balance(t, user)).toBe(12.5);
  });

  it("answers 409 while the narrator is still writing the newest turn, and refunds a turn whose narrator failed", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const first = await turn(t, user, storyId, "I listen");
    // The turn's request hangs (not a living-lore reading, which a background job asks for after a turn).
    openai.failNext("hang", isTurnChat);
    const writing = turn(t, user, storyId, "I listen harder").catch(() => undefined);
    // Let the hanging request reach the narrator.
    await expect.poll(() => openai.requests.filter(isTurnChat).length).toBe(2);
    const retry = await call(
      t,
      user,
      "POST",
      `/api/stories/${storyId}/messages/${first.message_id}/retry`,
      {},
    );
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({ detail: STILL_WRITING_DETAIL, code: "turn_in_progress" });
    const undo = await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    expect(undo.json()).toMatchObject({ detail: STILL_WRITING_DETAIL, code: "turn_in_progress" });
    await writing;
    expect(await balance(t, user)).toBe(14.5);
  }, 30_000);

  it("keeps the ledger whole under 50 concurrent retries from a user with few credits", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const first = await turn(t, user, storyId, "I roll the dice");
    // 14.5 left; spend 13 elsewhere: 1.5 is enough for three chat retries.
    await charge(t.database.db, user.userId, "video", 4, new Date(), "Spent elsewhere");
    await charge(t.database.db, user.userId, "chat", 2, new Date(), "Spent elsewhere");
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(t, user, "POST", `/api/stories/${storyId}/messages/${first.message_id}/retry`, {
          chat_mode: "chat",
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    // Each is delivered (200), refused before or after the charge (402, 409), or, on a loaded machine, a
    // narrator time-out (502, refunded); the ledger checks below hold whichever.
    expect(codes.filter((code) => ![200, 402, 409, 502].includes(code))).toEqual([]);
    expect(codes.filter((code) => code === 200).length).toBeGreaterThanOrEqual(1);
    const account = await findAccount(t.database.db, user.userId);
    expect(account!.balanceTenths).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
    // Every delivered retry is one version; every charge that did not deliver was refunded.
    const versions = (
      await call(t, user, "GET", `/api/stories/${storyId}/messages/${first.message_id}/versions`)
    ).json().versions;
    expect(versions).toHaveLength(1 + codes.filter((code) => code === 200).length);
    expect(account!.balanceTenths).toBe(15 - 5 * codes.filter((code) => code === 200).length);
  }, 60_000);

  it("refuses bad input and other people's stories", async () => {
    const [owner, stranger] = await Promise.all([createUser(t), createUser(t)]);
    const storyId = await newStory(t, owner);
    const first = await turn(t, owner, storyId, "I knock");
    const base = `/api/stories/${storyId}/messages/${first.message_id}`;
    const [playerLine] = await messagesOf(t, owner, storyId);
    const playerBase = `/api/stories/${storyId}/messages/${playerLine!.id}`;
    for (const [method, url, payload] of [
      ["POST", `${base}/retry`, {}],
      ["GET", `${base}/versions`, undefined],
      ["PUT", `${base}/versions/1/select`, undefined],
      ["PATCH", base, { content: "Mine now" }],
      ["POST", `/api/stories/${storyId}/undo`, undefined],
      ["POST", `/api/stories/${storyId}/continue`, {}],
    ] as const) {
      const res = await call(t, stranger, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().detail).toMatch(/not found/i);
    }
    const cases: [Method, string, unknown, number, RegExp][] = [
      ["PUT", `${base}/versions/2/select`, undefined, 404, /Version not found/],
      ["PUT", `${base}/versions/zero/select`, undefined, 400, /Version not found/],
      [
        "GET",
        `/api/stories/${storyId}/messages/${crypto.randomUUID()}/versions`,
        undefined,
        404,
        /Message not found/,
      ],
      ["POST", `/api/stories/${storyId}/messages/not-a-uuid/retry`, {}, 400, /Message not found/],
      ["POST", `${base}/retry`, { chat_mode: "poetry" }, 400, /chat_mode/],
      ["POST", `/api/stories/${storyId}/continue`, { inputImages: "nope" }, 400, /inputImages/],
      ["PATCH", base, { content: "   " }, 400, /Please type a message first/],
      // A narrator's answer may be long (32,000 characters); the player's line is held to the composer's 4,000.
      ["PATCH", base, { content: "x".repeat(32_001) }, 400, /32000/],
      ["PATCH", playerBase, { content: "x".repeat(4001) }, 400, /4000/],
      ["PATCH", base, {}, 400, /content/],
    ];
    for (const [method, url, payload, status, detail] of cases) {
      const res = await call(t, owner, method, url, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(status);
      expect(res.json().detail).toMatch(detail);
    }
    // Nothing changed, nothing charged.
    expect((await messagesOf(t, owner, storyId)).map((m) => m.content)).toEqual([
      "I knock",
      "The tower door creaks open.",
    ]);
    expect(await balance(t, owner)).toBe(14.5);
  });
});

describe("retry what you want", () => {
  it('"text" writes new words as a new version keeping the picture, priced as chat; "media" paints a new scene for the same words, priced as the image', async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    answer("The bridge sways.", "A rope bridge over a gorge.");
    const first = await turn(t, user, storyId, "I cross the bridge", "image");
    const painted = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${first.message_id}`,
    );
    expect(await balance(t, user)).toBe(13.5);
    const retry = (id: string, body: unknown) =>
      call(t, user, "POST", `/api/stories/${storyId}/messages/${id}/retry`, body);

    answer("The bridge holds, barely.");
    const text = await retry(first.message_id, { what: "text" });
    expect(text.statusCode).toBe(200);
    expect(text.json()).toMatchObject({
      story_text: "The bridge holds, barely.",
      media_generation: { status: "none", type: null },
      quota_info: { charged: 0.5, remaining: 13 },
    });
    let [, shown] = (await call(t, user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(shown).toMatchObject({
      id: text.json().message_id,
      content: "The bridge holds, barely.",
      mode: "image",
      media_status: "completed",
      image_url: painted.image_url,
      version: 2,
      version_count: 2,
    });

    const requestsBefore = openai.requests.length;
    const media = await retry(text.json().message_id, { what: "media" });
    expect(media.statusCode).toBe(200);
    expect(media.json()).toMatchObject({
      story_text: "The bridge holds, barely.",
      media_generation: { status: "started", type: "image" },
      quota_info: { charged: 1.5, remaining: 11.5 },
    });
    // No narrator was asked: the words are the same.
    expect(openai.requests.slice(requestsBefore).filter(isTurnChat)).toEqual([]);
    const repainted = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${media.json().message_id}`,
    );
    expect(repainted.image_url).toBeTruthy();
    expect(repainted.image_url).not.toBe(painted.image_url);
    [, shown] = (await call(t, user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(shown).toMatchObject({ content: "The bridge holds, barely.", version: 3, version_count: 3 });
    // Both pictures are in the gallery.
    expect((await call(t, user, "GET", "/api/user/images")).json().images).toHaveLength(2);

    // "both" is today's retry: new words and a new picture, priced as the image.
    answer("The bridge snaps.");
    const both = await retry(media.json().message_id, { what: "both" });
    expect(both.json()).toMatchObject({
      story_text: "The bridge snaps.",
      media_generation: { status: "started", type: "image" },
      quota_info: { charged: 1.5, remaining: 10 },
    });
  }, 120_000);

  it("a failed new scene gives back all of its price", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const first = await turn(t, user, storyId, "I wait for dawn");
    const before = await balance(t, user);
    const broken = t.ctx.providers.image.generate;
    t.ctx.providers.image.generate = async () => {
      throw new ProviderError("The image service is down.", false);
    };
    try {
      const media = await call(
        t,
        user,
        "POST",
        `/api/stories/${storyId}/messages/${first.message_id}/retry`,
        {
          what: "media",
        },
      );
      expect(media.json()).toMatchObject({
        media_generation: { type: "image" },
        quota_info: { charged: 1.5 },
      });
      const status = await waitForMedia(
        t,
        user.token,
        `/api/stories/${storyId}/media-status/${media.json().message_id}`,
      );
      expect(status.media_generation_failed).toBe(true);
      await expect.poll(async () => balance(t, user), { timeout: 10_000 }).toBe(before);
    } finally {
      t.ctx.providers.image.generate = broken;
    }
    const account = await findAccount(t.database.db, user.userId);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
  }, 60_000);

  it("refuses a bad what, a chat-mode new scene and other people's stories, changing nothing", async () => {
    const [owner, stranger] = await Promise.all([createUser(t), createUser(t)]);
    const storyId = await newStory(t, owner);
    const first = await turn(t, owner, storyId, "I knock twice");
    const url = `/api/stories/${storyId}/messages/${first.message_id}/retry`;
    for (const what of ["words", "", 3, null]) {
      const res = await call(t, owner, "POST", url, { what });
      expect(res.statusCode, JSON.stringify(what)).toBe(400);
      expect(res.json().detail).toContain(RETRY_WHAT_DETAIL);
    }
    const chatScene = await call(t, owner, "POST", url, { what: "media", chat_mode: "chat" });
    expect(chatScene.statusCode).toBe(400);
    expect(chatScene.json().detail).toBe(SCENE_NEEDS_MEDIA_DETAIL);
    const theirs = await call(t, stranger, "POST", url, { what: "text" });
    expect(theirs.statusCode).toBe(404);
    expect((await messagesOf(t, owner, storyId)).map((m) => m.content)).toEqual([
      "I knock twice",
      "The tower door creaks open.",
    ]);
    expect(await balance(t, owner)).toBe(14.5);
  });

  for (const what of ["text", "media"] as const) {
    it(`keeps the ledger whole under 50 concurrent "${what}" retries from a user with few credits`, async () => {
      const user = await createUser(t);
      const storyId = await newStory(t, user);
      const first = await turn(t, user, storyId, "I toss a coin");
      // 14.5 left; spend 11.5 elsewhere: 3 credits, two new scenes or six new words.
      await charge(t.database.db, user.userId, "video", 3, new Date(), "Spent elsewhere");
      await charge(t.database.db, user.userId, "image", 1, new Date(), "Spent elsewhere");
      await charge(t.database.db, user.userId, "chat", 2, new Date(), "Spent elsewhere");
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          call(t, user, "POST", `/api/stories/${storyId}/messages/${first.message_id}/retry`, { what }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((code) => ![200, 402, 409, 502].includes(code))).toEqual([]);
      const delivered = codes.filter((code) => code === 200).length;
      expect(delivered).toBeGreaterThanOrEqual(1);
      if (what === "media") {
        for (const r of results.filter((res) => res.statusCode === 200)) {
          await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${r.json().message_id}`);
        }
      }
      const account = await findAccount(t.database.db, user.userId);
      expect(account!.balanceTenths).toBeGreaterThanOrEqual(0);
      expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
      const versions = (
        await call(t, user, "GET", `/api/stories/${storyId}/messages/${first.message_id}/versions`)
      ).json().versions;
      expect(versions).toHaveLength(1 + delivered);
      expect(account!.balanceTenths).toBe(30 - (what === "text" ? 5 : 15) * delivered);
    }, 120_000);
  }
});

describe("undo and redo", () => {
  it("undo hides the newest exchange; redo brings it back with its versions and media, in stack order", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    answer("The inn is warm.");
    await turn(t, user, storyId, "I enter the inn");
    answer("The ale is bitter.");
    const second = await turn(t, user, storyId, "I order a drink", "image");
    const painted = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${second.message_id}`,
    );
    answer("The ale is sweet.");
    const retried = (
      await call(t, user, "POST", `/api/stories/${storyId}/messages/${second.message_id}/retry`, {
        what: "text",
      })
    ).json();
    const before = await balance(t, user);
    const contents = async () => (await messagesOf(t, user, storyId)).map((m) => m.content);
    const full = ["I enter the inn", "The inn is warm.", "I order a drink", "The ale is sweet."];
    expect(await contents()).toEqual(full);

    // Undo twice: the story is empty; the story list counts nothing; the narrator would see nothing.
    expect((await call(t, user, "POST", `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
    expect(await contents()).toEqual(full.slice(0, 2));
    expect((await call(t, user, "POST", `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
    expect(await contents()).toEqual([]);
    const [listed] = (await call(t, user, "GET", "/api/stories")).json().stories;
    expect(listed.message_count).toBe(0);
    const context = (await call(t, user, "GET", `/api/stories/${storyId}/context`)).json();
    expect(JSON.stringify(context.messages)).not.toContain("inn");

    // Redo brings back the last undone first (a stack), with versions and the picture.
    const redo = await call(t, user, "POST", `/api/stories/${storyId}/redo`);
    expect(redo.statusCode).toBe(200);
    expect(redo.json().messages.map((m: Listed) => m.content)).toEqual(full.slice(0, 2));
    expect(await contents()).toEqual(full.slice(0, 2));
    const again = await call(t, user, "POST", `/api/stories/${storyId}/redo`);
    expect(again.json().messages.map((m: Listed) => m.content)).toEqual(full.slice(2));
    const messages = (await call(t, user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(messages.map((m: Listed) => m.content)).toEqual(full);
    expect(messages[3]).toMatchObject({
      id: retried.message_id,
      image_url: painted.image_url,
      version: 2,
      version_count: 2,
    });
    const versions = (
      await call(t, user, "GET", `/api/stories/${storyId}/messages/${second.message_id}/versions`)
    ).json().versions;
    expect(versions.map((v: { content: string; selected: boolean }) => [v.content, v.selected])).toEqual([
      ["The ale is bitter.", false],
      ["The ale is sweet.", true],
    ]);
    expect(await balance(t, user)).toBe(before);

    const nothing = await call(t, user, "POST", `/api/stories/${storyId}/redo`);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().detail).toBe(NOTHING_TO_REDO_DETAIL);
  }, 120_000);

  it("a new turn ends Redo: the undone exchange is gone for good, its picture stays in the gallery", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    await turn(t, user, storyId, "I enter the cave");
    const painted = await turn(t, user, storyId, "I light a torch", "image");
    await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${painted.message_id}`);
    await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    answer("The torch will not light.");
    await turn(t, user, storyId, "I feel my way instead");
    expect(JSON.stringify(lastNarratorRequest())).not.toContain("I light a torch");

    const redo = await call(t, user, "POST", `/api/stories/${storyId}/redo`);
    expect(redo.statusCode).toBe(409);
    expect(redo.json().detail).toBe(NOTHING_TO_REDO_DETAIL);
    expect((await messagesOf(t, user, storyId)).map((m) => m.content)).toEqual([
      "I enter the cave",
      "The tower door creaks open.",
      "I feel my way instead",
      "The torch will not light.",
    ]);
    const gone = await call(
      t,
      user,
      "GET",
      `/api/stories/${storyId}/messages/${painted.message_id}/versions`,
    );
    expect(gone.statusCode).toBe(404);
    expect((await call(t, user, "GET", "/api/user/images")).json().images).toHaveLength(1);
  }, 60_000);

  it("says how many exchanges Redo can bring back, as the stack grows, shrinks and ends; only to the owner", async () => {
    const user = await createUser(t);
    const stranger = await createUser(t);
    const storyId = await newStory(t, user);
    const redoable = async () => (await call(t, user, "GET", `/api/stories/${storyId}/redo`)).json().redoable;
    await turn(t, user, storyId, "I open the map");
    await turn(t, user, storyId, "I trace the river");
    expect(await redoable()).toBe(0);
    await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    expect(await redoable()).toBe(2);
    await call(t, user, "POST", `/api/stories/${storyId}/redo`);
    expect(await redoable()).toBe(1);
    await turn(t, user, storyId, "I fold the map away");
    expect(await redoable()).toBe(0);
    const theirs = await call(t, stranger, "GET", `/api/stories/${storyId}/redo`);
    expect(theirs.statusCode).toBe(404);
  }, 60_000);

  it("an undone message cannot be edited or switched; redo of another's story is 404", async () => {
    const [owner, stranger] = await Promise.all([createUser(t), createUser(t)]);
    const storyId = await newStory(t, owner);
    const first = await turn(t, owner, storyId, "I whistle");
    await call(t, owner, "POST", `/api/stories/${storyId}/undo`);
    const base = `/api/stories/${storyId}/messages/${first.message_id}`;
    expect((await call(t, owner, "PATCH", base, { content: "Changed" })).statusCode).toBe(404);
    expect((await call(t, owner, "PUT", `${base}/versions/1/select`)).statusCode).toBe(404);
    expect((await call(t, owner, "POST", `${base}/retry`, { what: "text" })).statusCode).toBe(404);
    const theirs = await call(t, stranger, "POST", `/api/stories/${storyId}/redo`);
    expect(theirs.statusCode).toBe(404);
    const redo = await call(t, owner, "POST", `/api/stories/${storyId}/redo`);
    expect(redo.json().messages.map((m: Listed) => m.content)).toEqual([
      "I whistle",
      "The tower door creaks open.",
    ]);
  });
});

describe("edit", () => {
  it("changes the player's and the narrator's words, keeps the media, and the next turn sees the edit", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const first = await turn(t, user, storyId, "I greet the guard", "image");
    const media = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${first.message_id}`,
    );
    const [mine] = await messagesOf(t, user, storyId);

    const edited = await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${mine!.id}`, {
      content: "  I bow to the guard Maren  ",
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().message).toMatchObject({ id: mine!.id, content: "I bow to the guard Maren" });
    // An answer longer than a player may type (a long output continued) is edited whole.
    const long = `Maren lowers her spear. ${"The hall is quiet. ".repeat(300)}`.trim();
    expect(long.length).toBeGreaterThan(5_000);
    const lengthened = await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${first.message_id}`, {
      content: long,
    });
    expect(lengthened.statusCode).toBe(200);
    expect(lengthened.json().message.content).toBe(long);
    const narrated = await call(t, user, "PATCH", `/api/stories/${storyId}/messages/${first.message_id}`, {
      content: "Maren lowers her spear and smiles.",
    });
    expect(narrated.json().message.image_url).toBeTruthy();

    const listed = await messagesOf(t, user, storyId);
    expect(listed.map((m) => m.content)).toEqual([
      "I bow to the guard Maren",
      "Maren lowers her spear and smiles.",
    ]);
    expect((listed[1] as Listed & { media_status: string }).media_status).toBe("completed");
    expect(media.image_url).toBeTruthy();

    await turn(t, user, storyId, "I ask about the king");
    const sent = lastNarratorRequest();
    expect(sent.slice(1, 3)).toEqual([
      { role: "user", content: "I bow to the guard Maren" },
      { role: "assistant", content: "Maren lowers her spear and smiles." },
    ]);
    expect(await balance(t, user)).toBe(13);
  }, 60_000);
});

describe("undo", () => {
  it("takes the newest exchange and all its versions out of the story; the media stay and no credits move", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    await turn(t, user, storyId, "I enter the inn");
    const second = await turn(t, user, storyId, "I order a drink", "image");
    await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${second.message_id}`);
    const retried = (
      await call(t, user, "POST", `/api/stories/${storyId}/messages/${second.message_id}/retry`, {
        chat_mode: "chat",
      })
    ).json();
    const before = await balance(t, user);

    const undo = await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    expect(undo.statusCode).toBe(200);
    const removed = undo.json().removed_message_ids as string[];
    expect(removed).toHaveLength(3);
    expect(removed).toEqual(expect.arrayContaining([second.message_id, retried.message_id]));
    expect((await messagesOf(t, user, storyId)).map((m) => m.content)).toEqual([
      "I enter the inn",
      "The tower door creaks open.",
    ]);
    expect(await balance(t, user)).toBe(before);
    const gallery = (await call(t, user, "GET", "/api/user/images")).json().images;
    expect(gallery).toHaveLength(1);

    // The narrator no longer sees the undone exchange.
    await turn(t, user, storyId, "I sit down");
    expect(JSON.stringify(lastNarratorRequest())).not.toContain("I order a drink");

    await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    const empty = await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().detail).toBe(NOTHING_TO_UNDO_DETAIL);
  }, 60_000);

  it("waits while the newest media is being made", async () => {
    holdImages();
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    await turn(t, user, storyId, "I paint", "image");
    const undo = await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    expect(undo.statusCode).toBe(409);
    expect(undo.json()).toMatchObject({ detail: STILL_PAINTING_DETAIL, code: "media_in_progress" });
    expect(await messagesOf(t, user, storyId)).toHaveLength(2);
  });
});

describe("continue in place", () => {
  it("grows the newest narrator message as a new version, keeps its picture, priced as chat, with no player line", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    answer("The ship leaves the harbour and the wind");
    const first = await turn(t, user, storyId, "I set sail", "image");
    await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${first.message_id}`);
    const [, before] = (await call(t, user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(await balance(t, user)).toBe(13.5);

    answer("fills the sails at last.");
    const res = await call(t, user, "POST", `/api/stories/${storyId}/continue`, { chat_mode: "video" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      story_text: "The ship leaves the harbour and the wind fills the sails at last.",
      media_generation: { status: "none", type: null },
      quota_info: { charged: 0.5, remaining: 13 },
    });
    // The narrator read its own message and a narrator-side instruction; no player line was sent.
    const sent = lastNarratorRequest();
    expect(sent.at(-1)?.role).toBe("system");
    expect(sent.at(-1)?.content).toMatch(/Continue your last answer/);
    expect(sent.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["I set sail"]);
    expect(sent.at(-2)?.content).toContain("the wind");
    const listed = (await call(t, user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(listed.map((m: Listed) => m.role)).toEqual(["user", "assistant"]);
    expect(listed[1]).toMatchObject({
      id: res.json().message_id,
      content: "The ship leaves the harbour and the wind fills the sails at last.",
      version: 2,
      version_count: 2,
      image_url: before.image_url,
      media_status: "completed",
    });

    // A finished sentence goes on in a new paragraph.
    answer("Gulls follow the wake.");
    const again = await call(t, user, "POST", `/api/stories/${storyId}/continue`);
    expect(again.json().story_text).toBe(
      "The ship leaves the harbour and the wind fills the sails at last.\n\nGulls follow the wake.",
    );
    expect(await balance(t, user)).toBe(12.5);
  }, 60_000);

  it("refunds a continue stopped before any word, and refuses with nothing to continue or while painting", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const none = await call(t, user, "POST", `/api/stories/${storyId}/continue`);
    expect(none.statusCode).toBe(409);
    expect(none.json().detail).toBe(NOTHING_TO_CONTINUE_DETAIL);
    await turn(t, user, storyId, "I wait");
    const balanceBefore = await balance(t, user);
    // The player stops before the narrator's first word (the fake writes a blank, then hangs): nothing is
    // kept, the whole charge goes back.
    openai.chat.pieces = [" ", "never sent"];
    openai.chat.midStream = "hang";
    const base = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const stream = await postTurnStream(base, `/api/stories/${storyId}/continue`, user.token, {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    stream.close();
    await expect.poll(async () => balance(t, user), { timeout: 10_000 }).toBe(balanceBefore);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await balance(t, user)).toBe(balanceBefore);
    const account = await findAccount(t.database.db, user.userId);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
    expect((await messagesOf(t, user, storyId)).map((m) => m.content)).toEqual([
      "I wait",
      "The tower door creaks open.",
    ]);
    openai.chat.midStream = "none";
    answer("The tower door creaks open.");

    holdImages();
    await turn(t, user, storyId, "I paint", "image");
    const busy = await call(t, user, "POST", `/api/stories/${storyId}/continue`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ detail: STILL_PAINTING_DETAIL, code: "media_in_progress" });
  }, 60_000);

  it("keeps the ledger whole under 50 concurrent continues from a user with few credits", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    answer("The stair winds up into the dark and");
    await turn(t, user, storyId, "I climb the stair");
    // 14.5 left; spend 11.5 elsewhere: 3 credits, six continues at most.
    await charge(t.database.db, user.userId, "video", 3, new Date(), "Spent elsewhere");
    await charge(t.database.db, user.userId, "image", 1, new Date(), "Spent elsewhere");
    await charge(t.database.db, user.userId, "chat", 2, new Date(), "Spent elsewhere");
    answer("a draught brings the smell of rain.");
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call(t, user, "POST", `/api/stories/${storyId}/continue`, {})),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((code) => ![200, 402, 409, 502].includes(code))).toEqual([]);
    const delivered = codes.filter((code) => code === 200).length;
    expect(delivered).toBeGreaterThanOrEqual(1);
    const account = await findAccount(t.database.db, user.userId);
    expect(account!.balanceTenths).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
    // Each delivered continue is one new version of the one narrator message, paid at the chat price.
    expect(account!.balanceTenths).toBe(30 - 5 * delivered);
    const listed = (await call(t, user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(listed.map((m: Listed) => m.role)).toEqual(["user", "assistant"]);
    expect(listed[1].version_count).toBe(1 + delivered);
  }, 120_000);

  it("a user who cannot pay gets 402 and the message stays as it was", async () => {
    const poor = await createUser(t);
    const poorStory = await newStory(t, poor);
    await turn(t, poor, poorStory, "I count my coins");
    await charge(t.database.db, poor.userId, "video", 4, new Date(), "Spent elsewhere");
    await charge(t.database.db, poor.userId, "chat", 5, new Date(), "Spent elsewhere");
    const refused = await call(t, poor, "POST", `/api/stories/${poorStory}/continue`);
    expect(refused.statusCode).toBe(402);
    expect((await messagesOf(t, poor, poorStory)).map((m) => m.content)).toEqual([
      "I count my coins",
      "The tower door creaks open.",
    ]);
  });
});

describe("deleting a story", () => {
  it("deletes every version of its messages", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const first = await turn(t, user, storyId, "I light a fire");
    await call(t, user, "POST", `/api/stories/${storyId}/messages/${first.message_id}/retry`, {});
    await call(t, user, "PUT", `/api/stories/${storyId}/messages/${first.message_id}/versions/1/select`);
    const count = async () =>
      (
        await t.database.executeSql("select count(*)::int as n from chat_messages where story_id = $1", [
          storyId,
        ])
      ).rows[0] as { n: number };
    expect((await count()).n).toBe(3);
    expect((await call(t, user, "DELETE", `/api/stories/${storyId}`)).statusCode).toBe(200);
    expect((await count()).n).toBe(0);
  });
});

describe("memory, Author's Note and what the narrator sees", () => {
  it("keeps a Memory and an Author's Note that the next turn sends exactly as the context call showed", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    expect((await call(t, user, "GET", `/api/stories/${storyId}/memory`)).json()).toEqual({
      success: true,
      memory: "",
      authors_note: "",
      summary: "",
      summary_updated_at: null,
      summary_covers_messages: 0,
    });
    const saved = await call(t, user, "PUT", `/api/stories/${storyId}/memory`, {
      memory: "Mara is a blind cartographer who maps by sound.",
      authors_note: "Tone: gloomy and slow.",
    });
    expect(saved.json()).toMatchObject({
      success: true,
      memory: "Mara is a blind cartographer who maps by sound.",
      authors_note: "Tone: gloomy and slow.",
      summary: "",
    });
    await turn(t, user, storyId, "I greet Mara");

    const preview = await call(
      t,
      user,
      "GET",
      `/api/stories/${storyId}/context?prompt=${encodeURIComponent("I unroll the map")}&chat_mode=chat`,
    );
    expect(preview.statusCode).toBe(200);
    const context = preview.json();
    expect(context.messages[0].content).toContain("Mara is a blind cartographer who maps by sound.");
    expect(context.messages.at(-2)).toEqual({
      role: "system",
      content: expect.stringContaining("Tone: gloomy and slow."),
    });
    expect(context.parts.map((p: { part: string }) => p.part)).toEqual([
      "instructions",
      "memory",
      "cards",
      "summary",
      "history",
      "authors_note",
      "prompt",
    ]);
    // No cards in this story and no summary yet: those parts cost nothing; every other part does.
    expect(
      context.parts.every(
        (p: { part: string; tokens: number }) => ["cards", "summary"].includes(p.part) === (p.tokens === 0),
      ),
    ).toBe(true);
    expect(context).toMatchObject({ dropped_messages: 0, budget_tokens: 8000 });

    await turn(t, user, storyId, "I unroll the map");
    expect(lastNarratorRequest()).toEqual(context.messages);

    // Without a prompt: what Continue would send.
    const idle = (await call(t, user, "GET", `/api/stories/${storyId}/context`)).json();
    expect(idle.messages.at(-1)).toEqual({ role: "system", content: CONTINUE_INSTRUCTION });
  });

  it("refuses over-long fields, bad queries and other people's stories, changing nothing", async () => {
    const [owner, stranger] = await Promise.all([createUser(t), createUser(t)]);
    const storyId = await newStory(t, owner);
    await call(t, owner, "PUT", `/api/stories/${storyId}/memory`, {
      memory: "Kept",
      authors_note: "Kept too",
    });
    const cases: [Method, string, unknown, number, RegExp][] = [
      [
        "PUT",
        "memory",
        { memory: "x".repeat(65_001), authors_note: "" },
        400,
        /memory must be at most 65000/,
      ],
      [
        "PUT",
        "memory",
        { memory: "", authors_note: "x".repeat(501) },
        400,
        /authors_note must be at most 500/,
      ],
      ["PUT", "memory", { memory: 5, authors_note: "" }, 400, /memory/],
      ["PUT", "memory", { memory: "" }, 400, /authors_note is required/],
      ["GET", `context?prompt=${"x".repeat(4001)}`, undefined, 400, /4000/],
      ["GET", "context?chat_mode=poetry", undefined, 400, /chat_mode/],
    ];
    for (const [method, path, payload, status, detail] of cases) {
      const res = await call(t, owner, method, `/api/stories/${storyId}/${path}`, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(status);
      expect(res.json().detail).toMatch(detail);
    }
    for (const [method, path, payload] of [
      ["GET", "memory", undefined],
      ["PUT", "memory", { memory: "Mine", authors_note: "" }],
      ["GET", "context", undefined],
    ] as const) {
      const res = await call(t, stranger, method, `/api/stories/${storyId}/${path}`, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await call(t, owner, "GET", `/api/stories/${storyId}/memory`)).json()).toMatchObject({
      memory: "Kept",
      authors_note: "Kept too",
    });
  });
});
