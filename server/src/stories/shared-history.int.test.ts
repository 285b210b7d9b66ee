// Branches share their history (decision 0137) on a real database (both engines): a branch holds no row of the
// history it shares; what the branch it came from does afterwards to the shared exchanges (edit, retry, version
// switch, undo, a pin) never reaches it, nor the other way round; a branch of a branch shares from both; and
// deleting the branches it shares from leaves it whole, its export and recall unchanged.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { messageRowsScanned } from "../../test/rows-scanned";
import { readZip } from "../../test/zip";
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

/** What a branch tells, oldest first (role and words; ids may be a branch's own). */
async function told(user: TestUser, storyId: string, branch: string) {
  const res = await call(user, "GET", `/api/stories/${storyId}/messages?branch=${branch}&limit=200`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().messages as Message[];
}
const words = (messages: Message[]) => messages.map(({ role, content }) => `${role}: ${content}`);

async function playedStory(user: TestUser, turns: number) {
  const res = await call(user, "POST", "/api/stories", { title: "Salt Roads", context: "A walk north" });
  expect(res.statusCode, res.body).toBe(200);
  const storyId = res.json().story.id as string;
  for (let n = 1; n <= turns; n += 1) {
    const played = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: `Turn ${n}: I walk on`,
      chat_mode: "chat",
    });
    expect(played.statusCode, played.body).toBe(200);
  }
  return storyId;
}

async function branchFrom(user: TestUser, storyId: string, branch: string, fromMessageId: string) {
  const res = await call(user, "POST", `/api/stories/${storyId}/branches?branch=${branch}`, {
    from_message_id: fromMessageId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().branch as { id: string; turns: number };
}

/** The rows a branch holds itself. */
const ownRows = async (storyId: string) =>
  (await t.ctx.db.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.storyId, storyId)))
    .length;

/** The statements that read chat_messages (a read run again under EXPLAIN ANALYZE changes nothing). */
const readsOfMessages = /^\s*select[\s\S]*from "?chat_messages"?/i;

