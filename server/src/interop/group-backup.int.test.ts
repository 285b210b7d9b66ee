// A group scene through a backup (issue 43, decisions 0164 and 0165) over the HTTP API on a real database, with
// the offline providers: a story played by a group of three (round robin, one muted, characters knowing what
// they saw) is backed up and restored by another player, and plays as the same group: the same characters in
// the same order, the same muted one, the option kept, each card's talkativeness, each message's present
// characters and the summary's witnesses named by the restored cards. An archive from before groups were
// carried restores as before: the narrator tells it.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { restoreBackup } from "../../test/restore-backup";
import { readZip } from "../../test/zip";
import { grant, toTenths } from "../credits/service";
import { chatMessages, stories } from "../db/schema";
import { BACKUP_JSON_NAME } from "./backup-format";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

type Card = { id: string; name: string; talkativeness?: number };
type Speaker = { card_id: string; name: string } | null;

async function richUser() {
  const user = await createUser(t);
  await grant(
    t.ctx.db,
    user.userId,
    toTenths(1000),
    "admin_grant",
    `test:${user.userId}`,
    new Date(),
    "test",
  );
  return user;
}

/** `?branch=` names a branch; without it the story's id stands for the branch it shows. */
const onBranch = (branch?: string) => (branch ? `?branch=${branch}` : "");
const cardsOf = async (user: TestUser, storyId: string, branch?: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/cards${onBranch(branch)}`)).json().cards as Card[];
const settingsOf = async (user: TestUser, storyId: string, branch?: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/settings${onBranch(branch)}`)).json();

async function chat(user: TestUser, storyId: string, prompt: string): Promise<Speaker> {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().speaker as Speaker;
}

/** Messages as stored, oldest first (the API does not show who was present). */
const storedMessages = (storyId: string) =>
  t.ctx.db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.storyId, storyId))
    .orderBy(chatMessages.createdAt, chatMessages.versionNumber);

/** A story at the inn with Ada, Brannoc and Cel, played as a group for two turns; Cel is muted. */
async function groupStory(user: TestUser) {
  const story = await call(user, "POST", "/api/stories", { title: "The Inn", context: "A crowded inn." });
  const storyId = story.json().story.id as string;
  const cards: Card[] = [];
  for (const [name, talkativeness] of [
    ["Ada Quill", 0.2],
    ["Brannoc", 0.9],
    ["Cel", 0.5],
  ] as const) {
    const res = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name,
      kind: "character",
      triggers: [name.split(" ")[0]!.toLowerCase()],
      description: `${name}, a regular of the inn.`,
      talkativeness,
    });
    expect(res.statusCode, res.body).toBe(200);
    cards.push(res.json().card as Card);
  }
  const [ada, brannoc, cel] = cards as [Card, Card, Card];
  const set = await call(user, "PUT", `/api/stories/${storyId}/settings`, {
    teller: "group",
    character_ids: [ada.id, brannoc.id, cel.id],
    speaker_order: "round_robin",
    muted_ids: [cel.id],
    knows_what_they_saw: true,
  });
  expect(set.statusCode, set.body).toBe(200);
  const first = await chat(user, storyId, "Good evening, everyone.");
  const second = await chat(user, storyId, "What news from the road?");
  // Round robin among the unmuted: the two speak in turn.
  expect([first?.name, second?.name].sort()).toEqual(["Ada Quill", "Brannoc"]);

  // Who was present, set here whatever the turns write: the first exchange the whole group's; Cel away for
  // the second. The summary folds what only Ada and Brannoc saw.
  const messages = await storedMessages(storyId);
  expect(messages.length).toBe(4);
  const everyone = cards.map((card) => ({ card_id: card.id, name: card.name }));
  const twoOf = everyone.slice(0, 2);
  for (const [i, present] of [everyone, everyone, twoOf, twoOf].entries()) {
    await t.ctx.db.update(chatMessages).set({ present }).where(eq(chatMessages.id, messages[i]!.id));
  }
  await t.ctx.db.update(stories).set({ summaryWitnesses: twoOf }).where(eq(stories.id, storyId));
  return { storyId, ada, brannoc, cel };
}

const backupOf = async (user: TestUser, storyId: string) => {
  const res = await call(user, "GET", `/api/stories/${storyId}/backup`);
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
};

