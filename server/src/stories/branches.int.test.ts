// Branches and checkpoints (issue #28) through the HTTP API on a real database (both engines), with the
// offline narrator and painter: branching from an exchange copies the history up to it and leaves the
// original alone; the story's calls follow the branch being viewed (or ?branch=); deleting a branch never
// takes another's turns or media; bad input gets a 4xx and changes nothing; others get 404; and turns on
// many branches at once keep the ledger equal to the balance.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";
import { readZip } from "../../test/zip";
import { ledgerSum } from "../credits/repo";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

type Message = { id: string; role: string; content: string; image_url?: string | null };
type Branch = {
  id: string;
  name: string;
  turns: number;
  thumbnail: string | null;
  forked_from: { branch_id: string | null; message_id: string; turn: number; words: string } | null;
  checkpoints: { message_id: string; name: string; turn: number }[];
};

async function newStory(user: TestUser, title = "Salt Roads") {
  const res = await call(user, "POST", "/api/stories", { title, context: "A port town" });
  expect(res.statusCode).toBe(200);
  return res.json().story.id as string;
}

async function turn(user: TestUser, url: string, prompt: string, mode: "chat" | "image" = "chat") {
  const res = await call(user, "POST", url, { prompt, chat_mode: mode });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { message_id: string };
}

const messages = async (user: TestUser, storyId: string, branch?: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/messages${branch ? `?branch=${branch}` : ""}`)).json()
    .messages as Message[];

const branches = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/branches`)).json() as {
    current_branch_id: string;
    branches: Branch[];
  };

/** A story of four exchanges; answers to "Turn N" name N. */
async function fourTurnStory(user: TestUser) {
  const storyId = await newStory(user);
  for (const n of [1, 2, 3, 4]) await turn(user, `/api/stories/${storyId}/chat`, `Turn ${n}: I walk on`);
  const shown = await messages(user, storyId);
  expect(shown).toHaveLength(8);
  return { storyId, shown };
}

