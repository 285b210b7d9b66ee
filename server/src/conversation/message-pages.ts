// A story's messages a page at a time (issue 42 item 1, decision 0130): opening a story reads its newest page,
// scrolling up reads the page before, a checkpoint reads the page around its message. Keyset paging on
// (created_at, id), the order the story is told in; a cursor is that pair for a page's edge message, opaque to
// clients. Which rows a page may hold is the same as the unpaged read always was: the story's shown messages
// (the version shown of a retried answer; not the undone, not the deleted). The main chat (the never-ending
// story without an id) and a story's public share page read their pages here too (decision 0138).
import type { ChatMessage } from "@storyverse/contract/chat";
import { and, asc, desc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { chatMessages } from "../db/schema";
import { InvalidInput, NotFound } from "../platform/errors";
import {
  branchMessages,
  branchParts,
  firstAcrossParts,
  messageStamp,
  partMessages,
  stampedBefore,
} from "./branch-messages";
import { withVersions } from "./presentation";
import type { MessageRow } from "./repo";

/**
 * Which rows are the story's (its branch's) messages: the one condition every page query scopes by, the chat
 * module's one definition of a branch's messages (branch-messages.ts, decision 0132).
 */
export const storyMessagesScope = branchMessages;

/** The main chat's rows: the user's messages of no story. */
const mainChatScope = (userId: string): SQL =>
  and(eq(chatMessages.userId, userId), isNull(chatMessages.storyId))!;

/**
 * The conversation as it reads (not the retry versions waiting to be switched back to, not the undone): a
 * story's (branch's) or, for a null story, the main chat's.
 */
const shown = (userId: string, storyId: string | null): SQL =>
  and(
    storyId === null ? mainChatScope(userId) : storyMessagesScope(userId, storyId),
    eq(chatMessages.hidden, false),
  )!;

/**
 * `shown` as the parts ordered reads go through one at a time (branch-messages.ts): the main chat and a branch
 * that holds its messages are one part; a branch that shares history is its own rows and each level's.
 */
async function shownParts(q: Queryable, userId: string, storyId: string | null): Promise<SQL[]> {
  if (storyId === null) return [shown(userId, null)];
  const parts = await branchParts(q, storyId);
  return parts.map((part) => and(partMessages(userId, part), eq(chatMessages.hidden, false))!);
}

/** What a cursor the server did not make is told (a 400). */
export const CURSOR_DETAIL = "This conversation is out of date. Please reload the story.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The database's own microsecond time of a message, so a cursor never falls between two close messages. */
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

type Position = { at: string; id: string };
export type PagedRow = MessageRow & { stamp: string };

function encodeCursor(row: PagedRow): string {
  return Buffer.from(`${row.stamp}|${row.id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): Position {
  const [at, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !id || !UUID.test(id) || !at || !STAMP.test(at) || Number.isNaN(Date.parse(at))) {
    throw new InvalidInput(CURSOR_DETAIL);
  }
  const year = Number(at.slice(0, 4));
  if (year < 1970 || year > 9999) throw new InvalidInput(CURSOR_DETAIL);
  return { at, id };
}

// created_at alone narrows the index range (chat_messages_user_story_idx); the row comparison breaks ties.
const olderThan = (p: Position): SQL =>
  sql`${chatMessages.createdAt} <= ${p.at}::timestamptz and (${chatMessages.createdAt}, ${chatMessages.id}) < (${p.at}::timestamptz, ${p.id}::uuid)`;
const newerThan = (p: Position): SQL =>
  sql`${chatMessages.createdAt} >= ${p.at}::timestamptz and (${chatMessages.createdAt}, ${chatMessages.id}) > (${p.at}::timestamptz, ${p.id}::uuid)`;
const notOlderThan = (p: Position): SQL =>
  sql`${chatMessages.createdAt} >= ${p.at}::timestamptz and (${chatMessages.createdAt}, ${chatMessages.id}) >= (${p.at}::timestamptz, ${p.id}::uuid)`;

/** Up to `limit` shown rows on one side of `edge`, oldest first; `more` says whether another lies beyond. */
async function side(
  q: Queryable,
  scopes: SQL[],
  direction: "older" | "newer",
  edge: SQL | undefined,
  limit: number,
): Promise<{ rows: PagedRow[]; more: boolean }> {
  if (limit <= 0) {
    // Nothing asked for on this side: still say whether anything is there.
    const found = await Promise.all(
      scopes.map((scope) =>
        q.select({ id: chatMessages.id }).from(chatMessages).where(and(scope, edge)).limit(1),
      ),
    );
    return { rows: [], more: found.some((rows) => rows.length > 0) };
  }
  const order =
    direction === "older"
      ? [desc(chatMessages.createdAt), desc(chatMessages.id)]
      : [asc(chatMessages.createdAt), asc(chatMessages.id)];
  // One extra row says whether another page exists, without a count.
  const rows = await firstAcrossParts(
    scopes,
    limit + 1,
    async (scope) =>
      (await q
        .select({ ...messageColumns, stamp: messageStamp })
        .from(chatMessages)
        .where(and(scope, edge))
        .orderBy(...order)
        .limit(limit + 1)) as PagedRow[],
    direction === "older" ? (a, b) => stampedBefore(b, a) : stampedBefore,
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { rows: direction === "older" ? page.reverse() : page, more };
}

const messageColumns = getTableColumns(chatMessages);

/** How many narrator messages the story shows before `first` (turn numbers of the page), counted part by part. */
async function turnsBefore(q: Queryable, scopes: SQL[], first: PagedRow | undefined) {
  if (!first) return 0;
  const counts = await Promise.all(
    scopes.map(async (scope) => {
      const [row] = await q
        .select({ count: sql<number>`count(*)::int` })
        .from(chatMessages)
        .where(and(scope, eq(chatMessages.role, "assistant"), olderThan({ at: first.stamp, id: first.id })));
      return Number(row?.count ?? 0);
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Where a page sits: the cursors to the pages before and after it, and the narrations before it. */
interface PagePlace {
  has_more: boolean;
  next_cursor: string | null;
  has_newer: boolean;
  newer_cursor: string | null;
  turns_before: number;
}

export interface MessagePage extends PagePlace {
  messages: ChatMessage[];
}

/** A page as its rows, for a reader that shows them its own way (a story's public share page). */
export interface RowPage extends PagePlace {
  rows: PagedRow[];
}

export interface PageQuery {
  limit: number;
  before?: string | undefined;
  after?: string | undefined;
  around?: string | undefined;
}

/**
 * One message the conversation shows (a page may hold it); undefined for any other (another story's, a hidden
 * version, an undone or deleted one, another player's).
 */
export async function shownMessage(
  q: Queryable,
  userId: string,
  storyId: string | null,
  messageId: string,
): Promise<PagedRow | undefined> {
  const [row] = (await q
    .select({ ...messageColumns, stamp: messageStamp })
    .from(chatMessages)
    .where(and(shown(userId, storyId), eq(chatMessages.id, messageId)))) as PagedRow[];
  return row;
}

/** The words of the conversation's first narration (a shared page's link preview), on chat_messages_narrator_idx. */
export async function firstNarration(
  q: Queryable,
  userId: string,
  storyId: string | null,
): Promise<string | null> {
  const [row] = await firstAcrossParts(
    await shownParts(q, userId, storyId),
    1,
    (scope) =>
      q
        .select({ content: chatMessages.content, stamp: messageStamp, id: chatMessages.id })
        .from(chatMessages)
        .where(and(scope, eq(chatMessages.role, "assistant")))
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
        .limit(1),
    stampedBefore,
  );
  return row?.content ?? null;
}

/**
 * One page of the conversation's rows, oldest first: the newest `limit` (no cursor), the `limit` before a
 * cursor, the `limit` after one, or `limit` around a message (half before it, itself and the rest after).
 * A cursor the server did not make is InvalidInput; a message to centre on that the conversation does not
 * show is NotFound. `storyId` null is the main chat. The caller has checked the story is the user's (the
 * branch scope of /api/stories/{id}, or a live share link's story).
 */
export async function messageRowsPage(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string | null,
  query: PageQuery,
): Promise<RowPage> {
  if ([query.before, query.after, query.around].filter(Boolean).length > 1) {
    throw new InvalidInput("Pass at most one of before, after and around");
  }
  const q = ctx.db;
  const scopes = await shownParts(q, userId, storyId);
  let older: { rows: PagedRow[]; more: boolean } = { rows: [], more: false };
  let newer: { rows: PagedRow[]; more: boolean } = { rows: [], more: false };
  if (query.after) {
    newer = await side(q, scopes, "newer", newerThan(decodeCursor(query.after)), query.limit);
    // Reading on towards the newest: the reader came from the messages before (at least the cursor's own).
    older = { rows: [], more: newer.rows.length > 0 };
  } else if (query.around) {
    const target = await shownMessage(q, userId, storyId, query.around);
    if (!target) throw new NotFound("Message not found");
    const at = { at: target.stamp, id: target.id };
    // About half before it; a side with fewer messages leaves its share to the other.
    const half = Math.floor((query.limit - 1) / 2);
    const [before, from] = await Promise.all([
      side(q, scopes, "older", olderThan(at), query.limit - 1),
      side(q, scopes, "newer", notOlderThan(at), query.limit),
    ]);
    const olderTake = Math.min(before.rows.length, Math.max(half, query.limit - from.rows.length));
    const newerTake = query.limit - olderTake;
    older = {
      rows: before.rows.slice(before.rows.length - olderTake),
      more: before.more || before.rows.length > olderTake,
    };
    newer = { rows: from.rows.slice(0, newerTake), more: from.more || from.rows.length > newerTake };
  } else {
    const edge = query.before ? olderThan(decodeCursor(query.before)) : undefined;
    older = await side(q, scopes, "older", edge, query.limit);
  }
  const rows = [...older.rows, ...newer.rows];
  const first = rows[0];
  const last = rows.at(-1);
  return {
    rows,
    has_more: older.more,
    next_cursor: first && older.more ? encodeCursor(first) : null,
    has_newer: newer.more,
    newer_cursor: last && newer.more ? encodeCursor(last) : null,
    turns_before: await turnsBefore(q, scopes, first),
  };
}

/** One page of the conversation's messages as the API shows them (messageRowsPage, with versions and media). */
export async function messagePage(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  storyId: string | null,
  query: PageQuery,
): Promise<MessagePage> {
  const { rows, ...place } = await messageRowsPage(ctx, userId, storyId, query);
  return { messages: await withVersions(ctx, rows), ...place };
}
