// Story craft through the HTTP API on a real database: retry with versions, edit, undo and continue. The
// narrator is a fake OpenAI server (its wire format), so a test can read exactly what the next turn sent.
import {
  NEWEST_ONLY_DETAIL,
  NOTHING_TO_UNDO_DETAIL,
  STILL_PAINTING_DETAIL,
  STILL_WRITING_DETAIL,
} from "@storyverse/contract/story-craft";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { waitForMedia } from "../../test/media";
import { findAccount, ledgerSum } from "../credits/repo";
import { charge } from "../credits/service";
import { createOfflineImageProvider } from "../providers/offline/image";

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
      PROVIDER_TIMEOUT_SECONDS: "3",
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
  const requests = openai.requests.filter((r) => r.path === "/v1/chat/completions");
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
    expect(busy.json().detail).toBe(STILL_PAINTING_DETAIL);
    expect(newest.message_id).toBeTruthy();
    // Nothing was charged for the refused retries: 15 - 0.5 - 0.5 - 1.5.
    expect(await balance(t, user)).toBe(12.5);
  });

  it("answers 409 while the narrator is still writing the newest turn, and refunds a turn whose narrator failed", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    const first = await turn(t, user, storyId, "I listen");
    openai.failNext("hang", "/chat/completions");
    const writing = turn(t, user, storyId, "I listen harder").catch(() => undefined);
    // Let the hanging request reach the narrator.
    await expect.poll(() => openai.requests.filter((r) => r.path === "/v1/chat/completions").length).toBe(2);
    const retry = await call(
      t,
      user,
      "POST",
      `/api/stories/${storyId}/messages/${first.message_id}/retry`,
      {},
    );
    expect(retry.statusCode).toBe(409);
    expect(retry.json().detail).toBe(STILL_WRITING_DETAIL);
    const undo = await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    expect(undo.json().detail).toBe(STILL_WRITING_DETAIL);
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
      ["PATCH", base, { content: "x".repeat(4001) }, 400, /4000/],
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
    expect(undo.json().detail).toBe(STILL_PAINTING_DETAIL);
    expect(await messagesOf(t, user, storyId)).toHaveLength(2);
  });
});

describe("continue", () => {
  it("carries the story on without a player message, priced and shaped as a turn", async () => {
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    await turn(t, user, storyId, "I set sail");
    answer("The wind rises on its own.");
    const res = await call(t, user, "POST", `/api/stories/${storyId}/continue`, { chat_mode: "chat" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      story_text: "The wind rises on its own.",
      media_generation: { status: "none", type: null },
      quota_info: { charged: 0.5, remaining: 14 },
    });
    const sent = lastNarratorRequest();
    expect(sent.slice(1, 3).map((m) => m.content)).toEqual(["I set sail", "The tower door creaks open."]);
    expect(sent.at(-1)?.role).toBe("user");
    expect((await messagesOf(t, user, storyId)).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "assistant",
    ]);

    // A continued answer can be retried (the narrator is asked to carry on again) and undone alone.
    answer("The wind falls still instead.");
    const retried = await call(
      t,
      user,
      "POST",
      `/api/stories/${storyId}/messages/${res.json().message_id}/retry`,
    );
    expect(retried.json()).toMatchObject({ story_text: "The wind falls still instead." });
    expect(lastNarratorRequest().at(-1)).toEqual(sent.at(-1));
    await call(t, user, "POST", `/api/stories/${storyId}/undo`);
    expect((await messagesOf(t, user, storyId)).map((m) => m.role)).toEqual(["user", "assistant"]);

    const image = await call(t, user, "POST", `/api/stories/${storyId}/continue`);
    expect(image.json().media_generation).toEqual({ status: "started", type: "image" });
  });

  it("waits while the newest media is being made, and a user who cannot pay gets 402", async () => {
    holdImages();
    const user = await createUser(t);
    const storyId = await newStory(t, user);
    await turn(t, user, storyId, "I paint", "image");
    const busy = await call(t, user, "POST", `/api/stories/${storyId}/continue`, { chat_mode: "chat" });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().detail).toBe(STILL_PAINTING_DETAIL);

    const poor = await createUser(t);
    const poorStory = await newStory(t, poor);
    await charge(t.database.db, poor.userId, "video", 4, new Date(), "Spent elsewhere");
    await charge(t.database.db, poor.userId, "chat", 6, new Date(), "Spent elsewhere");
    const refused = await call(t, poor, "POST", `/api/stories/${poorStory}/continue`, { chat_mode: "chat" });
    expect(refused.statusCode).toBe(402);
    expect(await messagesOf(t, poor, poorStory)).toEqual([]);
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
    expect(idle.messages.at(-1)).toEqual({ role: "user", content: "Continue the story: what happens next?" });
  });

  it("refuses over-long fields, bad queries and other people's stories, changing nothing", async () => {
    const [owner, stranger] = await Promise.all([createUser(t), createUser(t)]);
    const storyId = await newStory(t, owner);
    await call(t, owner, "PUT", `/api/stories/${storyId}/memory`, {
      memory: "Kept",
      authors_note: "Kept too",
    });
    const cases: [Method, string, unknown, number, RegExp][] = [
      ["PUT", "memory", { memory: "x".repeat(2001), authors_note: "" }, 400, /memory must be at most 2000/],
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
