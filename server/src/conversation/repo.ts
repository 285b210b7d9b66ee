// SQL for chat messages (main chat and stories).
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Queryable } from "../db/client";
import { preparedPerHandle } from "../db/prepared";
import { chatMessages } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";
import { acrossParts, defineReadCache, partOf } from "../platform/read-cache";
import {
  branchMessages,
  branchParts,
  copyIdOf,
  firstAcrossParts,
  messageStamp,
  ownBranchMessages,
  partMessages,
  sharesHistory,
  stampedBefore,
} from "./branch-messages";

export type MessageRow = typeof chatMessages.$inferSelect;
export type NewMessage = typeof chatMessages.$inferInsert;

/** storyId: a story, null for the main chat, undefined for any of the user's conversations. */
const inConversation = (userId: string, storyId: string | null | undefined): SQL =>
  storyId === undefined
    ? eq(chatMessages.userId, userId)
    : storyId
      ? branchMessages(userId, storyId)
      : and(eq(chatMessages.userId, userId), isNull(chatMessages.storyId))!;

/**
 * A user's conversations as the hot reads show them (a story's or the main chat's messages, one message for
 * media-status polling, the story list's counts), kept per process under the user (decision 0117). Every
 * change to `chat_messages` is a write of this file or of `branch-history.ts` / `backup-rows.ts`, and each
 * invalidates its user after its statement (all users when the statement does not say whose rows).
 */
export const conversationCache = defineReadCache<unknown>("chat.conversations", ["chat_messages"], {
  perPart: ["chat_messages"],
});

/**
 * The cache's owners (decision 0134): each conversation (a story's branch row, or the main chat) is one part of
 * its user, so a turn in one story keeps every other story's answers; answers over all of a user's
 * conversations (every story's counts, a message looked up by id alone) are a part of their own, which every
 * write of the user drops. A write whose rows are not named (branch copies, restores) drops the whole user.
 */
const conversationOwner = (userId: string, storyId: string | null): string =>
  partOf(userId, storyId ?? "main");
const acrossConversations = (userId: string): string => acrossParts(userId);

/** After a write to one conversation's rows. */
export function conversationChanged(q: Queryable, userId: string, storyId: string | null): void {
  conversationCache.invalidate(q, conversationOwner(userId, storyId));
  conversationCache.invalidate(q, acrossConversations(userId));
}

/** After a write to these rows (each names its user and conversation). */
function messagesChanged(q: Queryable, rows: readonly { userId: string; storyId: string | null }[]): void {
  const seen = new Set<string>();
  for (const row of rows) {
    const owner = conversationOwner(row.userId, row.storyId);
    if (seen.has(owner)) continue;
    seen.add(owner);
    conversationChanged(q, row.userId, row.storyId);
  }
}

/** The story as it reads: every message but the retry versions that are not the one shown. */
const shownIn = (userId: string, storyId: string | null | undefined): SQL =>
  and(inConversation(userId, storyId), eq(chatMessages.hidden, false))!;

/**
 * `shownIn` as ordered reads go through it (decision 0168): the main chat and a branch that holds its history are
 * one scope; a branch that shares history is one per part, each an index range.
 */
async function shownScopes(q: Queryable, userId: string, storyId: string | null): Promise<SQL[]> {
  if (storyId === null) return [shownIn(userId, null)];
  const parts = await branchParts(q, storyId);
  return parts.map((part) => and(partMessages(userId, part), eq(chatMessages.hidden, false))!);
}

/** `read` on each of the conversation's scopes (`shownScopes`): one answer per part, for the caller to add up. */
const eachShownScope = async <T>(
  q: Queryable,
  user: string,
  story: string,
  read: (scope: SQL) => Promise<T>,
) => Promise.all((await shownScopes(q, user, story)).map(read));

/** The first `limit` rows `read` finds in the scopes, in the story's order (`newestFirst` or oldest first). */
async function firstShown<T extends { stamp: string; id: string }>(
  scopes: SQL[],
  limit: number,
  newestFirst: boolean,
  read: (scope: SQL) => Promise<T[]>,
): Promise<T[]> {
  return firstAcrossParts(scopes, limit, read, newestFirst ? (a, b) => stampedBefore(b, a) : stampedBefore);
}

