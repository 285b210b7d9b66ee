import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function newStory(user: TestUser, title = "The Ember Crown", context = "A dragon-haunted kingdom") {
  const res = await call(user, "POST", "/api/stories", { title, context });
  expect(res.statusCode).toBe(200);
  return res.json().story as {
    id: string;
    title: string;
    context: string;
    message_count: number;
    thumbnail: string | null;
  };
}

describe("stories", () => {
  it("creates, lists, renames and deletes a story, keeping its media in the gallery", async () => {
    const user = await createUser(t);
    expect((await call(user, "GET", "/api/stories")).json()).toEqual({
      success: true,
      stories: [],
      next_cursor: null,
      has_more: false,
    });
    const story = await newStory(user, "  The Ember Crown  ");
    expect(story).toMatchObject({
      title: "The Ember Crown",
      context: "A dragon-haunted kingdom",
      message_count: 0,
      thumbnail: null,
    });

    const turn = (
      await call(user, "POST", `/api/stories/${story.id}/chat`, {
        prompt: "I climb the tower",
        chat_mode: "image",
      })
    ).json();
    expect(turn.media_generation.status).toBe("started");
    const status = await waitForMedia(
      t,
      user.token,
      `/api/stories/${story.id}/media-status/${turn.message_id}`,
    );
    expect(status.media_generation_completed).toBe(true);

    const [listed] = (await call(user, "GET", "/api/stories")).json().stories;
    expect(listed.message_count).toBe(2);
    expect(listed.thumbnail).toMatch(/\.thumb\.webp/);
    expect(new Date(listed.last_updated).getTime()).toBeGreaterThanOrEqual(
      new Date(listed.created_at).getTime(),
    );

    const media = (await call(user, "GET", `/api/stories/${story.id}/media`)).json().media;
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ message_id: turn.message_id, type: "image" });

    const messages = (await call(user, "GET", `/api/stories/${story.id}/messages`)).json().messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1].image_url).toBeTruthy();

    const renamed = await call(user, "PUT", `/api/stories/${story.id}`, {
      title: "  The Ash Crown ",
      context: "New context",
    });
    expect(renamed.json().story).toMatchObject({ title: "The Ash Crown", context: "New context" });

    const deleted = await call(user, "DELETE", `/api/stories/${story.id}`);
    expect(deleted.json().success).toBe(true);
    expect((await call(user, "GET", "/api/stories")).json().stories).toEqual([]);
    expect((await call(user, "GET", `/api/stories/${story.id}/messages`)).statusCode).toBe(404);
    const gallery = (await call(user, "GET", "/api/user/images")).json().images;
    expect(gallery).toHaveLength(1);
    expect(gallery[0]).toMatchObject({ source: "story", story_id: story.id, story_title: "The Ember Crown" });
  });

  it("sends the selected images as references in image mode, and refuses images that are not yours", async () => {
    const user = await createUser(t);
    const story = await newStory(user);
    const first = (
      await call(user, "POST", `/api/stories/${story.id}/chat`, { prompt: "A knight", chat_mode: "image" })
    ).json();
    const done = await waitForMedia(
      t,
      user.token,
      `/api/stories/${story.id}/media-status/${first.message_id}`,
    );
    const selected = { id: `story-${first.message_id}`, url: done.image_url, messageId: first.message_id };
    const second = await call(user, "POST", `/api/stories/${story.id}/chat`, {
      prompt: "The same knight rides out",
      chat_mode: "image",
      batchSize: 1,
      inputImages: [selected],
    });
    expect(second.statusCode).toBe(200);
    const { rows } = await t.database.executeSql("select reference_keys from chat_messages where id = $1", [
      second.json().message_id,
    ]);
    expect(rows[0]?.reference_keys).toHaveLength(1);

    const stranger = await createUser(t);
    const strangerStory = await newStory(stranger);
    const stolen = await call(stranger, "POST", `/api/stories/${strangerStory.id}/chat`, {
      prompt: "Borrow that knight",
      chat_mode: "image",
      inputImages: [selected],
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().detail).toContain("not yours");
    expect((await call(stranger, "GET", "/api/credit-balance")).json().remaining).toBe(15);
  });

  it.each([
    ["POST", "", { title: "" }, "Story title is required"],
    ["POST", "", { title: "   " }, "Story title is required"],
    ["POST", "", { title: "x".repeat(31) }, "at most 30"],
    ["POST", "", { title: "ok", context: "x".repeat(65_001) }, "at most 65000"],
    ["PUT", "/ID", { title: "x".repeat(101) }, "at most 100"],
    ["PUT", "/ID", {}, "Nothing to update"],
    ["PUT", "/ID", { thumbnail: "https://example.com/cat.png" }, "your own images"],
    ["POST", "/ID/chat", { prompt: "go", batchSize: 5 }, "batchSize must be between 1 and 4"],
    ["POST", "/ID/chat", { prompt: "go", batchSize: 0 }, "batchSize must be between 1 and 4"],
    ["POST", "/ID/chat", { prompt: "go", inputImages: Array(11).fill("x") }, "Maximum 10 images"],
    ["POST", "/ID/chat", { prompt: "go", chat_mode: "opera" }, "chat_mode"],
    [
      "POST",
      "/ID/chat",
      { prompt: "go", chat_mode: "image", inputImages: ["data:image/png;base64,aGVsbG8="] },
      "image files only",
    ],
  ] as const)("%s /api/stories%s with %j is a 400 and charges nothing", async (method, path, payload, fragment) => {
    const user = await createUser(t);
    const story = await newStory(user);
    const res = await call(user, method, `/api/stories${path.replace("ID", story.id)}`, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(fragment);
    expect((await call(user, "GET", "/api/credit-balance")).json().remaining).toBe(15);
    const [after] = (await call(user, "GET", "/api/stories")).json().stories;
    expect(after).toMatchObject({ title: "The Ember Crown", message_count: 0 });
  });

  it("another user's story is a 404 on every endpoint", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const story = await newStory(owner);
    const turn = (
      await call(owner, "POST", `/api/stories/${story.id}/chat`, { prompt: "hello", chat_mode: "chat" })
    ).json();
    const attempts = [
      ["PUT", `/api/stories/${story.id}`, { title: "mine now" }],
      ["DELETE", `/api/stories/${story.id}`, undefined],
      ["GET", `/api/stories/${story.id}/messages`, undefined],
      ["GET", `/api/stories/${story.id}/media`, undefined],
      ["GET", `/api/stories/${story.id}/media-status/${turn.message_id}`, undefined],
      ["POST", `/api/stories/${story.id}/chat`, { prompt: "hijack", chat_mode: "chat" }],
    ] as const;
    for (const [method, url, payload] of attempts) {
      const res = await call(stranger, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(stranger, "GET", "/api/stories")).json().stories).toEqual([]);
    const [still] = (await call(owner, "GET", "/api/stories")).json().stories;
    expect(still).toMatchObject({ title: "The Ember Crown", message_count: 2 });
    expect((await call(stranger, "GET", "/api/credit-balance")).json().remaining).toBe(15);
  });

  it("stores hostile text as it is: escaping is the client's job, and nothing is interpreted", async () => {
    const user = await createUser(t);
    const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
    const story = await newStory(user, "<b>bold</b>", hostile);
    expect(story.title).toBe("<b>bold</b>");
    const res = await call(user, "POST", `/api/stories/${story.id}/chat`, {
      prompt: `[x](javascript:alert(3)) ${hostile}`,
      chat_mode: "chat",
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/json");
  });
});
