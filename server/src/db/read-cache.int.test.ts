// The modules' read caches (decision 0117) never answer with something a write has changed. Two halves:
// - Every write function of the repos that own a cached answer invalidates it by itself: proven on a
//   database whose caches hear no change signal at all, so nothing else could have dropped the answer.
// - What no module's write says (a test's or an operator's direct SQL, a cascade) reaches the caches through
//   the tables' change signals; transactions, races, copies and the off switch behave.
// Embedded PGlite whatever the test engine (the PostgreSQL file covers several processes).
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findUserById, insertUser, setEmailVerified, setPasswordHash } from "../accounts/repo";
import { insertRestoredMessages } from "../conversation/backup-rows";
import { copyHistory, nameCheckpoint } from "../conversation/branch-history";
import {
  allMessages,
  allStoriesConversationStats,
  deleteConversation,
  deleteMessagesAndVersions,
  failIfPending,
  findMessage,
  hideAsUndone,
  insertMessage,
  showNewestUndone,
  showVersion,
  startVersionGroup,
  updateContent,
  updateMediaIfPending,
} from "../conversation/repo";
import { findAccountForDisplay, setUnlimited } from "../credits/repo";
import { charge, grant, openAccountWithSignupBonus, refund } from "../credits/service";
import { insertRestoredMediaItems } from "../media/backup-items";
import { deleteMediaItem, insertMediaItem, listMediaItems, newestMediaOfAllStories } from "../media/repo";
import { attachReadCaches, copyAnswer, createReadCaches, type ReadCaches } from "../platform/read-cache";
import { insertRestoredStory } from "../stories/backup-rows";
import {
  branchAddress,
  deleteBranchRow,
  finishBranch,
  insertBranch,
  markFirstBranchRemoved,
  renameBranchRow,
  retitleTree,
  setViewingBranch,
} from "../stories/branches-repo";
import {
  deleteStory,
  findStory,
  insertStory,
  listStories,
  replaceSummary,
  updateStory,
} from "../stories/repo";
import { updateSceneState } from "../story-cards/living-lore-repo";
import { type Database, openDatabase, type Queryable } from "./client";
import { runMigrations } from "./migrate";
import * as schema from "./schema";
import { creditAccounts, users } from "./schema";

let template: Blob;
let database: Database;

beforeAll(async () => {
  template = new Blob([await readFile(inject("pgliteTemplate"))]);
  database = await openDatabase({ pgliteDir: "memory://", loadDataDir: template });
  await runMigrations(database);
});
afterAll(() => database.close());

let counter = 0;
async function newUser(db: Queryable) {
  counter += 1;
  const user = await insertUser(db, {
    email: `cache${counter}@example.com`,
    username: `cache${counter}`,
    passwordHash: "x",
    createdAt: new Date(),
  });
  await openAccountWithSignupBonus(db, user.id, new Date());
  return user;
}

const NAMES = ["credits.account", "accounts.user", "chat.conversations", "stories.rows", "media.newest"];
const hits = (caches: ReadCaches) =>
  NAMES.map((name) => caches.stats(name)?.hits ?? 0).reduce((sum, n) => sum + n, 0);