const withoutStamp = <T extends { stamp: string }>({ stamp: _stamp, ...row }: T): Omit<T, "stamp"> => row;

export async function insertMessage(q: Queryable, values: NewMessage): Promise<MessageRow> {
  const [row] = await q.insert(chatMessages).values(values).returning();
  conversationChanged(q, values.userId, values.storyId ?? null);
  return row!;
}

/** How many messages a conversation shows, and how many of them are no newer than `through`. */
export async function countMessagesThrough(
  q: Queryable,
  userId: string,
  storyId: string,
  through: Date | null,
): Promise<{ total: number; through: number }> {
  // Counted part by part (decision 0168): each part one index range.
  const counts = await eachShownScope(q, userId, storyId, async (scope) => {
    const [row] = await q
      .select({
        total: sql<number>`count(*)::int`,
        through: through
          ? sql<number>`count(*) filter (where ${chatMessages.createdAt} <= ${through})::int`
          : sql<number>`0`,
      })
      .from(chatMessages)
      .where(scope);
    return { total: Number(row?.total ?? 0), through: Number(row?.through ?? 0) };
  });
  return counts.reduce((sum, part) => ({
    total: sum.total + part.total,
    through: sum.through + part.through,
  }));
}

/**
 * How many messages a story shows newer than `after` (all when null), counted up to `most` only: a bounded read
 * from the newest end, whatever the story's length (the summary's "is a step due" after every turn).
 */
export async function countMessagesNewer(
  q: Queryable,
  userId: string,
  storyId: string,
  after: Date | null,
  most: number,
): Promise<number> {
  // Counted part by part (decision 0168), each up to `most`: each part one bounded index range.
  const counts = await eachShownScope(q, userId, storyId, async (scope) => {
    const newest = q
      .select({ one: sql`1` })
      .from(chatMessages)
      .where(and(scope, after ? gt(chatMessages.createdAt, after) : undefined))
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
      .limit(most)
      .as("newest");
    const [row] = await q.select({ n: sql<number>`count(*)::int` }).from(newest);
    return Number(row?.n ?? 0);
  });
  const total = counts.reduce((sum, n) => sum + n, 0);
  return Math.min(most, total);
}

/** The newest `limit` messages of one conversation, oldest first. */
export async function recentMessages(
  q: Queryable,
  userId: string,
  storyId: string | null,
  limit: number,
): Promise<MessageRow[]> {
  const rows = await firstShown(await shownScopes(q, userId, storyId), limit, true, (scope) =>
    q
      .select({ ...getTableColumns(chatMessages), stamp: messageStamp })
      .from(chatMessages)
      .where(scope)
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
      .limit(limit),
  );
  return rows.map(withoutStamp).reverse();
}

/**
 * The newest `limit` narrator messages of a story (the shown version of each), oldest first: the living-lore
 * job's bounded read (decision 0129), newest first through chat_messages_narrator_idx.
 */
export async function newestNarrations(
  q: Queryable,
  userId: string,
  storyId: string,
  limit: number,
): Promise<Pick<MessageRow, "content" | "createdAt">[]> {
  const rows = await firstShown(await shownScopes(q, userId, storyId), limit, true, (scope) =>
    q
      .select({
        content: chatMessages.content,
        createdAt: chatMessages.createdAt,
        id: chatMessages.id,
        stamp: messageStamp,
      })
      .from(chatMessages)
      .where(and(scope, eq(chatMessages.role, "assistant")))
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
      .limit(limit),
  );
  return rows.map(({ content, createdAt }) => ({ content, createdAt })).reverse();
}

/**
 * At most `limit` of a story's shown messages newer than `after` (all when null), oldest first: the summary
 * job's bounded batch (decision 0129).
 */
export async function messagesAfter(
  q: Queryable,
  userId: string,
  storyId: string,
  after: Date | null,
  limit: number,
): Promise<Pick<MessageRow, "role" | "content" | "createdAt" | "present">[]> {
  const rows = await firstShown(await shownScopes(q, userId, storyId), limit, false, (scope) =>
    q
      .select({
        role: chatMessages.role,
        content: chatMessages.content,
        createdAt: chatMessages.createdAt,
        present: chatMessages.present,
        id: chatMessages.id,
        stamp: messageStamp,
      })
      .from(chatMessages)
      .where(and(scope, after ? gt(chatMessages.createdAt, after) : undefined))
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
      .limit(limit),
  );
  return rows.map(({ role, content, createdAt, present }) => ({ role, content, createdAt, present }));
}

