// Play without waiting (issue 26): the turn ends when the prose ends, the scene prompt is written by the
// media job afterwards, the next turn is taken while a scene is still being painted, and only a change to the
// message whose scene is being painted waits for it (409, saying so).
import { STILL_PAINTING_DETAIL } from "@storyverse/contract/story-craft";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";
import { postTurnStream } from "../../test/sse";
import { findAccount, ledgerSum } from "../credits/repo";
import { createOfflineImageProvider } from "../providers/offline/image";
import { createOfflineTextProvider } from "../providers/offline/text";
import type { TextRequest } from "../providers/types";
import { findMessageById } from "./repo";

type Gate = { open: Promise<void>; release: () => void };
const newGate = (): Gate => {
  let release = () => {};
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { open, release };
};

let t: TestApp;
let base: string;
/** While set, the painter (or the illustrator) waits for it: a scene "still being made". */
let paintGate: Gate | null = null;
let sceneGate: Gate | null = null;
/** What happened, in order: the narrator's stream ending, the scene requests, the paintings. */
const log: string[] = [];
const sceneRequests: TextRequest[] = [];
const narratorRequests: TextRequest[] = [];
const isSceneRequest = (request: TextRequest) => request.purpose === "scene";

beforeAll(async () => {
  const painter = createOfflineImageProvider({ scale: 0.25 });
  const writer = createOfflineTextProvider({ wordsPerSecond: 200 });
  t = await createTestApp({
    env: { REQUIRE_EMAIL_VERIFICATION: "false" },
    // Turns are ordered by time: the clock moves, so the newest exchange is the one sent last.
    tickingClock: true,
    providers: {
      text: {
        name: writer.name,
        purposes: writer.purposes,
        async complete(request) {
          if (isSceneRequest(request)) {
            sceneRequests.push(request);
            log.push("scene asked");
            await sceneGate?.open;
          } else narratorRequests.push(request);
          return writer.complete(request);
        },
        async *stream(request) {
          narratorRequests.push(request);
          yield* writer.stream(request);
          log.push("prose ended");
        },
      },
      image: {
        name: painter.name,
        async generate(request) {
          log.push("painting");
          await paintGate?.open;
          return painter.generate(request);
        },
      },
    },
  });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
}, 60_000);
afterAll(async () => {
  paintGate?.release();
  sceneGate?.release();
  await t.cleanup();
});
beforeEach(() => {
  paintGate?.release();
  sceneGate?.release();
  paintGate = null;
  sceneGate = null;
  log.length = 0;
  sceneRequests.length = 0;
  narratorRequests.length = 0;
});