describe("each module's writes invalidate its kept answers, with no change signal to help", () => {
  let client: PGlite;
  let db: Queryable;
  let caches: ReadCaches;

  beforeAll(async () => {
    // The template's tables carry the change triggers, but nobody here listens for their signals.
    client = await PGlite.create({ loadDataDir: template });
    db = drizzle({ client, schema });
    caches = createReadCaches();
    attachReadCaches(db, caches);
  });
  afterAll(() => client.close());

  /** `read` is answered from memory the second time; after `write` it shows the change. */
  async function expectSeen<T>(read: () => Promise<T>, write: () => Promise<unknown>) {
    const before = JSON.stringify(await read());
    const kept = hits(caches);
    expect(JSON.stringify(await read())).toBe(before);
    expect(hits(caches)).toBe(kept + 1);
    await write();
    const after = JSON.stringify(await read());
    expect(after).not.toBe(before);
    return after;
  }

  it("credits: a charge, a refund, a grant and the unlimited switch show in the balance at once", async () => {
    const user = await newUser(db);
    const balance = () => findAccountForDisplay(db, user.id);
    await expectSeen(balance, () => charge(db, user.id, "chat", 1, new Date(), "a turn"));
    await expectSeen(balance, () => refund(db, user.id, 5, "refund:x", new Date(), "refund"));
    await expectSeen(balance, () => grant(db, user.id, 100, "purchase", "pay:1", new Date(), "pack"));
    await expectSeen(balance, () => setUnlimited(db, user.id, true, new Date()));
  });

  it("accounts: a verified address and a new password show in the user at once", async () => {
    const user = await newUser(db);
    const row = () => findUserById(db, user.id);
    await expectSeen(row, () => setEmailVerified(db, user.id, new Date()));
    await expectSeen(row, () => setPasswordHash(db, user.id, "y"));
  });

  it("chat: every change to a conversation shows in its messages, a message and the counts at once", async () => {
    const user = await newUser(db);
    const story = await insertStory(db, { userId: user.id, title: "T", context: "", at: new Date() });
    const messages = () => allMessages(db, user.id, story.id);
    const main = () => allMessages(db, user.id, null);
    const stats = () => allStoriesConversationStats(db, user.id);
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    const say = (content: string, n: number, storyId: string | null = story.id) => ({
      userId: user.id,
      storyId,
      role: "assistant" as const,
      content,
      mediaStatus: "pending" as const,
      createdAt: at(n),
      updatedAt: at(n),
    });
    await expectSeen(main, () => insertMessage(db, say("main", 0, null)));
    await expectSeen(stats, () => insertMessage(db, say("one", 1)));
    let first = (await messages())[0]!;
    const one = () => findMessage(db, user.id, story.id, first.id);
    await expectSeen(one, () =>
      updateMediaIfPending(db, first.id, { mediaStatus: "completed", imageKey: "k", updatedAt: at(2) }),
    );
    const second = await insertMessage(db, say("two", 3));
    const two = () => findMessage(db, user.id, story.id, second.id);
    await expectSeen(two, () => failIfPending(db, second.id, "late", at(4)));
    await expectSeen(two, () => updateContent(db, second.id, "two, edited", at(5)));
    await expectSeen(two, () => startVersionGroup(db, second.id));
    const retry = await insertMessage(db, { ...say("two again", 6), versionGroup: second.id, hidden: true });
    await expectSeen(messages, () => showVersion(db, second.id, retry.id, at(7)));
    await expectSeen(messages, () => hideAsUndone(db, user.id, story.id, [retry.id], at(8)));
    await expectSeen(messages, () => showNewestUndone(db, user.id, story.id, at(9)));
    first = (await messages())[0]!;
    await expectSeen(one, () =>
      nameCheckpoint(db, {
        userId: user.id,
        storyId: story.id,
        messageId: first.id,
        name: "here",
        at: at(10),
      }),
    );
    await expectSeen(messages, () => deleteMessagesAndVersions(db, user.id, [retry.id]));
    const branch = await insertStory(db, { userId: user.id, title: "B", context: "", at: new Date() });
    await expectSeen(
      () => allMessages(db, user.id, branch.id),
      () =>
        copyHistory(db, {
          userId: user.id,
          fromStoryId: story.id,
          toStoryId: branch.id,
          fromMessageId: first.id,
          at: at(11),
        }),
    );
    await expectSeen(messages, () => deleteConversation(db, user.id, story.id));
    await expectSeen(messages, () =>
      insertRestoredMessages(db, [{ ...say("restored", 12), id: crypto.randomUUID() }]),
    );
  });

  it("media: a new item, a restored one and a deletion show in the gallery and the story cards at once", async () => {
    const user = await newUser(db);
    const gallery = () => listMediaItems(db, user.id, { limit: 31 });
    const storyId = crypto.randomUUID();
    const item = (key: string) => ({
      userId: user.id,
      kind: "image" as const,
      storageKey: `${key}-${crypto.randomUUID()}`,
      mimeType: "image/png",
      bytes: 1,
      source: "story" as const,
      storyId,
      createdAt: new Date(),
    });
    let made = await insertMediaItem(db, item("a"));
    await expectSeen(
      () => newestMediaOfAllStories(db, user.id),
      async () => {
        made = await insertMediaItem(db, item("b"));
      },
    );
    await expectSeen(gallery, () => deleteMediaItem(db, made.id));
    await expectSeen(gallery, () =>
      insertRestoredMediaItems(db, [{ ...item("c"), id: crypto.randomUUID(), description: "" }]),
    );
  });

  it("stories: every change to a story's rows shows in the list, the story and its branch address at once", async () => {
    const user = await newUser(db);
    const list = () => listStories(db, user.id);
    const at = new Date();
    let story = await insertStory(db, { userId: user.id, title: "One", context: "", at });
    const one = () => findStory(db, user.id, story.id);
    await expectSeen(list, () => insertStory(db, { userId: user.id, title: "Two", context: "", at }));
    await expectSeen(one, () => updateStory(db, user.id, story.id, { title: "One!", updatedAt: new Date() }));
    await expectSeen(one, () =>
      replaceSummary(
        db,
        story.id,
        { summary: "", through: null },
        { summary: "so far", through: at, at, covers: 2, witnesses: null },
      ),
    );
    await expectSeen(one, () => updateSceneState(db, user.id, story.id, { scenePlace: "a harbour" }));
    story = (await findStory(db, user.id, story.id))!;
    let branch = await insertBranch(db, story, { rootId: story.id, name: "B", at });
    const address = () => branchAddress(db, user.id, story.id);
    await expectSeen(address, () => setViewingBranch(db, story.id, branch.id));
    const branchRow = () => findStory(db, user.id, branch.id);
    await expectSeen(branchRow, () =>
      finishBranch(db, branch.id, { messageId: crypto.randomUUID(), turn: 1, words: "w", keepSummary: true }),
    );
    await expectSeen(branchRow, () => renameBranchRow(db, branch.id, "Bee", new Date()));
    await expectSeen(branchRow, () => retitleTree(db, story.id, "Renamed"));
    await expectSeen(address, () => markFirstBranchRemoved(db, story.id, new Date()));
    await expectSeen(list, async () => {
      branch = await insertBranch(db, story, { rootId: story.id, name: "C", at });
    });
    await expectSeen(list, () => deleteBranchRow(db, branch.id));
    await expectSeen(one, () => deleteStory(db, user.id, story.id));
    const restoredId = crypto.randomUUID();
    await expectSeen(
      () => findStory(db, user.id, restoredId),
      () => insertRestoredStory(db, { ...story, id: restoredId, rootId: null, viewingBranchId: null }),
    );
  });
});