describe("shared history", () => {
  it("what the branch it came from does to the shared exchanges after the fork never reaches the branch", async () => {
    const user = await createUser(t);
    const storyId = await playedStory(user, 3);
    const main = await told(user, storyId, storyId);
    // From the newest exchange: the branch shares all six messages and holds none.
    const fork = await branchFrom(user, storyId, storyId, main[5]!.id);
    expect(await ownRows(fork.id)).toBe(0);
    const atFork = await told(user, storyId, fork.id);
    expect(atFork).toEqual(main);

    const on = (path: string) => `/api/stories/${storyId}${path}?branch=${storyId}`;
    // On the first branch: edit the newest answer and an old player line, retry the newest answer, switch
    // versions, pin a shared answer, then undo the newest exchange and play another.
    expect(
      (await call(user, "PATCH", on(`/messages/${main[5]!.id}`), { content: "Edited late." })).statusCode,
    ).toBe(200);
    expect(
      (await call(user, "PATCH", on(`/messages/${main[0]!.id}`), { content: "Edited early." })).statusCode,
    ).toBe(200);
    const retried = await call(user, "POST", on(`/messages/${main[5]!.id}/retry`), {});
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await call(user, "PUT", on(`/messages/${main[5]!.id}/versions/1/select`))).statusCode).toBe(200);
    const pinned = await call(user, "PUT", on(`/recall/${main[3]!.id}`), { pinned: true });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect((await call(user, "POST", on("/undo"))).statusCode).toBe(200);
    expect(
      (await call(user, "POST", on("/chat"), { prompt: "Turn 3 again: I turn back", chat_mode: "chat" }))
        .statusCode,
    ).toBe(200);

    // The first branch shows its changes; the branch still tells what it told at the fork.
    const mainNow = words(await told(user, storyId, storyId));
    expect(mainNow[0]).toBe("user: Edited early.");
    expect(mainNow[4]).toBe("user: Turn 3 again: I turn back");
    expect(words(await told(user, storyId, fork.id))).toEqual(words(atFork));
    // Its answer has one version, and the pin stayed on the first branch.
    const onFork = await told(user, storyId, fork.id);
    const versions = await call(
      user,
      "GET",
      `/api/stories/${storyId}/messages/${onFork[5]!.id}/versions?branch=${fork.id}`,
    );
    expect(versions.statusCode, versions.body).toBe(200);
    expect(versions.json().versions).toHaveLength(1);
    const marks = await t.ctx.db
      .select({ messageId: recallMarks.messageId })
      .from(recallMarks)
      .where(and(eq(recallMarks.userId, user.userId), eq(recallMarks.pinned, true)));
    expect(marks.map((mark) => mark.messageId)).not.toContain(onFork[3]!.id);
    expect(marks.map((mark) => mark.messageId)).toContain(main[3]!.id);
    // The branch plays on from what it had.
    const played = await call(user, "POST", `/api/stories/${storyId}/chat?branch=${fork.id}`, {
      prompt: "I go my own way",
      chat_mode: "chat",
    });
    expect(played.statusCode, played.body).toBe(200);
    expect(words(await told(user, storyId, fork.id)).slice(0, 6)).toEqual(words(atFork));
  });

  it("a branch of a branch shares from both; an edit on the middle one reaches neither the first nor the last", async () => {
    const user = await createUser(t);
    const storyId = await writeStory(user, 1_000);
    const main = await told(user, storyId, storyId);
    const newest = main.at(-1)!;
    const middle = await branchFrom(user, storyId, storyId, newest.id);
    const midPlay = await call(user, "POST", `/api/stories/${storyId}/chat?branch=${middle.id}`, {
      prompt: "The middle path",
      chat_mode: "chat",
    });
    expect(midPlay.statusCode, midPlay.body).toBe(200);
    const middleShown = await told(user, storyId, middle.id);
    const last = await branchFrom(user, storyId, middle.id, middleShown.at(-1)!.id);
    expect(last.turns).toBe(1_001);
    // Neither branch holds a row of the 2,000 messages of the first: the middle holds its own turn only.
    expect(await ownRows(middle.id)).toBe(2);
    expect(await ownRows(last.id)).toBe(0);
    const lastBefore = words(await told(user, storyId, last.id));

    // The middle branch edits the newest shared answer of the first: it copies from there on, no further back.
    const edited = await call(
      user,
      "PATCH",
      `/api/stories/${storyId}/messages/${newest.id}?branch=${middle.id}`,
      { content: "The middle remembers it otherwise." },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await ownRows(middle.id)).toBeLessThanOrEqual(4);
    expect(words(await told(user, storyId, middle.id)).at(-3)).toBe(
      "assistant: The middle remembers it otherwise.",
    );
    expect(words(await told(user, storyId, storyId)).at(-1)).toBe(`assistant: ${newest.content}`);
    expect(words(await told(user, storyId, last.id))).toEqual(lastBefore);

    // The first two branches go: the last keeps its whole history, its export and the tree's count.
    for (const gone of [middle.id, storyId]) {
      expect((await call(user, "DELETE", `/api/stories/${storyId}/branches/${gone}`)).statusCode).toBe(204);
      expect(words(await told(user, storyId, last.id))).toEqual(lastBefore);
    }
    const tree = (await call(user, "GET", `/api/stories/${storyId}/branches`)).json() as {
      branches: { id: string; turns: number }[];
    };
    expect(tree.branches).toEqual([expect.objectContaining({ id: last.id, turns: 1_001 })]);
    const book = await call(user, "GET", `/api/stories/${storyId}/export?format=md&branch=${last.id}`);
    expect(book.statusCode).toBe(200);
    const [markdown] = await readZip(book.rawPayload);
    const text = markdown!.data.toString("utf8");
    expect(text).toContain("The Grey Mill turns at the start.");
    expect(text).toContain("The middle path");
  }, 120_000);

  it("a shared branch pages through its own and its shared rows in order, each page a bounded read", async () => {
    const user = await createUser(t);
    // Another long story in the library: no read of the branch may touch it.
    await writeStory(user, 1_500);
    const storyId = await writeStory(user, 300);
    // The newest 200 of 600 messages: exchanges 201 to 300; the branch is made from exchange 250's answer.
    const main = await told(user, storyId, storyId);
    const forkAt = main[99]!;
    expect(forkAt.role).toBe("assistant");
    const fork = await branchFrom(user, storyId, storyId, forkAt.id);
    expect(await ownRows(fork.id)).toBe(0);
    const play = async (branch: string, prompt: string) => {
      const res = await call(user, "POST", `/api/stories/${storyId}/chat?branch=${branch}`, {
        prompt,
        chat_mode: "chat",
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // The first branch plays on after the fork (rows of its own that the branch's reads pass over), then the
    // branch plays two turns of its own.
    await play(storyId, "Main after the fork");
    await play(storyId, "Main again");
    await play(fork.id, "Fork turn 1");
    await play(fork.id, "Fork turn 2");
    // The turns' jobs done, so only the reads measured below are measured.
    await expect.poll(async () => (await t.jobs.depth()).length, { timeout: 30_000 }).toBe(0);
    await t.ctx.db.execute(sql`analyze chat_messages`);

    type Page = { messages: Message[]; turns_before: number; has_more: boolean; next_cursor: string | null };
    const pageOf = async (before: string | null) => {
      const cursor = before ? `&before=${before}` : "";
      const res = await call(
        user,
        "GET",
        `/api/stories/${storyId}/messages?branch=${fork.id}&limit=50${cursor}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const pages: Page[] = [await pageOf(null)];
    while (pages.at(-1)!.has_more) pages.push(await pageOf(pages.at(-1)!.next_cursor));
    const all = [...pages].reverse().flatMap((page) => page.messages);
    // 250 shared exchanges, then the branch's two: in order across the fork, nothing of the first branch's later.
    expect(all).toHaveLength(504);
    expect(words(all.slice(0, 2))).toEqual([
      "user: I walk on (1)",
      "assistant: The Grey Mill turns at the start.",
    ]);
    expect(words(all.slice(498, 500))).toEqual(["user: I walk on (250)", `assistant: ${forkAt.content}`]);
    expect([all[500]!.content, all[502]!.content]).toEqual(["Fork turn 1", "Fork turn 2"]);
    expect(new Set(all.map((message) => message.id)).size).toBe(504);
    // Each page's turn numbers start after the narrations before it.
    let before = 0;
    for (const page of [...pages].reverse()) {
      expect(page.turns_before).toBe(before);
      before += page.messages.filter((message) => message.role === "assistant").length;
    }

    // The newest page reads about a page from each part, the first branch's from the fork back (not through the
    // 104 rows it told after it): not the 500 rows shared, nor the 3,600 of the library.
    const newest = await messageRowsScanned(t, () => pageOf(null), /to_char/);
    expect(newest.result.messages.map((message) => message.id)).toEqual(
      pages[0]!.messages.map((message) => message.id),
    );
    expect(newest.rowsScanned).toBeGreaterThan(0);
    expect(newest.rowsScanned).toBeLessThan(60);

    // The tree counts each branch's turns part by part: no scan reads more than a branch's own history (the
    // first branch's 604 rows), none the library's 3,600.
    const tree = await messageRowsScanned(
      t,
      () => call(user, "GET", `/api/stories/${storyId}/branches`),
      readsOfMessages,
    );
    const branches = (tree.result.json() as { branches: { id: string; turns: number }[] }).branches;
    expect(branches.find((branch) => branch.id === fork.id)?.turns).toBe(252);
    expect(tree.rowsScanned).toBeLessThanOrEqual(610);

    // Its book reads it part by part as well: the branch's words in order, no scan over the library.
    const book = await messageRowsScanned(
      t,
      () => call(user, "GET", `/api/stories/${storyId}/export?format=md&branch=${fork.id}`),
      readsOfMessages,
    );
    expect(book.result.statusCode, book.result.body.slice(0, 200)).toBe(200);
    const [markdown] = await readZip(book.result.rawPayload);
    const text = markdown!.data.toString("utf8");
    expect(text.indexOf("The Grey Mill turns at the start.")).toBeGreaterThan(0);
    expect(text.indexOf("I walk on (250)")).toBeLessThan(text.indexOf("Fork turn 1"));
    expect(text.indexOf("Fork turn 1")).toBeLessThan(text.indexOf("Fork turn 2"));
    expect(text).not.toContain("I walk on (251)");
    expect(text).not.toContain("Main after the fork");
    expect(book.rowsScanned).toBeLessThanOrEqual(610);

    // Recall on the branch finds its first exchange (shared from the first branch, far out of the window) with
    // its turn number and player line, part by part too: no scan over the library, whose other story opens with
    // the same words.
    const question = encodeURIComponent("Where does the Grey Mill turn?");
    const recall = await messageRowsScanned(
      t,
      () => call(user, "GET", `/api/stories/${storyId}/context?branch=${fork.id}&prompt=${question}`),
      readsOfMessages,
    );
    expect(recall.result.statusCode, recall.result.body.slice(0, 200)).toBe(200);
    const recalled = (
      recall.result.json() as { recalled: { message_id: string; turn: number; player: string }[] }
    ).recalled;
    expect(recalled[0]).toMatchObject({ message_id: all[1]!.id, turn: 1, player: "I walk on (1)" });
    expect(recall.statements).toBeGreaterThan(0);
    expect(recall.rowsScanned, recall.worst).toBeLessThanOrEqual(610);
    // And a turn played on it reads no more.
    const turn = await messageRowsScanned(
      t,
      () => play(fork.id, "I look for the Grey Mill again"),
      readsOfMessages,
    );
    expect(turn.rowsScanned, turn.worst).toBeLessThanOrEqual(610);
  }, 120_000);

  it("a history whose rows were numbered out of the story's order is copied, not shared, and shows the same", async () => {
    const user = await createUser(t);
    const storyId = await playedStory(user, 3);
    const main = await told(user, storyId, storyId);
    // The first answer numbered after everything else (as a row written out of order could be).
    await t.ctx.db
      .update(chatMessages)
      .set({ seq: sql`nextval('chat_messages_seq')` })
      .where(eq(chatMessages.id, main[1]!.id));
    const fork = await branchFrom(user, storyId, storyId, main[3]!.id);
    expect(words(await told(user, storyId, fork.id))).toEqual(words(main.slice(0, 4)));
    expect(await ownRows(fork.id)).toBe(4);
  });

  it("recall on a branch finds the turns it shares, and its recall is its own", async () => {
    const user = await createUser(t);
    const storyId = await writeStory(user, 40);
    const main = await told(user, storyId, storyId);
    const fork = await branchFrom(user, storyId, storyId, main.at(-1)!.id);
    const recalled = async (branch: string) => {
      const res = await call(
        user,
        "GET",
        `/api/stories/${storyId}/recall?branch=${branch}&prompt=Grey%20Mill`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return { exchanges: res.json().recalled as { message_id: string; turn: number }[] };
    };
    const onMain = await recalled(storyId);
    const onFork = await recalled(fork.id);
    expect(onMain.exchanges.length).toBeGreaterThan(0);
    expect(onFork.exchanges.map((e) => e.turn)).toEqual(onMain.exchanges.map((e) => e.turn));
    // Forgetting it on the branch leaves the first branch's recall as it was.
    const turnOne = onFork.exchanges.find((e) => e.turn === 1)!;
    const forgot = await call(
      user,
      "PUT",
      `/api/stories/${storyId}/recall/${turnOne.message_id}?branch=${fork.id}`,
      {
        forgotten: true,
      },
    );
    expect(forgot.statusCode, forgot.body).toBe(200);
    expect((await recalled(fork.id)).exchanges.map((e) => e.turn)).not.toContain(1);
    expect((await recalled(storyId)).exchanges.map((e) => e.turn)).toEqual(
      onMain.exchanges.map((e) => e.turn),
    );
  });
});

/** A story of `exchanges` seeded exchanges; turn 1's answer names the Grey Mill. */
async function writeStory(user: TestUser, exchanges: number) {
  const res = await call(user, "POST", "/api/stories", { title: "The Long Road", context: "A walk north" });
  expect(res.statusCode, res.body).toBe(200);
  const storyId = res.json().story.id as string;
  await writeExchanges(t, user, storyId, exchanges, { 1: "The Grey Mill turns at the start." });
  return storyId;
}