describe("branches", () => {
  it("branches from turn 2 of 4: the new branch holds turns 1 and 2, the story shows it, the original is untouched", async () => {
    const user = await createUser(t);
    const { storyId, shown } = await fourTurnStory(user);
    const main = (await branches(user, storyId)).branches[0]!;
    expect(main).toMatchObject({ id: storyId, name: "Main", turns: 4, forked_from: null });

    const created = await call(user, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: shown[3]!.id,
      name: "The duel lost",
    });
    expect(created.statusCode, created.body).toBe(201);
    const branch = created.json().branch as Branch;
    expect(branch).toMatchObject({ name: "The duel lost", turns: 2 });
    expect(branch.forked_from).toMatchObject({ branch_id: storyId, message_id: shown[3]!.id, turn: 2 });
    expect(branch.forked_from!.words.length).toBeGreaterThan(10);
    expect(
      shown[3]!.content.replace(/\s+/g, " ").startsWith(branch.forked_from!.words.replace(/…$/, "")),
    ).toBe(true);

    // The story now shows the new branch: its calls act on it.
    const onBranch = await messages(user, storyId);
    expect(onBranch.map((m) => m.content)).toEqual(shown.slice(0, 4).map((m) => m.content));
    // The branch shares those turns with the story (decision 0137): the same messages, not copies.
    expect(onBranch.map((m) => m.id)).toEqual(shown.slice(0, 4).map((m) => m.id));
    const [story] = (await call(user, "GET", "/api/stories")).json().stories;
    expect(story).toMatchObject({ id: storyId, branch: { id: branch.id, name: "The duel lost" } });

    // Played on, the branch grows; the original keeps its four turns.
    await turn(user, `/api/stories/${storyId}/chat`, "I yield to the duke");
    expect(await messages(user, storyId)).toHaveLength(6);
    expect((await messages(user, storyId, storyId)).map((m) => m.id)).toEqual(shown.map((m) => m.id));
    const listed = await branches(user, storyId);
    expect(listed.current_branch_id).toBe(branch.id);
    expect(listed.branches.map((b) => [b.name, b.turns])).toEqual([
      ["Main", 4],
      ["The duel lost", 3],
    ]);

    // Switching back shows the original again.
    const back = await call(user, "PUT", `/api/stories/${storyId}/branch`, { branch_id: storyId });
    expect(back.json()).toEqual({ success: true, current_branch_id: storyId });
    expect((await messages(user, storyId)).map((m) => m.id)).toEqual(shown.map((m) => m.id));
    // The story list shows one story, on the branch it shows.
    const list = (await call(user, "GET", "/api/stories")).json().stories;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: storyId, message_count: 8, branch: { id: storyId, name: "Main" } });
  });

  it("branching from a player's message takes its answer along; a second-level branch names its parent", async () => {
    const user = await createUser(t);
    const { storyId, shown } = await fourTurnStory(user);
    const first = (
      await call(user, "POST", `/api/stories/${storyId}/branches`, { from_message_id: shown[2]!.id })
    ).json().branch as Branch;
    expect(first).toMatchObject({ name: "Branch 2", turns: 2 });
    const onFirst = await messages(user, storyId);
    const second = await call(user, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: onFirst[1]!.id,
      name: "Back to the start",
    });
    expect(second.json().branch).toMatchObject({ turns: 1, forked_from: { branch_id: first.id, turn: 1 } });
  });

  it("names checkpoints and lists them under their branch; a player's message cannot be one", async () => {
    const user = await createUser(t);
    const { storyId, shown } = await fourTurnStory(user);
    const named = await call(user, "PUT", `/api/stories/${storyId}/checkpoints/${shown[3]!.id}`, {
      name: "Before the duel",
    });
    expect(named.json()).toEqual({ success: true, message_id: shown[3]!.id, name: "Before the duel" });
    expect((await branches(user, storyId)).branches[0]!.checkpoints).toEqual([
      { message_id: shown[3]!.id, name: "Before the duel", turn: 2 },
    ]);
    const onPlayer = await call(user, "PUT", `/api/stories/${storyId}/checkpoints/${shown[2]!.id}`, {
      name: "Nope",
    });
    expect(onPlayer.statusCode).toBe(400);
    expect(onPlayer.json().detail).toBe("A checkpoint names a narrator message.");
    const tooLong = await call(user, "PUT", `/api/stories/${storyId}/checkpoints/${shown[3]!.id}`, {
      name: "x".repeat(61),
    });
    expect(tooLong.statusCode).toBe(400);
    expect((await branches(user, storyId)).branches[0]!.checkpoints[0]!.name).toBe("Before the duel");
    await call(user, "PUT", `/api/stories/${storyId}/checkpoints/${shown[3]!.id}`, { name: null });
    expect((await branches(user, storyId)).branches[0]!.checkpoints).toEqual([]);
  });

  it("deleting a branch never takes the turns or media another branch shares; the last branch stays", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const painted = await turn(user, `/api/stories/${storyId}/chat`, "I paint the harbour", "image");
    const done = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${painted.message_id}`,
    );
    expect(done.media_generation_completed).toBe(true);
    await turn(user, `/api/stories/${storyId}/chat`, "I sail north");
    const shown = await messages(user, storyId);
    const fork = (
      await call(user, "POST", `/api/stories/${storyId}/branches`, { from_message_id: painted.message_id })
    ).json().branch as Branch;
    expect(fork.thumbnail).not.toBeNull();

    // Deleting the story's first branch: the fork keeps the shared turn and its picture.
    expect((await call(user, "DELETE", `/api/stories/${storyId}/branches/${storyId}`)).statusCode).toBe(204);
    const left = await branches(user, storyId);
    expect(left.branches.map((b) => b.id)).toEqual([fork.id]);
    expect(left.current_branch_id).toBe(fork.id);
    const kept = await messages(user, storyId);
    expect(kept.map((m) => m.content)).toEqual(shown.slice(0, 2).map((m) => m.content));
    const picture = await t.app.inject({ method: "GET", url: kept[1]!.image_url! });
    expect(picture.statusCode).toBe(200);
    // The picture stays in the gallery.
    const gallery = (await call(user, "GET", "/api/user/images")).json().images as unknown[];
    expect(gallery).toHaveLength(1);

    // The last branch stays: 409, and nothing changes.
    const last = await call(user, "DELETE", `/api/stories/${storyId}/branches/${fork.id}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().detail).toMatch(/at least one branch/);
    expect(last.json().code).toBe("last_branch");
    expect(await messages(user, storyId)).toHaveLength(2);
    // The story list still shows the story, on its remaining branch.
    const list = (await call(user, "GET", "/api/stories")).json().stories;
    expect(list).toEqual([expect.objectContaining({ id: storyId, message_count: 2 })]);

    // Deleting the story deletes every branch.
    expect((await call(user, "DELETE", `/api/stories/${storyId}`)).statusCode).toBe(200);
    expect((await call(user, "GET", `/api/stories/${fork.id}`)).statusCode).toBe(404);
    expect((await call(user, "GET", "/api/stories")).json().stories).toEqual([]);
  });

  it("an uploaded reference another branch still names stays when a branch goes; it goes with its last branch", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: "#884422" } })
      .png()
      .toBuffer();
    const sent = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "The lighthouse from my sketch",
      chat_mode: "image",
      inputImages: [`data:image/png;base64,${png.toString("base64")}`],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const { message_id } = sent.json() as { message_id: string };
    await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${message_id}`);
    const [row] = (
      await t.database.executeSql("select reference_keys from chat_messages where id = $1", [message_id])
    ).rows as { reference_keys: string[] }[];
    const upload = row!.reference_keys.find((key) => key.includes("/inputs/"))!;
    expect(upload).toBeTruthy();

    const fork = async () =>
      (await call(user, "POST", `/api/stories/${storyId}/branches`, { from_message_id: message_id })).json()
        .branch as Branch;
    // A fork goes: Main still names the upload, so the file stays.
    const first = await fork();
    expect((await call(user, "DELETE", `/api/stories/${storyId}/branches/${first.id}`)).statusCode).toBe(204);
    await expect(t.storage.size(upload)).resolves.toBeGreaterThan(0);
    // Main goes: the second fork names it, so it stays; when the story goes, the file goes too.
    const second = await fork();
    expect((await call(user, "DELETE", `/api/stories/${storyId}/branches/${storyId}`)).statusCode).toBe(204);
    await expect(t.storage.size(upload)).resolves.toBeGreaterThan(0);
    expect((await messages(user, storyId, second.id)).length).toBe(2);
    expect((await call(user, "DELETE", `/api/stories/${storyId}`)).statusCode).toBe(200);
    await expect(t.storage.size(upload)).rejects.toThrow();
  }, 60_000);

  it("a picture still being made when the branch is made reaches the branch too", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const painted = await turn(user, `/api/stories/${storyId}/chat`, "I light the beacon", "image");
    const fork = (
      await call(user, "POST", `/api/stories/${storyId}/branches`, { from_message_id: painted.message_id })
    ).json().branch as Branch;
    const copy = (await messages(user, storyId, fork.id))[1]!;
    // The branch shares the painted message itself (decision 0137).
    expect(copy.id).toBe(painted.message_id);
    const status = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${copy.id}?branch=${fork.id}`,
    );
    expect(status.media_generation_completed).toBe(true);
    expect(status.image_url).not.toBeNull();
  });

  it("an export and a share link of a branch name it", async () => {
    const user = await createUser(t);
    const { storyId, shown } = await fourTurnStory(user);
    const fork = (
      await call(user, "POST", `/api/stories/${storyId}/branches`, {
        from_message_id: shown[3]!.id,
        name: "Storm",
      })
    ).json().branch as Branch;
    const book = await call(user, "GET", `/api/stories/${storyId}/export?format=md&branch=${fork.id}`);
    expect(book.statusCode).toBe(200);
    expect(book.headers["content-disposition"]).toContain("Salt-Roads-Storm");
    const [markdown] = await readZip(book.rawPayload);
    const text = markdown!.data.toString("utf8");
    expect(text).toContain("Salt Roads (Storm)");
    expect(text).toContain(shown[3]!.content.slice(0, 30));
    expect(text).not.toContain(shown[5]!.content.slice(0, 30));
    const share = await call(user, "POST", `/api/stories/${storyId}/share?branch=${fork.id}`, {});
    const token = new URL(share.json().url).pathname.replace(/^\/s\//, "");
    const shared = (await t.app.inject({ method: "GET", url: `/api/shared/${token}` })).json();
    expect(shared.story.title).toBe("Salt Roads (Storm)");
    expect(shared.messages).toHaveLength(4);
  });

  it("refuses bad input with a 4xx and changes nothing; others get 404", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const { storyId, shown } = await fourTurnStory(user);
    const elsewhere = await newStory(user, "Elsewhere");
    const foreign = await turn(user, `/api/stories/${elsewhere}/chat`, "Somewhere else");

    const cases: [Method, string, unknown, number, RegExp][] = [
      [
        "POST",
        `/api/stories/${storyId}/branches`,
        { from_message_id: foreign.message_id },
        400,
        /branch being viewed/,
      ],
      ["POST", `/api/stories/${storyId}/branches`, { from_message_id: "nope" }, 400, /message id/],
      [
        "POST",
        `/api/stories/${storyId}/branches`,
        { from_message_id: shown[1]!.id, name: "" },
        400,
        /1 to 60/,
      ],
      [
        "POST",
        `/api/stories/${storyId}/branches`,
        { from_message_id: shown[1]!.id, name: "n".repeat(61) },
        400,
        /1 to 60/,
      ],
      ["GET", `/api/stories/${storyId}/messages?branch=${elsewhere}`, undefined, 404, /Branch not found/],
      ["GET", `/api/stories/${storyId}/messages?branch=garbage`, undefined, 400, /branch/],
      ["PUT", `/api/stories/${storyId}/branch`, { branch_id: elsewhere }, 404, /Branch not found/],
      ["PATCH", `/api/stories/${storyId}/branches/${elsewhere}`, { name: "X" }, 404, /Branch not found/],
      ["DELETE", `/api/stories/${storyId}/branches/${elsewhere}`, undefined, 404, /Branch not found/],
    ];
    for (const [method, url, body, status, detail] of cases) {
      const res = await call(user, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json().detail, `${method} ${url}`).toMatch(detail);
    }
    expect((await branches(user, storyId)).branches).toHaveLength(1);
    expect((await branches(user, elsewhere)).branches).toHaveLength(1);

    const branch = (
      await call(user, "POST", `/api/stories/${storyId}/branches`, { from_message_id: shown[1]!.id })
    ).json().branch as Branch;
    for (const [method, url, body] of [
      ["GET", `/api/stories/${storyId}/branches`, undefined],
      ["POST", `/api/stories/${storyId}/branches`, { from_message_id: shown[1]!.id }],
      ["PATCH", `/api/stories/${storyId}/branches/${branch.id}`, { name: "Mine now" }],
      ["DELETE", `/api/stories/${storyId}/branches/${branch.id}`, undefined],
      ["PUT", `/api/stories/${storyId}/branch`, { branch_id: storyId }],
      ["PUT", `/api/stories/${storyId}/checkpoints/${shown[1]!.id}`, { name: "Mine" }],
      ["GET", `/api/stories/${branch.id}/messages`, undefined],
    ] as [Method, string, unknown][]) {
      expect((await call(other, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    const after = await branches(user, storyId);
    expect(after.branches.map((b) => b.name)).toEqual(["Main", "Branch 2"]);
    expect(after.current_branch_id).toBe(branch.id);
    expect(after.branches[0]!.checkpoints).toEqual([]);
  });

  it("renames a branch", async () => {
    const user = await createUser(t);
    const { storyId } = await fourTurnStory(user);
    const renamed = await call(user, "PATCH", `/api/stories/${storyId}/branches/${storyId}`, {
      name: "  Canon  ",
    });
    expect(renamed.json().branch).toMatchObject({ id: storyId, name: "Canon" });
    expect((await call(user, "GET", "/api/stories")).json().stories[0].branch.name).toBe("Canon");
  });

  it("keeps at most 100 branches per story", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const { message_id } = await turn(user, `/api/stories/${storyId}/chat`, "I wait");
    for (let n = 2; n <= 100; n++) {
      const res = await call(user, "POST", `/api/stories/${storyId}/branches?branch=${storyId}`, {
        from_message_id: message_id,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const over = await call(user, "POST", `/api/stories/${storyId}/branches?branch=${storyId}`, {
      from_message_id: message_id,
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toMatch(/at most 100 branches/);
    expect((await branches(user, storyId)).branches).toHaveLength(100);
  }, 120_000);

  it("runs turns on several branches at once (none waits for another) and keeps the ledger equal to the balance", async () => {
    const user = await createUser(t); // 15 credits: 30 turns of 0.5
    const { storyId, shown } = await fourTurnStory(user);
    const forks: string[] = [storyId];
    for (const message of [shown[1]!, shown[3]!, shown[5]!, shown[7]!]) {
      const res = await call(user, "POST", `/api/stories/${storyId}/branches?branch=${storyId}`, {
        from_message_id: message.id,
      });
      forks.push(res.json().branch.id);
    }
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        call(user, "POST", `/api/stories/${storyId}/chat?branch=${forks[n % forks.length]}`, {
          prompt: `Turn ${n}`,
          chat_mode: "chat",
        }),
      ),
    );
    const statuses = results.map((res) => res.statusCode);
    expect(
      statuses.every((status) => status === 200 || status === 402 || status === 409),
      String(statuses),
    ).toBe(true);
    const served = statuses.filter((status) => status === 200).length;
    // Several branches took turns at the same time: more than one branch served.
    expect(served).toBeGreaterThan(forks.length);
    const balance = await moneyOf(t).balance(user);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(balance * 10);
    expect(balance).toBe(15 - 2 - served * 0.5);
  }, 120_000);
});