// A story's (or the main chat's) messages are read on every open and refresh: prepared once per handle.
const storyMessagesStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, sql.placeholder("userId")),
        eq(chatMessages.storyId, sql.placeholder("storyId")),
        eq(chatMessages.hidden, false),
      ),
    )
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
    .prepare("story_messages"),
);
const mainChatMessagesStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, sql.placeholder("userId")),
        isNull(chatMessages.storyId),
        eq(chatMessages.hidden, false),
      ),
    )
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
    .prepare("main_chat_messages"),
);

export async function allMessages(
  q: Queryable,
  userId: string,
  storyId: string | null,
): Promise<MessageRow[]> {
  if (storyId) {
    return conversationCache.read(
      q,
      `messages:${userId}:${storyId}`,
      conversationOwner(userId, storyId),
      () =>
        sharesHistory(storyId)
          ? q
              .select()
              .from(chatMessages)
              .where(shownIn(userId, storyId))
              .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
          : storyMessagesStatement(q).execute({ userId, storyId }),
    ) as Promise<MessageRow[]>;
  }
  if (storyId === null) {
    return conversationCache.read(q, `messages:${userId}:main`, conversationOwner(userId, null), () =>
      mainChatMessagesStatement(q).execute({ userId }),
    ) as Promise<MessageRow[]>;
  }
  return q
    .select()
    .from(chatMessages)
    .where(shownIn(userId, storyId))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id));
}

// Media-status polling runs this lookup constantly: build its SQL once per database, not per request.
const findMessageStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, sql.placeholder("userId")),
        eq(chatMessages.id, sql.placeholder("messageId")),
      ),
    )
    .prepare("find_chat_message"),
);

/** One message of this user's conversation; undefined for anyone else's. */
export async function findMessage(
  q: Queryable,
  userId: string,
  storyId: string | null | undefined,
  messageId: string,
  copied = false,
): Promise<MessageRow | undefined> {
  // Kept under the conversation asked about (any of the user's when none is named).
  const owner = storyId === undefined ? acrossConversations(userId) : conversationOwner(userId, storyId);
  const [row] = (await conversationCache.read(q, `message:${owner}:${messageId}`, owner, () =>
    findMessageStatement(q).execute({ userId, messageId }),
  )) as MessageRow[];
  if (!row || (storyId !== undefined && row.storyId !== storyId && !(await sharedWith(q, row, storyId)))) {
    // A message the branch shared and has since made its own (decision 0137) answers to the id it had.
    return storyId && sharesHistory(storyId) && !copied
      ? findMessage(q, userId, storyId, copyIdOf(storyId, messageId), true)
      : undefined;
  }
  return row;
}

/** Whether a row of another branch is one the story's branch shares (decision 0137). */
async function sharedWith(q: Queryable, row: MessageRow, storyId: string | null): Promise<boolean> {
  if (!storyId || !row.storyId || !sharesHistory(storyId)) return false;
  const [found] = await q
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(branchMessages(row.userId, storyId), eq(chatMessages.id, row.id)));
  return found !== undefined;
}

export async function findMessageById(q: Queryable, messageId: string): Promise<MessageRow | undefined> {
  const [row] = await q.select().from(chatMessages).where(eq(chatMessages.id, messageId));
  return row;
}

/** The message and the branches' copies of it (decision 0114): a late picture reaches every copy. */
const ownOrCopies = (messageId: string): SQL =>
  or(eq(chatMessages.id, messageId), eq(chatMessages.copiedFrom, messageId))!;

/**
 * Sets media fields only while the message is still pending (on its copies too); false when it was failed (a stale time-out,
 * a refund) or deleted meanwhile, so a late job can never deliver what was already refunded.
 */
