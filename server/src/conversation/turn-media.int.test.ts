// A turn shows an edit of its own picture (decision 0163): PUT /api/stories/{id}/messages/{message_id}/media
// puts a picture made from the turn's (or the one it was made from) in its place, for this branch only; a
// picture from elsewhere, another player's, or a message without a picture is refused and changes nothing.
import { NOT_THIS_TURNS_LINE_DETAIL, TURN_HAS_NO_MEDIA_DETAIL } from "@storyverse/contract/story-craft";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { galleryImage, waitForMedia } from "../../test/media";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PUT";
const call = (user: TestUser, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

type Listed = { id: string; role: string; image_url: string | null };

/** A story of one picture turn, painted offline: its id, the narrator's message and its gallery item. */
async function storyWithPicture(user: TestUser) {
  const created = await call(user, "POST", "/api/stories", { title: "Glass Harbour", context: "" });
  const storyId = created.json().story.id as string;
  const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
    prompt: "I walk to the lighthouse",
    chat_mode: "image",
  });
  expect(turn.statusCode, turn.body).toBe(200);
  const messageId = turn.json().message_id as string;
  const media = await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${messageId}`);
  expect(media.image_url).toBeTruthy();
  return { storyId, messageId, pictureId: await itemIdOf(user, media.image_url!) };
}

async function itemIdOf(user: TestUser, url: string) {
  const res = await call(user, "GET", `/api/media/by-url?url=${encodeURIComponent(url)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().item.id as string;
}

async function shownPictureId(user: TestUser, storyId: string, messageId: string, branch?: string) {
  const res = await call(user, "GET", `/api/stories/${storyId}/messages${branch ? `?branch=${branch}` : ""}`);
  const message = (res.json().messages as Listed[]).find((m) => m.role === "assistant");
  expect(message, `message ${messageId}`).toBeTruthy();
  return itemIdOf(user, message!.image_url!);
}

const vary = async (user: TestUser, id: string) => {
  const res = await call(user, "POST", `/api/media/${id}/edit`, { kind: "vary", strength: "subtle" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().item.id as string;
};

const replace = (user: TestUser, storyId: string, messageId: string, galleryItemId: string, branch = "") =>
  call(user, "PUT", `/api/stories/${storyId}/messages/${messageId}/media${branch}`, {
    gallery_item_id: galleryItemId,
  });

describe("a turn shows an edit of its picture", () => {
  it("puts an edit (and an edit of the edit) in the turn's place, and goes back to the original", async () => {
    const user = await createUser(t);
    const { storyId, messageId, pictureId } = await storyWithPicture(user);
    const edited = await vary(user, pictureId);
    const editedAgain = await vary(user, edited);

    const res = await replace(user, storyId, messageId, editedAgain);
    expect(res.statusCode, res.body).toBe(200);
    expect(await itemIdOf(user, res.json().message.image_url)).toBe(editedAgain);
    expect(await shownPictureId(user, storyId, messageId)).toBe(editedAgain);
    // The original is kept in the Gallery, and the turn can show it again.
    const back = await replace(user, storyId, messageId, pictureId);
    expect(back.statusCode, back.body).toBe(200);
    expect(await shownPictureId(user, storyId, messageId)).toBe(pictureId);
  });

  it("refuses a picture from elsewhere, another player's, and a message without a picture, changing nothing", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const { storyId, messageId, pictureId } = await storyWithPicture(user);
    const unrelated = await galleryImage(t, user.userId, "#884422");
    const foreign = await vary(other, (await galleryImage(t, other.userId, "#224488")).id);

    const elsewhere = await replace(user, storyId, messageId, unrelated.id);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().detail).toBe(NOT_THIS_TURNS_LINE_DETAIL);
    const theirs = await replace(user, storyId, messageId, foreign);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().detail).toBe("This picture is not in your Gallery.");
    // Another player cannot change this story's turn, even with a picture of their own line.
    const intruder = await replace(other, storyId, messageId, foreign);
    expect(intruder.statusCode).toBe(404);
    const bad = await replace(user, storyId, messageId, "not-an-id");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain("gallery_item_id");

    const listed = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages as Listed[];
    const line = listed.find((m) => m.role === "user")!;
    const noPicture = await replace(user, storyId, line.id, await vary(user, pictureId));
    expect(noPicture.statusCode).toBe(400);
    expect(noPicture.json().detail).toBe(TURN_HAS_NO_MEDIA_DETAIL);
    expect(await shownPictureId(user, storyId, messageId)).toBe(pictureId);
  });

  it("changes the picture on one branch only: a branch that shares the turn keeps its own", async () => {
    const user = await createUser(t);
    const { storyId, messageId, pictureId } = await storyWithPicture(user);
    const branched = await call(user, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: messageId,
    });
    expect(branched.statusCode, branched.body).toBe(201);
    const branchId = branched.json().branch.id as string;
    const edited = await vary(user, pictureId);
    const res = await replace(user, storyId, messageId, edited, `?branch=${branchId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await shownPictureId(user, storyId, messageId, branchId)).toBe(edited);
    const tree = (await call(user, "GET", `/api/stories/${storyId}/branches`)).json();
    const main = (tree.branches as { id: string; forked_from: unknown }[]).find((b) => !b.forked_from)!.id;
    expect(await shownPictureId(user, storyId, messageId, main)).toBe(pictureId);
  });
});