/** The archive with its JSON changed by `edit` (every other file as it was). */
async function rewritten(data: Buffer, edit: (json: Record<string, unknown>) => void): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of await readZip(data)) {
    if (entry.name !== BACKUP_JSON_NAME) {
      zip.addBuffer(entry.data, entry.name);
      continue;
    }
    const json = JSON.parse(entry.data.toString("utf8")) as Record<string, unknown>;
    edit(json);
    zip.addBuffer(Buffer.from(JSON.stringify(json)), entry.name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("a group scene in a backup", () => {
  it("restores as the same group: order, muted, knows what they saw, talkativeness, who was present", async () => {
    const user = await richUser();
    const { storyId } = await groupStory(user);
    const backup = await backupOf(user, storyId);

    const other = await richUser();
    const restored = await restoreBackup(t, other, backup);
    const restoredId = restored.story.id;
    expect(restored.notes.filter((note) => note.name.startsWith("Who tells"))).toEqual([]);
    const cards = await cardsOf(other, restoredId);
    const named = (name: string) => cards.find((card) => card.name === name)!;
    const [ada, brannoc, cel] = [named("Ada Quill"), named("Brannoc"), named("Cel")];
    expect(await settingsOf(other, restoredId)).toMatchObject({
      teller: "group",
      character_ids: [ada.id, brannoc.id, cel.id],
      speaker_order: "round_robin",
      muted_ids: [cel.id],
      knows_what_they_saw: true,
    });
    expect(cards.map((card) => [card.name, card.talkativeness])).toEqual([
      ["Ada Quill", 0.2],
      ["Brannoc", 0.9],
      ["Cel", 0.5],
    ]);

    // Each message keeps who was present, as the restored cards; the summary its witnesses.
    const everyone = [ada, brannoc, cel].map((card) => ({ card_id: card.id, name: card.name }));
    const twoOf = everyone.slice(0, 2);
    const messages = await storedMessages(restoredId);
    expect(messages.map((message) => message.present)).toEqual([everyone, everyone, twoOf, twoOf]);
    const spoken = messages.filter((message) => message.role === "assistant");
    for (const message of spoken) expect([ada.id, brannoc.id]).toContain(message.speaker?.card_id);
    const [row] = await t.ctx.db.select().from(stories).where(eq(stories.id, restoredId));
    expect(row!.summaryWitnesses).toEqual(twoOf);

    // The restored story plays as the group: the next speaker is one of its unmuted characters.
    const next = await chat(other, restoredId, "Another round, then?");
    expect(next).not.toBeNull();
    expect([ada.id, brannoc.id]).toContain(next!.card_id);
    expect(next!.card_id).not.toBe(spoken.at(-1)!.speaker?.card_id);
  });

  it("names who was present by each card's name now: a character renamed since is still the one who saw", async () => {
    const user = await richUser();
    const { storyId, brannoc } = await groupStory(user);
    const renamed = await call(user, "PUT", `/api/stories/${storyId}/cards/${brannoc.id}`, { name: "Bran" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const other = await richUser();
    const restored = await restoreBackup(t, other, await backupOf(user, storyId));
    const bran = (await cardsOf(other, restored.story.id)).find((card) => card.name === "Bran")!;
    const messages = await storedMessages(restored.story.id);
    for (const message of messages) {
      expect(message.present).toContainEqual({ card_id: bran.id, name: "Bran" });
    }
    const [row] = await t.ctx.db.select().from(stories).where(eq(stories.id, restored.story.id));
    expect(row!.summaryWitnesses).toContainEqual({ card_id: bran.id, name: "Bran" });
  });

  it("keeps each branch's group as that branch's own cards", async () => {
    const user = await richUser();
    const { storyId } = await groupStory(user);
    const shown = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages as {
      id: string;
    }[];
    const fork = await call(user, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: shown.at(-1)!.id,
      name: "Back room",
    });
    expect(fork.statusCode, fork.body).toBe(201);
    const branchId = fork.json().branch.id as string;
    // The first branch's group changed after the fork: Cel and Brannoc, all replying, nobody muted. The
    // branch keeps the group it was made with, whose row names the first branch's cards (its copies are its own).
    const mainCards = await cardsOf(user, storyId, storyId);
    const cardOnMain = (name: string) => mainCards.find((card) => card.name === name)!.id;
    const set = await call(user, "PUT", `/api/stories/${storyId}/settings${onBranch(storyId)}`, {
      teller: "group",
      character_ids: [cardOnMain("Cel"), cardOnMain("Brannoc")],
      speaker_order: "all",
      muted_ids: [],
    });
    expect(set.statusCode, set.body).toBe(200);
    const [branchRow] = await t.ctx.db.select().from(stories).where(eq(stories.id, branchId));
    expect(branchRow!.groupCardIds).toContain(cardOnMain("Ada Quill"));

    const other = await richUser();
    const restored = await restoreBackup(t, other, await backupOf(user, storyId));
    const tree = (await call(other, "GET", `/api/stories/${restored.story.id}/branches`)).json() as {
      branches: { id: string; name: string }[];
    };
    const root = tree.branches[0]!.id;
    const back = tree.branches.find((branch) => branch.name === "Back room")!.id;
    const idsOf = async (branch: string, names: string[]) => {
      const cards = await cardsOf(other, root, branch);
      return names.map((name) => cards.find((card) => card.name === name)!.id);
    };
    expect(await settingsOf(other, root, root)).toMatchObject({
      teller: "group",
      character_ids: await idsOf(root, ["Cel", "Brannoc"]),
      speaker_order: "all",
      muted_ids: [],
    });
    expect(await settingsOf(other, root, back)).toMatchObject({
      teller: "group",
      character_ids: await idsOf(back, ["Ada Quill", "Brannoc", "Cel"]),
      speaker_order: "round_robin",
      muted_ids: await idsOf(back, ["Cel"]),
      knows_what_they_saw: true,
    });
  });

  it("restores an archive from before groups were carried as before: the narrator tells it", async () => {
    const user = await richUser();
    const { storyId } = await groupStory(user);
    const older = await rewritten(await backupOf(user, storyId), (json) => {
      const story = json.story as Record<string, unknown>;
      for (const field of [
        "group_cards",
        "muted_cards",
        "speaker_order",
        "knows_what_they_saw",
        "summary_witnesses",
      ]) {
        delete story[field];
      }
      story.teller = "narrator";
      for (const message of json.messages as Record<string, unknown>[]) delete message.present;
      for (const card of json.cards as Record<string, unknown>[]) delete card.talkativeness;
    });

    const other = await richUser();
    const restored = await restoreBackup(t, other, older);
    const restoredId = restored.story.id;
    expect(restored.notes.filter((note) => note.name.startsWith("Who tells"))).toEqual([]);
    expect(await settingsOf(other, restoredId)).toMatchObject({
      teller: "narrator",
      character_ids: [],
      speaker_order: "natural",
      muted_ids: [],
      knows_what_they_saw: false,
    });
    const cards = await cardsOf(other, restoredId);
    expect(cards.map((card) => card.talkativeness)).toEqual([0.5, 0.5, 0.5]);
    const messages = await storedMessages(restoredId);
    expect(messages.map((message) => message.present)).toEqual([null, null, null, null]);
    // Who spoke each message is still carried, as before.
    const spoken = messages.filter((message) => message.role === "assistant");
    expect(spoken.map((message) => message.speaker?.name).sort()).toEqual(["Ada Quill", "Brannoc"]);
    const [row] = await t.ctx.db.select().from(stories).where(eq(stories.id, restoredId));
    expect(row!.summaryWitnesses).toBeNull();
    expect(await chat(other, restoredId, "Another round, then?")).toBeNull();
  });

  it("says so when the group's characters are not in the backup: the narrator tells it", async () => {
    const user = await richUser();
    const { storyId } = await groupStory(user);
    const lost = await rewritten(await backupOf(user, storyId), (json) => {
      (json.story as Record<string, unknown>).group_cards = ["Ada Quill", "Nobody"];
    });

    const other = await richUser();
    const restored = await restoreBackup(t, other, lost);
    expect(restored.notes).toContainEqual({
      name: "Who tells the story",
      reason: "the group's characters are not in the backup: the narrator tells it",
    });
    expect(await settingsOf(other, restored.story.id)).toMatchObject({ teller: "narrator" });
  });
});