export async function updateMediaIfPending(
  q: Queryable,
  messageId: string,
  values: Partial<
    Pick<MessageRow, "imageKey" | "videoKey" | "mediaStatus" | "mediaError" | "sceneDescription">
  > & {
    updatedAt: Date;
  },
): Promise<boolean> {
  const updated = await q
    .update(chatMessages)
    .set(values)
    .where(and(ownOrCopies(messageId), eq(chatMessages.mediaStatus, "pending")))
    .returning({ id: chatMessages.id, userId: chatMessages.userId, storyId: chatMessages.storyId });
  sharedRowsChanged(q, updated);
  return updated.some((row) => row.id === messageId);
}

/**
 * After a write to rows other branches may share (decision 0137: a picture arriving on a shared message shows
 * on every branch that shares it): every conversation of their users.
 */
function sharedRowsChanged(q: Queryable, rows: readonly { userId: string }[]): void {
  for (const userId of new Set(rows.map((row) => row.userId))) conversationCache.invalidate(q, userId);
}

/** The branch's own messages still waiting for media (locked until the caller's transaction ends). */
export async function pendingMessagesOfStory(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<MessageRow[]> {
  return q
    .select()
    .from(chatMessages)
    .where(and(ownBranchMessages(userId, storyId), eq(chatMessages.mediaStatus, "pending")))
    .for("update");
}

/** Removes the rows the branch holds itself (a branch sharing them was given its own copy first: 0137). */
export async function deleteConversation(q: Queryable, userId: string, storyId: string): Promise<void> {
  await q.delete(chatMessages).where(ownBranchMessages(userId, storyId));
  conversationChanged(q, userId, storyId);
}

/** pending -> failed, only if still pending; false when the job finished (or failed) first. */
export async function failIfPending(
  q: Queryable,
  messageId: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  const updated = await q
    .update(chatMessages)
    .set({ mediaStatus: "failed", mediaError: reason, updatedAt: at })
    .where(and(ownOrCopies(messageId), eq(chatMessages.mediaStatus, "pending")))
    .returning({ id: chatMessages.id, userId: chatMessages.userId, storyId: chatMessages.storyId });
  sharedRowsChanged(q, updated);
  return updated.some((row) => row.id === messageId);
}

export type ConversationStats = { storyId: string; messageCount: number; lastMessageAt: Date | null };

/** A conversation's message count and newest message time (epoch milliseconds: the same on both drivers). */
const conversationStatsColumns = {
  messageCount: sql<number>`count(*)::int`,
  lastMessageAt: sql<
    string | null
  >`(extract(epoch from max(${chatMessages.createdAt})) * 1000)::bigint::text`,
};

// A story card's count and newest message time: one story's, kept under that story (decision 0134), so a page
// of cards reads again only the stories played since.
const storyStatsStatement = preparedPerHandle((q) =>
  q
    .select(conversationStatsColumns)
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, sql.placeholder("userId")),
        eq(chatMessages.storyId, sql.placeholder("storyId")),
        eq(chatMessages.hidden, false),
      ),
    )
    .prepare("story_conversation_stats"),
);

/** storyStatsStatement's answer for a branch that shares its history: summed over its parts (decision 0168). */
async function sharedConversationStats(q: Queryable, userId: string, storyId: string) {
  const each = await eachShownScope(q, userId, storyId, async (scope) => {
    const [row] = await q.select(conversationStatsColumns).from(chatMessages).where(scope);
    return { messageCount: Number(row?.messageCount ?? 0), lastMessageAt: row?.lastMessageAt ?? null };
  });
  const times = each.flatMap((part) => (part.lastMessageAt === null ? [] : [Number(part.lastMessageAt)]));
  return [
    {
      messageCount: each.reduce((sum, part) => sum + part.messageCount, 0),
      lastMessageAt: times.length > 0 ? String(Math.max(...times)) : null,
    },
  ];
}