describe("the read caches of the app's PGlite database", () => {
  it("answer a repeated read from memory, and a write no module made through the change signal", async () => {
    const user = await newUser(database.db);
    const balance = async () => (await findAccountForDisplay(database.db, user.id))?.balanceTenths;
    expect(await balance()).toBe(150);
    const before = hits(database.readCaches!);
    expect(await balance()).toBe(150);
    expect(hits(database.readCaches!)).toBe(before + 1);

    await database.db
      .update(creditAccounts)
      .set({ balanceTenths: 90 })
      .where(eq(creditAccounts.userId, user.id));
    expect(await balance()).toBe(90);
    await database.executeSql("update credit_accounts set balance_tenths = $1 where user_id = $2", [
      80,
      user.id,
    ]);
    expect(await balance()).toBe(80);
  });

  it("forget rows a cascading delete removed from another table", async () => {
    const user = await newUser(database.db);
    const message = await insertMessage(database.db, {
      userId: user.id,
      role: "assistant",
      content: "The lantern flickers.",
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const read = () => findMessage(database.db, user.id, undefined, message.id);
    expect((await read())?.content).toBe("The lantern flickers.");
    expect((await read())?.content).toBe("The lantern flickers.");
    // Deleting the user removes the message by ON DELETE CASCADE: no module's write said so.
    await database.db.delete(users).where(eq(users.id, user.id));
    expect(await read()).toBeUndefined();
    expect(await findAccountForDisplay(database.db, user.id)).toBeUndefined();
  });

  it("read a transaction's own writes inside it, the committed value after it, and nothing of a rollback", async () => {
    const user = await newUser(database.db);
    const balance = async (q: Queryable = database.db) =>
      (await findAccountForDisplay(q, user.id))?.balanceTenths;
    expect(await balance()).toBe(150);
    await database.db.transaction(async (tx) => {
      await charge(tx, user.id, "chat", 1, new Date(), "a turn");
      expect(await balance(tx)).toBe(145);
    });
    expect(await balance()).toBe(145);
    await database.db
      .transaction(async (tx) => {
        await charge(tx, user.id, "chat", 1, new Date(), "a turn");
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await balance()).toBe(145);
    expect(await balance()).toBe(145);
  });

  it("never keep a read that raced a write", async () => {
    const user = await newUser(database.db);
    const balance = async () => (await findAccountForDisplay(database.db, user.id))?.balanceTenths;
    // The read is sent, then the charge: PGlite runs them in turn, the read first, so it sees 150, but it
    // ends after the charge's invalidation and must not be kept.
    const racing = balance();
    await charge(database.db, user.id, "chat", 1, new Date(), "a turn");
    expect(await racing).toBe(150);
    expect(await balance()).toBe(145);
  });

  it("hand out a copy: changing an answer does not change the next one", async () => {
    const user = await newUser(database.db);
    const first = await findUserById(database.db, user.id);
    first!.username = "changed";
    expect((await findUserById(database.db, user.id))?.username).toBe(user.username);
  });

  it("send requests that miss together to the database once", async () => {
    const user = await newUser(database.db);
    const caches = database.readCaches!;
    const shared = caches.stats("accounts.user")?.shared ?? 0;
    const answers = await Promise.all(Array.from({ length: 5 }, () => findUserById(database.db, user.id)));
    expect(new Set(answers.map((row) => row?.id))).toEqual(new Set([user.id]));
    expect(caches.stats("accounts.user")!.shared).toBe(shared + 4);
  });

  it("keep nothing while off, and nothing from before when on again", async () => {
    const user = await newUser(database.db);
    const caches = database.readCaches!;
    const balance = async () => (await findAccountForDisplay(database.db, user.id))?.balanceTenths;
    expect(await balance()).toBe(150);
    caches.setEnabled(false);
    try {
      const before = hits(caches);
      expect(await balance()).toBe(150);
      expect(await balance()).toBe(150);
      expect(hits(caches)).toBe(before);
    } finally {
      caches.setEnabled(true);
    }
    const before = hits(caches);
    expect(await balance()).toBe(150);
    expect(hits(caches)).toBe(before);
  });

  it("copy answers deeply: rows, nested JSON and dates", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const value = { rows: [{ at, nested: { list: [1, { x: "y" }] } }] };
    const copy = copyAnswer(value);
    expect(copy).toEqual(value);
    expect(copy.rows[0]!.at).not.toBe(at);
    expect(copy.rows[0]!.nested).not.toBe(value.rows[0]!.nested);
  });
});