type Method = "GET" | "POST" | "PATCH";
const call = (user: TestUser, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function newStory(user: TestUser) {
  const res = await call(user, "POST", "/api/stories", {
    title: "The Ember Crown",
    context: "A harbour town under a red moon.",
  });
  return res.json().story.id as string;
}

async function turn(user: TestUser, storyId: string, prompt: string, mode = "image") {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  expect(res.statusCode).toBe(200);
  return res.json() as { message_id: string; story_text: string; media_generation: { status: string } };
}

async function balanceTenths(user: TestUser) {
  const account = await findAccount(t.ctx.db, user.userId);
  expect(await ledgerSum(t.ctx.db, user.userId)).toBe(account!.balanceTenths);
  return account!.balanceTenths;
}

describe("never blocked by media", () => {
  it("takes and answers a second turn while the first scene is painted; each scene lands on its own message", async () => {
    paintGate = newGate();
    const user = await createUser(t);
    const storyId = await newStory(user);
    const first = await turn(user, storyId, "a dragon circles the lighthouse");
    expect(first.media_generation.status).toBe("started");
    // The first scene is being painted (the painter is holding it)...
    await expect.poll(() => log.includes("painting"), { timeout: 20_000 }).toBe(true);
    // ...and the next turn is taken and answered all the same.
    const second = await turn(user, storyId, "a whale rises from the harbour");
    expect(second.story_text).toContain("whale rises from the harbour");
    const pendingFirst = await findMessageById(t.ctx.db, first.message_id);
    expect(pendingFirst!.mediaStatus).toBe("pending");

    paintGate.release();
    const status = (id: string) => `/api/stories/${storyId}/media-status/${id}`;
    const [a, b] = await Promise.all([
      waitForMedia(t, user.token, status(first.message_id)),
      waitForMedia(t, user.token, status(second.message_id)),
    ]);
    expect(a.media_generation_completed).toBe(true);
    expect(b.media_generation_completed).toBe(true);
    expect(a.image_url).toBeTruthy();
    expect(b.image_url).toBeTruthy();
    expect(a.image_url).not.toBe(b.image_url);
    // Each picture was painted from its own answer's scene.
    const [rowA, rowB] = await Promise.all([
      findMessageById(t.ctx.db, first.message_id),
      findMessageById(t.ctx.db, second.message_id),
    ]);
    expect(rowA!.sceneDescription).toContain("dragon circles the lighthouse");
    expect(rowB!.sceneDescription).toContain("whale rises from the harbour");
    const listed = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages as {
      id: string;
      image_url: string | null;
    }[];
    expect(listed.find((m) => m.id === first.message_id)!.image_url).toBeTruthy();
    expect(listed.find((m) => m.id === second.message_id)!.image_url).toBeTruthy();
    // Two image turns, each charged once: 15 - 2 x 1.5.
    expect(await balanceTenths(user)).toBe(120);
  }, 120_000);

  it("streams prose only and ends it before the scene prompt is written or anything painted", async () => {
    sceneGate = newGate();
    const user = await createUser(t);
    const stream = await postTurnStream(base, "/api/chat", user.token, {
      prompt: "I light the lantern and step into the cave",
      chat_mode: "image",
    });
    const done = await stream.next((event) => event.event === "done");
    const body = done.data as { story_text: string; message_id: string };
    const written = stream.events
      .filter((event) => event.event === "delta")
      .map((event) => (event.data as { text: string }).text)
      .join("");
    expect(written.trim()).toBe(body.story_text);
    expect(written).not.toMatch(/SCENE/i);
    // The narrator was not asked for a scene at all.
    expect(JSON.stringify(narratorRequests)).not.toMatch(/SCENE/);
    // The answer is in; its scene is not written yet (the illustrator is held) and nothing is painted.
    expect(log).not.toContain("painting");
    const row = await findMessageById(t.ctx.db, body.message_id);
    expect(row).toMatchObject({ mediaStatus: "pending", sceneDescription: null });

    sceneGate.release();
    const media = await waitForMedia(t, user.token, `/api/chat/media-status/${body.message_id}`);
    expect(media.media_generation_completed).toBe(true);
    // The job asked for the scene from the finished answer, once, then painted.
    expect(sceneRequests).toHaveLength(1);
    expect(sceneRequests[0]!.messages.at(-1)!.content).toContain(body.story_text);
    expect(log.indexOf("prose ended")).toBeLessThan(log.indexOf("scene asked"));
    expect(log.indexOf("scene asked")).toBeLessThan(log.indexOf("painting"));
    const painted = await findMessageById(t.ctx.db, body.message_id);
    expect(painted!.sceneDescription).toContain("the lantern and the cave");
    expect(painted!.sceneDescription).not.toMatch(/^SCENE/);
  }, 120_000);

  it("holds retry, undo and edit of the message whose scene is painted (409, saying so), and only that one", async () => {
    paintGate = newGate();
    const user = await createUser(t);
    const storyId = await newStory(user);
    const painting = await turn(user, storyId, "a storm breaks over the walls");
    const before = await balanceTenths(user);

    const retry = await call(
      user,
      "POST",
      `/api/stories/${storyId}/messages/${painting.message_id}/retry`,
      {},
    );
    const undo = await call(user, "POST", `/api/stories/${storyId}/undo`);
    const edit = await call(user, "PATCH", `/api/stories/${storyId}/messages/${painting.message_id}`, {
      content: "A calm night instead.",
    });
    for (const refused of [retry, undo, edit]) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe(STILL_PAINTING_DETAIL);
    }
    expect(STILL_PAINTING_DETAIL).toMatch(/this message's scene is still being painted/i);
    // Nothing changed, nothing charged.
    expect(await balanceTenths(user)).toBe(before);
    expect((await findMessageById(t.ctx.db, painting.message_id))!.content).toBe(painting.story_text);

    // A newer exchange does not wait for the older scene: it is answered and can be undone meanwhile.
    await turn(user, storyId, "I shelter in the gatehouse", "chat");
    const undoNewer = await call(user, "POST", `/api/stories/${storyId}/undo`);
    expect(undoNewer.statusCode).toBe(200);
    expect((await findMessageById(t.ctx.db, painting.message_id))!.mediaStatus).toBe("pending");

    // Once its scene is in, the message can be changed again.
    paintGate.release();
    await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${painting.message_id}`);
    const later = await call(user, "PATCH", `/api/stories/${storyId}/messages/${painting.message_id}`, {
      content: "A calm night instead.",
    });
    expect(later.statusCode).toBe(200);
  }, 120_000);
});