/** Message count and newest message time of each of these stories' conversations (absent: no messages). */
export async function storyConversationStats(
  q: Queryable,
  userId: string,
  storyIds: string[],
): Promise<ConversationStats[]> {
  const each = await Promise.all(
    storyIds.map(async (storyId) => {
      const owner = conversationOwner(userId, storyId);
      const [row] = (await conversationCache.read(q, `count:${owner}`, owner, () =>
        sharesHistory(storyId)
          ? sharedConversationStats(q, userId, storyId)
          : storyStatsStatement(q).execute({ userId, storyId }),
      )) as { messageCount: number; lastMessageAt: string | null }[];
      const messageCount = Number(row?.messageCount ?? 0);
      return messageCount === 0
        ? undefined
        : { storyId, messageCount, lastMessageAt: new Date(Number(row!.lastMessageAt)) };
    }),
  );
  return each.filter((stats) => stats !== undefined);
}

// The story list asks for the stats of every one of the user's stories: one prepared statement, no id list.
const allStoriesStatsStatement = preparedPerHandle((q) =>
  q
    .select({
      storyId: chatMessages.storyId,
      messageCount: sql<number>`count(*)::int`,
      lastMessageAt: sql<string>`(extract(epoch from max(${chatMessages.createdAt})) * 1000)::bigint::text`,
    })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, sql.placeholder("userId")),
        isNotNull(chatMessages.storyId),
        eq(chatMessages.hidden, false),
      ),
    )
    .groupBy(chatMessages.storyId)
    .prepare("all_stories_conversation_stats"),
);

/** storyConversationStats for every story of the user. */
export async function allStoriesConversationStats(
  q: Queryable,
  userId: string,
): Promise<ConversationStats[]> {
  const rows = (await conversationCache.read(q, `stats:${userId}`, acrossConversations(userId), () =>
    allStoriesStatsStatement(q).execute({ userId }),
  )) as { storyId: string | null; messageCount: number; lastMessageAt: string }[];
  return rows.map((row) => ({
    storyId: row.storyId!,
    messageCount: Number(row.messageCount),
    lastMessageAt: new Date(Number(row.lastMessageAt)),
  }));
}

/**
 * Serialises the writes that change a conversation's newest exchange (turns, retries, continues, undo)
 * until the caller's transaction ends, so a check of "the newest exchange" stays true until the commit.
 */
