// A branch's history (decisions 0132, 0137) on a real database (both engines): a branch of a long story shares
// its history and writes no message row, none of the history passing through the process (counted at the
// driver, as long-story-jobs.int.test.ts counts reads); the branch then plays on alone, and what is done to
// the exchanges it shares (edit, retry and version switch, undo, checkpoints, a new turn) never reaches the
// branch it came from; deleting the branch it came from (or the story's first branch) keeps its whole history;
// its export and its part of the story's backup hold that history.
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { readZip } from "../../test/zip";
import { branchMessages } from "../conversation/branch-messages";
import { chatMessages, recallMarks } from "../db/schema";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

type Message = { id: string; role: string; content: string };

async function newStory(user: TestUser, title = "The Long Road") {
  const res = await call(user, "POST", "/api/stories", { title, context: "A walk north" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().story.id as string;
}

const messages = async (user: TestUser, storyId: string, branch?: string) => {
  const res = await call(user, "GET", `/api/stories/${storyId}/messages${branch ? `?branch=${branch}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().messages as Message[]).map(({ id, role, content }) => ({ id, role, content }));
};

async function branchFrom(user: TestUser, storyId: string, fromMessageId: string, name?: string) {
  const res = await call(user, "POST", `/api/stories/${storyId}/branches`, {
    from_message_id: fromMessageId,
    ...(name ? { name } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().branch as { id: string; turns: number };
}

/** A story of `turns` exchanges played through the API; the player's line of turn N says "Turn N". */
async function playedStory(user: TestUser, turns: number) {
  const storyId = await newStory(user, "Salt Roads");
  for (let n = 1; n <= turns; n += 1) {
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: `Turn ${n}: I walk on`,
      chat_mode: "chat",
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return storyId;
}

/** A branch's rows as stored, oldest first: what it shows and keeps, whatever the API pages. */
const storedContents = async (storyId: string) =>
  (
    await t.ctx.db
      .select({ role: chatMessages.role, content: chatMessages.content })
      .from(chatMessages)
      .where(and(eq(chatMessages.storyId, storyId), eq(chatMessages.hidden, false)))
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
  ).map((row) => `${row.role}: ${row.content}`);

/** A branch's messages as the one definition of them says (branch-messages.ts), oldest first. */
const branchContents = async (userId: string, storyId: string) =>
  (
    await t.ctx.db
      .select({ role: chatMessages.role, content: chatMessages.content })
      .from(chatMessages)
      .where(and(branchMessages(userId, storyId), eq(chatMessages.hidden, false)))
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
  ).map((row) => `${row.role}: ${row.content}`);

type QueryResult = { rows?: unknown[] };
type Client = { query: (...args: unknown[]) => Promise<QueryResult> };

/**
 * The statements that write chat_messages and the chat_messages rows returned to the process while `run` runs,
 * on the app's handle and in every transaction it opens (both drivers).
 */
async function messageTraffic(run: () => Promise<void>): Promise<{ writes: number; rowsRead: number }> {
  let writes = 0;
  let rowsRead = 0;
  const count = (client: Client) => {
    const original = client.query;
    client.query = async (...args: unknown[]) => {
      const result = await original.apply(client, args);
      const first = args[0];
      const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
      if (/^\s*(insert into|update|delete from)\s+"chat_messages"/i.test(text)) writes += 1;
      else if (/^\s*select[\s\S]*from "chat_messages"/i.test(text)) rowsRead += result.rows?.length ?? 0;
      return result;
    };
    return () => {
      client.query = original;
    };
  };
  const db = t.ctx.db as unknown as {
    session: { client: Client };
    transaction: (fn: (tx: unknown) => Promise<unknown>, config?: unknown) => Promise<unknown>;
  };
  const uncount = count(db.session.client);
  const transaction = db.transaction;
  db.transaction = (fn, config) =>
    transaction.call(
      db,
      async (tx) => {
        const uncountTx = count((tx as { session: { client: Client } }).session.client);
        try {
          return await fn(tx);
        } finally {
          uncountTx();
        }
      },
      config,
    );
  try {
    await run();
  } finally {
    uncount();
    db.transaction = transaction;
  }
  return { writes, rowsRead };
}

describe("a branch's history", () => {
  it("a branch of a story of 3,000 exchanges writes no message row: it shares the history, none of which passes through the process", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await writeExchanges(t, user, storyId, 3_000, {
      1: "The Grey Mill turns at the start.",
      2000: "The Ember Lighthouse.",
    });
    const [fork] = await t.ctx.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.storyId, storyId), eq(chatMessages.content, "The Ember Lighthouse.")));

    let branch: { id: string; turns: number } | undefined;
    const traffic = await messageTraffic(async () => {
      branch = await branchFrom(user, storyId, fork!.id, "Long fork");
    });
    // 4,000 messages shared, none written (decision 0137); the process reads the fork, the exchange after it
    // and the tree's counts, never the history.
    expect(traffic.writes).toBe(0);
    expect(traffic.rowsRead).toBeLessThanOrEqual(10);
    expect(branch!.turns).toBe(2_000);
    expect(await storedContents(branch!.id)).toHaveLength(0);

    const whole = await storedContents(storyId);
    const shared = await branchContents(user.userId, branch!.id);
    expect(shared).toHaveLength(4_000);
    expect(shared).toEqual(whole.slice(0, 4_000));
    expect(shared[1]).toBe("assistant: The Grey Mill turns at the start.");
    expect(shared.at(-1)).toBe("assistant: The Ember Lighthouse.");
    // The story it came from keeps all 3,000 exchanges.
    expect(whole).toHaveLength(6_000);
  }, 180_000);

  it("a branch keeps every retry version of the answers it shares (the same one shown), leaves undone exchanges out and keeps the recall pins", async () => {
    const user = await createUser(t);
    const storyId = await playedStory(user, 2);
    const played = await messages(user, storyId);
    const retried = await call(user, "POST", `/api/stories/${storyId}/messages/${played[3]!.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(200);
    for (const n of [3, 4]) {
      const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
        prompt: `Turn ${n}: on`,
        chat_mode: "chat",
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await call(user, "POST", `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
    const pinned = await call(user, "PUT", `/api/stories/${storyId}/recall/${played[1]!.id}`, {
      pinned: true,
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    const before = await messages(user, storyId);
    expect(before).toHaveLength(6);
    // The tree counts the story's shown turns: four played, one undone, a retried answer once.
    const tree = (await call(user, "GET", `/api/stories/${storyId}/branches`)).json() as {
      branches: { id: string; turns: number }[];
    };
    expect(tree.branches.find((branch) => branch.id === storyId)?.turns).toBe(3);

    const fork = await branchFrom(user, storyId, before[5]!.id);
    expect(fork.turns).toBe(3);
    const shared = await messages(user, storyId, fork.id);
    expect(shared.map((m) => m.content)).toEqual(before.map((m) => m.content));
    // Turn 2's answer has both versions on the branch, the second shown, as on the story.
    const versionsOn = async (branch: string, messageId: string) =>
      (
        await call(user, "GET", `/api/stories/${storyId}/messages/${messageId}/versions?branch=${branch}`)
      ).json().versions as { content: string; selected: boolean }[];
    const original = await versionsOn(storyId, before[3]!.id);
    expect(original).toHaveLength(2);
    expect(
      (await versionsOn(fork.id, shared[3]!.id)).map(({ content, selected }) => ({ content, selected })),
    ).toEqual(original.map(({ content, selected }) => ({ content, selected })));
    // The undone fourth turn stays on the story's Redo stack only.
    expect((await call(user, "POST", `/api/stories/${storyId}/redo?branch=${fork.id}`)).statusCode).toBe(409);
    expect(await messages(user, storyId, fork.id)).toHaveLength(6);
    // The pin holds on the branch: it shares the pinned message itself (decision 0137).
    expect(shared[1]!.id).toBe(before[1]!.id);
    const marks = await t.ctx.db
      .select({ messageId: recallMarks.messageId, pinned: recallMarks.pinned })
      .from(recallMarks)
      .where(eq(recallMarks.messageId, shared[1]!.id));
    expect(marks).toEqual([{ messageId: shared[1]!.id, pinned: true }]);
  });

  it("edits, retries, version switches, undo, checkpoints and new turns on shared exchanges never reach the branch they came from", async () => {
    const user = await createUser(t);
    const storyId = await playedStory(user, 4);
    const before = await messages(user, storyId);
    const mainBefore = (await call(user, "GET", `/api/stories/${storyId}/branches`)).json().branches[0];
    const fork = await branchFrom(user, storyId, before[5]!.id, "Storm");
    const shared = await messages(user, storyId, fork.id);
    expect(shared.map((m) => m.content)).toEqual(before.slice(0, 6).map((m) => m.content));

    const on = (path: string) => `/api/stories/${storyId}${path}?branch=${fork.id}`;
    // Edit the first exchange's words, on the branch.
    const edited = await call(user, "PATCH", on(`/messages/${shared[1]!.id}`), {
      content: "A different dawn.",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Retry the branch's newest answer (a shared exchange), then switch back to the first version and on again.
    const retried = await call(user, "POST", on(`/messages/${shared[5]!.id}/retry`), {});
    expect(retried.statusCode, retried.body).toBe(200);
    const switched = await call(user, "PUT", on(`/messages/${shared[5]!.id}/versions/1/select`));
    expect(switched.statusCode, switched.body).toBe(200);
    // Name a checkpoint on a shared exchange.
    const named = await call(user, "PUT", on(`/checkpoints/${shared[3]!.id}`), { name: "At the bridge" });
    expect(named.statusCode, named.body).toBe(200);
    // Undo the branch's newest exchange, then play a turn of its own.
    expect((await call(user, "POST", on("/undo"))).statusCode).toBe(200);
    const played = await call(user, "POST", on("/chat"), {
      prompt: "I take the cliff path",
      chat_mode: "chat",
    });
    expect(played.statusCode, played.body).toBe(200);

    const branchNow = await messages(user, storyId, fork.id);
    expect(branchNow.map((m) => m.content.slice(0, 22))).toEqual([
      before[0]!.content.slice(0, 22),
      "A different dawn.",
      before[2]!.content.slice(0, 22),
      before[3]!.content.slice(0, 22),
      "I take the cliff path",
      branchNow[5]!.content.slice(0, 22),
    ]);
    // The branch it came from shows exactly what it showed, with no checkpoint and its four turns.
    expect(await messages(user, storyId, storyId)).toEqual(before);
    const mainNow = (await call(user, "GET", `/api/stories/${storyId}/branches`)).json().branches[0];
    expect(mainNow).toEqual(mainBefore);
    const versions = await call(
      user,
      "GET",
      `/api/stories/${storyId}/messages/${before[5]!.id}/versions?branch=${storyId}`,
    );
    expect(versions.json().versions).toHaveLength(1);
  });

  it("deleting the branch it came from, then the story's first branch, keeps a branch's whole history", async () => {
    const user = await createUser(t);
    const storyId = await playedStory(user, 4);
    const main = await messages(user, storyId);
    const middle = await branchFrom(user, storyId, main[5]!.id, "Middle");
    const middleShown = await messages(user, storyId, middle.id);
    const last = await branchFrom(user, storyId, middleShown[3]!.id, "Last");
    const lastBefore = await messages(user, storyId, last.id);
    expect(lastBefore.map((m) => m.content)).toEqual(main.slice(0, 4).map((m) => m.content));

    // The branches it shared from go: it is given its own copy of what it shared (new ids, the same messages).
    const told = (shown: Message[]) => shown.map(({ role, content }) => `${role}: ${content}`);
    expect((await call(user, "DELETE", `/api/stories/${storyId}/branches/${middle.id}`)).statusCode).toBe(
      204,
    );
    expect(told(await messages(user, storyId, last.id))).toEqual(told(lastBefore));
    expect((await call(user, "DELETE", `/api/stories/${storyId}/branches/${storyId}`)).statusCode).toBe(204);
    expect(told(await messages(user, storyId, last.id))).toEqual(told(lastBefore));
    const played = await call(user, "POST", `/api/stories/${storyId}/chat?branch=${last.id}`, {
      prompt: "I go on alone",
      chat_mode: "chat",
    });
    expect(played.statusCode, played.body).toBe(200);
    expect(await messages(user, storyId, last.id)).toHaveLength(6);
  });

  it("a branch's export and the story's backup hold the history the branch shares", async () => {
    const user = await createUser(t);
    const storyId = await playedStory(user, 3);
    const main = await messages(user, storyId);
    const fork = await branchFrom(user, storyId, main[3]!.id, "Storm");

    const book = await call(user, "GET", `/api/stories/${storyId}/export?format=md&branch=${fork.id}`);
    expect(book.statusCode).toBe(200);
    const [markdown] = await readZip(book.rawPayload);
    const text = markdown!.data.toString("utf8");
    expect(text).toContain(main[1]!.content.slice(0, 40));
    expect(text).toContain(main[3]!.content.slice(0, 40));
    expect(text).not.toContain(main[5]!.content.slice(0, 40));

    const backup = await call(user, "GET", `/api/stories/${storyId}/backup`);
    expect(backup.statusCode).toBe(200);
    const entries = await readZip(backup.rawPayload);
    const json = JSON.parse(
      entries.find((entry) => entry.name === "storyverse-story.json")!.data.toString("utf8"),
    );
    const archivedFork = (json.branches as { id: string; name: string }[]).find((b) => b.name === "Storm")!;
    const onFork = (json.messages as { branch: string | null; content: string; hidden: boolean }[]).filter(
      (message) => message.branch === archivedFork.id && !message.hidden,
    );
    expect(onFork.map((message) => message.content)).toEqual(main.slice(0, 4).map((m) => m.content));
  });
});