export async function lockConversation(q: Queryable, userId: string, storyId: string | null): Promise<void> {
  await q.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`chat:${userId}:${storyId ?? "main"}`}, 0))`,
  );
}

/** Every version of one narrator answer, first version first. */
export async function versionsOf(q: Queryable, userId: string, groupId: string): Promise<MessageRow[]> {
  return q
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, userId),
        or(eq(chatMessages.id, groupId), eq(chatMessages.versionGroup, groupId)),
      ),
    )
    .orderBy(asc(chatMessages.versionNumber));
}

/** How many versions each of these groups has. */
export async function versionCounts(q: Queryable, groupIds: string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await q
    .select({ group: chatMessages.versionGroup, count: sql<number>`count(*)::int` })
    .from(chatMessages)
    .where(inArray(chatMessages.versionGroup, groupIds))
    .groupBy(chatMessages.versionGroup);
  return new Map(rows.map((row) => [row.group!, Number(row.count)]));
}

/** Makes `shownId` the one shown version of its group. */
export async function showVersion(q: Queryable, groupId: string, shownId: string, at: Date): Promise<void> {
  const updated = await q
    .update(chatMessages)
    .set({ hidden: sql`${chatMessages.id} <> ${shownId}`, updatedAt: at })
    .where(or(eq(chatMessages.id, groupId), eq(chatMessages.versionGroup, groupId)))
    .returning({ userId: chatMessages.userId, storyId: chatMessages.storyId });
  messagesChanged(q, updated);
}

/** Marks a message as the first version of its own group (done when it is first retried). */
export async function startVersionGroup(q: Queryable, messageId: string): Promise<void> {
  const updated = await q
    .update(chatMessages)
    .set({ versionGroup: messageId })
    .where(and(eq(chatMessages.id, messageId), isNull(chatMessages.versionGroup)))
    .returning({ userId: chatMessages.userId, storyId: chatMessages.storyId });
  messagesChanged(q, updated);
}

export async function updateContent(q: Queryable, messageId: string, content: string, at: Date) {
  const [row] = await q
    .update(chatMessages)
    .set({ content, updatedAt: at })
    .where(eq(chatMessages.id, messageId))
    .returning();
  if (row) messagesChanged(q, [row]);
  return row;
}

/**
 * Points a message at another picture or clip (decision 0163) if it still shows `from`: the file it shows, not
 * its words. Undefined when the message is gone or shows another file by now.
 */
export async function updateMediaKey(
  q: Queryable,
  messageId: string,
  change: { from: string } & ({ imageKey: string } | { videoKey: string }),
  at: Date,
) {
  const { from, ...media } = change;
  const column = "videoKey" in media ? chatMessages.videoKey : chatMessages.imageKey;
  const [row] = await q
    .update(chatMessages)
    .set({ ...media, updatedAt: at })
    .where(and(eq(chatMessages.id, messageId), eq(column, from)))
    .returning();
  if (row) messagesChanged(q, [row]);
  return row;
}

/** Removes these messages and every version of them. */
export async function deleteMessagesAndVersions(q: Queryable, userId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q
    .delete(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, userId),
        or(inArray(chatMessages.id, ids), inArray(chatMessages.versionGroup, ids)),
      ),
    );
  conversationCache.invalidate(q, userId);
}

/** The highest place on a conversation's Redo stack; 0 when nothing is undone. */
async function topUndoStep(q: Queryable, userId: string, storyId: string | null): Promise<number> {
  const [row] = await q
    .select({ top: sql<number | null>`max(${chatMessages.undoStep})` })
    .from(chatMessages)
    .where(and(inConversation(userId, storyId), isNotNull(chatMessages.undoStep)));
  return Number(row?.top ?? 0);
}

/** How many undone exchanges are on a conversation's Redo stack. */
export async function undoneExchangeCount(
  q: Queryable,
  userId: string,
  storyId: string | null,
): Promise<number> {
  const [row] = await q
    .select({ steps: sql<number>`count(distinct ${chatMessages.undoStep})` })
    .from(chatMessages)
    .where(and(inConversation(userId, storyId), isNotNull(chatMessages.undoStep)));
  return Number(row?.steps ?? 0);
}

/** Undo: hides these shown messages as the next place on the conversation's Redo stack. */
export async function hideAsUndone(
  q: Queryable,
  userId: string,
  storyId: string | null,
  ids: string[],
  at: Date,
): Promise<void> {
  const step = (await topUndoStep(q, userId, storyId)) + 1;
  await q
    .update(chatMessages)
    .set({ hidden: true, undoStep: step, updatedAt: at })
    .where(and(eq(chatMessages.userId, userId), inArray(chatMessages.id, ids)));
  conversationChanged(q, userId, storyId);
}

/** Redo: shows the most recently undone messages again (oldest first); none when nothing is undone. */
export async function showNewestUndone(
  q: Queryable,
  userId: string,
  storyId: string | null,
  at: Date,
): Promise<MessageRow[]> {
  const step = await topUndoStep(q, userId, storyId);
  if (step === 0) return [];
  const rows = await q
    .update(chatMessages)
    .set({ hidden: false, undoStep: null, updatedAt: at })
    .where(and(inConversation(userId, storyId), eq(chatMessages.undoStep, step)))
    .returning();
  conversationChanged(q, userId, storyId);
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

/** Every message undone and not redone, with every version of their answers (locked for the caller). */
export async function undoneMessagesAndVersions(
  q: Queryable,
  userId: string,
  storyId: string | null,
): Promise<MessageRow[]> {
  const undone = await q
    .select({ id: chatMessages.id, group: chatMessages.versionGroup })
    .from(chatMessages)
    .where(and(inConversation(userId, storyId), isNotNull(chatMessages.undoStep)));
  if (undone.length === 0) return [];
  const ids = [...new Set(undone.flatMap((row) => [row.id, row.group ?? row.id]))];
  return q
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, userId),
        or(inArray(chatMessages.id, ids), inArray(chatMessages.versionGroup, ids)),
      ),
    )
    .for("update");
}

/** The stored keys a message still shows: its picture, its clip, its reference images (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedByMessages: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [
      { table: chatMessages, user: chatMessages.userId, column: chatMessages.imageKey },
      { table: chatMessages, user: chatMessages.userId, column: chatMessages.videoKey },
      { table: chatMessages, user: chatMessages.userId, column: chatMessages.referenceKeys, array: true },
    ],
    owners,
    keys,
  );
